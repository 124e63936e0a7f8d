"""The modelled scan cycle of the Pico for a given table: what ``companion doctor`` compares
the firmware's own timings with.

The figures are those of ``bench/scan_cycle.py`` (bench/README.md, its scan_cycle section):
the real firmware against the emulated MFRC522, SPI at 8 MHz (what MicroPython's rp2 port
gives for the 10 MHz asked), settle 300 us, the 300 us no-answer timer, steady state,
7-byte (NTAG) UIDs. Divided by its 18 readers they give what one reader's visit costs by
how many tags lie on it, air and SPI time only:

- 0 tags: 12.64 ms / 18 = 0.702 ms (a WUPA nobody answers: settle plus the timer);
- 1 tag: 26.97 ms / 18 = 1.498 ms (confirmed by its first anticollision answer; every
  ``audit`` cycles by a SELECT of its UID);
- 2 and 3 tags: 7.12 and 10.31 ms (each known tag selected by its UID, then a REQA; every
  ``audit`` cycles one of them read from scratch instead);
- each tag beyond: 3.19 ms more.

On top of that, the interpreter: MicroPython between SPI transactions, measured on the
firmware's own visits under the unix port and charged x114, the factor measured on the
RP2040's own MicroPython in an emulator (``RP2040_FACTOR``, bench/pico_cycle.py): a lower
bound for a real Pico, whose flash cache misses the emulator does not charge. A real
Pico's heartbeat is compared with the charged figure, and gives its own factor
(``implied_factor``).

Each visit's air time includes the antenna's settle (``settle_us``, 300 in the bench): a
table calibrated to another value (``[readers] settle_us``) is modelled with it.

A reader's visits are independent, so on one bus the cycle is their sum. With the readers
wired on two buses, each scanned by its own RP2040 core in lockstep (firmware/cores.py), a
cycle ends when the slower bus is done: the larger of the two sums. ``tests/devices/
test_scan_model.py`` holds the air-and-SPI figures equal to the emulated firmware.
"""

from __future__ import annotations

from collections.abc import Sequence

VISIT_MS = (0.702, 1.498, 7.120, 10.306)
"""Modelled air and SPI time of one reader's visit holding 0, 1, 2, 3 tags (ms)."""
EXTRA_TAG_MS = 3.186
"""Each tag beyond the last entry of ``VISIT_MS`` (ms): one more tag selected by its UID."""
RP2040_FACTOR = 114
"""How many times longer MicroPython runs the firmware on an RP2040 at 125 MHz than the unix
port on the x86 core of bench/scan_cycle.py's RECORDED_FIT: measured, the firmware run on
the Pico's own MicroPython v1.28.0 in the rp2040js emulator (bench/pico_cycle.py); a lower
bound, as the emulator does not charge flash cache misses. ``implied_factor`` gives a real
Pico's."""
FACTOR_SOURCE = "measured on an emulated RP2040, bench/pico_cycle.py"
"""Where ``RP2040_FACTOR`` comes from, as the doctor says it."""
INTERPRETER_MS = (0.408, 0.871, 2.187, 3.062)
"""MicroPython's time in the same visits on an RP2040 (ms): x86 unix-port time x
``RP2040_FACTOR``."""
EXTRA_TAG_INTERPRETER_MS = 0.875
"""The interpreter's time for each tag beyond the last entry of ``INTERPRETER_MS`` (ms)."""
BENCH_SETTLE_US = 300
"""The settle time in ``VISIT_MS``: every visit of another ``settle_us`` differs by the
difference."""
SLOWER_FACTOR = 1.5
"""A measured median cycle above this many times the model is worth a look."""


def _table(table: Sequence[float], extra: float, tags: int) -> float:
    if tags < 0:
        raise ValueError(f"a reader holds 0 or more tags, not {tags}")
    last = len(table) - 1
    return table[tags] if tags <= last else table[last] + (tags - last) * extra


def visit_ms(tags: int, interpreter: bool = True, settle_us: int = BENCH_SETTLE_US) -> float:
    """Modelled time of one reader's visit with ``tags`` tags on it (ms); without the
    interpreter's time, air and SPI only."""
    air = _table(VISIT_MS, EXTRA_TAG_MS, tags) + (settle_us - BENCH_SETTLE_US) / 1000
    return air + _table(INTERPRETER_MS, EXTRA_TAG_INTERPRETER_MS, tags) if interpreter else air


def _bus_sums(
    tags_per_reader: Sequence[int], buses: Sequence[int] | None, settle_us: int
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
        sums[bus] = (air_sum + air, interpreter_sum + visit_ms(tags, settle_us=settle_us) - air)
    return sums


def cycle_ms(
    tags_per_reader: Sequence[int],
    interpreter: bool = True,
    buses: Sequence[int] | None = None,
    settle_us: int = BENCH_SETTLE_US,
) -> float:
    """Modelled scan cycle (ms) of a table whose scanned readers hold these many tags each
    (a faulty reader is not scanned: leave it out). ``buses``: the bus (0 or 1) of each of
    those readers when they are on two, scanned at the same time; None: all on one."""
    sums = _bus_sums(tags_per_reader, buses, settle_us)
    return max(air + (python if interpreter else 0.0) for air, python in sums)


def implied_factor(
    median_cycle_ms: float,
    tags_per_reader: Sequence[int],
    buses: Sequence[int] | None = None,
    settle_us: int = BENCH_SETTLE_US,
) -> float | None:
    """The interpreter factor (x86 unix port to this Pico) at which the model gives the
    measured cycle: this Pico's own ``RP2040_FACTOR``. None when the cycle is
    no longer than the air and SPI time alone (nothing left to put on the interpreter).

    Each bus's time grows with the factor, and the cycle is the slower bus's, so the
    factor is the smallest at which some bus reaches the measured cycle."""
    sums = _bus_sums(tags_per_reader, buses, settle_us)
    if median_cycle_ms <= max(air for air, _ in sums):
        return None
    return min(
        RP2040_FACTOR * (median_cycle_ms - air) / python for air, python in sums if python > 0
    )


def slower_than_model(median_cycle_ms: float, model_ms: float) -> bool:
    """True when a measured median cycle is more than ``SLOWER_FACTOR`` times the model."""
    return model_ms > 0 and median_cycle_ms > SLOWER_FACTOR * model_ms
