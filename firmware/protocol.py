"""Protocol 1 of the link between the Pico firmware and the Pi: framing and frame bodies.

Pure functions only (no I/O, no clock), written in the subset of Python that MicroPython
runs, so the Pi side and its tests can load this very file.

Framing. Every frame is one ASCII line::

    <seq> <body>*XXXX\\n

``seq`` is a decimal sequence number 0..65535 that wraps, counted separately by each side;
``XXXX`` is the CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xorout) of
every byte before the ``*``, in upper-case hex. Lines are at most ``MAX_LINE`` bytes of
printable ASCII; a receiver also accepts ``\\r\\n``.

Pico -> Pi bodies:

- ``HELLO proto=1 fw=<version> readers=<n>`` once at start-up;
- ``S <reader> <uids>`` when a reader's debounced set changes; once the Pi asked with
  ``CONF age=1``, ``S <reader> <uids> age=<ms>``: how many milliseconds ago the reader's
  visit that saw the change sent its first frame (an age, not a time of the Pico's clock,
  so the Pi needs no clock sync; left out when the firmware does not know it). A host that predates it
  never asks, so never sees one; a firmware that predates it answers ``BAD conf age``;
- ``F <reader>=<uids> ...`` a full snapshot of every reader 0..n-1 in order, at least once a
  second and in answer to SYNC, e.g. ``F 0=- 1=04A1B2C3D4E5F6,8A2C11F0 2=?``;
- ``E <reader> <code>`` a reader fault: ``absent`` (no MFRC522 answers), ``stalled`` or
  ``crashed`` (core 1, which scans that reader's bus, stopped, or its scan raised:
  firmware/cores.py), ``ok`` (it works again);
- ``B <name> down|up`` a button wired to the Pico;
- ``T cycles=<n> cycle_us=<min>/<median>/<max> visits=<m> visit_us=<min>/<median>/<max>``
  the firmware's own timings, right after every ``F`` once the Pi asked for them with
  ``CONF stats=1`` (never otherwise, so a host that predates ``T`` never sees one): the
  scan cycles and the reader visits of a sliding window, in microseconds; ``n`` and ``m``
  are how many cycles and visits the window holds, ``visit_us=-`` when the firmware does
  not time visits. A parser ignores ``key=value`` words it does not know, so later
  firmware may add figures;
- ``PONG`` answers PING; ``OK <key>=<value>`` answers a CONF that was applied (with the
  value in force); ``BAD <reason>`` answers a command that was refused (``crc``, ``frame``,
  ``cmd``, or ``conf <key>``; a firmware without timings answers ``CONF stats=1`` with
  ``BAD conf stats``).

``<uids>`` is ``-`` for an empty set, else the UIDs as upper-case hex (8, 14 or 20 digits)
in ascending order, joined by commas. In ``F``, ``?`` stands for a faulty reader whose
contents are unknown.

Pi -> Pico bodies: ``PING``, ``SYNC`` (send an ``F`` now), ``CONF <key>=<value>``, and
``REPL`` (answered ``OK repl=1``, then the firmware leaves its loop for the REPL: the only
way out, so a stray byte on the link never stops the scanning).

Decoding never lets an odd byte through: ``decode`` and the body parsers raise
``FrameError`` (a ``ValueError``) on anything malformed, ``try_decode`` returns None.
"""

PROTO = 1
MAX_LINE = 1024
SEQ_MOD = 65536
EMPTY = "-"
UNKNOWN = "?"
_HEX = "0123456789ABCDEF"
_NAME = "abcdefghijklmnopqrstuvwxyz0123456789_"


class FrameError(ValueError):
    """A line that is not a valid protocol 1 frame or body."""


def _crc_of_byte(byte):
    """What CRC-16/CCITT-FALSE makes of one byte in the CRC's high byte, a bit at a time."""
    crc = byte << 8
    for _ in range(8):
        crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


CRC_TABLE = tuple([_crc_of_byte(b) for b in range(256)])
"""CRC-16/CCITT-FALSE of each byte value (the firmware's machine-code CRC reads it too)."""


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data`` (bytes); ``crc16(b"123456789") == 0x29B1``.

    A byte at a time from a table: on a Pico, a bit at a time took 26 ms for a heartbeat's
    ``F`` frame of 19 readers, the table 3.5 ms (bench/README.md, pico_cycle.py)."""
    table = CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def next_seq(seq):
    return (seq + 1) % SEQ_MOD


def encode(seq, body):
    """The frame bytes of ``body`` (str) with sequence number ``seq``, newline included."""
    if not 0 <= seq < SEQ_MOD:
        raise FrameError("seq out of range")
    head = f"{seq} {body}".encode()
    return head + f"*{crc16(head):04X}\n".encode()


def decode(line):
    """``(seq, body)`` of one frame (bytes or str, with or without its line end).

    Raises ``FrameError`` for anything that is not a well-formed frame with a good CRC.
    """
    if isinstance(line, str):
        line = line.encode()
    if len(line) > MAX_LINE + 2:
        raise FrameError("too long")
    end = len(line)
    while end and line[end - 1] in (10, 13):
        end -= 1
    for i in range(end):
        if not 32 <= line[i] <= 126:
            raise FrameError("not printable ASCII")
    text = bytes(line[:end]).decode()
    star = text.rfind("*")
    if star < 0 or len(text) - star != 5:
        raise FrameError("no CRC")
    digits = text[star + 1 :]
    for ch in digits:
        if ch not in _HEX:
            raise FrameError("bad CRC digits")
    head = text[:star]
    if int(digits, 16) != crc16(head.encode()):
        raise FrameError("bad CRC")
    space = head.find(" ")
    if space <= 0 or space == len(head) - 1:
        raise FrameError("no body")
    seq = _uint(head[:space], 5)
    if seq >= SEQ_MOD:
        raise FrameError("seq out of range")
    return seq, head[space + 1 :]


def try_decode(line):
    """``decode`` that returns None instead of raising on a bad frame."""
    try:
        return decode(line)
    except FrameError:
        return None


# ---- bodies -----------------------------------------------------------------------------------
# A text is checked against its alphabet with ``str.strip``, which leaves nothing of a text
# made only of the alphabet's characters: one call in C where a loop over the characters
# cost the Pico 0.6 ms per UID (a heartbeat's F frame: 13 ms, bench/README.md).
def _uint(text, max_digits):
    if not text or len(text) > max_digits or text.strip("0123456789"):
        raise FrameError("bad number")
    if len(text) > 1 and text[0] == "0":
        raise FrameError("leading zero")
    return int(text)


def _check_uid(uid):
    if len(uid) not in (8, 14, 20):
        raise FrameError("bad UID length")
    if uid.strip(_HEX):
        raise FrameError("bad UID digit")
    return uid


def _check_name(name):
    if not name or len(name) > 16 or name.strip(_NAME):
        raise FrameError("bad name")
    return name


def _check_value(value):
    if not value or len(value) > 32:
        raise FrameError("bad value")
    for ch in value:
        if ch in " *=,":
            raise FrameError("bad value")
    return value


def format_uids(uids):
    """``-`` or the sorted, comma-joined UIDs (upper-case hex strings)."""
    if uids is None:
        return UNKNOWN
    if not uids:
        return EMPTY
    return ",".join(sorted([_check_uid(u) for u in uids]))


def parse_uids(text):
    """Inverse of ``format_uids``: a tuple of UIDs, or None for ``?``."""
    if text == UNKNOWN:
        return None
    if text == EMPTY:
        return ()
    return tuple([_check_uid(u) for u in text.split(",")])


def hello(fw, readers):
    return f"HELLO proto={PROTO} fw={_check_value(fw)} readers={readers}"


def state(reader, uids, age_ms=None):
    """``S`` body; ``age_ms``: how long ago the change was read, None to leave it out."""
    body = f"S {reader} {format_uids(uids)}"
    return body if age_ms is None else body + " age=" + str(age_ms)


def full(sets):
    """``F`` body of a list indexed by reader of UID lists (None: a faulty reader)."""
    parts = ["F"]
    for reader in range(len(sets)):
        parts.append(f"{reader}={format_uids(sets[reader])}")
    return " ".join(parts)


def fault(reader, code):
    return f"E {reader} {_check_name(code)}"


def button(name, down):
    edge = "down" if down else "up"
    return f"B {_check_name(name)} {edge}"


def timing(cycles, cycle, visits, visit, buses=None, collected=None):
    """``T`` body: ``cycle`` and ``visit`` are (min, median, max) in microseconds or None;
    ``buses``: a digit per reader, the SPI bus (and core) that scans it, when there are two;
    ``collected``: (collections of the heap core 1 made, the longest in us), when it makes
    them (``gc=<n>/<us>``: a host that predates it ignores the word)."""
    body = f"T cycles={cycles} cycle_us={_triple(cycle)} visits={visits} visit_us={_triple(visit)}"
    if buses is not None:
        body += " buses=" + buses
    if collected is not None:
        body += f" gc={collected[0]}/{collected[1]}"
    return body


def _triple(figures):
    if figures is None:
        return EMPTY
    return f"{figures[0]}/{figures[1]}/{figures[2]}"


def _parse_triple(text):
    if text == EMPTY:
        return None
    parts = text.split("/")
    if len(parts) != 3:
        raise FrameError("expected min/median/max")
    low, mid, high = _uint(parts[0], 9), _uint(parts[1], 9), _uint(parts[2], 9)
    if not low <= mid <= high:
        raise FrameError("expected min <= median <= max")
    return (low, mid, high)


def _parse_timing(words):
    fields = {}
    for word in words[1:]:
        key, value = _key_value(word)
        fields[key] = value
    if "cycles" not in fields or "cycle_us" not in fields:
        raise FrameError("T needs cycles and cycle_us")
    cycles = _uint(fields["cycles"], 9)
    cycle = _parse_triple(fields["cycle_us"])
    visits = _uint(fields.get("visits", "0"), 9)
    visit = _parse_triple(fields.get("visit_us", EMPTY))
    if cycle is None or cycles == 0 or (visit is None) != (visits == 0):
        raise FrameError("T figures and counts disagree")
    buses = fields.get("buses")
    if buses is not None and (not buses or len(buses) > 64 or buses.strip("01")):
        raise FrameError("T buses is a digit 0 or 1 per reader")
    return ("T", cycles, cycle, visits, visit)


def pong():
    return "PONG"


def ok(key, value):
    return f"OK {_check_name(key)}={_check_value(str(value))}"


def bad(reason):
    return "BAD " + reason


def ping():
    return "PING"


def sync():
    return "SYNC"


def conf(key, value):
    return f"CONF {_check_name(key)}={_check_value(str(value))}"


def repl():
    return "REPL"


def _key_value(text):
    eq = text.find("=")
    if eq <= 0:
        raise FrameError("expected key=value")
    return _check_name(text[:eq]), _check_value(text[eq + 1 :])


def parse_command(body):
    """A Pi -> Pico body as ``("PING",)``, ``("SYNC",)``, ``("REPL",)`` or
    ``("CONF", key, value)``."""
    words = body.split(" ")
    if words == ["PING"]:
        return ("PING",)
    if words == ["SYNC"]:
        return ("SYNC",)
    if words == ["REPL"]:
        return ("REPL",)
    if len(words) == 2 and words[0] == "CONF":
        key, value = _key_value(words[1])
        return ("CONF", key, value)
    raise FrameError("unknown command")


def parse_report(body):
    """A Pico -> Pi body as a tuple whose first item is the frame kind.

    ``("HELLO", proto, fw, readers)``, ``("S", reader, uids)`` (``("S", reader, uids,
    age_ms)`` when the frame carries an age), ``("F", [uids, ...])``,
    ``("E", reader, code)``, ``("B", name, down)``, ``("PONG",)``, ``("OK", key, value)``,
    ``("BAD", reason)``, ``("T", cycles, cycle, visits, visit)``; ``uids`` is a tuple of hex
    strings, or None for a faulty reader; ``cycle`` and ``visit`` are (min, median, max)
    microseconds, or None when the window holds none.
    """
    words = body.split(" ")
    kind = words[0]
    if kind == "HELLO" and len(words) == 4:
        fields = {}
        for word in words[1:]:
            key, value = _key_value(word)
            fields[key] = value
        if sorted(fields) != ["fw", "proto", "readers"]:
            raise FrameError("bad HELLO")
        return ("HELLO", _uint(fields["proto"], 3), fields["fw"], _uint(fields["readers"], 3))
    if kind == "S" and len(words) in (3, 4):
        uids = parse_uids(words[2])
        if uids is None:
            raise FrameError("S cannot be unknown")
        report = ("S", _uint(words[1], 3), uids)
        if len(words) == 4:
            key, value = _key_value(words[3])
            if key != "age":
                raise FrameError("S carries only an age")
            report += (_uint(value, 9),)
        return report
    if kind == "F":
        sets = []
        for i in range(1, len(words)):
            eq = words[i].find("=")
            if eq <= 0 or _uint(words[i][:eq], 3) != i - 1:
                raise FrameError("F must list readers 0..n-1 in order")
            sets.append(parse_uids(words[i][eq + 1 :]))
        return ("F", sets)
    if kind == "E" and len(words) == 3:
        return ("E", _uint(words[1], 3), _check_name(words[2]))
    if kind == "B" and len(words) == 3 and words[2] in ("down", "up"):
        return ("B", _check_name(words[1]), words[2] == "down")
    if words == ["PONG"]:
        return ("PONG",)
    if kind == "OK" and len(words) == 2:
        key, value = _key_value(words[1])
        return ("OK", key, value)
    if kind == "BAD" and len(words) >= 2:
        return ("BAD", " ".join(words[1:]))
    if kind == "T" and len(words) >= 3:
        return _parse_timing(words)
    raise FrameError("unknown report")
