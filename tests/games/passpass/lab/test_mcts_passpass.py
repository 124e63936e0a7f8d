"""The thinking bot of PtiPassPass and PhiPassPass (companion/games/passpass/mcts.py over
companion/lab/mcts.py): it sees only its seat's knowledge, plays legal and replayable
games in the lab, and beats the heuristic bot."""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Callable, Sequence

import pytest

from companion.games.passpass.bots import HeuristicBot
from companion.games.passpass.lab import reference_events
from companion.games.passpass.mcts import Knowledge, MctsBot, Memory, sample, seat_bot
from companion.games.passpass.rules import (
    Action,
    Announce,
    Call,
    Challenge,
    Event,
    PlayerView,
    Reveal,
    State,
    actors,
    apply,
    is_over,
    legal_actions,
    make_config,
    new_game,
    player_view,
)
from companion.games.passpass.rules.board import Board
from companion.games.passpass.rules.contract import HIDDEN
from companion.games.passpass.rules.tables import SEAT_BITS, SEAT_MASK, SIZE
from companion.games.passpass.selfplay import choose
from companion.lab.mcts import Spec, parse_kind
from companion.lab.model import Variant
from companion.lab.stats import wilson
from companion.lab.variants import VariantError, load_lab, parse_variants


def test_the_search_input_has_no_field_for_another_seats_hidden_facts() -> None:
    fields = {f.name: f.type for f in dataclasses.fields(Knowledge)}
    assert not set(fields) & HIDDEN
    assert all("State" not in str(kind) for kind in fields.values())
    # its one view is the seat's own: its hand and the token it holds, never the others'
    assert {f.name for f in dataclasses.fields(PlayerView)} == {"public", "seat", "hand", "holding"}


def _others_reshuffled(state: State, seat: int, rng: random.Random) -> State:
    """The same position for `seat`: the tokens it cannot see dealt again among the other
    hands (counts kept), and the token in flight changed when it is not the seat's."""
    others = [s for s in range(len(state.hands)) if s != seat]
    pool = [t for s in others for t in state.hands[s]]
    flight = state.holding is not None and state.magician != seat and state.masque
    if flight:
        pool.append(state.holding)
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        hands[s], pool = tuple(sorted(pool[: len(hands[s])])), pool[len(hands[s]) :]
    holding = pool[0] if flight else state.holding
    return dataclasses.replace(state, hands=tuple(hands), holding=holding)


class Twinned:
    """The thinking bot at seat 0, each decision also asked of a copy of it on a position
    whose hidden facts were dealt again: both must choose the same."""

    def __init__(self, bot: MctsBot, states: list[State]) -> None:
        self.bot, self.states, self.rng = bot, states, random.Random(9)
        self.compared = 0

    def observe(self, events: Sequence[Event]) -> None:
        self.bot.observe(events)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        twin = copy.deepcopy(self.bot)
        other = _others_reshuffled(self.states[-1], 0, self.rng)
        assert player_view(other, 0) == view
        chosen = self.bot.choose(view, legal)
        assert twin.choose(player_view(other, 0), legal) == chosen
        self.compared += other != self.states[-1]
        return chosen


def test_decisions_are_the_same_whatever_the_other_seats_hide() -> None:
    compared = sum(_twinned_game(first) for first in (0, 1, 2))
    assert compared > 10  # positions that really differed, decided the same


def _twinned_game(first: int) -> int:
    """A game of the thinking bot at seat 0, twinned: the positions compared."""
    config = make_config("ptipasspass", 3, first=first)
    states = [new_game(config, 0)[0]]
    seat0 = Twinned(MctsBot(Spec(12), random.Random(1), 0, config), states)
    bots = [seat0, *(HeuristicBot(random.Random(s), s, config.layout) for s in (1, 2))]
    while not is_over(states[-1]):
        state, events = apply(states[-1], choose(states[-1], bots))
        for bot in bots:
            bot.observe(events)
        states.append(state)
    return seat0.compared


def test_a_draw_gives_every_seat_the_memory_the_game_gives_it() -> None:
    """PhiPassPass, every placement masked (PHI-1): in each draw of seat 0's knowledge,
    the kinds every seat saw and the kinds seat 0 placed are the game's own, and every
    other seat remembers as many tokens of its own in each hat as in the game (their
    kinds are drawn), so that the playouts' bots reveal as the real ones can."""
    config = make_config("phipasspass", 3, first=1)
    state = new_game(config, 0)[0]
    game = Board(config)  # the same game on the engine's board, which keeps each memory
    memory = Memory(0, config.layout.spots, config.first)
    bots = [HeuristicBot(random.Random(s), s, config.layout) for s in range(3)]
    bots[0].memory = memory
    rng = random.Random(3)
    reveals = 0
    while not is_over(state):
        draw = sample(memory.knowledge(config, player_view(state, 0)), rng)
        assert draw.seen == game.seen and _mine(draw, 0) == _mine(game, 0)
        assert all(
            [SIZE[k] for k in _mine(draw, s)] == [SIZE[k] for k in _mine(game, s)] for s in (1, 2)
        )
        assert [SIZE[h] for h in draw.hats] == [SIZE[h] for h in game.hats]
        action = choose(state, bots)
        reveals += isinstance(action, Reveal)
        game.play(next(c for c in game.legal() if game.action(c) == action))
        state, events = apply(state, action)
        for bot in bots:
            bot.observe(events)
    assert reveals and any(game.seen)  # hats were seen: the draws kept them


def _mine(game: Board, seat: int) -> list[int]:
    return [m >> (SEAT_BITS * seat) & SEAT_MASK for m in game.secret]


def _variant(bots: list[str], games: int, players: int = 2, game: str = "ptipasspass") -> Variant:
    return parse_variants({"game": game, "players": players, "bots": bots, "games": games})[0]


def test_lab_variants_seat_thinking_bots_and_replay_them() -> None:
    for game in ("ptipasspass", "phipasspass"):
        variant = _variant(["mcts:4", "heuristic", "mcts:4/never-bluff"], 2, 3, game)
        lab = load_lab(game)
        record = lab.play(variant, 1)
        assert record == lab.play(variant, 1)
        assert record.finished and record.winners  # every action legal to the end


def test_in_timed_windows_the_thinking_bot_answers_and_keeps_its_restriction() -> None:
    """PTI-7's timed window (every seat answers at once): the game plays to its end, and
    an agent that may not call Menteur never does."""
    for game, players in (("phipasspass", 3), ("ptipasspass", 2)):
        bots = ["mcts:6/never-menteur", *["heuristic"] * (players - 1)]
        variant = parse_variants({"game": game, "players": players, "bots": bots,
                                  "games": 2, "rules": {"window": "timed"}})[0]  # fmt: skip
        for index in (0, 1):
            _, events = reference_events(variant, index, factory=seat_bot)
            calls = [e for e in events if e["kind"] == "verdict" and e["seat"] == 0]
            assert events[-1]["kind"] == "game_won"
            assert all(e["challenge"] == "doublon" for e in calls)


@pytest.mark.parametrize(
    ("kind", "problem"),
    [
        ("mcts:0", "1 to 100,000"),
        ("mcts:x", "iterations per decision"),
        ("mcts:50/", "name a restriction"),
        ("mcts:50/never-win", "unknown restriction 'never-win'; ptipasspass knows never-bluff"),
    ],
)
def test_a_bad_thinking_bot_is_one_error_naming_it(kind: str, problem: str) -> None:
    with pytest.raises(VariantError, match=problem):
        _variant([kind, "heuristic"], 1)


def test_kinds_name_iterations_and_restriction() -> None:
    assert parse_kind("mcts") == Spec(100)
    assert parse_kind("mcts:200/always-ok") == Spec(200, "always-ok")
    assert parse_kind("heuristic") is None


def test_thinking_beats_the_heuristic_in_two_player_ptipasspass() -> None:
    """At 50 iterations a decision, seats alternating: the win rate's 95 % interval lies
    above the 50 % of luck (bench/mcts_speed.py has the longer figure)."""
    games = 20
    variant = _variant(["mcts:50", "heuristic"], games)
    swapped = _variant(["heuristic", "mcts:50"], games)
    lab = load_lab("ptipasspass")
    wins = sum(
        (0 if i % 2 == 0 else 1) in lab.play(variant if i % 2 == 0 else swapped, i).winners
        for i in range(games)
    )
    assert wilson(wins, games).low > 0.5, wins


def test_thinking_beats_the_heuristic_in_three_player_phipasspass() -> None:
    """At 100 iterations a decision, alone against two heuristic bots, the first seat
    rotating (game i starts at seat i % 3, PTI-13): the win rate's 95 % interval lies above
    the 1/3 of luck (bench/mcts_speed.py has the longer figure)."""
    games = 45
    variant = _variant(["mcts:100", "heuristic", "heuristic"], games, 3, "phipasspass")
    lab = load_lab("phipasspass")
    wins = sum(0 in lab.play(variant, i).winners for i in range(games))
    assert wilson(wins, games).low > 1 / 3, wins


def _bluff(view: PlayerView, action: Action) -> bool:
    return isinstance(action, Announce) and action.token != view.holding


def _call(challenge: Challenge | None) -> Callable[[PlayerView, Action], bool]:
    def called(view: PlayerView, action: Action) -> bool:
        return isinstance(action, Call) and challenge in (None, action.challenge)

    return called


@pytest.mark.parametrize(
    ("restriction", "forbidden"),
    [
        ("never-bluff", _bluff),
        ("always-ok", _call(None)),
        ("never-menteur", _call(Challenge.MENTEUR)),
        ("never-doublon", _call(Challenge.DOUBLON)),
    ],
)
def test_a_restricted_agent_never_uses_its_element(
    restriction: str, forbidden: Callable[[PlayerView, Action], bool]
) -> None:
    """Seat 0 restricted, against heuristic bots that bluff and call: it never does what
    it may not, though the unrestricted agent does in the same game."""
    used: dict[str | None, int] = {}
    for spec in (Spec(4, restriction), Spec(4)):
        used[spec.restriction] = sum(_forbidden_uses(spec, forbidden, first) for first in (0, 1, 2))
    assert used == {restriction: 0, None: used[None]} and used[None] > 0


def _forbidden_uses(spec: Spec, forbidden: Callable[[PlayerView, Action], bool], first: int) -> int:
    config = make_config("ptipasspass", 3, first=first)
    bot = MctsBot(spec, random.Random(2), 0, config)
    bots = [bot, *(HeuristicBot(random.Random(s), s, config.layout) for s in (1, 2))]
    state = new_game(config, 0)[0]
    count = 0
    while not is_over(state):
        view, legal = player_view(state, 0), legal_actions(state)
        action = choose(state, bots)
        count += 0 in actors(state) and len(legal) > 1 and forbidden(view, action)
        state, events = apply(state, action)
        for b in bots:
            b.observe(events)
    return count
