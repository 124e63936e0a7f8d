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
400 kHz. The figures are byte counts, the same on any machine; the README section is
``readme`` (bench/readme.py).
"""

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from luma.oled.device import ssd1306  # noqa: E402
from verdict import judge  # noqa: E402

from companion.config.model import DisplayConfig  # noqa: E402
from companion.devices.display import Display  # noqa: E402
from companion.devices.partial_oled import REFRESH_EVERY, PartialSSD1306  # noqa: E402
from companion.games.passpass.referee import PassPassReferee  # noqa: E402
from companion.games.passpass.screens import CountdownScreen  # noqa: E402
from companion.games.passpass.sim import Pace, SimulatedGame, make_setup  # noqa: E402
from companion.journal import TickInput  # noqa: E402

TARGET_MS = 5.0
SPEEDS = (400_000, 100_000)
TITLE = "luma's whole frames against the page diff"


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


def measure(games: int) -> dict[str, dict[str, list[tuple[int, int]]]]:
    """Bytes and bits of every frame each driver sent, by what changed, over `games`."""
    frames: dict[str, dict[str, list[tuple[int, int]]]] = {"luma ssd1306": {}, "partial": {}}
    for seed in range(1, games + 1):
        play(seed, frames)
    return frames


def table(frames: dict[str, dict[str, list[tuple[int, int]]]]) -> tuple[list[str], float]:
    """The markdown table's lines, and the worst countdown frame (ms at 400 kHz)."""
    lines = [
        "| driver | frames | count | bytes p50 / max | 400 kHz ms p50 / max "
        "| 100 kHz ms p50 / max |",
        "|---|---|---|---|---|---|",
    ]
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
            label = f"{name} (before)" if name == "luma ssd1306" else name
            lines.append(f"| {label} | {what} | {len(got):,} | " + " | ".join(cells) + " |")
            if name == "partial" and what == "countdown":
                worst_countdown = ms(bits[-1], SPEEDS[0])
    return lines, worst_countdown


def bus_seconds(kinds: dict[str, list[tuple[int, int]]], hz: int) -> float:
    return ms(sum(b for got in kinds.values() for _, b in got), hz) / 1000


def readme(quick: bool) -> str:
    """bench/README.md's section: 5 games (quick: 2)."""
    games = 2 if quick else 5
    frames = measure(games)
    lines, worst = table(frames)
    typical = statistics.median(b for _, b in frames["partial"]["countdown"])
    whole = max(b for got in frames["luma ssd1306"].values() for _, b in got)
    verdict = judge([worst], TARGET_MS, unit="ms", digits=2)
    return f"""## oled_frames.py — OLED frames on the I2C bus: {TITLE}

`.venv/bin/python bench/oled_frames.py [--games N]` plays {games} simulated four-seat
PtiPassPass games (spaced pace, a tick every 100 ms) through the referee and
`Display.show` (the live loop's path, countdown at most every 0.2 s) onto luma's SSD1306,
once as luma's own driver sends frames and once through `PartialSSD1306`
(companion/devices/partial_oled.py). A capturing serial interface counts the bytes a bus
carries; the modelled time counts the address and control byte of each transaction, 9 bit
times a byte and a start and a stop (the Linux driver's gap between transactions is not
counted). Byte counts: the same on any machine.

{chr(10).join(lines)}

Target: a countdown frame at most {TARGET_MS:g} ms of I2C at 400 kHz: {verdict}
(the worst; {ms(typical, SPEEDS[0]):.2f} ms typical; luma's whole frame is
{ms(whole, SPEEDS[0]):.1f} ms). The worst countdown frames carry one page of the periodic
refresh: a page not sent whole for {REFRESH_EVERY} frames goes out whole with the next
frame, one page a frame, so the refresh never costs a frame more than a page. A turn
change rewrites most of the screen and saves little. Over the games, bus time at 400 kHz
falls from {bus_seconds(frames["luma ssd1306"], SPEEDS[0]):.1f} s to
{bus_seconds(frames["partial"], SPEEDS[0]):.1f} s.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    frames = measure(args.games)
    print(f"{args.games} four-seat PtiPassPass games; each page whole every {REFRESH_EVERY} frames")
    print()
    lines, worst_countdown = table(frames)
    print("\n".join(lines))
    print()
    for name, kinds in frames.items():
        total = sum(b for got in kinds.values() for b, _ in got)
        count = sum(len(got) for got in kinds.values())
        print(
            f"{name}: {count:,} frames, {total:,} bytes, {bus_seconds(kinds, SPEEDS[0]):.2f} s "
            f"of bus at 400 kHz ({bus_seconds(kinds, SPEEDS[1]):.2f} s at 100 kHz)"
        )
    verdict = judge([worst_countdown], TARGET_MS, unit="ms", digits=2)
    print(f"\nworst countdown frame at 400 kHz: {verdict}")
    print("(countdown frames include those carrying a page of the periodic refresh)")


if __name__ == "__main__":
    main()
