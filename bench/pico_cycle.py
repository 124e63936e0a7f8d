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
charged at the fitted factor). The default wiring's worst layout, both hats on SPI0 with
the pad (10 readers there, 9 on SPI1), is a row of its own; each two-bus row's worst
cycle is judged against its target by bench/verdict.py.

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
from verdict import judge  # noqa: E402

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
    (
        "10 readers, the pad and 2 hats of 3, rest 1",
        scan_cycle.DEFAULT_WORST[: scan_cycle.DEFAULT_SPLIT],
    ),
)
TWO_BUS = (  # the model's two-bus tables, as their halves
    ("1 tag each", "9 readers, 1 tag each", "9 readers, 1 tag each"),
    ("2 hats of 3, one a bus", "9 readers, a hat of 3, rest 1", "9 readers, a hat of 3, rest 1"),
    ("2 hats of 3, both on SPI0", "9 readers, 2 hats of 3, rest 1", "9 readers, 1 tag each"),
    (
        scan_cycle.DEFAULT_WORST_NAME,
        "10 readers, the pad and 2 hats of 3, rest 1",
        "9 readers, 1 tag each",
    ),
)
TARGETS = {
    "1 tag each": 30.0,
    "2 hats of 3, one a bus": 45.0,
    "2 hats of 3, both on SPI0": 45.0,
    scan_cycle.DEFAULT_WORST_NAME: 45.0,
}


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
        verdict = judge([worst], TARGETS[name], unit="ms")
        print(f"{name:>30}: mean {mean:5.1f} ms, worst cycle {verdict}")


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


HISTORY = """History (measured on the emulator when this bench was written, recorded in commit
1185454, not regenerated). **What the real port caught that the unix port did not:**

- *The SPI bus runs at 8 MHz*, not 10: MicroPython v1.28 clocks the RP2040's peripherals
  at 48 MHz, and 48 / 6 is the fastest rate at or under the 10 MHz asked
  (`SPI(0, baudrate=8000000, ...)`, the port itself says). The fake bus of the firmware's
  tests now runs at the rate the rp2 port sets (0.2 ms more per cycle of 18 one-tag
  readers).
- *A heartbeat cost 57 ms of the loop* (one tag each: turn max 100.1 ms against a 43 ms
  cycle): the `F` frame of 19 readers took 39 ms to build, 26 of them the bit-by-bit
  CRC-16 (8 bytecode iterations a byte) and 13 the per-character checks of every UID;
  an `S` frame 2.5 ms. With a table-driven CRC (3.5 ms for the `F` frame) and the
  alphabets checked by `str.strip`, the `F` frame takes 12 ms, an `S` frame 1.0, and
  the heartbeat's turn 21 ms more than a plain one (64.4 ms).
- *`gc.mem_free()` walks the whole heap's allocation table*: 8.9 ms on the RP2040 (so does
  `gc.mem_alloc()`). The two-core scanner asked it every cycle, which would have put
  8.9 ms in every two-bus cycle: the default table at about 30 / 32 ms, past its target.
  It now collects between cycles after 32 changed readers or 256 cycles, never asking.
- *A collection takes 5.4 to 7.8 ms* with the firmware's heap, where the unix port makes
  it look free; on one bus MicroPython collects by itself when the heap is full (ten
  times in the 10,000 cycles below), in whatever cycle allocates.
- *Python is slow on an M0+ in ways a desktop hides*: a `for` loop turn 3.1 µs, a call
  7 µs, a short string built by `+` or an f-string 0.2 ms; `@micropython.native` halves
  a loop (1.6 µs a turn); the loop's own time between two cycles is 0.6–0.9 ms (polling
  the USB input, the timing rings, the watchdog).
- *The native emitter, `machine.SPI`, `machine.Pin`, `machine.WDT` and the USB CDC* work
  as the firmware uses them: every visit is Thumb code, the watchdog is fed through the
  runs, a board left unfed restarts 8 s later, and the serial link carried a whole game's
  frames with no bad CRC and no sequence gap (tests/pico).

**Memory** (`--memory 10000`, history: about 18 minutes of wall time, not run by the
generator): the real loop for 10,000 cycles on five readers (the pad empty, a 7-byte and
a 4-byte tag, a tag that comes and goes every 200 ms, each time with a new UID, and a
hat of two whose oldest tag is swapped for a new one every 500 ms), a bench `main.py`
sampling `gc.mem_alloc()` / `gc.mem_free()` every 10 cycles and collecting after cycle 1
and every 1,000 cycles: 211.8 s emulated (18 minutes of wall time), 1,824 `S` frames,
**no MemoryError**. The heap is 245,888 bytes; the firmware, compiled and running, holds
**57.7 KB** of it (188 KB free). **Live heap after a collection: 57,664 bytes after
cycle 1, then 57,824 to 58,112 at every thousandth cycle (the tags then on the table),
57,952 at 1,000 and at 10,000: no growth.** The loop allocates 368 bytes a cycle on
average with tags moving this fast (a change and its frames about 1.5 KB, a heartbeat a
few KB, the bench's own sampling included); a steady cycle allocates nothing.
MicroPython collected by itself 10 times, each time the heap was full (least free 608
bytes just before); a collection took 5.4 to 7.8 ms."""
"""What runs once, by hand, and what the emulator first taught: kept as measured."""


LAYOUT_HEAD = (
    "| table (one bus) | firmware T min / med / max | harness med / mean / worst | loop +med "
    "| turn max | SPI txns emulated / model |"
)
MODEL_HEAD = (
    "| table (one bus) | emulated mean / worst | pure model | unix port | factor "
    "| model ×{f:.0f} | model / emulated |"
)


def readme(quick: bool) -> str:
    """bench/README.md's section: every layout for 64 steady cycles (quick: 33, one audit
    round: every reader's audit, the longest visit, still falls in the window)."""
    cycles = 33 if quick else scan_cycle.CYCLES
    reason = pico_board.missing()
    if reason:
        raise SystemExit(f"the emulated Pico cannot run: {reason}")
    runs: dict[str, Run] = {}
    for name, tags in (*TABLES, *HALVES):
        counts = tags if isinstance(tags, list) else [tags] * READERS
        runs[name] = run_layout(name, counts, cycles)
    fitted = fit(runs)
    f = fitted.factor
    first, model_rows, agree = [], [], 0.0
    for name, run in runs.items():
        t = run.timing
        firmware = " / ".join(f"{us / 1000:.1f}" for us in t.cycle_us) if t else "–"
        if t is not None:
            agree = max(agree, abs(t.cycle_us[1] / 1000 - statistics.median(run.scan_ms)))
        loop = statistics.median(run.turn_ms) - statistics.median(run.scan_ms)
        first.append(
            f"| {name} | {firmware} | {statistics.median(run.scan_ms):.1f} / {run.mean:.1f} / "
            f"{run.worst:.1f} | {loop:.2f} | {max(run.turn_ms):.1f} | {run.txns:,.0f} / "
            f"{fitted.pure[name]['txns']:,.0f} |"
        )
        pure, unix = fitted.pure[name], fitted.unix[name]
        own = (run.mean - pure["mean"]) / unix if unix else 0.0
        at = model(run.tags, f)
        model_rows.append(
            f"| {name} | {run.mean:.1f} / {run.worst:.1f} | {pure['mean']:.1f} / "
            f"{pure['max']:.1f} | {unix * 1000:.0f} µs | {own:.0f} | {at['mean']:.1f} / "
            f"{at['max']:.1f} | {at['mean'] / run.mean:.2f} |"
        )
    merge_ms = FIT.merge * f / 1000
    two = []
    for name, a, b in TWO_BUS:
        if a not in runs or b not in runs:
            continue
        times = [
            max(x, y) + merge_ms for x, y in zip(runs[a].scan_ms, runs[b].scan_ms, strict=True)
        ]
        verdict = judge([max(times)], TARGETS[name], unit="ms")
        row = [
            name,
            f"{statistics.fmean(times):.1f} ms",
            f"{max(times):.1f} ms",
            f"{TARGETS[name]:g} ms: {verdict.short}",
        ]
        bold = name == scan_cycle.DEFAULT_WORST_NAME
        two.append("| " + " | ".join(f"**{c}**" if bold else c for c in row) + " |")
    hats = [
        max(run.visit_ms[r] for r, n in enumerate(run.tags) if n >= 2)
        for run in runs.values()
        if any(n >= 2 for n in run.tags)
    ]
    singles = [run.visit_ms[r] for run in runs.values() for r, n in enumerate(run.tags) if n == 1]
    one = runs["1 tag each"]
    boot = runs["empty"].hello_ms / 1000
    wall = sum(run.wall_s for run in runs.values()) / 60
    return f"""## pico_cycle.py — the firmware on the RP2040's own MicroPython, emulated

`.venv/bin/python bench/pico_cycle.py [--cycles 64] [--only NAME]` and
`.venv/bin/python bench/pico_cycle.py --memory 10000` (`npm ci` first: tests/pico).
Each table boots its own emulated Pico (tests/pico/README.md): MicroPython v1.28.0 for the
RPI_PICO board in the rp2040js emulator, firmware/ in its littlefs flash, `main.py`
running from power-up, an MFRC522 model (tests/firmware/chip.py) behind each chip select,
the readers all on SPI0 (the emulator runs core 0 only). Time is the emulator's:
instructions counted at 125 MHz, SPI bytes at the bus's 8 MHz, the chips' waits: the
same on any machine, only the wall time depends on it. Flash cache misses are not
charged, so every figure here is a lower bound for a real Pico. The scan cycle is read
from the firmware's own `T` frame (`CONF stats=1`: min / median / max of its last 64
`scan.cycle()`s, `utime.ticks_us`) and from the harness's clock (reader 0's antenna on to
the last reader's off, {cycles} steady cycles after {WARMUP}; "loop +med" is the loop's
own time per turn beyond the scan, the median turn less the median scan; "turn max" the
longest turn, a heartbeat's `F` and `T` frames included). Boot to HELLO: {boot:.1f} s
emulated (MicroPython compiles firmware/ at every power-up); the whole run took
{wall:.0f} minutes of wall time here.

18 readers (the pin map's first 18 chip selects) unless said, 7-byte UIDs, ms:

{LAYOUT_HEAD}
|---|---|---|---|---|---|
{chr(10).join(first)}

The firmware's median and the harness's agree within {agree:.1f} ms (the firmware's also
counts the few instructions before the first antenna and after the last). With one tag
on each of 18 readers a cycle is {min(one.scan_ms):.1f} ms, or up to {one.worst:.1f} ms
when it holds one reader's audit. The SPI transactions are the model's but for polls of
ComIrqReg: the interpreter's own time lets the 300 µs timer of an empty reader run out
before the first poll, where the pure model polls twice (tests/pico checks it on every
run).

Beside the model (bench/scan_cycle.py, the same firmware against the same chip model):
"unix port" is the interpreter time per cycle that RECORDED_FIT charges at ×1, "factor"
what (emulated − pure) / unix port gives for that table alone:

{MODEL_HEAD.format(f=f)}
|---|---|---|---|---|---|---|
{chr(10).join(model_rows)}

**The fitted factor: ×{f:.1f}** (least squares over the five 18-reader tables).
`RP2040_FACTOR` (scan_cycle.py) and companion/devices/scan_model.py charge
×{scan_cycle.RP2040_FACTOR}, and `companion doctor` says so.

**Two buses, derived, not measured** (core 1 never runs in the emulator): each half of a
two-bus table is measured as a one-bus board of its readers (the rows of 9 and 10
readers); in lockstep both halves start each cycle together, so a two-bus cycle is the
slower half's cycle of the same number, plus core 0's gathering of core 1's results
(MERGE {FIT.merge:g} µs ×{f:.0f} = {merge_ms:.2f} ms). The two-core firmware's garbage
collections come between cycles, after the frames (firmware/cores.py), not in them. The
last row is the default wiring's worst layout: the pad (holding a card) and both hats on
SPI0, 10 readers there, 9 on SPI1. The emulator is deterministic: a verdict here has no
noise but the emulator's own lower bound.

| two-bus table (derived) | mean | worst | target (worst cycle) |
|---|---|---|---|
{chr(10).join(two)}

A hat's audit (one of its tags read from scratch) is its longest visit: {max(hats):.1f} ms,
against {max(singles):.1f} ms for a one-tag reader's audit.

{HISTORY}
"""


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
