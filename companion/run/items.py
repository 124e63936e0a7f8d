"""What the service's own threads put on the queue, next to the devices' observations.

The devices (``companion/devices/``) put their own items (`SpotContents`, `Press`,
`LinkStatus`...); the clock and the simulated input source put these. `Item` is every
kind the referee loop's queue (`Inbox`) holds, so mypy holds each thread to it.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import dataclass

from companion.contract.inputs import Input, Setup
from companion.devices.controls import EncoderTurn, Press
from companion.devices.readers import Observation
from companion.referee.event_log import TableEvent
from companion.run.supervise import DeviceDied
from companion.screens.model import Reason


@dataclass(frozen=True, slots=True)
class Tick:
    """The clock thread's beat."""


@dataclass(frozen=True, slots=True)
class Scripted:
    """A journal input read by the simulated input source (``t`` is the script's)."""

    record: Input


@dataclass(frozen=True, slots=True)
class ScriptSetup:
    """The simulated input's first line was a setup."""

    setup: Setup


@dataclass(frozen=True, slots=True)
class ScriptEnd:
    """The simulated input ended (end of file, or the FIFO's writer closed it)."""

    error: str | None = None


@dataclass(frozen=True, slots=True)
class PagePress:
    """A paired phone's action, from the web page: journaled and judged like a button
    press of `seat`, once the referee said it is that seat's to make (`seat_refusal`).
    `reply` gets the events it caused, or the `Reason` why the act was not the seat's
    (then nothing was journaled); it is called in the referee loop."""

    control: str
    seat: int
    value: object
    reply: Callable[[list[TableEvent] | Reason], None]


@dataclass(frozen=True, slots=True)
class VirtualMove:
    """What a paired phone's hands did on the virtual table (`companion.web.virtual`): the
    game's kit judges it for `seat` and makes the reader reports (and presses) a real
    table would; they are journaled and judged like any. `reply` gets the events they
    caused, or the `Refused` saying why the kit refused the move (nothing journaled); it
    is called in the referee loop."""

    seat: int
    move: object
    reply: Callable[[list[TableEvent] | Exception], None]


@dataclass(frozen=True, slots=True)
class Redraw:
    """Something besides the game changed what the OLED shows (the pairing card)."""


Item = (
    Tick | Scripted | ScriptSetup | ScriptEnd | PagePress | VirtualMove | Redraw
    | Press | EncoderTurn | Observation | DeviceDied
)  # fmt: skip
"""Whatever the referee loop's queue holds: the service's threads' items, the buttons'
presses and turns, the readers' observations, and a device thread's death."""
Inbox = queue.Queue[Item]
"""The referee loop's queue, fed by every thread of the service."""
