"""The Readers port: what the RFID readers tell the referee, and how they hand it over.

A back end (the Pico over serial, MFRC522 readers on the Pi's SPI, a simulator) runs its own
thread and puts *observations* on the one input queue of the referee loop. Observations are
small frozen values, so the loop can journal them as they are.

Queue policy. Back ends only ever call ``put_nowait``: a device thread never waits for the
referee. The referee should pass an unbounded ``queue.Queue`` (or ``SimpleQueue``); the
traffic is bounded by the hardware anyway (a few changes per second per reader plus one
snapshot a second). If a bounded queue is full, the ``Emitter`` drops the observation,
counts it and keeps it aside; the back end then forgets what it had told the referee about
that reader, so its next reading (the Pico's next snapshot) sends it again. That is safe
because everything except ``ButtonEvent`` is a level (the current contents of a spot, the
link state), not an edge, so sending the state again heals the loss; a lost button edge
is only counted.
"""

from __future__ import annotations

import queue
from dataclasses import dataclass
from typing import Protocol

from companion.devices.protocol import across_of


@dataclass(frozen=True, slots=True)
class SpotContents:
    """The debounced tag set of one reader (0 = the pad, 1..N = the hat spots).

    ``uids`` are upper-case hex strings (8, 14 or 20 digits for 4-, 7- and 10-byte UIDs).
    ``age``: how many seconds before it was reported the reader read it (the Pico's ``S``
    frame says; 0 when unknown), so the referee's settle time counts from the reading.
    """

    reader: int
    uids: frozenset[str]
    age: float = 0.0


@dataclass(frozen=True, slots=True)
class ReaderFault:
    """A reader stopped answering; its contents are unknown until ``ReaderOk``.

    ``code`` is the firmware's word (``absent``; ``shared_<n>`` for a tag lying across
    this reader and reader n, both reading it), or ``unknown`` when a snapshot shows the
    reader as ``?`` without a fault having been reported.
    """

    reader: int
    code: str

    @property
    def across(self) -> int | None:
        """The other reader a tag lying across both makes this one unknown with, or None
        for any other fault."""
        return across_of(self.code)


@dataclass(frozen=True, slots=True)
class ReaderOk:
    """A reader that was faulty answers again (its contents follow as ``SpotContents``)."""

    reader: int


@dataclass(frozen=True, slots=True)
class LinkStatus:
    """State of the link to the reader hardware (the Pico on USB, or the SPI bus).

    ``connected`` turns True after the handshake (HELLO, or a first snapshot when the Pico
    was already running) and False when the device vanishes or falls silent; ``reason``
    says why in words a table owner understands. ``firmware`` and ``readers`` come from
    HELLO (``firmware`` is None when the Pico was already running and no HELLO was seen).
    """

    connected: bool
    port: str | None = None
    firmware: str | None = None
    readers: int | None = None
    proto: int | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """A button wired to the reader hardware went down (pressed) or up."""

    name: str
    down: bool


Observation = SpotContents | ReaderFault | ReaderOk | LinkStatus | ButtonEvent


@dataclass(frozen=True, slots=True)
class DeviceDied:
    """A thread that fed the loop is gone: its name and why (no UID, no token kind). Its
    supervisor reports it (`companion.run.supervise`), on the queue the thread fed."""

    name: str
    reason: str


Reported = Observation | DeviceDied
"""What the thread reading the readers puts on its queue: observations, or its death."""


class Sink(Protocol):
    """Where observations go, and the death of the thread reading them
    (`companion.run.supervise`): ``queue.Queue`` and ``queue.SimpleQueue`` both fit."""

    def put_nowait(self, item: Reported, /) -> None: ...


class Readers(Protocol):
    """A source of observations running on its own thread.

    ``start`` returns at once; from then on the back end puts observations on ``sink``
    with ``put_nowait`` only. ``stop`` ends the thread and releases the hardware; it
    returns once the thread has ended and may be called more than once.
    """

    def start(self, sink: Sink) -> None: ...

    def stop(self) -> None: ...


class Emitter:
    """``put_nowait`` that survives a full bounded queue (see the module docstring).

    ``dropped`` counts lost observations; ``lost`` holds them until the back end takes
    them (``take_lost``) to re-send the state they carried.
    """

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        self.dropped = 0
        self.lost: list[Observation] = []

    def emit(self, item: Observation) -> bool:
        try:
            self.sink.put_nowait(item)
        except queue.Full:
            self.dropped += 1
            if len(self.lost) < 1024:
                self.lost.append(item)
            return False
        return True

    def take_lost(self) -> list[Observation]:
        lost, self.lost = self.lost, []
        return lost
