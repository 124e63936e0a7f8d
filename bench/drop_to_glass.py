"""From a token's drop to the verdict on the OLED, worst case, settle included: a model
built from the other benches' own parts.

- the scan: the drop lands just after its reader's visit, so it is seen one whole worst
  cycle later (bench/scan_cycle.py's firmware on the emulated chip, the interpreter
  charged x114 as measured on the emulated RP2040, on one SPI bus and on two scanned by
  the RP2040's two cores; the pure model beside them), and a heartbeat may fall between
  (its `F` and `T` frames lengthen that loop turn by 21 ms, bench/pico_cycle.py). HATS puts
  both hats on the first bus, the worse placement;
- the link: one `S` frame built by the Pico (1.0 ms on the emulated RP2040) and sent over
  USB CDC, parsed by the host (bench/serial_frames.py);
- the settle: the referee judges the table once it has been still for `settle` seconds
  (the config's default, 0.5 s), the one wait a person is meant to feel;
- the referee and the drawing: its p99 input-to-frame time (bench/referee_latency.py);
- the glass: the verdict's frame on the I2C bus at 400 kHz (bench/oled_frames.py): a
  verdict rewrites most of the screen, so a whole frame is counted.

`.venv/bin/python bench/drop_to_glass.py`
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import scan_cycle  # noqa: E402

from companion.config.model import GameConfig  # noqa: E402

LINK_MS = 1.2
"""An `S` frame built by the Pico (1.0 ms), written to USB CDC (0.05 ms) and parsed by the
host (0.01 ms, serial_frames.py)."""
HEARTBEAT_MS = 21.0
"""What a heartbeat's `F` and `T` frames add to a loop turn on the RP2040 (pico_cycle.py:
the longest turn less the cycle, one tag on each of 18 readers)."""
REFEREE_P99_MS = 0.43
"""bench/referee_latency.py: the worst game's p99 from an input to the frame handed over."""
WHOLE_FRAME_MS = 23.3
"""bench/oled_frames.py: a whole SSD1306 frame at 400 kHz (1,034 bytes, I2C framing)."""
TARGET_MS = 600.0


def main() -> None:
    fit = scan_cycle.RECORDED_FIT
    factor = scan_cycle.RP2040_FACTOR
    settle_ms = GameConfig().settle * 1000
    print(f"settle {settle_ms:.0f} ms (the default), referee p99 {REFEREE_P99_MS} ms, link "
          f"{LINK_MS} ms, a heartbeat {HEARTBEAT_MS} ms, a whole frame on the glass "
          f"{WHOLE_FRAME_MS} ms")  # fmt: skip
    print(f"{'table':>22} {'scan':>8} {'worst drop to glass':>20}")
    txn, cost = fit.charged(factor)
    merge_ms = fit.merge * factor / 1000
    for name, tags in (("1 tag each", [1] * scan_cycle.READERS),
                       ("2 hats of 3, rest 1", scan_cycle.HATS)):  # fmt: skip
        for label, cycle in (
            ("pure", scan_cycle.firmware_cycle(tags)["max"]),
            (f"x{factor}", scan_cycle.firmware_cycle(tags, txn, cost=cost)["max"]),
            (f"2 buses x{factor}", scan_cycle.two_bus_cycle(tags, txn, cost, merge_ms)["max"]),
        ):
            beat = 0.0 if label == "pure" else HEARTBEAT_MS  # the pure model: no Python
            total = cycle + beat + LINK_MS + settle_ms + REFEREE_P99_MS + WHOLE_FRAME_MS
            verdict = "met" if total <= TARGET_MS else "missed"
            print(f"{name:>22} {label:>12} {cycle:6.1f} ms {total:8.1f} ms ({verdict}, "
                  f"target {TARGET_MS:.0f})")  # fmt: skip


if __name__ == "__main__":
    main()
