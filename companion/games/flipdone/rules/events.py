"""Events: what happened. They carry only public facts, so they may be shown and logged."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.rules.jsonable import TaggedEvent


@dataclass(frozen=True, slots=True)
class Event(TaggedEvent):
    """Base of every Flip Done event: public facts only."""


@dataclass(frozen=True, slots=True)
class DealtDown(Event):
    """FD-2, OBSERVED deal: a face-down card is on `square` (which card is a hidden fact)."""

    kind: ClassVar[str] = "dealt_down"
    square: int


@dataclass(frozen=True, slots=True)
class PhaseStarted(Event):
    """FD-2: a fresh deal. `extra` counts the tie-break phases (FD-10), 0 for a normal one.

    With a SEEDED deal it comes as the engine deals; with an OBSERVED one, once its face-up
    card is seen (DealUp, or PlaceFirst naming it), just before FirstPlaced, so both modes
    give the same events but for the DealtDown ones."""

    kind: ClassVar[str] = "phase_start"
    manche: int
    phase: int
    first: int
    extra: int
    overtime: bool
    """A phase played after the last manche to break a tie for the game (FD-10)."""
    card: str
    """The face-up card of the first element."""


@dataclass(frozen=True, slots=True)
class FirstPlaced(Event):
    """FD-2: the first element of the phase is on `square` (centre, or the chosen square)."""

    kind: ClassVar[str] = "first_element"
    seat: int | None
    """The seat that chose the square; None when it goes to the centre."""
    square: int
    card: str


@dataclass(frozen=True, slots=True)
class Built(Event):
    kind: ClassVar[str] = "build"
    seat: int
    square: int
    card: str


@dataclass(frozen=True, slots=True)
class Flipped(Event):
    """FD-3: a card was discarded face down, then the element turned over."""

    kind: ClassVar[str] = "flip"
    seat: int
    square: int
    shown: str
    """The card now face up."""
    hidden: str
    """The card now face down (it was face up, so everyone saw it)."""


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    kind: ClassVar[str] = "discard"
    seat: int


@dataclass(frozen=True, slots=True)
class LineMade(Event):
    """FD-5: the actor aligned an unowned line, took its value and owns it."""

    kind: ClassVar[str] = "line_made"
    seat: int
    line: int
    value: int


@dataclass(frozen=True, slots=True)
class LineBroken(Event):
    """FD-6: a flip broke another player's line: the flipper takes the value from the owner,
    what the owner lacks from the bank; the line has no owner any more."""

    kind: ClassVar[str] = "line_broken"
    seat: int
    owner: int
    line: int
    value: int
    from_owner: int
    from_bank: int


@dataclass(frozen=True, slots=True)
class LineHeld(Event):
    """FD-6: a flip in another player's line left it aligned: the owner takes a bonus."""

    kind: ClassVar[str] = "line_held"
    seat: int
    owner: int
    line: int
    bonus: int


@dataclass(frozen=True, slots=True)
class LineLost(Event):
    """FD-7 (own line) or FD-8 (third flip): the line broke with no points; no owner now."""

    kind: ClassVar[str] = "line_lost"
    seat: int
    owner: int
    line: int
    ruling: str


@dataclass(frozen=True, slots=True)
class PhaseEnded(Event):
    """FD-9: nobody can build or flip; each player paid one token per card in hand."""

    kind: ClassVar[str] = "phase_end"
    cards_left: tuple[int, ...]
    paid: tuple[int, ...]
    """What each seat actually paid: never more than it had (FD-1)."""


@dataclass(frozen=True, slots=True)
class MancheWon(Event):
    """FD-10: the best net gain of the manche; `bonus` tokens more."""

    kind: ClassVar[str] = "manche_won"
    seat: int
    manche: int
    gains: tuple[int, ...]
    bonus: int


@dataclass(frozen=True, slots=True)
class Tied(Event):
    """FD-10: a tie for the manche (or, `overtime`, for the game): one more phase."""

    kind: ClassVar[str] = "tie"
    seats: tuple[int, ...]
    overtime: bool
    extra: int


@dataclass(frozen=True, slots=True)
class TieStands(Event):
    """The configured tie_phase_limit was reached: the tie is not broken."""

    kind: ClassVar[str] = "tie_stands"
    seats: tuple[int, ...]
    overtime: bool


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    kind: ClassVar[str] = "game_over"
    winners: tuple[int, ...]
    tokens: tuple[int, ...]
