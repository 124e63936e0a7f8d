"""The real MicroPython of a Raspberry Pi Pico, running firmware/, in an RP2040 emulator.

``EmulatedPico`` boots the RP2040's bootrom and MicroPython v1.28.0 for the RPI_PICO board
(the two binaries beside this file, checked against their sha256) in rp2040js (npm, run by
``board.mjs`` under Node), with firmware/ written into the board's littlefs filesystem, so
``main.py`` starts at power-up exactly as on a table. Around the chip:

- one emulated MFRC522 (tests/firmware/chip.py, the same model the firmware's own tests
  use) behind each chip-select pin of the pin map, answering the bytes the firmware clocks
  out on the emulated SPI bus, with tags placed on a ``chip.Table`` that tests change
  while the board runs; a reader left out of ``fitted`` is a chip select nothing answers;
- the board's USB CDC bridged to a pseudo-terminal (``path``), which the real
  ``companion`` serial link opens with pyserial as it would ``/dev/ttyACM0`` (a new one
  after a watchdog restart, as the device leaves the bus and comes back), or, with
  ``pty=False``, to ``write`` and ``output`` for a bench that reads the frames itself.

Time is the emulator's: counted per instruction at 125 MHz (so ``utime.ticks_us`` on the
board is emulated time), SPI bytes charged at the bus's own clock, and the chips' clock
(air time, the timer, tags powering up) set from it at every byte. The emulator stands
still while Python answers, so the host's speed changes nothing the board measures.
Both cores run (dualcore.mjs around rp2040js): with ``spi1`` the firmware gets
pins.toml's two buses, and core 1 scans the second; without, a one-bus pin map, every
reader on SPI0, scanned in turn by core 0.
"""

from __future__ import annotations

import bisect
import contextlib
import errno
import fcntl
import hashlib
import importlib.util
import os
import select
import shutil
import subprocess
import sys
import tempfile
import termios
import threading
import time
import tomllib
import tty
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FIRMWARE = ROOT / "firmware"
sys.path.insert(0, str(ROOT / "tests" / "firmware"))

import chip  # noqa: E402

UF2 = HERE / "micropython-1.28.0-RPI_PICO.uf2"
BOOTROM = HERE / "rp2040-bootrom-b1.bin"
SHA256 = {
    UF2: "883641048f9eb1eef6f20332b145f8606b29b8290d6126fc4e74b9f655d170ac",
    BOOTROM: "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae",
}
BOARD_JS = HERE / "board.mjs"
RP2040JS = ROOT / "node_modules" / "rp2040js" / "package.json"
FS_BLOCK_SIZE = 4096  # MicroPython's littlefs on the RPI_PICO board: 352 blocks at 0xA0000
FS_BLOCK_COUNT = 352
FS_PROG_SIZE = 256
SKIPPED_FILES = ("gen_pins.py",)  # CPython only: never copied to a board
HOST_BUFFER = 1 << 20  # bytes of the board a pty reader may leave unread before the oldest go


def missing() -> str | None:
    """Why the emulated Pico cannot run here (no Node, ``npm ci`` not run, no littlefs),
    or None."""
    if shutil.which("node") is None:
        return "no node command (Node 20 runs the RP2040 emulator)"
    if not RP2040JS.exists():
        return "rp2040js is not installed: run npm ci at the repository's root"
    if importlib.util.find_spec("littlefs") is None:
        return "littlefs-python is not installed (dev extra)"
    return None


def check_binaries() -> None:
    """Refuse binaries that are not the ones tests/pico/README.md describes."""
    for path, digest in SHA256.items():
        actual = hashlib.sha256(path.read_bytes()).hexdigest()
        if actual != digest:
            raise RuntimeError(f"{path.name}: sha256 {actual}, expected {digest}")


def _gen_pins():
    spec = importlib.util.spec_from_file_location("gen_pins", FIRMWARE / "gen_pins.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pins_table() -> dict:  # type: ignore[type-arg]
    return tomllib.loads((ROOT / "hardware" / "pins.toml").read_text())


DEFAULT_SPI1: tuple[int, ...] = tuple(_pins_table()["pico"]["readers"]["spi1"])
"""The readers hardware/pins.toml wires to SPI1 (scanned by core 1)."""


class PinMap(NamedTuple):
    """A board's pins.py and what the harness needs of it."""

    text: str
    cs: tuple[int, ...]  # each reader's chip select
    rst: int  # the readers' reset line
    buses: tuple[int, ...]  # each reader's SPI bus (and core)


def board_pins(readers: int | None = None, spi1: tuple[int, ...] | None = None) -> PinMap:
    """pins.py from hardware/pins.toml, keeping its first ``readers`` chip selects (None:
    all), with ``spi1`` the readers on the second bus (None: no second bus, every reader
    on SPI0; ``DEFAULT_SPI1``: pins.toml's own wiring)."""
    table = _pins_table()
    pico = table["pico"]
    if readers is not None:
        pico["readers"]["cs"] = pico["readers"]["cs"][:readers]
    cs = tuple(int(p) for p in pico["readers"]["cs"])
    if spi1 is None:
        pico.pop("spi1", None)
        pico["readers"].pop("spi1", None)
        spi1 = ()
    else:
        pico["readers"]["spi1"] = list(spi1)
    buses = tuple(1 if r in spi1 else 0 for r in range(len(cs)))
    return PinMap(_gen_pins().render(table), cs, int(pico["readers"]["rst"]), buses)


def firmware_image(pins: str, extra: dict[str, str] | None = None) -> bytes:
    """A littlefs image of firmware/ as ``mpremote cp firmware/*.py :`` leaves the board,
    with ``pins`` as its pins.py and ``extra`` files (name -> text) besides."""
    from littlefs import LittleFS

    fs = LittleFS(
        block_size=FS_BLOCK_SIZE,
        block_count=FS_BLOCK_COUNT,
        prog_size=FS_PROG_SIZE,
        read_size=FS_PROG_SIZE,
    )
    files = {p.name: p.read_text() for p in sorted(FIRMWARE.glob("*.py"))}
    for name in SKIPPED_FILES:
        files.pop(name, None)
    files["pins.py"] = pins
    files.update(extra or {})
    for name, text in files.items():
        with fs.open(name, "w") as out:
            out.write(text)
    return bytes(fs.context.buffer)


class Antenna(NamedTuple):
    """A reader's antenna switched on or off, and the bus's counters at that moment."""

    ns: int
    reader: int
    on: bool
    transactions: int
    spi_bytes: int


class BoardError(RuntimeError):
    """The emulated board or its bridge failed (the firmware broke a rule of the bus, or
    the emulator stopped)."""


class EmulatedPico:
    """A Pico running firmware/ on its real MicroPython, with MFRC522 models on its bus.

    ``readers``: how many chip selects the pin map keeps (None: all of pins.toml's);
    ``spi1``: the readers wired to the second bus, scanned by core 1 (None: no second bus,
    every reader on SPI0, as wiring.md's one-bus table; ``DEFAULT_SPI1``: pins.toml's);
    ``fitted``: the readers with a chip (None: every one). ``pty``: bridge the CDC to a
    pseudo-terminal at ``path`` (in ``directory``, a temporary one by default); ``extra``:
    files (name -> text) written beside firmware/ (a bench's own ``main.py``).
    ``xip_miss_cycles``: charge the XIP cache model's misses, this many cycles each
    (dualcore.mjs; 0: none, rp2040js's own lower bound).
    """

    def __init__(
        self,
        readers: int | None = None,
        fitted: tuple[int, ...] | None = None,
        spi1: tuple[int, ...] | None = None,
        pty: bool = True,
        directory: Path | None = None,
        extra: dict[str, str] | None = None,
        keep_antennas: bool = False,
        xip_miss_cycles: int = 0,
    ) -> None:
        reason = missing()
        if reason:
            raise BoardError(reason)
        check_binaries()
        pins = board_pins(readers, spi1)
        self.cs, self.rst, self.buses = pins.cs, pins.rst, pins.buses
        self.lock = threading.RLock()
        self.clock = chip.Clock()
        self.table = chip.Table(self.clock)
        self.chips: list[chip.MFRC522Chip | None] = []
        self._by_cs: dict[int, tuple[int, chip.MFRC522Chip]] = {}  # pin -> (bus, chip)
        for r, pin in enumerate(self.cs):
            device = None
            if fitted is None or r in fitted:
                device = chip.MFRC522Chip(self.clock, self.table, f"reader{r}")
                self._by_cs[pin] = (self.buses[r], device)
            self.chips.append(device)
        self._reader_of = {id(c): r for r, c in enumerate(self.chips) if c is not None}
        self._selected: list[chip.MFRC522Chip | None] = [None, None]  # on each bus
        self._fields = {id(c): False for _, c in self._by_cs.values()}
        self.transactions = 0
        self.spi_bytes = 0
        self.antennas: list[Antenna] = []
        """Each antenna switched on or off, with ``keep_antennas``: the harness's own clock
        on the scan (a cycle from one visit of reader 0 to the next)."""
        self.keep_antennas = keep_antennas
        self.output = bytearray()  # everything the board sent over USB
        self._sent_at: list[tuple[int, int]] = []  # (ns, len(output)) after each USB packet
        self.dropped = 0  # bytes the host never took (nobody reading for HOST_BUFFER bytes)
        self._to_host = bytearray()  # bytes the board sent that the pty has not taken yet
        self.restarts: list[int] = []  # emulated ns of each watchdog restart
        self.xip_miss_cycles = xip_miss_cycles
        self.instructions = (0, 0)  # run by each core since the last power-up
        self.xip_misses = 0  # since the last power-up, with the XIP cache model
        self._commands: list[bytes] = []  # for the emulator, at its next poll
        self.connected = threading.Event()
        self.error: BaseException | None = None
        self._host = bytearray()
        self._events: list[tuple[int, object]] = []
        self._stop = False
        self._temp = None
        if directory is None:
            self._temp = tempfile.TemporaryDirectory(prefix="pico-")
            directory = Path(self._temp.name)
        self.image = directory / "littlefs.img"
        self.image.write_bytes(firmware_image(pins.text, extra))
        self.master = self.slave = -1
        self.path = directory / "ttyPico"
        if pty:
            self._plug()
        self._start_node(directory)

    def _plug(self) -> None:
        """A new pseudo-terminal behind ``path``, as the board's USB device appearing."""
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        flags = fcntl.fcntl(self.master, fcntl.F_GETFL)
        fcntl.fcntl(self.master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        self.path.unlink(missing_ok=True)
        self.path.symlink_to(os.ttyname(self.slave))

    def _unplug(self) -> None:
        """The board's USB device gone: the host's reads and writes fail."""
        self._to_host.clear()
        for fd in (self.master, self.slave):
            if fd >= 0:
                os.close(fd)
        self.master = self.slave = -1

    # ---- the Node process and the bridge ------------------------------------------------------
    def _start_node(self, directory: Path) -> None:
        from_node, to_python = os.pipe()
        from_python, to_node = os.pipe()
        watched = ",".join(str(p) for p in (*self.cs, self.rst))
        self._log = open(directory / "node.log", "wb")  # noqa: SIM115 (closed by close())
        self.process = subprocess.Popen(
            [
                "node",
                str(BOARD_JS),
                str(BOOTROM),
                str(UF2),
                str(self.image),
                watched,
                str(to_python),
                str(from_python),
                str(self.xip_miss_cycles),
            ],
            pass_fds=(to_python, from_python),
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
            cwd=ROOT,
        )
        os.close(to_python)
        os.close(from_python)
        self._rx = os.fdopen(from_node, "rb", buffering=1 << 16)
        self._tx = to_node
        self.thread = threading.Thread(target=self._serve, name="emulated-pico", daemon=True)
        self.thread.start()

    def _reply(self, text: bytes) -> None:
        os.write(self._tx, text + b"\n")

    def _serve(self) -> None:
        try:
            for line in self._rx:
                if not self._handle(line.split()):
                    break
        except BaseException as exc:  # noqa: BLE001 - reported to the test by check()
            self.error = exc
            with contextlib.suppress(OSError):
                self._reply(b"Q")
        finally:
            self._stop = True

    def _handle(self, words: list[bytes]) -> bool:
        kind = words[0]
        ns = int(words[1])
        with self.lock:
            if ns > self.clock.ns:
                self.clock.ns = ns
            while self._events and self._events[0][0] <= ns:
                _, action = self._events.pop(0)
                action()  # type: ignore[operator]
            if kind == b"X":
                self._reply(b"%d" % self._spi(int(words[2]), int(words[3])))
            elif kind == b"G":
                self._gpio(int(words[2]), int(words[3]))
            elif kind == b"P":
                self.instructions = (int(words[3]), int(words[4]))
                self.xip_misses = int(words[5])
                return self._poll(words[2] == b"1")
            elif kind == b"U":
                self._from_board(bytes.fromhex(words[2].decode()) if len(words) > 2 else b"")
            elif kind == b"C":
                self.connected.set()
            elif kind == b"W":
                self.restarts.append(ns)
                self.connected.clear()
                if self.master >= 0:  # a restarted RP2040 leaves the USB bus and comes back
                    self._unplug()
                    self._plug()
        return True

    def _spi(self, bus: int, byte: int) -> int:
        self.spi_bytes += 1
        device = self._selected[bus]
        if device is None:
            return 0  # nothing drives MISO: the pull-down reads zeros
        out = device.xfer(byte)
        on = device.field_on
        if on != self._fields[id(device)]:
            self._fields[id(device)] = on
            if self.keep_antennas:
                reader = self._reader_of[id(device)]
                self.antennas.append(
                    Antenna(self.clock.ns, reader, on, self.transactions, self.spi_bytes)
                )
        return out

    def _gpio(self, pin: int, level: int) -> None:
        if pin == self.rst:
            for _, device in self._by_cs.values():
                device.hard_reset(level)
        if pin not in self._by_cs:
            return
        bus, device = self._by_cs[pin]
        if level == 0:
            if self._selected[bus] is not None:
                raise BoardError(f"two chips selected on SPI{bus} (CS {pin})")
            self._selected[bus] = device
            self.transactions += 1
            device.select()
        elif self._selected[bus] is device:
            self._selected[bus] = None
            device.deselect()

    def _poll(self, idle: bool) -> bool:
        if self._stop:
            self._reply(b"Q")
            return False
        if self.master >= 0:
            self._drain()
            if idle:
                select.select([self.master], [], [], 0.01)
            with contextlib.suppress(BlockingIOError, OSError):
                self._host += os.read(self.master, 4096)
        elif idle and not self._host:
            self.lock.release()
            time.sleep(0.002)
            self.lock.acquire()
        if self._commands:
            self._reply(self._commands.pop(0))
        elif self._host:
            self._reply(b"I " + self._host.hex().encode())
            self._host.clear()
        else:
            self._reply(b"-")
        return True

    def _from_board(self, data: bytes) -> None:
        self.output += data
        self._sent_at.append((self.clock.ns, len(self.output)))
        if self.master < 0:
            return
        self._to_host += data
        self._drain()

    def _drain(self) -> None:
        """The board's bytes into the pty as far as it takes them; the rest waits for the
        next poll, as a Pi's kernel holds what its reader has not read yet. A slow reader
        (a loaded machine) thus loses nothing and changes nothing in emulated time; only
        a reader that took nothing for `HOST_BUFFER` bytes loses the oldest."""
        pending = self._to_host
        while pending:
            try:
                del pending[: os.write(self.master, pending)]
            except BlockingIOError:
                break
            except OSError as exc:
                if exc.errno != errno.EIO:
                    raise
                pending.clear()  # nobody has the pty open: nothing to deliver to
        if len(pending) > HOST_BUFFER:
            self.dropped += len(pending) - HOST_BUFFER
            del pending[: len(pending) - HOST_BUFFER]

    # ---- what tests and benches do ------------------------------------------------------------
    def place(
        self, reader: int, uid: str | bytes, across: int | None = None, **kw: object
    ) -> chip.Tag:
        """Put a new tag with ``uid`` (hex or bytes) on ``reader``'s antenna (and across
        onto reader ``across``'s, if given: either antenna powers and reads it); the Tag."""
        device = self.chips[reader]
        second = None if across is None else self.chips[across]
        if device is None or (across is not None and second is None):
            raise ValueError(f"reader {reader if device is None else across} has no chip fitted")
        raw = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        tag = chip.Tag(raw, **kw)  # type: ignore[arg-type]
        with self.lock:
            self.table.place(tag, device, across=second)
        return tag

    def remove(self, tag: chip.Tag) -> None:
        with self.lock:
            self.table.remove(tag)

    def at(self, ns: int, action: object) -> None:
        """Run ``action()`` on the bridge when emulated time reaches ``ns``."""
        with self.lock:
            self._events.append((ns, action))
            self._events.sort(key=lambda e: e[0])

    def stall(self, core: int, stalled: bool = True) -> None:
        """Stop ``core`` where it is (as a wedged core would), or let it go on; a
        watchdog restart brings up both cores afresh."""
        with self.lock:
            self._commands.append(b"K %d %d" % (core, stalled))

    def write(self, data: bytes) -> None:
        """Bytes from the USB host to the board (``pty=False``)."""
        with self.lock:
            self._host += data

    @property
    def now_ns(self) -> int:
        return self.clock.ns

    @property
    def host_ns(self) -> int:
        """Emulated ns of the oldest byte of the board's that the host has not read yet
        (``now_ns`` once it has read them all): the board's time as far as it has reached
        the host. A loaded machine leaves the host's reader behind the emulator; a wait
        timed on ``now_ns`` would end while the board's last reports still lie in the pty."""
        with self.lock:
            unread = len(self._to_host)  # the tail of ``output``
            if self.slave >= 0:
                queued = fcntl.ioctl(self.slave, termios.FIONREAD, b"\0\0\0\0")
                unread += int.from_bytes(queued, sys.byteorder)
            if not unread:
                return self.clock.ns
            packet = bisect.bisect_right(
                self._sent_at, len(self.output) - unread, key=lambda sent: sent[1]
            )
            return self._sent_at[packet][0]

    def sent_at(self, text: bytes, start: int = 0) -> int | None:
        """Emulated ns at which the board finished sending the first ``text`` in ``output``
        from offset ``start``, or None if it has not."""
        with self.lock:
            found = self.output.find(text, start)
            if found < 0:
                return None
            end = found + len(text)
            for ns, size in self._sent_at:
                if size >= end:
                    return ns
        return None

    def check(self) -> None:
        """Raise what went wrong on the bridge or in the emulator, if anything."""
        if self.error is not None:
            raise BoardError(f"bridge failed: {self.error!r}") from self.error
        if self.process.poll() not in (None, 0) or (self._stop and not self._closing):
            raise BoardError(f"emulator stopped: {self.log_text()}")

    _closing = False

    def wait_for(self, done, timeout: float, what: str = "") -> None:  # type: ignore[no-untyped-def]
        """Wait (wall time) until ``done()`` is true; raise on a stopped board or timeout."""
        deadline = time.monotonic() + timeout
        while True:
            with self.lock:
                if done():
                    return
            self.check()
            if time.monotonic() > deadline:
                raise TimeoutError(f"{what or 'condition'} not met in {timeout} s")
            time.sleep(0.01)

    def log_text(self) -> str:
        self._log.flush()
        return (self.image.parent / "node.log").read_text(errors="replace")[-2000:]

    def close(self) -> None:
        self._closing = True
        self._stop = True
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.thread.join(timeout=5)
        with contextlib.suppress(OSError):
            os.close(self._tx)
        self._rx.close()
        self._log.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        self._unplug()
        if self._temp is not None:
            self._temp.cleanup()

    def __enter__(self) -> EmulatedPico:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
