"""What a variant's figures need of its games, tallied as they are played.

A figure of the report is a function of the multiset of one value per game (a share, a
count, a (hits, trials) pair): the sums behind it are exactly rounded (`math.fsum`), so
the order of the games changes nothing. A `Tally` keeps, for each figure, how many games
gave each value, so a worker tallies its games as it plays them and sends only the tally
back: the lab's memory no longer grows with its games (a record is dropped once counted),
and what crosses between processes is a few counters a chunk. `ordered` tallies keep the
values game by game instead, for what pairs games up (a test of people against bots,
deals of restricted play).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any, Literal

from companion.lab.interest import branching, comeback, decided_at, story
from companion.lab.model import GameRecord, LabGame, Mean, PerSeat, Rate

Value = float | tuple[float, float]
"""One game's part of a figure: a value, or a (numerator, denominator) pair."""

GAME = "Game"
"""The section every game has: wins and lengths."""
DECISIONS = "decisions per game"
"""The game's length: its seats' decisions (`decisions_of`)."""
INTEREST = "Interest"
"""The section of Browne's measures (`companion.lab.interest`)."""
LEAD_CHANGES = "lead changes per game"
DECIDED = "winner leads for good from (% of game)"
COMEBACKS = "comebacks (winner behind past the middle)"
BRANCHING = "legal choices per move"
WINS = "wins"


@dataclass(frozen=True)
class Slot:
    """A figure of the report and how one game's record gives its part (None: the game
    has none, e.g. a game without a score for the lead's figures)."""

    section: str
    label: str
    kind: Literal["share", "mean", "rate", "ratio"]
    """A share of games (Wilson), a mean per game, a rate pooled over games (hits,
    trials), or a ratio pooled over games (values, events)."""
    read: Callable[[GameRecord], Value | None]
    seat: int | None = None
    percent: bool = False
    """A mean shown as a percentage."""
    counts: tuple[str, ...] = ()
    """The record's `counts` keys `read` gives (as floats, 0 where missing): one for a
    mean, hits and trials for a rate. Empty for any other reader."""
    seat_count: str | None = None
    """The record's `seat_counts` key `read` gives at `seat` (0 where missing)."""


_SLOTS: dict[tuple[int, int], tuple[LabGame, tuple[Slot, ...], _Plain]] = {}


def slots(lab: LabGame, players: int) -> tuple[Slot, ...]:
    """Every figure a variant's games may have, in the report's order (made once a game
    and seat count: a worker reads them for every game)."""
    return _made(lab, players)[1]


def _made(lab: LabGame, players: int) -> tuple[LabGame, tuple[Slot, ...], _Plain]:
    key = (id(lab), players)
    made = _SLOTS.get(key)
    if made is None or made[0] is not lab:
        found = _slots(lab, players)
        made = _SLOTS[key] = (lab, found, _Plain(found, players))
    return made


def _slots(lab: LabGame, players: int) -> tuple[Slot, ...]:
    found = [Slot(GAME, WINS, "share", partial(_share, seat), seat) for seat in range(players)]
    found += [
        Slot(GAME, "won by the first player", "share", lambda r: r.share(r.first)),
        Slot(GAME, "drawn or unfinished", "share", lambda r: float(not r.winners)),
        Slot(GAME, DECISIONS, "mean", lambda r: float(decisions_of(lab, r))),
        Slot(GAME, f"{lab.manche}s per game", "mean", lambda r: float(len(r.manches))),
        Slot(GAME, f"turns per {lab.manche}", "ratio",
             lambda r: (float(sum(r.manches)), float(len(r.manches)))),
    ]  # fmt: skip
    for section in lab.sections:
        for row in section.rows:
            if isinstance(row, Mean):
                found.append(Slot(section.title, row.label, "mean", partial(_count, row.key),
                                  counts=(row.key,)))  # fmt: skip
            elif isinstance(row, Rate):
                found.append(Slot(section.title, row.label, "rate",
                                  partial(_rate, row.hits, row.trials),
                                  counts=(row.hits, row.trials)))  # fmt: skip
            elif isinstance(row, PerSeat):
                found += [Slot(section.title, row.label, "mean", partial(_seat, row.key, seat),
                               seat, seat_count=row.key) for seat in range(players)]  # fmt: skip
    found += [
        Slot(INTEREST, LEAD_CHANGES, "mean", _lead_changes),
        Slot(INTEREST, DECIDED, "mean", decided_at, percent=True),
        Slot(INTEREST, COMEBACKS, "share", _comeback),
        Slot(INTEREST, BRANCHING, "mean", branching),
    ]  # fmt: skip
    return tuple(found)


def _lead_changes(record: GameRecord) -> float | None:
    read = story(record)
    return None if read is None else float(read.changes)


def _comeback(record: GameRecord) -> float | None:
    came = comeback(record)
    return None if came is None else float(came)


def _share(seat: int, record: GameRecord) -> float:
    return record.share(seat)


def _count(key: str, record: GameRecord) -> float:
    return float(record.counts.get(key, 0.0))


def _rate(hits: str, trials: str, record: GameRecord) -> tuple[float, float]:
    return float(record.counts.get(hits, 0.0)), float(record.counts.get(trials, 0.0))


def _seat(key: str, seat: int, record: GameRecord) -> float:
    values = record.seat_counts.get(key, ())
    return float(values[seat]) if seat < len(values) else 0.0


def _getter(keys: Sequence[str]) -> Callable[[Mapping[str, object]], tuple[Any, ...]]:
    """What reads `keys` of a mapping as a tuple, in one call (KeyError if one is missing)."""
    if len(keys) == 1:
        return lambda mapping: (mapping[keys[0]],)
    return itemgetter(*keys)


_COUNTS = attrgetter("counts")
_SEAT_COUNTS = attrgetter("seat_counts")


class _Plain:
    """The slots that read a record's counts as they are (`Slot.counts`, `Slot.seat_count`),
    read for a few games at once: each record's counts as one tuple, split column-wise
    (the same values, in the same order, as each slot's `read` gives, without a call of
    ours a slot and game)."""

    def __init__(self, found: Sequence[Slot], players: int) -> None:
        self.players = players
        keys = [key for slot in found for key in slot.counts]
        seat_keys = list(dict.fromkeys(s.seat_count for s in found if s.seat_count is not None))
        self.counts = _getter(keys) if keys else None
        self.seat_counts = _getter(seat_keys) if seat_keys else None
        self.by_counts: list[tuple[int, int, int]] = []
        """(slot, its first key's column, its keys)."""
        self.by_seat: list[tuple[int, int, int]] = []
        """(slot, its key's column, its seat)."""
        column = 0
        for index, slot in enumerate(found):
            if slot.counts:
                self.by_counts.append((index, column, len(slot.counts)))
                column += len(slot.counts)
            elif slot.seat_count is not None and slot.seat is not None:
                at = seat_keys.index(slot.seat_count)
                self.by_seat.append((index, at, slot.seat))

    def columns(self, records: Sequence[GameRecord]) -> dict[int, Iterable[Value | None]]:
        """Slot -> its values for `records`, for the slots read so; a slot is left out
        (read by its own `read`) where a record lacks one of its keys or seats."""
        found: dict[int, Iterable[Value | None]] = {}
        if self.counts is not None:
            try:
                counts = list(zip(*map(self.counts, map(_COUNTS, records)), strict=True))
            except KeyError:
                counts = []
            if counts:
                for index, at, width in self.by_counts:
                    hits = map(float, counts[at])
                    found[index] = (
                        hits
                        if width == 1  # a mean; else a rate: (hits, trials)
                        else zip(hits, map(float, counts[at + 1]), strict=True)
                    )
        if self.seat_counts is not None:
            try:
                seats = list(zip(*map(self.seat_counts, map(_SEAT_COUNTS, records)), strict=True))
            except KeyError:
                seats = []
            by_seat = [
                list(zip(*column, strict=True)) if set(map(len, column)) == {self.players} else None
                for column in seats
            ]
            for index, at, seat in self.by_seat:
                values = by_seat[at] if by_seat else None
                if values is not None:
                    found[index] = map(float, values[seat])
        return found


def decisions_of(lab: LabGame, record: GameRecord) -> int:
    """A game's decisions: its actions, less those the game says are none (`LabGame.decisions`:
    an OK of a spoken round, a window the clock closed)."""
    return record.actions if lab.decisions is None else lab.decisions(record)


Values = Counter[Value] | list[Value]
"""A figure's values: how many games gave each, or (ordered) each game's in game order."""


@dataclass
class Tally:
    """A variant's games, counted for its figures (`slots`). Tallies of consecutive games
    add up (`+=`) to the tally of all of them."""

    ordered: bool = False
    games: int = 0
    finished: int = 0
    values: list[Values] = field(default_factory=list)
    """One a slot, in the order of `slots`."""
    manche_turns: Counter[int] = field(default_factory=Counter)
    """Turns of every manche: how many manches had each number."""
    rulings: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Ruling id -> (games where its special case applied, times it applied)."""

    def add(self, lab: LabGame, players: int, records: Sequence[GameRecord]) -> None:
        """Count a few games (the next in game order, for an ordered tally): slot by slot,
        so that the counting is done by `Counter.update`'s loop, not one of ours."""
        _, found, plain = _made(lab, players)
        if not self.values:
            self.values = [[] if self.ordered else Counter() for _ in found]
        read = plain.columns(records)
        for index, (slot, values) in enumerate(zip(found, self.values, strict=True)):
            column = read.get(index)
            if column is None:
                column = map(slot.read, records)
            if isinstance(values, list):
                values.extend(v for v in column if v is not None)
            else:  # the games without one counted under None, then dropped
                counted: Counter[Value | None] = values  # type: ignore[assignment]
                counted.update(column)
                counted.pop(None, None)
        self.games += len(records)
        self.manche_turns.update(chain.from_iterable(record.manches for record in records))
        for record in records:
            self.finished += record.finished
            for ruling, times in record.rulings.items():
                games, total = self.rulings.get(ruling, (0, 0))
                self.rulings[ruling] = (games + (times > 0), total + times)

    def __iadd__(self, other: Tally) -> Tally:
        """The games of `other` after this tally's."""
        if not self.values:
            self.values = other.values
        else:
            for mine, theirs in zip(self.values, other.values, strict=True):
                mine += theirs  # type: ignore[operator]  # list += list, Counter += Counter
        self.games += other.games
        self.finished += other.finished
        self.manche_turns += other.manche_turns
        for ruling, (games, times) in other.rulings.items():
            had_games, had_times = self.rulings.get(ruling, (0, 0))
            self.rulings[ruling] = (had_games + games, had_times + times)
        return self

    def of(self, slot: int) -> Sequence[Value]:
        """A slot's values, each game's once (in game order when `ordered`)."""
        if not self.values:
            return []
        values = self.values[slot]
        return values if isinstance(values, list) else list(values.elements())

    def wins(self, seat: int) -> list[float]:
        """The seat's part of each game's win (`GameRecord.share`), each game's once (in
        game order when `ordered`): the first slots are the seats' wins."""
        return [float(v) for v in self.of(seat)]  # type: ignore[arg-type]


BATCH = 64
"""Games counted at once (`Tally.add`): few enough records to hold, enough that counting
slot by slot pays."""


def tally(lab: LabGame, players: int, records: Iterable[GameRecord], ordered: bool) -> Tally:
    """The tally of `records`, in their order (read `BATCH` at a time)."""
    counted = Tally(ordered)
    batch: list[GameRecord] = []
    for record in records:
        batch.append(record)
        if len(batch) == BATCH:
            counted.add(lab, players, batch)
            batch = []
    if batch:
        counted.add(lab, players, batch)
    return counted
