"""The lowest power-up wait (``settle_us``) at which every tag on the readers reads: the
search ``companion doctor --find-settle`` and the walk's last step both run
(`SettleSearch`), on a Pico already connected."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

from companion.devices import protocol, scan_model
from companion.devices.readers import (
    LinkStatus,
    ReaderFault,
    Reported,
    SpotContents,
)
from companion.devices.serial_link import SerialLink
from companion.devices.words import doctor_says

SETTLE_MAX_US = 5100
"""Where the search for the lowest power-up wait starts: ISO/IEC 14443-3 (clause 5, the
initial dialogue of type A) lets a tag take up to 5 ms to accept its first command once
the field is on; 100 us more for the field to rise."""
SETTLE_STEP_US = 50
"""The search's resolution."""
SETTLE_CYCLES = 50
"""Scan cycles each power-up wait tried must read every tag in (at most 62: the
firmware's timing window holds 64 and two are left to the change)."""
SETTLE_FLOOR_US = 100
"""The least power-up wait recommended, however early the tags were ready."""
FIRMWARE_DEBOUNCE = 3
"""The firmware's own debounce (firmware/scanner.py), given back after the search."""
SEARCH_HEARTBEAT_MS = 100
"""The snapshot period during the search (its ``T`` frames count the cycles); the
firmware's own, 1000 ms, is given back after it."""
FIRMWARE_HEARTBEAT_MS = 1000


def reader_name(reader: int) -> str:
    """A reader as the console names it: the pad (reader 0) or its spot."""
    return doctor_says("pad") if reader == 0 else doctor_says("spot", n=reader)


class SettleSearch:
    """The lowest power-up wait (``settle_us``) at which every reader holding a tag reads
    it, ``cycles`` scan cycles in a row: with the firmware's debounce at 1 a single missed
    read shows as a change, so each wait tried either reads every tag in every cycle or
    is seen failing. The tags must lie still meanwhile. It starts at ``SETTLE_MAX_US``,
    where every tag must read (what is read there is the reference: a tag too slow for the
    configured wait shows only then), then halves the interval down to
    ``SETTLE_STEP_US``, and recommends twice the lowest working wait (at least
    ``SETTLE_FLOOR_US``); the firmware gets its debounce, wait and heartbeat back.

    Counted in the Pico's own cycles (its ``T`` frames, a snapshot every
    ``SEARCH_HEARTBEAT_MS`` meanwhile), so the search takes as long as the table needs, on
    a real Pico or an emulated one."""

    def __init__(
        self,
        link: SerialLink,
        inbox: queue.Queue[Reported],
        say: Callable[[str], None],
        cycles: int,
        timeout: float,
        contents: dict[int, frozenset[str]],
    ) -> None:
        self.link = link
        self.inbox = inbox
        self.say = say
        self.cycles = min(cycles, 62)
        self.timeout = timeout
        self.current = contents
        self.reference: dict[int, frozenset[str]] = {}
        self.missed: set[int] = set()
        self.trouble = ""  # why the last step got no answer
        self.lowest: int | None = None
        """What the search found: the lowest wait that read every tag, and the one
        recommended (both None until it succeeds)."""
        self.recommended: int | None = None

    def _drain(self, wait: float) -> None:
        """Take what the link saw; a reader whose tags differ from the reference missed."""
        try:
            obs = self.inbox.get(timeout=wait)
        except queue.Empty:
            return
        if isinstance(obs, SpotContents):
            self.current[obs.reader] = obs.uids
            if obs.reader in self.reference and obs.uids != self.reference[obs.reader]:
                self.missed.add(obs.reader)
        elif isinstance(obs, ReaderFault) and obs.reader in self.reference:
            self.missed.add(obs.reader)
        elif isinstance(obs, LinkStatus) and not obs.connected:
            self.trouble = doctor_says("settle_lost_why", reason=obs.reason)

    def _until(self, done: Callable[[], bool], deadline: float) -> bool:
        while not done():
            if not self.link.connected:
                self.trouble = self.trouble or doctor_says("settle_lost")
                return False
            if time.monotonic() > deadline:
                self.trouble = doctor_says("settle_no_answer", timeout=self.timeout)
                return False
            self._drain(0.02)
        return True

    def _timed(self, count: int) -> bool:
        timing = self.link.timing
        return timing is not None and timing.cycles >= count

    def _cycles(self, count: int, deadline: float) -> bool:
        """Wait until the Pico has timed ``count`` cycles since the last CONF."""
        return self._until(lambda: self._timed(count), deadline)

    def _conf(self, key: str, value: int, deadline: float) -> bool:
        link = self.link
        link.replies.clear()
        link.send(protocol.conf(key, value))
        if not self._until(
            lambda: any(isinstance(r, protocol.Ok) and r.key == key for r in list(link.replies)),
            deadline,
        ):
            return False
        link.timing = None  # the T frames after the OK time the new setting only
        return True

    def reads(self, settle: int) -> set[int] | None:
        """The readers that missed a read at ``settle`` (empty: none), None when the Pico
        did not answer (``trouble`` says why). The first call sets the reference."""
        deadline = time.monotonic() + self.timeout
        if not self._conf("settle_us", settle, deadline) or not self._cycles(2, deadline):
            return None
        if not self.reference:
            self.reference = {r: uids for r, uids in self.current.items() if uids}
        self.missed = {r for r, uids in self.reference.items() if self.current.get(r) != uids}
        if not self._cycles(2 + self.cycles, deadline):
            return None
        return set(self.missed)

    def run(self) -> bool:
        """Search and say what it found; False when no wait reads every tag."""
        say = self.say
        link = self.link
        say(doctor_says("settle_start", cycles=self.cycles))
        configured = link.settings.get("settle_us", scan_model.BENCH_SETTLE_US)
        deadline = time.monotonic() + self.timeout
        try:
            if not (
                self._conf("heartbeat_ms", SEARCH_HEARTBEAT_MS, deadline)
                and self._conf("debounce", 1, deadline)
            ):
                say(doctor_says("settle_not_taken", why=self.trouble))
                return False
            return self._search(configured)
        finally:
            deadline = time.monotonic() + self.timeout
            self._conf("debounce", FIRMWARE_DEBOUNCE, deadline)
            self._conf("settle_us", configured, deadline)
            self._conf("heartbeat_ms", FIRMWARE_HEARTBEAT_MS, deadline)

    def _search(self, configured: int) -> bool:
        say = self.say
        low, high = 0, SETTLE_MAX_US  # low: not known to work; high: known to work
        settle: int | None = SETTLE_MAX_US
        while settle is not None:
            missed = self.reads(settle)
            if missed is None:
                say(doctor_says("settle_stopped", us=settle, why=self.trouble))
                return False
            if settle == SETTLE_MAX_US:
                if not self.reference:
                    say(doctor_says("settle_no_tag"))
                    return False
                empty = sorted(r for r in self.current if r not in self.reference)
                if empty:
                    untested = ", ".join(reader_name(r) for r in empty)
                    say(doctor_says("settle_untested", readers=untested))
            if missed:
                names = ", ".join(reader_name(r) for r in sorted(missed))
                say(doctor_says("settle_missed", us=settle, readers=names))
                if settle == SETTLE_MAX_US:
                    say(doctor_says("settle_none"))
                    return False
                low = settle
            else:
                say(doctor_says("settle_read", us=settle))
                high = settle
            middle = (low + high) // 2
            middle -= middle % SETTLE_STEP_US
            if settle == SETTLE_MAX_US:
                settle = 0
            else:
                settle = None if high == 0 or middle in (low, high) else middle
        recommended = max(2 * high, SETTLE_FLOOR_US)
        self.lowest, self.recommended = high, recommended
        say(doctor_says("settle_found", lowest=high, recommended=recommended, now=configured))
        return True
