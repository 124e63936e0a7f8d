"""The Readers back end for small kits: MFRC522 readers wired straight to the Pi's SPI.

The ``mfrc522`` PyPI package (pimylifeup/MFRC522-python) gives register access over
``spidev``, the reset line over ``RPi.GPIO`` and the chip set-up. Its frame exchange is not
usable for a game table, so ``FastMFRC522`` subclasses it and adds:

- a correct, short transceive. Upstream's wait loop in ``MFRC522_ToCard`` tests
  ``~((i != 0) and ~(n & 0x01) and ~(n & waitIRq))``: ``~`` is a bitwise complement, so
  TimerIRq is never seen and an empty field runs all 2,000 polls of ComIrqReg, each an SPI
  transfer (upstream issue pimylifeup/MFRC522-python#42). Ours stops on RxIRq, IdleIRq,
  ErrIRq or TimerIRq, under a deadline;
- a ~1 ms timer (TAuto, 25 us ticks) instead of upstream's 15.5 ms;
- anticollision with bit-collision resolution and cascade levels 1..3 (4-, 7- and 10-byte
  UIDs), SELECT, HALT, and enumeration of every tag in a field (WUPA, read one, HALT, REQA
  until silence); upstream reads one 4-byte UID and cannot tell two tags apart.

One reader per chip select: upstream opens ``/dev/spidev<bus>.<device>``, so reader ``i``
is the pair ``(bus, device)`` of its CE line (SPI0 has CE0/CE1; more need a
``dtoverlay=spi0-2cs`` / ``spi1-3cs`` line and free GPIOs). All readers share one reset
line, ``pin_rst`` (BCM numbering). Each reader's antenna is on only while it is scanned, so
a tag is only ever powered by its own reader.

``SpiReaders`` scans the readers in turn on its own thread and emits ``SpotContents`` when
a reader's debounced set changes: a tag appears as soon as it is read and disappears only
after ``debounce`` scans in a row without it. The thread is supervised
(`companion.run.supervise`): an error that escapes a scan kills it and stops the service.

``mfrc522`` (and through it ``spidev`` and ``RPi.GPIO``, which refuses to import off a Pi)
is imported by ``driver_class()`` only, never at module import.
"""

from __future__ import annotations

import enum
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

from companion.devices.readers import (
    Emitter,
    LinkStatus,
    ReaderFault,
    ReaderOk,
    Sink,
    SpotContents,
)
from companion.run.supervise import SupervisedThread

# Registers (MFRC522 datasheet, section 9.2).
COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_CONTROL = 0x14
TX_ASK = 0x15
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

CMD_IDLE = 0x00
CMD_TRANSCEIVE = 0x0C
POWER_DOWN = 0x10  # CommandReg: set while the chip starts up after a reset

IRQ_RX = 0x20
IRQ_IDLE = 0x10
IRQ_ERR = 0x02
IRQ_TIMER = 0x01
ERR_COLL = 0x08
ERR_OTHER = 0x17  # BufferOvfl, CRCErr, ParityErr, ProtocolErr
COLL_POS_NOT_VALID = 0x20

# ISO/IEC 14443-3 type A.
REQA = 0x26
WUPA = 0x52
HLTA = 0x50
CASCADE_TAG = 0x88
SAK_CASCADE = 0x04
SEL = (0x93, 0x95, 0x97)

PRESCALER = 169  # (2 * 169 + 1) / 13.56 MHz = 25 us per timer tick
TICK_US = 25
FDT_US = 80  # no tag answers sooner than this after a frame ends
MARGIN_US = 3000  # beyond the chip's own timer: the reader is stuck or absent
MAX_POLLS = 500
MAX_TAGS = 8
KNOWN_VERSIONS = frozenset({0x88, 0x90, 0x91, 0x92, 0xB2})
GPIO_BCM = 11  # RPi.GPIO.BCM


class Status(enum.IntEnum):
    OK = 0
    TIMEOUT = 1  # nobody answered before the chip's timer ran out
    COLLISION = 2  # several tags answered different bits
    ERROR = 3  # parity, CRC, protocol, or a malformed answer
    STUCK = 4  # no interrupt at all: the reader is missing or hung
    PARTIAL = 5  # enumeration cut short (a tag leaving mid-scan, noise)


def crc_a(data: bytes | bytearray) -> int:
    """CRC_A of ISO/IEC 14443-3: reflected 0x1021 (0x8408), initial value 0x6363."""
    crc = 0x6363
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def _air_us(nbits: int) -> int:
    """Air time of a reader frame at 106 kbit/s (SOF, data, one parity bit a byte, EOF)."""
    return (nbits + nbits // 8 + 2) * 944 // 100


class FastTransceiver:
    """The driver logic added to upstream's ``MFRC522`` (see the module docstring).

    Only meaningful mixed into ``mfrc522.MFRC522`` (``driver_class()``): register access
    (``Write_MFRC522``, ``Read_MFRC522``, ``self.spi``) and the set-up come from upstream.
    ``sleep`` and ``clock`` (seconds) are injectable so tests run on emulated time.
    """

    if TYPE_CHECKING:  # provided by upstream at run time; declared here for the type checker
        spi: Any

        def Write_MFRC522(self, addr: int, val: int) -> None: ...

        def Read_MFRC522(self, addr: int) -> int: ...

    def __init__(
        self,
        bus: int = 0,
        device: int = 0,
        *,
        pin_rst: int,
        speed_hz: int = 4_000_000,
        timeout_us: int = 1000,
        poll_gap_us: int = 100,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bus = bus
        self.device = device
        self.timeout_us = timeout_us
        self.poll_gap_us = poll_gap_us
        self.sleep = sleep
        self.clock = clock
        self.rx = b""
        self.rx_last_bits = 0
        self.coll = 0
        self.polls = 0
        self.version = 0
        self._pin_rst = pin_rst
        # Upstream's constructor opens spidev, drives the reset line and calls MFRC522_Init
        # (ours, below). BCM numbering, as everywhere in hardware/pins.toml.
        base = cast(Any, super())
        base.__init__(bus=bus, device=device, spd=speed_hz, pin_mode=GPIO_BCM, pin_rst=pin_rst)
        import RPi.GPIO as GPIO  # only reached once upstream imported it successfully

        if GPIO.getmode() != GPIO.BCM:
            raise RuntimeError(
                "RPi.GPIO is in BOARD numbering; the companion's pins are BCM numbers"
            )

    # ---- set-up -------------------------------------------------------------------------------
    def MFRC522_Init(self) -> None:
        """Upstream's set-up, made robust, then ours: 1 ms timer, antenna off until scanned.

        A chip just released from its reset line, or just soft-reset by upstream's init,
        ignores register writes until its oscillator runs (PowerDown clears); upstream
        does not wait, so its settings may be lost. We wait, then write every setting.
        """
        self._await_ready()
        cast(
            Any, super()
        ).MFRC522_Init()  # soft reset, timer, 100 % ASK, CRC preset 0x6363, antenna
        self._await_ready()
        self.set_timeout(self.timeout_us)
        self.Write_MFRC522(TX_ASK, 0x40)  # Force100ASK: type A needs 100 % ASK
        self.Write_MFRC522(MODE, 0x3D)  # CRC preset 0x6363
        self.Write_MFRC522(COLL, 0x00)  # ValuesAfterColl = 0: zeros after a collision
        self.antenna(False)
        self.version = self.Read_MFRC522(VERSION)

    def _await_ready(self) -> None:
        deadline = self.clock() + 0.05
        while self.Read_MFRC522(COMMAND) & POWER_DOWN and self.clock() < deadline:
            self.sleep(0.0001)

    @property
    def present(self) -> bool:
        """True if the chip answered set-up with a known VersionReg (0x91/0x92 for NXP)."""
        return self.version in KNOWN_VERSIONS

    def set_timeout(self, timeout_us: int) -> None:
        """Timer period for an unanswered frame (TAuto: it starts when transmission ends)."""
        ticks = max(2, -(-timeout_us // TICK_US))
        self.timeout_us = ticks * TICK_US
        self.Write_MFRC522(T_MODE, 0x80 | (PRESCALER >> 8))
        self.Write_MFRC522(T_PRESCALER, PRESCALER & 0xFF)
        self.Write_MFRC522(T_RELOAD_H, (ticks - 1) >> 8)
        self.Write_MFRC522(T_RELOAD_L, (ticks - 1) & 0xFF)

    def antenna(self, on: bool) -> None:
        self.Write_MFRC522(TX_CONTROL, 0x83 if on else 0x80)

    def close(self) -> None:
        """Close the SPI device. Not upstream's ``Close_MFRC522``: its ``GPIO.cleanup()``
        would reset every pin of the process, the console buttons included."""
        self.spi.close()

    # ---- one frame ------------------------------------------------------------------------------
    def transceive(self, data: bytes, last_bits: int = 0, align: int = 0) -> Status:
        """Send ``data`` (``last_bits`` valid bits in its last byte, 0 = all 8) and wait.

        The answer lands in ``self.rx`` (stored from bit ``align`` of its first byte, as the
        chip does), ``self.rx_last_bits`` valid bits in its last byte (0 = 8), and CollReg
        in ``self.coll``.
        """
        write = self.Write_MFRC522
        framing = (align << 4) | last_bits
        write(COMMAND, CMD_IDLE)
        write(COM_IRQ, 0x7F)  # clear every interrupt request bit
        write(FIFO_LEVEL, 0x80)  # flush the FIFO
        self.spi.xfer2([FIFO_DATA << 1, *data])  # one burst: address, then the bytes
        write(BIT_FRAMING, framing)
        write(COMMAND, CMD_TRANSCEIVE)
        write(BIT_FRAMING, 0x80 | framing)  # StartSend
        self.rx = b""
        nbits = 8 * len(data) - ((8 - last_bits) if last_bits else 0)
        air = _air_us(nbits)
        irq = self._wait(
            IRQ_RX | IRQ_IDLE | IRQ_ERR | IRQ_TIMER, air + FDT_US, air + self.timeout_us + MARGIN_US
        )
        if irq < 0:
            return Status.STUCK
        if not irq & (IRQ_RX | IRQ_ERR):
            return Status.TIMEOUT if irq & IRQ_TIMER else Status.ERROR
        # ErrorReg, FIFOLevelReg, ControlReg, CollReg in one burst read.
        status = self.spi.xfer2(
            [0x80 | ERROR << 1, 0x80 | FIFO_LEVEL << 1, 0x80 | CONTROL << 1, 0x80 | COLL << 1, 0]
        )
        err, level, control, coll = status[1], status[2] & 0x7F, status[3], status[4]
        self.rx_last_bits = control & 0x07
        self.coll = coll
        if level > 64:
            return Status.ERROR
        if level:
            self.rx = bytes(self.spi.xfer2([0x80 | FIFO_DATA << 1] * level + [0])[1:])
        if err & ERR_COLL:
            return Status.COLLISION
        if err & ERR_OTHER or not level:
            return Status.ERROR
        return Status.OK

    def _wait(self, mask: int, first_us: int, budget_us: int) -> int:
        """Poll ComIrqReg until a bit of ``mask`` is set; -1 past the deadline (stuck)."""
        start = self.clock()
        deadline = start + budget_us / 1e6
        self.sleep(first_us / 1e6)  # nothing can be done before the frame is out
        gap = self.poll_gap_us / 1e6
        for _ in range(MAX_POLLS):
            irq = self.Read_MFRC522(COM_IRQ)
            self.polls += 1
            if irq & mask:
                return irq
            if self.clock() > deadline:
                break
            self.sleep(gap)
        return -1

    # ---- ISO/IEC 14443-3 --------------------------------------------------------------------
    def request(self, wake: bool = True) -> Status:
        """WUPA (wakes idle and halted tags) or REQA (idle only): 7-bit short frames.

        OK or COLLISION both mean something answered (different tag types collide in
        ATQA); TIMEOUT means an empty field.
        """
        return self.transceive(bytes([WUPA if wake else REQA]), last_bits=7)

    def halt(self) -> Status:
        """HLTA: a tag acknowledges by silence, so TIMEOUT is success, reported as OK."""
        frame = bytearray([HLTA, 0x00])
        crc = crc_a(frame)
        frame += bytes([crc & 0xFF, crc >> 8])
        st = self.transceive(bytes(frame))
        if st == Status.TIMEOUT:
            return Status.OK
        return Status.STUCK if st == Status.STUCK else Status.ERROR

    def anticollision(self, level: int) -> tuple[Status, bytes]:
        """Resolve one cascade level: the 5 bytes (4 UID or CT+3 UID bytes, then BCC).

        On a bit collision, keep the bits before it, take the 1 branch at the colliding
        bit and ask again with those bits known: the tags of the 0 branch fall silent.
        """
        cl = bytearray(5)
        known = 0
        for _ in range(33):
            full, part = divmod(known, 8)
            nbytes = full + (1 if part else 0)
            frame = bytes([SEL[level], ((2 + full) << 4) | part]) + bytes(cl[:nbytes])
            st = self.transceive(frame, last_bits=part, align=part)
            if st not in (Status.OK, Status.COLLISION):
                return st, b""
            rx = self.rx
            if not rx or full + len(rx) > 5:
                return Status.ERROR, b""
            keep = (1 << part) - 1  # the first received byte continues our split byte
            cl[full] = (cl[full] & keep) | (rx[0] & ~keep & 0xFF)
            cl[full + 1 : full + len(rx)] = rx[1:]
            if st == Status.OK:
                got = 8 * len(rx) - ((8 - self.rx_last_bits) if self.rx_last_bits else 0)
                if known + got - part != 40 or cl[0] ^ cl[1] ^ cl[2] ^ cl[3] != cl[4]:
                    return Status.ERROR, b""
                return Status.OK, bytes(cl)
            if self.coll & COLL_POS_NOT_VALID:
                return Status.ERROR, b""
            # CollPos counts from the first bit stored in the FIFO (which starts at our
            # split byte); 0 stands for 32.
            bit = 8 * full + ((self.coll & 0x1F) or 32) - 1
            if not known <= bit < 32:
                return Status.ERROR, b""
            byte, mask = bit >> 3, 1 << (bit & 7)
            cl[byte] = (cl[byte] & (mask - 1)) | mask
            cl[byte + 1 :] = bytes(4 - byte)
            known = bit + 1
        return Status.ERROR, b""

    def select(self, level: int, cl: bytes) -> int:
        """SELECT with the 5 bytes of a level; the SAK, or -status on failure."""
        frame = bytearray([SEL[level], 0x70]) + cl
        crc = crc_a(frame)
        frame += bytes([crc & 0xFF, crc >> 8])
        st = self.transceive(bytes(frame))
        if st != Status.OK:
            return -int(st)
        if len(self.rx) != 3 or self.rx_last_bits or crc_a(self.rx) != 0:
            return -int(Status.ERROR)
        return self.rx[0]

    def read_one(self) -> tuple[Status, bytes]:
        """Anticollision and SELECT through the cascade levels: one tag's 4/7/10-byte UID."""
        uid = b""
        for level in range(3):
            st, cl = self.anticollision(level)
            if st != Status.OK:
                return st, b""
            sak = self.select(level, cl)
            if sak < 0:
                return Status(-sak), b""
            if not sak & SAK_CASCADE:
                return Status.OK, uid + cl[:4]
            if cl[0] != CASCADE_TAG:
                return Status.ERROR, b""
            uid += cl[1:4]
        return Status.ERROR, b""

    def read_all(self) -> tuple[Status, list[bytes]]:
        """Every tag in the field (the antenna must be on): OK with the complete list,
        PARTIAL with what was read before a frame failed, or STUCK."""
        uids: list[bytes] = []
        st = self.request(wake=True)
        while len(uids) < MAX_TAGS:
            if st == Status.TIMEOUT:
                return Status.OK, uids
            if st == Status.STUCK:
                return Status.STUCK, uids
            if st not in (Status.OK, Status.COLLISION):
                return Status.PARTIAL, uids
            st, uid = self.read_one()
            if st != Status.OK:
                return (Status.STUCK if st == Status.STUCK else Status.PARTIAL), uids
            if uid not in uids:
                uids.append(uid)
            if self.halt() == Status.STUCK:
                return Status.STUCK, uids
            st = self.request(wake=False)  # REQA: the halted tags keep quiet
        return Status.PARTIAL, uids


def driver_class() -> type[FastTransceiver]:
    """``FastMFRC522``: ``FastTransceiver`` mixed into ``mfrc522.MFRC522``.

    Importing ``mfrc522`` imports ``spidev`` and ``RPi.GPIO``; the latter raises
    ``RuntimeError`` off a Raspberry Pi, hence this late import.
    """
    import mfrc522

    class FastMFRC522(FastTransceiver, mfrc522.MFRC522):  # type: ignore[misc]
        """An ``mfrc522.MFRC522`` with a correct transceive and multi-tag enumeration."""

    return FastMFRC522


def uid_hex(uid: bytes) -> str:
    return uid.hex().upper()


class Debouncer:
    """A reader's debounced tag set: tags appear at once, vanish after ``misses`` scans
    in a row without them (a tag flickering in a sliding cup is not a move)."""

    def __init__(self, misses: int = 3) -> None:
        self.misses = misses
        self.stable: set[str] = set()
        self._missed: dict[str, int] = {}

    def fold(self, seen: Iterable[str], complete: bool = True) -> bool:
        """Fold one scan in; True if the stable set changed. A scan that was cut short
        (``complete=False``) can add tags but counts no misses."""
        seen = set(seen)
        changed = False
        for uid in seen:
            self._missed.pop(uid, None)
            if uid not in self.stable:
                self.stable.add(uid)
                changed = True
        if complete:
            for uid in self.stable - seen:
                count = self._missed.get(uid, 0) + 1
                if count >= self.misses:
                    self.stable.discard(uid)
                    self._missed.pop(uid, None)
                    changed = True
                else:
                    self._missed[uid] = count
        return changed


class SpiReaders:
    """``Readers`` for MFRC522s on the Pi's SPI bus: reader ``i`` is ``spots[i]``, a
    ``(bus, device)`` chip-select pair (reader 0 is the pad).

    ``start`` sets the chips up (raising ``RuntimeError`` with the cause if ``mfrc522``
    cannot be loaded) and starts the scan thread; readers that do not answer are reported
    as ``ReaderFault(r, "absent")`` and retried every ``recheck`` cycles.
    """

    def __init__(
        self,
        spots: Sequence[tuple[int, int]],
        *,
        pin_rst: int,
        debounce: int = 3,
        settle_us: int = 300,
        interval: float = 0.02,
        recheck: int = 50,
        driver_options: dict[str, Any] | None = None,
    ) -> None:
        self.spots = list(spots)
        self.pin_rst = pin_rst
        self.settle_us = settle_us
        self.interval = interval
        self.recheck = recheck
        self.driver_options = dict(driver_options or {})
        self.debouncers = [Debouncer(debounce) for _ in self.spots]
        self.drivers: list[FastTransceiver] = []
        self.faulty = [False] * len(self.spots)
        self.cycles = 0
        self._report_all = True  # the first cycle reports every reader, empty ones too
        self._recovered: set[int] = set()
        self._emitter = Emitter(_Discard())
        self._stop = threading.Event()
        self._thread: SupervisedThread | None = None

    def start(self, sink: Sink) -> None:
        self.open(sink)
        self._stop.clear()
        self._thread = SupervisedThread("spi-readers", self._run, sink, self._stop.is_set)
        self._thread.start()

    @property
    def thread(self) -> SupervisedThread | None:
        """The scan thread once started (supervised: its death stops the service)."""
        return self._thread

    def open(self, sink: Sink) -> None:
        """Set the chips up and report them, without starting the thread (``cycle`` then
        scans once; tests and benchmarks drive it so)."""
        try:
            cls = driver_class()
        except (ImportError, RuntimeError) as exc:
            raise RuntimeError(
                f"MFRC522 readers on SPI need the 'pi' extra on a Raspberry Pi "
                f"(pip install 'tabletop-companion[pi]'): {exc}"
            ) from exc
        self._emitter = Emitter(sink)
        self.drivers = [
            cls(bus, device, pin_rst=self.pin_rst, **self.driver_options)
            for bus, device in self.spots
        ]
        self._emitter.emit(LinkStatus(True, "spi", readers=len(self.drivers), reason="SPI"))
        for r, driver in enumerate(self.drivers):
            if not driver.present:
                self.faulty[r] = True
                self._emitter.emit(ReaderFault(r, "absent"))

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)
            self._thread = None
        for driver in self.drivers:
            driver.close()
        self.drivers = []

    def _run(self) -> None:
        while not self._stop.is_set():
            self.cycle()
            self._stop.wait(self.interval)

    def cycle(self) -> None:
        """Scan every reader once and emit what changed (the thread's loop body)."""
        resync = self._report_all
        self._report_all = False
        for obs in self._emitter.take_lost():  # the queue was full: say those again
            if isinstance(obs, SpotContents):
                self._recovered.add(obs.reader)
        for r, driver in enumerate(self.drivers):
            if self.faulty[r]:
                if (self.cycles + r) % self.recheck == 0:
                    driver.MFRC522_Init()
                    if driver.present:
                        self.faulty[r] = False
                        self._emitter.emit(ReaderOk(r))
                        self._recovered.add(r)
                continue
            driver.antenna(True)
            self._sleep_us(driver, self.settle_us)
            status, uids = driver.read_all()
            driver.antenna(False)
            if status == Status.STUCK:
                driver.MFRC522_Init()
                if not driver.present:
                    self.faulty[r] = True
                    self._emitter.emit(ReaderFault(r, "absent"))
                    continue
            complete = status == Status.OK
            changed = self.debouncers[r].fold(map(uid_hex, uids), complete)
            if changed or resync or r in self._recovered:
                self._recovered.discard(r)
                self._emitter.emit(SpotContents(r, frozenset(self.debouncers[r].stable)))
        self.cycles += 1

    @staticmethod
    def _sleep_us(driver: FastTransceiver, us: int) -> None:
        if us > 0:
            driver.sleep(us / 1e6)


class _Discard:
    def put_nowait(self, item: object, /) -> None:
        pass
