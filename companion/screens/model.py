"""What every game's screens share, as plain data: the menu and refused presses.

A game's screens live in its own package (`companion/games/<game>/screens.py`), drawn by
renderers its descriptor gives (`Game.screens`); this module holds only what is not
one game's: the power-on menu's screen, shown before any game exists, and the `Notice` of
a press that could not count with its `Reason` (the core's `Refusal`, or a game's own
reasons, kept in the journal's `ignored` events). Nothing here imports a game's rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, runtime_checkable


class Reason(StrEnum):
    """Why a press could not count (docs/table.md: shown on the OLED, never silently
    dropped): the base of every vocabulary of refusals, the core's own (`Refusal`) and each
    game's, which its package declares as a subclass of this one. The journal's `ignored`
    events carry the value as `reason`; the OLED and the transcript say it by the phrase
    ``notice.<value>``, the core's own or the one the game's words register."""


class Refusal(Reason):
    """The refusals of the table itself, which any game's referee may give: a control or a
    seat with nothing to do now, the table to put back first, an undo that cannot be, and
    a phone pressing for another seat (the web page asks `seat_refusal`)."""

    NOT_NOW = "not_now"
    """The button means nothing at this point of the turn (or came too late)."""
    TABLE_FIRST = "table_first"
    """The table must match what is expected first (a fault or an instruction is open)."""
    NOT_SEATED = "not_seated"
    """A seat button where nobody sits in this game."""
    ALREADY_CALLED = "already_called"
    """The seat already called what this button calls, as often as the game allows."""
    NOTHING_TO_UNDO = "nothing_to_undo"
    PUBLIC_FACT = "public_fact"
    """Undo never takes back what the table has shown (`companion/referee/undo.py`)."""
    NOT_YOUR_TURN = "not_your_turn"
    """The press is another seat's to make now."""
    NOT_YOUR_STEP = "not_your_step"
    """A phone's `back` would take back another seat's step (docs/web.md)."""


@runtime_checkable
class Ticking(Protocol):
    """A screen that changes while the game stands still (a countdown draining a bar): it
    says which of its changes are one moment of the game. The demo draws such a moment
    once; the OLED sends its frames at most every `countdown_interval` seconds."""

    def same_moment(self, other: object) -> bool:
        """True when `other` is this moment of the game, drawn at another tick."""
        ...


def same_moment(screen: object, other: object) -> bool:
    """True when `screen` ticks (`Ticking`) and `other` is the same moment of it; any
    other change is a new moment."""
    return isinstance(screen, Ticking) and screen.same_moment(other)


@dataclass(frozen=True, slots=True)
class Notice:
    """A press that could not count, shown for a moment: whose, which button, why."""

    control: str
    seat: int | None
    reason: Reason
    """Why: the core's `Refusal` or the game's own."""
    until: float
    """The referee's time at which the notice leaves the screen."""


@dataclass(frozen=True, slots=True)
class MenuScreen:
    """The power-on menu (docs/table.md, "Starting a game"), before any game exists: no public
    view, no seat of a game, only the menu's own choices.

    ``step`` is the menu step (``resume``, ``game``, ``seats``, ``first``, ``sound``,
    ``ready``) and says which question the title asks. ``options`` are what the encoder
    chooses from: ``resume`` / ``new`` for the resume step, the registry's game names,
    numbers of seats (``"4"``), seat names or volumes (``"0"``: off); at the ``ready``
    step, the spots not yet read empty (``"0"`` is the pad). ``cursor`` indexes ``options``
    (at ``ready``: 0 when a push starts the game, -1 while the readers decide). ``title``
    is the game chosen so far (empty before)."""

    step: str
    options: tuple[str, ...]
    cursor: int
    title: str = ""
