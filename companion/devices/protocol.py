"""Host side of protocol 1, the line protocol between the Pico firmware and the Pi.

The wire format is defined by firmware/protocol.py (MicroPython, see firmware/README.md);
this is an independent, typed CPython implementation of the same format
(the package cannot import firmware/), checked against the firmware's module in
tests/devices/test_protocol.py. Framing::

    <seq> <body>*XXXX\\n

``seq`` is 0..65535 (decimal, no leading zero), each side counting its own frames;
``XXXX`` is the CRC-16/CCITT-FALSE of every byte before ``*`` in upper-case hex. A line is
at most ``MAX_LINE`` bytes of printable ASCII, ``\\r\\n`` accepted.

Pico -> Pi reports become the frozen dataclasses below (``Report``); Pi -> Pico commands
are built by ``ping``, ``sync`` and ``conf`` and framed by ``encode``. The firmware's
timings (``Timing``, a ``T`` frame after each snapshot) come only after ``conf("stats",
1)``, which a firmware without them refuses with ``BAD conf stats``: old firmware and old
hosts each keep working with the other. The age of an ``S`` frame (``State.age_ms``) is
asked for the same way, with ``conf("age", 1)`` (``BAD conf age`` from an older firmware).
``FrameReader`` turns a byte stream into ``(seq, report)`` pairs and counts, by cause,
every line it drops. The acceptance rules are the firmware's, so both sides agree on what a
frame is.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass

PROTO = 1
MAX_LINE = 1024
SEQ_MOD = 65536
EMPTY = "-"
UNKNOWN = "?"

_PRINTABLE = bytes(range(32, 127))
_HEX_DIGITS = b"0123456789ABCDEF"
_UID = "(?:[0-9A-F]{20}|[0-9A-F]{14}|[0-9A-F]{8})"
_UIDS_RE = re.compile(f"{_UID}(?:,{_UID})*")
_NAME_RE = re.compile("[a-z0-9_]{1,16}")
_VALUE_RE = re.compile("[^ *=,]{1,32}")


class FrameError(ValueError):
    """A line that is not a valid protocol 1 frame, or a body that is not a valid report."""


class CrcError(FrameError):
    """A well-formed line whose CRC does not match: noise on the link or a torn frame."""


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xorout).

    ``binascii.crc_hqx`` is exactly this polynomial without reflection, in C; with the
    0xFFFF seed it gives CCITT-FALSE (``crc16(b"123456789") == 0x29B1``).
    """
    return binascii.crc_hqx(data, crc)


def next_seq(seq: int) -> int:
    return (seq + 1) % SEQ_MOD


def encode(seq: int, body: str) -> bytes:
    """The bytes of one frame carrying ``body`` with sequence number ``seq``, newline included."""
    if not 0 <= seq < SEQ_MOD:
        raise FrameError(f"sequence number {seq} is outside 0..{SEQ_MOD - 1}")
    head = f"{seq} {body}".encode("ascii")
    if head.translate(None, _PRINTABLE) or len(head) + 5 > MAX_LINE:
        raise FrameError("a body is printable ASCII and fits on one line")
    return b"%s*%04X\n" % (head, crc16(head))


def decode(line: bytes) -> tuple[int, str]:
    """``(seq, body)`` of one frame, with or without its line end.

    Raises ``CrcError`` for a CRC mismatch and ``FrameError`` for anything else malformed.
    """
    if len(line) > MAX_LINE + 2:
        raise FrameError("line too long")
    line = line.rstrip(b"\r\n")
    if line.translate(None, _PRINTABLE):
        raise FrameError("not printable ASCII")
    n = len(line)
    if n < 5 or line[n - 5] != 42:  # 42 = "*"
        raise FrameError("no CRC")
    digits = line[n - 4 :]
    if digits.translate(None, _HEX_DIGITS):
        raise FrameError("bad CRC digits")
    head = line[: n - 5]
    if int(digits, 16) != binascii.crc_hqx(head, 0xFFFF):
        raise CrcError("bad CRC")
    space = head.find(b" ")
    if space <= 0 or space == len(head) - 1:
        raise FrameError("no body")
    seq = head[:space]
    if len(seq) > 5 or not seq.isdigit() or (seq[0] == 48 and len(seq) > 1):
        raise FrameError("bad sequence number")
    value = int(seq)
    if value >= SEQ_MOD:
        raise FrameError("sequence number out of range")
    return value, head[space + 1 :].decode("ascii")


# ---- reports (Pico -> Pi) ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Hello:
    """Sent once at start-up: protocol version, firmware version, number of readers."""

    proto: int
    firmware: str
    readers: int


@dataclass(frozen=True, slots=True)
class State:
    """A reader's debounced tag set changed.

    ``age_ms``: how many milliseconds before the frame was sent the visit that saw the
    change sent its first frame (``age=``, sent once ``conf("age", 1)`` asked for it),
    None when the frame has none (an older firmware, or a report that is not a fresh
    reading). ``bad_age`` is the text of an age that is not a number: the change counts,
    its age does not."""

    reader: int
    uids: frozenset[str]
    age_ms: int | None = None
    bad_age: str | None = None


@dataclass(frozen=True, slots=True)
class Full:
    """Snapshot of every reader 0..n-1; None for a faulty reader (``?``)."""

    sets: tuple[frozenset[str] | None, ...]


@dataclass(frozen=True, slots=True)
class Fault:
    """``E <reader> <code>``: ``absent`` (no chip answers), ``stalled`` or ``crashed`` (the
    core that scans its bus stopped), ``shared_<n>`` (one tag lies across this reader and
    reader n: both read it, ``across_of``), or ``ok`` (it works again)."""

    reader: int
    code: str


ACROSS = "shared_"
"""The fault code of a reader sharing one tag with reader n: ``shared_<n>``."""


def across_of(code: str) -> int | None:
    """The other reader of a ``shared_<n>`` fault code (a tag lying across both), else
    None."""
    other = code.removeprefix(ACROSS)
    if other == code or not other.isdigit() or len(other) > 3:
        return None
    return int(other)


@dataclass(frozen=True, slots=True)
class Button:
    name: str
    down: bool


@dataclass(frozen=True, slots=True)
class Timing:
    """``T``: the firmware's own scan timings over a sliding window, in microseconds.

    Sent after each ``F`` once ``CONF stats=1`` asked for it. ``cycle_us`` and ``visit_us``
    are (min, median, max); ``visit_us`` is None (and ``visits`` 0) when the firmware does
    not time single reader visits. ``buses`` is the SPI bus (and RP2040 core) scanning each
    reader when the readers are wired on two buses, None for one bus (or a firmware that
    predates two). Words a later firmware adds are ignored.
    """

    cycles: int
    cycle_us: tuple[int, int, int]
    visits: int
    visit_us: tuple[int, int, int] | None
    buses: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Pong:
    pass


@dataclass(frozen=True, slots=True)
class Ok:
    """A CONF was applied; ``value`` is the value now in force."""

    key: str
    value: str


@dataclass(frozen=True, slots=True)
class Bad:
    """A command was refused: ``crc``, ``frame``, ``cmd`` or ``conf <key>``."""

    reason: str


Report = Hello | State | Full | Fault | Button | Timing | Pong | Ok | Bad

_EMPTY_SET: frozenset[str] = frozenset()
_PONG = Pong()


def _uint(text: str, max_digits: int) -> int:
    if (
        not text
        or len(text) > max_digits
        or not (text.isascii() and text.isdigit())
        or (text[0] == "0" and len(text) > 1)
    ):
        raise FrameError(f"bad number {text!r}")
    return int(text)


def _name(text: str) -> str:
    if not _NAME_RE.fullmatch(text):
        raise FrameError(f"bad name {text!r}")
    return text


def _value(text: str) -> str:
    if not _VALUE_RE.fullmatch(text) or not text.isascii():
        raise FrameError(f"bad value {text!r}")
    return text


def _key_value(word: str) -> tuple[str, str]:
    eq = word.find("=")
    if eq <= 0:
        raise FrameError("expected key=value")
    return _name(word[:eq]), _value(word[eq + 1 :])


def _triple(text: str) -> tuple[int, int, int] | None:
    if text == EMPTY:
        return None
    parts = text.split("/")
    if len(parts) != 3:
        raise FrameError("expected min/median/max")
    low, mid, high = (_uint(part, 9) for part in parts)
    if not low <= mid <= high:
        raise FrameError("expected min <= median <= max")
    return low, mid, high


def _timing(words: list[str]) -> Timing:
    fields = dict(_key_value(word) for word in words[1:])
    if "cycles" not in fields or "cycle_us" not in fields:
        raise FrameError("T needs cycles and cycle_us")
    cycles = _uint(fields["cycles"], 9)
    cycle = _triple(fields["cycle_us"])
    visits = _uint(fields.get("visits", "0"), 9)
    visit = _triple(fields.get("visit_us", EMPTY))
    if cycle is None or cycles == 0 or (visit is None) != (visits == 0):
        raise FrameError("T figures and counts disagree")
    buses = fields.get("buses")
    if buses is not None and (not buses or len(buses) > 64 or buses.strip("01")):
        raise FrameError("T buses is a digit 0 or 1 per reader")
    split = None if buses is None else tuple(int(digit) for digit in buses)
    return Timing(cycles, cycle, visits, visit, split)


def parse_uids(text: str) -> frozenset[str] | None:
    """``-`` -> empty set, ``?`` -> None (unknown), else comma-separated upper-case hex UIDs."""
    if text == EMPTY:
        return _EMPTY_SET
    if text == UNKNOWN:
        return None
    if not _UIDS_RE.fullmatch(text):
        raise FrameError("bad UID list")
    return frozenset(text.split(","))


def format_uids(uids: frozenset[str] | None) -> str:
    """Inverse of ``parse_uids`` (sorted, as the firmware writes them)."""
    if uids is None:
        return UNKNOWN
    if not uids:
        return EMPTY
    text = ",".join(sorted(uids))
    if not _UIDS_RE.fullmatch(text):
        raise FrameError("bad UID")
    return text


def parse_report(body: str) -> Report:
    """The report carried by a Pico -> Pi ``body``; ``FrameError`` if it is not one."""
    words = body.split(" ")
    kind = words[0]
    n = len(words)
    if kind == "S" and n in (3, 4):
        uids = parse_uids(words[2])
        if uids is None:
            raise FrameError("S cannot be unknown")
        if n == 3:
            return State(_uint(words[1], 3), uids)
        key, value = _key_value(words[3])
        if key != "age":
            raise FrameError("an S frame carries an age only")
        try:
            return State(_uint(words[1], 3), uids, _uint(value, 9))
        except FrameError:  # the reader's change is news whatever its age says
            return State(_uint(words[1], 3), uids, bad_age=value)
    if kind == "F":
        sets: list[frozenset[str] | None] = []
        for i in range(1, n):
            word = words[i]
            eq = word.find("=")
            if eq <= 0 or _uint(word[:eq], 3) != i - 1:
                raise FrameError("F must list readers 0..n-1 in order")
            sets.append(parse_uids(word[eq + 1 :]))
        return Full(tuple(sets))
    if kind == "HELLO" and n == 4:
        fields = dict(_key_value(word) for word in words[1:])
        if sorted(fields) != ["fw", "proto", "readers"]:
            raise FrameError("bad HELLO")
        return Hello(_uint(fields["proto"], 3), fields["fw"], _uint(fields["readers"], 3))
    if kind == "E" and n == 3:
        return Fault(_uint(words[1], 3), _name(words[2]))
    if kind == "B" and n == 3 and words[2] in ("down", "up"):
        return Button(_name(words[1]), words[2] == "down")
    if kind == "PONG" and n == 1:
        return _PONG
    if kind == "OK" and n == 2:
        return Ok(*_key_value(words[1]))
    if kind == "BAD" and n >= 2:
        return Bad(" ".join(words[1:]))
    if kind == "T" and n >= 3:
        return _timing(words)
    raise FrameError(f"unknown report {kind[:16]!r}")


# ---- commands (Pi -> Pico) --------------------------------------------------------------------
def ping() -> str:
    """Ask for a ``PONG`` (a liveness check)."""
    return "PING"


def sync() -> str:
    """Ask for a full snapshot ``F`` now."""
    return "SYNC"


def conf(key: str, value: int | str) -> str:
    """``CONF key=value``: change a firmware setting (answered by ``OK`` or ``BAD``)."""
    return f"CONF {_name(key)}={_value(str(value))}"


def repl() -> str:
    """Hand the Pico over to its REPL (answered ``OK repl=1``; a bare Ctrl-C no longer is)."""
    return "REPL"


# ---- stream decoding ----------------------------------------------------------------------------
class FrameReader:
    """Bytes from the link in, ``(seq, report)`` out; every dropped line is counted.

    ``frames`` counts good frames; ``bad_crc`` lines whose CRC failed; ``malformed`` every
    other dropped line (bad framing, bad body, non-ASCII, too long, a fragment cut by a
    reconnect). Empty lines are ignored, not counted. So for any input, every non-empty
    line ends in exactly one of the three counters.
    """

    __slots__ = ("_buffer", "_overlong", "frames", "bad_crc", "malformed")

    def __init__(self) -> None:
        self._buffer = b""
        self._overlong = False
        self.frames = 0
        self.bad_crc = 0
        self.malformed = 0

    @property
    def dropped(self) -> int:
        return self.bad_crc + self.malformed

    def reset(self) -> None:
        """Forget a partial line (the link was cut in the middle of it); it counts as dropped."""
        if self._buffer.rstrip(b"\r") or self._overlong:
            self.malformed += 1
        self._buffer = b""
        self._overlong = False

    def feed(self, data: bytes) -> list[tuple[int, Report]]:
        """The good frames completed by ``data``, in order."""
        lines = (self._buffer + data).split(b"\n")
        rest = lines.pop()
        out: list[tuple[int, Report]] = []
        for line in lines:
            if self._overlong:
                # The tail of a line already judged too long: one dropped line in all.
                self._overlong = False
                continue
            if not line or line == b"\r":
                continue
            try:
                seq, body = decode(line)
                out.append((seq, parse_report(body)))
            except CrcError:
                self.bad_crc += 1
                continue
            except FrameError:
                self.malformed += 1
                continue
            self.frames += 1
        if len(rest) > MAX_LINE + 2:
            if not self._overlong:
                self.malformed += 1
                self._overlong = True
            rest = b""
        self._buffer = rest
        return out
