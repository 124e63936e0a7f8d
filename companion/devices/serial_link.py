"""The Readers back end for the Pico: protocol 1 over USB serial, with pyserial.

One thread owns the port. It opens the device (a path such as the udev name
``/dev/ttyACM0``, or the first Pico found by USB vendor/product id), waits briefly for
``HELLO`` and asks ``SYNC`` when none comes (the Pico was already running, so its HELLO is
long gone), then turns frames into observations:

- ``S`` -> ``SpotContents`` when the set differs from the last one known, with the frame's
  age (how long ago the Pico read it: ``CONF age=1`` is sent at each connection, and
  refused by a firmware that predates ages, whose changes then count from their
  arrival); an age that is not a number is ignored, one over ``MAX_AGE`` clamped, both
  logged;
- ``F`` -> the same, for every reader whose set differs (a snapshot of an unchanged table
  emits nothing), ``?`` -> ``ReaderFault(r, "unknown")`` unless already known faulty;
- ``E r absent`` (or any other code: ``shared_<n>``, a tag across readers r and n) ->
  ``ReaderFault``, again when the code changes; ``E r ok`` -> ``ReaderOk``; ``B`` ->
  ``ButtonEvent``;
- ``HELLO`` and the first snapshot -> ``LinkStatus(connected=True, ...)``;
- ``T`` (the firmware's scan timings, sent once asked with ``CONF stats=1``) -> kept in
  ``timing``, the latest only (the doctor reads it; the game has no use for it).

``settings`` (firmware ``CONF`` keys, such as ``settle_us`` from ``[readers]``) are sent
each time the link connects: the Pico forgets them when it resets. A ``BAD`` answer to one
is logged.

It drops and counts lines with a bad CRC or bad framing, asks ``SYNC`` when a sequence
number is skipped (a lost frame may have been an ``S``), and when the USB device vanishes
(``SerialException``/``OSError``), the Pico falls silent, or it sends only bytes that make
no valid frame for ``garbage_timeout`` (a bad cable or a Pico that is not running the
firmware: link health counts valid frames, not bytes) it reports
``LinkStatus(connected=False)``, and reopens with a growing back-off. Known sets survive a
reconnect, so after a replug only what changed meanwhile is reported.

The thread only calls ``put_nowait`` on the referee's queue (see readers.py for the policy
on a full bounded queue). It is supervised (`companion.run.supervise`): an error that is
not the port's (those are a lost link, retried) kills it, and its death stops the service.
``feed`` is the whole parse-and-dispatch path without I/O, so tests and
bench/serial_frames.py can drive it directly.
"""

from __future__ import annotations

import collections
import errno
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import serial
import serial.tools.list_ports

from companion.devices import protocol
from companion.devices.readers import (
    ButtonEvent,
    Emitter,
    LinkStatus,
    ReaderFault,
    ReaderOk,
    Sink,
    SpotContents,
)
from companion.journal import MAX_AGE
from companion.run.supervise import SupervisedThread

log = logging.getLogger(__name__)

PICO_VID = 0x2E8A  # Raspberry Pi
MICROPYTHON_PID = 0x0005  # MicroPython's CDC device on the RP2040 / RP2350


def no_pico() -> str:
    """What `doctor` and `enroll` say at once when no Pico is on USB."""
    from companion.devices.words import doctor_says

    return doctor_says("no_pico", vid=PICO_VID, pid=MICROPYTHON_PID)


def find_pico(vid: int = PICO_VID, pid: int | None = MICROPYTHON_PID) -> list[str]:
    """Device paths of the attached Picos: exact VID/PID matches first, then other PIDs of
    the same vendor (another firmware build), each group sorted by path."""
    exact: list[str] = []
    other: list[str] = []
    for info in serial.tools.list_ports.comports():
        if info.vid != vid:
            continue
        (exact if pid is None or info.pid == pid else other).append(info.device)
    return sorted(exact) + sorted(other)


def pico_problem(port: str | None, find: Callable[[], list[str]] = find_pico) -> str | None:
    """Why no Pico can be talked to now, in one line, or None: none on USB (``port`` None,
    the Pico looked up by `find`: `no_pico`), or its device cannot be opened (another
    program holds it, say). A command that needs the Pico says so at once instead of
    waiting for a report that cannot come."""
    if port is None:
        found = find()
        if not found:
            return no_pico()
        port = found[0]
    if not os.path.exists(port):
        return f"{port}: no such device: is the Pico plugged in? (ls /dev/ttyACM*)"
    try:  # opened and closed at once: the link opens it again
        serial.Serial(port, timeout=0, exclusive=True).close()
    except (serial.SerialException, OSError, ValueError) as exc:
        return f"{port}: cannot open it: {_reason(exc)}"
    return None


@dataclass(frozen=True, slots=True)
class LinkStats:
    """Counters of one ``SerialLink`` since it was made (a consistent-enough snapshot)."""

    frames: int
    bad_crc: int
    malformed: int
    gaps: int
    syncs_sent: int
    connects: int
    disconnects: int
    dropped_observations: int
    rejected_by_pico: int


class _Unseen:
    """Marker: nothing known yet about a reader."""


_UNSEEN = _Unseen()
_Known = frozenset[str] | None | _Unseen  # None: the reader is faulty


AGE_KEY = "age"
"""The firmware setting that makes ``S`` frames carry their age (``State.age_ms``)."""


class SerialLink:
    """``Readers`` over protocol 1. ``start(sink)`` runs the link thread; ``stop()`` ends it.

    ``port`` is a device path, or None to look the Pico up with ``discover`` before every
    (re)connection. Timing parameters are in seconds; the defaults suit a real Pico (one
    snapshot a second) and tests shrink them.
    """

    def __init__(
        self,
        port: str | None = None,
        *,
        baudrate: int = 115200,
        hello_wait: float = 0.3,
        silence_timeout: float = 3.5,
        garbage_timeout: float = 2.0,
        sync_interval: float = 0.25,
        backoff: tuple[float, float] = (0.1, 2.0),
        read_timeout: float = 0.05,
        exclusive: bool = True,
        discover: Callable[[], list[str]] = find_pico,
        clock: Callable[[], float] = time.monotonic,
        settings: Mapping[str, int] | None = None,
    ) -> None:
        self.port = port
        self.settings = dict(settings or {})
        """Firmware ``CONF`` keys and values, sent at each connection."""
        self.baudrate = baudrate
        self.hello_wait = hello_wait
        self.silence_timeout = silence_timeout
        self.garbage_timeout = garbage_timeout
        self.sync_interval = sync_interval
        self.backoff = backoff
        self.read_timeout = read_timeout
        self.exclusive = exclusive
        self.discover = discover
        self.clock = clock
        """What the silence, garbage, hello and sync timers read (a test may skew it)."""
        self.reader = protocol.FrameReader()
        self.hello: protocol.Hello | None = None
        self.replies: collections.deque[protocol.Report] = collections.deque(maxlen=32)
        """PONG / OK / BAD answers, newest last, for callers of ``send`` (doctor, config)."""
        self.timing: protocol.Timing | None = None
        """The latest ``T`` frame since the last HELLO (None: none yet, or an old firmware)."""
        self.current_port: str | None = None
        self._emitter = Emitter(_NullSink())
        self._known: dict[int, _Known] = {}
        self._codes: dict[int, str] = {}
        """The fault code last reported of each faulty reader: a new code (a tag across it,
        after a snapshot's ``?``) is reported again."""
        self._expected: int | None = None
        self._connected = False
        self._want_sync = False
        self._tx_seq = 0
        self._last_status: LinkStatus | None = None
        self._outbox: queue.SimpleQueue[str | bytes] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._thread: SupervisedThread | None = None
        self._gaps = 0
        self._syncs = 0
        self._connects = 0
        self._disconnects = 0
        self._rejected = 0

    # ---- the port ---------------------------------------------------------------------------
    def start(self, sink: Sink) -> None:
        """Start the link thread, which puts observations on ``sink`` (``put_nowait`` only)."""
        if self._thread is not None:
            raise RuntimeError("this SerialLink is already started")
        self.bind(sink)
        self._stop.clear()
        self._thread = SupervisedThread("serial-link", self._run, sink, self._stop.is_set)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread and close the port; returns once the thread has ended."""
        self._stop.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                raise RuntimeError("the serial link thread did not stop")
        self._thread = None

    close = stop

    def __enter__(self) -> SerialLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def send(self, body: str) -> None:
        """Queue a command body (``protocol.ping()``, ``protocol.conf(...)``) for the Pico.

        Thread-safe; the link thread writes it when connected. Answers land in ``replies``.
        """
        self._outbox.put(body)

    def send_raw(self, data: bytes) -> None:
        """Queue raw bytes for the port, outside the framing (the doctor's Ctrl-C, Ctrl-D)."""
        self._outbox.put(bytes(data))

    @property
    def thread(self) -> SupervisedThread | None:
        """The link thread once started (the service watches it), else None."""
        return self._thread

    @property
    def connected(self) -> bool:
        return self._connected

    @property
    def stats(self) -> LinkStats:
        r = self.reader
        return LinkStats(
            frames=r.frames,
            bad_crc=r.bad_crc,
            malformed=r.malformed,
            gaps=self._gaps,
            syncs_sent=self._syncs,
            connects=self._connects,
            disconnects=self._disconnects,
            dropped_observations=self._emitter.dropped,
            rejected_by_pico=self._rejected,
        )

    # ---- parse and dispatch (no I/O) ----------------------------------------------------------
    def bind(self, sink: Sink) -> None:
        """Send observations to ``sink`` from now on (``start`` does this)."""
        self._emitter = Emitter(sink)

    def feed(self, data: bytes) -> None:
        """Handle bytes read from the Pico: decode the frames, emit what they change."""
        for seq, report in self.reader.feed(data):
            self._dispatch(seq, report)
        if self._emitter.lost:
            self._recover_lost()

    def _recover_lost(self) -> None:
        """The queue was full: forget what the lost observations said, so the next
        snapshot (asked for at once) says it again."""
        for obs in self._emitter.take_lost():
            if isinstance(obs, SpotContents | ReaderFault | ReaderOk):
                self._known.pop(obs.reader, None)
                self._codes.pop(obs.reader, None)
            elif isinstance(obs, LinkStatus):
                self._last_status = None
                self._status(
                    obs.connected,
                    obs.reason,
                    firmware=obs.firmware,
                    readers=obs.readers,
                    proto=obs.proto,
                )
        self._want_sync = True

    def _dispatch(self, seq: int, report: protocol.Report) -> None:
        expected = self._expected
        self._expected = (seq + 1) & 0xFFFF
        if type(report) is protocol.Hello:
            self._on_hello(report)
            return
        if expected is not None and seq != expected:
            self._gaps += 1
            self._want_sync = True
        emit = self._emitter.emit
        kind = type(report)
        if kind is protocol.State:
            assert isinstance(report, protocol.State)
            self._set(report.reader, report.uids, self._age(report))
        elif kind is protocol.Full:
            assert isinstance(report, protocol.Full)
            if not self._connected:
                self._connected = True
                self._connects += 1
                self._apply_settings()
                self._status(
                    True,
                    "snapshot without HELLO (the Pico was already running)",
                    readers=len(report.sets),
                )
            for reader, uids in enumerate(report.sets):
                self._set(reader, uids)
            self._want_sync = False
        elif kind is protocol.Fault:
            assert isinstance(report, protocol.Fault)
            if report.code == "ok":
                if self._known.get(report.reader, _UNSEEN) is None:
                    emit(ReaderOk(report.reader))
                    self._known.pop(report.reader, None)
                    self._codes.pop(report.reader, None)
            elif self._codes.get(report.reader) != report.code:
                emit(ReaderFault(report.reader, report.code))
                self._known[report.reader] = None
                self._codes[report.reader] = report.code
        elif kind is protocol.Button:
            assert isinstance(report, protocol.Button)
            emit(ButtonEvent(report.name, report.down))
        elif kind is protocol.Timing:
            assert isinstance(report, protocol.Timing)
            self.timing = report
        else:
            if kind is protocol.Bad:
                assert isinstance(report, protocol.Bad)
                self._rejected += 1
                if report.reason == "conf " + AGE_KEY:
                    log.info("the Pico's firmware predates ages: changes count from arrival")
                elif report.reason.startswith("conf "):
                    log.warning("the Pico refused the setting %s", report.reason[5:])
            self.replies.append(report)

    def _age(self, report: protocol.State) -> float:
        """The seconds since the Pico read ``report``'s change, as far as it can be
        believed (0: unknown)."""
        if report.bad_age is not None:
            log.warning("reader %d: an age that is not a number (%r): ignored",
                        report.reader, report.bad_age)  # fmt: skip
            return 0.0
        if report.age_ms is None:
            return 0.0
        age = report.age_ms / 1000
        if age > MAX_AGE:
            log.warning("reader %d: an age of %d ms, over %g s: taken as %g s",
                        report.reader, report.age_ms, MAX_AGE, MAX_AGE)  # fmt: skip
            return MAX_AGE
        return age

    def _set(self, reader: int, uids: frozenset[str] | None, age: float = 0.0) -> None:
        known = self._known
        prev = known.get(reader, _UNSEEN)
        if uids is None:
            if prev is not None:
                self._emitter.emit(ReaderFault(reader, "unknown"))
                known[reader] = None
                self._codes[reader] = "unknown"
            return
        if prev is None:
            self._emitter.emit(ReaderOk(reader))
            self._codes.pop(reader, None)
        if prev != uids:
            self._emitter.emit(SpotContents(reader, uids, age))
            known[reader] = uids

    def _on_hello(self, hello: protocol.Hello) -> None:
        self.hello = hello
        self.timing = None  # a restarted firmware: the old figures were of another run
        if hello.proto != protocol.PROTO:
            self._connected = False
            self._status(
                False,
                f"the Pico speaks protocol {hello.proto}, this companion "
                f"speaks {protocol.PROTO}: update the firmware (firmware/README.md)",
            )
            return
        for reader in [r for r in self._known if r >= hello.readers]:
            del self._known[reader]
            self._codes.pop(reader, None)
        if not self._connected:
            self._connects += 1
        self._connected = True
        self._apply_settings()  # a HELLO is a reset: the Pico is back to its defaults
        self._want_sync = True  # the first snapshot would otherwise come a second later
        self._status(
            True, "HELLO", firmware=hello.firmware, readers=hello.readers, proto=hello.proto
        )

    def _apply_settings(self) -> None:
        self._outbox.put(protocol.conf(AGE_KEY, 1))
        for key, value in self.settings.items():
            self._outbox.put(protocol.conf(key, value))

    def _status(self, connected: bool, reason: str, **info: Any) -> None:
        status = LinkStatus(connected, self.current_port, reason=reason, **info)
        if status != self._last_status:
            self._last_status = status
            self._emitter.emit(status)

    # ---- the thread ----------------------------------------------------------------------------
    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            path = self.port
            if path is None:
                found = self.discover()
                path = found[0] if found else None
            if path is None:
                self._status(False, f"no Pico found on USB (vendor id {PICO_VID:04X})")
            else:
                self.current_port = path
                try:
                    port = serial.Serial(
                        path,
                        self.baudrate,
                        timeout=self.read_timeout,
                        write_timeout=0.5,
                        exclusive=self.exclusive,
                    )
                except (serial.SerialException, OSError, ValueError) as exc:
                    self._status(False, f"cannot open {path}: {_reason(exc)}")
                else:
                    try:
                        if self._session(port):
                            delay = self.backoff[0]
                    finally:
                        port.close()
            if self._stop.wait(delay):
                break
            delay = min(delay * 2, self.backoff[1])

    def _session(self, port: serial.Serial) -> bool:
        """Talk over an open port until it fails, falls silent or ``stop``; True if the
        handshake completed (so the back-off starts small again)."""
        self.reader.reset()
        self._expected = None
        self._connected = False
        self.hello = None
        self._want_sync = False
        handshaken = False
        opened = last_rx = last_valid = self.clock()
        frames = self.reader.frames
        asked_hello = pinged = False
        last_sync = -1e9
        try:
            # No reset_input_buffer(): what the Pico wrote just before the port opened (its
            # HELLO) is worth reading; a stale frame is corrected by the snapshot we ask for.
            while not self._stop.is_set():
                while True:
                    try:
                        body = self._outbox.get_nowait()
                    except queue.Empty:
                        break
                    self._write(port, body)
                data = port.read(max(1, port.in_waiting))
                now = self.clock()
                if data:
                    last_rx = now
                    pinged = False
                    self.feed(data)
                    handshaken = handshaken or self._connected
                    if self.reader.frames != frames:
                        frames = self.reader.frames
                        last_valid = now
                if not self._connected and not asked_hello and now - opened >= self.hello_wait:
                    asked_hello = True
                    self._want_sync = True
                if self._want_sync and now - last_sync >= self.sync_interval:
                    last_sync = now
                    self._syncs += 1
                    self._write(port, protocol.sync())
                quiet = now - last_rx
                if quiet >= self.silence_timeout / 2 and not pinged:
                    pinged = True
                    self._write(port, protocol.ping())
                if quiet >= self.silence_timeout:
                    self._lost(
                        f"the Pico on {port.port} is silent (nothing for "
                        f"{self.silence_timeout:g} s)"
                    )
                    return handshaken
                if last_rx > last_valid and now - last_valid >= self.garbage_timeout:
                    self._lost(self._garbage_reason(port.port))
                    return handshaken
        except (serial.SerialException, OSError) as exc:
            self._lost(f"USB device {port.port} vanished: {_reason(exc)}")
            return handshaken
        self._connected = False
        return handshaken

    def _garbage_reason(self, port: str) -> str:
        """Why bytes without a valid frame are a lost link: the OLED's Stop names the cable."""
        return (
            f"the Pico on {port} sends only corrupt frames (no valid frame for "
            f"{self.garbage_timeout:g} s): check its USB cable"
        )

    def _write(self, port: serial.Serial, body: str | bytes) -> None:
        if isinstance(body, bytes):
            port.write(body)
            return
        port.write(protocol.encode(self._tx_seq, body))
        self._tx_seq = protocol.next_seq(self._tx_seq)

    def _lost(self, reason: str) -> None:
        self.reader.reset()
        if self._connected:
            self._disconnects += 1
        self._connected = False
        self._status(False, reason)


class _NullSink:
    def put_nowait(self, item: object, /) -> None:
        pass


_HINTS = {
    errno.EACCES: "permission denied (add this user to the dialout group)",
    errno.EAGAIN: "in use by another program (stop the companion service first)",
    errno.EBUSY: "in use by another program (stop the companion service first)",
}


def _reason(exc: BaseException) -> str:
    """A port's error in words: the system's own for an errno (pyserial's message repeats
    the path and the errno twice), with the fix where one is known."""
    code = getattr(exc, "errno", None)
    if isinstance(code, int):
        return _HINTS.get(code, os.strerror(code))
    text = str(exc)
    if text.startswith("Could not configure port"):  # a file or a device but not a tty
        return "not a serial port"
    return text or type(exc).__name__
