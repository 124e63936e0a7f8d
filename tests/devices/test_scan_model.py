"""The doctor's scan model (companion/devices/scan_model.py) against the emulated table.

The per-visit figures are bench/scan_cycle.py's; here they are checked against the same
emulation (the real firmware, the emulated MFRC522 of tests/firmware/chip.py, no
MicroPython time charged) on a small mixed table the bench does not run.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from companion.devices import scan_model

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware"))
import fwload  # noqa: E402

CYCLES = 64  # two audit rounds, as the bench


def emulated_cycle_ms(tags_per_reader: list[int], settle_us: int = 300) -> float:
    fw: Any = fwload.load_firmware()
    import harness

    rig = harness.Rig(fw.mfrc522, n=len(tags_per_reader), overhead_us=0)
    for reader, count in enumerate(tags_per_reader):
        for k in range(count):
            rig.place(reader, f"04{reader:02X}{k:02X}5A1C{0x80 + reader:02X}{k:02X}")
    scan = fw.scanner.Scanner(rig.readers, settle_us=settle_us)
    scan.start()
    scan.cycle()
    scan.cycle()
    start = rig.clock.ns
    for _ in range(CYCLES):
        scan.cycle()
    return float((rig.clock.ns - start) / 1e6 / CYCLES)


def test_model_matches_the_emulated_mixed_table() -> None:
    table = [0, 1, 3, 2, 1, 0, 4]
    model = scan_model.cycle_ms(table, interpreter=False)
    emulated = emulated_cycle_ms(table)
    if model != pytest.approx(emulated, rel=0.03):
        fresh = [round(emulated_cycle_ms([k]), 3) for k in range(6)]
        pytest.fail(
            f"scan_model says {model:.1f} ms, the firmware's emulation {emulated:.1f} ms: the "
            f"firmware changed; the visits of 0..5 tags now cost {fresh} ms (update VISIT_MS "
            "and EXTRA_TAG_MS, and bench/README.md)"
        )


def test_model_follows_a_calibrated_settle_time() -> None:
    """A table whose ``[readers] settle_us`` is not the bench's: each visit waits that long."""
    table = [0, 1, 3, 2, 1, 0, 4]
    model = scan_model.cycle_ms(table, interpreter=False, settle_us=1000)
    assert model == pytest.approx(emulated_cycle_ms(table, settle_us=1000), rel=0.03)
    assert model == pytest.approx(scan_model.cycle_ms(table, interpreter=False) + 7 * 0.7)


def test_two_buses_take_as_long_as_their_slower_half() -> None:
    """Each core scans its own bus at the same time (firmware/cores.py): the cycle is the
    slower half's, as the emulation of each half on its own bus gives it."""
    table, buses = [0, 1, 3, 2, 1, 0, 4], [0, 0, 0, 1, 1, 1, 1]
    model = scan_model.cycle_ms(table, interpreter=False, buses=buses)
    halves = [emulated_cycle_ms([0, 1, 3]), emulated_cycle_ms([2, 1, 0, 4])]
    assert model == pytest.approx(max(halves), rel=0.03)
    assert model < 0.7 * scan_model.cycle_ms(table, interpreter=False)
    with pytest.raises(ValueError):
        scan_model.cycle_ms(table, buses=[0, 1])


def test_model_gives_the_bench_figures_for_18_readers() -> None:
    air = [scan_model.cycle_ms([k] * 18, interpreter=False) for k in (0, 1, 3)]
    assert air == pytest.approx([12.6, 27.0, 185.5], abs=0.05)
    charged = [scan_model.cycle_ms([k] * 18) for k in (0, 1)]
    assert charged == pytest.approx([20.0, 42.6], abs=0.1)  # bench: 20.0 and 42.6 (x114)
    gap = scan_model.visit_ms(5, interpreter=False) - scan_model.visit_ms(4, interpreter=False)
    assert gap == pytest.approx(scan_model.EXTRA_TAG_MS)
    with pytest.raises(ValueError):
        scan_model.visit_ms(-1)


def test_the_implied_factor_is_the_one_that_gives_the_measured_cycle() -> None:
    """A Pico whose interpreter is x50 (or x100) the unix port's: its cycle gives back 50
    (100). On two buses the slower half sets the cycle at any factor."""

    def cycle_at(factor: float, readers: list[int]) -> float:
        air = scan_model.cycle_ms(readers, interpreter=False)
        charged = scan_model.cycle_ms(readers) - air  # at the model's own factor
        return air + factor / scan_model.RP2040_FACTOR * charged

    table, buses = [0, 1, 3, 2, 1, 0, 4], [0, 0, 0, 1, 1, 1, 1]
    for factor in (50, 100, 230):
        one_bus = cycle_at(factor, table)
        assert scan_model.implied_factor(one_bus, table) == pytest.approx(factor)
        two_buses = max(cycle_at(factor, table[:3]), cycle_at(factor, table[3:]))
        assert scan_model.implied_factor(two_buses, table, buses) == pytest.approx(factor)
    air = scan_model.cycle_ms(table, interpreter=False, buses=buses)
    assert scan_model.implied_factor(air, table, buses) is None


def test_slower_than_model() -> None:
    assert scan_model.slower_than_model(43.1, 28.7)
    assert not scan_model.slower_than_model(43.0, 28.7 * 1.5 + 0.1)
    assert not scan_model.slower_than_model(10.0, 0.0)
