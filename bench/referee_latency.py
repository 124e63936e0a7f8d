"""Referee latency: from an observation entering the referee to the frame handed to the
display device (luma's dummy device), over long simulated games at human pace (presses held
while the table settles, no ticks); and the demo wall time. Inputs that release held
presses (the table judged, then every press held meanwhile applied) are also reported
on their own.

Run: `.venv/bin/python bench/referee_latency.py`. The live loop redraws only when the
screen changes, so inputs that change nothing cost only the referee's part.
"""

from __future__ import annotations

import io
import statistics
import tempfile
import time
from pathlib import Path

from luma.core.device import dummy

from companion.demo import run_demo
from companion.journal import Input
from companion.referee.passpass import PassPassReferee
from companion.screens.render import show
from companion.sim.driver import Noise, SimulatedGame, make_setup


class Stopwatch:
    """Feeds every input of a simulated game to a second referee, timing feed -> screen ->
    device (the device only when the screen changed, as the live loop does)."""

    def __init__(
        self, referee: PassPassReferee, device: dummy, samples: list[float], released: list[float]
    ) -> None:
        self.referee = referee
        self.device = device
        self.samples = samples
        self.released = released
        self.last: object = None

    def __call__(self, record: Input, _sim_referee: PassPassReferee) -> None:
        held = len(self.referee.held)
        start = time.perf_counter()
        self.referee.feed(record)
        screen = self.referee.screen
        if screen != self.last:
            show(self.device, screen)
            self.last = screen
        elapsed = time.perf_counter() - start
        self.samples.append(elapsed)
        if held and not self.referee.held:
            self.released.append(elapsed)


def latencies(games: int = 20) -> tuple[list[float], list[float]]:
    device = dummy(width=128, height=64, mode="1")
    samples: list[float] = []
    released: list[float] = []
    for seed in range(games):
        setup = make_setup("ptipasspass", 6, seed)
        watch = Stopwatch(PassPassReferee(setup), device, samples, released)
        SimulatedGame(setup, noise=Noise.rough(), on_input=watch).run()
    return samples, released


def _report(what: str, samples: list[float]) -> None:
    samples = sorted(samples)
    p50 = statistics.median(samples) * 1000
    p99 = samples[int(len(samples) * 0.99)] * 1000
    print(f"{what}: {len(samples)} inputs, p50 {p50:.3f} ms, p99 {p99:.3f} ms, "
          f"max {samples[-1] * 1000:.3f} ms")  # fmt: skip


def main() -> None:
    samples, released = latencies()
    print("20 six-player games at human pace with a rough table")
    _report("latency input -> frame on the device", samples)
    _report("inputs that applied held presses", released)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        run_demo("ptipasspass", 4, 1, Path(tmp), out=io.StringIO())
        print(f"demo wall time (4 players, seed 1, with GIF): {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
