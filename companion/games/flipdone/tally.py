"""What a Flip Done game adds to the lab's figures, counted as it happens.

Both ways of measuring a game fill one `Tally`: a lab game's board tells it what happens
as it plays (the Tally is the board's `Watcher`), and the reader of a journal's events
(reader.py) fills it from what the events say. The counters are a flat list indexed by
the constants below (cheap to bump at every play), and one `record` turns any tally into
the same `GameRecord`, so equal games give equal records.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.games.flipdone.rules.board import (
    ALIGNS_THIRD,
    HOLD_BONUS,
    KEEPS_OWN,
    KEEPS_THIRD,
    LOSES_OWN,
    VALUE,
    Board,
    Watcher,
)
from companion.games.flipdone.rules.config import LINES, PLAYERS
from companion.games.flipdone.rules.config import MANCHE_BONUS as BONUS
from companion.lab.model import GameRecord, Lead

_new = tuple.__new__

KINDS = ("columns", "rows", "diagonals")
"""The kinds of lines by their value (FD-4): columns 1 point, rows 2, diagonals 3."""
KIND_OF_LINE: tuple[int, ...] = tuple(
    2 if line.diagonal else (1 if line.value == 2 else 0) for line in LINES
)
"""KIND_OF_LINE[line]: the index in KINDS of the line's kind."""

# Per kind of line: a block of three counters (columns, rows, diagonals).
MADE = 0  # FD-5: lines made
MADE_POINTS = 3  # the tokens their makers took
BROKEN = 6  # FD-6: lines broken by another player's flip
BROKEN_POINTS = 9  # the value the breakers took
HELD = 12  # FD-6: lines another player's flip left aligned (kept by their owner)
HELD_POINTS = 15  # the owners' bonus for them
LOST = 18  # FD-7, FD-8: lines broken with no points (own line, third flip)

PLAYS = 21  # FD-3: builds, flips and discards
BUILDS = 22
FLIPS = 23
DISCARDS = 24
PLACED = 25  # FD-2 variant: first elements placed by the phase's first player
BREAKS = 26  # FD-6: flips that broke another player's line (all kinds)
KEPT = 27  # FD-6: flips that left another player's line aligned (all kinds)
OWN_BROKEN = 28  # FD-7: a flip broke the flipper's own line (ownership lost, no points)
OWN_KEPT = 29  # FD-7: a flip in the flipper's own line left it aligned (no points)
THIRD_BROKEN = 30  # FD-8: a third flip broke an owned line (owner removed, no points)
THIRD_KEPT = 31  # FD-8: a third flip left an owned line aligned (no bonus)
THIRD_UNOWNED = 32  # FD-8: a third flip aligned an unowned line (no owner, no points)
MULTI = 33  # FD-5: plays that made several lines at once
SKIPS = 34  # FD-3: turns passed over because the seat held no card
PHASES = 35
TIE_PHASES = 36  # FD-10: extra phases for a tied manche
OVERTIME_PHASES = 37  # FD-10: extra phases for a tied game
TIES_STANDING = 38  # ties a tie_phase_limit left standing (not the book: a setting)
CARDS_LEFT = 39  # FD-9: cards in hand when a phase ended
PENALTY_PAID = 40  # FD-9: tokens paid for them
PENALISED = 41  # FD-9: a seat ended a phase with a card in hand (once per seat and phase)
PHASES_LEFT = 42  # FD-9: phases that ended with a card in someone's hand
MANCHE_BONUS = 43  # FD-10: the manche winners' bonus tokens
MANCHES_WON = 44  # FD-10: manches won outright (not left tied)
BANK_BREAKS = 45  # FD-1, FD-6: breaks whose owner lacked tokens (the bank made it up)
BANK_TOKENS = 46  # the tokens the bank made up
PENALTY_CUT = 47  # FD-1, FD-9: a penalty cut short because the seat had too few tokens
COUNTERS = 48

COUNT_KEYS: tuple[str, ...] = (
    *(f"{kind} made" for kind in KINDS),
    *(f"{kind} made points" for kind in KINDS),
    *(f"{kind} broken" for kind in KINDS),
    *(f"{kind} broken points" for kind in KINDS),
    *(f"{kind} held" for kind in KINDS),
    *(f"{kind} held points" for kind in KINDS),
    *(f"{kind} lost" for kind in KINDS),
    "plays",
    "builds",
    "flips",
    "discards",
    "first elements placed",
    "breaks",
    "kept lines",
    "own lines broken",
    "own lines kept",
    "third flips breaking",
    "third flips keeping",
    "third flips aligning",
    "multi-line plays",
    "skipped turns",
    "phases",
    "tie phases",
    "overtime phases",
    "ties standing",
    "cards left",
    "penalty tokens",
    "penalised seats",
    "penalised phases",
    "manche bonus",
    "manches won",
    "bank breaks",
    "bank tokens",
    "penalties cut",
)
"""GameRecord.counts keys, by counter index."""
assert len(COUNT_KEYS) == COUNTERS

# Per seat (GameRecord.seat_counts).
SEAT_KEYS = ("tokens", "manches won", "lines made", "lines broken")
TOKENS, SEAT_MANCHES, SEAT_MADE, SEAT_BROKE = range(len(SEAT_KEYS))

UNSCORED = {KEEPS_OWN: OWN_KEPT, KEEPS_THIRD: THIRD_KEPT, ALIGNS_THIRD: THIRD_UNOWNED}
"""The flip outcomes that change nothing (no event says them), and their counters."""

RULINGS: dict[str, tuple[int, ...]] = {
    "FD-1": (BANK_BREAKS, PENALTY_CUT),
    "FD-3": (SKIPS,),
    "FD-5": (MULTI,),
    "FD-6": (BREAKS, KEPT),
    "FD-7": (OWN_BROKEN, OWN_KEPT),
    "FD-8": (THIRD_BROKEN, THIRD_KEPT, THIRD_UNOWNED),
    "FD-9": (PENALISED,),
    "FD-10": (TIE_PHASES, OVERTIME_PHASES),
}
"""Ruling id -> the counters whose sum is how often its special case applied."""


@dataclass
class Tally(Watcher):
    """One game's counters, filled while it is played (told by its board) or read."""

    counts: list[int] = field(default_factory=lambda: [0] * COUNTERS)
    seats: list[list[int]] = field(default_factory=lambda: [[0] * PLAYERS for _ in SEAT_KEYS])
    """seats[key][seat], key one of TOKENS, SEAT_MANCHES, SEAT_MADE, SEAT_BROKE."""
    phase_plays: list[int] = field(default_factory=list)
    """Plays (FD-3 turns) in each phase, in order."""
    finished: bool = False
    winners: tuple[int, ...] = ()
    leads: list[Lead] = field(default_factory=list)
    """The seats' tokens each time they changed, marked before each play and at the end
    (`mark`): the story of the lead, for the lab's interest figures."""
    choices: list[int] = field(default_factory=lambda: [0, 0])
    """[legal plays summed, plays]: counted by the lab's self-play (a journal cannot)."""

    marked: list[int] = field(default_factory=list)
    """The tokens at the last mark (compared as they are: a play seldom changes them)."""
    phase_start: int = 0
    """The plays made before the phase under way."""
    made_now: int = 0
    """The lines the last play made so far (FD-5)."""

    def decisions(self) -> int:
        """The seats' decisions so far: every play, and every first element a seat placed."""
        return self.counts[PLAYS] + self.counts[PLACED]

    def mark(self, tokens: list[int]) -> None:
        """Note the tokens if they changed since the last mark, at the plays made so far
        (before each decision, and at the end)."""
        if self.marked != tokens or not self.leads:
            self.marked = list(tokens)
            counts = self.counts
            # Lead's own __new__ is Python code: this is the same tuple without its call.
            # Tokens are whole: kept as they are (a float apiece costs more than the rest).
            self.leads.append(_new(Lead, (counts[PLAYS] + counts[PLACED], tuple(tokens))))

    # What a lab game's board tells (Watcher): the counters each hook bumps. The tokens
    # are marked before each decision, as the reader marks them before each play's event.

    def phase_started(self, board: Board, card: int) -> None:
        self.counts[PHASES] += 1
        self.phase_start = self.counts[PLAYS]

    def first_placed(self, board: Board, seat: int | None, square: int, card: int) -> None:
        if seat is not None:
            self.placed(board.tokens)

    def placed(self, tokens: list[int]) -> None:
        """FD-2 variant: the phase's first player placed the first element."""
        self.mark(tokens)
        self.counts[PLACED] += 1

    def built(self, board: Board, seat: int, square: int, card: int) -> None:
        self.play(BUILDS, board.tokens)

    def flipped(self, board: Board, seat: int, square: int, shown: int, hidden: int) -> None:
        self.play(FLIPS, board.tokens)

    def discarded(self, board: Board, seat: int) -> None:
        self.play(DISCARDS, board.tokens)

    def play(self, kind: int, tokens: list[int]) -> None:
        """FD-3: a play of `kind` (BUILDS, FLIPS or DISCARDS), with the `tokens` before
        it; the lines it makes follow."""
        if self.marked != tokens or not self.leads:
            self.mark(tokens)
        counts = self.counts
        counts[kind] += 1
        counts[PLAYS] += 1
        self.made_now = 0

    def line_made(self, board: Board, seat: int, line: int) -> None:
        self.made(seat, line, VALUE[line])

    def made(self, seat: int, line: int, value: int) -> None:
        """FD-5: `seat` made a line worth `value` (a second one with one play: MULTI)."""
        self.made_now += 1
        if self.made_now == 2:
            self.counts[MULTI] += 1
        kind = KIND_OF_LINE[line]
        self.counts[MADE + kind] += 1
        self.counts[MADE_POINTS + kind] += value
        self.seats[SEAT_MADE][seat] += 1

    def line_broken(self, board: Board, seat: int, owner: int, line: int, taken: int) -> None:
        self.broken(seat, line, VALUE[line], VALUE[line] - taken)

    def broken(self, seat: int, line: int, value: int, from_bank: int) -> None:
        """FD-6, FD-1: `seat` broke a line worth `value`; the bank made up `from_bank`."""
        counts = self.counts
        kind = KIND_OF_LINE[line]
        counts[BROKEN + kind] += 1
        counts[BROKEN_POINTS + kind] += value
        counts[BREAKS] += 1
        self.seats[SEAT_BROKE][seat] += 1
        if from_bank:
            counts[BANK_BREAKS] += 1
            counts[BANK_TOKENS] += from_bank

    def line_held(self, board: Board, seat: int, owner: int, line: int) -> None:
        self.held(line, HOLD_BONUS[line])

    def held(self, line: int, bonus: int) -> None:
        """FD-6: another's flip kept a line aligned; its owner took `bonus`."""
        kind = KIND_OF_LINE[line]
        self.counts[HELD + kind] += 1
        self.counts[HELD_POINTS + kind] += bonus
        self.counts[KEPT] += 1

    def line_lost(self, board: Board, seat: int, owner: int, line: int, outcome: int) -> None:
        self.lost(line, outcome == LOSES_OWN)

    def lost(self, line: int, own: bool) -> None:
        """FD-7 (`own`) or FD-8: a line broke with no points."""
        self.counts[LOST + KIND_OF_LINE[line]] += 1
        self.counts[OWN_BROKEN if own else THIRD_BROKEN] += 1

    def line_unscored(self, board: Board, seat: int, line: int, outcome: int) -> None:
        self.unscored(outcome)

    def unscored(self, outcome: int) -> None:
        """FD-7, FD-8: a flip kept a line aligned, or aligned one, and nothing changed."""
        self.counts[UNSCORED[outcome]] += 1

    def skipped(self, board: Board, seat: int) -> None:
        self.counts[SKIPS] += 1

    def phase_ended(self, board: Board, left: tuple[int, ...], paid: tuple[int, ...]) -> None:
        self.phase_plays.append(self.counts[PLAYS] - self.phase_start)
        self.penalties(left, paid)

    def penalties(self, left: Sequence[int], paid: Sequence[int]) -> None:
        """FD-9, FD-1: the cards `left` in each hand at a phase's end, the tokens `paid`."""
        if not any(left):
            return
        counts = self.counts
        for seat, cards in enumerate(left):
            if cards:
                counts[CARDS_LEFT] += cards
                counts[PENALTY_PAID] += paid[seat]
                counts[PENALISED] += 1
                counts[PENALTY_CUT] += paid[seat] < cards
        counts[PHASES_LEFT] += 1

    def tied(self, board: Board, seats: tuple[int, ...]) -> None:
        self.counts[OVERTIME_PHASES if board.overtime else TIE_PHASES] += 1

    def manche_won(self, board: Board, seat: int, gains: tuple[int, ...]) -> None:
        self.won_manche(seat, BONUS)

    def won_manche(self, seat: int, bonus: int) -> None:
        """FD-10: `seat` won a manche and its `bonus`."""
        self.counts[MANCHE_BONUS] += bonus
        self.counts[MANCHES_WON] += 1
        self.seats[SEAT_MANCHES][seat] += 1

    def tie_stands(self, board: Board, seats: tuple[int, ...], overtime: bool) -> None:
        self.counts[TIES_STANDING] += 1

    def game_over(self, board: Board) -> None:
        self.mark(board.tokens)
        self.finished = True
        self.winners = board.winners
        self.seats[TOKENS] = list(board.tokens)


def record(tally: Tally, players: int, first: int) -> GameRecord:
    """The GameRecord of a tallied game. Every count key is present (0 included); a
    ruling is present only when its special case applied."""
    counts = tally.counts
    rulings = {
        ruling: total
        for ruling, keys in RULINGS.items()
        for total in [sum(counts[k] for k in keys)]
        if total
    }
    return GameRecord(
        players=players,
        first=first,
        winners=tally.winners if tally.finished else (),
        finished=tally.finished,
        actions=tally.decisions(),
        manches=tuple(tally.phase_plays),
        counts={key: float(value) for key, value in zip(COUNT_KEYS, counts, strict=True)},
        seat_counts={
            key: tuple(float(v) for v in values)
            for key, values in zip(SEAT_KEYS, tally.seats, strict=True)
        },
        rulings=rulings,
        leads=tuple(tally.leads),
        choices=(tally.choices[0], tally.choices[1]),
    )
