"""The scan cycle of the firmware on both cores of the emulated RP2040, the RP2040's own
cost per event fitted to it, the settle time's price, and the heap.

    .venv/bin/python bench/pico_cycle.py [--cycles 64] [--only NAME] [--no-xip]
        [--save FILE | --load FILE] [--settle] [--turns 300] [--memory 10000]

Each table boots its own emulated Pico (tests/pico: MicroPython v1.28.0 for the RPI_PICO
board in rp2040js with both cores, firmware/ in its flash, an MFRC522 model behind each
chip select), with scan_cycle's tags on hardware/pins.toml's 19 readers, wired as
pins.toml has them (two buses: core 0 scans SPI0, core 1 SPI1) or all on SPI0 (one bus,
one core). Each runs twice: as rp2040js runs code (no flash cache miss charged: a lower
bound), and with the XIP cache model of tests/pico/dualcore.mjs (16 KB, 2-way, 8-byte
lines, each miss stalling its core 50 cycles: an upper bound). It asks for the
firmware's timings (``CONF stats=1``) and reads the scan cycle two ways:

- the firmware's own ``T`` frame: min / median / max of its last 64 ``scan.cycle()``s,
  timed with ``utime.ticks_us`` (emulated time: instructions at 125 MHz, SPI bytes at the
  bus's 8 MHz, what the chips make it wait), the two cores' lockstep included;
- the harness's clock, for each of ``--cycles`` steady cycles after ``WARMUP``: each
  bus's half, from its first reader's antenna switched on to its last reader's switched
  off; the scan, from the first of the two to the last; and the loop turn, from one
  visit of reader 0 to the next (the scan, the lockstep, the link, the heartbeat).

The fit: each bus's half on the emulator, less the same half in scan_cycle's pure model
(the same firmware on the same chip model, no interpreter time), is MicroPython's time on
the RP2040; least squares over every half of every table gives its cost per radio frame
and anticollision frame (the pure model counts them; a transaction's is measured apart, a
visit's held at its earlier fit, ``VISIT_US``), and the firmware's own cycles (its T)
what the bookkeeping around the visits adds to each cycle, the two cores' lockstep and
gathering included on two buses (scan_model.RP2040_US, and RP2040_XIP_US from the runs
with the cache model).

``--settle`` runs the default table (one tag on each reader, then the worst layout) on one
board each, with ``CONF settle_us`` from 100 to 5100 us, and times the cycle at each.
``--turns N`` times N turns of the real loop in play (heartbeats, drops): what a
heartbeat and a change add to a turn, and how late the settle starts after a reading.
``--memory N`` runs the real main loop for N cycles on a five-reader table whose tags
come and go, sampling the heap (history below: not regenerated).
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import statistics
import sys
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "pico"))
sys.path.insert(0, str(ROOT / "bench"))

import pico_board  # noqa: E402
import scan_cycle  # noqa: E402
from verdict import judge  # noqa: E402

from companion.devices import protocol, scan_model  # noqa: E402
from companion.devices.scan_model import Cost  # noqa: E402

WARMUP = 4  # cycles before the measured ones: the first reads whole what later is confirmed
WAIT = 7200.0  # wall seconds any one step may take
XIP_MISS_CYCLES = 50
WIRINGS = (("default wiring", pico_board.DEFAULT_SPI1), ("one bus", None))
SETTLES_US = (100, 300, 500, 1000, 2000, 3000, 4000, 5100)
SETTLE_TABLES = ("1 tag each", scan_cycle.DEFAULT_WORST_NAME)
DERIVED = {
    "1 tag each": (23.3, 25.4),
    scan_cycle.DEFAULT_WORST_NAME: (45.5, 47.6),
}
"""The two-bus figures bench/README.md gave before two cores ran in the emulator (mean /
worst ms): each half measured as a one-bus board, the slower half's cycle plus core 0's
gathering charged at the unix port's cost ×114. "1 tag each" is the 19-reader table as
issue 38 derived it from the 10-reader half (README then: 21.0 / 23.1 ms, labelled for a
table of 9 + 9 readers); the worst layout is the README's row."""
BEFORE_WALK = {
    ("default wiring", "1 tag each"): (22.9, 25.0),
    ("default wiring", "2 hats of 3, rest 1"): (45.1, 47.7),
    ("default wiring", "2 hats of 3, one a bus"): (34.2, 36.7),
    ("default wiring", "3 tags each"): (133.4, 135.2),
    ("one bus", "1 tag each"): (43.7, 44.9),
    ("one bus", "2 hats of 3, rest 1"): (65.8, 67.0),
}
"""The harness's mean / worst ms of this bench at commit def13a2 (bench/README.md then),
when a hat was checked by selecting and halting each of its tags every cycle and a single
tag by the expected first answer of a full enumeration."""
BEFORE_CHECKS = {0: (31.8, 39.7), XIP_MISS_CYCLES: (34.8, 43.5)}
"""The default wiring's worst layout, harness's mean / worst ms by XIP miss cycles, when a
hat was audited whole every ``audit`` cycles (its tags selected and halted, one read from
scratch: commit 5b98088), before its tags were checked one a cycle."""


@dataclass
class Run:
    """One board's figures (ms): each steady cycle's scan, halves and loop turn."""

    wiring: str
    name: str
    tags: list[int]
    xip: int
    buses: list[int]
    scan_ms: list[float] = field(default_factory=list)
    halves_ms: list[list[float]] = field(default_factory=lambda: [[], []])
    turn_ms: list[float] = field(default_factory=list)
    timing: list[int] | None = None  # the last T frame's cycle_us min / median / max
    txns: float = 0.0  # SPI transactions per cycle (chip selects)
    hello_ms: float = 0.0
    misses: float = 0.0  # XIP cache misses per emulated ms, both cores
    wall_s: float = 0.0

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scan_ms)

    @property
    def quiet(self) -> float:
        """The median gap of a turn that sent nothing."""
        return statistics.median(g for g, k in zip(self.gaps, self.kinds, strict=True) if not k)

    @property
    def worst(self) -> float:
        return max(self.scan_ms)

    @property
    def loop_ms(self) -> float:
        """The loop's own time per turn beyond the scan: the median turn less the median
        scan (the lockstep, polling the link, the timing rings, the watchdog)."""
        return statistics.median(self.turn_ms) - statistics.median(self.scan_ms)


def uids(board: pico_board.EmulatedPico, tags: list[int]) -> None:
    for reader, count in enumerate(tags):
        for uid in scan_cycle.uids_for(reader, count):
            board.place(reader, uid)


def run_layout(
    wiring: str, spi1: tuple[int, ...] | None, name: str, tags: list[int], xip: int, cycles: int
) -> Run:
    """Boot a board with ``tags`` on its readers; time ``cycles`` steady cycles."""
    started = time.monotonic()
    board = pico_board.EmulatedPico(spi1=spi1, pty=False, keep_antennas=True, xip_miss_cycles=xip)
    try:
        uids(board, tags)
        board.wait_for(lambda: b"HELLO" in board.output, WAIT, "HELLO")
        hello_ms = board.now_ns / 1e6
        board.write(protocol.encode(0, protocol.conf("stats", 1)))
        need = WARMUP + cycles + 1

        def visits_of_reader_0() -> int:
            return sum(1 for a in board.antennas if a.reader == 0 and a.on)

        board.wait_for(lambda: visits_of_reader_0() >= need, WAIT, f"{need} cycles")
        mark = len(board.output)  # the T frame of a heartbeat after the measured cycles
        board.wait_for(lambda: b" T " in board.output[mark:], WAIT, "a T frame")
        board.check()
        misses = board.xip_misses / (board.now_ns / 1e6)
    finally:
        board.close()
    run = Run(wiring, name, tags, xip, list(board.buses), hello_ms=hello_ms, misses=misses)
    run.wall_s = time.monotonic() - started
    spans: list[tuple[list[int], list[int]]] = []  # each bus: its cycles' starts and ends
    for bus in (0, 1):
        mine = [r for r in range(len(tags)) if board.buses[r] == bus]
        if not mine:
            continue
        first, last = mine[0], mine[-1]
        starts = [a.ns for a in board.antennas if a.reader == first and a.on]
        ends = [a.ns for a in board.antennas if a.reader == last and not a.on]
        spans.append((starts, ends))
        run.halves_ms[bus] = [(ends[k] - starts[k]) / 1e6 for k in range(WARMUP, WARMUP + cycles)]
    for k in range(WARMUP, WARMUP + cycles):
        start = min(starts[k] for starts, _ in spans)
        end = max(ends[k] for _, ends in spans)
        run.scan_ms.append((end - start) / 1e6)
        run.turn_ms.append((spans[0][0][k + 1] - spans[0][0][k]) / 1e6)
    firsts = [a for a in board.antennas if a.reader == 0 and a.on]
    run.txns = (firsts[WARMUP + cycles].transactions - firsts[WARMUP].transactions) / cycles
    timings = [r for r in reports(board.output) if isinstance(r, protocol.Timing)]
    run.timing = list(timings[-1].cycle_us) if timings else None
    return run


def reports(output: bytes | bytearray, start: int = 0) -> list[protocol.Report]:
    """The reports in ``output`` from the frame that holds its byte ``start`` on."""
    line = output.rfind(b"\n", 0, start) + 1 if start else 0
    return [report for _, report in protocol.FrameReader().feed(bytes(output[line:]))]


# ---- the fit -----------------------------------------------------------------------------------
def solve(rows: list[list[float]], values: list[float]) -> list[float]:
    """Least squares: the x minimising |rows x - values| (normal equations, by
    elimination; a handful of unknowns)."""
    n = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(n)] for i in range(n)]
    b = [sum(r[i] * v for r, v in zip(rows, values, strict=True)) for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda i: abs(a[i][col]))
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        for i in range(n):
            if i != col and a[col][col]:
                factor = a[i][col] / a[col][col]
                a[i] = [x - factor * y for x, y in zip(a[i], a[col], strict=True)]
                b[i] -= factor * b[col]
    return [b[i] / a[i][i] for i in range(n)]


def bus_tags(run: Run, bus: int) -> list[int]:
    return [t for t, b in zip(run.tags, run.buses, strict=True) if b == bus]


TXN_MAIN = """
import machine
import micropython
import pins
import utime

N = 2000


@micropython.native
def transactions(cs, spi, buf, n):
    for _ in range(n):
        cs.value(0)
        spi.write(buf)
        cs.value(1)


@micropython.native
def nothing(cs, spi, buf, n):
    for _ in range(n):
        pass


spi = machine.SPI(pins.SPI_ID, baudrate=pins.SPI_BAUD, polarity=0, phase=0,
                  sck=machine.Pin(pins.SCK), mosi=machine.Pin(pins.MOSI),
                  miso=machine.Pin(pins.MISO))
cs = machine.Pin(pins.CS[0], machine.Pin.OUT, value=1)
buf = bytearray(2)
took = []
for run in (nothing, transactions):
    start = utime.ticks_us()
    run(cs, spi, buf, N)
    took.append(utime.ticks_diff(utime.ticks_us(), start))
print("TXN", N, took[0], took[1], "END")
"""
"""A bench ``main.py``: 2,000 two-byte SPI transactions as the driver makes them (its chip
select down, ``spi.write``, up, in native code), and the same loop empty."""


def measure_txn(xip: int) -> float:
    """MicroPython's time per SPI transaction on the emulated RP2040 (us): the
    transactions' loop less the empty one, less the two bytes' 2 us at 8 MHz (the bus's
    time, which the pure model counts already)."""
    board = pico_board.EmulatedPico(pty=False, extra={"main.py": TXN_MAIN}, xip_miss_cycles=xip)
    try:
        board.wait_for(lambda: b" END" in board.output, WAIT, "the transactions")
        board.check()
    finally:
        board.close()
    words = board.output.split(b"TXN")[1].split()
    n, empty, full = (int(w) for w in words[:3])
    return (full - empty) / n - 2 * 8 / (scan_cycle.SPI_HZ / 1e6)


VISIT_US = {0: 32.2, XIP_MISS_CYCLES: 68.8}
"""The RP2040's own cost of a reader visit beyond its frames (us), by XIP miss cycles, as
fitted at commit def13a2, when a hat's tags were each selected and halted. A walked visit
is a WUPA and as many frames as anticollision frames, so frames, anticollision frames and
visits now rise together and a fit cannot tell a visit's cost from a frame's: it is held
at the value fitted when it could, and the frames' costs fitted around it."""


def fit(runs: list[Run], xip: int, txn: float) -> Cost:
    """The RP2040's cost per event (us) that gives the emulated halves (runs with ``xip``)
    from the pure model's, ``txn`` per transaction measured apart (the transactions of a
    visit follow its frames and visits too closely for a fit to tell them apart) and a
    visit's at ``VISIT_US``; then the cost per cycle of the bookkeeping around the visits
    (the lockstep and gathering too, on two buses): the median over the runs of the
    firmware's median cycle (its T) less the model's at those costs."""
    visit = VISIT_US[xip]
    rows, values = [], []
    for run in runs:
        if run.xip != xip:
            continue
        for bus in (0, 1):
            tags = bus_tags(run, bus)
            if not tags:
                continue
            pure = scan_cycle.firmware_cycle(tags)
            rows.append([pure["frames"], pure["anticollisions"]])
            python = (statistics.fmean(run.halves_ms[bus]) - pure["mean"]) * 1000
            values.append(python - txn * pure["txns"] - visit * pure["visits"])
    frame, anticollision = solve(rows, values)
    cost = Cost(txn, frame, anticollision, visit, 0.0)
    rest = []
    for run in runs:
        if run.xip == xip and run.timing is not None:
            model = scan_cycle.cycle(run.tags, run.buses, cost)
            rest.append(run.timing[1] / 1000 - statistics.median(model["times"]))
    return cost._replace(merge=statistics.median(rest) * 1000 if rest else 0.0)


def modelled(run: Run, cost: Cost) -> dict:
    return scan_cycle.cycle(run.tags, run.buses, cost)


# ---- the figures -------------------------------------------------------------------------
def firmware_cells(run: Run) -> str:
    return " / ".join(f"{us / 1000:.1f}" for us in run.timing) if run.timing else "–"


def table_rows(runs: list[Run], wiring: str) -> list[str]:
    """Markdown rows of one wiring's tables: the firmware's T, the harness's, the loop's
    own time, the longest turn; the XIP bound beside each."""
    rows = []
    plain = {r.name: r for r in runs if r.wiring == wiring and not r.xip}
    cached = {r.name: r for r in runs if r.wiring == wiring and r.xip}
    for name, run in plain.items():
        xip = cached.get(name)
        bound = "–"
        if xip is not None:
            bound = f"{xip.mean:.1f} / {xip.worst:.1f} (+{(xip.mean / run.mean - 1) * 100:.0f} %)"
        cells = [
            name,
            firmware_cells(run),
            f"{statistics.median(run.scan_ms):.1f} / {run.mean:.1f} / {run.worst:.1f}",
            f"{run.loop_ms:.2f}",
            f"{max(run.turn_ms):.1f}",
            bound,
            f"{run.txns:,.0f}",
        ]
        bold = wiring == "default wiring" and name == scan_cycle.DEFAULT_WORST_NAME
        rows.append("| " + " | ".join(f"**{c}**" if bold else c for c in cells) + " |")
    return rows


SHIPPED = {0: scan_model.RP2040_US, XIP_MISS_CYCLES: scan_model.RP2040_XIP_US}
"""The costs scan_model charges (what ``companion doctor`` uses), by XIP miss cycles."""


def model_rows(
    runs: list[Run], costs: dict[int, Cost]
) -> tuple[list[str], dict[int, float], dict[int, float]]:
    """Markdown rows of the model at ``costs`` (by XIP miss cycles) against each run's own
    cycles (its T frame): the firmware's cycles on scan_cycle's emulated chips with the
    costs charged per event, and scan_model's sums (``cycle_ms``, what ``companion
    doctor`` compares a real Pico's T median with; ``worst_cycle_ms``); the largest
    relative error of each's median, by XIP miss cycles."""
    rows: list[str] = []
    errors = dict.fromkeys(costs, 0.0)
    summed = dict.fromkeys(costs, 0.0)
    for run in runs:
        if run.timing is None:
            continue
        cost = costs[run.xip]
        f = modelled(run, cost)
        median = statistics.median(f["times"])
        measured = run.timing[1] / 1000
        ratio = median / measured
        errors[run.xip] = max(errors[run.xip], abs(ratio - 1))
        total = scan_model.cycle_ms(run.tags, buses=run.buses, cost=cost)
        worst = scan_model.worst_cycle_ms(run.tags, buses=run.buses, cost=cost)
        summed[run.xip] = max(summed[run.xip], abs(total / measured - 1))
        bound = "XIP model" if run.xip else "no miss"
        rows.append(
            f"| {run.wiring}, {run.name} | {bound} | {measured:.1f} / "
            f"{run.timing[2] / 1000:.1f} | {median:.1f} / {f['max']:.1f} | {ratio:.2f} | "
            f"{total:.1f} / {worst:.1f} | {total / measured:.2f} |"
        )
    return rows, errors, summed


def cost_line(cost: Cost) -> str:
    return (
        f"{cost.txn:.1f} µs a transaction, {cost.frame:.0f} µs a frame, "
        f"{cost.anticollision:.0f} µs more an anticollision frame, {cost.visit:.0f} µs a "
        f"visit, {cost.merge:.0f} µs a cycle"
    )


def cost_code(cost: Cost) -> str:
    return (
        f"Cost(txn={cost.txn:.2f}, frame={cost.frame:.1f}, anticollision="
        f"{cost.anticollision:.1f}, visit={cost.visit:.1f}, merge={cost.merge:.1f})"
    )


def layouts(only: str | None, xips: tuple[int, ...]):  # type: ignore[no-untyped-def]
    for xip in xips:
        for wiring, spi1 in WIRINGS:
            tables = scan_cycle.TWO_BUS_TABLES if spi1 else scan_cycle.TABLES
            for name, tags in tables:
                if only is None or name == only:
                    yield wiring, spi1, name, tags, xip


def measure(cycles: int, only: str | None, xips: tuple[int, ...]) -> list[Run]:
    runs = []
    for wiring, spi1, name, tags, xip in layouts(only, xips):
        run = run_layout(wiring, spi1, name, tags, xip, cycles)
        runs.append(run)
        print(
            f"  ran {wiring}, {name}{', XIP model' if xip else ''}: "
            f"{run.mean:.1f} / {run.worst:.1f} ms, {run.wall_s:.0f} s wall",
            flush=True,
        )
    return runs


# ---- the settle time ---------------------------------------------------------------------
@dataclass
class SettleRun:
    """Cycles (ms) of one table at each settle time, and whether every tag stayed read."""

    name: str
    cycles: dict[int, list[float]] = field(default_factory=dict)
    read: dict[int, bool] = field(default_factory=dict)


def settle_sweep(name: str, tags: list[int], cycles: int) -> SettleRun:
    """One board of the default wiring; ``CONF settle_us`` set to each of ``SETTLES_US``
    in turn, ``cycles`` cycles timed at each (the harness's scan) after two to settle in;
    every tag read means no change in those cycles and every tag in the snapshot after."""
    out = SettleRun(name)
    board = pico_board.EmulatedPico(spi1=pico_board.DEFAULT_SPI1, pty=False, keep_antennas=True)

    def visits(since: int) -> int:
        return sum(1 for a in board.antennas[since:] if a.reader == 0 and a.on)

    try:
        uids(board, tags)
        board.wait_for(lambda: b"HELLO" in board.output, WAIT, "HELLO")
        board.wait_for(lambda: visits(0) >= WARMUP, WAIT, "the first cycles")
        for seq, settle in enumerate(SETTLES_US, start=1):
            mark = len(board.output)
            board.write(protocol.encode(seq, protocol.conf("settle_us", settle)))
            board.wait_for(lambda m=mark: b" OK " in board.output[m:], WAIT, "OK")
            start = len(board.antennas)
            board.wait_for(lambda s=start: visits(s) >= 3, WAIT, "two cycles")
            measured = len(board.output)
            begin = len(board.antennas)
            board.wait_for(lambda s=begin: visits(s) >= cycles + 2, WAIT, f"{cycles} cycles")
            sync = len(board.output)
            board.write(protocol.encode(100 + seq, protocol.sync()))

            def snapshots(m: int = sync) -> list[protocol.Full]:
                return [r for r in reports(board.output, m) if isinstance(r, protocol.Full)]

            board.wait_for(lambda: snapshots() != [], WAIT, "a snapshot")
            with board.lock:
                antennas = board.antennas[begin:]
                full = snapshots()
            starts = [a.ns for a in antennas if a.reader == 0 and a.on][: cycles + 1]
            ends = [a.ns for a in antennas if not a.on]
            out.cycles[settle] = [
                (max(e for e in ends if e < b) - a) / 1e6 for a, b in itertools.pairwise(starts)
            ]
            frames = reports(board.output[:sync], measured)
            changed = [r for r in frames if isinstance(r, protocol.State)]
            out.read[settle] = not changed and [len(u or ()) for u in full[0].sets] == tags
        board.check()
    finally:
        board.close()
    return out


def settle_rows(sweeps: list[SettleRun]) -> list[str]:
    rows = []
    for settle in SETTLES_US:
        cells = [f"{settle / 1000:g} ms"]
        for sweep in sweeps:
            times = sweep.cycles[settle]
            unread = "" if sweep.read[settle] else " (tags unread)"
            cells.append(f"{statistics.fmean(times):.1f} / {max(times):.1f}{unread}")
        tags = dict(scan_cycle.TWO_BUS_TABLES)
        for name in SETTLE_TABLES:
            f = scan_model.cycle_ms(tags[name], buses=scan_cycle.DEFAULT_BUSES, settle_us=settle)
            cells.append(f"{f:.1f}")
        rows.append("| " + " | ".join(cells) + " |")
    return rows


# ---- the loop's turn in play -------------------------------------------------------------
SPI0_READERS = [r for r in range(scan_cycle.READERS) if r not in pico_board.DEFAULT_SPI1]
TURN_DROPS_MS = 137
"""A tag dropped on (or lifted off) a reader every this many emulated ms, in turn."""
TURNS = 300
"""Turns of the loop timed in play for the README (about 11 emulated seconds)."""


@dataclass
class TurnRun:
    """The worst layout of the default wiring in play: each turn's time beyond its scan
    (ms) and the frames it sent, and each drop's lag (ms)."""

    xip: int
    gaps: list[float] = field(default_factory=list)  # last antenna off to the next first on
    kinds: list[str] = field(default_factory=list)  # "F", "S", "FS" or "" per gap
    lags: list[float] = field(default_factory=list)
    wall_s: float = 0.0
    periods: list[float] = field(default_factory=list)  # reader 0's, visit to visit (ms)
    core1_late: list[float] = field(default_factory=list)
    """Per cycle, how long after core 0's first antenna core 1's came on (ms): a collection
    made by core 1 at the cycle's start shows there."""
    waits: list[float] = field(default_factory=list)
    """Each reader's longest wait between two visits' antennas coming on (ms), by reader:
    what a tag dropped just after a visit waits for its reading, the turn's frames and any
    collection of the heap included, wherever they fall."""
    collected: list[int] = field(default_factory=list)
    """The collections core 1 made by the end of the turns timed, and the longest's µs
    (the firmware's ``T`` frame, ``gc=``, asked for once they were over); [] for a run
    saved before it was asked."""

    def extra(self, kind: str) -> list[float]:
        """The gaps of turns that sent ``kind`` frames, less the median quiet gap."""
        quiet = self.quiet
        return [g - quiet for g, k in zip(self.gaps, self.kinds, strict=True) if k == kind]

    @property
    def quiet(self) -> float:
        """The median gap of a turn that sent nothing."""
        return statistics.median(g for g, k in zip(self.gaps, self.kinds, strict=True) if not k)

    @property
    def worst(self) -> float:
        """The longest turn beyond a quiet one's, whatever it sent."""
        return max(self.extra("F") + self.extra("S") + self.extra("FS") + self.extra(""))


def run_turns(cycles: int, xip: int) -> TurnRun:
    """The real main.py on the default wiring's worst layout, ``CONF heartbeat_ms=100``
    and ``age=1``, every ``TURN_DROPS_MS`` a tag dropped on another reader or the last
    one lifted, for ``cycles`` cycles: on the harness's clock, each turn's gap between its scan and
    the next (the lockstep's end, the frames, the link, a collection when one falls there)
    and the frames in it; for each drop, how much later than its age says the ``S``
    frame left, counted from its reading visit's antenna coming on."""
    started = time.monotonic()
    out = TurnRun(xip)
    board = pico_board.EmulatedPico(
        spi1=pico_board.DEFAULT_SPI1, pty=False, keep_antennas=True, xip_miss_cycles=xip
    )
    try:
        uids(board, scan_cycle.HATS)
        board.wait_for(lambda: b"HELLO" in board.output, WAIT, "HELLO")
        for seq, (key, value) in enumerate((("age", 1), ("heartbeat_ms", 100))):
            board.write(protocol.encode(seq, protocol.conf(key, value)))
        board.wait_for(lambda: board.output.count(b" OK ") >= 2, WAIT, "OK")
        lying: dict[int, object] = {}
        serial = [0]

        def drop() -> None:
            serial[0] += 1
            reader = serial[0] * 7 % scan_cycle.READERS
            if lying:  # lifted again: the table stays the worst layout but for one tag
                board.remove(lying.pop(next(iter(lying))))  # type: ignore[arg-type]
            else:
                lying[reader] = board.place(reader, f"04D0{serial[0] & 0xFFFF:04X}C0FF{reader:02X}")
            board.at(board.now_ns + TURN_DROPS_MS * 1_000_000, drop)

        board.at(board.now_ns + 200_000_000, drop)
        first = len([a for a in board.antennas if a.reader == 0 and a.on])
        need = first + WARMUP + cycles + 1

        def visits_of_reader_0() -> int:
            return sum(1 for a in board.antennas if a.reader == 0 and a.on)

        board.wait_for(lambda: visits_of_reader_0() >= need, WAIT * 4, f"{need} cycles")
        board.check()
        mark = len(board.output)
        board.write(protocol.encode(2, protocol.conf("stats", 1)))
        gc_word = re.compile(rb" T [^\n]* gc=(\d+)/(\d+)\*")
        board.wait_for(lambda: gc_word.search(board.output, mark), WAIT, "a T frame")
        with board.lock:
            antennas = list(board.antennas)
            output = bytes(board.output)
            sent = list(board._sent_at)
    finally:
        board.close()
    out.wall_s = time.monotonic() - started
    found = gc_word.search(board.output, mark)
    assert found is not None
    out.collected = [int(found[1]), int(found[2])]
    starts = [a.ns for a in antennas if a.reader == 0 and a.on]
    frames = []  # (ns the packet with its end left, the frame)
    done = 0
    for ns, size in sent:
        end = output.rfind(b"\n", done, size) + 1
        if end > done:
            frames += [(ns, line) for line in output[done:end].split(b"\n")[:-1]]
            done = end
    for k in range(first + WARMUP, need - 1):
        end = max(a.ns for a in antennas if not a.on and starts[k] < a.ns < starts[k + 1])
        out.gaps.append((starts[k + 1] - end) / 1e6)
        inside = [f for ns, f in frames if end < ns <= starts[k + 1]]
        kinds = "F" if any(b" F " in f for f in inside) else ""
        out.kinds.append(kinds + ("S" if any(b" S " in f for f in inside) else ""))
    out.periods = [(b - a) / 1e6 for a, b in itertools.pairwise(starts[first + WARMUP : need])]
    spi1 = [a.ns for a in antennas if a.on and a.reader in pico_board.DEFAULT_SPI1]
    for k in range(first + WARMUP, need - 1):
        later = [ns for ns in spi1 if starts[k] <= ns < starts[k + 1]]
        out.core1_late.append((later[0] - starts[k]) / 1e6 if later else 0.0)
    for reader in range(scan_cycle.READERS):
        ons = [a.ns for a in antennas if a.reader == reader and a.on]
        ons = [ns for ns in ons if starts[first + WARMUP] <= ns <= starts[need - 1]]
        out.waits.append(max(b - a for a, b in itertools.pairwise(ons)) / 1e6)
    for ns, line in frames:
        found = re.search(rb"^\d+ S (\d+) [0-9A-F,-]+ age=(\d+)\*", line)
        if found and starts[first + WARMUP] < ns < starts[need - 1]:
            reader, age = int(found[1]), int(found[2])
            read = max(a.ns for a in antennas if a.reader == reader and a.on and a.ns < ns)
            out.lags.append((ns - read) / 1e6 - age)
    return out


def waits(run: TurnRun, readers: Iterable[int]) -> str:
    """The longest wait between two visits of ``readers`` (ms), or "-" for a run saved
    before it was measured."""
    return f"{max(run.waits[r] for r in readers):.1f}" if run.waits else "-"


def turn_lines(runs: list[TurnRun]) -> list[str]:
    rows = []
    for run in runs:
        beat = run.extra("F")
        change = run.extra("S") + run.extra("FS")
        rows.append(
            f"| {'XIP model' if run.xip else 'no miss'} | {len(run.gaps)} | "
            f"{run.quiet:.2f} | "
            f"{statistics.median(beat):.1f} / {max(beat):.1f} ({len(beat)}) | "
            f"{max(change, default=0):.1f} ({len(change)}) | {run.worst:.1f} | "
            f"{min(run.lags):.1f} to {max(run.lags):.1f} ({len(run.lags)}) | "
            f"{waits(run, SPI0_READERS)} / {waits(run, pico_board.DEFAULT_SPI1)} | "
            + (
                f"{run.collected[0]} ({run.collected[1] / 1000:.1f} ms) |"
                if run.collected
                else "- |"
            )
        )
    return rows


# ---- the heap ------------------------------------------------------------------------------------
MEMORY_MAIN = """
import gc
import fwmain
import utime

_step = fwmain.Firmware.step
count = [0]


def step(self):
    _step(self)
    count[0] += 1
    n = count[0]
    if n == 1 or n % 1000 == 0:
        start = utime.ticks_us()
        gc.collect()
        took = utime.ticks_diff(utime.ticks_us(), start)
        print("L", n, gc.mem_alloc(), gc.mem_free(), took)
    elif n % 10 == 0:
        print("M", n, gc.mem_alloc(), gc.mem_free())


fwmain.Firmware.step = step
fwmain.run(max_cycles=CYCLES)
print("END", count[0])
"""


def run_memory(cycles: int, dump: str | None = None) -> None:
    """The real loop for ``cycles`` cycles with tags coming and going; the heap's figures."""
    extra = {
        "fwmain.py": (ROOT / "firmware" / "main.py").read_text(),
        "main.py": MEMORY_MAIN.replace("CYCLES", str(cycles)),
    }
    started = time.monotonic()
    board = pico_board.EmulatedPico(readers=5, pty=False, extra=extra)
    try:
        board.place(1, "04A1B2C3D4E5F6")
        board.place(2, "DEADBEEF")
        hat = [board.place(4, uid) for uid in ("04B2C3D4E5F607", "04C3D4E5F60718")]
        coming: list[object] = []
        serial = [0]

        def come_and_go() -> None:
            if coming:
                board.remove(coming.pop())  # type: ignore[arg-type]
            else:
                serial[0] += 1
                coming.append(board.place(3, f"04{serial[0] & 0xFFFFFF:06X}5A1C01"))
            board.at(board.now_ns + 200_000_000, come_and_go)

        def swap() -> None:
            board.remove(hat.pop(0))
            serial[0] += 1
            hat.append(board.place(4, f"04{serial[0] & 0xFFFFFF:06X}77AA03"))
            board.at(board.now_ns + 500_000_000, swap)

        board.at(200_000_000, come_and_go)
        board.at(500_000_000, swap)
        board.wait_for(lambda: b"END" in board.output or b"Error" in board.output, WAIT * 4)
        board.check()
    finally:
        board.close()
    text = board.output.decode(errors="replace")
    if dump:
        Path(dump).write_text(text)
    if "Error" in text:
        tail = text[text.index("Traceback") :] if "Traceback" in text else text[-500:]
        print(f"the loop stopped: {tail}")
        return
    samples = []  # (cycle, used, free, forced): forced after a gc.collect() of ours
    live = []
    collect_us: list[int] = []
    for line in text.splitlines():
        words = line.split()
        if words and words[0] in ("M", "L"):
            n, used, free = (int(w) for w in words[1:4])
            samples.append((n, used, free, words[0] == "L"))
            if words[0] == "L":
                live.append((n, used, free))
                collect_us.append(int(words[4]))
    frames = reports(board.output)
    changes = sum(1 for r in frames if isinstance(r, protocol.State))
    steps = [(a, b) for a, b in itertools.pairwise(samples) if not b[3]]
    collections = sum(1 for a, b in steps if b[1] < a[1])  # the heap shrank by itself
    grew = [(b[1] - a[1], b[0] - a[0]) for a, b in steps if b[1] >= a[1]]
    per_cycle = sum(g for g, _ in grew) / sum(n for _, n in grew)
    print(
        f"Heap over {cycles} cycles of the real loop ({board.now_ns / 1e9:.1f} s emulated, "
        f"{time.monotonic() - started:.0f} s wall), {changes} S frames (tags coming and going):"
    )
    total = live[0][1] + live[0][2]
    print(f"  heap {total} bytes; live after cycle 1: {live[0][1]} bytes, {live[0][2]} free")
    print("  live (after gc.collect) by cycle: " + ", ".join(f"{n}: {u}" for n, u, _ in live))
    print(f"  live growth from cycle 1000 to {live[-1][0]}: {live[-1][1] - live[1][1]} bytes")
    print(
        f"  allocated per cycle (heartbeats and S frames included): {per_cycle:.1f} bytes; "
        f"automatic collections seen: {collections}; "
        f"least free: {min(s[2] for s in samples)} bytes, most used: {max(s[1] for s in samples)}"
    )
    print(f"  gc.collect() of this heap: {min(collect_us)}..{max(collect_us)} us")


HISTORY = """History (measured on the emulator when this bench was written, one core, recorded in
commit 1185454, not regenerated). **What the real port caught that the unix port did not:**

- *The SPI bus runs at 8 MHz*, not 10: MicroPython v1.28 clocks the RP2040's peripherals
  at 48 MHz, and 48 / 6 is the fastest rate at or under the 10 MHz asked
  (`SPI(0, baudrate=8000000, ...)`, the port itself says). The fake bus of the firmware's
  tests now runs at the rate the rp2 port sets.
- *A heartbeat cost 57 ms of the loop*: the `F` frame of 19 readers took 39 ms to build,
  26 of them the bit-by-bit CRC-16 and 13 the per-character checks of every UID; an `S`
  frame 2.5 ms. With a table-driven CRC (3.5 ms for the `F` frame) and the alphabets
  checked by `str.strip`, the `F` frame takes 12 ms and an `S` frame 1.0.
- *`gc.mem_free()` walks the whole heap's allocation table*: 8.9 ms on the RP2040 (so does
  `gc.mem_alloc()`). The two-core scanner asked it every cycle; it now never asks
  (firmware/cores.py).
- *A collection takes 5.4 to 7.8 ms* with the firmware's heap, where the unix port makes
  it look free.
- *Python is slow on an M0+ in ways a desktop hides*: a `for` loop turn 3.1 µs, a call
  7 µs, a short string built by `+` or an f-string 0.2 ms; `@micropython.native` halves
  a loop (1.6 µs a turn).

**Memory** (`--memory 10000`, one core, history: about 18 minutes of wall time, not run by
the generator): the real loop for 10,000 cycles on five readers (the pad empty, a 7-byte
and a 4-byte tag, a tag that comes and goes every 200 ms, each time with a new UID, and a
hat of two whose oldest tag is swapped for a new one every 500 ms), a bench `main.py`
sampling `gc.mem_alloc()` / `gc.mem_free()` every 10 cycles and collecting after cycle 1
and every 1,000 cycles: 211.8 s emulated, 1,824 `S` frames, **no MemoryError**. The heap
is 245,888 bytes; the firmware, compiled and running, holds **57.7 KB** of it (188 KB
free). **Live heap after a collection: 57,664 bytes after cycle 1, then 57,824 to 58,112
at every thousandth cycle, 57,952 at 1,000 and at 10,000: no growth.** The loop
allocates 368 bytes a cycle on average with tags moving this fast; a steady cycle
allocates nothing. MicroPython collected by itself 10 times, each time the heap was full;
a collection took 5.4 to 7.8 ms."""
"""What runs once, by hand, and what the emulator first taught: kept as measured."""

COLLECTIONS = """\
**The heap's collections** (9 to 12 ms each: MicroPython marks the whole live heap, about
100 KB, half of it the firmware's compiled code) are made by core 1 once its half is
scanned, while core 0 still scans its own (firmware/cores.py), not between two cycles,
where each held up every reader's next visit. A visit allocates nothing, even one that
reads a change (a new tag's UID is read into buffers made once; its reader's new set is
made after the half, `Scanner.settle`), so no visit of core 0 waits for a collection; and
core 0 grants core 1 the safe point to make one only with a collection's time left of its
half. In this run core 1 made 15 and 16 collections (the last column) and none
lengthened a turn: no turn went beyond a quiet one by as much as the shortest of them.
Before (commit 3934fcb, this run's way, 300 turns): a collection lengthened 2 turns without
misses (`S` frames' turns, 9.3 ms beyond a quiet one: a collection granted near the end of
core 0's half outlasted it) and none with the XIP model; a change's bookkeeping was inside
the half (its turn 6.4 ms at most with the XIP model, the longest waits between two visits
64.9 / 57.3 ms, 69.5 / 70.5 with it). Before that (commit aaf1604): 15 turns of 11.8 to
13.0 ms (no miss) and 18 of up to 14.6 ms (XIP model), an `S` frame up to 10.3 ms later
than its age (a collection after the age was taken: the frame's copy allocated), and the
longest waits between two visits 64.4 / 64.4 ms (68.6 / 65.3 with the XIP model). The
RP2040 build of MicroPython 1.28 has no ROMFS (`MICROPY_HW_ROMFS_BYTES` 0 for RPI_PICO), so
the compiled code cannot leave the heap without a firmware of our own."""
T_FRAME = """\
**The `T` frame's figures** (`CONF stats=1`: min / median / max of the last 64 cycles and
256 visits) are selected in machine code now (a viper quickselect on a copy made once):
0.19 + 0.69 ms on the emulated RP2040 (0.21 + 0.72 with the XIP model), where sorting
the two windows took 0.73 + 2.82 ms (0.80 + 2.90), between two cycles: measured once by a
bench `main.py` (the firmware's `Window` filled with random timings, best of 5 calls, the
old sort beside it), not regenerated."""
TURN_HEAD = (
    "| flash | turns | quiet turn's gap | heartbeat turn: median / max (turns) | turn with a "
    "change: max (turns) | longest | `S` frame later than its age | longest wait between "
    "two visits, SPI0 / SPI1 | core 1's collections (longest) |\n"
    "|---|---|---|---|---|---|---|---|---|"
)
MODEL_HEAD = (
    "| table | flash | firmware T median / max | charged median / worst | / T | `cycle_ms` / "
    "`worst_cycle_ms` | / T |\n|---|---|---|---|---|---|---|"
)
TABLE_HEAD = (
    "| table | firmware T min / med / max | harness med / mean / worst | loop +med "
    "| turn max | XIP model mean / worst | SPI txns |\n|---|---|---|---|---|---|---|"
)


def section(
    runs: list[Run],
    txns: dict[int, float],
    sweeps: list[SettleRun],
    cycles: int,
    turns: list[TurnRun] | None = None,
) -> str:
    """bench/README.md's section from these runs (``txns``: the cost of a transaction,
    measured, by XIP miss cycles; ``turns``: the loop's turns in play)."""
    costs = {xip: fit(runs, xip, txns[xip]) for xip in sorted({r.xip for r in runs})}
    lower, upper = costs[0], costs.get(XIP_MISS_CYCLES)
    two = table_rows(runs, "default wiring")
    one = table_rows(runs, "one bus")
    rows, errors, summed = model_rows(runs, SHIPPED)
    stale = [xip for xip, cost in costs.items() if cost_code(cost) != cost_code(SHIPPED[xip])]
    refitted = (
        "this run's fit at both bounds"
        if not stale
        else "**not this run's fit** (" + ", ".join(f"XIP miss {x} cycles" for x in stale) + ")"
    )
    plain = {(r.wiring, r.name): r for r in runs if not r.xip}
    verdicts = []
    for wiring in ("default wiring", "one bus"):
        for name, limit in scan_cycle.TARGETS:
            run = plain.get((wiring, name))
            if run is not None:
                verdict = judge([run.worst], limit, unit="ms")
                line = f"{wiring}, {name}: worst cycle {verdict} (mean {run.mean:.1f} ms)"
                worst = wiring == "default wiring" and name == scan_cycle.DEFAULT_WORST_NAME
                verdicts.append(f"- **{line}**" if worst else f"- {line}")
    derived = []
    for name, (mean, worst) in DERIVED.items():
        run = plain.get(("default wiring", name))
        if run is not None:
            derived.append(
                f"| {name} | {mean} / {worst} | {run.mean:.1f} / {run.worst:.1f} | "
                + (
                    f"{run.timing[1] / 1000:.1f} / {run.timing[2] / 1000:.1f} |"
                    if run.timing
                    else "– |"
                )
            )
    walked = []
    for (wiring, name), (mean, worst) in BEFORE_WALK.items():
        run = plain.get((wiring, name))
        if run is not None:
            walked.append(
                f"| {wiring}, {name} | {mean} / {worst} | {run.mean:.1f} / {run.worst:.1f} |"
            )
    checks = []
    for xip, (mean, worst) in BEFORE_CHECKS.items():
        run = next(
            (
                r
                for r in runs
                if r.xip == xip
                and r.wiring == "default wiring"
                and r.name == scan_cycle.DEFAULT_WORST_NAME
            ),
            None,
        )
        if run is not None:
            bound = "XIP model" if xip else "no miss"
            checks.append(f"{bound} {mean} / {worst} → {run.mean:.1f} / {run.worst:.1f}")
    misses = [r.misses for r in runs if r.xip]
    wall = sum(r.wall_s for r in runs) / 60
    boot = (
        plain[("default wiring", "empty")].hello_ms / 1000
        if ("default wiring", "empty") in plain
        else 0
    )
    settle = ""
    if sweeps:
        head = " | ".join(f"{s.name}: measured mean / worst" for s in sweeps)
        model = " | ".join(f"{name}: model" for name in SETTLE_TABLES)
        settle = f"""
**The settle time's price** (`--settle`): the default wiring, one board per table, `CONF
settle_us` set in turn (the firmware waits that long after each antenna comes on before
its first frame), 32 cycles timed at each on the harness's clock (after two to settle
in), ms; beside it the model's median cycle (scan_model at the RP2040's costs, the
bookkeeping around the visits included, which the harness's scan leaves out). Each
100 µs of settle costs the default table 1 ms a cycle: ten readers wait it on SPI0.
"(tags unread)" would mark a setting at which a tag was missed; the chip model's tags
power up in 250 µs (tests/firmware/chip.py, an assumption: ISO/IEC 14443-3 lets a tag
take up to 5 ms, and NXP's NTAG213F/216F data sheet gives no figure of its own, its
activation "follows ISO/IEC 14443 Type A"), and the firmware's own time
between an antenna coming on and its first frame's end covers the rest at 0.1 ms. A real
table's need is measured by `companion doctor --find-settle`:

| settle | {head} | {model} |
|---|{"---|" * (len(sweeps) + len(SETTLE_TABLES))}
{chr(10).join(settle_rows(sweeps))}
"""
    loop = ""
    if turns:
        loop = f"""
**The loop's turns in play** (`--turns N`): the real `main.py` on the default wiring's
worst layout, a snapshot due every 100 ms (`CONF heartbeat_ms=100`, ten times the
default, for many), `CONF age=1`, every {TURN_DROPS_MS} ms a tag dropped on another reader
or the last one lifted again (the table stays the worst layout but for one tag),
{len(turns[0].gaps)} turns after {WARMUP}, on the harness's clock: each turn's gap from its
scan's last antenna off to the next scan's first on, less a quiet turn's (one that sent
nothing: its median gap, the lockstep's end and the loop's own bookkeeping, beside), ms;
for each drop how much later than its age says its `S` frame's USB packet left, counted
from its reading visit's antenna coming on (the age counts from that visit's first
frame); and each bus's longest wait between two visits of one of its readers (what a tag
dropped just after a visit waits for its reading: the cycle, the turn's frames and a
collection of the heap, wherever it falls):

{TURN_HEAD}
{chr(10).join(turn_lines(turns))}

A heartbeat's `F` frame now reuses each reader's text until its set changes and builds the
frame in place with a machine-code CRC: before (commit 790b028, no miss, each step timed
by a bench `main.py`, 53 heartbeats), a heartbeat turn took 19.4 ms at the median and 36.9
with a collection; a turn with a change took 9 to 12 ms (21 with a collection; this run's
way, 60 turns), 9.5 ms of it looking up every tag read in a dict to find one on two spots
(30 µs a lookup), which now looks only at the tags two readers' sets hold.

{COLLECTIONS}

{T_FRAME}
"""
    upper_line = f"**upper bound, XIP model: {cost_line(upper)}**" if upper else ""
    return f"""## pico_cycle.py — the firmware on both cores of the emulated RP2040

`.venv/bin/python bench/pico_cycle.py [--cycles 64] [--only NAME] [--settle] [--turns 300]` and
`.venv/bin/python bench/pico_cycle.py --memory 10000` (`npm ci` first: tests/pico). Each
table boots its own emulated Pico (tests/pico/README.md): MicroPython v1.28.0 for the
RPI_PICO board in the rp2040js emulator with **both cores** (tests/pico/dualcore.mjs),
firmware/ in its littlefs flash, `main.py` running from power-up, an MFRC522 model
(tests/firmware/chip.py) behind each of hardware/pins.toml's 19 chip selects. **Default
wiring**: pins.toml's two buses, the pad and spots 1..9 on SPI0 scanned by core 0, spots
10..18 on SPI1 scanned by core 1 (MicroPython's `_thread`); **one bus**: every reader on
SPI0, core 0 alone. Time is the emulator's: instructions counted at 125 MHz, SPI bytes at
the bus's 8 MHz, the chips' waits: the same on any machine, only the wall time depends on
it. Each table runs twice: as rp2040js runs code, no flash (XIP) cache miss charged (**a
lower bound**), and with the XIP cache model (16 KB, 2-way, 8-byte lines, each miss
stalling its core {XIP_MISS_CYCLES} cycles, the two cores' misses not made to wait for each
other: **an upper bound**; {min(misses, default=0):.0f} to {max(misses, default=0):.0f}
misses per emulated ms). The scan cycle is read from the firmware's own `T` frame (`CONF
stats=1`: min / median / max of its last 64 `scan.cycle()`s, `utime.ticks_us`, the two
cores' lockstep included) and from the harness's clock: the scan from the first antenna
switched on to the last switched off, {cycles} steady cycles after {WARMUP}; "loop +med" is
the loop's own time per turn beyond the scan (the median turn less the median scan: the
lockstep, the link, the timing rings, the watchdog); "turn max" the longest turn, a
heartbeat's `F` and `T` frames included. Boot to HELLO: at most {boot:.1f} s
emulated; the whole
run took {wall:.0f} minutes of wall time here (a shared, busy machine).

**Default wiring, 19 readers** (both cores), 7-byte UIDs, ms; "2 hats of 3, rest 1" is
its worst layout, both hats on SPI0 with the pad (holding a card):

{TABLE_HEAD}
{chr(10).join(two)}

**One bus, 19 readers** (core 0 alone), ms:

{TABLE_HEAD}
{chr(10).join(one)}

**Measured, not derived**: the two-bus figures bench/README.md gave before (each half run
as a one-bus board, the slower half's cycle plus core 0's gathering charged ×114), beside
this run's, ms (mean / worst):

| 19 readers | derived before | measured, harness | firmware T median / max |
|---|---|---|---|
{chr(10).join(derived)}

**Hats walked**: the same tables when a hat was checked by selecting and halting each of
its tags every cycle (commit def13a2), beside this run's, where every reader holding tags
is checked by walking the tree of their first anticollision answers (firmware/README.md),
harness's mean / worst, ms:

| table | selected and halted | walked |
|---|---|---|
{chr(10).join(walked)}

**Hats' tags checked one a cycle**: a hat's walk goes on to read the rest of one of its
long UIDs a cycle, in turn over the bus's hats, where the hat was audited whole every 32
cycles (its tags selected and halted, one read from scratch: 15 frames for a hat of
three): the default wiring's worst layout, harness's mean / worst, ms, before (commit
5b98088) → now: {"; ".join(checks)}.

**Targets, worst cycle, harness's clock** (the emulator is deterministic: no noise but
its own lower bound; the XIP column above is the upper bound):

{chr(10).join(verdicts)}

**The RP2040's own cost per event**, fitted to these runs (least squares over every
bus's half of every table: the emulated half less scan_cycle's pure model of it, against
the frames and anticollision frames the pure model counts, a visit's own cost held at its
fit of commit def13a2, {VISIT_US[0]:g} µs, {VISIT_US[XIP_MISS_CYCLES]:g} µs with the cache
model: a walked visit is a WUPA and as many frames as anticollision frames, so frames,
anticollision frames and visits rise together and no fit tells them apart; a
transaction's cost measured apart ({txns[0]:.1f} µs, {txns.get(XIP_MISS_CYCLES, 0):.1f} µs
with the cache model: 2,000 two-byte transactions as the driver makes them, less the same loop empty
and the bytes' 2 µs); per cycle, the median over the runs of the firmware's own median
cycle less the model's: the bookkeeping around the visits, the two cores' lockstep and
gathering on two buses): **lower bound, no miss: {cost_line(lower)}**; {upper_line}.
companion/devices/scan_model.py charges `RP2040_US = {cost_code(scan_model.RP2040_US)}`
and `RP2040_XIP_US = {cost_code(scan_model.RP2040_XIP_US)}`: {refitted}. The model at
these costs (scan_model's, what `companion doctor` uses) against each run's own cycles, two
ways: the firmware's cycles on scan_cycle's emulated chips with the costs charged per
event (what bench/scan_cycle.py and drop_to_glass.py give; largest error of a median:
{errors[0] * 100:.1f} % with no miss, {errors.get(XIP_MISS_CYCLES, 0) * 100:.1f} % with the
cache model), and scan_model's sums per visit (`cycle_ms`, what `companion doctor` holds a
real Pico's T median to, and `worst_cycle_ms`, what the kit's bus warning uses; largest
error of `cycle_ms` against the T median: {summed[0] * 100:.1f} %,
{summed.get(XIP_MISS_CYCLES, 0) * 100:.1f} % with the cache model: it is a mean, audits
averaged in, and adds up a frame's time where the firmware overlaps part of it with the
air):

{MODEL_HEAD}
{chr(10).join(rows)}
{settle}{loop}
{HISTORY}
"""


def readme(quick: bool) -> str:
    """bench/README.md's section: every table, with and without the cache model, for 64
    steady cycles (quick: 33, one audit round), and the settle sweep."""
    reason = pico_board.missing()
    if reason:
        raise SystemExit(f"the emulated Pico cannot run: {reason}")
    cycles = 33 if quick else scan_cycle.CYCLES
    xips = (0, XIP_MISS_CYCLES)
    runs = measure(cycles, None, xips)
    txns = {xip: measure_txn(xip) for xip in xips}
    tables = dict(scan_cycle.TWO_BUS_TABLES)
    sweeps = [settle_sweep(name, tables[name], 16 if quick else 32) for name in SETTLE_TABLES]
    turns = [run_turns(100 if quick else TURNS, xip) for xip in xips]
    return section(runs, txns, sweeps, cycles, turns)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cycles", type=int, default=scan_cycle.CYCLES)
    parser.add_argument("--only", help="run only the tables of this name")
    parser.add_argument("--no-xip", action="store_true", help="skip the XIP cache model's runs")
    parser.add_argument("--save", help="write the runs here (JSON)")
    parser.add_argument("--load", help="read the runs from here instead of running them")
    parser.add_argument("--settle", action="store_true", help="the settle time's sweep too")
    parser.add_argument(
        "--readme", action="store_true", help="write the section into bench/README.md"
    )
    parser.add_argument("--turns", type=int, default=0, help="turns of the loop in play")
    parser.add_argument(
        "--turns-only", action="store_true", help="only the turns in play (no table run)"
    )
    parser.add_argument("--memory", type=int, default=0, help="cycles of the heap run")
    parser.add_argument("--dump", help="write what the board sent in the heap run here")
    args = parser.parse_args(argv)
    reason = pico_board.missing()
    if reason and not args.load:
        sys.exit(f"the emulated Pico cannot run: {reason}")
    if args.memory:
        run_memory(args.memory, args.dump)
        return
    if args.turns_only:
        xips = (0,) if args.no_xip else (0, XIP_MISS_CYCLES)
        turns = [run_turns(args.turns or TURNS, xip) for xip in xips]
        if args.save:
            Path(args.save).write_text(json.dumps({"turns": [asdict(t) for t in turns]}))
        print("\n".join([TURN_HEAD, *turn_lines(turns)]))
        return
    saved: dict = {}
    if args.load:
        saved = json.loads(Path(args.load).read_text())
        runs = [Run(**d) for d in saved["runs"]]
        txns = {int(xip): us for xip, us in saved["txns"].items()}
    else:
        xips = (0,) if args.no_xip else (0, XIP_MISS_CYCLES)
        runs = measure(args.cycles, args.only, xips)
        txns = {xip: measure_txn(xip) for xip in xips}
    sweeps = [
        SettleRun(
            s["name"],
            {int(k): v for k, v in s["cycles"].items()},
            {int(k): v for k, v in s["read"].items()},
        )
        for s in saved.get("sweeps", ())
    ]
    if args.settle:
        tables = dict(scan_cycle.TWO_BUS_TABLES)
        sweeps = [settle_sweep(name, tables[name], 32) for name in SETTLE_TABLES]
    turns = [TurnRun(**t) for t in saved.get("turns", ())]
    if args.turns:
        turns = [run_turns(args.turns, xip) for xip in sorted({r.xip for r in runs})]
    if args.save:
        Path(args.save).write_text(
            json.dumps(
                {
                    "runs": [asdict(r) for r in runs],
                    "txns": txns,
                    "sweeps": [asdict(s) for s in sweeps],
                    "turns": [asdict(t) for t in turns],
                }
            )
        )
    text = section(runs, txns, sweeps, args.cycles, turns)
    if args.readme:
        import readme

        readme.write_section("pico_cycle", text)
    print(text)
    for xip in sorted({r.xip for r in runs}):
        print(f"fitted, XIP miss {xip} cycles: {cost_code(fit(runs, xip, txns[xip]))}")


if __name__ == "__main__":
    main()
