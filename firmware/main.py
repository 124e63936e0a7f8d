"""Pico firmware entry point: scan the readers, report over USB serial, obey the Pi.

MicroPython runs this file at boot. It disables Ctrl-C as a keyboard interrupt (the link
carries frames, not a REPL), says HELLO, then loops forever:

- one scan cycle over every reader (``scanner.Scanner``; with readers on a second SPI bus,
  ``cores.TwoCores``: core 1 scans that bus while core 0 scans the first);
- an ``S`` frame for every reader whose debounced set changed, ``E`` for reader faults;
  once the Pi asked with ``CONF age=1``, each ``S`` says how many milliseconds ago the
  visit that saw the change began (``age=``), so the Pi counts the table's settle time
  from the reading, not from the frame;
- buttons wired to the Pico (pins.BUTTONS), debounced, as ``B`` frames;
- an ``F`` snapshot at least every ``heartbeat_ms`` (default 1 s), and at once on SYNC,
  followed by a ``T`` frame of its own timings once the Pi asked with ``CONF stats=1``;
  a turn that sent ``S`` frames leaves the snapshot it owes to the next turn without
  any (tokens are moving: the next cycle reads the rest sooner), at most
  ``HEARTBEAT_POSTPONE_MS`` late;
- one tag on two spots never as two tokens: a tag read by a reader while another holds
  it but missed it has moved, and leaves the other at once (not a debounce later); a tag
  lying across two spots (both readers read it, visit after visit) is one fault: each
  reader reported ``E <reader> shared_<other>`` (``?`` in snapshots) until one of them
  stops reading it. The ``S`` frame that would put a tag on a second reader while the
  first still reads it waits a cycle (a snapshot meanwhile shows the tag where the Pi was
  told it lies): a moved tag is missed by the first reader by then, a tag across both is
  not;
- whatever the Pi sent meanwhile, read without blocking through ``select.poll``.

The firmware times itself with ``utime.ticks_us``: every scan cycle, and every reader visit
the scanner timed (``Scanner.visit_us``, when it has it), go into fixed-size rings
(``Window``), so the min/median/max it reports cover the last ``CYCLE_WINDOW`` cycles and
``VISIT_WINDOW`` visits without any list growing or any allocation per cycle; the median
is selected from a copy once per report, in machine code. A CONF that changes the scan
empties both rings, so the figures always describe the settings in force.

A Ctrl-C byte (0x03) is a stray byte like any other garbage on the link: noise must never
stop the scanning. Only a framed ``REPL`` command (good CRC) hands the board over: the
firmware answers ``OK repl=1``, re-enables the keyboard interrupt and leaves the loop, so
``mpremote`` can reach the REPL (firmware/README.md). The ``Firmware`` class holds all of
this without touching ``sys``, so tests drive it with fake streams.

The RP2040's watchdog (``machine.WDT``, ``WATCHDOG_MS``) is fed once per loop turn, so a
loop that stalls (a wedged bus, a blocked write) restarts the board, which says HELLO again.
It cannot be stopped once started, so after the hand-over a timer keeps feeding it.
"""

import gc
import sys
from array import array

import cores
import machine
import mfrc522
import micropython
import pins
import protocol
import scanner
import utime

VERSION = "0.1.0"
CTRL_C = 3
WATCHDOG_MS = 8000
"""The watchdog's timeout: far above the slowest legitimate loop turn (3 tags on each of 18
readers on one bus, a heartbeat included: 284 ms on the emulated RP2040, bench/README.md;
the largest CONF settle_us adds 19 x 20 ms), and just under the RP2040's ceiling of
8388 ms."""
HEARTBEAT_POSTPONE_MS = 1000
"""How late a snapshot may come while every turn sends ``S`` frames: at most
``heartbeat_ms`` + this between two, 2 s by default, well inside the Pi's 3.5 s silence
timeout (which any frame resets)."""
WATCHDOG_FEED_MS = 1000  # the timer that feeds it once the REPL has the board
CORE1_STACK = 8192
"""Bytes of stack for core 1's thread: twice the rp2 port's default, as its visit nests a
few native functions deep (to check on a Pico: an overflow there is a crash, not an error)."""

# CONF keys: (minimum, maximum).
LIMITS = {
    "debounce": (1, 50),
    "settle_us": (0, 20000),
    "timeout_us": (100, 50000),
    "audit": (0, 10000),
    "heartbeat_ms": (100, 10000),
    "stats": (0, 1),
    "age": (0, 1),
}
ACROSS = "shared_"
"""The fault code of a reader whose tag lies across its spot and another: ``shared_<n>``,
``n`` the other reader."""
CYCLE_WINDOW = 64  # about two seconds of a 30 ms cycle: one heartbeat and then some
VISIT_WINDOW = 256  # 14 cycles of 18 readers


class Window:
    """The last ``size`` samples (microseconds) in a preallocated ring.

    ``add`` only stores into the ring (no allocation), so it can run every cycle;
    ``figures`` orders a copy (``_order``) and is meant for the heartbeat, not the hot loop.
    """

    def __init__(self, size):
        self.ring = array("i", [0] * size)
        self.work = array("i", [0] * size)  # ``figures``' copy of the ring
        self.stats = array("i", [0, 0, 0])  # ... and what it found: min, median, max
        self.size = size
        self.count = 0
        self.pos = 0

    def add(self, us):
        self.ring[self.pos] = us
        self.pos += 1
        if self.pos == self.size:
            self.pos = 0
        if self.count < self.size:
            self.count += 1

    def add_all(self, values):
        """``add`` every non-zero value of ``values``, with the ring in locals (one call per
        cycle instead of one per reader: a Python call is what costs on the Pico)."""
        ring = self.ring
        size = self.size
        pos = self.pos
        added = 0
        for us in values:
            if us:
                ring[pos] = us
                pos += 1
                if pos == size:
                    pos = 0
                added += 1
        self.pos = pos
        self.count = min(self.count + added, size)

    def clear(self):
        self.count = 0
        self.pos = 0

    def figures(self):
        """(min, median, max) of the samples held, or None when there are none."""
        n = self.count
        if not n:
            return None
        stats = self.stats
        _order(self.ring, self.work, n, stats)  # before the ring is full: samples 0..n-1
        return (stats[0], stats[1], stats[2])


try:
    ptr8  # noqa: B018 - a viper cast, known only to the viper compiler
except NameError:  # CPython and MicroPython's own code: the tests run the viper code as Python
    def ptr8(buf):
        return buf

    ptr16 = ptr32 = ptr8

_CRC16 = array("H", protocol.CRC_TABLE)
_HEX = b"0123456789ABCDEF"


@micropython.viper
def _crc16(buf, end: int) -> int:
    """protocol.crc16 of ``buf[:end]`` compiled to machine code (viper): a snapshot of 19
    readers (400 bytes) in 0.29 ms on the emulated RP2040, where the interpreter took 3.9."""
    data = ptr8(buf)
    table = ptr16(_CRC16)
    crc = 0xFFFF
    for i in range(end):
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ data[i]]
    return crc


@micropython.viper
def _copy(buf, pos: int, data, n: int) -> int:
    """``buf[pos:pos + n] = data`` in machine code, without a slice; the end. The caller
    makes room first (viper checks no bounds)."""
    dst = ptr8(buf)
    src = ptr8(data)
    for i in range(n):
        dst[pos + i] = src[i]
    return pos + n


@micropython.viper
def _order(ring, work, n: int, stats):
    """Min, median (of two middle samples, their mean rounded down) and max of ``ring[:n]``
    into ``stats``, in machine code: a copy in ``work`` (``array("i")`` both, as long) is
    partly ordered by Hoare's quickselect, some 3n comparisons of machine words. Sorting
    a copy took the ``T`` frame 4 ms between two cycles (its 64 + 256 samples) on the
    emulated RP2040: n log n calls of the interpreter's comparison."""
    src = ptr32(ring)
    a = ptr32(work)
    out = ptr32(stats)
    least = src[0]
    most = src[0]
    for i in range(n):
        v = src[i]
        a[i] = v
        if v < least:
            least = v
        if v > most:
            most = v
    mid = n >> 1
    lo = 0
    hi = n - 1
    while lo < hi:  # a[:lo] <= a[lo:hi + 1] <= a[hi + 1:], mid in lo..hi
        pivot = a[(lo + hi) >> 1]
        i = lo
        j = hi
        while i <= j:
            while a[i] < pivot:
                i += 1
            while a[j] > pivot:
                j -= 1
            if i <= j:
                v = a[i]
                a[i] = a[j]
                a[j] = v
                i += 1
                j -= 1
        if mid <= j:
            hi = j
        elif mid >= i:
            lo = i
        else:
            break  # a[j + 1:i] all equal the pivot
    median = a[mid]
    if not n & 1:  # the mean with the largest of a[:mid], all <= a[mid]
        below = a[0]
        for i in range(1, mid):
            if a[i] > below:
                below = a[i]
        median = (below + median) >> 1
    out[0] = least
    out[1] = median
    out[2] = most


class Line:
    """One outgoing frame built in place in a buffer kept for the firmware's life: its
    parts copied in, its CRC computed in machine code (``_crc16``), so building a frame
    allocates nothing but its bytes (``done``)."""

    def __init__(self, size):
        self.buf = bytearray(size)
        self.pos = 0

    def room(self, n):
        """Make room for ``n`` more bytes and a CRC's (a reader holding more tags than
        the buffer was sized for, while old ones debounce away: rare)."""
        if self.pos + n + 6 > len(self.buf):
            self.buf = self.buf + bytearray(self.pos + n + 6)

    def start(self, seq):
        self.pos = 0
        self.put_uint(seq)
        self.buf[self.pos] = 32  # " "
        self.pos += 1

    def put(self, data):
        n = len(data)
        self.room(n)
        self.pos = _copy(self.buf, self.pos, data, n)

    def put_uint(self, value):
        digits = 1
        top = 10
        while value >= top:
            top *= 10
            digits += 1
        self.room(digits)
        buf = self.buf
        end = self.pos + digits
        for i in range(end - 1, self.pos - 1, -1):
            buf[i] = 48 + value % 10
            value //= 10
        self.pos = end

    def done(self):
        """The frame: ``*``, its CRC and the line end appended (a copy, the one
        allocation)."""
        buf = self.buf
        pos = self.pos
        crc = _crc16(buf, pos)
        buf[pos] = 42  # "*"
        buf[pos + 1] = _HEX[crc >> 12]
        buf[pos + 2] = _HEX[(crc >> 8) & 15]
        buf[pos + 3] = _HEX[(crc >> 4) & 15]
        buf[pos + 4] = _HEX[crc & 15]
        buf[pos + 5] = 10  # "\n"
        return buf[: pos + 6]


class Firmware:
    """The protocol side of the firmware around one ``Scanner``.

    ``write`` takes the bytes of one frame. ``buttons`` is a list of (name, Pin) pairs.
    """

    def __init__(self, scan, write, buttons=(), heartbeat_ms=1000):
        self.scan = scan
        self.write = write
        self.seq = 0
        self.heartbeat_ms = heartbeat_ms
        self.last_full = utime.ticks_ms()
        self.want_full = False
        self.line = bytearray()
        self.overflow = False
        self.bad_frames = 0
        self.stats = False
        self.ages = False  # CONF age=1: S frames carry their age
        self.last_start = utime.ticks_us()  # when the last cycle started
        self.handed_over = False  # a framed REPL command was obeyed: leave the loop
        self.cycle_us = Window(CYCLE_WINDOW)
        self.visit_us = Window(VISIT_WINDOW)
        self.across = {}  # reader -> the other reader of a tag lying across both spots
        self.held = {}  # the same, seen in the last cycle only: their S frames wait
        self.told = [[] for _ in range(scan.n)]  # each reader's set as last sent to the Pi
        # Which readers' sets hold each tag (``reindex``), and the tags two or more hold:
        # only those can lie on two spots, so a turn with a change looks at them alone
        # (looking up every tag read cost the emulated RP2040 9 ms a change: a lookup of a
        # UID in a dict takes it 30 us).
        self.indexed = [()] * scan.n
        self.holders = {}  # uid -> [reader, ...]
        self.shared = set()
        # Each reader's set as text, kept from one frame to the next (``text``), the
        # fixed words around it, and a snapshot's body made of them (None: to make again).
        self.texts = [b""] * scan.n
        self.text_of = [0] * scan.n  # the set each text was made of (0: none yet)
        self.body = None
        self.labels = [(" %d=" % r).encode() for r in range(scan.n)]
        self.heads = [("S %d " % r).encode() for r in range(scan.n)]
        self.out = Line(16 + scan.n * (4 + 15 * 3))  # 3 UIDs a reader fit without growing it
        self.buttons = []
        for name, pin in buttons:
            self.buttons.append([name, pin, 0, 0])  # name, pin, state, consecutive reads

    def send(self, body):
        self.sent(protocol.encode(self.seq, body))

    def hello(self):
        self.send(protocol.hello(VERSION, self.scan.n))

    def sets(self):
        """The sets a snapshot gives: the scanner's, but a tag two readers read while
        their ``S`` frames wait only where the Pi was last told it lies (a snapshot never
        puts a tag on two spots), and a reader sharing a tag with another one unknown
        (None)."""
        scan = self.scan
        sets = scan.sets()
        if self.held:  # (an iterator is an allocation: none for the usual empty dicts)
            for reader, partner in self.held.items():
                told = self.told[reader] or ()
                theirs = scan.set_of(partner) or ()
                sets[reader] = [u for u in sets[reader] or () if u in told or u not in theirs]
        if self.across:
            for reader in self.across:
                sets[reader] = None
        return sets

    def text(self, reader, uids):
        """``uids`` (reader ``reader``'s) as a frame gives them, made again only when they
        are not the set it was last made of: the scanner replaces a reader's list when
        its set changes, so a snapshot of a still table formats nothing (formatting took
        12 ms of a 19 ms heartbeat on the emulated RP2040)."""
        if self.text_of[reader] != uids:
            self.texts[reader] = protocol.format_uids(uids).encode()
            self.text_of[reader] = uids
            self.body = None
        return self.texts[reader]

    def send_full(self):
        sets = self.sets()
        for reader in range(self.scan.n):
            self.text(reader, sets[reader])
        if self.body is None:  # a set changed since the last snapshot
            parts = [b"F"]
            for reader in range(self.scan.n):
                parts.append(self.labels[reader])
                parts.append(self.texts[reader])
            self.body = b"".join(parts)
        out = self.out
        out.start(self.seq)
        out.put(self.body)
        self.sent(out.done())
        self.told = sets
        if self.stats and self.cycle_us.count:
            self.send_timing()
        self.last_full = utime.ticks_ms()
        self.want_full = False

    def send_state(self, reader, uids, aged):
        """An ``S`` frame (protocol.state), built as a snapshot is; with its age when
        ``aged``, taken once the set's text is built: a collection while it is built
        (it allocates) is counted in the age, not hidden from the Pi. From the age on,
        automatic collection is off: the frame's copy (``Line.done``) allocates, and a
        collection there would make the frame later than its age says."""
        out = self.out
        out.start(self.seq)
        out.put(self.heads[reader])
        out.put(self.text(reader, uids))
        auto = gc.isenabled()
        gc.disable()
        try:
            age_ms = self.age_ms(reader) if aged else None
            if age_ms is not None:
                out.put(b" age=")
                out.put_uint(age_ms)
            self.sent(out.done())
        finally:
            if auto:
                gc.enable()
        self.told[reader] = uids

    def sent(self, frame):
        self.write(frame)
        self.seq = protocol.next_seq(self.seq)

    def send_timing(self):
        cycles, visits = self.cycle_us, self.visit_us
        body = protocol.timing(
            cycles.count,
            cycles.figures(),
            visits.count,
            visits.figures(),
            getattr(self.scan, "buses", None),
            getattr(self.scan, "collected", None),
        )
        self.send(body)

    # ---- input ------------------------------------------------------------------------------
    def feed(self, data):
        """Take bytes from the Pi; handle each complete line. False once a framed REPL
        command was obeyed (the bytes after it are left to the REPL); a Ctrl-C byte is
        just a byte, refused with the rest of its line."""
        for byte in data:
            if byte == 10:
                if self.overflow:
                    self.bad_frames += 1
                    self.send(protocol.bad("frame"))
                else:
                    self.handle_line(bytes(self.line))
                self.line = bytearray()
                self.overflow = False
                if self.handed_over:
                    return False
            elif len(self.line) < protocol.MAX_LINE:
                self.line.append(byte)
            else:
                self.overflow = True
        return True

    def handle_line(self, line):
        line = line.rstrip(b"\r")
        if not line:
            return
        try:
            seq, body = protocol.decode(line)
        except protocol.FrameError as err:
            self.bad_frames += 1
            self.send(protocol.bad("crc" if "CRC" in str(err) else "frame"))
            return
        try:
            command = protocol.parse_command(body)
        except protocol.FrameError:
            self.send(protocol.bad("cmd"))
            return
        if command[0] == "PING":
            self.send(protocol.pong())
        elif command[0] == "SYNC":
            self.want_full = True
        elif command[0] == "REPL":
            self.send(protocol.ok("repl", 1))
            self.handed_over = True
        else:
            self.configure(command[1], command[2])

    def configure(self, key, text):
        limits = LIMITS.get(key)
        value = -1
        if limits is not None and text.isdigit():
            value = int(text)
        if limits is None or not limits[0] <= value <= limits[1]:
            self.send(protocol.bad("conf " + key))
            return
        scan = self.scan
        if key == "debounce":
            scan.debounce = value
        elif key == "settle_us":
            scan.settle_us = value
        elif key == "timeout_us":
            scan.set_timeout(value)
            value = scan.readers[0].timeout_us if scan.readers else value
        elif key == "audit":
            scan.audit = value
        elif key == "stats":
            self.stats = value == 1
        elif key == "age":
            self.ages = value == 1
        else:
            self.heartbeat_ms = value
        if key not in ("stats", "heartbeat_ms", "age"):
            self.cycle_us.clear()  # the old figures were for other settings
            self.visit_us.clear()
        self.send(protocol.ok(key, value))

    # ---- one turn of the loop -----------------------------------------------------------------
    def poll_buttons(self):
        for entry in self.buttons:
            level = 0 if entry[1].value() else 1  # closed to ground = pressed
            if level == entry[2]:
                entry[3] = 0
                continue
            entry[3] += 1
            if entry[3] >= 3:
                entry[2] = level
                entry[3] = 0
                self.send(protocol.button(entry[0], level == 1))

    # ---- one tag, two spots -------------------------------------------------------------------
    def check_across(self, changed):
        """The readers whose ``S`` frame is due this cycle (``changed`` and more), and the
        ``E`` frames of a tag lying across two spots (see ``across``). A tag one reader
        reads that another holds but missed in its last visit has left that reader: it is
        dropped there at once, not a debounce later, so a moved tag is never on two
        spots. A pair whose tag neither reader read in its last visit, both still holding
        it (debounced), stays as it was (faulty, or its frames held) until one reads it
        alone or both let it go: a tag lifted off two spots, or moved while a visit was
        under way, is never reported on both."""
        scan = self.scan
        for reader in changed:
            self.reindex(reader)
        pairs = {}  # reader -> the other reader that read the same tag in its last visit
        left = []  # readers a tag left: their frames first, so it is never on two spots
        if self.shared:  # a tag in two readers' sets (rare): did both read it?
            for uid in sorted(self.shared):
                holders = sorted(self.holders[uid])
                readers = [r for r in holders if scan.read(r, uid)]
                if not readers:
                    continue
                for other in readers[1:]:
                    pairs[other] = readers[0]
                    pairs[readers[0]] = other
                for r in holders:
                    if scan.read(r, uid) == 0:  # missed where another reads it: it left
                        scan.forget(r, uid)
                        if r not in left:
                            left.append(r)
            for reader in left:
                self.reindex(reader)
            left.sort()
        kept = {}  # pairs neither reader read the tag of, both still holding it: unresolved
        if self.across or self.held:
            sets = scan.sets()
            for old in (self.across, self.held):
                for reader, partner in old.items():
                    if reader in pairs or partner in pairs:
                        continue
                    mine, theirs = sets[reader], sets[partner]
                    if mine and theirs and any(uid in theirs for uid in mine):
                        kept[reader] = partner
        due = [r for r in left + [r for r in changed if r not in left] if r not in pairs]
        due = [r for r in due if r not in kept]
        for reader in sorted(self.across):
            if pairs.get(reader) != self.across[reader] and reader not in kept:
                self.send(protocol.fault(reader, scanner.RECOVERED))
                if reader not in due:
                    due.append(reader)
        across = {}
        for reader in sorted(pairs):
            partner = pairs[reader]
            if self.held.get(reader) == partner or self.across.get(reader) == partner:
                across[reader] = partner
                if self.across.get(reader) != partner:
                    self.send(protocol.fault(reader, ACROSS + str(partner)))
        for reader in self.held:
            if reader not in pairs and reader not in due and reader not in kept:
                due.append(reader)  # its frame was held back: the other reader lost the tag
        self.held = {r: p for r, p in pairs.items() if r not in across}
        for reader, partner in kept.items():
            if reader in self.across:
                across[reader] = partner
            else:
                self.held[reader] = partner
        self.across = across
        return due

    def reindex(self, reader):
        """``holders`` and ``shared`` after ``reader``'s set changed (a faulty reader's,
        unknown, is left as it was: it reads nothing, see ``Scanner.read``)."""
        uids = self.scan.set_of(reader)
        if uids is None:
            return
        old = self.indexed[reader]
        holders = self.holders
        for uid in old:
            if uid not in uids:
                readers = holders[uid]
                readers.remove(reader)
                if len(readers) < 2:
                    self.shared.discard(uid)
                if not readers:
                    del holders[uid]
        for uid in uids:
            if uid not in old:
                readers = holders.get(uid)
                if readers is None:
                    holders[uid] = [reader]
                else:
                    readers.append(reader)
                    self.shared.add(uid)
        self.indexed[reader] = uids

    def step(self):
        """One scan cycle, timed, and the frames it calls for."""
        start = utime.ticks_us()
        changed = self.scan.cycle()
        self.cycle_us.add(utime.ticks_diff(utime.ticks_us(), start))
        visits = getattr(self.scan, "visit_us", None)  # a Scanner that times its visits
        if visits:
            self.visit_us.add_all(visits)
        faults = self.scan.faults
        while faults:
            reader, code = faults.pop(0)
            self.send(protocol.fault(reader, code))
        due = changed
        if changed or self.across or self.held:
            due = self.check_across(changed)
        for reader in due:
            self.send_state(reader, self.scan.set_of(reader), self.ages)
        self.last_start = start
        self.poll_buttons()
        since = utime.ticks_diff(utime.ticks_ms(), self.last_full)
        if due:  # tokens are moving: the snapshot waits for a quiet turn, a little
            late = since >= self.heartbeat_ms + HEARTBEAT_POSTPONE_MS
        else:
            late = since >= self.heartbeat_ms
        if self.want_full or late:
            self.send_full()

    def age_ms(self, reader):
        """Milliseconds since the visit that changed ``reader``'s set began (its first
        frame: ``Scanner.seen``), when that was in this cycle or the one before (a frame
        held a cycle); else None (a reader reported again for another reason: its last
        change is no news)."""
        seen = self.scan.seen(reader)
        now = utime.ticks_us()
        if utime.ticks_diff(seen, self.last_start) < 0 or utime.ticks_diff(now, seen) < 0:
            return None
        return utime.ticks_diff(now, seen) // 1000


def build_readers():
    """The ``MFRC522`` objects of pins.CS, after a hard reset: those of pins.ON_SPI1 on the
    second bus (pins.SPI1), the others on SPI ``pins.SPI_ID``."""
    rst = machine.Pin(pins.RST, machine.Pin.OUT, value=0)
    utime.sleep_ms(1)
    rst.value(1)
    utime.sleep_ms(50)  # oscillator start-up
    buses = [(pins.SPI_ID, pins.SCK, pins.MOSI, pins.MISO)]
    if pins.SPI1 is not None:
        buses.append(pins.SPI1)
    spis = []
    for bus, sck, mosi, miso in buses:
        spis.append(
            machine.SPI(
                bus,
                baudrate=pins.SPI_BAUD,
                polarity=0,
                phase=0,
                sck=machine.Pin(sck),
                mosi=machine.Pin(mosi),
                miso=machine.Pin(miso),
            )
        )
    readers = []
    for r in range(len(pins.CS)):
        spi = spis[1] if r in pins.ON_SPI1 else spis[0]
        readers.append(mfrc522.MFRC522(spi, machine.Pin(pins.CS[r], machine.Pin.OUT, value=1)))
    return readers


def build_scan(readers, on_spi1=()):
    """One ``Scanner`` over ``readers``, or, when some are on the second bus (``on_spi1``,
    reader numbers), a ``cores.TwoCores`` whose second half is scanned by core 1."""
    if not on_spi1:
        return scanner.Scanner(readers)
    numbers = ([r for r in range(len(readers)) if r not in on_spi1], list(on_spi1))
    parts = [scanner.Scanner([readers[r] for r in half]) for half in numbers]
    return cores.TwoCores(parts, numbers)


def keep_fed(wdt):
    """Feed ``wdt`` from a timer from now on: the REPL has the board, and the RP2040's
    watchdog cannot be stopped. A soft reset (Ctrl-D) ends the timer; main.py then starts
    the watchdog again."""
    return machine.Timer(
        mode=machine.Timer.PERIODIC, period=WATCHDOG_FEED_MS, callback=lambda t: wdt.feed()
    )


def run(stdin=None, stdout=None, max_cycles=-1):
    """The firmware's main loop; ``max_cycles`` >= 0 bounds it (for tests)."""
    watched = stdin
    if stdin is None:
        watched = sys.stdin  # poll the text stream (known to work on rp2), read raw bytes
        stdin = getattr(sys.stdin, "buffer", sys.stdin)
    if stdout is None:
        stdout = getattr(sys.stdout, "buffer", sys.stdout)
    import select

    micropython.kbd_intr(-1)
    scan = build_scan(build_readers(), pins.ON_SPI1)
    scan.start()
    if pins.ON_SPI1:
        import _thread

        try:  # noqa: SIM105 (MicroPython has no contextlib)
            _thread.stack_size(CORE1_STACK)
        except ValueError:  # CPython (the tests) wants 32 KiB at least; its default is more
            pass
        # MicroPython's gc (CPython's, in the tests, has no mem_free and needs no help)
        scan.start_core1(_thread.start_new_thread, gc if hasattr(gc, "mem_free") else None)
    buttons = []
    for name, gpio in pins.BUTTONS:
        buttons.append((name, machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)))

    def write(frame):
        stdout.write(frame)
        if hasattr(stdout, "flush"):
            stdout.flush()

    fw = Firmware(scan, write, buttons)
    fw.hello()
    wdt = machine.WDT(timeout=WATCHDOG_MS)
    poller = select.poll()
    poller.register(watched, select.POLLIN)
    listening = True
    cycles = 0
    try:
        while cycles != max_cycles:
            budget = 256  # bytes per turn, so a flood from the Pi cannot stop the scanning
            while listening and budget and poller.poll(0):
                budget -= 1
                data = stdin.read(1)
                if not data:  # end of input (only off the Pico): stop listening
                    poller.unregister(watched)
                    listening = False
                    break
                if isinstance(data, str):
                    data = data.encode()
                if not fw.feed(data):
                    keep_fed(wdt)
                    return fw
            fw.step()
            wdt.feed()
            cycles += 1
    finally:
        micropython.kbd_intr(CTRL_C)
        if pins.ON_SPI1:
            scan.stop_core1()  # the REPL, or a test, gets a quiet core 1
    return fw


if __name__ == "__main__":
    run()
