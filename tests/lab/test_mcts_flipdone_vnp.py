"""The thinking bots of Flip Done (companion/games/flipdone/mcts.py) and Vous ne passerez
pas ! (companion/games/vnp/mcts.py): what they are given, legal and replayable games in
the lab, and their edge over each game's heuristic."""

from __future__ import annotations

import dataclasses
import random
import typing

from companion.games.flipdone.bots import heuristic_action
from companion.games.flipdone.mcts import (
    Knowledge,
    knowledge_of,
    sample,
    seat_bot,
    thinking_bot,
)
from companion.games.flipdone.rules import contract as flipdone_contract
from companion.games.flipdone.rules.actions import Build
from companion.games.flipdone.rules.board import COLOUR, NAMES, NO_CARD, Board
from companion.games.flipdone.rules.config import DECK, LINES, is_red, make_config
from companion.games.flipdone.rules.engine import apply, is_over, new_game
from companion.games.flipdone.rules.state import State
from companion.games.vnp.rules import contract as vnp_contract
from companion.lab.mcts import Spec
from companion.lab.model import Variant
from companion.lab.stats import wilson
from companion.lab.variants import load_lab, parse_variants


def test_flipdone_search_input_has_no_field_for_hidden_facts() -> None:
    fields = {f.name for f in dataclasses.fields(Knowledge)}
    assert not fields & flipdone_contract.ENGINE.hidden
    assert not vnp_contract.ENGINE.hidden  # VNP hides nothing: the board is all a seat knows


def test_flipdone_thinking_bot_is_given_its_seats_knowledge_never_a_state() -> None:
    """By type, as PassPass's and Swiped's bots are given a seat's view: the search's entry
    point takes a `Knowledge` and the legal actions; `seat_bot` (the table's part) makes
    the knowledge from the state."""
    hints = typing.get_type_hints(thinking_bot(Spec(3), random.Random(1)))
    assert hints["knowledge"] is Knowledge and State not in hints.values()


def _unseen_dealt_again(state: State, seat: int, rng: random.Random) -> State:
    """The same position for `seat`: every card it has not seen dealt again at random
    among the others' hands, the unflipped face-down squares, the deck and the others'
    discards; and another seed for the phases to come."""
    k = knowledge_of(state, seat)
    shown = {c for c in (*state.faces, *k.turned, state.pending) if c is not None}
    own = set(state.hands[seat]) | set(state.played[seat])
    own_discards = [c for c in state.discards if c in own]
    places = [
        *[
            ("under", i)
            for i, c in enumerate(state.under)
            if c is not None and not state.flipped[i]
        ],
        *[("hand", s) for s in range(3) if s != seat for _ in state.hands[s]],
        *[("deck", i) for i in range(len(state.deck))],
        *[("discard", i) for i in range(len(state.discards) - len(own_discards))],
    ]
    cards = [c for c in (*state.under, *state.deck, *state.discards) if c and c not in shown]
    cards = [c for c in cards if c not in own] + [
        c for s in range(3) if s != seat for c in state.hands[s]
    ]
    assert len(cards) == len(places)
    rng.shuffle(cards)
    under, hands = list(state.under), [[] if s != seat else list(state.hands[s]) for s in range(3)]
    deck, discards = list(state.deck), list(own_discards)
    for (where, i), card in zip(places, cards, strict=True):
        if where == "under":
            under[i] = card
        elif where == "hand":
            hands[i].append(card)
        elif where == "deck":
            deck[i] = card
        else:
            discards.append(card)
    return dataclasses.replace(
        state, seed=state.seed + 1, under=tuple(under), deck=tuple(deck),
        hands=tuple(tuple(sorted(h)) for h in hands), discards=tuple(discards),
    )  # fmt: skip


def test_flipdone_decisions_are_the_same_whatever_the_others_hide() -> None:
    state, _ = new_game(make_config(first=0), 11)
    rng, differed = random.Random(4), 0
    for step in range(40):
        if is_over(state):
            break
        seat = state.turn
        if step % 3 == 0 and len(state.hands[seat]) > 1:
            other = _unseen_dealt_again(state, seat, rng)
            assert knowledge_of(other, seat) == knowledge_of(state, seat)
            differed += other != state
            mine = seat_bot("mcts:6", random.Random(step))(state)
            assert seat_bot("mcts:6", random.Random(step))(other) == mine
        state, _ = apply(state, heuristic_action(state, rng))
    assert differed >= 5


def _as_known(board: Board, seat: int) -> tuple[object, ...]:
    """All a seat knows of a board: all but the cards of the unflipped face-down squares
    and of the others' hands (their sizes it knows), and what the others played."""
    return (
        board.stage, board.deal, board.manche, board.phase, board.extra, board.overtime,
        board.tied, board.first, board.turn, board.tokens, board.baseline, board.manche_wins,
        board.winners, board.lines, board.faces, board.flipped, board.free, board.flippable,
        [u for u, f in zip(board.under, board.flipped, strict=True) if f], board.pending,
        board.hand_sizes, board.cards, board.flips_done, board.board_seen, board.board_red,
        board.hands[seat], board.colours[seat], board.played[seat], board.paid_seen[seat],
        board.paid_red[seat],
    )  # fmt: skip


def test_flipdone_draws_keep_what_the_seat_knows_and_deal_only_unseen_cards() -> None:
    """A draw (a board) is the true position but for the cards the seat has not seen: the
    same grid, lines, tokens, turn and own hand; the unflipped face-down squares and the
    others' hands get cards it has not seen this phase, each once (their colours are what
    counts, FD-1)."""
    state, _ = new_game(make_config(first=1), 5)
    rng, drawn_differently = random.Random(2), 0
    for _ in range(30):
        seat = state.turn
        truth = state.fork()
        draw = sample(knowledge_of(state, seat), rng)
        assert _as_known(draw, seat) == _as_known(truth, seat)
        flipped = state.flipped
        hidden = [c for c, f in zip(draw.under, flipped, strict=True) if not f and c != NO_CARD]
        hidden += [c for s, hand in enumerate(draw.hands) if s != seat for c in hand]
        seen = {*state.faces, *state.hands[seat], *state.played[seat]}
        seen |= {c for c, f in zip(state.under, flipped, strict=True) if f}
        assert len(set(hidden)) == len(hidden) and not {NAMES[c] for c in hidden} & seen
        assert all(draw.colours[s] == [COLOUR[c] for c in draw.hands[s]] for s in range(3))
        assert {NAMES[c] for c in hidden} <= {c for c in DECK if c not in seen}
        drawn_differently += draw.under != truth.under or draw.hands != truth.hands
        state, _ = apply(state, heuristic_action(state, rng))
    assert drawn_differently >= 20


def _handed_over(state: State) -> int:
    """The most tokens a line offers the next seat: an unowned line with two elements of
    one colour and an empty square, which a seat holding that colour makes (FD-5)."""
    handed = [0]
    for line, owner in zip(LINES, state.owners, strict=True):
        faces = [state.faces[sq - 1] for sq in line.squares]
        if owner is None and faces.count(None) == 1:
            handed += [line.value] if len({is_red(f) for f in faces if f is not None}) == 1 else []
    return max(handed)


def test_flipdone_thinking_bot_seldom_hands_the_next_seat_a_line() -> None:
    """Seat 0 holds four red cards, the centre is red, and seat 2 has just built black on
    square 1: a red build anywhere but square 9 leaves two reds and an empty square in a
    line (a row 2 tokens, a diagonal 3, a column 1), which the next seat makes if it
    holds a red (FD-4, FD-5). Every build is worth 0 to the heuristic, which weighs only
    its own play: it hands a row or a diagonal over in about half its draws. The thinking bot plays
    the others' replies out: it never does (a column's 1 token is within its noise)."""
    state, _ = new_game(make_config(first=2), 21)
    assert is_red(state.faces[4]) and all(is_red(c) for c in state.hands[0])
    black = next(c for c in state.hands[2] if not is_red(c))
    state, _ = apply(state, Build(2, black, 1))
    heuristic = [apply(state, heuristic_action(state, random.Random(r)))[0] for r in range(20)]
    thinking = [apply(state, seat_bot("mcts:30", random.Random(r))(state))[0] for r in range(20)]
    assert sum(_handed_over(s) >= 2 for s in heuristic) >= 6
    assert max(_handed_over(s) for s in thinking) <= 1


def _variant(game: str, bots: list[str], players: int, games: int = 2) -> Variant:
    return parse_variants({"game": game, "players": players, "bots": bots, "games": games})[0]


def test_lab_variants_seat_thinking_bots_and_replay_them() -> None:
    for variant in (
        _variant("flipdone", ["mcts:3", "heuristic", "mcts:3/never-break"], 3),
        _variant("vnp", ["mcts:3", "mcts:3/smallest-first"], 2),
    ):
        lab = load_lab(variant.game)
        record = lab.play(variant, 1)
        assert record == lab.play(variant, 1)
        assert record.finished  # the engine refused no action to the end


def test_thinking_beats_the_heuristic_in_flipdone() -> None:
    """At 30 iterations a decision, alone against two heuristic bots, the first seat
    rotating (game i starts at seat i % 3): the win rate's 95 % interval lies above the 1/3
    of luck (bench/mcts_speed.py: 57 % [49 %, 65 %] of 150)."""
    games = 60
    variant = _variant("flipdone", ["mcts:30", "heuristic", "heuristic"], 3, games)
    lab = load_lab("flipdone")
    wins = sum(
        1 / len(record.winners)
        for i in range(games)
        if 0 in (record := lab.play(variant, i)).winners
    )
    assert wilson(wins, games).low > 1 / 3, wins


def test_thinking_beats_largest_first_in_two_player_vnp() -> None:
    """At 60 iterations a decision, seats alternating: the win rate's 95 % interval lies
    above the 50 % of luck (bench/mcts_speed.py: 89 % [79 %, 95 %] of 60 at 100)."""
    games = 8
    lab = load_lab("vnp")
    wins = 0.0
    for i in range(games):
        bots = ["mcts:60", "largest"] if i % 2 == 0 else ["largest", "mcts:60"]
        record = lab.play(_variant("vnp", bots, 2, games), i)
        seat = bots.index("mcts:60")
        wins += 1 / len(record.winners) if seat in record.winners else 0
    assert wilson(wins, games).low > 0.5, wins
