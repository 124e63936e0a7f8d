"""Scan-cycle model of the Pico firmware: how long one pass over the table's readers takes.

    .venv/bin/python bench/scan_cycle.py

The real firmware (firmware/scanner.py and mfrc522.py) runs against the emulated MFRC522
chips of tests/firmware/chip.py. Emulated time advances by every SPI byte at the bus's rate
(each byte counted by the fake bus: 8 MHz, what MicroPython's rp2 port gives for the 10 MHz
asked), by the firmware's own sleeps (antenna settle), and by what the chips make the
firmware wait for: air time of frames and answers at 106 kbit/s, the frame delay time, and
the chip's timer when nobody answers. A cycle's time is the emulated clock's advance over
one ``Scanner.cycle()``. The pure model charges nothing for running MicroPython between
SPI transfers.

The charged model adds MicroPython's time as the RP2040 spends it: its own cost per SPI
transaction, per radio frame, per anticollision frame on top, per reader visit, and per
cycle for the bookkeeping around the visits (on two buses, the cores' lockstep and core 0's
gathering of core 1's results) (``scan_model.RP2040_US``),
fitted by bench/pico_cycle.py to the firmware's cycles on both cores of the emulated
RP2040. They are charged on the emulated clock (per transaction when the chip select
falls, per frame when the chip starts sending, per visit when the antenna comes on). The
emulator charges no flash (XIP) cache miss: those costs are a lower bound, and
``scan_model.RP2040_XIP_US``, fitted with a cache model that charges every miss 50
cycles, an upper bound. No figure of the host that runs the model enters it.

The naive scan for comparison is modelled on the defaults of common MicroPython MFRC522
drivers: every antenna always on, timer 15.5 ms (TPrescaler 0xD3E, TReload 30), a REQA
and a level-1 anticollision on every reader every cycle, one register per SPI transaction
(read-modify-write for bit masks, one transaction per FIFO byte), and a busy poll of
ComIrqReg. An unanswered REQA therefore waits the full 15.5 ms. The naive scan is given
fresh tags on every visit (its best case; in reality a tag left READY ignores the next
REQA and is only seen every other cycle), and it cannot enumerate several tags at all.

Every table here has hardware/pins.toml's 19 readers (the pad and 18 spots). The default
wiring puts the pad and spots 1..9 on SPI0 (core 0), spots 10..18 on SPI1 (core 1); its
worst case, both hats on SPI0 with the pad (holding a card), is ``DEFAULT_WORST``. One bus
(every reader on SPI0, one core) is what wiring.md's one-bus table does. Every target is
judged on the worst cycle by bench/verdict.py, the model's error (``MODEL_ERROR``, its
distance to the emulated RP2040) counted as noise. Its README section is ``readme``
(bench/readme.py).
"""

import argparse
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "firmware"))

import fwload  # noqa: E402

FW = fwload.load_firmware()

import fake_machine  # noqa: E402
import fake_utime  # noqa: E402
import harness  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from verdict import Verdict, judge  # noqa: E402

from companion.devices import scan_model  # noqa: E402
from companion.devices.scan_model import Cost, Events  # noqa: E402

CYCLES = 64  # two audit rounds: every reader holding a long UID or several gets two audits
BAUD = 10_000_000  # asked (hardware/pins.toml); the bus runs at SPI_HZ
SPI_HZ = fake_machine.rp2_baudrate(BAUD)
_PINS = tomllib.loads((ROOT / "hardware" / "pins.toml").read_text())["pico"]["readers"]
READERS = len(_PINS["cs"])
"""The pad and every spot: hardware/pins.toml's readers."""
DEFAULT_BUSES = tuple(1 if r in _PINS["spi1"] else 0 for r in range(READERS))
"""The bus of each reader in the default wiring (pins.toml's ``pico.readers.spi1``)."""
ONE_BUS = (0,) * READERS
MODEL_ERROR = scan_model.MODEL_ERROR
"""The charged model is within 5 % of the emulated RP2040's median cycles (pico_cycle.py):
a target closer than that is within noise."""


def uids_for(reader: int, count: int) -> list[str]:
    """Distinct NTAG-like 7-byte UIDs; the first three bytes differ between tags."""
    return [f"04{reader:02X}{k:02X}5A1C{0x80 + reader:02X}{k:02X}" for k in range(count)]


def make_rig(tags, cost: Cost | None = None, long_uids=True, timeout_us=None) -> harness.Rig:
    """A rig of one reader per entry of ``tags`` (how many tags each holds), MicroPython's
    time charged at ``cost`` (None: the pure model)."""
    cost = cost or Cost(0, 0, 0, 0, 0)
    rig = harness.Rig(
        FW.mfrc522,
        n=len(tags),
        baudrate=BAUD,
        overhead_us=cost.txn,
        frame_overhead_us=cost.frame,
        timeout_us=timeout_us,
    )
    for r, count in enumerate(tags):
        rig.chips[r].visit_overhead_ns = int(cost.visit * 1000)
        rig.chips[r].anticollision_overhead_ns = int(cost.anticollision * 1000)
        for uid in uids_for(r, count):
            rig.place(r, uid if long_uids else uid[6:14])
    return rig


def firmware_cycle(tags, cost: Cost | None = None, settle_us: int = 300, long_uids=True):
    """One core scanning the readers of ``tags`` on one bus: the mean and worst steady
    cycle (ms), each cycle's time, the first cycle, and per cycle the SPI bytes,
    transactions, frames, anticollision frames and visits."""
    rig = make_rig(tags, cost, long_uids)
    scan = FW.scanner.Scanner(rig.readers, settle_us=settle_us)
    scan.start()
    start = rig.clock.ns
    scan.cycle()
    first_ms = (rig.clock.ns - start) / 1e6
    scan.cycle()
    rig.reset_stats()
    times = []
    per_cycle = cost.merge / 1000 if cost else 0.0
    for _ in range(CYCLES):
        start = rig.clock.ns
        scan.cycle()
        times.append((rig.clock.ns - start) / 1e6 + per_cycle)
    stats = rig.stats()
    return {
        "mean": sum(times) / len(times),
        "max": max(times),
        "times": times,
        "first": first_ms,
        "bytes": stats["bytes"] / CYCLES,
        "txns": stats["transactions"] / CYCLES,
        "frames": sum(c.frames for c in rig.chips) / CYCLES,
        "anticollisions": sum(c.anticollisions for c in rig.chips) / CYCLES,
        "visits": len(tags),
        "spi_ms": stats["bytes"] * 8 / SPI_HZ * 1e3 / CYCLES,
        "busy_ms": sum(c.busy_ns for c in rig.chips) / 1e6 / CYCLES,
        "seen": [len(s) for s in scan.sets()] == list(tags),
    }


def two_bus_cycle(tags, cost: Cost | None = None, buses=DEFAULT_BUSES, settle_us: int = 300):
    """Mean and worst cycle (ms) of ``tags`` on two buses (``buses``: each reader's), one
    core each in lockstep (firmware/cores.py): each cycle lasts as long as the slower half
    (each half's cycles carry the cost per cycle, ``cost.merge``: the lockstep and the
    gathering then). The buses share nothing, so each half runs on its own emulated bus;
    ``halves`` holds each half's figures."""
    halves = [
        firmware_cycle([t for t, b in zip(tags, buses, strict=True) if b == bus], cost, settle_us)
        for bus in (0, 1)
    ]
    times = [max(a, b) for a, b in zip(halves[0]["times"], halves[1]["times"], strict=True)]
    return {
        "mean": sum(times) / len(times),
        "max": max(times),
        "times": times,
        "halves": halves,
        "seen": halves[0]["seen"] and halves[1]["seen"],
    }


def cycle(tags, buses, cost: Cost | None = None, settle_us: int = 300):
    """The figures of ``tags`` on ``buses``: one bus when every reader is on SPI0."""
    if 1 in buses:
        return two_bus_cycle(tags, cost, buses, settle_us)
    return firmware_cycle(tags, cost, settle_us)


def visit_figures(tags: int) -> tuple[float, Events]:
    """The air and SPI time (ms) and the events of one visit of a reader holding ``tags``
    tags, on average over the steady cycles (scan_model's VISIT_MS and VISIT_EVENTS)."""
    f = firmware_cycle([tags] * READERS)
    per = READERS
    return f["mean"] / per, Events(f["txns"] / per, f["frames"] / per, f["anticollisions"] / per)


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


def naive_cycle(tags: int, fresh: bool) -> float:
    """Mean naive cycle (ms) of ``READERS`` readers holding ``tags`` tags each. ``fresh``:
    every tag starts IDLE at each visit (best case).

    The poll cap is lifted so that, as on a real Pico where one poll takes tens of
    microseconds, an unanswered frame waits for the 15.5 ms timer.
    """
    rig = make_rig([tags] * READERS, timeout_us=1000)
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


def _tags(pad: int, hats: dict[int, int], rest: int) -> list[int]:
    """Tags per reader: ``pad`` on the pad, ``hats`` (spot -> tags), ``rest`` elsewhere."""
    return [pad] + [hats.get(spot, rest) for spot in range(1, READERS)]


HATS = _tags(1, {1: 3, 2: 3}, 1)
"""Two hats of three on spots 1 and 2, the pad holding a card, one tag on every other spot:
on the default wiring, both hats on SPI0 with the pad, its worst layout."""
TABLES = (
    ("empty", [0] * READERS),
    ("1 tag each", [1] * READERS),
    ("2 hats of 3, rest 1", HATS),
    ("2 hats of 3, rest 0", _tags(0, {1: 3, 2: 3}, 0)),
    ("3 tags each", [3] * READERS),
)
"""The tables of every wiring."""
DEFAULT_WORST_NAME = "2 hats of 3, rest 1"
TWO_BUS_TABLES = (*TABLES[:3], ("2 hats of 3, one a bus", _tags(1, {1: 3, 10: 3}, 1)), *TABLES[3:])
"""The default wiring's tables: those of one bus, and the hats on a bus each."""
TARGETS = (
    ("1 tag each", scan_model.ONE_TAG_TARGET_MS),
    ("2 hats of 3, rest 1", scan_model.HATS_TARGET_MS),
    ("2 hats of 3, one a bus", scan_model.HATS_TARGET_MS),
)
"""Worst cycle targets (ms): one tag each, and a table with two hats of three."""
BEFORE_WALK = {"2 hats of 3, rest 1": (45.7, 47.7), "3 tags each": (132.2, 133.9)}
"""The default wiring at the RP2040's costs (mean / worst ms) when hats were checked by
selecting and halting each tag (bench/README.md at commit def13a2)."""
BEFORE_CHECKS = (32.5, 40.2, 35.1, 43.4)
"""The default wiring's worst layout (mean / worst ms at the RP2040's costs, then at the
XIP bound) when a hat was audited whole every ``audit`` cycles, before its tags were
checked one a cycle (bench/README.md at commit 6e1d2b4)."""


def charged_rows(tables, buses, results: dict, label: str) -> list[str]:
    """Markdown rows of ``tables`` on ``buses``: pure, at the RP2040's costs, and at the
    XIP upper bound (mean / worst ms); each result goes into ``results[(label, name,
    model)]``."""
    rows = []
    for name, tags in tables:
        cells = []
        for model, cost in (("pure", None), ("rp2040", scan_model.RP2040_US)):
            f = cycle(tags, buses, cost)
            results[(label, name, model)] = f
            cells.append(f"{f['mean']:.1f} / {f['max']:.1f}" + ("" if f["seen"] else " (unseen)"))
        xip = cycle(tags, buses, scan_model.RP2040_XIP_US)
        results[(label, name, "xip")] = xip
        cells.append(f"{xip['mean']:.1f} / {xip['max']:.1f}")
        bold = label == "default wiring" and name == DEFAULT_WORST_NAME
        cells = [f"**{c}**" for c in cells] if bold else cells
        rows.append(f"| {f'**{name}**' if bold else name} | " + " | ".join(cells) + " |")
    return rows


def targets(results: dict) -> list[tuple[str, str, dict, Verdict]]:
    """(target, wiring and table, its figures, the worst cycle's verdict) at the RP2040's
    costs, each wiring's tables with a target."""
    out = []
    for label in ("default wiring", "one bus"):
        for name, limit in TARGETS:
            f = results.get((label, name, "rp2040"))
            if f is not None:
                verdict = judge([f["max"]], limit, unit="ms", tolerance=MODEL_ERROR)
                out.append((f"≤ {limit:g} ms", f"{label}, {name}", f, verdict))
    return out


def readme(quick: bool) -> str:
    """bench/README.md's section (the model is deterministic: `quick` changes nothing)."""
    cost, xip = scan_model.RP2040_US, scan_model.RP2040_XIP_US
    head = "| table | pure model | RP2040 costs | XIP upper bound |\n|---|---|---|---|"
    results: dict = {}
    two = charged_rows(TWO_BUS_TABLES, DEFAULT_BUSES, results, "default wiring")
    one = charged_rows(TABLES, ONE_BUS, results, "one bus")
    verdicts = []
    for limit, where, f, verdict in targets(results):
        line = f"- {limit}, {where}: {verdict} (mean {f['mean']:.1f} ms)"
        worst = where == f"default wiring, {DEFAULT_WORST_NAME}"
        verdicts.append(f"- **{line[2:]}**" if worst else line)
    naive = [naive_cycle(t, fresh) for t in (0, 1) for fresh in (False, True)]
    split = sum(1 for b in DEFAULT_BUSES if b == 0)
    before = "; ".join(
        f"{name} {mean:.1f} / {worst:.1f} ms (now {f['mean']:.1f} / {f['max']:.1f})"
        for name, (mean, worst) in BEFORE_WALK.items()
        for f in [results[("default wiring", name, "rp2040")]]
    )
    most = scan_model.readers_a_bus()
    hats_worst = scan_model.worst_cycle_ms([3, 3] + [1] * (most - 1))
    return f"""## scan_cycle.py — Pico scan cycle

`.venv/bin/python bench/scan_cycle.py` runs the real firmware/scanner.py and mfrc522.py
against the emulated MFRC522 of tests/firmware/chip.py. Emulated time advances with every
SPI byte at {SPI_HZ / 1e6:g} MHz (counted by the fake bus: what MicroPython's rp2 port
gives for the {BAUD / 1e6:g} MHz pins.toml asks, as the emulated Pico showed,
pico_cycle.py below), the firmware's sleeps (antenna settle, 300 µs), and what the chip
makes it wait for: frames and answers at 106 kbit/s, the frame delay time, and the 300 µs
timer when nobody answers. The model is deterministic: it gives the same figures on any
machine.

**MicroPython's time is the RP2040's own**, charged per event on the emulated clock
(companion/devices/scan_model.py, `RP2040_US`, fitted by pico_cycle.py below to the
firmware's cycles on both cores of the emulated RP2040): **{cost.txn:.1f} µs per SPI
transaction, {cost.frame:.0f} µs per radio frame, {cost.anticollision:.0f} µs more for an
anticollision frame, {cost.visit:.0f} µs per reader visit, {cost.merge:.0f} µs per
cycle** for the bookkeeping around the visits (the cores' lockstep and core 0's gathering
of core 1's results, on two buses). The emulator charges no flash
cache miss, so these are a lower bound; the same fit with a cache model charging each
miss 50 cycles (`RP2040_XIP_US`: {xip.txn:.1f}, {xip.frame:.0f}, {xip.anticollision:.0f},
{xip.visit:.0f}, {xip.merge:.0f} µs) is the upper bound. No figure of the machine running
the model enters it; `companion doctor` reads a real Pico's `T` frames and says how many
times these costs its cycle implies.

{READERS} readers (the pad and 18 spots), 7-byte UIDs, steady state over {CYCLES} cycles,
mean / worst ms. **The default wiring** (hardware/pins.toml): the pad and spots 1..9 on
SPI0 ({split} readers, core 0), spots 10..18 on SPI1 ({READERS - split}, core 1), in
lockstep; a cycle lasts as long as the slower half and the bookkeeping. "2 hats of 3,
rest 1" puts both hats (spots 1 and 2) on SPI0 with the pad, which holds a card: the
default wiring's worst layout:

{head}
{chr(10).join(two)}

**One bus** (every reader on SPI0, one core; wiring.md):

{head}
{chr(10).join(one)}

**Targets, at the RP2040's costs, on the worst cycle** (the model is within
{MODEL_ERROR * 100:g} % of the emulated RP2040's cycles, pico_cycle.py: a target closer
than that is within noise):

{chr(10).join(verdicts)}

The naive scan of common hobby drivers (pure model, {READERS} readers): empty
{naive[0]:.1f} ms (best case {naive[1]:.1f}), one tag each {naive[2]:.1f} ms (best case
{naive[3]:.1f}).

A reader holding tags is confirmed by their first anticollision answers alone: the tree of
them walked bit by bit, each collision splitting the branch asked in two (one frame for
one tag, 2n - 1 for a hat of n, none selected or halted), a first answer nobody knows read
whole and alone. A long UID sharing its first three bytes with another answers the walk
as that one does, so every `audit` cycles a reader holding one long UID is checked by its
whole UID (selected and halted, then a REQA that only another tag answers: 5 frames where
its walk takes 2), and each cycle without an audit one hat tag of the bus, in turn, has
the rest of its UID read after its reader's walk (a SELECT by its first answer, the next
level's anticollision: 2 frames more), where a twin collides: the worst cycle holds one
of the two, where it held a whole hat's audit (15 frames for a hat of three 7-byte tags,
where its walk takes 6: {BEFORE_CHECKS[0]:.1f} / {BEFORE_CHECKS[1]:.1f} ms on the default
wiring's worst layout at the RP2040's costs, {BEFORE_CHECKS[2]:.1f} / {BEFORE_CHECKS[3]:.1f}
at the XIP bound, this section at commit 6e1d2b4). **The walk against selecting and halting
every tag of a hat each cycle**, default wiring, RP2040 costs, mean / worst (this
section at commit def13a2, at its costs then): {before}.

**How many readers one bus scans in time**: whatever lies where, two hats of three among
them or one tag on each, both worst cycles within their targets, the model's error
counted: **{most} readers** at the RP2040's costs (scan_model.readers_a_bus: the model's
longest cycle, each bus's costliest audit in it); one more, two hats of three on it:
{hats_worst:.1f} ms. The default wiring's fuller bus has {split}; `python -m companion.kit`,
`python firmware/gen_pins.py` and `companion doctor` warn of a bus carrying more.
Two antennas are on at the same moment on two buses, about half a mat apart: try it on the
real mat before relying on it (wiring.md).

History (issue 14, measured then, not regenerated, 18 readers): a one-tag visit took 7.3 µs
under the unix port (14 transactions), a hat of three 7-byte tags 27.0 µs (75
transactions), its audit 34.3 µs (85 transactions, nothing allocated); the first native
driver's visits took 12.5 and 55.0 µs (as bytecode, the one-tag visit 15.5 µs). Before the
scan work of issue 14 (1 ms timer, a full transceive set-up of 6 transactions per frame,
polls every 10 µs, hats enumerated every cycle, one bus), at 10 MHz, pure model: empty
25.3, one tag each 28.7 / 30.7, two hats + one tag 59.6 / 62.0, two hats + empty 56.6,
three tags each 307.1. SPI transactions per cycle, one tag each: 1,524 → 262. Until issue
38 the model charged the unix port's time on one x86 desktop core times a factor (×114)
fitted to the emulated RP2040: a ratio to one machine, replaced by the RP2040's own costs.
"""


def main() -> None:
    print(f"{READERS} readers, SPI at {SPI_HZ / 1e6:g} MHz ({BAUD / 1e6:g} asked), settle 300 us,")
    print(f"timer 300 us, 7-byte UIDs, steady state over {CYCLES} cycles: mean / worst ms")
    print(f"RP2040 costs: {scan_model.RP2040_US}; XIP upper bound: {scan_model.RP2040_XIP_US}")
    for label, buses, tables in (
        ("default wiring", DEFAULT_BUSES, TWO_BUS_TABLES),
        ("one bus", ONE_BUS, TABLES),
    ):
        print(f"\n{label}:")
        print(f"{'table':>24} {'pure':>14} {'RP2040':>14} {'XIP bound':>14} {'txns':>6}")
        for name, tags in tables:
            cells = []
            for cost in (None, scan_model.RP2040_US, scan_model.RP2040_XIP_US):
                f = cycle(tags, buses, cost)
                cells.append(f"{f['mean']:6.1f} /{f['max']:6.1f}{' ' if f['seen'] else '!'}")
            pure = firmware_cycle(tags) if label == "one bus" else None
            txns = f"{pure['txns']:6.0f}" if pure else ""
            print(f"{name:>24} {cells[0]:>14} {cells[1]:>14} {cells[2]:>14} {txns}")
    print("\nPer visit, for scan_model (VISIT_MS, VISIT_EVENTS, and the extra tag's):")
    figures = [visit_figures(k) for k in range(5)]
    print("VISIT_MS =", tuple(round(ms, 3) for ms, _ in figures[:4]))
    print("EXTRA_TAG_MS =", round(figures[4][0] - figures[3][0], 3))
    print("VISIT_EVENTS =", [tuple(round(x, 2) for x in e) for _, e in figures[:4]])
    extra = [round(a - b, 2) for a, b in zip(figures[4][1], figures[3][1], strict=True)]
    print("EXTRA_TAG_EVENTS =", tuple(extra))
    print("\nNaive scan for comparison (pure model): mean ms")
    for tags in (0, 1):
        print(
            f"{tags:>11} tags/reader: {naive_cycle(tags, fresh=False):6.1f}, "
            f"best case {naive_cycle(tags, fresh=True):6.1f}"
        )
    print("\nTargets, at the RP2040's costs, on the worst cycle:")
    results: dict = {}
    charged_rows(TWO_BUS_TABLES, DEFAULT_BUSES, results, "default wiring")
    charged_rows(TABLES, ONE_BUS, results, "one bus")
    for limit, where, f, verdict in targets(results):
        print(f"  {limit}, {where}: mean {f['mean']:.1f} ms, {verdict}")


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    main()
