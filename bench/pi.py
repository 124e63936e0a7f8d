"""What this host's figures mean on a Raspberry Pi: a measured host-to-Pi ratio.

The table runs on a Raspberry Pi 4 (Cortex-A72) and may run on a Pi Zero 2 W
(Cortex-A53); the benches run here, on an x86 host. A pure-Python figure measured here,
times `Ratio.pi4` (or `Ratio.zero2w`), is what it would be on that Pi: every bench states
its targets on the Pi's figure (`on_pi`).

**Pi 4, measured against a published figure.** The host runs the n-body simulation of
the Computer Language Benchmarks Game (five bodies, `advance` with dt 0.01; pyperformance
carries the same program as "nbody"), in CPU time, several short runs scaled to 5,000,000
steps. The published figure: 158.26 s for 5,000,000 steps in Python on a Raspberry Pi 4
Model B (Rev 1.1, 4 GB, the performance governor holding 1.5 GHz, not throttled), C.
Mehta, "Performance Analysis of Languages on Raspberry Pi", 2020-01-28,
https://chaitanyamehta.github.io/projects/performance-analysis-of-programming-languages
(`PI4_NBODY`). The page names no Python version; a Pi 4 of January 2020 ran Raspbian
Buster, whose `python3` is CPython 3.7. So the ratio is measured twice, against this
host's CPython 3.7 when it has one (like for like: `pi4`) and against the interpreter the
table runs (3.11: `pi4_same`, larger, since 3.11 is faster here and the Pi's figure is
3.7's). `pi4` is the one charged: a Pi 4 running the table's own CPython 3.11 would be at
least as fast as that, so the Pi figures are if anything pessimistic. Which of the
Benchmarks Game's Python n-body programs the page ran is not said either; they differ by
tens of per cent.

**Pi Zero 2 W, estimated (no published pure-Python figure found).** The Zero 2 W's
RP3A0 holds the Pi 3 B+'s BCM2710 silicon (four Cortex-A53) clocked at 1.0 GHz where the
Pi 3 B+ runs 1.4 GHz. Its single-thread factor against the Pi 4 is taken from one
published comparison of both boards' single-thread scores (sysbench 1.0.20 `cpu`, one
thread): Raspberry Pi 4 1,477.83 events/s, Raspberry Pi 3+ 687.45 (leoncode.co.uk,
"Raspberry Pi CPU Benchmarks", https://leoncode.co.uk/articles/raspberry-pi-benchmarks),
scaled by the clocks, 1.4 / 1.0; the page does not say whether its Pi 4 ran at 1.5 or 1.8
GHz, so the factor is 2.5 (at 1.8) to 3.0 (at 1.5) times the Pi 4's ratio, and verdicts
use 3.0 (`ZERO2W_FACTOR`). A C benchmark's factor is not an interpreter's: this Zero 2 W
figure is an estimate, said so wherever it is printed.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

PI4_NBODY = 158.26
"""Seconds for 5,000,000 n-body steps in Python on a Raspberry Pi 4 at 1.5 GHz (see the
module's docstring for the source)."""
NBODY_STEPS = 5_000_000
ZERO2W_FACTOR = (2.5, 3.0)
"""A Zero 2 W's single-thread time over a Pi 4's (1.5 GHz): estimated, the module's
docstring says from what; verdicts use the upper end."""
SOURCE = (
    "Pi 4: this host's CPU time for the Benchmarks Game's n-body in CPython 3.7 against "
    "158.26 s published for a Pi 4 at 1.5 GHz (chaitanyamehta.github.io, 2020, Raspbian "
    "Buster); Zero 2 W: estimated, 2.5–3.0 times a Pi 4 from published single-thread "
    "sysbench scores (leoncode.co.uk) and the clocks (bench/pi.py says how)"
)

_NBODY = r"""
import sys, time
PI = 3.14159265358979323
SOLAR_MASS = 4 * PI * PI
DAYS_PER_YEAR = 365.24
# x, y, z, vx, vy, vz, mass: the Sun, Jupiter, Saturn, Uranus, Neptune
BODIES = [
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, SOLAR_MASS],
    [4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
     1.66007664274403694e-03 * DAYS_PER_YEAR, 7.69901118419740425e-03 * DAYS_PER_YEAR,
     -6.90460016972063023e-05 * DAYS_PER_YEAR, 9.54791938424326609e-04 * SOLAR_MASS],
    [8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
     -2.76742510726862411e-03 * DAYS_PER_YEAR, 4.99852801234917238e-03 * DAYS_PER_YEAR,
     2.30417297573763929e-05 * DAYS_PER_YEAR, 2.85885980666130812e-04 * SOLAR_MASS],
    [1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
     2.96460137564761618e-03 * DAYS_PER_YEAR, 2.37847173959480950e-03 * DAYS_PER_YEAR,
     -2.96589568540237556e-05 * DAYS_PER_YEAR, 4.36624404335156298e-05 * SOLAR_MASS],
    [1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
     2.68067772490389322e-03 * DAYS_PER_YEAR, 1.62824170038242295e-03 * DAYS_PER_YEAR,
     -9.51592254519715870e-05 * DAYS_PER_YEAR, 5.15138902046611451e-05 * SOLAR_MASS],
]

def offset_momentum(bodies):
    px = py = pz = 0.0
    for b in bodies:
        px -= b[3] * b[6]
        py -= b[4] * b[6]
        pz -= b[5] * b[6]
    sun = bodies[0]
    sun[3], sun[4], sun[5] = px / SOLAR_MASS, py / SOLAR_MASS, pz / SOLAR_MASS

def energy(bodies):
    e = 0.0
    for i, a in enumerate(bodies):
        e += 0.5 * a[6] * (a[3] * a[3] + a[4] * a[4] + a[5] * a[5])
        for b in bodies[i + 1:]:
            dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
            e -= a[6] * b[6] / (dx * dx + dy * dy + dz * dz) ** 0.5
    return e

def advance(bodies, pairs, steps, dt=0.01):
    for _ in range(steps):
        for a, b in pairs:
            dx = a[0] - b[0]
            dy = a[1] - b[1]
            dz = a[2] - b[2]
            mag = dt * (dx * dx + dy * dy + dz * dz) ** -1.5
            bm = b[6] * mag
            am = a[6] * mag
            a[3] -= dx * bm
            a[4] -= dy * bm
            a[5] -= dz * bm
            b[3] += dx * am
            b[4] += dy * am
            b[5] += dz * am
        for b in bodies:
            b[0] += dt * b[3]
            b[1] += dt * b[4]
            b[2] += dt * b[5]

steps, runs = int(sys.argv[1]), int(sys.argv[2])
bodies = [list(b) for b in BODIES]
pairs = [(bodies[i], bodies[j]) for i in range(5) for j in range(i + 1, 5)]
offset_momentum(bodies)
assert abs(energy(bodies) + 0.169075164) < 1e-9, energy(bodies)  # the program's own check
for _ in range(runs):
    started = time.process_time()
    advance(bodies, pairs, steps)
    print(time.process_time() - started, flush=True)
"""


def nbody_seconds(python: str, steps: int, runs: int) -> list[float]:
    """CPU seconds of `runs` runs of `steps` n-body steps under the interpreter `python`."""
    done = subprocess.run(
        [python, "-c", _NBODY, str(steps), str(runs)],
        capture_output=True, text=True, check=True, timeout=600,
    )  # fmt: skip
    return [float(line) for line in done.stdout.split()]


def python37() -> str | None:
    """A CPython 3.7 on this host (the Pi's figure is 3.7's), else None."""
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = [str(p) for p in sorted(root.glob("3.7*/bin/python3.7"))]
    candidates += [c for c in [shutil.which("python3.7")] if c]
    for candidate in candidates:
        done = subprocess.run([candidate, "-c", ""], capture_output=True, check=False)
        if done.returncode == 0:
            return candidate
    return None


@dataclass(frozen=True)
class Ratio:
    """How many times slower a Pi is than this host, for pure Python (CPU time)."""

    pi4_runs: tuple[float, ...]
    """The Pi 4's time over this host's, one a run (like for like: CPython 3.7 here when
    there is one)."""
    pi4_same_runs: tuple[float, ...]
    """The same against this host's own interpreter (the table's)."""
    host_37: bool
    """`pi4_runs` were measured under CPython 3.7."""

    @property
    def pi4(self) -> float:
        return statistics.median(self.pi4_runs)

    @property
    def pi4_same(self) -> float:
        return statistics.median(self.pi4_same_runs)

    @property
    def zero2w(self) -> float:
        """Estimated, the upper end of `ZERO2W_FACTOR` (pessimistic)."""
        return self.pi4 * ZERO2W_FACTOR[1]

    @property
    def spread(self) -> float:
        """The runs' relative half-range around the median: noise in a Pi figure."""
        return round((max(self.pi4_runs) - min(self.pi4_runs)) / 2 / self.pi4, 3)

    def line(self) -> str:
        """One sentence for a section: the ratios and how they were obtained."""
        interp = "CPython 3.7" if self.host_37 else f"CPython {sys.version.split()[0]}"
        return (
            f"Pi figures: this host's CPU time ×{self.pi4:.1f} for a Pi 4 (runs "
            f"{min(self.pi4_runs):.1f}–{max(self.pi4_runs):.1f}; n-body under {interp} "
            f"here against the figure published for a Pi 4 at 1.5 GHz; ×{self.pi4_same:.1f} "
            f"against this host's CPython {sys.version.split()[0]}), ×{self.zero2w:.1f} for a "
            f"Zero 2 W (estimated: {ZERO2W_FACTOR[0]:g}–{ZERO2W_FACTOR[1]:g} times a Pi 4, "
            "bench/pi.py)."
        )


def measure(quick: bool = False) -> Ratio:
    """The ratio, measured now: 5 runs (quick: 3) of 100,000 steps, under CPython 3.7
    (when there is one) and this interpreter, interleaved."""
    steps, runs = 100_000, 3 if quick else 5
    old = python37()
    same: list[float] = []
    like: list[float] = []
    for _ in range(runs):
        same += nbody_seconds(sys.executable, steps, 1)
        if old is not None:
            like += nbody_seconds(old, steps, 1)
    scale = NBODY_STEPS / steps
    same_ratio = tuple(PI4_NBODY / (s * scale) for s in same)
    like_ratio = tuple(PI4_NBODY / (s * scale) for s in like) if like else same_ratio
    return Ratio(like_ratio, same_ratio, old is not None)


_CACHED: Ratio | None = None


def ratio(quick: bool = False) -> Ratio:
    """The ratio, measured once per process."""
    global _CACHED
    if _CACHED is None:
        _CACHED = measure(quick)
    return _CACHED


def on_pi(host: float, r: Ratio, digits: int = 1) -> str:
    """`host` (a time measured here) as "Pi 4 X / Zero 2 W Y" in the same unit."""
    return f"{host * r.pi4:,.{digits}f} / {host * r.zero2w:,.{digits}f}"


def readme(quick: bool) -> str:
    """bench/README.md's section: the ratio, measured now, and its sources."""
    r = measure(quick)
    host_37 = "CPython 3.7" if r.host_37 else "(no CPython 3.7 here: the table's own)"
    here = sys.version.split()[0]
    rows = "\n".join(
        (
            f"| times slower than this host, pure Python | ×{r.pi4:.1f} (runs {min(r.pi4_runs):.1f}"
            f"–{max(r.pi4_runs):.1f}), measured | ×{r.zero2w:.1f} "
            f"(×{r.pi4 * ZERO2W_FACTOR[0]:.1f}–{r.zero2w:.1f}), estimated |",
            f"| against this host's CPython {here} | ×{r.pi4_same:.1f} | "
            f"×{r.pi4_same * ZERO2W_FACTOR[1]:.1f} |",
        )
    )
    return f"""## pi.py — what a figure measured here is on a Raspberry Pi

`.venv/bin/python bench/pi.py` runs the Computer Language Benchmarks Game's n-body
(pyperformance's "nbody"; 100,000 steps a run, {len(r.pi4_runs)} runs, CPU time, scaled to
5,000,000 steps) under {host_37} and under this interpreter, interleaved, and divides the
time published for a Raspberry Pi 4 by it. Every bench that states a Pi figure measures
this ratio again in its own run and multiplies its host figure (CPU time) by it.

| | Pi 4 (1.5 GHz) | Zero 2 W (1.0 GHz) |
|---|---|---|
{rows}

Sources: the Pi 4's 158.26 s for 5,000,000 steps (performance governor, 1.5 GHz, no
throttling) is C. Mehta's "Performance Analysis of Languages on Raspberry Pi" (2020-01-28,
https://chaitanyamehta.github.io/projects/performance-analysis-of-programming-languages);
a Pi 4 of that date ran Raspbian Buster's CPython 3.7, so the like-for-like ratio is the
one charged, and a Pi 4 running the table's CPython 3.11 would do at least as well. The
page names neither its Python nor which of the Benchmarks Game's n-body programs it ran.
The Zero 2 W has no published pure-Python figure that we found: its factor over a Pi 4,
2.5–3.0, is estimated from published single-thread sysbench scores (Raspberry Pi 4
1,477.83 and Raspberry Pi 3+ 687.45 events/s, https://leoncode.co.uk/articles/raspberry-pi-benchmarks)
and the clocks (the Zero 2 W's Cortex-A53 at 1.0 GHz, the Pi 3 B+'s at 1.4; the page's Pi
4 at 1.5 or 1.8 GHz, not said); verdicts use 3.0. What the ratio does not cover: the SD
card (a start reads a few MB of bytecode), the memory bus, and C libraries whose speed
differs from the interpreter's (Pillow's drawing, json, zlib).
"""


def main() -> None:
    r = measure()
    print(r.line())


if __name__ == "__main__":
    main()
