"""I2C bytes and modelled bus time of the OLED's frames: luma's whole frames against the
page diff of companion/devices/partial_oled.py.

    .venv/bin/python bench/oled_frames.py [--games N]

Simulated PtiPassPass games (4 seats, spaced pace, a clock tick every 100 ms as the live
loop makes) go through the referee and ``Display.show``, the live loop's own path (the
countdown sent at most every 0.2 s), onto luma's SSD1306: once as luma's own driver
sends every frame, once through ``PartialSSD1306``. Each serial interface counts what a
real bus carries; each frame sent is sorted by what changed on the screen:

- countdown: the challenge window draining (the same window, a later moment);
- turn change: the screen of another Magicien (a new turn begins);
- other: anything else (a drop, a call, a verdict, an instruction).

The modelled time of a transaction on the bus: a start condition, the address byte, the
control byte (command or data), the payload, a stop; 9 bit times a byte (8 bits and the
acknowledge), one for start and stop each. The Linux driver's gap between transactions is
not counted (a few tens of microseconds each). Target: a countdown frame at most 5 ms at
400 kHz.
"""

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from luma.oled.device import ssd1306  # noqa: E402

from companion.config.model import DisplayConfig  # noqa: E402
from companion.devices.display import Display  # noqa: E402
from companion.devices.partial_oled import REFRESH_EVERY, PartialSSD1306  # noqa: E402
from companion.games.passpass.referee import PassPassReferee  # noqa: E402
from companion.games.passpass.screens import CountdownScreen  # noqa: E402
from companion.games.passpass.sim import Pace, SimulatedGame, make_setup  # noqa: E402
from companion.journal import TickInput  # noqa: E402

TARGET_MS = 5.0
SPEEDS = (400_000, 100_000)


class Bus:
    """A luma serial interface that counts what a real I2C bus carries."""

    def __init__(self) -> None:
        self.bits = 0
        self.bytes = 0

    def _transaction(self, payload: int) -> None:
        self.bytes += 2 + payload  # the address and control bytes
        self.bits += 9 * (2 + payload) + 2  # an acknowledge a byte; start and stop

    def command(self, *cmd: int) -> None:
        self._transaction(len(cmd))

    def data(self, data: Any) -> None:
        self._transaction(len(data))

    def cleanup(self) -> None:
        pass


def kind(screen: Any, last: Any) -> str:
    if isinstance(screen, CountdownScreen) and screen.same_moment(last):
        return "countdown"
    if last is not None and screen.view.magician != last.view.magician:
        return "turn change"
    return "other"


def play(seed: int, frames: dict[str, dict[str, list[tuple[int, int]]]]) -> None:
    """One game; appends (bytes, bits) of every frame sent to ``frames[driver][kind]``."""
    setup = make_setup("ptipasspass", 4, seed)
    inputs = SimulatedGame(setup, pace=Pace.spaced()).run().inputs
    referee = PassPassReferee(setup)
    now = [0.0]
    drivers = {"luma ssd1306": ssd1306, "partial": PartialSSD1306}
    runs = {}
    for name, cls in drivers.items():
        bus = Bus()
        device = cls(bus, width=128, height=64)
        device.persist = True
        display = Display(
            DisplayConfig(driver="ssd1306"), "fr", factory=lambda c, d, x=device: x,
            clock=lambda: now[0],
        )  # fmt: skip
        display.open()
        runs[name] = (bus, display)
    last: Any = None
    t = 0.0
    for record in inputs:
        feed = []
        while t + 0.1 < record.t:
            t = round(t + 0.1, 3)
            feed.append(TickInput(t))
        feed.append(record)
        t = max(t, record.t)
        for item in feed:
            referee.feed(item)
            now[0] = item.t
            screen = referee.screen
            sent = []
            for name, (bus, display) in runs.items():
                before = (bus.bytes, bus.bits)
                if display.show(screen):
                    sent.append(name)
                    frames[name].setdefault(kind(screen, last), []).append(
                        (bus.bytes - before[0], bus.bits - before[1])
                    )
            assert len(sent) in (0, len(runs)), sent
            if sent:
                last = screen


def ms(bits: float, hz: int) -> float:
    return bits / hz * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    frames: dict[str, dict[str, list[tuple[int, int]]]] = {"luma ssd1306": {}, "partial": {}}
    for seed in range(1, args.games + 1):
        play(seed, frames)
    print(f"{args.games} four-seat PtiPassPass games; each page whole every {REFRESH_EVERY} frames")
    print()
    print("| driver | frames | count | bytes p50 / max | 400 kHz ms p50 / max", end="")
    print(" | 100 kHz ms p50 / max |")
    print("|---|---|---|---|---|---|")
    worst_countdown = 0.0
    for name, kinds in frames.items():
        for what in ("countdown", "turn change", "other"):
            got = kinds.get(what, [])
            if not got:
                continue
            sizes = sorted(b for b, _ in got)
            bits = sorted(b for _, b in got)
            cells = [f"{statistics.median(sizes):,.0f} / {sizes[-1]:,}"]
            for hz in SPEEDS:
                cells.append(f"{ms(statistics.median(bits), hz):.2f} / {ms(bits[-1], hz):.2f}")
            print(f"| {name} | {what} | {len(got):,} | " + " | ".join(cells) + " |")
            if name == "partial" and what == "countdown":
                worst_countdown = ms(bits[-1], SPEEDS[0])
    print()
    for name, kinds in frames.items():
        total = sum(b for got in kinds.values() for b, _ in got)
        bits = sum(b for got in kinds.values() for _, b in got)
        count = sum(len(got) for got in kinds.values())
        print(
            f"{name}: {count:,} frames, {total:,} bytes, {ms(bits, SPEEDS[0]) / 1000:.2f} s "
            f"of bus at 400 kHz ({ms(bits, SPEEDS[1]) / 1000:.2f} s at 100 kHz)"
        )
    verdict = "met" if worst_countdown <= TARGET_MS else "MISSED"
    print(
        f"\nworst countdown frame {worst_countdown:.2f} ms at 400 kHz: "
        f"target {TARGET_MS} ms {verdict}"
    )
    print("(countdown frames include those carrying a page of the periodic refresh)")


if __name__ == "__main__":
    main()
