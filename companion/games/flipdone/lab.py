"""Flip Done in the designer's lab: variants, seeded bot games played on the engine's
board, and the record of any game read from its events.

Game i of a variant: rng = Random(f"{seed}:{i}"), one bot per seat with
Random(rng.random()), the first seat i mod 3, and the engine seeded with
rng.randrange(2**31). `LAB.play` plays it on the engine's board (rules/board.py), which
tells a `Tally` what happens; `play_reference` plays it as a table does (the engine's
`apply`, the bots at table seats) and reads its events as a journal is read (`record_of`,
reader.py): both give the same record (tests/games/flipdone/lab/test_flipdone.py).

Variant.rules takes the keys of a table's `[game.rules]` (`RULE_KEYS` of the referee):
phases, manches, first_element, manche_tie, tie_phase_limit. Unset, they are the book's:
3 manches of 3 phases, the first element on the centre, ties broken by the cumulative
net gain, and no cap on tie-break phases (FD-2, FD-10).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache

from companion.games.flipdone.bots import BOTS, BoardBot, make_bot
from companion.games.flipdone.lab_words import WORDS, note
from companion.games.flipdone.reader import record_of
from companion.games.flipdone.rules import (
    HAND_SIZE,
    LINES,
    PLAYERS,
    SQUARES,
    Config,
    Event,
    FirstElement,
    MancheTie,
    apply,
    legal_actions,
    make_config,
    new_game,
)
from companion.games.flipdone.rules.board import OVER, PLACE_FIRST, Board
from companion.games.flipdone.tally import KIND_OF_LINE, KINDS, Tally, record
from companion.lab import checks
from companion.lab.model import (
    GameRecord,
    LabGame,
    Mean,
    PerSeat,
    Rate,
    Section,
    ThinkingTable,
    Variant,
)
from companion.lab.thinking import extend

GAME = "flipdone"
SEED_RANGE = 2**31
"""The engine's seed is rng.randrange(SEED_RANGE), as today's self-play draws it."""

WHOLE_KEYS = {"phases": 1, "manches": 1, "tie_phase_limit": 0}
"""Whole-number rules and their least value."""
WORD_KEYS: dict[str, tuple[str, ...]] = {
    "first_element": tuple(str(e) for e in FirstElement),
    "manche_tie": tuple(str(t) for t in MancheTie),
}

RULINGS = {
    "FD-1": "tokens floored at zero: the bank made up a break, or a penalty was cut short",
    "FD-3": "a seat with no card was skipped",
    "FD-5": "one play made several lines at once",
    "FD-6": "a flip broke another player's line (value taken) or left it aligned (bonus)",
    "FD-7": "a flip in the flipper's own aligned line: no points, lost if it broke",
    "FD-8": "a third flip in a line scored nothing (break, kept line or new alignment)",
    "FD-9": "a card left in hand at a phase's end, paid with a token",
    "FD-10": "a tie (manche or game) played one more phase",
}


# ---------------------------------------------------------------------- the games


def _game_setup(variant: Variant, index: int) -> tuple[Config, int, list[random.Random]]:
    """Game `index`'s config, engine seed and the seats' random generators."""
    rng = random.Random(f"{variant.seed}:{index}")
    rngs = [random.Random(rng.random()) for _ in range(PLAYERS)]
    config = make_config(first=index % PLAYERS, **dict(variant.rules))
    return config, rng.randrange(SEED_RANGE), rngs


def play(variant: Variant, index: int) -> GameRecord:
    """Game `index` of the variant."""
    return play_with(variant, index, lambda kind, rng: BOTS[kind])


def play_with(
    variant: Variant, index: int, bot_of: Callable[[str, random.Random], BoardBot]
) -> GameRecord:
    """Game `index` of the variant, seat s played by `bot_of(kind of s, its rng)` (the
    thinking bot's seats are given theirs by `mcts.py`)."""
    config, seed, rngs = _game_setup(variant, index)
    bots = [bot_of(kind, rng) for kind, rng in zip(variant.bots, rngs, strict=True)]
    tally = Tally()
    board = Board(config, seed, tally)
    legal = 0
    while board.stage is not OVER:
        seat = board.turn
        # The plays board.legal() lists, counted without listing them (the branching
        # factor): the first element's squares (FD-2), or each card of the hand built on
        # a free square, paid to flip an element never flipped, or discarded (FD-3);
        # free squares and elements never flipped are the squares not flipped yet.
        if board.stage is PLACE_FIRST:
            legal += SQUARES
        else:
            legal += board.hand_sizes[seat] * (SQUARES - board.flips_done + 1)
        board.play(bots[seat](board, rngs[seat]))
    tally.choices = [legal, tally.decisions()]
    return record(tally, PLAYERS, config.first)


def play_reference(variant: Variant, index: int) -> GameRecord:
    """The same game as a table plays it: through the engine's `apply`, the bots at table
    seats, its record read from its events as a journal's is."""
    config, seed, rngs = _game_setup(variant, index)
    bots = [make_bot(kind, rng) for kind, rng in zip(variant.bots, rngs, strict=True)]
    state, opening = new_game(config, seed)
    events: list[Event] = list(opening)
    choices = [0, 0]
    while legal := legal_actions(state):
        choices[0] += len(legal)
        choices[1] += 1
        state, happened = apply(state, bots[state.turn](state))
        events.extend(happened)
    played = record_of(PLAYERS, config.first, [e.to_json() for e in events])
    return replace(played, choices=(choices[0], choices[1]))


@cache
def _thinking() -> ThinkingTable:
    """The thinking bot's table, its games played on the lab's board (its module imported
    only when a variant seats one)."""
    from companion.games.flipdone.mcts import RESTRICTIONS, board_bot

    return ThinkingTable(
        restrictions={name: words for name, (words, _) in RESTRICTIONS.items()},
        stand_in="heuristic",
        play=lambda variant, index: play_with(variant, index, board_bot),
    )


# ---------------------------------------------------------------------- checks


def check(variant: Variant) -> None:
    """`Refusal`, one sentence naming the setting, for a variant Flip Done cannot play."""
    from companion.games.flipdone.referee import RULE_KEYS

    checks.game(variant, GAME)
    checks.seats(GAME, variant.players)
    checks.bots(variant, BOTS)
    checks.rule_keys(variant, RULE_KEYS)
    for key, least in WHOLE_KEYS.items():
        default = None if key == "tie_phase_limit" else least  # no cap: the book (FD-10)
        checks.whole(variant.rules, key, default, least)
    for key, words in WORD_KEYS.items():
        checks.one_of(variant.rules, key, words, words[0])


# ---------------------------------------------------------------------- the report


def notes(variant: Variant) -> Sequence[str]:
    """What the rules' arithmetic makes certain, from the variant's own config (its seats;
    hands and grid are fixed by FD-2, no Config field sets them)."""
    config = make_config(**dict(variant.rules))
    return phase_facts(config.players, HAND_SIZE, SQUARES)


def phase_facts(players: int, hand: int, squares: int) -> list[str]:
    """The facts a phase's arithmetic makes certain: cards dealt against the plays the grid
    takes (FD-9), equal hands played in turn (FD-3), and what a break costs (FD-1)."""
    dealt = players * hand
    builds = squares - 1  # the first element stands on one square (FD-2)
    flips = squares  # each element turns over once (FD-3)
    grid = builds + flips
    facts = []
    if dealt <= grid:
        facts.append(note("fd9_never", dealt=dealt, players=players, hand=hand, builds=builds,
                          flips=flips, grid=grid))  # fmt: skip
        facts.append(note("fd9_fixed", players=players, hand=hand, squares=squares, grid=grid,
                          least=grid // players + 1))  # fmt: skip
    else:
        facts.append(note("fd9_can", dealt=dealt, players=players, hand=hand, grid=grid,
                          left=dealt - grid))  # fmt: skip
    facts.append(note("fd3_never", hand=hand))
    bank = note("fd1_bank")
    facts.append(note("fd1_no_floor", said=bank) if dealt <= grid else note("end", said=bank))
    return facts


def _kind_section(index: int, kind: str) -> Section:
    value = LINES[KIND_OF_LINE.index(index)].value
    return Section(
        f"{kind.capitalize()} ({value} point{'s' if value > 1 else ''}), per game",
        (
            Mean("made (FD-5)", f"{kind} made"),
            Mean("points for making them", f"{kind} made points"),
            Mean("broken by another's flip (FD-6)", f"{kind} broken"),
            Mean("points the breakers took", f"{kind} broken points"),
            Mean("kept aligned by another's flip (FD-6)", f"{kind} held"),
            Mean("owners' bonus for holding", f"{kind} held points"),
            Mean("lost with no points (FD-7, FD-8)", f"{kind} lost"),
        ),
    )


SECTIONS = (
    *(_kind_section(i, kind) for i, kind in enumerate(KINDS)),
    Section(
        "Plays, per game",
        (
            Mean("plays (FD-3)", "plays"),
            Mean("builds", "builds"),
            Mean("flips", "flips"),
            Mean("discards", "discards"),
            Mean("first elements placed (FD-2 variant)", "first elements placed"),
            Mean("breaks of another's line (FD-6)", "breaks"),
            Mean("another's line kept aligned (FD-6)", "kept lines"),
            Rate("flips that broke another's line", "breaks", "flips"),
            Rate("flips that kept another's line", "kept lines", "flips"),
            Mean("own line broken by its owner (FD-7)", "own lines broken"),
            Mean("own line flipped, still aligned (FD-7)", "own lines kept"),
            Mean("third flip broke an owned line (FD-8)", "third flips breaking"),
            Mean("third flip kept an owned line (FD-8)", "third flips keeping"),
            Mean("third flip aligned a line, no owner (FD-8)", "third flips aligning"),
            Mean("plays that made several lines (FD-5)", "multi-line plays"),
            Mean("turns skipped, no card in hand (FD-3)", "skipped turns"),
        ),
    ),
    Section(
        "Phases and manches, per game",
        (
            Mean("phases", "phases"),
            Mean("tie phases for a manche (FD-10)", "tie phases"),
            Mean("tie phases for the game (FD-10)", "overtime phases"),
            Mean("ties left standing (tie_phase_limit)", "ties standing"),
            Mean("manches won", "manches won"),
            Mean("manche bonus tokens (FD-10)", "manche bonus"),
            PerSeat("tokens at the end", "tokens"),
            PerSeat("manches won", "manches won"),
            PerSeat("lines made", "lines made"),
            PerSeat("other players' lines broken", "lines broken"),
        ),
    ),
    Section(
        "End-of-phase penalty (FD-9) and the zero floor (FD-1), per game",
        (
            Mean("cards left in hand at a phase's end", "cards left"),
            Mean("tokens paid for them", "penalty tokens"),
            Mean("seats penalised", "penalised seats"),
            Rate(
                "phases ending with a card in hand",
                "penalised phases",
                "phases",
            ),
            Mean("penalties cut short at zero tokens (FD-1)", "penalties cut"),
            Mean("breaks the bank made up (FD-1)", "bank breaks"),
            Mean("tokens the bank made up (FD-1)", "bank tokens"),
        ),
    ),
)

PLAY_KINDS = frozenset({"build", "flip", "discard"})

LAB = extend(LabGame(
    game=GAME,
    rulings=RULINGS,
    sections=SECTIONS,
    check=check,
    play=play,
    record_of=record_of,
    turn_kinds=PLAY_KINDS,
    decision_kinds=PLAY_KINDS,
    notes=notes,
    manche="phase",
    words=WORDS,
), _thinking)  # fmt: skip
