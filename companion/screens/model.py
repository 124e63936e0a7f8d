"""What every game's screens share, as plain data: the menu and refused presses.

A game's screens live in its own package (`companion/games/<game>/screens.py`), drawn by
renderers it registers with `render.register_renderer`; this module holds only what is not
one game's: the power-on menu's screen, shown before any game exists, and the `Notice` of
a press that could not count with its `Refusal` (one vocabulary for every game's referee,
kept in the journal's `ignored` events). Nothing here imports a game's rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, runtime_checkable


class Refusal(StrEnum):
    """Why a press could not count (docs/table.md: shown on the OLED, never silently dropped).
    The journal's `ignored` events carry these values as `reason`."""

    NOT_NOW = "not_now"
    """The button means nothing at this point of the turn (or came too late)."""
    TABLE_FIRST = "table_first"
    """The table must match what is expected first (a fault or an instruction is open)."""
    VISIBLE_TURN = "visible_turn"
    """PTI-4/PTI-9: a Visible turn shows the animal: no announcement, no Menteur."""
    NO_TOKEN = "no_token"
    """PTI-7: a seat with no Challenge token can only say OK."""
    MAGICIAN = "magician"
    """The Magicien cannot challenge their own placement."""
    NO_ANNOUNCEMENT = "no_announcement"
    """PTI-9: Menteur before there is an announcement."""
    WRONG_WINDOW = "wrong_window"
    """PHI-2: Menteur in window 1, or Doublon in window 2."""
    NOT_SEATED = "not_seated"
    """A seat button where nobody sits in this game."""
    ALREADY_CALLED = "already_called"
    """The seat already called in this window."""
    NOT_A_LINE = "not_a_line"
    """The encoder's choice is not a line of three hats (PTI-3)."""
    NOTHING_TO_UNDO = "nothing_to_undo"
    PUBLIC_FACT = "public_fact"
    """Undo never takes back a verdict, a reveal, a closed window or a manche result."""
    NOT_YOUR_TURN = "not_your_turn"
    """VNP-2: the colour named (or the seat's colours) is not the one to play."""
    NOT_YOUR_COLOUR = "not_your_colour"
    """VNP-7: the seat does not play the colour named."""
    MAY_NOT_PASS = "may_not_pass"
    """VNP-5: a pass while a legal placement exists."""
    ILLEGAL_PLACEMENT = "illegal_placement"
    """VNP-1, VNP-3, VNP-4: the rules forbid that placement (the event names the ruling)."""
    BAD_VALUE = "bad_value"
    """The press's value is not one the game reads (not a colour, not a placement)."""
    REPEATED = "repeated"
    """The same placement sent again: it already counts."""
    UNDO_OFF = "undo_off"
    """The table setting turned undo off (Vous ne passerez pas !: `undo_placement`)."""
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
    reason: Refusal
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
