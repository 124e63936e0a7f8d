"""The journal's inputs, as every game's referee takes them: the setup line that starts a
game, then what the readers report, a press, the clock's tick, a reader stopping or
answering again, and a resume. Their lines are `companion.journal`'s (docs/journal.md),
which reads and writes them; a referee, a simulated table and the runtime only need the
values, from here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

CONTROL_NAME = re.compile(r"[a-z][a-z_]{0,31}")
"""A control's name: each game uses its own (its descriptor's `controls`); a referee
refuses, and shows, a control its game does not use."""


@dataclass(frozen=True, slots=True)
class Setup:
    """The first line: everything needed to start the same game again."""

    game: str
    seats: tuple[str, ...]
    tags: Mapping[str, str]
    """UID (upper-case hex) -> token kind ("<family>:<name>", a game's `TokenFamily`)."""
    first: int = 0
    seed: int = 0
    settle: float = 0.5
    """Seconds the table must be still before a change is judged (docs/table.md)."""
    language: str = "fr"
    t: float = 0.0
    rules: Mapping[str, Any] | None = None
    """The game's own settings, by name (docs/journal.md lists each game's), None for the
    book's rules. Each game's referee checks them."""
    bots: tuple[str, ...] | None = None
    """Who played each seat when bots did (`companion demo`): one kind a seat ("bot" where
    the kind is the game's own choice); None for people. The referee ignores it; the
    report (`companion report`) tells bot games from real ones by it."""
    id: str | None = None
    """The game's own id (`new_game_id`), written by `companion run` on every new game's
    setup line: the club's announcement and result of the game carry it (docs/club.md).
    The referee ignores it; a journal without one has an id all the same (`game_id`)."""
    virtual: bool = False
    """Played on the virtual table (`companion run --virtual`): people on the web page,
    their tokens virtual and their tags made up. The referee ignores it; the report
    (`companion report`) counts such games apart from a real table's."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"t": self.t, "type": "setup"}
        if self.id is not None:
            data["id"] = self.id
        data |= {
            "game": self.game,
            "seats": list(self.seats),
            "first": self.first,
            "seed": self.seed,
            "settle": self.settle,
            "language": self.language,
            "tags": dict(self.tags),
        }
        if self.rules is not None:
            data["rules"] = dict(self.rules)
        if self.bots is not None:
            data["bots"] = list(self.bots)
        if self.virtual:
            data["virtual"] = True
        return data


@dataclass(frozen=True, slots=True)
class SpotInput:
    """The debounced contents of one reader: what lies in that hat (or on the pad).

    ``age``: how many seconds before ``t`` the reader read the change (0 to the journal's
    `MAX_AGE`; the Pico says it, so the settle time counts from the reading, not from the
    report)."""

    t: float
    spot: int
    uids: frozenset[str]
    age: float = 0.0

    def to_json(self) -> dict[str, Any]:
        data = {"t": self.t, "type": "spot", "spot": self.spot, "uids": sorted(self.uids)}
        if self.age:
            data["age"] = self.age
        return data


@dataclass(frozen=True, slots=True)
class PressInput:
    """A control: announce (value: a token kind), a seat's button (its game's `Button`,
    with the seat), choose (value: a line as a list of spots), aim (the line under the
    encoder), back (undo)."""

    t: float
    control: str
    seat: int | None = None
    value: object = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"t": self.t, "type": "press", "control": self.control}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.value is not None:
            data["value"] = self.value
        return data


@dataclass(frozen=True, slots=True)
class TickInput:
    """Time passes, nothing else: the referee reads time only from inputs."""

    t: float

    def to_json(self) -> dict[str, Any]:
        return {"t": self.t, "type": "tick"}


@dataclass(frozen=True, slots=True)
class ReaderInput:
    """A reader stopped (ok=False) or started again (ok=True) answering; `across`, with
    ok=False, is the other spot of a tag lying across both (each reader reads it, neither
    knows which spot holds it)."""

    t: float
    spot: int
    ok: bool
    across: int | None = None

    def to_json(self) -> dict[str, Any]:
        line = {"t": self.t, "type": "reader", "spot": self.spot, "ok": self.ok}
        if self.across is not None:
            line["across"] = self.across
        return line


@dataclass(frozen=True, slots=True)
class ResumeInput:
    """`companion run --resume` restarted here; `table` is what the readers saw then."""

    t: float
    table: Mapping[int, frozenset[str]]

    def to_json(self) -> dict[str, Any]:
        table = {str(spot): sorted(uids) for spot, uids in sorted(self.table.items())}
        return {"t": self.t, "type": "resume", "table": table}


Input = SpotInput | PressInput | TickInput | ReaderInput | ResumeInput
