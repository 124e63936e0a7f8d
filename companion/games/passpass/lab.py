"""PtiPassPass and PhiPassPass in the designer's lab: `PTI_LAB` and `PHI_LAB`.

A lab game is played on the engine's board (rules/board.py) by the bots on the board
(bots.py), which tells a `Tally` what happens (tally.py); `play_reference` plays the very
same game as a table does (the engine's `apply`, the bots at table seats, selfplay.py) and
reads its events as a journal is read (`record_of`, reader.py): both give the same record
(tests/games/passpass/lab/test_passpass.py). Game i of a variant is seeded as `companion
selfplay` seeds it: bot of seat s from `random.Random(f"{seed}:{i}:{s}")`, the first player
is seat i % players (PTI-13).

A variant's `rules` are the engine's Config settings, as plain TOML values: `window`
("round" or "timed", PTI-7), `next_starter` ("left_of_winner" or "winner", PTI-12) and
`turn_limit` (a whole number of turns after which a manche is void, PTI-15).

In a timed window the loop asks every seat that may call; when several call, the first
clockwise from the Magicien's left counts (PTI-7, PHI-2). Only the winning call reaches the
engine, so the lab counts the calls made together itself, and the table's path writes a
`calls_together` record among the events it hands to `record_of`, as the table's referee
journals one.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from companion.games.passpass import tally as T
from companion.games.passpass.bots import BOTS, Bot, board_bot, make_bot, timed_calls
from companion.games.passpass.lab_words import WORDS, note
from companion.games.passpass.reader import CALLS_TOGETHER, Reader
from companion.games.passpass.rule_settings import CLOCK_KEYS, VARIANT_KEYS, wrong_rule
from companion.games.passpass.rules import (
    PHIPASSPASS,
    PTIPASSPASS,
    RULESETS,
    Action,
    CloseWindow,
    Config,
    Phase,
    RuleSet,
    Starter,
    WindowMode,
    apply,
    clockwise_first,
    is_over,
    legal_actions,
    make_config,
    new_game,
)
from companion.games.passpass.rules.board import ANNOUNCE, OVER, PLACE, REVEAL, WINDOW, Board
from companion.games.passpass.selfplay import choose, window_calls
from companion.games.passpass.table_settings import read_layout
from companion.games.passpass.tally import Tally, to_record
from companion.lab import checks
from companion.lab.model import (
    GameRecord,
    LabGame,
    Mean,
    PerSeat,
    Rate,
    Refusal,
    Section,
    ThinkingTable,
    Variant,
)
from companion.lab.thinking import extend
from companion.referee.pace import SetupError

MAX_ACTIONS = 1_000_000
"""A game still going after this many actions is unfinished (random seats can call for
ever)."""
PTI_EDITION = T.Edition(
    keys=T.COUNT_KEYS,
    rulings=(
        ("PTI-4", (T.VISIBLE_PLACEMENTS,)),
        ("PTI-5", (T.SWAPS,)),
        ("PTI-6", (T.OCCUPIED_DROPS,)),
        ("PTI-7", (T.TOGETHER,)),
        ("PTI-10", (T.REWARD_NONE,)),
        ("PTI-11", (T.RICH_PICKS,)),
        ("PTI-15", (T.DEAD_MANCHES, T.LIMIT_MANCHES)),
    ),
)
_NOT_PHI = ("visible_placements", "visible_calls", "visible_wins", "reward_drop",
            "reward_token", "reward_none")  # fmt: skip
PHI_EDITION = T.Edition(
    keys=tuple(k for k in T.COUNT_KEYS if k not in _NOT_PHI),  # PHI-1, PHI-5
    rulings=(
        ("PHI-2", (T.TOGETHER,)),
        ("PTI-5", (T.SWAPS,)),
        ("PTI-6", (T.OCCUPIED_DROPS,)),
        ("PTI-11", (T.RICH_PICKS,)),
        ("PTI-15", (T.DEAD_MANCHES, T.LIMIT_MANCHES)),
    ),
)
BotFactory = Callable[[str, random.Random, int, Config], Bot]
"""(kind, its RNG, seat, config) -> the bot at that seat."""

EDITIONS = {PTIPASSPASS.name: PTI_EDITION, PHIPASSPASS.name: PHI_EDITION}

TOGETHER_WORDS = "calls made together in a timed window, the first clockwise from the "
RULINGS = {
    "PTI-4": "a Visible turn's placement: the animal shown, only Doublon may be called",
    "PTI-5": "a Magicien swapped two contiguous hats before revealing",
    "PTI-6": "a token dropped into a hat that already held one",
    "PTI-7": TOGETHER_WORDS + "Magicien's left counts",
    "PHI-2": TOGETHER_WORDS + "active player's left counts",
    "PTI-10": "a successful Challenger with nothing to drop and no token to take: no reward",
    "PTI-11": "a winning reveal with several tokens in a lifted hat: the best pick taken",
    "PTI-15": "a void manche (no three hats can win, or the turn limit): dealt again",
}


# ------------------------------------------------------------------------- variants


def config_of(variant: Variant, index: int) -> Config:
    """Game `index`'s config: the first player rotates with the index (PTI-13)."""
    rules = variant.rules
    layout = rules.get("layout")
    return _config(
        variant.game,
        variant.players,
        index % variant.players,
        rules.get("window", WindowMode.ROUND),
        rules.get("next_starter", Starter.LEFT_OF_WINNER),
        rules.get("turn_limit"),
        json.dumps(layout, sort_keys=True) if layout else None,
    )


@lru_cache(maxsize=256)
def _config(
    game: str, players: int, first: int, window: str, next_starter: str, turn_limit: int | None,
    layout: str | None = None,
) -> Config:  # fmt: skip
    """Configs are frozen: one per seat count, first player and rules does for every game
    (building a layout costs more than a short lab game's bookkeeping). `layout`: an own
    hat layout as JSON (a TOML table is no cache key)."""
    return make_config(
        game, players, first=first, window=window, next_starter=next_starter,
        turn_limit=turn_limit, layout=read_layout(json.loads(layout)) if layout else None,
    )  # fmt: skip


def _checker(rules: RuleSet) -> Callable[[Variant], None]:
    def check(variant: Variant) -> None:
        """`Refusal` with one sentence for what this edition cannot play."""
        checks.game(variant, rules.name)
        checks.seats(rules.name, variant.players)
        checks.bots(variant, BOTS)
        clock = [key for key in CLOCK_KEYS if key in variant.rules]
        if clock:
            raise WORDS.refusal("clock", keys=checks.listed(clock))
        checks.rule_keys(variant, VARIANT_KEYS)
        checks.raise_wrong(wrong_rule(variant.rules))
        try:
            read_layout(variant.rules.get("layout"))
        except SetupError as exc:  # the table's words
            raise Refusal("layout", str(exc)) from None

    return check


# ---------------------------------------------------------------------------- games


def _player(rules: RuleSet) -> Callable[[Variant, int], GameRecord]:
    edition = EDITIONS[rules.name]

    def play(variant: Variant, index: int) -> GameRecord:
        """Game `index` of the variant on the engine's board, counted as it goes."""
        config = config_of(variant, index)
        tally = Tally(config.players)
        board, actions = self_play(config, variant.bots, variant.seed, index, tally)
        winner = board.winner if board.phase is OVER else None
        return to_record(edition, tally, config.first, winner, actions)

    return play


def self_play(
    config: Config,
    kinds: tuple[str, ...],
    seed: int,
    index: int,
    tally: Tally,
    max_actions: int = MAX_ACTIONS,
) -> tuple[Board, int]:
    """Game `index` of a self-play run on a board told to `tally`: the final position and
    the actions played. The bots are seeded `random.Random(f"{seed}:{index}:{seat}")`, as
    `reference_events` seats them at a table; `tally` also counts the legal choices of each
    move that is no window's, the calls made together in a timed window (PTI-7, PHI-2) and
    the lead after each manche won."""
    board = Board(config, tally)
    bots = [
        board_bot(kind, random.Random(f"{seed}:{index}:{seat}"), seat)
        for seat, kind in enumerate(kinds)
    ]
    actions = 0
    choices = tally.choices
    manche_wins = tally.manche_wins
    play, designate, announce = board.play, board.play_designate, board.play_announce
    placements = board.tables.place  # a placement's legal codes, by the Magicien's hand
    while board.phase is not OVER and actions < max_actions:
        phase = board.phase
        if phase is WINDOW:
            speaker = board.speaker
            if speaker >= 0:  # ROUND: the seat whose turn it is to speak
                challenge = bots[speaker].window(board, speaker)
                if challenge:
                    board.play_call(speaker, challenge)
                else:
                    board.play_ok()
            else:
                calls = timed_calls(board, bots)
                if len(calls) > 1:
                    tally.counts[T.TOGETHER] += 1
                play(calls[0] if calls else 0)
        else:
            # Most moves are placements: their count of legal codes is read from the
            # table `board.legal()` reads it from, without the call (7 % of a game).
            choices[1] += 1
            if phase is PLACE:
                m = board.magician
                choices[0] += len(placements[board.hands[m]])
                code = bots[m].place(board)
                designate(code // 3, code % 3)
            elif phase is ANNOUNCE:
                choices[0] += 3  # any of the three kinds (PTI-6): board.legal() is (0, 1, 2)
                announce(bots[board.magician].announce(board))
            elif phase is REVEAL:
                choices[0] += len(board.legal())
                m = board.magician
                won = manche_wins[m]
                play(bots[m].reveal(board))
                if manche_wins[m] != won:
                    tally.mark_lead(actions + 1)
            else:
                choices[0] += len(board.legal())
                play(bots[board.challenger].reward(board))
        actions += 1
    return board, actions


def play_reference(variant: Variant, index: int) -> GameRecord:
    """Game `index` of the variant as a table plays it (the engine's `apply`, the bots at
    table seats), read back from its events as a journal is: what `LabGame.play` equals."""
    choices: list[int] = []
    config, events = reference_events(variant, index, choices)
    record = RECORDERS[variant.game](variant.players, config.first, events)
    return replace(record, choices=(sum(choices), len(choices)))


def reference_events(
    variant: Variant,
    index: int,
    choices: list[int] | None = None,
    factory: BotFactory | None = None,
) -> tuple[Config, list[dict[str, Any]]]:
    """Game `index` as `selfplay` plays it: its config and every event as JSON, with a
    `calls_together` record before the verdict where calls came together. `choices`
    receives the number of legal actions of each move that is no window's; `factory` seats
    other bots than the game's own (the thinking bot, companion/games/passpass/mcts.py)."""
    config = config_of(variant, index)
    bots = [
        factory(kind, random.Random(f"{variant.seed}:{index}:{seat}"), seat, config)
        if factory is not None
        else make_bot(kind, random.Random(f"{variant.seed}:{index}:{seat}"), seat, config.layout)
        for seat, kind in enumerate(variant.bots)
    ]
    state, _ = new_game(config, 0)  # the opening is not counted (nor is it by the lab)
    events: list[dict[str, Any]] = []
    actions = 0
    while not is_over(state) and actions < MAX_ACTIONS:
        action: Action
        if state.phase is Phase.WINDOW and state.speaker is None:  # selfplay.choose, TIMED
            calls = {call.seat: call for call in window_calls(state, bots)}
            if len(calls) > 1:
                seat = clockwise_first(state, calls)
                events.append({"kind": CALLS_TOGETHER, "seats": sorted(calls), "counted": seat})
            action = calls[clockwise_first(state, calls)] if calls else CloseWindow()
        else:
            if choices is not None and state.phase is not Phase.WINDOW:
                choices.append(len(legal_actions(state)))
            action = choose(state, bots)
        state, made = apply(state, action)
        actions += 1
        for bot in bots:
            bot.observe(made)
        events.extend(e.to_json() for e in made)
    return config, events


def _recorder(rules: RuleSet) -> Callable[[int, int, Iterable[Mapping[str, Any]]], GameRecord]:
    edition = EDITIONS[rules.name]

    def record_of(players: int, first: int, events: Iterable[Mapping[str, Any]]) -> GameRecord:
        """The record of a game from its events as JSON (a played or a journaled game)."""
        return Reader(rules, edition, players, first).feed(events).record()

    return record_of


RECORDERS = {name: _recorder(rules) for name, rules in RULESETS.items()}


def decisions(record: GameRecord) -> int:
    """The game's decisions: each placement (the hat), each animal announced (a Masqué
    turn's: a Visible turn shows it, PTI-4; in PhiPassPass, after the Doublon window, so
    none once Doublon was called, PHI-2), every challenge called, reward chosen, swap
    and reveal. Letting a window go (an OK, or the silence that closes a timed window) is
    no decision counted, so a spoken round of OKs and a timed window give the same count
    for the same game."""
    c = record.counts
    announced_first = "visible_placements" in c  # PtiPassPass: announced, then challenged
    unannounced = 0 if announced_first else c.get("doublon_calls", 0)
    return round(sum(map(c.get, _DECIDED, _NONE)) - unannounced)


_DECIDED = ("placements", "masque_placements", "calls", "reward_drop", "reward_token",
            "swaps", "reveals")  # fmt: skip
"""The counts of a record that are decisions (`decisions`)."""
_NONE = (0,) * len(_DECIDED)


def _notes(rules: RuleSet) -> Callable[[Variant], Sequence[str]]:
    def notes(variant: Variant) -> Sequence[str]:
        try:
            config = config_of(variant, 0)
        except ValueError:
            return ()
        players, layout = variant.players, config.layout
        said = [note("layout", spots=layout.spots, lines=len(layout.lines), tokens=3 * players)]
        if not rules.reward:
            said.append(note("no_reward", turns=3 * players + 1))
        if config.turn_limit is not None:
            said.append(note("turn_limit", turns=config.turn_limit))
        if config.window is not WindowMode.TIMED:
            together = "PHI-2" if variant.game == "phipasspass" else "PTI-7"
            said.append(note("spoken", together=together))
        return said

    return notes


# ---------------------------------------------------------------------------- report


def _sections(rules: RuleSet) -> tuple[Section, ...]:
    visible = rules.visible_turns
    challenges: list[Mean | Rate | PerSeat] = [
        Rate("placements challenged", "calls", "placements"),
        Mean("Doublon calls", "doublon_calls"),
        Rate("Doublon succeeds", "doublon_wins", "doublon_calls"),
        Mean("Menteur calls", "menteur_calls"),
        Rate("Menteur succeeds", "menteur_wins", "menteur_calls"),
    ]
    if visible:  # PTI-4; PhiPassPass has only masked placements (PHI-1)
        challenges += [
            Rate("Masqué placements challenged", "masque_calls", "masque_placements"),
            Rate("challenges of a Masqué placement succeed", "masque_wins", "masque_calls"),
            Rate("Visible placements challenged", "visible_calls", "visible_placements"),
            Rate("challenges of a Visible placement succeed", "visible_wins", "visible_calls"),
        ]
    challenges += [
        PerSeat("calls", "calls"),
        PerSeat("successful calls", "call_wins"),
    ]
    sections = [
        Section(
            "Placements",
            (
                Mean("placements", "placements"),
                Rate("placements into an occupied hat (PTI-6)", "occupied_drops", "placements"),
            ),
        ),
        Section("Challenges", tuple(challenges)),
    ]
    if rules.reward:
        sections.append(
            Section(
                "Rewards (PTI-10)",
                (
                    Mean("a token dropped", "reward_drop"),
                    Mean("a Challenge token taken", "reward_token"),
                    Mean("nothing possible", "reward_none"),
                ),
            )
        )
    sections += [
        Section(
            "Reveals",
            (
                Mean("reveals tried", "reveals"),
                Mean("reveals won", "reveal_wins"),
                Rate("reveals win", "reveal_wins", "reveals"),
                Mean("swaps (PTI-5)", "swaps"),
                Rate("reveals after a swap win", "swap_reveal_wins", "swap_reveals"),
            ),
        ),
        Section(
            "Manches",
            (
                Mean("dead manches (PTI-15)", "dead_manches"),
                Mean("manches void at the turn limit (PTI-15)", "limit_manches"),
                PerSeat("manches won", "manche_wins"),
            ),
        ),
    ]
    return tuple(sections)


def _lab(rules: RuleSet) -> LabGame:
    ids = [ruling for ruling, _ in EDITIONS[rules.name].rulings]
    lab = LabGame(
        game=rules.name,
        rulings={ruling: RULINGS[ruling] for ruling in ids},
        sections=_sections(rules),
        check=_checker(rules),
        play=_player(rules),
        record_of=RECORDERS[rules.name],
        turn_kinds=frozenset({"turn"}),
        decision_kinds=frozenset({"designate", "announce", "verdict", "reward", "swap", "reveal"}),
        notes=_notes(rules),
        decisions=decisions,
        words=WORDS,
    )
    return extend(lab, _thinking)


@lru_cache(maxsize=1)
def _thinking() -> ThinkingTable:
    """The thinking bot's table (its module imported only when a variant seats one)."""
    from companion.games.passpass.mcts import RESTRICTIONS, seat_bot

    def play(variant: Variant, index: int) -> GameRecord:
        """Game `index` of a variant seating thinking bots, as a table plays it (the
        engine's `apply`), measured from its events like a journaled game (the other
        seats play as `play_reference`)."""
        config, events = reference_events(variant, index, factory=seat_bot)
        return RECORDERS[variant.game](variant.players, config.first, events)

    return ThinkingTable(
        restrictions={name: words for name, (words, _) in RESTRICTIONS.items()},
        stand_in="heuristic",
        play=play,
    )


PTI_LAB = _lab(PTIPASSPASS)
PHI_LAB = _lab(PHIPASSPASS)
LABS = {lab.game: lab for lab in (PTI_LAB, PHI_LAB)}
