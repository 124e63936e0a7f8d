"""The doctor's scan model (companion/devices/scan_model.py) against the emulated table.

The per-visit figures are bench/scan_cycle.py's; here they are checked against the same
emulation (the real firmware, the emulated MFRC522 of tests/firmware/chip.py) on a small
mixed table the bench does not run: the air and SPI time with no MicroPython time
charged, what each visit does (its SPI transactions, frames and anticollision frames),
and the cycle with the RP2040's costs charged per event.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from companion.devices import scan_model
from companion.devices.scan_model import Cost
from companion.devices.words import crowded_buses

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware"))
import fwload  # noqa: E402

CYCLES = 64  # two audit rounds, as the bench
TABLE = [0, 1, 3, 2, 1, 0, 4]
BUSES = [0, 0, 0, 1, 1, 1, 1]
NOTHING = Cost(0, 0, 0, 0, 0)


def emulated(
    tags_per_reader: list[int], settle_us: int = 300, cost: Cost = NOTHING, audit: int = 32
) -> Any:
    """The firmware's steady cycles on one emulated bus, MicroPython's time charged at
    ``cost``: the mean cycle (ms), each cycle (ms), and per cycle the transactions,
    frames and anticollision frames."""
    fw: Any = fwload.load_firmware()
    import harness

    rig = harness.Rig(
        fw.mfrc522, n=len(tags_per_reader), overhead_us=cost.txn, frame_overhead_us=cost.frame
    )
    for reader, count in enumerate(tags_per_reader):
        rig.chips[reader].visit_overhead_ns = int(cost.visit * 1000)
        rig.chips[reader].anticollision_overhead_ns = int(cost.anticollision * 1000)
        for k in range(count):
            rig.place(reader, f"04{reader:02X}{k:02X}5A1C{0x80 + reader:02X}{k:02X}")
    scan = fw.scanner.Scanner(rig.readers, settle_us=settle_us, audit=audit)
    scan.start()
    scan.cycle()
    scan.cycle()
    rig.reset_stats()
    times = []
    for _ in range(CYCLES):
        start = rig.clock.ns
        scan.cycle()
        times.append((rig.clock.ns - start) / 1e6)
    return {
        "ms": sum(times) / CYCLES,
        "times": times,
        "txns": rig.stats()["transactions"] / CYCLES,
        "frames": sum(c.frames for c in rig.chips) / CYCLES,
        "anticollisions": sum(c.anticollisions for c in rig.chips) / CYCLES,
    }


def test_model_matches_the_emulated_mixed_table() -> None:
    model = scan_model.cycle_ms(TABLE, interpreter=False)
    measured = emulated(TABLE)["ms"]
    if model != pytest.approx(measured, rel=0.03):
        fresh = [round(emulated([k])["ms"], 3) for k in range(6)]
        pytest.fail(
            f"scan_model says {model:.1f} ms, the firmware's emulation {measured:.1f} ms: the "
            f"firmware changed; the visits of 0..5 tags now cost {fresh} ms (update VISIT_MS "
            "and EXTRA_TAG_MS from bench/scan_cycle.py, and bench/README.md)"
        )


def test_visits_do_what_the_model_counts() -> None:
    """Transactions, frames and anticollision frames of the mixed table, visit by visit,
    and a hat tag's check in every cycle but those of the long UIDs' audits."""
    measured = emulated(TABLE)
    counted = [scan_model.events(tags) for tags in TABLE]
    checks = 1 - TABLE.count(1) / scan_model.AUDIT_CYCLES
    for i, name in enumerate(("txns", "frames", "anticollisions")):
        model = sum(e[i] for e in counted) + checks * scan_model.CHECK_EVENTS[i]
        assert model == pytest.approx(measured[name], rel=0.03, abs=0.2)
    without = emulated(TABLE, audit=0)  # no audit, no check
    for name in ("txns", "frames", "anticollisions"):
        assert without[name] < measured[name]


def test_the_rp2040_costs_charged_per_event_give_the_modelled_cycle() -> None:
    """The model adds MicroPython's time per visit from its events; the same costs charged
    on the emulated clock at each event give the same cycle."""
    for cost in (scan_model.RP2040_US, scan_model.RP2040_XIP_US):
        model = scan_model.cycle_ms(TABLE, cost=cost)
        per_cycle = cost.merge / 1000  # the bookkeeping around the visits
        assert model == pytest.approx(emulated(TABLE, cost=cost)["ms"] + per_cycle, rel=0.03)
        assert model > 1.3 * scan_model.cycle_ms(TABLE, interpreter=False)
    assert scan_model.cycle_ms(TABLE, cost=scan_model.RP2040_XIP_US) > scan_model.cycle_ms(TABLE)


def test_model_follows_a_calibrated_settle_time() -> None:
    """A table whose ``[readers] settle_us`` is not the bench's: each visit waits that long."""
    model = scan_model.cycle_ms(TABLE, interpreter=False, settle_us=1000)
    assert model == pytest.approx(emulated(TABLE, settle_us=1000)["ms"], rel=0.03)
    assert model == pytest.approx(scan_model.cycle_ms(TABLE, interpreter=False) + 7 * 0.7)


def test_two_buses_take_as_long_as_their_slower_half() -> None:
    """Each core scans its own bus at the same time (firmware/cores.py): the cycle is the
    slower half's, as the emulation of each half on its own bus gives it, with the cycle's
    bookkeeping (the cores' lockstep, core 0's gathering) when MicroPython's time counts."""
    model = scan_model.cycle_ms(TABLE, interpreter=False, buses=BUSES)
    halves = [emulated([0, 1, 3])["ms"], emulated([2, 1, 0, 4])["ms"]]
    assert model == pytest.approx(max(halves), rel=0.03)
    assert model < 0.7 * scan_model.cycle_ms(TABLE, interpreter=False)
    charged = scan_model.cycle_ms(TABLE, buses=BUSES)
    slower = max(scan_model.cycle_ms([0, 1, 3]), scan_model.cycle_ms([2, 1, 0, 4]))
    assert charged == pytest.approx(slower)
    with pytest.raises(ValueError):
        scan_model.cycle_ms(TABLE, buses=[0, 1])


def test_model_gives_the_bench_figures_for_19_readers() -> None:
    air = [scan_model.cycle_ms([k] * 19, interpreter=False) for k in (0, 1, 3)]
    assert air == pytest.approx([13.3, 28.5, 84.7], abs=0.05)
    gap = scan_model.visit_ms(5, interpreter=False) - scan_model.visit_ms(4, interpreter=False)
    assert gap == pytest.approx(scan_model.EXTRA_TAG_MS)
    more = scan_model.interpreter_ms(5) - scan_model.interpreter_ms(4)
    assert more == pytest.approx(scan_model.interpreter_ms(4) - scan_model.interpreter_ms(3))
    with pytest.raises(ValueError):
        scan_model.visit_ms(-1)


def test_the_implied_scale_is_the_one_that_gives_the_measured_cycle() -> None:
    """A Pico whose MicroPython time is 1.1 (or 0.8, 2.3) times the emulated RP2040's: its
    cycle gives back that scale. On two buses the slower half sets the cycle at any
    scale."""

    def cycle_at(scale: float, readers: list[int]) -> float:
        air = scan_model.cycle_ms(readers, interpreter=False)
        python = sum(scan_model.interpreter_ms(t) for t in readers)
        if any(t > 1 for t in readers):  # a hat's tag checked, but in a cycle with an audit
            share = 1 - readers.count(1) / scan_model.AUDIT_CYCLES
            python += share * (scan_model.check_ms() - scan_model.check_ms(interpreter=False))
        return air + scale * (python + scan_model.RP2040_US.merge / 1000)

    for scale in (0.8, 1.1, 2.3):
        one_bus = cycle_at(scale, TABLE)
        assert scan_model.implied_scale(one_bus, TABLE) == pytest.approx(scale)
        two_buses = max(cycle_at(scale, TABLE[:3]), cycle_at(scale, TABLE[3:]))
        assert scan_model.implied_scale(two_buses, TABLE, BUSES) == pytest.approx(scale)
    air = scan_model.cycle_ms(TABLE, interpreter=False, buses=BUSES)
    assert scan_model.implied_scale(air, TABLE, BUSES) is None
    assert scan_model.implied_scale(scan_model.cycle_ms(TABLE), TABLE) == pytest.approx(1.0)


def test_slower_than_model() -> None:
    assert scan_model.slower_than_model(43.1, 28.7)
    assert not scan_model.slower_than_model(43.0, 28.7 * 1.5 + 0.1)
    assert not scan_model.slower_than_model(10.0, 0.0)


def emulated_worst(tags_per_reader: list[int], buses: list[int], cost: Cost) -> float:
    """The longest of the firmware's steady cycles on two emulated buses (ms): each cycle
    as long as its slower half, the bookkeeping around the visits added."""
    halves = [
        emulated([t for t, b in zip(tags_per_reader, buses, strict=True) if b == bus], cost=cost)
        for bus in (0, 1)
    ]
    cycles = zip(halves[0]["times"], halves[1]["times"], strict=True)
    return max(map(max, cycles)) + cost.merge / 1000


def test_the_worst_cycle_is_the_emulated_one_an_audit_in_it() -> None:
    """Audits are staggered, one a bus in a cycle, and no hat's tag is checked in a cycle
    holding one: the longest cycle holds each bus's costliest audit (a long UID selected,
    halted, a REQA: 3.3 ms more than its walk) or its check (2.4 ms), never both."""
    for tags, buses in ((TABLE, BUSES), ([1, 3, 3, 1, 1, 0, 1, 1], [0] * 8)):
        worst = scan_model.worst_cycle_ms(tags, buses)
        assert worst == pytest.approx(emulated_worst(tags, buses, scan_model.RP2040_US), rel=0.03)
        assert worst > scan_model.cycle_ms(tags, buses=buses)
        assert worst < scan_model.cycle_ms(tags, buses=buses) + 4


def test_one_bus_holds_as_many_readers_as_keep_to_both_targets() -> None:
    """Two hats of three anywhere on a bus, one tag on each other reader, or one tag on
    each: the most readers one bus scans with both worst cycles in time, the model's error
    counted; a longer power-up wait leaves room for fewer."""
    most = scan_model.readers_a_bus()
    margin = 1 + scan_model.MODEL_ERROR

    def worst(readers: int, settle_us: int = scan_model.BENCH_SETTLE_US) -> tuple[float, float]:
        hats = scan_model.worst_cycle_ms([3, 3] + [1] * (readers - 2), settle_us=settle_us)
        return hats * margin, scan_model.worst_cycle_ms([1] * readers, settle_us=settle_us) * margin

    targets = (scan_model.HATS_TARGET_MS, scan_model.ONE_TAG_TARGET_MS)
    assert all(w <= t for w, t in zip(worst(most), targets, strict=True))
    assert any(w > t for w, t in zip(worst(most + 1), targets, strict=True))
    assert most >= 10  # the default wiring's fuller bus: the pad and spots 1..9
    fewer = scan_model.readers_a_bus(settle_us=1000)
    assert fewer < most
    assert all(w <= t for w, t in zip(worst(fewer, 1000), targets, strict=True))


def test_a_bus_carrying_more_readers_is_named_with_its_worst_cycle() -> None:
    most = scan_model.readers_a_bus()
    assert crowded_buses([0] * most + [1] * most) == []
    (line,) = crowded_buses([0] * 19)
    worst = scan_model.worst_cycle_ms([3, 3] + [1] * 17)
    assert line.startswith(f"SPI0 carries 19 readers, more than the {most} one bus scans")
    assert line.endswith(f"a bus supports at most {most} readers")
    assert f"a scan cycle can take {worst:.0f} ms, past the 45 ms" in line
    assert "wire half of them to SPI1" in line
    (line,) = crowded_buses([1] * (most + 1) + [0] * 3)
    assert line.startswith(f"SPI1 carries {most + 1} readers") and "some to the other bus" in line
    assert crowded_buses([0] * most, settle_us=5100) != []
