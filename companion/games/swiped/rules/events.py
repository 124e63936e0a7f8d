"""Events: what happened. They carry only public facts, so they may be shown and logged.

No event ever names a target card: a claim's verdict says only whether it was true (SW-5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.swiped.rules.config import Pair
from companion.rules.jsonable import TaggedEvent


@dataclass(frozen=True, slots=True)
class Event(TaggedEvent):
    """Base of every Swiped event: public facts only."""


@dataclass(frozen=True, slots=True)
class LayoutDrawn(Event):
    """SW-2, OBSERVED deal: the face-up card that gives the starting grid (a public card)."""

    kind: ClassVar[str] = "layout"
    card: int
    grid: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TargetDrawn(Event):
    """SW-2, OBSERVED deal: a seat's target card is recorded; which card stays hidden."""

    kind: ClassVar[str] = "target"
    seat: int


@dataclass(frozen=True, slots=True)
class MancheStarted(Event):
    kind: ClassVar[str] = "manche_start"
    manche: int
    order: tuple[int, ...]
    """SW-4: the seat of each of the six swaps, in execution order."""


@dataclass(frozen=True, slots=True)
class Programmed(Event):
    """A seat entered one more swap of its program; the pair itself stays hidden (SW-3)."""

    kind: ClassVar[str] = "programmed"
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class ProgramsRevealed(Event):
    """SW-3: both programs are shown together."""

    kind: ClassVar[str] = "programs_revealed"
    programs: tuple[tuple[Pair, ...], ...]


@dataclass(frozen=True, slots=True)
class Swapped(Event):
    kind: ClassVar[str] = "swap"
    seat: int
    phase: int
    colours: Pair
    squares: tuple[int, int]
    """The two squares (1..9) whose big cubes were exchanged."""


@dataclass(frozen=True, slots=True)
class SwapSkipped(Event):
    """SW-4: the second swap of a phase is the pair just applied, so it is not applied again."""

    kind: ClassVar[str] = "swap_skipped"
    seat: int
    phase: int
    colours: Pair


@dataclass(frozen=True, slots=True)
class MancheEnded(Event):
    """The six swaps are done; the small cubes go back to the players' stocks."""

    kind: ClassVar[str] = "manche_end"
    manche: int


@dataclass(frozen=True, slots=True)
class ClaimChecked(Event):
    """SW-5: a claim and its verdict, without either card."""

    kind: ClassVar[str] = "claim"
    seat: int
    claim: str
    """"matches" or "card"."""
    correct: bool


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    kind: ClassVar[str] = "game_won"
    seat: int


@dataclass(frozen=True, slots=True)
class GameDrawn(Event):
    """SW-6: the manche limit is reached."""

    kind: ClassVar[str] = "game_drawn"
    manches: int
