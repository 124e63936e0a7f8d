"""Flip Done's events read into the lab's counters: the record of any game.

`record_of` reads the engine's events as `Event.to_json()` writes them: a refereed table's
journal, in `companion report` (and a game played through the engine's `apply`), where
the referee's own kinds (faults, refused presses, the OBSERVED deal's `dealt_down`) are
skipped and `undo` takes back the play it names. It fills the same
`Tally` a lab game's board fills as it plays, so a lab game and a real one are measured
alike; where the events leave a special case unsaid (a flip that keeps a line aligned
under FD-7 or FD-8, or aligns one under FD-8, makes no event) it rebuilds the grid and
asks the rules' own `flip_outcome`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.games.flipdone.rules.board import (
    CARD,
    COLOUR,
    EMPTY,
    LINE_SQUARES,
    THROUGH,
    WEIGHTS,
    flip_outcome,
)
from companion.games.flipdone.rules.config import LINES, SQUARES
from companion.games.flipdone.tally import (
    BUILDS,
    DISCARDS,
    FLIPS,
    OVERTIME_PHASES,
    PHASES,
    PLAYS,
    SEAT_KEYS,
    SKIPS,
    TIE_PHASES,
    TIES_STANDING,
    TOKENS,
    UNSCORED,
    Tally,
    record,
)
from companion.lab.model import GameRecord


class _Reader:
    """Follows a game through its JSON events, rebuilding the grid (faces, flipped marks,
    owners) where the events leave a special case unsaid: a flip that keeps a line
    aligned under FD-7 or FD-8, or aligns one under FD-8, makes no event."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.tally = Tally()
        self.tally.seats = [[0] * players for _ in SEAT_KEYS]
        self.counts = self.tally.counts
        self.tokens = [0] * players
        self.face = [EMPTY] * SQUARES
        self.flipped = [False] * SQUARES
        self.owners: list[int | None] = [None] * len(LINES)
        self.first = 0
        self.last: int | None = None
        """The seat that made the phase's last play."""
        self.undoable: list[tuple[int, int, int, int | None]] = []
        """(kind, square, seats skipped, the last seat before) of each play since the last
        public fact: what `back` may take back."""

    def read(self, e: Mapping[str, Any]) -> None:
        kind = e.get("kind")
        if kind == "phase_start":
            self.counts[PHASES] += 1
            self.tally.phase_plays.append(0)
            self.face = [EMPTY] * SQUARES
            self.flipped = [False] * SQUARES
            self.owners = [None] * len(LINES)
            self.first = e["first"]
            self.last = None
            self.undoable.clear()
        elif kind == "first_element":
            self.face[e["square"] - 1] = _colour(e["card"])
            if e["seat"] is not None:  # FD-2 variant: the first player's decision
                self.tally.placed(self.tokens)
        elif kind == "build":
            self._play(e["seat"], BUILDS, e["square"] - 1)
            self.face[e["square"] - 1] = _colour(e["card"])
        elif kind == "discard":
            self._play(e["seat"], DISCARDS)
        elif kind == "flip":
            self._play(e["seat"], FLIPS)
            self._flip(e["seat"], e["square"] - 1, _colour(e["shown"]))
            self.undoable.clear()
        elif kind == "undo" and e.get("step") in ("build", "discard") and self.undoable:
            self._undo()
        elif kind in _SCORING:
            _SCORING[kind](self, e)
            self.undoable.clear()

    def _play(self, seat: int, kind: int, square: int = -1) -> None:
        """Count a play (FD-3) and the seats skipped since the last one."""
        self.tally.play(kind, self.tokens)
        self.tally.phase_plays[-1] += 1
        after = self.first - 1 if self.last is None else self.last
        skipped = (seat - after - 1) % self.players
        self.counts[SKIPS] += skipped
        self.undoable.append((kind, square, skipped, self.last))
        self.last = seat

    def _undo(self) -> None:
        """`back` took back a build or discard that scored nothing (docs/journal.md)."""
        kind, square, skipped, before = self.undoable.pop()
        counts = self.counts
        counts[kind] -= 1
        counts[PLAYS] -= 1
        counts[SKIPS] -= skipped
        self.tally.phase_plays[-1] -= 1
        self.last = before
        if square >= 0:
            self.face[square] = EMPTY

    def _flip(self, seat: int, square: int, shown: int) -> None:
        """Count what the events of a flip leave unsaid, then turn the element over."""
        states = [f + 3 * t for f, t in zip(self.face, self.flipped, strict=True)]
        for line, place, _ in THROUGH[square]:
            code = sum(states[sq] * w for sq, w in zip(LINE_SQUARES[line], WEIGHTS, strict=True))
            owner = self.owners[line]
            outcome = flip_outcome(code, -1 if owner is None else owner, seat, place, shown)
            if outcome in UNSCORED:
                self.tally.unscored(outcome)
        self.face[square] = shown
        self.flipped[square] = True

    def _made(self, e: Mapping[str, Any]) -> None:
        self.tally.made(e["seat"], e["line"], e["value"])
        self.tokens[e["seat"]] += e["value"]
        self.owners[e["line"]] = e["seat"]

    def _broken(self, e: Mapping[str, Any]) -> None:
        self.tally.broken(e["seat"], e["line"], e["value"], e["from_bank"])
        self.tokens[e["seat"]] += e["value"]
        self.tokens[e["owner"]] -= e["from_owner"]
        self.owners[e["line"]] = None

    def _held(self, e: Mapping[str, Any]) -> None:
        self.tally.held(e["line"], e["bonus"])
        self.tokens[e["owner"]] += e["bonus"]

    def _lost(self, e: Mapping[str, Any]) -> None:
        self.tally.lost(e["line"], e["ruling"] == "FD-7")
        self.owners[e["line"]] = None

    def _phase_end(self, e: Mapping[str, Any]) -> None:
        for seat, paid in enumerate(e["paid"]):
            self.tokens[seat] -= paid
        self.tally.penalties(e["cards_left"], e["paid"])

    def _manche_won(self, e: Mapping[str, Any]) -> None:
        self.tally.won_manche(e["seat"], e["bonus"])
        self.tokens[e["seat"]] += e["bonus"]

    def _tie(self, e: Mapping[str, Any]) -> None:
        self.counts[OVERTIME_PHASES if e["overtime"] else TIE_PHASES] += 1

    def _tie_stands(self, e: Mapping[str, Any]) -> None:
        self.counts[TIES_STANDING] += 1

    def _game_over(self, e: Mapping[str, Any]) -> None:
        self.tally.finished = True
        self.tally.winners = tuple(e["winners"])
        self.tokens = list(e["tokens"])


_SCORING = {
    "line_made": _Reader._made,
    "line_broken": _Reader._broken,
    "line_held": _Reader._held,
    "line_lost": _Reader._lost,
    "phase_end": _Reader._phase_end,
    "manche_won": _Reader._manche_won,
    "tie": _Reader._tie,
    "tie_stands": _Reader._tie_stands,
    "game_over": _Reader._game_over,
}
"""Events that a table's `back` cannot take back (they score or end a phase)."""


def _colour(card: str) -> int:
    return COLOUR[CARD[card]]  # FD-1: only the colour matters


def tally_of(players: int, events: Iterable[Mapping[str, Any]]) -> Tally:
    """The counters of a game, or of its start, from its events as `Event.to_json()`
    writes them (a referee's journal adds its own kinds, skipped here, and `undo`, which
    takes back a play). Its `phase_plays` counts the phase under way too."""
    reader = _Reader(players)
    for event in events:
        reader.read(event)
    reader.tally.mark(reader.tokens)
    reader.tally.seats[TOKENS] = reader.tokens
    return reader.tally


def record_of(players: int, first: int, events: Iterable[Mapping[str, Any]]) -> GameRecord:
    """The record of a game from its events (see `tally_of`)."""
    return record(tally_of(players, events), players, first)
