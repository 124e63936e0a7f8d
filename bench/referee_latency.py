"""Referee latency: from an observation entering the referee to the frame handed to the
display device (luma's dummy device), over long simulated games of every game at human
pace (presses held while the table settles, no ticks) on a rough table; and the demo wall
time. Inputs that release held presses (the table judged, then every press held meanwhile
applied) are also reported on their own.

Run: `.venv/bin/python bench/referee_latency.py [GAME...]`. The live loop redraws only
when the screen changes, so inputs that change nothing cost only the referee's part. The
games come from the registry: each is played through its own descriptor.
"""

from __future__ import annotations

import io
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from luma.core.device import dummy

from companion import games
from companion.demo import run_demo
from companion.games import TableReferee
from companion.journal import Input
from companion.screens.render import show
from companion.sim.people import Noise

GAMES = 20


class Stopwatch:
    """Feeds every input of a simulated game to a second referee, timing feed -> screen ->
    device (the device only when the screen changed, as the live loop does)."""

    def __init__(
        self, referee: TableReferee, device: dummy, samples: list[float], released: list[float]
    ) -> None:
        self.referee = referee
        self.device = device
        self.samples = samples
        self.released = released
        self.last: object = None

    def __call__(self, record: Input, _sim_referee: Any) -> None:
        held = len(getattr(self.referee, "held", ()))
        start = time.perf_counter()
        self.referee.feed(record)
        screen = self.referee.screen
        if screen != self.last:
            show(self.device, screen)
            self.last = screen
        elapsed = time.perf_counter() - start
        self.samples.append(elapsed)
        if held and not getattr(self.referee, "held", ()):
            self.released.append(elapsed)


def latencies(name: str, games_played: int = GAMES) -> tuple[list[float], list[float], int]:
    """(every input's latency, those that applied held presses, the seats) of one game."""
    game = games.get(name)
    seats = max(game.seats)
    device = dummy(width=128, height=64, mode="1")
    samples: list[float] = []
    released: list[float] = []
    for seed in range(games_played):
        setup = game.simulated_setup(seats, seed)
        watch = Stopwatch(game.referee(setup), device, samples, released)
        game.simulate(setup, on_input=watch, noise=Noise.rough())
    return samples, released, seats


def _report(what: str, samples: list[float]) -> None:
    samples = sorted(samples)
    p50 = statistics.median(samples) * 1000
    p99 = samples[int(len(samples) * 0.99)] * 1000
    print(f"  {what}: {len(samples)} inputs, p50 {p50:.3f} ms, p99 {p99:.3f} ms, "
          f"max {samples[-1] * 1000:.3f} ms")  # fmt: skip


def main(names: list[str]) -> None:
    for name in names or games.names():
        samples, released, seats = latencies(name)
        print(f"{name}: {GAMES} {seats}-player games at human pace on a rough table")
        _report("latency input -> frame on the device", samples)
        if released:
            _report("inputs that applied held presses", released)
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            run_demo(name, games.get(name).default_seats, 1, Path(tmp), out=io.StringIO())
            print(f"  demo wall time (seed 1, with GIF): {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
