"""Fast MFRC522 driver for MicroPython: many readers on one SPI bus, one chip select each.

Written for a table of up to 19 readers scanned in turn, where an empty field must cost
about a millisecond rather than the tens of milliseconds of the usual hobby drivers:

- the chip's timer is set to about 1 ms (TAuto: it starts when the transmission ends), so a
  frame nobody answers ends with TimerIRq after 1 ms;
- the wait loop polls ComIrqReg with both a deadline and an iteration cap, so a missing or
  stuck reader costs a few milliseconds and is reported, never a hang;
- each reader's antenna is switched on only while it is scanned, so a tag is only ever
  powered (and answering) under its own reader, and every scan starts from fresh tags;
- ``identify`` enumerates every tag in the field (WUPA, anticollision with bit-collision
  resolution through CollReg, cascade levels 1..3, SELECT, HALT, then REQA until silence),
  and in the steady state stops after the first anticollision answer when it equals the one
  tag the caller expects.

UIDs are returned as opaque ``bytes`` of 4, 7 or 10 bytes, without cascade tags or BCCs.
Only ``utime`` and ``micropython`` are imported, so the same file runs on the Pico and,
with the shims of tests/firmware, under CPython and the MicroPython unix port.
"""

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
_POLL_GAP_US = const(10)
_FDT_US = const(80)  # nothing can answer sooner than this after a frame ends
_HALT_GUARD_US = const(100)

# Results.
OK = const(0)
TIMEOUT = const(1)
COLLISION = const(2)
ERROR = const(3)
STUCK = const(4)
SAME = const(5)
PARTIAL = const(6)

MAX_TAGS = const(8)
KNOWN_VERSIONS = (0x88, 0x90, 0x91, 0x92, 0xB2)


def crc_a(data, n):
    """CRC_A of ISO/IEC 14443-3 over ``data[:n]`` (init 0x6363, reflected 0x1021)."""
    crc = 0x6363
    for i in range(n):
        b = (data[i] ^ crc) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return crc & 0xFFFF


def cl1_of(uid):
    """The 5 bytes a tag answers to the first anticollision command (UID or CT + 3, BCC)."""
    part = bytes(uid) if len(uid) == 4 else bytes((_CT, uid[0], uid[1], uid[2]))
    return part + bytes((part[0] ^ part[1] ^ part[2] ^ part[3],))


def _air_us(nbytes, last_bits):
    """Air time of a PCD frame at 106 kbit/s: SOF, data, one parity bit per byte, EOF."""
    bits = nbytes * 8 - ((8 - last_bits) if last_bits else 0)
    return (bits + bits // 8 + 2) * 944 // 100


class MFRC522:
    """One MFRC522 behind chip select ``cs`` on the shared ``spi`` bus (mode 0, MSB first)."""

    def __init__(self, spi, cs, timeout_us=1000):
        self.spi = spi
        self.cs = cs
        cs.value(1)
        self.timeout_us = timeout_us
        self._b2 = bytearray(2)
        self._r2 = bytearray(2)
        self._rbuf = bytearray(65)
        self._qbuf = bytearray(65)
        self._tx = bytearray(16)
        self._fbuf = bytearray(65)  # FIFO address + up to 64 data bytes
        self._status_q = bytes(
            (
                0x80 | (_ERROR << 1),
                0x80 | (_FIFO_LEVEL << 1),
                0x80 | (_CONTROL << 1),
                0x80 | (_COLL << 1),
                0,
            )
        )
        self._status = bytearray(5)
        self.rx = bytearray(64)
        self.rx_len = 0
        self.rx_bits = 0
        self.coll = 0
        self.collided = False
        self.polls = 0

    # ---- register level -----------------------------------------------------------------------
    def write(self, reg, value):
        b = self._b2
        b[0] = reg << 1
        b[1] = value
        cs = self.cs
        cs.value(0)
        self.spi.write(b)
        cs.value(1)

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
        buf = self._fbuf
        buf[0] = _FIFO_DATA << 1
        for i in range(n):
            buf[i + 1] = data[i]
        cs = self.cs
        cs.value(0)
        self.spi.write(memoryview(buf)[: n + 1])
        cs.value(1)

    def _read_fifo(self, n):
        """Read ``n`` FIFO bytes in one transaction into ``self.rx``."""
        q = self._qbuf
        for i in range(n):
            q[i] = 0x80 | (_FIFO_DATA << 1)
        q[n] = 0
        cs = self.cs
        cs.value(0)
        self.spi.write_readinto(memoryview(q)[: n + 1], memoryview(self._rbuf)[: n + 1])
        cs.value(1)
        rbuf = self._rbuf
        rx = self.rx
        for i in range(n):
            rx[i] = rbuf[i + 1]

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

    # ---- frames ---------------------------------------------------------------------------------
    def _start(self, data, n, last_bits, align):
        w = self.write
        w(_COMMAND, _IDLE)
        w(_COM_IRQ, 0x7F)
        w(_FIFO_LEVEL, 0x80)
        self._write_fifo(data, n)
        w(_COMMAND, _TRANSCEIVE)
        w(_BIT_FRAMING, 0x80 | (align << 4) | last_bits)  # StartSend

    def _wait(self, mask, first_us, budget_us):
        """Poll ComIrqReg until a bit of ``mask`` is set; return it, or -1 when stuck."""
        utime.sleep_us(first_us)
        start = utime.ticks_us()
        read = self.read
        for _ in range(_MAX_POLLS):
            irq = read(_COM_IRQ)
            self.polls += 1
            if irq & mask:
                return irq
            if utime.ticks_diff(utime.ticks_us(), start) > budget_us:
                break
            utime.sleep_us(_POLL_GAP_US)
        return -1

    def transceive(self, data, n, last_bits=0, align=0):
        """Send a frame and wait for the answer in ``self.rx[:self.rx_len]``.

        Returns OK, TIMEOUT (nobody answered within the timer), COLLISION (``self.coll``
        holds CollReg), ERROR (parity, protocol, overflow) or STUCK (no interrupt at all:
        the reader is missing or hung). ``self.rx_bits`` is the number of valid bits in the
        last byte received, 0 meaning all 8.
        """
        self._start(data, n, last_bits, align)
        air = _air_us(n, last_bits)
        irq = self._wait(_IRQ_DONE, air + _FDT_US, air + self.timeout_us + _WAIT_MARGIN_US)
        self.rx_len = 0
        if irq < 0:
            return STUCK
        if not irq & _IRQ_RX:
            return TIMEOUT if irq & _IRQ_TIMER else ERROR
        s = self._status
        cs = self.cs
        cs.value(0)
        self.spi.write_readinto(self._status_q, s)
        cs.value(1)
        err = s[1]
        level = s[2] & 0x7F
        self.rx_bits = s[3] & 0x07
        self.coll = s[4]
        if level > 64:
            return ERROR
        if level:
            self._read_fifo(level)
        self.rx_len = level
        if err & _ERR_COLL:
            return COLLISION
        if err & _ERR_OTHER:
            return ERROR
        return OK

    def _send_only(self, data, n):
        """Send a frame that expects no answer (HLTA): wait for TxIRq, then stop."""
        self._start(data, n, 0, 0)
        air = _air_us(n, 0)
        irq = self._wait(_IRQ_TX, air, air + _WAIT_MARGIN_US)
        self.write(_COMMAND, _IDLE)
        self.write(_CONTROL, 0x80)  # TStopNow: no stale TimerIRq in the next frame
        return STUCK if irq < 0 else OK

    def chip_crc(self, data, n):
        """CRC_A from the chip's coprocessor (used to cross-check ``crc_a``)."""
        self.write(_COMMAND, _IDLE)
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
    def request(self, wake=True):
        """WUPA (wakes IDLE and HALT tags) or REQA (IDLE only), a 7-bit short frame.

        OK or COLLISION both mean something answered (tags of different types collide in
        their ATQA); TIMEOUT means an empty field (or only halted tags, for REQA).
        """
        tx = self._tx
        tx[0] = _WUPA if wake else _REQA
        return self.transceive(tx, 1, 7, 0)

    def halt(self):
        tx = self._tx
        tx[0] = 0x50
        tx[1] = 0x00
        crc = crc_a(tx, 2)
        tx[2] = crc & 0xFF
        tx[3] = crc >> 8
        st = self._send_only(tx, 4)
        utime.sleep_us(_HALT_GUARD_US)
        return st

    def _anticollision(self, level, cl):
        """Resolve one cascade level into ``cl`` (5 bytes: 4 UID/CT bytes and BCC).

        Starts with no known bits; on a collision, keeps the bits received before it, takes
        the 1 branch at the colliding bit and asks again, so the tags of the other branch
        fall silent. Returns OK (``cl`` complete, BCC checked) or the failing status.
        """
        frame = bytearray(7)
        frame[0] = _SEL[level]
        known = 0
        self.collided = False
        for i in range(5):
            cl[i] = 0
        for _ in range(33):
            full = known >> 3
            part = known & 7
            frame[1] = ((2 + full) << 4) | part
            nbytes = full + (1 if part else 0)
            for i in range(nbytes):
                frame[2 + i] = cl[i]
            st = self.transceive(frame, 2 + nbytes, part, part)
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
            self.collided = True
            if self.coll & 0x20:  # CollPosNotValid
                return ERROR
            pos = self.coll & 0x1F
            if pos == 0:
                pos = 32
            bit = (full << 3) + pos - 1  # CollPos counts from the FIFO's first byte
            if bit < known or bit >= 32:
                return ERROR
            byte = bit >> 3
            mask = 1 << (bit & 7)
            cl[byte] = (cl[byte] & (mask - 1)) | mask
            for i in range(byte + 1, 5):
                cl[i] = 0
            known = bit + 1
        return ERROR

    def _select(self, level, cl):
        """SELECT at ``level`` with the 5 CL bytes; return the SAK, or -status on failure."""
        frame = self._tx
        frame[0] = _SEL[level]
        frame[1] = 0x70
        for i in range(5):
            frame[2 + i] = cl[i]
        crc = crc_a(frame, 7)
        frame[7] = crc & 0xFF
        frame[8] = crc >> 8
        st = self.transceive(frame, 9)
        if st != OK:
            return -st
        if self.rx_len != 3 or self.rx_bits or crc_a(self.rx, 3) != 0:
            return -ERROR
        return self.rx[0]

    def _read_one(self, expect):
        """Anticollision and SELECT through the cascade levels of one tag.

        Returns (OK, uid), (SAME, None) when the first answer equals ``expect`` without a
        collision, or (status, None).
        """
        uid = bytearray(10)
        size = 0
        cl = bytearray(5)
        for level in range(3):
            st = self._anticollision(level, cl)
            if st != OK:
                return st, None
            if level == 0 and expect is not None and not self.collided and bytes(cl) == expect:
                return SAME, None
            sak = self._select(level, cl)
            if sak < 0:
                return -sak, None
            if sak & _SAK_CASCADE:
                if cl[0] != _CT or level == 2:
                    return ERROR, None
                for i in range(3):
                    uid[size + i] = cl[1 + i]
                size += 3
                continue
            for i in range(4):
                uid[size + i] = cl[i]
            size += 4
            return OK, bytes(uid[:size])
        return ERROR, None

    def identify(self, expect=None):
        """Read every tag in the field; the antenna must be on and the tags powered.

        ``expect`` is ``cl1_of(uid)`` of the single tag the caller last saw: if the first
        anticollision answer equals it with no collision, the field is taken as unchanged and
        (SAME, None) is returned at once. Only a 4-byte ``expect`` is conclusive (a second
        tag always collides in CL1); for longer UIDs the caller should sometimes pass None.

        Otherwise returns (OK, [uid, ...]) after a complete enumeration, (PARTIAL, uids) when
        a frame failed midway (a tag leaving, noise), or (STUCK, []).
        """
        uids = []
        st = self.request(True)
        first = True
        for _ in range(MAX_TAGS + 2):
            if st == TIMEOUT:
                return OK, uids
            if st == STUCK:
                return STUCK, uids
            if st != OK and st != COLLISION:
                return PARTIAL, uids
            st, uid = self._read_one(expect if first else None)
            first = False
            if st == SAME:
                return SAME, None
            if st == STUCK:
                return STUCK, uids
            if st != OK:
                return PARTIAL, uids
            if uid not in uids:
                uids.append(uid)
            if len(uids) >= MAX_TAGS:
                return PARTIAL, uids
            if self.halt() == STUCK:
                return STUCK, uids
            st = self.request(False)  # REQA: the halted tags keep quiet
        return PARTIAL, uids  # a tag that will not halt keeps answering
