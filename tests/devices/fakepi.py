"""Fake ``spidev`` and ``RPi.GPIO`` modules wired to the emulated MFRC522 chips.

The real ``mfrc522`` package is imported against these fakes (``install``), so its code
runs unchanged: every ``SpiDev.xfer2`` reaches the emulated chip (tests/firmware/chip.py)
behind that ``(bus, device)`` chip select, and the reset line set through ``RPi.GPIO``
drives the chips' NRSTPD pin. Emulated time advances by each SPI byte at ``max_speed_hz``
plus a fixed cost per transfer (the Python and ioctl overhead of a Pi), and by the
driver's sleeps (``Board.sleep``), so the chips' 1 ms timers behave as on the bench.
"""

from __future__ import annotations

import sys
import types
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

FIRMWARE_TESTS = Path(__file__).resolve().parent.parent / "firmware"
if str(FIRMWARE_TESTS) not in sys.path:
    sys.path.insert(0, str(FIRMWARE_TESTS))

import chip  # noqa: E402  (tests/firmware/chip.py)

BCM = 11
BOARD_MODE = 10


class Board:
    """Emulated chips behind ``(bus, device)`` chip selects, a shared reset line, a clock.

    ``absent`` lists chip selects with a spidev node but no chip (MISO reads as zeros).
    The reset line starts low (pulled down at boot), so the chips start in power-down.
    """

    def __init__(
        self,
        spots: list[tuple[int, int]],
        rst: int = 25,
        overhead_us: int = 20,
        absent: tuple[tuple[int, int], ...] = (),
    ) -> None:
        self.clock = chip.Clock()
        self.table = chip.Table(self.clock)
        self.chips: dict[tuple[int, int], Any] = {}
        for spot in spots:
            if spot not in absent:
                c = chip.MFRC522Chip(self.clock, self.table, f"spi{spot[0]}.{spot[1]}")
                c.hard_reset(0)
                self.chips[spot] = c
        self.nodes = set(spots)
        self.rst = rst
        self.overhead_ns = overhead_us * 1000
        self.transfers: Counter[tuple[int, int]] = Counter()
        self.mode: int | None = None
        self.levels: dict[int, int] = {}
        self.cleanups: list[Any] = []

    def place(self, spot: tuple[int, int], uid: str) -> Any:
        tag = chip.Tag(bytes.fromhex(uid))
        self.table.place(tag, self.chips[spot])
        return tag

    def remove(self, tag: Any) -> None:
        self.table.remove(tag)

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            self.clock.ns += int(seconds * 1e9)

    def now(self) -> float:
        return self.clock.ns / 1e9

    def total_transfers(self) -> int:
        return sum(self.transfers.values())


def make_modules(board: Board) -> dict[str, types.ModuleType]:
    spidev = types.ModuleType("spidev")

    class SpiDev:
        def __init__(self) -> None:
            self.spot: tuple[int, int] | None = None
            self.max_speed_hz = 500_000

        def open(self, bus: int, device: int) -> None:
            if (bus, device) not in board.nodes:
                raise FileNotFoundError(2, "No such file or directory")
            self.spot = (bus, device)

        def close(self) -> None:
            self.spot = None

        def xfer2(self, values: list[int]) -> list[int]:
            assert self.spot is not None, "xfer2 on a closed SpiDev"
            board.transfers[self.spot] += 1
            board.clock.ns += board.overhead_ns
            byte_ns = 8_000_000_000 // self.max_speed_hz
            device = board.chips.get(self.spot)
            if device is None:
                board.clock.ns += byte_ns * len(values)
                return [0] * len(values)
            device.select()
            out = []
            for value in values:
                board.clock.ns += byte_ns
                out.append(device.xfer(value & 0xFF))
            device.deselect()
            return out

    spidev.SpiDev = SpiDev  # type: ignore[attr-defined]

    gpio = types.ModuleType("RPi.GPIO")
    gpio.BCM = BCM  # type: ignore[attr-defined]
    gpio.BOARD = BOARD_MODE  # type: ignore[attr-defined]
    gpio.OUT = 0  # type: ignore[attr-defined]
    gpio.IN = 1  # type: ignore[attr-defined]
    gpio.HIGH = 1  # type: ignore[attr-defined]
    gpio.LOW = 0  # type: ignore[attr-defined]

    def getmode() -> int | None:
        return board.mode

    def setmode(mode: int) -> None:
        board.mode = mode

    def setwarnings(flag: bool) -> None:
        pass

    def setup(pin: int, mode: int, initial: int = -1, **kw: Any) -> None:
        if board.mode is None:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode")
        board.levels.setdefault(pin, 0)

    def output(pin: int, level: int) -> None:
        level = 1 if level else 0
        if board.levels.get(pin) != level and pin == board.rst and board.mode == BCM:
            for c in board.chips.values():
                c.hard_reset(level)
        board.levels[pin] = level

    def cleanup(*pins: Any) -> None:
        board.cleanups.append(pins)

    for fn in (getmode, setmode, setwarnings, setup, output, cleanup):
        setattr(gpio, fn.__name__, fn)
    rpi = types.ModuleType("RPi")
    rpi.GPIO = gpio  # type: ignore[attr-defined]
    rpi.__path__ = []  # type: ignore[attr-defined]
    return {"spidev": spidev, "RPi": rpi, "RPi.GPIO": gpio}


def install(monkeypatch: pytest.MonkeyPatch, board: Board) -> None:
    """Put the fakes in ``sys.modules`` and make the real ``mfrc522`` re-import on them."""
    for name, module in make_modules(board).items():
        monkeypatch.setitem(sys.modules, name, module)
    for name in list(sys.modules):
        if name == "mfrc522" or name.startswith("mfrc522."):
            monkeypatch.delitem(sys.modules, name)
