"""The modelled scan cycle of the Pico for a given table: what ``companion doctor`` compares
the firmware's own timings with.

Two parts, both from the real firmware (bench/README.md, its scan_cycle and pico_cycle
sections):

- the air and the bus: the firmware against the emulated MFRC522 (bench/scan_cycle.py),
  SPI at 8 MHz (what MicroPython's rp2 port gives for the 10 MHz asked), settle 300 us,
  the 300 us no-answer timer, steady state, 7-byte (NTAG) UIDs. One reader's visit costs,
  by how many tags lie on it (``VISIT_MS``): 0 tags, a WUPA nobody answers (settle plus
  the timer); 1 tag, confirmed by its first anticollision answer (every ``audit`` cycles
  by a SELECT of its UID); 2 and 3 tags, the tree of their first anticollision answers
  walked (every ``audit`` cycles each known tag selected by its UID and one of them read
  from scratch instead); each tag beyond, two more anticollision frames. ``VISIT_EVENTS``
  counts what such a visit does: SPI transactions, radio frames, anticollision frames;
- MicroPython's own time: the RP2040's cost of each of those events, of a visit, and of
  a cycle's bookkeeping (``RP2040_US``), fitted by bench/pico_cycle.py to the firmware's
  scan cycles on both cores of the emulated RP2040
  (MicroPython v1.28.0 for the Pico in rp2040js, instructions counted at 125 MHz): a
  property of the chip and the firmware, not of the machine that ran the fit. The
  emulator charges no flash (XIP) cache miss, so these costs are a lower bound;
  ``RP2040_XIP_US``, fitted with a cache model that charges 50 cycles a miss, an upper
  bound. A real Pico's heartbeat gives its own measure (``implied_scale``).

Each visit's air time includes the antenna's settle (``settle_us``, 300 in the bench): a
table calibrated to another value (``[readers] settle_us``) is modelled with it.

A reader's visits are independent, so on one bus the cycle is their sum, and the cycle's
bookkeeping. With the readers wired on two buses, each scanned by its own RP2040 core in
lockstep (firmware/cores.py), a cycle ends when the slower bus is done. The model is
within 5 % of the emulated firmware's median cycles (2.5 % for tables holding tags,
bench/README.md); ``tests/devices/test_scan_model.py`` holds its figures to the emulated
firmware.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Cost(NamedTuple):
    """MicroPython's time on an RP2040 at 125 MHz (us) per SPI transaction, radio frame,
    anticollision frame (on top of a frame), reader visit, and per scan cycle for the
    bookkeeping around the visits (``merge``: on two buses the cores' lockstep and core
    0's gathering of core 1's results are in it)."""

    txn: float
    frame: float
    anticollision: float
    visit: float
    merge: float


class Events(NamedTuple):
    """What one reader's visit does, on average over an audit round."""

    txns: float
    frames: float
    anticollisions: float


VISIT_MS = (0.702, 1.498, 3.066, 4.588)
"""Modelled air and SPI time of one reader's visit holding 0, 1, 2, 3 tags (ms)."""
EXTRA_TAG_MS = 1.522
"""Each tag beyond the last entry of ``VISIT_MS`` (ms): two more frames of the walk."""
VISIT_EVENTS = (
    Events(9.0, 1.0, 0.0),
    Events(14.53, 2.09, 0.97),
    Events(25.22, 4.22, 2.97),
    Events(35.59, 6.28, 4.91),
)
"""What a visit of a reader holding 0, 1, 2, 3 tags does, per visit."""
EXTRA_TAG_EVENTS = Events(10.38, 2.06, 1.94)
"""What each tag beyond the last entry of ``VISIT_EVENTS`` adds."""
RP2040_US = Cost(txn=12.84, frame=154.8, anticollision=266.1, visit=32.2, merge=1625.4)
"""The RP2040's own cost per event, no flash cache miss charged (a lower bound)."""
RP2040_XIP_US = Cost(txn=14.44, frame=198.2, anticollision=309.3, visit=68.8, merge=1991.2)
"""The same with every flash cache miss charged 50 cycles (an upper bound)."""
COST_SOURCE = "the RP2040's costs fitted on both cores of the emulated chip, bench/pico_cycle.py"
"""Where ``RP2040_US`` comes from, as the doctor says it."""
BENCH_SETTLE_US = 300
"""The settle time in ``VISIT_MS``: every visit of another ``settle_us`` differs by the
difference."""
SLOWER_FACTOR = 1.5
"""A measured median cycle above this many times the model is worth a look."""


def _entry(table: Sequence[float], extra: float, tags: int) -> float:
    if tags < 0:
        raise ValueError(f"a reader holds 0 or more tags, not {tags}")
    last = len(table) - 1
    return table[tags] if tags <= last else table[last] + (tags - last) * extra


def events(tags: int) -> Events:
    """What a visit of a reader holding ``tags`` tags does."""
    return Events(
        *(
            _entry([e[i] for e in VISIT_EVENTS], EXTRA_TAG_EVENTS[i], tags)
            for i in range(len(EXTRA_TAG_EVENTS))
        )
    )


def interpreter_ms(tags: int, cost: Cost = RP2040_US) -> float:
    """MicroPython's time in a visit of a reader holding ``tags`` tags (ms)."""
    e = events(tags)
    return (
        e.txns * cost.txn + e.frames * cost.frame + e.anticollisions * cost.anticollision
    ) / 1000 + cost.visit / 1000


def visit_ms(
    tags: int, interpreter: bool = True, settle_us: int = BENCH_SETTLE_US, cost: Cost = RP2040_US
) -> float:
    """Modelled time of one reader's visit with ``tags`` tags on it (ms); without the
    interpreter's time, air and SPI only."""
    air = _entry(VISIT_MS, EXTRA_TAG_MS, tags) + (settle_us - BENCH_SETTLE_US) / 1000
    return air + interpreter_ms(tags, cost) if interpreter else air


def _bus_sums(
    tags_per_reader: Sequence[int], buses: Sequence[int] | None, settle_us: int, cost: Cost
) -> list[tuple[float, float]]:
    """(air and SPI, interpreter) ms of each bus's readers, visited one after the other."""
    if buses is None:
        buses = [0] * len(tags_per_reader)
    if len(buses) != len(tags_per_reader):
        raise ValueError("one bus per reader")
    sums = [(0.0, 0.0), (0.0, 0.0)]
    for tags, bus in zip(tags_per_reader, buses, strict=True):
        air = visit_ms(tags, interpreter=False, settle_us=settle_us)
        air_sum, interpreter_sum = sums[bus]
        sums[bus] = (air_sum + air, interpreter_sum + interpreter_ms(tags, cost))
    return sums


def cycle_ms(
    tags_per_reader: Sequence[int],
    interpreter: bool = True,
    buses: Sequence[int] | None = None,
    settle_us: int = BENCH_SETTLE_US,
    cost: Cost = RP2040_US,
) -> float:
    """Modelled scan cycle (ms) of a table whose scanned readers hold these many tags each
    (a faulty reader is not scanned: leave it out). ``buses``: the bus (0 or 1) of each of
    those readers when they are on two, scanned at the same time; None: all on one."""
    sums = _bus_sums(tags_per_reader, buses, settle_us, cost)
    if not interpreter:
        return max(air for air, _ in sums)
    return max(air + python for air, python in sums) + cost.merge / 1000


def implied_scale(
    median_cycle_ms: float,
    tags_per_reader: Sequence[int],
    buses: Sequence[int] | None = None,
    settle_us: int = BENCH_SETTLE_US,
) -> float | None:
    """How many times the emulated RP2040's MicroPython time (``RP2040_US``) this Pico's
    measured cycle implies: about 1 for a Pico as the emulator runs it, a little more
    with the flash cache's misses. None when the cycle is no longer than the air and SPI
    time alone (nothing left to put on the interpreter).

    Each bus's time grows with the scale, and the cycle is the slower bus's, so the scale
    is the smallest at which some bus reaches the measured cycle."""
    sums = _bus_sums(tags_per_reader, buses, settle_us, RP2040_US)
    if median_cycle_ms <= max(air for air, _ in sums):
        return None
    merge = RP2040_US.merge / 1000
    return min(
        (median_cycle_ms - air) / (python + merge) for air, python in sums if python + merge > 0
    )


def slower_than_model(median_cycle_ms: float, model_ms: float) -> bool:
    """True when a measured median cycle is more than ``SLOWER_FACTOR`` times the model."""
    return model_ms > 0 and median_cycle_ms > SLOWER_FACTOR * model_ms
