"""Emulated MFRC522 reader ICs and ISO/IEC 14443-3 type A tags, for the firmware tests.

The real firmware (firmware/mfrc522.py, scanner.py, main.py) runs unchanged against these
objects through the fake ``machine`` module in shims/: every SPI byte the firmware clocks out
reaches the ``MFRC522Chip`` whose chip-select pin is low, which answers like the register
interface of the real chip. Behind the chips, a ``Table`` holds the tags and decides which
tags hear which reader's radio frames.

Time is emulated, in integer nanoseconds, on one ``Clock`` shared with the fake ``utime``:
SPI bytes advance it (the fake SPI does that), sleeps advance it, and the chips work lazily,
catching up with the clock whenever they are touched (end of a transmission, the tags'
answer, the internal timer firing). So the firmware's waits cost exactly the emulated time
that a real chip would make them wait, and a benchmark can read the clock.

Kept to the Python subset MicroPython has (no dataclasses, no typing, no f-string format
specs beyond the basics) because tests/firmware/mp_selftest.py runs it under MicroPython too.
"""

# ---- registers (MFRC522 datasheet, section 9.2) -----------------------------------------
COMMAND = 0x01
COM_IEN = 0x02
DIV_IEN = 0x03
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
STATUS1 = 0x07
STATUS2 = 0x08
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
WATER_LEVEL = 0x0B
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
CRC_RESULT_H = 0x21
CRC_RESULT_L = 0x22
RF_CFG = 0x26
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# ---- commands (CommandReg[3:0]) -------------------------------------------------------------
CMD_IDLE = 0x0
CMD_CALC_CRC = 0x3
CMD_TRANSCEIVE = 0xC
CMD_SOFT_RESET = 0xF

# ---- bits --------------------------------------------------------------------------------------
IRQ_TX = 0x40
IRQ_RX = 0x20
IRQ_IDLE = 0x10
IRQ_ERR = 0x02
IRQ_TIMER = 0x01
DIVIRQ_CRC = 0x04
ERR_BUFFER_OVFL = 0x10
ERR_COLL = 0x08
COLL_POS_NOT_VALID = 0x20
POWER_DOWN = 0x10

# Reset values of the registers the emulation gives meaning to (datasheet table 20 and on).
_RESET_VALUES = {
    COMMAND: 0x20,
    COM_IEN: 0x80,
    COM_IRQ: 0x14,
    STATUS1: 0x21,
    WATER_LEVEL: 0x08,
    CONTROL: 0x10,
    COLL: 0x80,
    MODE: 0x3F,
    TX_CONTROL: 0x80,
    0x16: 0x10,  # TxSelReg
    0x17: 0x84,  # RxSelReg
    0x18: 0x84,  # RxThresholdReg
    0x19: 0x4D,  # DemodReg
    CRC_RESULT_H: 0xFF,
    CRC_RESULT_L: 0xFF,
    0x24: 0x26,  # ModWidthReg
    RF_CFG: 0x48,
    0x27: 0x88,  # GsNReg
    0x28: 0x20,  # CWGsPReg
    0x29: 0x20,  # ModGsPReg
}

# ---- radio timing at 106 kbit/s --------------------------------------------------------------
CARRIER_HZ = 13560000
BIT_NS = 9440  # one bit = 128 carrier periods = 9.44 us
FDT_NS = 90000  # PCD-to-PICC frame delay time, (n * 128 + 84) / fc with n = 9
SOFT_RESET_NS = 40000
TAG_BOOT_US = 250
"""A tag's power-up time once its reader's field comes on, before it answers a frame: an
assumption, not a measurement. ISO/IEC 14443-3 (clause 5, the initial dialogue of type A)
bounds it: a PICC exposed to an unmodulated field accepts a request within 5 ms. NXP's
NTAG213F/216F data sheet (rev. 3.1, section 9) gives no power-up time of its own: its
activation "follows the ISO/IEC 14443 Type A"; the MIFARE Classic one was not at hand.
No typical figure then: this one lets the firmware's default settle (300 us) read every
tag, and a test gives a tag its own ``boot_us`` to play a slower one (``companion doctor
--find-settle`` measures a real table's)."""

# ---- ISO/IEC 14443-3 --------------------------------------------------------------------------
REQA = 0x26
WUPA = 0x52
SEL_CODES = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
SAK_CASCADE = 0x04

OFF = "off"
IDLE = "idle"
READY = "ready"
ACTIVE = "active"
HALT = "halt"


def crc_a(data):
    """CRC_A of ISO/IEC 14443-3 (poly 0x1021 reflected, init 0x6363), bit by bit.

    Written independently of the firmware's table-free byte formula so they check each other.
    """
    crc = 0x6363
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def bits_of(data, nbits):
    """The first ``nbits`` of ``data``, least significant bit of each byte first (air order)."""
    out = []
    for i in range(nbits):
        out.append((data[i >> 3] >> (i & 7)) & 1)
    return out


def frame_ns(nbits):
    """Air time of a frame: start and end of frame plus one parity bit per full byte."""
    return BIT_NS * (2 + nbits + nbits // 8)


class Clock:
    """Emulated time in nanoseconds, shared by the chips, the fake SPI and the fake utime."""

    def __init__(self):
        self.ns = 0

    def advance(self, ns):
        self.ns += ns


class Tag:
    """An ISO/IEC 14443-3 type A PICC: NTAG (7-byte UID), MIFARE Classic (4) or a 10-byte UID.

    States follow the standard: OFF (no power), IDLE, READY (at a cascade level), ACTIVE,
    HALT. A tag woken from HALT by WUPA remembers it, and falls back to HALT rather than IDLE
    on an unexpected frame (the READY*/ACTIVE* states of the standard).
    """

    def __init__(self, uid, sak=None, atqa=None, boot_us=TAG_BOOT_US):
        uid = bytes(uid)
        if len(uid) not in (4, 7, 10):
            raise ValueError("a UID has 4, 7 or 10 bytes")
        if len(uid) == 4 and uid[0] == CASCADE_TAG:
            raise ValueError("a 4-byte UID cannot start with the cascade tag 0x88")
        self.uid = uid
        self.sak = sak if sak is not None else (0x08 if len(uid) == 4 else 0x00)
        # ATQA bits 7..6 give the UID size: 00 single, 01 double, 10 triple.
        size = {4: 0x00, 7: 0x40, 10: 0x80}[len(uid)]
        self.atqa = atqa if atqa is not None else (size | 0x04, 0x00)
        self.levels = []
        if len(uid) == 4:
            parts = [uid]
        elif len(uid) == 7:
            parts = [bytes([CASCADE_TAG]) + uid[0:3], uid[3:7]]
        else:
            parts = [bytes([CASCADE_TAG]) + uid[0:3], bytes([CASCADE_TAG]) + uid[3:6], uid[6:10]]
        for part in parts:
            bcc = part[0] ^ part[1] ^ part[2] ^ part[3]
            self.levels.append(part + bytes([bcc]))
        self.boot_ns = boot_us * 1000
        self.state = OFF
        self.level = 0
        self.from_halt = False
        self.ready_at = 0
        self.home = None
        self.homes = []
        self.near = []
        self.frames_heard = 0

    def hex(self):
        return "".join([f"{b:02X}" for b in self.uid])

    def power_on(self, now):
        self.state = IDLE
        self.level = 0
        self.from_halt = False
        self.ready_at = now + self.boot_ns

    def power_off(self):
        self.state = OFF

    def _fail(self):
        self.state = HALT if self.from_halt else IDLE

    def hear(self, data, nbits, now):
        """Handle one PCD frame; return the answer as a list of bits, or None for silence."""
        if self.state == OFF or now < self.ready_at:
            return None
        self.frames_heard += 1
        state = self.state
        if nbits == 7:
            cmd = data[0] & 0x7F
            if (cmd == WUPA and state in (IDLE, HALT)) or (cmd == REQA and state == IDLE):
                self.from_halt = state == HALT
                self.state = READY
                self.level = 0
                return bits_of(bytes(self.atqa), 16)
            if state in (READY, ACTIVE):
                self._fail()
            return None
        if state == READY:
            return self._hear_ready(data, nbits)
        if state == ACTIVE:
            if nbits == 32 and data[0] == 0x50 and data[1] == 0x00 and crc_a(data[:4]) == 0:
                self.state = HALT
                return None
            self._fail()
        return None

    def _hear_ready(self, data, nbits):
        if nbits < 16 or data[0] != SEL_CODES[self.level]:
            self._fail()
            return None
        nvb = data[1]
        mine = self.levels[self.level]
        if nvb == 0x70:
            if nbits != 72 or crc_a(data[:9]) != 0 or bytes(data[2:7]) != mine:
                self._fail()
                return None
            if self.level == len(self.levels) - 1:
                self.state = ACTIVE
                sak = self.sak
            else:
                self.level += 1
                sak = SAK_CASCADE
            crc = crc_a(bytes([sak]))
            return bits_of(bytes([sak, crc & 0xFF, crc >> 8]), 24)
        byte_count = nvb >> 4
        extra_bits = nvb & 0x0F
        known = (byte_count - 2) * 8 + extra_bits
        if byte_count < 2 or byte_count > 6 or extra_bits > 7 or known >= 40:
            self._fail()
            return None
        if nbits != 16 + known:
            self._fail()
            return None
        mine_bits = bits_of(mine, 40)
        if bits_of(data[2:], known) != mine_bits[:known]:
            return None  # not our branch of the tree: stay READY and keep quiet
        return mine_bits[known:]


class Table:
    """The physical table: which tag lies in which reader's field, and who hears whom.

    A tag is powered only by its home reader's field. It also hears the frames of the
    readers listed in ``near`` (neighbouring spots), but only while something powers it,
    which models the cross-talk that switching antennas one at a time avoids. A tag placed
    ``across`` two spots has two homes: either antenna alone powers it and reads it (and
    with both on at once it hears both readers' frames, interleaved).
    """

    def __init__(self, clock):
        self.clock = clock
        self.tags = []
        self.hooks = []

    def place(self, tag, chip, near=(), across=None):
        """Put ``tag`` in ``chip``'s field (and, weakly, in those of ``near``); ``across``:
        a second reader whose field it lies in as well (the tag straddles two spots)."""
        self.remove(tag)
        tag.home = chip
        tag.homes = [chip] if across is None else [chip, across]
        tag.near = list(near)
        self.tags.append(tag)
        if any(home.field_on for home in tag.homes):
            tag.power_on(self.clock.ns)

    def remove(self, tag):
        """Take ``tag`` off the table: it loses power at once, even in the middle of a scan."""
        if tag in self.tags:
            self.tags.remove(tag)
        tag.home = None
        tag.homes = []
        tag.near = []
        tag.power_off()

    def field_changed(self, chip, on):
        for tag in self.tags:
            if chip in tag.homes:
                powered = tag.state != OFF
                if on and not powered:
                    tag.power_on(self.clock.ns)
                elif not on and powered and not any(h.field_on for h in tag.homes):
                    tag.power_off()

    def deliver(self, chip, data, nbits, now):
        """A frame from ``chip``'s antenna: run the hooks, then collect the tags' answers."""
        for hook in list(self.hooks):
            hook(chip, data, nbits)
        answers = []
        for tag in list(self.tags):
            if chip in tag.homes or chip in tag.near:
                answer = tag.hear(data, nbits, now)
                if answer is not None:
                    answers.append(answer)
        return answers


class MFRC522Chip:
    """Register-level model of one MFRC522 behind its SPI interface (datasheet 8.1.2).

    What is modelled: the registers the firmware uses, the 64-byte FIFO, the commands Idle,
    CalcCRC, Transceive and SoftReset, the timer (TAuto start at the end of transmission,
    stop when an answer starts, TStopNow), bit-oriented frames (TxLastBits, RxAlign,
    RxLastBits), bit collisions in CollReg/ErrorReg with ValuesAfterColl, the antenna drivers
    (TxControlReg), Force100ASK (without it no tag understands the reader), and the hard
    reset line. Not modelled: MIFARE authentication, CRC on reception, interrupts on the IRQ
    pin, analogue settings.

    Counters for the tests and the benchmark: ``frames`` (transmissions), ``busy_ns`` (air
    time plus timer waits), ``timeouts``, ``collisions``.
    """

    def __init__(self, clock, table, name="", version=0x92):
        self.clock = clock
        self.table = table
        self.name = name
        self.version = version
        self.regs = bytearray(64)
        self.fifo = []
        self.field_on = False
        self.in_reset = False
        self.frames = 0
        self.anticollisions = 0  # of them, ANTICOLLISION frames (a SEL code, NVB not 0x70)
        self.timeouts = 0
        self.collisions = 0
        self.busy_ns = 0
        self.frame_overhead_ns = 0  # the benchmark's charge for the firmware's work per frame
        self.anticollision_overhead_ns = 0  # ... more for an ANTICOLLISION frame
        self.visit_overhead_ns = 0  # ... and per visit (charged when the antenna comes on)
        self.log = []
        self.keep_log = False
        self._reset_registers()
        self._first = True
        self._reading = False
        self._addr = 0
        self._pending = 0

    # ---- reset --------------------------------------------------------------------------------
    def _reset_registers(self):
        for i in range(64):
            self.regs[i] = 0
        for reg, value in _RESET_VALUES.items():
            self.regs[reg] = value
        self.fifo = []
        self.command = CMD_IDLE
        self.tx = None  # (end_ns, data, nbits, align)
        self.rx = None  # (end_ns, bits, collision_index, align)
        self.timer_end = None
        self._timer_started = 0
        self.crc_end = None
        self.ready_at = self.clock.ns
        self._set_field(False)

    def hard_reset(self, level):
        """The NRSTPD line: low holds the chip in hard power-down, a rising edge resets it."""
        if not level:
            self.in_reset = True
            self._reset_registers()
        elif self.in_reset:
            self.in_reset = False
            self._reset_registers()
            self.ready_at = self.clock.ns + SOFT_RESET_NS

    def _set_field(self, on):
        if on and not self.field_on:
            self.clock.advance(self.visit_overhead_ns)  # the benchmark's charge per visit
        if on != self.field_on:
            self.field_on = on
            if self.table is not None:
                self.table.field_changed(self, on)

    # ---- SPI side -------------------------------------------------------------------------------
    def select(self):
        self._first = True
        self._reading = False
        self._pending = 0

    def deselect(self):
        self._first = True

    def xfer(self, byte):
        """One byte on MOSI in, the byte on MISO out (datasheet 8.1.2.1 and 8.1.2.2)."""
        if self.in_reset:
            return 0
        out = self._pending
        self._pending = 0
        if self._first:
            self._first = False
            self._addr = (byte >> 1) & 0x3F
            self._reading = bool(byte & 0x80)
            if self._reading:
                self._pending = self.read(self._addr)
            return 0
        if self._reading:
            if byte & 0x80:
                self._pending = self.read((byte >> 1) & 0x3F)
            return out
        self.write(self._addr, byte)
        return 0

    # ---- register access ----------------------------------------------------------------------
    def read(self, reg):
        self.sync()
        if reg == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        if reg == COMMAND:
            value = (self.regs[COMMAND] & 0x30) | self.command
            if self.clock.ns < self.ready_at:
                value |= POWER_DOWN
            return value
        if reg in (COM_IRQ, DIV_IRQ):
            return self.regs[reg] & 0x7F
        if reg == STATUS2:
            return (self.regs[STATUS2] & 0xF8) | self._modem_state()
        if reg == VERSION:
            return self.version
        if reg == CONTROL:
            return self.regs[CONTROL] & 0x3F
        return self.regs[reg]

    def write(self, reg, value):
        self.sync()
        if self.clock.ns < self.ready_at:
            return  # still starting up after a reset: writes are lost
        regs = self.regs
        if reg == FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo.append(value)
            else:
                regs[ERROR] |= ERR_BUFFER_OVFL
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self.fifo = []
                regs[ERROR] &= ~ERR_BUFFER_OVFL & 0xFF
        elif reg in (COM_IRQ, DIV_IRQ):
            if value & 0x80:
                regs[reg] |= value & 0x7F
            else:
                regs[reg] &= ~value & 0x7F
        elif reg == COMMAND:
            regs[COMMAND] = value & 0x30
            self._start(value & 0x0F)
        elif reg == BIT_FRAMING:
            regs[BIT_FRAMING] = value & 0x7F  # StartSend is a strobe, it is not stored
            if value & 0x80 and self.command == CMD_TRANSCEIVE and self.tx is None:
                self._transmit()
        elif reg == CONTROL:
            if value & 0x80:
                self.timer_end = None  # TStopNow
            if value & 0x40:  # TStartNow
                self._timer_started = self.clock.ns
                self.timer_end = self.clock.ns + self.timeout_ns()
            regs[CONTROL] = (regs[CONTROL] & 0x07) | (value & 0x38)
        elif reg == TX_CONTROL:
            regs[TX_CONTROL] = value
            self._set_field(bool(value & 0x03))
        elif reg in (ERROR, STATUS1, VERSION, CRC_RESULT_H, CRC_RESULT_L):
            pass  # read-only
        else:
            regs[reg] = value

    def _modem_state(self):
        if self.command != CMD_TRANSCEIVE:
            return 0
        if self.tx is not None:
            return 3
        if self.rx is not None:
            return 6
        return 1

    # ---- commands -------------------------------------------------------------------------------
    def _start(self, cmd):
        if cmd == CMD_SOFT_RESET:
            self._reset_registers()
            self.ready_at = self.clock.ns + SOFT_RESET_NS
            return
        # Any command change cancels what the previous one was doing on the air; the timer
        # is independent of commands and keeps running.
        self.tx = None
        self.rx = None
        self.crc_end = None
        if cmd == CMD_CALC_CRC:
            self.command = cmd
            data = self.fifo
            self.fifo = []
            crc = crc_a(data) if (self.regs[MODE] & 0x03) == 0x01 else self._crc_preset(data)
            self.regs[CRC_RESULT_L] = crc & 0xFF
            self.regs[CRC_RESULT_H] = crc >> 8
            self.crc_end = self.clock.ns + 1000 * (len(data) + 1)
        elif cmd == CMD_TRANSCEIVE:
            self.command = cmd  # waits for StartSend
        else:
            self.command = CMD_IDLE

    def _crc_preset(self, data):
        preset = (0x0000, 0x6363, 0xA671, 0xFFFF)[self.regs[MODE] & 0x03]
        crc = preset
        for byte in data:
            crc ^= byte
            for _ in range(8):
                crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
        return crc

    def timeout_ns(self):
        """Timer period: (2 * TPrescaler + 1) * (TReload + 1) carrier periods (datasheet 8.5)."""
        prescaler = ((self.regs[T_MODE] & 0x0F) << 8) | self.regs[T_PRESCALER]
        reload = (self.regs[T_RELOAD_H] << 8) | self.regs[T_RELOAD_L]
        cycles = (2 * prescaler + 1) * (reload + 1)
        return cycles * 1000000000 // CARRIER_HZ

    def _transmit(self):
        # The firmware's interpreter time for this frame, charged as if spent before it.
        self.clock.advance(self.frame_overhead_ns)
        data = bytes(self.fifo)
        if len(data) >= 2 and data[0] in SEL_CODES and data[1] != 0x70:
            self.clock.advance(self.anticollision_overhead_ns)
            self.anticollisions += 1
        self.fifo = []
        framing = self.regs[BIT_FRAMING]
        last = framing & 0x07
        align = (framing >> 4) & 0x07
        nbits = 8 * len(data) - ((8 - last) if (last and data) else 0)
        self.regs[ERROR] &= ERR_BUFFER_OVFL
        self.regs[COLL] = (self.regs[COLL] & 0x80) | COLL_POS_NOT_VALID
        end = self.clock.ns + frame_ns(nbits)
        self.tx = (end, data, nbits, align)
        self.frames += 1
        if self.keep_log:
            self.log.append(("tx", self.clock.ns, data, nbits))

    # ---- lazy progress -------------------------------------------------------------------------
    def sync(self):
        """Run every internal event that is due at the current emulated time, in order."""
        now = self.clock.ns
        while True:
            due = None
            which = None
            for name, when in (
                ("tx", self.tx[0] if self.tx else None),
                ("rx", self.rx[0] if self.rx else None),
                ("timer", self.timer_end),
                ("crc", self.crc_end),
            ):
                if when is not None and when <= now and (due is None or when < due):
                    due = when
                    which = name
            if which is None:
                return
            if which == "tx":
                self._end_of_transmission()
            elif which == "rx":
                self._end_of_reception()
            elif which == "timer":
                self.busy_ns += self.timer_end - self._timer_started
                self.timer_end = None
                self.timeouts += 1
                self.regs[COM_IRQ] |= IRQ_TIMER
            else:
                self.crc_end = None
                self.regs[DIV_IRQ] |= DIVIRQ_CRC

    def _end_of_transmission(self):
        end, data, nbits, align = self.tx
        self.tx = None
        self.busy_ns += frame_ns(nbits)
        self.regs[COM_IRQ] |= IRQ_TX
        if self.regs[T_MODE] & 0x80:  # TAuto: the timer starts when transmission ends
            self.timer_end = end + self.timeout_ns()
            self._timer_started = end
        answers = []
        if self.field_on and self.regs[TX_ASK] & 0x40 and self.table is not None:
            answers = self.table.deliver(self, data, nbits, end)
        if not answers:
            return
        length = 0
        for answer in answers:
            length = max(length, len(answer))
        merged = []
        collision = -1
        for i in range(length):
            values = [a[i] for a in answers if i < len(a)]
            if collision < 0 and (0 in values) and (1 in values):
                collision = i
            merged.append(values[0])
        rx_start = end + FDT_NS
        if self.timer_end is not None:
            if self.timer_end <= rx_start:
                return  # the timer ran out before the answer: the firmware sees a timeout
            self.busy_ns += rx_start - self._timer_started
            self.timer_end = None  # stopped once the first bits arrive (RxMultiple = 0)
        else:
            self.busy_ns += FDT_NS
        self.rx = (rx_start + frame_ns(length), merged, collision, align)

    def _end_of_reception(self):
        end, bits, collision, align = self.rx
        self.rx = None
        self.busy_ns += frame_ns(len(bits))
        if collision >= 0:
            bits = list(bits)
            bits[collision] = 1
            if not self.regs[COLL] & 0x80:  # ValuesAfterColl = 0: zeros after a collision
                for i in range(collision + 1, len(bits)):
                    bits[i] = 0
        total = align + len(bits)
        out = bytearray((total + 7) // 8)
        for i in range(len(bits)):
            pos = align + i
            out[pos >> 3] |= bits[i] << (pos & 7)
        for byte in out:
            if len(self.fifo) < 64:
                self.fifo.append(byte)
            else:
                self.regs[ERROR] |= ERR_BUFFER_OVFL
        self.regs[CONTROL] = (self.regs[CONTROL] & 0xF8) | (total & 0x07)
        coll = self.regs[COLL] & 0x80
        if collision >= 0:
            self.collisions += 1
            self.regs[ERROR] |= ERR_COLL
            # CollPos counts bit positions in the received frame as stored in the FIFO,
            # i.e. shifted by RxAlign; 0 stands for 32, beyond 32 it is not valid.
            pos = align + collision + 1
            if pos > 32:
                coll |= COLL_POS_NOT_VALID
            else:
                coll |= pos & 0x1F
        else:
            coll |= COLL_POS_NOT_VALID
        self.regs[COLL] = coll
        self.regs[COM_IRQ] |= IRQ_RX
        if self.regs[ERROR] & 0x1F:
            self.regs[COM_IRQ] |= IRQ_ERR
        if self.keep_log:
            self.log.append(("rx", end, bytes(out), len(bits), collision))
