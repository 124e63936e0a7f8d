"""From a token's drop to the verdict on the OLED, worst case, settle included: a model
built from the other benches' own parts.

- the scan: the drop lands just after its reader's visit, so that reader reads it one
  whole loop turn later: a worst cycle (bench/scan_cycle.py's firmware on the emulated
  chip, MicroPython's time charged at the RP2040's own costs fitted on the emulated chip,
  scan_model.RP2040_US, and at their upper bound with flash cache misses, RP2040_XIP_US;
  on one SPI bus and on the default wiring's two, scanned by the RP2040's two cores; the
  pure model beside them) and a heartbeat in that turn, with a collection of the heap
  (measured in play on both emulated cores, bench/pico_cycle.py). HATS puts both hats on
  SPI0 with the pad, the default wiring's worst;
- the settle: the referee judges the table once it has been still for `settle` seconds
  (the config's default, 0.5 s), the one wait a person is meant to feel, counted from
  the reading: the `S` frame says how long before it was sent its visit ended (`age=`),
  and the link and the referee start the settle that much earlier. What the age leaves
  out (the visit's bookkeeping once its antenna is off, the frame's building, its USB
  packet, the age's milliseconds rounded down) makes the settle start later than the
  reading: measured on both emulated cores (tests/pico). The report itself (the rest of
  the cycle, the `S` frame, the link) arrives long before the settle ends;
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
AGE_LATE_MS = 5.3
"""How much later than the reading the settle starts with ages: the emulated board's USB
packet carrying an `S` frame left 3.2 to 5.2 ms (30 drops on both buses of the 19-reader
default wiring, heartbeat every 100 ms) after the antenna of the visit that read the tag
went off, less the frame's age (tests/pico/test_pico_two_buses.py holds it under 8 ms);
0.06 ms more for the host's write and parse (serial_frames.py)."""
HEARTBEAT_MS = 28.0
"""What a heartbeat's `F` frame and a collection of the heap in the same loop turn add to
it on the RP2040 in play (no `T` frame): 27.7 ms on the default wiring's worst layout on
both emulated cores, the longest turn less the median one (17 ms with no collection in it;
17 ms on one bus, plus a collection, 5 to 8 ms, when one falls there)."""
SCAN_CYCLES = 1
"""Worst cycles between a drop and the settle's start (see the scan, above)."""
SCAN_CYCLES_WITHOUT_AGE = 2
"""... and between a drop and its `S` frame, which a firmware without ages starts it at:
the cycle's later readers and both cores' halves come before the frame."""
REFEREE_P99_MS = 0.43
"""bench/referee_latency.py: the worst game's p99 from an input to the frame handed over."""
WHOLE_FRAME_MS = 23.3
"""bench/oled_frames.py: a whole SSD1306 frame at 400 kHz (1,034 bytes, I2C framing)."""
TARGET_MS = 600.0


def rows() -> list[tuple[str, str, float, float, Verdict, float]]:
    """(table, how it is modelled, worst scan ms, drop to glass ms, its verdict, drop to
    glass ms without ages) of each layout: pure, one bus and the default wiring's two at
    the RP2040's costs, and the default wiring at their upper bound."""
    settle_ms = GameConfig().settle * 1000
    layouts = (("1 tag each", [1] * scan_cycle.READERS), ("2 hats of 3, rest 1", scan_cycle.HATS))
    models = (
        ("pure model", scan_cycle.ONE_BUS, None),
        ("one bus, RP2040 costs", scan_cycle.ONE_BUS, scan_model.RP2040_US),
        ("default wiring, RP2040 costs", scan_cycle.DEFAULT_BUSES, scan_model.RP2040_US),
        ("default wiring, XIP upper bound", scan_cycle.DEFAULT_BUSES, scan_model.RP2040_XIP_US),
    )
    judged = []
    for name, tags in layouts:
        for label, buses, cost in models:
            cycle = scan_cycle.cycle(tags, buses, cost)["max"]
            beat = 0.0 if cost is None else HEARTBEAT_MS  # the pure model: no Python
            scan = SCAN_CYCLES * cycle
            glass = settle_ms + REFEREE_P99_MS + WHOLE_FRAME_MS
            total = scan + beat + AGE_LATE_MS + glass
            before = SCAN_CYCLES_WITHOUT_AGE * cycle + beat + LINK_MS + glass
            error = scan * scan_cycle.MODEL_ERROR
            verdict = judge([total], TARGET_MS, unit="ms", digits=0, error=error)
            judged.append((name, label, cycle, total, verdict, before))
    return judged


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
    fixed = HEARTBEAT_MS + AGE_LATE_MS + settle_ms + REFEREE_P99_MS + WHOLE_FRAME_MS
    room = TARGET_MS - fixed
    worst = scan_cycle.cycle(scan_cycle.HATS, scan_cycle.DEFAULT_BUSES, scan_model.RP2040_XIP_US)
    report_ms = SCAN_CYCLES_WITHOUT_AGE * worst["max"] + HEARTBEAT_MS + LINK_MS
    return f"""## drop_to_glass.py — from a token's drop to the verdict on the OLED, worst case

`.venv/bin/python bench/drop_to_glass.py` adds up the worst case from the other benches'
parts: the scan, one loop turn (a drop lands just after its reader's visit; the reader
reads it a turn later): a worst cycle (scan_cycle.py, 19 readers, pure and with
MicroPython's time charged at the RP2040's own costs fitted on the emulated chip, and at
their upper bound with flash cache misses) and a heartbeat falling in that turn with a
collection of the heap ({HEARTBEAT_MS:g} ms in play, measured on both emulated cores,
pico_cycle.py; not in the pure rows); the settle ({settle_ms:.0f} ms, the default),
counted from the reading: the `S` frame carries its age, and the settle starts
{AGE_LATE_MS:g} ms after the reading at worst (measured on both emulated cores,
tests/pico: the visit's bookkeeping, the frame's building and its USB packet, the age
rounded down to a millisecond); the referee's p99 ({REFEREE_P99_MS:g} ms) and a whole
frame on the glass ({WHOLE_FRAME_MS:g} ms at 400 kHz). The parts are constants of this
module, measured by those benches; the scan cycle is this run's model, the totals are
derived. Target {TARGET_MS:.0f} ms; a total within the scan model's error
({scan_cycle.MODEL_ERROR * 100:g} % of the cycles) of it is within noise. "Without ages"
is a firmware or a companion that predates them: the settle then starts when the `S`
frame arrives, a cycle later for the cycle's first reader, and {LINK_MS:g} ms for the frame.

| table | worst cycle | drop to glass | ≤ {TARGET_MS:.0f} ms | without ages |
|---|---|---|---|---|
{chr(10).join(lines)}

"2 hats of 3, rest 1" on the default wiring is its worst layout (both hats on SPI0 with
the pad). The settle is by far the largest part, and it is a setting (`game.settle`): it
is the time a table must be still before it is judged, so a hand moving tokens one at a
time is not judged mid-move. The report comes well before the settle ends: at worst two
cycles, a heartbeat and the link, {report_ms:.0f} ms on the worst layout at the XIP bound.

**What is left**: besides the scan, the parts add {fixed:.0f} ms, {room:.0f} ms left for a
worst cycle. A heartbeat due in a turn that sends `S` frames now waits for the next turn
without any (at most a second, firmware/main.py), so it never comes between a reading
and its report; it can still fall between a drop and its reading, since a drop comes at
any moment: {HEARTBEAT_MS:g} ms that only a cheaper snapshot would take off. The
referee's loop wakes when the settle ends; until issue 38 it judged at the clock
thread's next tick, up to 100 ms later, which no total here counted. History:
until issue 38 this bench counted one cycle and a 21 ms heartbeat measured on one core,
and gave that layout 594 ms; two cycles, the heartbeat measured on both cores and a hat's
tags each selected every cycle, 648 ms; hats walked, 633 ms (638 at the XIP bound).
"""


def main() -> None:
    settle_ms = GameConfig().settle * 1000
    print(f"settle {settle_ms:.0f} ms (the default, from the reading: {AGE_LATE_MS} ms late "
          f"at worst), referee p99 {REFEREE_P99_MS} ms, a heartbeat {HEARTBEAT_MS} ms, a "
          f"whole frame on the glass {WHOLE_FRAME_MS} ms")  # fmt: skip
    for name, label, cycle, total, verdict, before in rows():
        print(f"{name}, {label}: scan {cycle:.1f} ms, drop to glass {total:.1f} ms: {verdict} "
              f"(without ages {before:.1f} ms)")  # fmt: skip


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    main()
