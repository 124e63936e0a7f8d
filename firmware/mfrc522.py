"""Fast MFRC522 driver for MicroPython: many readers on one SPI bus, one chip select each.

Written for a table of up to 19 readers scanned in turn, where an empty field must cost
about a millisecond rather than the tens of milliseconds of the usual hobby drivers:

- the chip's timer is set to 300 us (TAuto: it starts when the transmission ends), so a
  frame nobody answers ends with TimerIRq 300 us after it: a tag answers REQA, WUPA,
  anticollision and SELECT exactly 86 or 91 us after the frame (ISO/IEC 14443-3 FDT,
  (n * 128 + 84) / fc with n = 8 or 9) and the timer stops at its first bits, so 300 us is
  three times that delay and still a third of the old 1 ms;
- a visit sets the Transceive command up once: each frame then costs three SPI
  transactions to start (clear ComIrqReg, fill the FIFO, StartSend) and, answered, two
  more (one poll that also reads ErrorReg, FIFOLevelReg, ControlReg and CollReg, one FIFO
  read); the chip is re-armed (Idle, flush, Transceive) only after a frame nobody
  answered, an error or a HALT. The first WUPA of a visit is staged in the FIFO while the
  antenna settles (``begin``), so that work costs no time of its own;
- the wait sleeps until the answer can be complete (deadline from StartSend, so the
  interpreter's own time overlaps the air time) and only then polls;
- nothing is allocated or copied per frame: frames that never change (WUPA, REQA, HLTA,
  the SELECTs of a known tag: ``select_frames``) are built once with the FIFO's write
  address in front, other frames are built in place in the bus's FIFO buffer, answers are
  read in place (``rx``), the register writes of a frame are constants, and every
  function of a visit is ``@micropython.native`` (machine code: about a fifth less time
  than bytecode);
- the wait loop polls ComIrqReg with both a deadline and an iteration cap, so a missing or
  stuck reader costs a few milliseconds and is reported, never a hang;
- each reader's antenna is switched on only while it is scanned, so a tag is only ever
  powered (and answering) under its own reader, and every scan starts from fresh tags;
- ``identify`` enumerates every tag in the field (WUPA, anticollision with bit-collision
  resolution through CollReg, cascade levels 1..3, SELECT, HALT, then REQA until silence);
- ``walk`` checks a known set of tags by their first anticollision answers alone, the tree
  of them walked to every leaf: a WUPA and 2n - 1 short frames for n tags (one tag: its
  answer, one frame), none selected or halted; a leaf nobody knows is then read whole;
- ``confirm`` checks a known set by the tags' whole UIDs: WUPA + SELECT of each known UID
  + HALT, then one REQA that only a tag not in the set can answer;
- ``check``, after a walk, reads the rest of one known long UID (SELECT by its first
  level, the next level's anticollision): a tag sharing its first answer collides there.

UIDs are 4, 7 or 10 bytes, without cascade tags or BCCs: ``identify`` returns ``bytes``;
a visit (``scan``, ``walk``, ``confirm``) reads them into buffers of its bus made once,
so reading a new tag allocates nothing either, and they hold until the bus's next visit.
Only ``utime`` and ``micropython`` are imported, so the same file runs on the Pico and,
with the shims of tests/firmware, under CPython and the MicroPython unix port.
"""

import micropython
import utime
from micropython import const

# Registers (datasheet section 9.2).
_COMMAND = const(0x01)
_COM_IRQ = const(0x04)
_DIV_IRQ = const(0x05)
_ERROR = const(0x06)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_CONTROL = const(0x0C)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_CONTROL = const(0x14)
_TX_ASK = const(0x15)
_CRC_RESULT_H = const(0x21)
_CRC_RESULT_L = const(0x22)
_T_MODE = const(0x2A)
_T_PRESCALER = const(0x2B)
_T_RELOAD_H = const(0x2C)
_T_RELOAD_L = const(0x2D)
_VERSION = const(0x37)

# Commands.
_IDLE = const(0x00)
_CALC_CRC = const(0x03)
_TRANSCEIVE = const(0x0C)
_SOFT_RESET = const(0x0F)

# ComIrqReg bits: RxIRq, IdleIRq, TimerIRq end a transceive; TxIRq ends a HALT.
_IRQ_TX = const(0x40)
_IRQ_DONE = const(0x31)
_IRQ_RX = const(0x20)
_IRQ_TIMER = const(0x01)
_ERR_COLL = const(0x08)
_ERR_OTHER = const(0x17)  # BufferOvfl, CRCErr, ParityErr, ProtocolErr

# ISO/IEC 14443-3 type A.
_REQA = const(0x26)
_WUPA = const(0x52)
_CT = const(0x88)
_SAK_CASCADE = const(0x04)
_SEL = (0x93, 0x95, 0x97)

# Timer: prescaler 169 gives (2 * 169 + 1) / 13.56 MHz = 25 us per tick.
_PRESCALER = const(169)
_TICK_US = const(25)

# Bounds of the wait loop: the deadline is the real guard, the cap covers a stalled clock.
_WAIT_MARGIN_US = const(3000)
_MAX_POLLS = const(5000)
_POLL_GAP_US = const(20)
_FDT_US = const(92)  # ISO/IEC 14443-3: an answer starts 86 or 91 us after the frame
_HALT_GUARD_US = const(100)
DEFAULT_TIMEOUT_US = const(300)

# Bits of the answers: ATQA, SAK with its CRC, and a 4-byte anticollision answer + BCC.
_ATQA_BITS = const(16)
_SAK_BITS = const(24)
_SELECT_BITS = const(72)  # a SELECT frame: 9 bytes, CRC_A included

# Results.
OK = const(0)
TIMEOUT = const(1)
COLLISION = const(2)
ERROR = const(3)
STUCK = const(4)
SAME = const(5)
PARTIAL = const(6)

# The register writes of every frame and visit, built once: (address << 1, value). Written
# inline (chip select, write, chip select): ``write`` stores two bytes and costs a call.
_CLEAR_IRQ = bytes((_COM_IRQ << 1, 0x7F))
_CMD_IDLE = bytes((_COMMAND << 1, _IDLE))
_CMD_TRANSCEIVE = bytes((_COMMAND << 1, _TRANSCEIVE))
_FLUSH_FIFO = bytes((_FIFO_LEVEL << 1, 0x80))
_ANTENNA_ON = bytes((_TX_CONTROL << 1, 0x83))
_ANTENNA_OFF = bytes((_TX_CONTROL << 1, 0x80))
_TIMER_STOP = bytes((_CONTROL << 1, 0x80))  # TStopNow

MAX_TAGS = const(8)
_SPLIT = const(32)  # ``_anticollision_frame``: a collision at bit b returns _SPLIT + b
# ``walk``'s branches left to ask: 5 CL bytes each, then how many bits of each are known.
_BRANCH_BITS = const(5 * MAX_TAGS)
_BRANCHES = const(6 * MAX_TAGS)
KNOWN_VERSIONS = (0x88, 0x90, 0x91, 0x92, 0xB2)
_HLTA = b"\x50\x00\x57\xcd"  # HLTA with its CRC_A
# Frames that never change, ready for the FIFO: its write address, then the frame.
_WUPA_FIFO = bytes((_FIFO_DATA << 1, _WUPA))
_REQA_FIFO = bytes((_FIFO_DATA << 1, _REQA))
_HLTA_FIFO = bytes((_FIFO_DATA << 1,)) + _HLTA


def _crc_byte(b):
    """What one byte ``b`` (already xored into the CRC's low byte) adds to CRC_A."""
    b = (b ^ (b << 4)) & 0xFF
    return (b << 8) ^ (b << 3) ^ (b >> 4)


_CRC_TABLE = tuple([_crc_byte(b) for b in range(256)])


@micropython.native
def crc_a(data, n):
    """CRC_A of ISO/IEC 14443-3 over ``data[:n]`` (init 0x6363, reflected 0x1021), a byte
    at a time from a table."""
    crc = 0x6363
    for i in range(n):
        crc = (crc >> 8) ^ _CRC_TABLE[(crc ^ data[i]) & 0xFF]
    return crc


def cl1_of(uid):
    """The 5 bytes a tag answers to the first anticollision command (UID or CT + 3, BCC)."""
    part = bytes(uid) if len(uid) == 4 else bytes((_CT, uid[0], uid[1], uid[2]))
    return part + bytes((part[0] ^ part[1] ^ part[2] ^ part[3],))


def select_frames(uid):
    """The SELECT frames that pick ``uid``, one per cascade level, each ready for the FIFO.

    Each is 10 bytes: the FIFO's write address, then the 9-byte SELECT (CRC_A included).
    Built once per known tag so ``confirm`` sends them without computing or copying.
    """
    if len(uid) == 4:
        parts = (bytes(uid),)
    elif len(uid) == 7:
        parts = (bytes((_CT, uid[0], uid[1], uid[2])), bytes(uid[3:7]))
    else:
        parts = (
            bytes((_CT, uid[0], uid[1], uid[2])),
            bytes((_CT, uid[3], uid[4], uid[5])),
            bytes(uid[6:10]),
        )
    out = []
    for level in range(len(parts)):
        part = parts[level]
        frame = bytearray(10)
        frame[0] = _FIFO_DATA << 1
        frame[1] = _SEL[level]
        frame[2] = 0x70
        for i in range(4):
            frame[3 + i] = part[i]
        frame[7] = part[0] ^ part[1] ^ part[2] ^ part[3]
        crc = crc_a(memoryview(frame)[1:], 7)
        frame[8] = crc & 0xFF
        frame[9] = crc >> 8
        out.append(bytes(frame))
    return tuple(out)


# The CRC_A that follows each SAK value in a SELECT answer: a lookup instead of a CRC.
_SAK_CRC = tuple([crc_a(bytes((sak,)), 1) for sak in range(256)])


@micropython.native
def _is_sak(rx, n, bits):
    """Whether an answer of ``n`` bytes (``bits`` in the last) is a SAK and its CRC_A."""
    return n == 3 and not bits and _SAK_CRC[rx[0]] == rx[1] | (rx[2] << 8)


def _same5(a, b):
    return a[0] == b[0] and a[1] == b[1] and a[2] == b[2] and a[3] == b[3] and a[4] == b[4]


@micropython.native
def _air_us(nbits):
    """Air time of a frame of ``nbits`` at 106 kbit/s: SOF, data, a parity bit per byte, EOF."""
    return (nbits + nbits // 8 + 2) * 944 // 100


# Transfer buffers, one set per SPI bus (one reader a bus is on it at a time; the two
# buses are driven by the RP2040's two cores at once, so they must not share a set), with
# views of the short lengths made once: slicing a memoryview allocates, and frames are short.
_VIEWS = const(17)


class _BusBuffers:
    def __init__(self):
        self.fbuf = bytearray(65)  # FIFO address + up to 64 data bytes
        self.fbuf[0] = _FIFO_DATA << 1
        self.qbuf = bytearray(65)  # up to 64 FIFO reads and the closing 0
        for i in range(65):
            self.qbuf[i] = 0x80 | (_FIFO_DATA << 1)
        self.rbuf = bytearray(65)
        self.fmv = memoryview(self.fbuf)
        self.qmv = memoryview(self.qbuf)
        self.rmv = memoryview(self.rbuf)
        self.rx = self.rmv[1:]  # the FIFO bytes of the last read, in place
        self.frame = self.fmv[1:]  # a frame built in place, after the FIFO's address
        self.fviews = tuple([self.fmv[: k + 1] for k in range(_VIEWS)])
        self.qviews = tuple([self.qmv[: k + 1] for k in range(_VIEWS)])
        self.rviews = tuple([self.rmv[: k + 1] for k in range(_VIEWS)])
        # The UIDs a visit reads, in place: slot k holds the k-th tag read, in a buffer of
        # each UID length (4, 7, 10: index ``size // 3 - 1``), so reading a tag allocates
        # nothing. Valid until the bus's next visit: keep a copy.
        self.slots = tuple([bytearray(4 + 3 * (i % 3)) for i in range(3 * MAX_TAGS)])
        self.uid = bytearray(10)  # a UID being read, level by level (``_read_one``)


_BUSES = []  # (spi, _BusBuffers) of every bus a reader was made on


class _Slice:
    def __getitem__(self, key):
        return key


EVERY = _Slice()[:]  # (MicroPython has no ``slice()``)
"""``del items[EVERY]`` empties a list and keeps its room (``clear`` gives it back, and
``del items[:]`` makes a slice object): the next appends allocate nothing."""


def room_for(n):
    """An empty list that can take ``n`` items without allocating."""
    items = [None] * n
    del items[EVERY]
    return items


def _buffers_of(spi):
    for bus, buffers in _BUSES:
        if bus is spi:
            return buffers
    buffers = _BusBuffers()
    _BUSES.append((spi, buffers))
    return buffers


class MFRC522:
    """One MFRC522 behind chip select ``cs`` on the shared ``spi`` bus (mode 0, MSB first)."""

    def __init__(self, spi, cs, timeout_us=DEFAULT_TIMEOUT_US):
        self.spi = spi
        self.cs = cs
        cs.value(1)
        self.timeout_us = timeout_us
        bus = _buffers_of(spi)
        self._qbuf = bus.qbuf
        self._rviews = bus.rviews
        self._qviews = bus.qviews
        self._fviews = bus.fviews
        self._b2 = bytearray(2)
        self._r2 = bytearray(2)
        self._start = bytearray((_BIT_FRAMING << 1, 0x80))  # StartSend and the framing
        self._frame = bus.frame
        self._cl = bytearray(5)
        self._bus = bus
        # One poll reads ComIrqReg and, in the same transaction, what an answer needs.
        self._poll_q = bytes(
            (
                0x80 | (_COM_IRQ << 1),
                0x80 | (_ERROR << 1),
                0x80 | (_FIFO_LEVEL << 1),
                0x80 | (_CONTROL << 1),
                0x80 | (_COLL << 1),
                0,
            )
        )
        self._poll = bytearray(6)
        self._armed = False  # Transceive is the chip's command and the modem awaits StartSend
        self._dirty = True  # the FIFO may hold bytes of an earlier frame
        self._staged = False  # a WUPA waits in the FIFO for StartSend (``begin``)
        self._sent = 0  # ticks_us of the last StartSend
        self._not_before = 0  # ticks_us before which no frame may start (HALT guard)
        self._guard = False  # ``_not_before`` applies to the next frame
        self.rx = bus.rx  # answers are read straight into the bus's buffer, never copied
        self.rx_len = 0
        self.rx_bits = 0
        self.coll = 0
        self._branches = bytearray(_BRANCHES)  # ``walk``'s branches left to ask
        self._leaves = bytearray(5 * MAX_TAGS)  # ``walk``'s first answers nobody expected
        # UIDs of the tags ``confirm`` or ``walk`` found beyond the known ones, and of the
        # last ``scan``: the bus's slots (see ``_BusBuffers``), in lists with room for
        # MAX_TAGS made once (``room_for``).
        self.found = room_for(MAX_TAGS)
        self.uids = room_for(MAX_TAGS)
        self.last = None  # UID of the last tag read: a slot, or ``_read_one``'s ``again``

    # ---- register level -----------------------------------------------------------------------
    @micropython.native
    def write(self, reg, value):
        b = self._b2
        b[0] = reg << 1
        b[1] = value
        cs = self.cs
        cs.value(0)
        self.spi.write(b)
        cs.value(1)

    @micropython.native
    def read(self, reg):
        b = self._b2
        b[0] = 0x80 | (reg << 1)
        b[1] = 0
        cs = self.cs
        cs.value(0)
        self.spi.write_readinto(b, self._r2)
        cs.value(1)
        return self._r2[1]

    def _write_fifo(self, data, n):
        """Write ``n`` bytes of ``data`` to the FIFO, 16 a transaction (the set-up's
        ``chip_crc``: frames are built in place, ``_exchange``)."""
        frame = self._frame
        cs = self.cs
        for start in range(0, n, _VIEWS - 1):
            count = min(n - start, _VIEWS - 1)
            for i in range(count):
                frame[i] = data[start + i]
            cs.value(0)
            self.spi.write(self._fviews[count])
            cs.value(1)

    @micropython.native
    def _read_fifo(self, n):
        """Read ``n`` FIFO bytes (at most 16) in one transaction; they land in ``self.rx``."""
        q = self._qbuf
        q[n] = 0
        cs = self.cs
        cs.value(0)
        self.spi.write_readinto(self._qviews[n], self._rviews[n])
        cs.value(1)
        q[n] = 0x80 | (_FIFO_DATA << 1)

    # ---- set-up ---------------------------------------------------------------------------------
    def version(self):
        return self.read(_VERSION)

    def init(self):
        """Soft-reset and configure the chip; return its VersionReg (0x91/0x92 for NXP)."""
        self.write(_COMMAND, _SOFT_RESET)
        for _ in range(50):
            utime.sleep_us(100)
            if not self.read(_COMMAND) & 0x10:  # PowerDown clears when the chip is ready
                break
        self.set_timeout(self.timeout_us)
        self.write(_TX_ASK, 0x40)  # Force100ASK: ISO/IEC 14443 A needs 100 % ASK
        self.write(_MODE, 0x3D)  # CRC preset 0x6363, transmitter waits for the field
        self.write(_COLL, 0x00)  # ValuesAfterColl = 0: zeros after a collision
        self.write(_TX_CONTROL, 0x80)  # antenna off until scanned
        self._armed = False
        self._dirty = True
        self._staged = False
        return self.version()

    def set_timeout(self, timeout_us):
        """Timer period for an unanswered frame: TAuto, 25 us ticks, reload = period - 1."""
        ticks = max(2, (timeout_us + _TICK_US - 1) // _TICK_US)
        self.timeout_us = ticks * _TICK_US
        self.write(_T_MODE, 0x80 | (_PRESCALER >> 8))
        self.write(_T_PRESCALER, _PRESCALER & 0xFF)
        self.write(_T_RELOAD_H, (ticks - 1) >> 8)
        self.write(_T_RELOAD_L, (ticks - 1) & 0xFF)

    def antenna(self, on):
        self.write(_TX_CONTROL, 0x83 if on else 0x80)
        if not on:
            self._staged = False

    @micropython.native
    def begin(self, settle_us):
        """Start a visit: antenna on, and a WUPA staged while the tags power up.

        Returns once ``settle_us`` have passed since the field came on; the set-up
        transactions are done inside that wait rather than after it.
        """
        cs = self.cs
        cs.value(0)
        self.spi.write(_ANTENNA_ON)
        cs.value(1)
        start = utime.ticks_us()
        self._load(_WUPA_FIFO)
        self._staged = True
        left = settle_us - utime.ticks_diff(utime.ticks_us(), start)
        if left > 0:
            utime.sleep_us(left)

    @micropython.native
    def end(self):
        """End a visit: antenna off (the tags lose power and forget their state)."""
        cs = self.cs
        cs.value(0)
        self.spi.write(_ANTENNA_OFF)
        cs.value(1)
        self._staged = False
        self._armed = False  # re-armed, under the next settle, at the next visit

    # ---- frames ---------------------------------------------------------------------------------
    @micropython.native
    def _load(self, ready):
        """Everything of a frame but StartSend: re-arm Transceive if the last frame left the
        chip idle (or flush the WUPA ``begin`` staged, when another frame comes first),
        clear ComIrqReg, fill the FIFO from ``ready``: the frame after the FIFO's write
        address. (One function: a call costs as much as a register write.)"""
        cs = self.cs
        spi = self.spi
        if self._staged:
            self._staged = False
            self._armed = False
            self._dirty = True
        if not self._armed:
            cs.value(0)
            spi.write(_CMD_IDLE)
            cs.value(1)
            if self._dirty:
                cs.value(0)
                spi.write(_FLUSH_FIFO)
                cs.value(1)
                self._dirty = False
            cs.value(0)
            spi.write(_CMD_TRANSCEIVE)
            cs.value(1)
            self._armed = True
        cs.value(0)
        spi.write(_CLEAR_IRQ)
        cs.value(1)
        cs.value(0)
        spi.write(ready)
        cs.value(1)

    @micropython.native
    def _send(self, framing):
        """StartSend, no sooner than the guard time of an earlier HALT allows."""
        if self._guard:
            self._guard = False
            wait = utime.ticks_diff(self._not_before, utime.ticks_us())
            if wait > 0:
                utime.sleep_us(wait)
        start = self._start
        start[1] = 0x80 | framing
        cs = self.cs
        cs.value(0)
        self.spi.write(start)
        cs.value(1)
        self._sent = utime.ticks_us()

    @micropython.native
    def _wait(self, mask, first_us, budget_us):
        """Poll ComIrqReg until a bit of ``mask`` is set; return it, or -1 when stuck.

        The first poll comes ``first_us`` after StartSend (when the answer can be
        complete); each poll also reads ErrorReg, FIFOLevelReg, ControlReg, CollReg into
        ``self._poll[2:6]``.
        """
        start = self._sent
        left = first_us - utime.ticks_diff(utime.ticks_us(), start)
        if left > 0:
            utime.sleep_us(left)
        poll = self._poll
        q = self._poll_q
        cs = self.cs
        spi = self.spi
        for _ in range(_MAX_POLLS):
            cs.value(0)
            spi.write_readinto(q, poll)
            cs.value(1)
            irq = poll[1]
            if irq & mask:
                return irq
            if utime.ticks_diff(utime.ticks_us(), start) > budget_us:
                break
            utime.sleep_us(_POLL_GAP_US)
        return -1

    @micropython.native
    def _exchange(self, n, last_bits, align, answer_bits):
        """Send the ``n`` bytes built in ``self._frame``; wait for the answer in
        ``self.rx[:self.rx_len]``.

        ``answer_bits`` is the length of the expected answer (when to poll first). Returns
        OK, TIMEOUT (nobody answered within the timer), COLLISION (``self.coll`` holds
        CollReg), ERROR (parity, protocol, overflow) or STUCK (no interrupt at all: the
        reader is missing or hung). ``self.rx_bits`` is the number of valid bits in the
        last byte received, 0 meaning all 8.
        """
        self._load(self._fviews[n])
        self._send((align << 4) | last_bits)
        return self._finish(n * 8 - ((8 - last_bits) if last_bits else 0), answer_bits)

    @micropython.native
    def _finish(self, nbits, answer_bits):
        air = (nbits + nbits // 8 + 2) * 944 // 100  # _air_us, inline: called every frame
        answer = (answer_bits + answer_bits // 8 + 2) * 944 // 100
        irq = self._wait(_IRQ_DONE, air + _FDT_US + answer, air + self.timeout_us + _WAIT_MARGIN_US)
        self.rx_len = 0
        if irq < 0:
            self._armed = False
            self._dirty = True
            return STUCK
        if not irq & _IRQ_RX:
            self._armed = False  # the receiver still waits: re-arm before the next frame
            if irq & _IRQ_TIMER:
                return TIMEOUT
            self._dirty = True
            return ERROR
        s = self._poll
        err = s[2]
        level = s[3] & 0x7F
        self.rx_bits = s[4] & 0x07
        self.coll = s[5]
        if level >= _VIEWS:  # no answer to these frames is that long: noise
            self._armed = False
            self._dirty = True
            return ERROR
        if level:
            self._read_fifo(level)
        self.rx_len = level
        if err & _ERR_COLL:
            return COLLISION
        if err & _ERR_OTHER:
            return ERROR
        return OK

    def chip_crc(self, data, n):
        """CRC_A from the chip's coprocessor (used to cross-check ``crc_a``)."""
        self.write(_COMMAND, _IDLE)
        self._armed = False
        self.write(_DIV_IRQ, 0x04)
        self.write(_FIFO_LEVEL, 0x80)
        self._write_fifo(data, n)
        self.write(_COMMAND, _CALC_CRC)
        for _ in range(100):
            if self.read(_DIV_IRQ) & 0x04:
                self.write(_COMMAND, _IDLE)
                return self.read(_CRC_RESULT_L) | (self.read(_CRC_RESULT_H) << 8)
            utime.sleep_us(_POLL_GAP_US)
        return -1

    # ---- ISO/IEC 14443-3 ----------------------------------------------------------------------
    @micropython.native
    def request(self, wake=True):
        """WUPA (wakes IDLE and HALT tags) or REQA (IDLE only), a 7-bit short frame.

        OK or COLLISION both mean something answered (tags of different types collide in
        their ATQA); TIMEOUT means an empty field (or only halted tags, for REQA). A WUPA
        staged by ``begin`` is sent as it is.
        """
        if self._staged and wake:
            self._staged = False
        else:
            self._load(_WUPA_FIFO if wake else _REQA_FIFO)
        self._send(7)
        return self._finish(7, _ATQA_BITS)

    @micropython.native
    def halt(self):
        """HLTA: wait for TxIRq, stop the timer; the next frame waits the guard time."""
        self._load(_HLTA_FIFO)
        self._send(0)
        air = _air_us(32)
        irq = self._wait(_IRQ_TX, air, air + _WAIT_MARGIN_US)
        cs = self.cs
        cs.value(0)
        self.spi.write(_TIMER_STOP)  # no stale TimerIRq in the next frame
        cs.value(1)
        self._armed = False  # the receiver waits for an answer that never comes
        self._not_before = utime.ticks_add(self._sent, air + _HALT_GUARD_US)
        self._guard = True
        return STUCK if irq < 0 else OK

    @micropython.native
    def _anticollision_frame(self, level, cl, known):
        """One ANTICOLLISION frame at ``level`` carrying the first ``known`` bits of ``cl``
        (5 bytes: 4 UID/CT bytes and BCC); the answer is merged into ``cl`` after them.

        OK: ``cl`` is complete and its BCC checked; ``_SPLIT`` + the bit of a collision:
        ``cl`` holds the bits received before it; else the failing status.
        """
        frame = self._frame
        frame[0] = _SEL[level]
        full = known >> 3
        part = known & 7
        frame[1] = ((2 + full) << 4) | part
        nbytes = full + (1 if part else 0)
        for i in range(nbytes):
            frame[2 + i] = cl[i]
        st = self._exchange(2 + nbytes, part, part, 40 - known)
        if st != OK and st != COLLISION:
            return st
        rx = self.rx
        n = self.rx_len
        got = (n * 8 - ((8 - self.rx_bits) if self.rx_bits else 0)) - part
        if n == 0 or full + n > 5:
            return ERROR
        # The first received byte continues the split byte: keep our low ``part`` bits.
        low = (1 << part) - 1
        cl[full] = (cl[full] & low) | (rx[0] & ~low & 0xFF)
        for i in range(1, n):
            cl[full + i] = rx[i]
        if st == OK:
            if known + got != 40:
                return ERROR
            if cl[0] ^ cl[1] ^ cl[2] ^ cl[3] != cl[4]:
                return ERROR
            return OK
        if self.coll & 0x20:  # CollPosNotValid
            return ERROR
        pos = self.coll & 0x1F
        if pos == 0:
            pos = 32
        bit = (full << 3) + pos - 1  # CollPos counts from the FIFO's first byte
        if bit < known or bit >= 32:
            return ERROR
        return _SPLIT + bit

    @micropython.native
    def _anticollision(self, level, cl):
        """Resolve one cascade level into ``cl`` (5 bytes: 4 UID/CT bytes and BCC).

        Starts with no known bits; on a collision, keeps the bits received before it, takes
        the 1 branch at the colliding bit and asks again, so the tags of the other branch
        fall silent. Returns OK (``cl`` complete, BCC checked) or the failing status.
        """
        known = 0
        for _ in range(33):
            st = self._anticollision_frame(level, cl, known)
            if st < _SPLIT:
                return st
            bit = st - _SPLIT
            byte = bit >> 3
            mask = 1 << (bit & 7)
            cl[byte] = (cl[byte] & (mask - 1)) | mask
            for i in range(byte + 1, 5):
                cl[i] = 0
            known = bit + 1
        return ERROR

    @micropython.native
    def _select(self, level, cl):
        """SELECT at ``level`` with the 5 CL bytes; return the SAK, or -status on failure."""
        frame = self._frame
        frame[0] = _SEL[level]
        frame[1] = 0x70
        for i in range(5):
            frame[2 + i] = cl[i]
        crc = crc_a(frame, 7)
        frame[7] = crc & 0xFF
        frame[8] = crc >> 8
        st = self._exchange(9, 0, 0, _SAK_BITS)
        if st != OK:
            return -st
        rx = self.rx
        if not _is_sak(rx, self.rx_len, self.rx_bits):
            return -ERROR
        return rx[0]

    @micropython.native
    def _read_one(self, again, slot, heard=False):
        """Anticollision and SELECT through the cascade levels of one tag.

        ``heard``: ``self._cl`` holds the tag's first anticollision answer already (a walk's
        leaf) and the tag is READY: it is selected by it at once. Returns OK (the UID in
        ``self.last``: ``again`` itself when it is that UID, else the bus's slot ``slot``
        for its length: nothing is allocated) or the failing status.
        """
        bus = self._bus
        uid = bus.uid
        size = 0
        cl = self._cl
        for level in range(3):
            if level or not heard:
                st = self._anticollision(level, cl)
                if st != OK:
                    return st
            sak = self._select(level, cl)
            if sak < 0:
                return -sak
            if sak & _SAK_CASCADE:
                if cl[0] != _CT or level == 2:
                    return ERROR
                for i in range(3):
                    uid[size + i] = cl[1 + i]
                size += 3
                continue
            for i in range(4):
                uid[size + i] = cl[i]
            size += 4
            same = again is not None and len(again) == size
            if same:
                for i in range(size):
                    if uid[i] != again[i]:
                        same = False
                        break
            if same:
                self.last = again
                return OK
            out = bus.slots[3 * slot + size // 3 - 1]
            for i in range(size):
                out[i] = uid[i]
            self.last = out
            return OK
        return ERROR

    def identify(self):
        """Read every tag in the field; the antenna must be on and the tags powered.

        Returns (OK, [uid, ...]) after a complete enumeration, (PARTIAL, uids) when a frame
        failed midway (a tag leaving, noise), or (STUCK, []); the UIDs are ``bytes``.
        """
        st = self.scan()
        return st, [bytes(uid) for uid in self.uids]

    @micropython.native
    def scan(self):
        """``identify`` without allocating: the status, and the UIDs in ``self.uids`` (the
        bus's slots: valid until its next visit)."""
        uids = self.uids
        del uids[EVERY]
        return self._enumerate(self.request(True), uids)

    @micropython.native
    def _enumerate(self, st, uids, again=None):
        """Read tag after tag, from the answer ``st`` to a WUPA/REQA, into ``uids``
        (``again``: a UID expected among them, see ``_read_one``)."""
        for _ in range(MAX_TAGS + 2):
            if st == TIMEOUT:
                return OK
            if st == STUCK:
                return STUCK
            if st != OK and st != COLLISION:
                return PARTIAL
            st = self._read_one(again, len(uids))
            if st == STUCK:
                return st
            if st != OK:
                return PARTIAL
            uid = self.last
            if uid not in uids:
                uids.append(uid)
            if len(uids) >= MAX_TAGS:
                return PARTIAL
            if self.halt() == STUCK:
                return STUCK
            st = self.request(False)  # REQA: the halted tags keep quiet
        return PARTIAL  # a tag that will not halt keeps answering

    @micropython.native
    def _select_known(self, frames):
        """SELECT, level by level, the tag whose ``select_frames`` are given; HALT it.

        OK: the tag is there (and now halted); TIMEOUT: nobody answered (it is gone);
        ERROR: a garbled answer; STUCK.
        """
        levels = len(frames)
        rx = self.rx
        for level in range(levels):
            self._load(frames[level])
            self._send(0)
            st = self._finish(_SELECT_BITS, _SAK_BITS)
            if st != OK:
                return st
            if not _is_sak(rx, self.rx_len, self.rx_bits):
                return ERROR
            if bool(rx[0] & _SAK_CASCADE) != (level < levels - 1):
                return ERROR
        return self.halt()

    @micropython.native
    def confirm(self, known, present, fresh=-1, fresh_uid=None):
        """Check a known set of tags without enumerating it; the tags must be powered.

        ``known`` holds the ``select_frames`` of each tag the caller last saw; each is
        checked with WUPA + SELECT (every cascade level) + HALT, and ``present[i]`` tells
        whether tag ``i`` answered. Then one REQA: every known tag present is halted, so
        only another tag can answer it, and those are enumerated into ``self.found``.
        Tag ``fresh`` (an index of ``known``; -1: none) is left out of the SELECTs, so it
        is among those enumerated: its UID read from scratch, bit by bit. ``fresh_uid``, its
        UID, is what ``found`` then holds for it (no allocation).

        Returns OK when the field was read completely (the present known tags plus
        ``self.found``), PARTIAL when a frame failed midway, or STUCK.
        """
        found = self.found
        del found[EVERY]
        for i in range(len(known)):
            present[i] = False
        for i in range(len(known)):
            if i == fresh:
                continue
            st = self.request(True)
            if st == TIMEOUT:
                return OK  # WUPA wakes halted tags too: the field is empty now
            if st == STUCK:
                return STUCK
            if st != OK and st != COLLISION:
                return PARTIAL
            st = self._select_known(known[i])
            if st == STUCK:
                return STUCK
            present[i] = st == OK
            if st == ERROR:
                return PARTIAL
        return self._enumerate(self.request(False), found, fresh_uid)

    @micropython.native
    def check(self, frames):
        """After a walk that heard every known tag (all READY, none selected), read the rest
        of one tag's UID: SELECT it by its first level (``frames``: its ``select_frames``;
        every tag sharing that first answer goes on to the next level, the others to IDLE),
        then that level's anticollision, which only they answer. Two frames, no HALT.

        SAME when the one answer is the tag's own; PARTIAL when another tag shares its
        first answer (the answers collide, or another came back: a twin the walk could not
        hear) or a frame failed (the caller then reads the field anew); STUCK.
        """
        self._load(frames[0])
        self._send(0)
        st = self._finish(_SELECT_BITS, _SAK_BITS)
        if st == STUCK:
            return STUCK
        rx = self.rx
        if st != OK or not _is_sak(rx, self.rx_len, self.rx_bits) or not rx[0] & _SAK_CASCADE:
            return PARTIAL
        cl = self._cl
        st = self._anticollision_frame(1, cl, 0)
        if st == STUCK:
            return STUCK
        if st != OK:
            return PARTIAL
        want = frames[1]
        for i in range(5):
            if cl[i] != want[3 + i]:
                return PARTIAL
        return SAME

    @micropython.native
    def walk(self, expect, present):
        """Check a known set of tags by their first anticollision answers alone; the tags
        must be powered.

        ``expect`` holds ``cl1_of`` of each tag the caller last saw, all different. After a
        WUPA the level-1 anticollision tree is walked: each collision splits the branch
        asked into its 0 and its 1 side, each asked in turn, and a tag off the branch asked
        keeps quiet and stays READY, so every distinct first answer in the field is heard
        once (2n - 1 frames for n tags, one for one), none selected or halted. ``present[i]``
        tells whether tag ``i`` answered. A first answer nobody expected is a tag to read:
        once the walk is done, each is selected by it, read through its cascade levels and
        halted (the others wait in IDLE, woken by a REQA for the next), into ``self.found``.

        Returns SAME when every known tag answered and nothing else did, OK when the field
        was read completely otherwise (the present known tags plus ``self.found``), PARTIAL
        when a frame failed midway (the caller then reads the field anew), or STUCK. A tag
        whose first answer equals another's (a long UID sharing its first three bytes) goes
        unheard: the caller audits its readers now and then.
        """
        wanted = len(expect)
        for i in range(wanted):
            present[i] = False
        st = self.request(True)
        if st == TIMEOUT:
            return self._walked(0, wanted)
        if st == STUCK:
            return STUCK
        if st != OK and st != COLLISION:
            return PARTIAL
        cl = self._cl
        heard = 0  # known tags that answered
        unheard = 0  # first answers nobody expected, kept in ``self._leaves``
        known = 0
        depth = 0
        for _ in range(4 * MAX_TAGS):
            st = self._anticollision_frame(0, cl, known)
            if st >= _SPLIT:
                if depth == MAX_TAGS:
                    return PARTIAL
                bit = st - _SPLIT
                byte = bit >> 3
                mask = 1 << (bit & 7)
                cl[byte] &= mask - 1  # the 0 side now, the 1 side later
                for i in range(byte + 1, 5):
                    cl[i] = 0
                tree = self._branches
                base = depth * 5
                for i in range(5):
                    tree[base + i] = cl[i]
                tree[base + byte] |= mask
                tree[_BRANCH_BITS + depth] = bit + 1
                depth += 1
                known = bit + 1
                continue
            if st == OK:
                i = 0
                while i < wanted and not _same5(cl, expect[i]):
                    i += 1
                if i < wanted:
                    present[i] = True
                    heard += 1
                elif unheard == MAX_TAGS:
                    return PARTIAL
                else:
                    leaves = self._leaves
                    for j in range(5):
                        leaves[unheard * 5 + j] = cl[j]
                    unheard += 1
            elif st == STUCK:
                return STUCK
            elif st != TIMEOUT:  # TIMEOUT: the branch's tags left mid-walk, they are missed
                return PARTIAL
            if depth == 0:
                if unheard:
                    return self._read_leaves(unheard)
                return SAME if heard == wanted else self._walked(heard, wanted)
            depth -= 1
            tree = self._branches
            base = depth * 5
            for i in range(5):
                cl[i] = tree[base + i]
            known = tree[_BRANCH_BITS + depth]
        return PARTIAL

    def _walked(self, heard, wanted):
        """A walk's end with no tag to read: SAME when every known tag answered, OK (the
        field read completely, nothing found) when some did not."""
        del self.found[EVERY]
        return SAME if heard == wanted else OK

    @micropython.native
    def _read_leaves(self, count):
        """Read the tags of the walk's first ``count`` unknown leaves into ``self.found``."""
        found = self.found
        del found[EVERY]
        cl = self._cl
        leaves = self._leaves
        for k in range(count):
            if k:
                st = self.request(False)  # the SELECT before sent the READY tags to IDLE
                if st == STUCK:
                    return STUCK
                if st != OK and st != COLLISION:
                    return PARTIAL
            for i in range(5):
                cl[i] = leaves[k * 5 + i]
            st = self._read_one(None, k, True)
            if st == STUCK:
                return STUCK
            if st != OK:
                return PARTIAL
            found.append(self.last)
            if self.halt() == STUCK:
                return STUCK
        return OK
