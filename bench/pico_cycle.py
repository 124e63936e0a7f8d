"""The scan cycle and the heap of the firmware on the RP2040's own MicroPython, emulated.

    .venv/bin/python bench/pico_cycle.py [--cycles 64] [--only NAME] [--memory 10000]

Each table layout boots its own emulated Pico (tests/pico: MicroPython v1.28.0 for the
RPI_PICO board in rp2040js, firmware/ in its flash, an MFRC522 model behind each chip
select), with the tags of bench/scan_cycle.py on its readers, all on one SPI bus (the
emulator runs core 0 only). It asks for the firmware's timings (``CONF stats=1``) and
reads the scan cycle two ways:

- the firmware's own ``T`` frame: min / median / max of its last 64 ``scan.cycle()``s,
  timed with ``utime.ticks_us`` (emulated time: instructions at 125 MHz, SPI bytes at the
  bus's 8 MHz, what the chips make it wait);
- the harness's clock: from reader 0's antenna switched on to the last reader's switched
  off (the scan), and from one visit of reader 0 to the next (the loop turn: the scan,
  the link, the heartbeat), each of ``--cycles`` steady cycles after ``WARMUP``.

Beside each: bench/scan_cycle.py's model of the same table (the same firmware against the
same chip model with no interpreter time: the pure model), and the unix port's
interpreter time in it (scan_cycle's RECORDED_FIT, the x86 figures behind the doctor's
model). The factor of a layout is (emulated - pure) / unix port; the fitted factor, the
least-squares one over the 18-reader layouts, is what scan_cycle.RP2040_FACTOR and
companion/devices/scan_model.py charge.

Two buses are derived, not measured: core 1 never runs in the emulator. Each half of a
two-bus table is measured as a one-bus board of its readers, and a two-bus cycle is the
slower half's cycle of the same number (both cores start each cycle together,
firmware/cores.py), plus core 0's gathering of core 1's results (scan_cycle's MERGE,
charged at the fitted factor).

``--memory N`` runs the real main loop for N cycles on a five-reader table whose tags
come and go (a fresh UID every 200 ms, a hat's tag swapped every 500 ms), with a bench
``main.py`` that samples ``gc.mem_alloc()`` / ``gc.mem_free()`` every 10 cycles, and
collects (``gc.collect()``) after cycle 1 and every 1,000 cycles to read the live heap:
it must not grow, and no ``MemoryError`` may stop the loop.

Wall time: the emulator runs at about a tenth of real time; the layouts take some ten
minutes, ``--memory 10000`` about half an hour.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "pico"))
sys.path.insert(0, str(ROOT / "bench"))

import pico_board  # noqa: E402
import scan_cycle  # noqa: E402

from companion.devices import protocol  # noqa: E402

WARMUP = 4  # cycles before the measured ones: the first reads whole what later is confirmed
WAIT = 3600.0  # wall seconds any one step may take
FIT = scan_cycle.RECORDED_FIT
READERS = scan_cycle.READERS
SPLIT = scan_cycle.SPLIT
TABLES = scan_cycle.TABLES
HALVES = (
    ("9 readers, 1 tag each", [1] * SPLIT),
    ("9 readers, a hat of 3, rest 1", [3] + [1] * (SPLIT - 1)),
    ("9 readers, 2 hats of 3, rest 1", [3, 3] + [1] * (SPLIT - 2)),
)
TWO_BUS = (  # the model's two-bus tables, as their halves
    ("1 tag each", "9 readers, 1 tag each", "9 readers, 1 tag each"),
    ("2 hats of 3, one a bus", "9 readers, a hat of 3, rest 1", "9 readers, a hat of 3, rest 1"),
    ("2 hats of 3, both on SPI0", "9 readers, 2 hats of 3, rest 1", "9 readers, 1 tag each"),
)
TARGETS = {"1 tag each": 30.0, "2 hats of 3, one a bus": 45.0, "2 hats of 3, both on SPI0": 45.0}


@dataclass
class Run:
    """What one board said and did: the harness's per-cycle figures (ms) and the last T."""

    name: str
    tags: list[int]
    scan_ms: list[float] = field(default_factory=list)
    turn_ms: list[float] = field(default_factory=list)
    visit_ms: dict[int, float] = field(default_factory=dict)  # each reader's longest visit
    txns: float = 0.0  # SPI transactions per cycle (chip selects), to hold against the model's
    timing: protocol.Timing | None = None
    hello_ms: float = 0.0
    wall_s: float = 0.0

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scan_ms)

    @property
    def worst(self) -> float:
        return max(self.scan_ms)


def reports(output: bytes) -> list[protocol.Report]:
    reader = protocol.FrameReader()
    return [report for _, report in reader.feed(bytes(output))]


def run_layout(name: str, tags: list[int], cycles: int) -> Run:
    """Boot a board with ``tags`` tags on its readers; time ``cycles`` steady cycles."""
    started = time.monotonic()
    board = pico_board.EmulatedPico(readers=len(tags), pty=False, keep_antennas=True)
    try:
        for reader, count in enumerate(tags):
            for uid in scan_cycle.uids_for(reader, count):
                board.place(reader, uid)
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
    finally:
        board.close()
    run = Run(name, tags, hello_ms=hello_ms, wall_s=time.monotonic() - started)
    last = len(tags) - 1
    firsts = [a for a in board.antennas if a.reader == 0 and a.on]
    starts = [a.ns for a in firsts]
    run.txns = (firsts[WARMUP + cycles].transactions - firsts[WARMUP].transactions) / cycles
    ends = [a.ns for a in board.antennas if a.reader == last and not a.on]
    for k in range(WARMUP, WARMUP + cycles):
        run.scan_ms.append((ends[k] - starts[k]) / 1e6)
        run.turn_ms.append((starts[k + 1] - starts[k]) / 1e6)
    window = (starts[WARMUP], starts[WARMUP + cycles])
    opened: dict[int, int] = {}
    for a in board.antennas:
        if a.on:
            opened[a.reader] = a.ns
        elif window[0] <= opened.get(a.reader, -1) < window[1]:
            visit = (a.ns - opened[a.reader]) / 1e6
            run.visit_ms[a.reader] = max(run.visit_ms.get(a.reader, 0.0), visit)
    timings = [r for r in reports(board.output) if isinstance(r, protocol.Timing)]
    run.timing = timings[-1] if timings else None
    return run


def model(tags: list[int], factor: float) -> dict[str, float]:
    """scan_cycle's one-bus figures of ``tags`` (mean, max, and the per-cycle times)."""
    txn, cost = FIT.charged(factor)
    return scan_cycle.firmware_cycle(tags, overhead_us=txn, cost=cost)


@dataclass
class Fitted:
    pure: dict[str, dict[str, float]]
    unix: dict[str, float]  # the unix port's interpreter time per cycle (ms), mean
    factor: float


def fit(runs: dict[str, Run]) -> Fitted:
    """The factor at which the model's mean cycle fits the emulated ones best (least
    squares over the 18-reader layouts): emulated - pure = factor * unix port."""
    pure = {name: model(runs[name].tags, 0) for name in runs}
    unix = {}
    for name in runs:
        charged = model(runs[name].tags, 100)
        unix[name] = (charged["mean"] - pure[name]["mean"]) / 100
    full = [name for name, _ in TABLES if name in runs]
    num = sum(unix[n] * (runs[n].mean - pure[n]["mean"]) for n in full)
    den = sum(unix[n] ** 2 for n in full)
    return Fitted(pure, unix, num / den if den else 0.0)


def print_layouts(runs: dict[str, Run], fitted: Fitted) -> None:
    print(
        f"{'table (one bus)':>30} {'firmware T min/med/max':>23} {'harness med/mean/worst':>23} "
        f"{'loop +med':>9} {'turn max':>8} {'txns emulated/model':>19}"
    )
    for name, run in runs.items():
        t = run.timing
        firmware = "-"
        if t is not None:
            firmware = "/".join(f"{us / 1000:.1f}" for us in t.cycle_us)
        harness = f"{statistics.median(run.scan_ms):.1f}/{run.mean:.1f}/{run.worst:.1f}"
        loop = statistics.median(run.turn_ms) - statistics.median(run.scan_ms)
        txns = f"{run.txns:.0f} / {fitted.pure[name]['txns']:.0f}"
        print(
            f"{name:>30} {firmware:>23} {harness:>23} {loop:9.2f} {max(run.turn_ms):8.1f} "
            f"{txns:>19}"
        )
    f = fitted.factor
    print()
    print(
        f"{'table (one bus)':>30} {'emulated mean/worst':>19} {'pure model':>14} "
        f"{'unix port':>10} {'factor':>6} {f'model x{f:.0f}':>14} {'model/emulated':>14}"
    )
    for name, run in runs.items():
        pure = fitted.pure[name]
        unix = fitted.unix[name]
        own = (run.mean - pure["mean"]) / unix if unix else 0.0
        at = model(run.tags, f)
        print(
            f"{name:>30} {run.mean:9.1f} /{run.worst:6.1f} {pure['mean']:6.1f} /{pure['max']:6.1f} "
            f"{unix * 1000:7.0f} us {own:6.0f} {at['mean']:6.1f} /{at['max']:6.1f} "
            f"{at['mean'] / run.mean:14.2f}"
        )


def print_two_buses(runs: dict[str, Run], fitted: Fitted) -> None:
    merge_ms = FIT.merge * fitted.factor / 1000
    print(
        f"Two buses, derived: the slower half of each cycle, both halves measured one-bus, "
        f"+ {merge_ms:.2f} ms of core 0's gathering (MERGE {FIT.merge} us x{fitted.factor:.0f}); "
        "the garbage collections of the two-core firmware come between cycles (cores.py)"
    )
    for name, first, second in TWO_BUS:
        if first not in runs or second not in runs:
            continue
        a, b = runs[first].scan_ms, runs[second].scan_ms
        cycles = [max(x, y) + merge_ms for x, y in zip(a, b, strict=True)]
        mean, worst = statistics.fmean(cycles), max(cycles)
        target = TARGETS[name]
        print(
            f"{name:>30}: mean {mean:5.1f} ms, worst {worst:5.1f} ms, target {target:.0f} ms: "
            f"{'met' if worst <= target else 'missed'}"
        )


def print_visits(runs: dict[str, Run]) -> None:
    print("Longest visit of a hat (its audit, read from scratch), harness clock:")
    for name, run in runs.items():
        hats = [r for r, n in enumerate(run.tags) if n >= 2]
        if hats:
            longest = max(run.visit_ms[r] for r in hats)
            single = [run.visit_ms[r] for r, n in enumerate(run.tags) if n == 1]
            one = f", a one-tag reader's {max(single):.2f} ms" if single else ""
            print(f"{name:>30}: a hat's {longest:.2f} ms{one}")


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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cycles", type=int, default=scan_cycle.CYCLES)
    parser.add_argument("--only", help="run only the layout of this name")
    parser.add_argument("--memory", type=int, default=0, help="cycles of the heap run")
    parser.add_argument("--dump", help="write what the board sent in the heap run here")
    args = parser.parse_args(argv)
    reason = pico_board.missing()
    if reason:
        sys.exit(f"the emulated Pico cannot run: {reason}")
    if args.memory:
        run_memory(args.memory, args.dump)
        return
    runs: dict[str, Run] = {}
    for name, tags in (*TABLES, *HALVES):
        if args.only and name != args.only:
            continue
        counts = tags if isinstance(tags, list) else [tags] * READERS
        run = run_layout(name, counts, args.cycles)
        runs[name] = run
        print(
            f"  ran {name}: HELLO at {run.hello_ms:.0f} ms emulated, {run.wall_s:.0f} s wall",
            flush=True,
        )
    fitted = fit(runs)
    print()
    print(
        f"Scan cycle on the emulated RP2040 (MicroPython v1.28.0, 125 MHz, SPI 8 MHz), "
        f"{args.cycles} steady cycles, settle 300 us, timer 300 us, 7-byte UIDs, ms"
    )
    print_layouts(runs, fitted)
    print(f"Fitted factor (least squares over the 18-reader layouts): x{fitted.factor:.1f}")
    print()
    print_two_buses(runs, fitted)
    print()
    print_visits(runs)


if __name__ == "__main__":
    main()
