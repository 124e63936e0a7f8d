"""From a token's drop to the verdict on the OLED, worst case, settle included: a model
built from the other benches' own parts.

- the scan: the drop lands just after its reader's visit sent its first frame, so that
  reader reads it one whole loop turn later: a worst cycle (bench/scan_cycle.py's
  firmware on the emulated chip, MicroPython's time charged at the RP2040's own costs
  fitted on the emulated chip, scan_model.RP2040_US, and at their upper bound with flash
  cache misses, RP2040_XIP_US; on one SPI bus and on the default wiring's two, scanned by
  the RP2040's two cores; the pure model beside them), and the worst the loop adds to a
  turn beyond a quiet one: a heartbeat's snapshot or another change's `S` frame and
  bookkeeping (measured in play on both emulated cores, bench/pico_cycle.py's loop
  turns), and on one bus a collection of the heap falling in the same turn. HATS puts
  both hats on SPI0 with the pad, the default wiring's worst;
- the settle: the referee judges the table once it has been still for `settle` seconds
  (the config's default, 0.5 s), the one wait a person is meant to feel, counted from
  the reading: the `S` frame says how long before it was sent its visit sent its first
  frame (`age=`; the tag lay there by then), and the link and the referee start the
  settle that much earlier. What the age leaves out (the frame's building, its USB
  packet, the age's milliseconds rounded down) makes the settle start later than the
  reading: measured on both emulated cores (pico_cycle.py's loop turns). The report
  itself (the rest of the cycle, the `S` frame, the link) arrives long before the settle
  ends;
- the referee and the drawing: its p99 input-to-frame time (bench/referee_latency.py);
- the glass: the verdict's frame on the I2C bus at 400 kHz (bench/oled_frames.py): a
  verdict rewrites most of the screen, so a whole frame is counted.

Every table has pins.toml's 19 readers. Each total is judged by bench/verdict.py, the
scan model's error (5 % of the cycles, scan_cycle.MODEL_ERROR) counted as noise. Its
README section is `readme` (bench/readme.py).

`.venv/bin/python bench/drop_to_glass.py`
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import scan_cycle  # noqa: E402
from verdict import Verdict, judge  # noqa: E402

from companion.config.model import GameConfig  # noqa: E402
from companion.devices import scan_model  # noqa: E402

LINK_MS = 1.2
"""An `S` frame built by the Pico (1.0 ms), written to USB CDC (0.05 ms) and parsed by the
host (0.01 ms, serial_frames.py): the report's way to the host, what a firmware without
ages adds to the settle."""
AGE_LATE_MS = {"RP2040": 1.57 + 0.06, "XIP": 1.91 + 0.06}
"""How much later than the reading the settle starts with ages, by cost (no flash cache
miss; the cache model's upper bound): the emulated board's USB packet carrying an `S`
frame left at most this long after the antenna of the visit that read the tag came on,
less the frame's age (pico_cycle.py's loop turns: 81 and 90 drops and lifts on the worst
layout of the default wiring, 0.6 to 1.6 ms and 0.8 to 1.9); 0.06 ms more for the host's
write and parse (serial_frames.py). Until issue 38 the age counted from the visit's end,
and this lag was 3.2 to 5.2 ms; then a collection of the heap could still fall after the
age was taken (the frame's copy allocated), 10.3 ms late (the same run on commit aaf1604):
from the age on the firmware lets no collection start."""
LOOP_MS = {"RP2040": 4.02, "XIP": 7.64}
"""The worst a loop turn adds beyond a quiet one in play, by cost: the longest turn with a
heartbeat's `F` frame or a change's `S` frame (4.02 ms, 7.64 at the XIP bound, the next
longest there 6.05;
pico_cycle.py's loop turns: the real main.py for 300 turns, a heartbeat every 100 ms,
every 137 ms a tag dropped or lifted, the default wiring's worst layout, both cores). A
change's bookkeeping (its reader's new set: ``Scanner.settle``) is in that turn, after the
half; the visit that reads the change allocates nothing (issue 38), so a collection of
the heap, which core 1 makes once its half is scanned while core 0 still scans, never
holds up a visit of core 0: none lengthened a turn of the 300 at either bound (15 and 16
collections meanwhile, the longest 10.1 and 10.2 ms, longer than any turn's extra), and
core 0 grants core 1 its safe point only with a collection's time left of its half.
Until then a visit reading a change allocated and could wait for one, and a collection
could outlast core 0's half: a whole one was counted here (9.3 ms; 12.1 at the XIP
bound), beside the longest turn without one (4.2 ms; 6.4)."""
COLLECTION_MS = {"RP2040": 10.10, "XIP": 10.19}
"""A whole collection of the heap, by cost (the longest core 1 made on the emulated board,
its ``T`` frame's ``gc=``; 10.2 with the cache model): one bus runs the same loop on core 0
alone, with its collections between two cycles, so its turn counts one."""
QUIET_LOOP_MS = 0.5
"""A quiet turn's own time beyond the cycle the firmware times (the model's): the loop's
median turn less its median scan (1.10 ms, "loop +med", pico_cycle.py) less what of it
the firmware's T cycle already holds (its median less the harness's scan: 0.6 ms)."""
SCAN_CYCLES = 1
"""Worst cycles between a drop and the settle's start (see the scan, above)."""
SCAN_CYCLES_WITHOUT_AGE = 2
"""... and between a drop and its `S` frame, which a firmware without ages starts it at:
the cycle's later readers and both cores' halves come before the frame."""
EMULATED_WORST_MS = {"RP2040": 35.0, "XIP": 38.2}
"""The default wiring's worst layout on both cores of the emulated RP2040, by flash model:
the longest of 64 steady cycles the firmware timed itself (its ``T`` frame's max, the
cores' lockstep and bookkeeping in it), no miss charged and with the XIP cache model
(bench/README.md, pico_cycle.py, the firmware whose hats' tags are checked one a cycle):
the measured cycle beside the model's."""
REFEREE_P99_MS = 0.43
"""bench/referee_latency.py: the worst game's p99 from an input to the frame handed over."""
WHOLE_FRAME_MS = 23.3
"""bench/oled_frames.py: a whole SSD1306 frame at 400 kHz (1,034 bytes, I2C framing)."""
TARGET_MS = 600.0
MARGIN = 0.05
"""The margin issue 38 asks for under the target."""


def parts(cost_name: str | None, one_bus: bool = False) -> tuple[float, float]:
    """(the loop's worst beyond the cycle, the settle's lag after the reading) in ms, for
    the pure model (None: no Python, the lag of the RP2040's costs) or a cost's name, on
    two cores or on ``one_bus`` (its collections fall between two cycles)."""
    if cost_name is None:
        return 0.0, AGE_LATE_MS["RP2040"]
    collection = COLLECTION_MS[cost_name] if one_bus else 0.0
    return LOOP_MS[cost_name] + collection + QUIET_LOOP_MS, AGE_LATE_MS[cost_name]


def rows() -> list[tuple[str, str, float, float, Verdict, float]]:
    """(table, how it is modelled, worst scan ms, drop to glass ms, its verdict, drop to
    glass ms without ages) of each layout: pure, one bus and the default wiring's two at
    the RP2040's costs, and the default wiring at their upper bound."""
    settle_ms = GameConfig().settle * 1000
    layouts = (("1 tag each", [1] * scan_cycle.READERS), ("2 hats of 3, rest 1", scan_cycle.HATS))
    two, one = scan_cycle.DEFAULT_BUSES, scan_cycle.ONE_BUS
    models = (
        ("pure model", one, None, None),
        ("one bus, RP2040 costs", one, scan_model.RP2040_US, "RP2040"),
        ("default wiring, RP2040 costs", two, scan_model.RP2040_US, "RP2040"),
        ("default wiring, XIP upper bound", two, scan_model.RP2040_XIP_US, "XIP"),
    )
    judged = []
    for name, tags in layouts:
        for label, buses, cost, cost_name in models:
            cycle = scan_cycle.cycle(tags, buses, cost)["max"]
            loop, late = parts(cost_name, buses is one)
            scan = SCAN_CYCLES * cycle
            glass = settle_ms + REFEREE_P99_MS + WHOLE_FRAME_MS
            total = scan + loop + late + glass
            before = SCAN_CYCLES_WITHOUT_AGE * cycle + loop + LINK_MS + glass
            error = scan * scan_cycle.MODEL_ERROR
            verdict = judge([total], TARGET_MS, unit="ms", digits=0, error=error)
            judged.append((name, label, cycle, total, verdict, before))
    for cost_name, label in (("RP2040", "no miss"), ("XIP", "XIP model")):
        cycle = EMULATED_WORST_MS[cost_name]
        loop, late = parts(cost_name)
        glass = settle_ms + REFEREE_P99_MS + WHOLE_FRAME_MS
        total = SCAN_CYCLES * cycle + loop + late + glass
        before = SCAN_CYCLES_WITHOUT_AGE * cycle + loop + LINK_MS + glass
        verdict = judge([total], TARGET_MS, unit="ms", digits=0)
        label = f"default wiring, emulated board's own worst cycle, {label}"
        judged.append((scan_cycle.DEFAULT_WORST_NAME, label, cycle, total, verdict, before))
    return judged


def one_bus_rows() -> list[tuple[str, float, float, Verdict]]:
    """(how modelled, worst scan ms, drop to glass ms, its verdict) of one bus carrying the
    most readers a bus supports (scan_model.readers_a_bus: the kit's and the doctor's
    warning), two hats of three on it and one tag on every other reader."""
    settle_ms = GameConfig().settle * 1000
    most = scan_model.readers_a_bus()
    tags = [1, 3, 3] + [1] * (most - 3)
    out = []
    for label, cost, cost_name in (
        ("RP2040 costs", scan_model.RP2040_US, "RP2040"),
        ("XIP upper bound", scan_model.RP2040_XIP_US, "XIP"),
    ):
        cycle = scan_cycle.cycle(tags, (0,) * most, cost)["max"]
        loop, late = parts(cost_name, one_bus=True)
        total = SCAN_CYCLES * cycle + loop + late + settle_ms + REFEREE_P99_MS + WHOLE_FRAME_MS
        error = SCAN_CYCLES * cycle * scan_cycle.MODEL_ERROR
        out.append(
            (label, cycle, total, judge([total], TARGET_MS, unit="ms", digits=0, error=error))
        )
    return out


def readme(quick: bool) -> str:
    """bench/README.md's section (a model: `quick` changes nothing)."""
    settle_ms = GameConfig().settle * 1000
    lines = []
    for name, label, cycle, total, verdict, before in rows():
        cells = (
            f"| {name}, {label} | {cycle:.1f} ms | {total:.0f} ms | {verdict.short} "
            f"| {before:.0f} ms |"
        )
        if name == scan_cycle.DEFAULT_WORST_NAME and label.startswith("default wiring"):
            cells = "| " + " | ".join(f"**{c.strip()}**" for c in cells.strip("|").split("|"))
            cells += " |"
        lines.append(cells)
    loop, late = parts("XIP")
    fixed = loop + late + settle_ms + REFEREE_P99_MS + WHOLE_FRAME_MS
    room = TARGET_MS - fixed
    margin = TARGET_MS * (1 - MARGIN) - fixed
    worst = scan_cycle.cycle(scan_cycle.HATS, scan_cycle.DEFAULT_BUSES, scan_model.RP2040_XIP_US)
    report_ms = SCAN_CYCLES_WITHOUT_AGE * worst["max"] + loop + LINK_MS
    most = scan_model.readers_a_bus()
    kept = worst["max"] <= margin
    left = (
        f"The worst layout keeps the {MARGIN * 100:g} % margin at both bounds in the model: "
        f"its worst cycle is {worst['max']:.1f} ms at the XIP bound, {margin:.1f} ms left for "
        "it; it holds one long UID's audit or one hat tag's check (firmware/scanner.py), "
        "where it held a whole hat's audit, 43.4 ms. The emulated board timed its own worst "
        f"cycle at {EMULATED_WORST_MS['XIP']:g} ms with the XIP model (the rows above): "
        f"{EMULATED_WORST_MS['XIP'] - margin:.1f} ms past the margin's room: at the margin, "
        "nearer to it than the model's error."
        if kept
        else f"What keeps the worst layout above the margin at the XIP bound, by less than "
        f"the model's error, is its worst cycle ({worst['max']:.1f} ms, {margin:.1f} ms left "
        "for it; 43.4 ms when it held a whole hat's audit, before a hat's tags were checked "
        f"one a cycle) with the loop's worst turn ({LOOP_MS['XIP']:g} ms, one turn of 89; "
        "the next 6.1). The emulated board timed its own worst cycle at "
        f"{EMULATED_WORST_MS['XIP']:g} ms with the XIP model (the rows above)."
    )
    bus_lines = [
        f"| {label} | {cycle:.1f} ms | {total:.0f} ms | {verdict.short} |"
        for label, cycle, total, verdict in one_bus_rows()
    ]
    return f"""## drop_to_glass.py — from a token's drop to the verdict on the OLED, worst case

`.venv/bin/python bench/drop_to_glass.py` adds up the worst case from the other benches'
parts: the scan, one loop turn (a drop lands just after its reader's visit sent its first
frame; the reader reads it a turn later): a worst cycle (scan_cycle.py, 19 readers, pure
and with MicroPython's time charged at the RP2040's own costs fitted on the emulated
chip, and at their upper bound with flash cache misses) and the worst the loop adds to
that turn: a heartbeat's snapshot or another change's `S` frame and bookkeeping
({LOOP_MS["RP2040"]:.1f} ms, {LOOP_MS["XIP"]:.1f} ms at the XIP bound, plus {QUIET_LOOP_MS:g} ms
of a quiet turn's loop the cycle leaves out; measured in play on both emulated cores,
pico_cycle.py's loop turns; not in the pure rows), and on one bus a collection of the
heap too ({COLLECTION_MS["RP2040"]:.1f} ms, {COLLECTION_MS["XIP"]:.1f}: it falls between two
cycles there); the settle
({settle_ms:.0f} ms, the default), counted from the reading: the `S` frame carries its
age, and the settle starts {AGE_LATE_MS["RP2040"]:.1f} ms after the reading at worst
({AGE_LATE_MS["XIP"]:.1f} at the XIP bound; measured on both emulated cores: the frame's
building and its USB packet, the age rounded down to a millisecond); the referee's p99
({REFEREE_P99_MS:g} ms) and a whole frame on the glass ({WHOLE_FRAME_MS:g} ms at 400 kHz).
The parts are constants of this module, measured by those benches; the scan cycle is
this run's model, the totals are derived. Target {TARGET_MS:.0f} ms, with a margin of
{MARGIN * 100:g} % ({TARGET_MS * (1 - MARGIN):.0f} ms); a total within the scan model's
error ({scan_cycle.MODEL_ERROR * 100:g} % of the cycles) of it is within noise. "Without
ages" is a firmware or a companion that predates them: the settle then starts when the
`S` frame arrives, a cycle later for the cycle's first reader, and {LINK_MS:g} ms for the
frame.

| table | worst cycle | drop to glass | ≤ {TARGET_MS:.0f} ms | without ages |
|---|---|---|---|---|
{chr(10).join(lines)}

**One bus at the most it supports**: {most} readers on one bus (the
pad, two hats of three, one tag on every other), the most with which a bus keeps the scan
cycle's targets (`python -m companion.kit`, `firmware/gen_pins.py` and `companion doctor`
warn past it); each bus of the default wiring carries fewer:

| one bus of {most} readers | worst cycle | drop to glass | ≤ {TARGET_MS:.0f} ms |
|---|---|---|---|
{chr(10).join(bus_lines)}

"2 hats of 3, rest 1" on the default wiring is its worst layout (both hats on SPI0 with
the pad). The settle is by far the largest part, and it is a setting (`game.settle`): it
is the time a table must be still before it is judged, so a hand moving tokens one at a
time is not judged mid-move. The report comes well before the settle ends: at worst two
cycles, the loop's worst and the link, {report_ms:.0f} ms on the worst layout at the XIP bound.

**What is left**: besides the scan, the parts add {fixed:.0f} ms at the XIP bound,
{room:.0f} ms left for a worst cycle under {TARGET_MS:.0f} ms, {margin:.0f} ms with the
{MARGIN * 100:g} % margin. A collection of the heap (it marks the firmware's whole live
heap: about 100 KB on 19 readers, half of it its compiled code, which MicroPython 1.28's
RPI_PICO build cannot keep in flash: no ROMFS) no longer counts on two cores: core 1
makes it once its half is scanned, while core 0 still scans, and a visit allocates
nothing, even one that reads a change, so no visit waits for it: none of 300 turns in
play was lengthened by one at either bound (2 and 0 before, 15 and 18 before core 1
made them). On one bus it falls between two cycles and is counted whole. {left} One bus
holds the cycle targets up to {most} readers (the kit's and the
doctor's bus warning), as the default wiring's busier bus does; the full mat's 19 on one
bus take the row above. History: until issue 38 this bench counted one cycle and a 21 ms
heartbeat measured on one core, and gave that layout 594 ms; two cycles, the heartbeat
measured on both cores and a hat's tags each selected every cycle, 648 ms; hats walked,
633 ms (638 at the XIP bound); ages from the reading, 597 ms (599), with a heartbeat of
28 ms (a collection in it included) that, re-measured on both cores in play, took up to
37 ms, and a change's `S` frame turn (9 to 12 ms, 21 with a collection) not counted;
with a whole collection in the loop's part, 579 ms (587 at the XIP bound), until a visit
allocated nothing; 570 ms (576 at the XIP bound, its worst cycle 43.4 ms) with MicroPython's
costs refitted to that firmware, until a hat's tags were checked one a cycle instead of
the whole hat at its audit. The loop's parts above were measured in play again on the
firmware with the checks (pico_cycle.py's loop turns): its worst turn with a change, 7.6
ms at the XIP bound where it was 6.1, is one turn of 89 (the next 6.1 ms).
"""


def main() -> None:
    settle_ms = GameConfig().settle * 1000
    print(f"settle {settle_ms:.0f} ms (the default, from the reading: {AGE_LATE_MS} ms late "
          f"at worst), referee p99 {REFEREE_P99_MS} ms, the loop's worst {LOOP_MS} ms and "
          f"{QUIET_LOOP_MS} ms, a whole frame on the glass {WHOLE_FRAME_MS} ms")  # fmt: skip
    for name, label, cycle, total, verdict, before in rows():
        print(f"{name}, {label}: scan {cycle:.1f} ms, drop to glass {total:.1f} ms: {verdict} "
              f"(without ages {before:.1f} ms)")  # fmt: skip


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    main()
