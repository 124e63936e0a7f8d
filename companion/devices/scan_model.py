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
  walked; each tag beyond, two more anticollision frames. A bus holding hats also reads
  the rest of one hat tag's UID a cycle (``CHECK_MS``), but in a cycle holding an audit.
  ``VISIT_EVENTS`` and ``CHECK_EVENTS`` count what a visit and a check do: SPI
  transactions, radio frames, anticollision frames;
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

A reader's visits are independent, so on one bus the cycle is their sum, a hat tag's
check when the bus holds hats, and the cycle's bookkeeping. With the readers wired on two
buses, each scanned by its own RP2040 core in lockstep (firmware/cores.py), a cycle ends
when the slower bus is done; the longest cycle holds each bus's costliest audit, or its
hat tag's check when that costs more (``worst_cycle_ms``).

The costs are fitted to the firmware whose hats' tags are checked one a cycle (issue 38;
a frame's cost went from 164.5 to 181.8 us over its last rounds). Charged per event on
scan_cycle's emulated chips, they give each of the 11 tables of bench/README.md's
pico_cycle section a median cycle within 1.2 % of the emulated board's own (its ``T``
frame) with no miss, 3.9 % with the cache model. The sums here (``cycle_ms``) are means,
each reader's audit and the hats' checks averaged in, and add a frame's whole cost where
the firmware overlaps part of it with the air: they run up to 5.9 % above the board's
median cycle (7.5 % with the cache model), and a few % below it on one bus of 19 readers
(the same section, its last table).
tests/devices/test_scan_model.py holds these figures to the emulated firmware.
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


VISIT_MS = (0.702, 1.498, 2.889, 4.357)
"""Modelled air and SPI time of one reader's visit holding 0, 1, 2, 3 tags (ms)."""
EXTRA_TAG_MS = 1.468
"""Each tag beyond the last entry of ``VISIT_MS`` (ms): two more frames of the walk."""
VISIT_EVENTS = (
    Events(9.0, 1.0, 0.0),
    Events(14.53, 2.09, 0.97),
    Events(24.0, 4.0, 3.0),
    Events(34.0, 6.0, 5.0),
)
"""What a visit of a reader holding 0, 1, 2, 3 tags does, per visit."""
EXTRA_TAG_EVENTS = Events(10.0, 2.0, 2.0)
"""What each tag beyond the last entry of ``VISIT_EVENTS`` adds."""
AUDIT_CYCLES = 32
"""The firmware's audit period (``Scanner.audit``): the averages above hold one audit in
this many visits."""
AUDIT_VISIT_MS = (0.702, 3.888, 2.889, 4.357)
"""The same of a visit at its audit (every ``audit`` cycles, staggered so that a bus has at
most one a cycle): one long UID selected by its UID, halted, then a REQA (ms). A hat's
tags, told apart by their first answers, are checked one a cycle instead (``CHECK_MS``):
its audit is its walk."""
AUDIT_EXTRA_TAG_MS = EXTRA_TAG_MS
"""Each tag beyond the last entry of ``AUDIT_VISIT_MS`` (ms)."""
AUDIT_VISIT_EVENTS = (
    Events(9.0, 1.0, 0.0),
    Events(31.0, 5.0, 0.0),
    Events(24.0, 4.0, 3.0),
    Events(34.0, 6.0, 5.0),
)
"""What an audited visit of a reader holding 0, 1, 2, 3 tags does."""
AUDIT_EXTRA_TAG_EVENTS = EXTRA_TAG_EVENTS
"""What each tag beyond the last entry of ``AUDIT_VISIT_EVENTS`` adds."""
CHECK_MS = 1.914
"""Air and SPI time of a hat tag's check (ms): after its reader's walk, a SELECT by the
tag's first answer and the next cascade level's anticollision. A bus holding hats makes
one a cycle, but in a cycle holding an audit (firmware/scanner.py)."""
CHECK_EVENTS = Events(10.0, 2.0, 1.0)
"""What a hat tag's check does."""
RP2040_US = Cost(txn=12.84, frame=181.8, anticollision=145.5, visit=32.2, merge=1397.2)
"""The RP2040's own cost per event, no flash cache miss charged (a lower bound). A walked
visit is a WUPA and as many frames as anticollision frames, so the fit cannot tell a
visit's own cost from its frames': it is held at its fit of when hats were selected tag by
tag (bench/pico_cycle.py, ``VISIT_US``)."""
RP2040_XIP_US = Cost(txn=14.44, frame=242.0, anticollision=146.4, visit=68.8, merge=1511.8)
"""The same with every flash cache miss charged 50 cycles (an upper bound)."""
BENCH_SETTLE_US = 300
"""The settle time in ``VISIT_MS``: every visit of another ``settle_us`` differs by the
difference."""
SLOWER_FACTOR = 1.5
"""A measured median cycle above this many times the model is worth a look."""
ONE_TAG_TARGET_MS = 30.0
"""The worst scan cycle a table with one tag on every reader is meant to keep to."""
HATS_TARGET_MS = 45.0
"""The worst scan cycle with two hats of three tokens anywhere, one tag on every other
reader: a hat is any spot, so both may lie on the same bus."""
MODEL_ERROR = 0.05
"""The firmware's cycles at these costs on the emulated chips (bench/scan_cycle.py) are
within 5 % of the emulated RP2040's median cycles at either bound (1.2 % at most with no
miss, 3.9 % with the cache model: bench/pico_cycle.py): a target closer than that to a
modelled cycle is within noise. (The sums of ``cycle_ms`` err more, above: see there.)"""


def _entry(table: Sequence[float], extra: float, tags: int) -> float:
    if tags < 0:
        raise ValueError(f"a reader holds 0 or more tags, not {tags}")
    last = len(table) - 1
    return table[tags] if tags <= last else table[last] + (tags - last) * extra


def events(tags: int, audit: bool = False) -> Events:
    """What a visit of a reader holding ``tags`` tags does (at its audit, with ``audit``)."""
    table, extra = (
        (AUDIT_VISIT_EVENTS, AUDIT_EXTRA_TAG_EVENTS)
        if audit
        else (
            VISIT_EVENTS,
            EXTRA_TAG_EVENTS,
        )
    )
    return Events(*(_entry([e[i] for e in table], extra[i], tags) for i in range(len(extra))))


def interpreter_ms(tags: int, cost: Cost = RP2040_US, audit: bool = False) -> float:
    """MicroPython's time in a visit of a reader holding ``tags`` tags (ms)."""
    e = events(tags, audit)
    return (
        e.txns * cost.txn + e.frames * cost.frame + e.anticollisions * cost.anticollision
    ) / 1000 + cost.visit / 1000


def check_ms(interpreter: bool = True, cost: Cost = RP2040_US) -> float:
    """Modelled time of one hat tag's check (ms); without the interpreter's time, air and
    SPI only."""
    if not interpreter:
        return CHECK_MS
    e = CHECK_EVENTS
    return (
        CHECK_MS
        + (e.txns * cost.txn + e.frames * cost.frame + e.anticollisions * cost.anticollision) / 1000
    )


def _checks(tags: Sequence[int]) -> float:
    """The share of cycles in which a bus whose readers hold ``tags`` checks a hat's tag:
    every cycle it holds a hat, but those holding a reader's audit (one long UID each,
    staggered: one such reader in ``AUDIT_CYCLES`` cycles)."""
    if not any(t > 1 for t in tags):
        return 0.0
    return max(0.0, 1 - sum(1 for t in tags if t == 1) / AUDIT_CYCLES)


def visit_ms(
    tags: int,
    interpreter: bool = True,
    settle_us: int = BENCH_SETTLE_US,
    cost: Cost = RP2040_US,
    audit: bool = False,
) -> float:
    """Modelled time of one reader's visit with ``tags`` tags on it (ms), on average over
    its audit round (``audit``: the visit at its audit); without the interpreter's time,
    air and SPI only."""
    table, extra = (AUDIT_VISIT_MS, AUDIT_EXTRA_TAG_MS) if audit else (VISIT_MS, EXTRA_TAG_MS)
    air = _entry(table, extra, tags) + (settle_us - BENCH_SETTLE_US) / 1000
    return air + interpreter_ms(tags, cost, audit) if interpreter else air


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
    for bus in (0, 1):
        share = _checks([t for t, b in zip(tags_per_reader, buses, strict=True) if b == bus])
        air = check_ms(interpreter=False)
        air_sum, interpreter_sum = sums[bus]
        sums[bus] = (
            air_sum + share * air,
            interpreter_sum + share * (check_ms(cost=cost) - air),
        )
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


def worst_cycle_ms(
    tags_per_reader: Sequence[int],
    buses: Sequence[int] | None = None,
    settle_us: int = BENCH_SETTLE_US,
    cost: Cost = RP2040_US,
) -> float:
    """Modelled longest scan cycle (ms), what the targets are held on: each bus's visits
    between audits, and its costliest one at its audit or its hat tag's check, whichever
    costs more (audits are staggered, and no check falls in a cycle with one: at most one
    of them a bus in a cycle)."""
    if buses is None:
        buses = [0] * len(tags_per_reader)
    longest = 0.0
    for bus in (0, 1):
        mine = [t for t, b in zip(tags_per_reader, buses, strict=True) if b == bus]
        between, extra = 0.0, check_ms(cost=cost) if _checks(mine) else 0.0
        for tags in mine:
            average = visit_ms(tags, settle_us=settle_us, cost=cost)
            audited = visit_ms(tags, settle_us=settle_us, cost=cost, audit=True)
            steady = average - (audited - average) / (AUDIT_CYCLES - 1)
            between += steady
            extra = max(extra, audited - steady)
        longest = max(longest, between + extra)
    return longest + cost.merge / 1000


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


def _in_time(readers: int, settle_us: int) -> bool:
    """Whether one bus of ``readers`` readers keeps to both targets whatever lies where
    (the model's error counted): one tag on each, or two hats of three among them."""
    one_tag = worst_cycle_ms([1] * readers, settle_us=settle_us)
    hats = worst_cycle_ms([3, 3] + [1] * (readers - 2), settle_us=settle_us)
    margin = 1 + MODEL_ERROR
    return one_tag * margin <= ONE_TAG_TARGET_MS and hats * margin <= HATS_TARGET_MS


def readers_a_bus(settle_us: int = BENCH_SETTLE_US) -> int:
    """The most readers one SPI bus, scanned by one RP2040 core, holds in time (0: none)."""
    readers = 2
    while _in_time(readers, settle_us):
        readers += 1
    return readers - 1 if readers > 2 else 0


def crowded(
    buses: Sequence[int], settle_us: int = BENCH_SETTLE_US
) -> list[tuple[int, int, int, float]]:
    """The buses of a table whose readers are on ``buses`` (each reader's SPI bus, 0 or
    1) that carry more readers than one bus scans in time: (bus, its readers, the most one
    bus scans in time, the modelled worst cycle of two hats of three tokens on it, ms)."""
    most = readers_a_bus(settle_us)
    found = []
    for bus in sorted(set(buses)):
        count = sum(1 for b in buses if b == bus)
        if count > most:
            found.append(
                (bus, count, most, worst_cycle_ms([3, 3] + [1] * (count - 2), settle_us=settle_us))
            )
    return found
