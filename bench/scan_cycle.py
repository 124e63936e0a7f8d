"""Scan-cycle model of the Pico firmware: how long one pass over 18 readers takes.

    .venv/bin/python bench/scan_cycle.py [--calibrate]

The real firmware (firmware/scanner.py and mfrc522.py) runs against the emulated MFRC522
chips of tests/firmware/chip.py. Emulated time advances by every SPI byte at the bus's rate
(each byte counted by the fake bus: 8 MHz, what MicroPython's rp2 port gives for the 10 MHz
asked), by the firmware's own sleeps (antenna settle), and by what the chips make the
firmware wait for: air time of frames and answers at 106 kbit/s, the frame delay time, and
the chip's timer when nobody answers. A cycle's time is the emulated clock's advance over
one ``Scanner.cycle()``. The pure model charges nothing for running MicroPython between
SPI transfers.

The charged model adds the interpreter: bench/mp_interp_cost.py runs the firmware's own
visits under the real MicroPython unix port and gives its cost per SPI transaction, per
radio frame, per ANTICOLLISION frame on top (resolving a UID bit by bit is the costliest
frame: a full read of a hat of three has nine) and per visit; times ``RP2040_FACTOR``
they are charged on the emulated clock (per transaction when the chip select falls, per
frame when the chip starts sending, per visit when the antenna comes on). The fit
charged is ``RECORDED_FIT`` (an x86 desktop core), the one ``RP2040_FACTOR`` was measured
against; ``--calibrate`` runs mp_interp_cost.py on this machine and charges its own fit
instead, which only means something on a machine as fast as that one.

``RP2040_FACTOR`` = 114 is measured: bench/pico_cycle.py runs the same firmware on the
RP2040's own MicroPython (v1.28.0 for the Pico, in the rp2040js emulator, instructions
counted at 125 MHz) on one bus, and 114 is the factor at which this model's cycles fit
the emulated ones best (least squares over the 18-reader tables; each table alone gives
87 to 116, bench/README.md). It is a lower bound for a real Pico: the emulator does not
charge the flash cache's misses. It replaced an estimate of 100; 50 and 200 are printed
too, and a real Pico's own figure comes from its heartbeat (``companion doctor``).

The naive scan for comparison is modelled on the defaults of common MicroPython MFRC522
drivers: every antenna always on, timer 15.5 ms (TPrescaler 0xD3E, TReload 30), a REQA
and a level-1 anticollision on every reader every cycle, one register per SPI transaction
(read-modify-write for bit masks, one transaction per FIFO byte), and a busy poll of
ComIrqReg. An unanswered REQA therefore waits the full 15.5 ms. The naive scan is given
fresh tags on every visit (its best case; in reality a tag left READY ignores the next
REQA and is only seen every other cycle), and it cannot enumerate several tags at all.

The default wiring (hardware/wiring.md) has 19 readers: the pad and spots 1..9 on SPI0,
spots 10..18 on SPI1. Its worst case, both hats on SPI0 with the pad (holding a card), is
the row ``DEFAULT_WORST``. Every target is judged on the worst cycle by bench/verdict.py,
the model's error (``MODEL_ERROR``, its distance to the emulated RP2040) counted as noise.
Its README section is ``readme`` (bench/readme.py).
"""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "firmware"))

import fwload  # noqa: E402

FW = fwload.load_firmware()

import fake_machine  # noqa: E402
import fake_utime  # noqa: E402
import harness  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

from verdict import Verdict, judge  # noqa: E402

READERS = 18
CYCLES = 64  # two audit rounds: every reader holding a long UID or several gets two audits
BAUD = 10_000_000  # asked (hardware/pins.toml); the bus runs at SPI_HZ
SPI_HZ = fake_machine.rp2_baudrate(BAUD)
RP2040_FACTOR = 114  # MicroPython time on x86 -> on an RP2040 at 125 MHz (emulated)
SPLIT = 9  # two buses: readers 0..8 on SPI0 (core 0), 9..17 on SPI1 (core 1)
DEFAULT_SPLIT = 10  # the default wiring: the pad and spots 1..9 on SPI0, 10..18 on SPI1
MODEL_ERROR = 0.03
"""The model at the fitted factor is within 3 % of the emulated RP2040's cycles (but for
the empty table, pico_cycle.py): a target closer than that is within noise."""
ROOT = Path(__file__).resolve().parent.parent


class Fit(NamedTuple):
    """MicroPython's time (us, on the machine that measured it) per SPI transaction, per
    radio frame, per visit, per ANTICOLLISION frame beyond an ordinary frame, and the
    two-core scanner's own work per cycle."""

    txn: float
    frame: float
    visit: float
    anticollision: float
    merge: float

    def charged(self, factor: float) -> tuple[float, tuple[float, float, float]]:
        """(us per transaction, (us per frame, per visit, per anticollision)) on the Pico,
        for ``make_rig``."""
        return self.txn * factor, (
            self.frame * factor,
            self.visit * factor,
            self.anticollision * factor,
        )


# The fit recorded on an x86 desktop core, used when no ``micropython`` command is at hand.
RECORDED_FIT = Fit(txn=0.055, frame=1.70, visit=1.60, anticollision=1.97, merge=1.8)


def calibrate() -> tuple[Fit, str]:
    """The interpreter's cost on this machine, and its source."""
    exe = Path(sys.executable).parent / "micropython"
    found = str(exe) if exe.exists() else shutil.which("micropython")
    if not found:
        return RECORDED_FIT, "recorded (no micropython command)"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MICROPY")}
    done = subprocess.run(
        [found, str(ROOT / "bench" / "mp_interp_cost.py"), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=True,
    )
    lines = done.stdout.strip().splitlines()
    fit, merge = lines[-1].split(), lines[-2].split()
    assert fit[0] == "FIT" and merge[0] == "MERGE", done.stdout
    txn, frame, visit, anticollision = (float(x) for x in fit[1:5])
    return Fit(txn, frame, visit, anticollision, float(merge[1])), "measured:\n" + done.stdout


def uids_for(reader: int, count: int) -> list[str]:
    """Distinct NTAG-like 7-byte UIDs; the first three bytes differ between tags."""
    return [f"04{reader:02X}{k:02X}5A1C{0x80 + reader:02X}{k:02X}" for k in range(count)]


NO_COST = (0.0, 0.0, 0.0)


def make_rig(
    tags, overhead_us: float, long_uids: bool = True, cost=NO_COST, timeout_us=None
) -> harness.Rig:
    """``tags`` per reader: a list of one count per reader, or an int for each of 18."""
    counts = tags if isinstance(tags, list) else [tags] * READERS
    rig = harness.Rig(
        FW.mfrc522,
        n=len(counts),
        baudrate=BAUD,
        overhead_us=overhead_us,
        frame_overhead_us=cost[0],
        timeout_us=timeout_us,
    )
    for r in range(len(counts)):
        rig.chips[r].visit_overhead_ns = int(cost[1] * 1000)
        rig.chips[r].anticollision_overhead_ns = int(cost[2] * 1000)
        for uid in uids_for(r, counts[r]):
            rig.place(r, uid if long_uids else uid[6:14])
    return rig


def firmware_cycle(
    tags, overhead_us: float = 0, settle_us: int = 300, long_uids=True, cost=NO_COST
):
    """Mean and worst steady-state cycle (ms), first cycle (ms), SPI bytes and transactions,
    and each cycle's time (ms) of one core scanning every reader on one bus."""
    counts = tags if isinstance(tags, list) else [tags] * READERS
    rig = make_rig(counts, overhead_us, long_uids, cost)
    scan = FW.scanner.Scanner(rig.readers, settle_us=settle_us)
    scan.start()
    start = rig.clock.ns
    scan.cycle()
    first_ms = (rig.clock.ns - start) / 1e6
    scan.cycle()
    rig.reset_stats()
    times = []
    for _ in range(CYCLES):
        start = rig.clock.ns
        scan.cycle()
        times.append((rig.clock.ns - start) / 1e6)
    stats = rig.stats()
    busy_ms = sum(c.busy_ns for c in rig.chips) / 1e6 / CYCLES
    return {
        "mean": sum(times) / len(times),
        "max": max(times),
        "times": times,
        "first": first_ms,
        "bytes": stats["bytes"] / CYCLES,
        "txns": stats["transactions"] / CYCLES,
        "spi_ms": stats["bytes"] * 8 / SPI_HZ * 1e3 / CYCLES,
        "busy_ms": busy_ms,
        "seen": [len(s) for s in scan.sets()] == counts,
    }


def two_bus_cycle(
    tags, overhead_us: float = 0, cost=NO_COST, merge_ms: float = 0.0, split: int = SPLIT
):
    """Mean and worst cycle (ms) with the first ``split`` readers on SPI0 (core 0) and the
    rest on SPI1 (core 1), in lockstep (firmware/cores.py): each cycle lasts as long as the
    slower half, plus core 0's own ``merge_ms`` of gathering core 1's results. The buses
    share nothing, so each half runs on its own emulated board."""
    counts = tags if isinstance(tags, list) else [tags] * READERS
    halves = [
        firmware_cycle(half, overhead_us, cost=cost) for half in (counts[:split], counts[split:])
    ]
    times = [
        max(a, b) + merge_ms for a, b in zip(halves[0]["times"], halves[1]["times"], strict=True)
    ]
    return {
        "mean": sum(times) / len(times),
        "max": max(times),
        "seen": halves[0]["seen"] and halves[1]["seen"],
    }


class NaiveReader:
    """A reader driven the way common hobby drivers do it (see the module docstring)."""

    def __init__(self, spi, cs_pin, max_polls=2000):
        self.max_polls = max_polls
        self.spi = spi
        self.cs = fake_machine.Pin(cs_pin, fake_machine.Pin.OUT, value=1)

    def _w(self, reg, value):
        self.cs(0)
        self.spi.write(bytes([reg << 1, value]))
        self.cs(1)

    def _r(self, reg):
        buf = bytearray(2)
        self.cs(0)
        self.spi.write_readinto(bytes([0x80 | (reg << 1), 0]), buf)
        self.cs(1)
        return buf[1]

    def _set(self, reg, mask):
        self._w(reg, self._r(reg) | mask)

    def _clear(self, reg, mask):
        self._w(reg, self._r(reg) & ~mask & 0xFF)

    def init(self):
        self._w(0x01, 0x0F)
        fake_utime.sleep_ms(50)
        self._w(0x2A, 0x8D)
        self._w(0x2B, 0x3E)
        self._w(0x2D, 30)
        self._w(0x2C, 0)
        self._w(0x15, 0x40)
        self._w(0x11, 0x3D)
        self._set(0x14, 0x03)  # antenna on, for good

    def _transceive(self, data, last_bits=0):
        self._w(0x01, 0x00)
        self._w(0x04, 0x7F)
        self._set(0x0A, 0x80)
        for byte in data:
            self._w(0x09, byte)
        self._w(0x0D, last_bits)
        self._w(0x01, 0x0C)
        self._set(0x0D, 0x80)
        for _ in range(self.max_polls):
            irq = self._r(0x04)
            if irq & 0x31:
                break
        self._clear(0x0D, 0x80)
        if not irq & 0x20 or self._r(0x06) & 0x1B:
            return None
        n = self._r(0x0A)
        return [self._r(0x09) for _ in range(n)]

    def scan(self):
        if self._transceive([0x26], 7) is None:
            return None
        answer = self._transceive([0x93, 0x20])
        if answer is None or len(answer) != 5:
            return None
        return bytes(answer[:4])


def naive_cycle(tags: int, fresh: bool, overhead_us: float = 0):
    """Mean naive cycle (ms). ``fresh``: every tag starts IDLE at each visit (best case).

    The poll cap is lifted so that, as on a real Pico where one poll takes tens of
    microseconds, an unanswered frame waits for the 15.5 ms timer.
    """
    rig = make_rig(tags, overhead_us, timeout_us=1000)
    readers = [NaiveReader(rig.spi, cs, max_polls=1_000_000) for cs in rig.cs]
    for reader in readers:
        reader.init()
    times = []
    for _ in range(4):
        start = rig.clock.ns
        for r, reader in enumerate(readers):
            if fresh:
                for tag in rig.table.tags:
                    if tag.home is rig.chips[r]:
                        tag.power_on(0)
            reader.scan()
        times.append((rig.clock.ns - start) / 1e6)
    return sum(times) / len(times)


HATS = [3, 3] + [1] * (READERS - 2)
HATS_EMPTY = [3, 3] + [0] * (READERS - 2)
HATS_APART = [3] + [1] * (SPLIT - 1) + [3] + [1] * (READERS - SPLIT - 1)  # one a bus
TWO_BUS_TABLES = (
    ("empty", 0),
    ("1 tag each", 1),
    ("2 hats of 3, one a bus", HATS_APART),
    ("2 hats of 3, both on SPI0", HATS),
    ("3 tags each", 3),
)
DEFAULT_ONE = [1] * (READERS + 1)  # the pad and every spot holding one tag
DEFAULT_WORST = [1, 3, 3] + [1] * (READERS - 2)  # the pad (a card) and both hats on SPI0
DEFAULT_WORST_NAME = "default wiring's worst: 19 readers, both hats on SPI0 with the pad"
DEFAULT_TABLES = (
    ("19 readers, 1 tag each", DEFAULT_ONE),
    (DEFAULT_WORST_NAME, DEFAULT_WORST),
)
"""The default wiring (pad + 9 on SPI0, 9 on SPI1): one tag each, and its worst layout."""
TABLES = (
    ("empty", 0),
    ("1 tag each", 1),
    ("2 hats of 3, rest 1", HATS),
    ("2 hats of 3, rest 0", HATS_EMPTY),
    ("3 tags each", 3),
)


def table_row(
    name, tags, fit, factors, two_buses: bool, results: dict, split: int = SPLIT
) -> list[str]:
    """The "mean / worst" cells of one table, pure then charged by each factor; each
    result goes into ``results`` under (name, factor), the pure one under factor 0."""
    cells = []
    for factor in (0, *factors):
        txn, cost = fit.charged(factor)
        if two_buses:
            merge_ms = fit.merge * factor / 1000
            f = two_bus_cycle(tags, txn, cost, merge_ms, split)
        else:
            f = firmware_cycle(tags, overhead_us=txn, cost=cost)
        results[(name, factor)] = f
        cells.append(f"{f['mean']:6.1f} /{f['max']:6.1f}{' ' if f['seen'] else '!'}")
    return cells


def targets(results: dict, split_results: dict) -> list[tuple[str, str, dict, Verdict]]:
    """(target, layout, its figures, the worst cycle's verdict) at ``RP2040_FACTOR``."""
    x = RP2040_FACTOR
    rows = (
        ("≤ 30 ms, one tag each", 30, "one bus", results[("1 tag each", x)]),
        ("≤ 30 ms, one tag each", 30, "two buses", split_results[("1 tag each", x)]),
        (
            "≤ 30 ms, one tag each",
            30,
            "the default wiring (19 readers)",
            split_results[("19 readers, 1 tag each", x)],
        ),
        ("≤ 45 ms, 2 hats of 3", 45, "one bus", results[("2 hats of 3, rest 1", x)]),
        (
            "≤ 45 ms, 2 hats of 3",
            45,
            "two buses, one a bus",
            split_results[("2 hats of 3, one a bus", x)],
        ),
        (
            "≤ 45 ms, 2 hats of 3",
            45,
            "two buses, both on SPI0",
            split_results[("2 hats of 3, both on SPI0", x)],
        ),
        ("≤ 45 ms, 2 hats of 3", 45, DEFAULT_WORST_NAME, split_results[(DEFAULT_WORST_NAME, x)]),
    )
    return [
        (label, where, f, judge([f["max"]], limit, unit="ms", tolerance=MODEL_ERROR))
        for label, limit, where, f in rows
    ]


def _markdown_rows(tables, fit, factors, two_buses, results, split=SPLIT) -> list[str]:
    rows = []
    for name, tags in tables:
        cells = table_row(name, tags, fit, factors, two_buses, results, split)
        cells = [" / ".join(c.replace("!", " (a tag unseen)").split("/")) for c in cells]
        cells = [" ".join(c.split()) for c in cells]
        if name == DEFAULT_WORST_NAME:
            rows.append(f"| **{name}** | " + " | ".join(f"**{c}**" for c in cells) + " |")
        else:
            rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return rows


def readme(quick: bool) -> str:
    """bench/README.md's section (the model is deterministic: `quick` changes nothing)."""
    fit, x = RECORDED_FIT, RP2040_FACTOR
    factors = (50, x, 200)
    head = "| table | pure model | " + " | ".join(f"charged ×{f}" for f in factors) + " |"
    rule = "|---|---|---|---|---|"
    results: dict = {}
    one_bus = _markdown_rows(TABLES, fit, factors, False, results)
    split_results: dict = {}
    two_bus = _markdown_rows(TWO_BUS_TABLES, fit, factors, True, split_results)
    two_bus += _markdown_rows(DEFAULT_TABLES, fit, factors, True, split_results, DEFAULT_SPLIT)
    verdicts = []
    for label, where, f, verdict in targets(results, split_results):
        line = f"- {label}, {where}: {verdict} (mean {f['mean']:.1f} ms)"
        verdicts.append(f"**{line[2:]}**" if where == DEFAULT_WORST_NAME else line)
    verdicts = [v if v.startswith("- ") else f"- {v}" for v in verdicts]
    return f"""## scan_cycle.py — Pico scan cycle

`.venv/bin/python bench/scan_cycle.py [--calibrate]` runs the real firmware/scanner.py
and mfrc522.py against the emulated MFRC522 of tests/firmware/chip.py. Emulated time
advances with every SPI byte at {SPI_HZ / 1e6:g} MHz (counted by the fake bus: what
MicroPython's rp2 port gives for the {BAUD / 1e6:g} MHz pins.toml asks, as the emulated
Pico showed, pico_cycle.py below), the firmware's sleeps (antenna settle, 300 µs), and
what the chip makes it wait for: frames and answers at 106 kbit/s, the frame delay time,
and the 300 µs timer when nobody answers. The model is deterministic: it gives the same
figures on any machine.

**The interpreter is charged, from a fixed reference, not from this host.**
`bench/mp_interp_cost.py` runs under the real MicroPython unix port
(`.venv/bin/micropython bench/mp_interp_cost.py .`): each steady visit (empty, one tag,
hats of 2 and 3) and each kind of audit visit is recorded against the emulated chip, then
replayed 5,000 times (the fastest of 5 rounds) with the chip out of the loop, so only the
firmware's own time is measured; a least-squares fit gives a cost per SPI transaction,
per frame, per anticollision frame on top, and per visit. The fit charged is
`RECORDED_FIT`, measured once on an x86 desktop core: **{fit.txn:.3f} µs per
transaction, {fit.frame:.2f} µs per frame, {fit.anticollision:.2f} µs more for an
anticollision frame, {fit.visit:.2f} µs per visit**, and {fit.merge:.1f} µs for core 0's
gathering of core 1's results (`MERGE`). `--calibrate` charges this machine's own fit
instead, which only means something on a machine as fast as that reference (a slower or
busier host would model a slower Pico). These times ×`RP2040_FACTOR` = **{x}** are
charged on the emulated clock; ×{x} is measured on the RP2040's own MicroPython in an
emulator (pico_cycle.py, below), against this same fit: a lower bound for a real Pico
(the emulator does not charge flash cache misses). ×50 and ×200 are printed too.
`companion doctor` reads a real Pico's `T` frames and prints the factor its median cycle
implies.

An anticollision frame costs the interpreter twice what another frame does: the UID is
resolved bit by bit, then copied and checked; a hat's periodic full read is mostly
anticollision.

{READERS} readers on one SPI bus, 7-byte UIDs, steady state over {CYCLES} cycles,
mean / worst ms:

{head}
{rule}
{chr(10).join(one_bus)}

**Two buses, two cores** (firmware/cores.py, hardware/wiring.md "Two buses"): readers
0..{SPLIT - 1} on SPI0 scanned by core 0, {SPLIT}..{READERS - 1} on SPI1 by core 1, in
lockstep. The rp2 port of MicroPython runs core 1's thread without a global lock, so the
halves really overlap; a cycle lasts as long as the slower half, plus core 0's gathering
of core 1's results (`MERGE`, charged like the rest). Each half runs on its own emulated
board, as the buses share nothing. The last two rows are the default wiring
(hardware/wiring.md): 19 readers, the pad and spots 1..9 on SPI0 ({DEFAULT_SPLIT}
readers), spots 10..18 on SPI1 (9); its worst layout puts both hats of three on SPI0
with the pad, which holds a card:

{head}
{rule}
{chr(10).join(two_bus)}

**Targets, charged ×{x}, on the worst cycle** (the model is within
{MODEL_ERROR * 100:g} % of the emulated RP2040's cycles, pico_cycle.py: a target closer
than that is within noise):

{chr(10).join(verdicts)}

A reader holding one 7-byte tag is audited (every `audit` cycles) by a SELECT of its
whole UID, a HALT and a REQA that only another tag answers: 5 frames where a full read
took 7. A hat's check is conclusive on its own (each known tag selected and halted, then
a REQA that only another tag answers), so its audit does not enumerate the whole hat at
once: one of its tags, in turn, is left out of the SELECTs and read from scratch with
whatever else answers the REQA (15 frames for a hat of three 7-byte tags, where the full
read took 21 and the check takes 13). Each tag of a hat of n is read whole every
n × `audit` cycles. Two antennas are on at the same moment on two buses, about half a mat
apart: try it on the real mat before relying on it (wiring.md).

History (issue 14, measured then, not regenerated): when `RECORDED_FIT` was recorded a
one-tag visit took 7.3 µs under the unix port (14 transactions), a hat of three 7-byte
tags 27.0 µs (75 transactions), its audit 34.3 µs (85 transactions, nothing allocated);
the first native driver's visits took 12.5 and 55.0 µs (as bytecode, the one-tag visit
15.5 µs). Before the scan work of issue 14 (1 ms timer, a full transceive set-up of 6
transactions per frame, polls every 10 µs, hats enumerated every cycle, one bus), at
10 MHz and ×100: empty 25.3 (×100: 47.2), one tag each 28.7 / 30.7 (×100: 60.8 / 63.9),
two hats + one tag 59.6 / 62.0 (×100: 109.6 / 113.1), two hats + empty 56.6 (×100:
97.4), three tags each 307.1 (×100: 499.2). SPI transactions per cycle, one tag each:
1,524 → 262.
"""


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    fit, source = calibrate() if "--calibrate" in args else (RECORDED_FIT, "recorded")
    print(f"Interpreter cost, {source.strip()}")
    print(
        f"fit: {fit.txn:.3f} us/transaction, {fit.frame:.2f} us/frame "
        f"(+{fit.anticollision:.2f} an anticollision), {fit.visit:.2f} us/visit; "
        f"charged x{RP2040_FACTOR} for an RP2040 at 125 MHz (measured on the emulated RP2040, "
        "bench/pico_cycle.py)"
    )
    print()
    print(
        f"Scan cycle over {READERS} readers (7-byte UIDs), SPI at {SPI_HZ / 1e6:g} MHz "
        f"({BAUD / 1e6:g} asked),"
    )
    print(f"steady state over {CYCLES} cycles, settle 300 us, timer 300 us: mean / worst ms")
    factors = (50, RP2040_FACTOR, 200)
    print(
        f"{'table':>20} {'pure model':>14} "
        + " ".join(f"{f'charged x{f}':>15}" for f in factors)
        + f" {'txns':>6} {'first ms':>9}"
    )
    results = {}
    for name, tags in TABLES:
        cells = table_row(name, tags, fit, factors, False, results)
        pure = results[(name, 0)]
        print(
            f"{name:>20} {cells[0]:>14} "
            + " ".join(f"{c:>15}" for c in cells[1:])
            + f" {pure['txns']:6.0f} {pure['first']:9.1f}"
        )
    print()
    print("Naive scan for comparison (pure model): mean ms")
    for tags in (0, 1):
        print(
            f"{tags:>11} tags/reader: {naive_cycle(tags, fresh=False):6.1f}, "
            f"best case {naive_cycle(tags, fresh=True):6.1f}"
        )
    print()
    print(
        f"Sensitivity, 1 tag per reader, charged x{RP2040_FACTOR}: mean / worst ms by settle time"
    )
    txn, cost = fit.charged(RP2040_FACTOR)
    for settle in (300, 500, 1000, 5000):
        f = firmware_cycle(1, overhead_us=txn, cost=cost, settle_us=settle)
        print(f"{settle:>10} us {f['mean']:6.1f} / {f['max']:6.1f}{'' if f['seen'] else ' !'}")
    print()
    print(
        f"Two SPI buses, one RP2040 core each (firmware/cores.py): readers 0..{SPLIT - 1} on SPI0, "
        f"{SPLIT}..{READERS - 1} on SPI1; the slower half plus core 0's gathering "
        f"({fit.merge:.1f} us here, charged like the rest): mean / worst ms"
    )
    print(
        f"{'table':>26} {'pure model':>14} " + " ".join(f"{f'charged x{f}':>15}" for f in factors)
    )
    split_results = {}
    for name, tags in TWO_BUS_TABLES:
        cells = table_row(name, tags, fit, factors, True, split_results)
        print(f"{name:>26} {cells[0]:>14} " + " ".join(f"{c:>15}" for c in cells[1:]))
    print()
    for name, tags in DEFAULT_TABLES:
        cells = table_row(name, tags, fit, factors, True, split_results, DEFAULT_SPLIT)
        print(f"{name:>26} {cells[0]:>14} " + " ".join(f"{c:>15}" for c in cells[1:]))
    print()
    print(f"Targets, interpreter charged x{RP2040_FACTOR}, on the worst cycle:")
    for label, where, f, verdict in targets(results, split_results):
        print(f"  {label}, {where}: mean {f['mean']:.1f} ms, {verdict}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calibrate", action="store_true", help="charge this machine's fit")
    main(["--calibrate"] if parser.parse_args().calibrate else [])
