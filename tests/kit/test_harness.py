"""The wiring harnesses: what the WireViz YAML says is the pin map and the mat's cables,
and WireViz draws it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.kit import harness
from companion.kit.table import PINS_PER_READER, Table, load_table

PinsWith = Callable[[Callable[[dict[str, Any]], None]], Path]


def _pico_pin_of(h: dict[str, Any], reader: int, line: str) -> int:
    """The Pico GPIO the harness wires to ``line`` of reader ``reader``'s connector."""
    col = PINS_PER_READER.index(line) + 1
    for path in h["connections"]:
        pins = path[0].get("Pico")
        target = path[2].get(f"J{reader}")
        if pins is not None and target is not None and col in target:
            return int(pins[target.index(col)])
    raise AssertionError(f"no Pico pin reaches J{reader} {line}")


def test_each_reader_of_the_full_mat_is_on_its_bus_with_its_own_pins(table: Table) -> None:
    hs = harness.harnesses(table)
    assert set(hs) == {"bus0", "bus1", "console"}
    seen = []
    for bus in table.buses:
        h = hs[f"bus{bus.index}"]
        for r in bus.readers:
            seen.append(r)
            assert _pico_pin_of(h, r, "SDA") == table.readers[r].cs
            assert _pico_pin_of(h, r, "SCK") == bus.sck
            assert _pico_pin_of(h, r, "MOSI") == bus.mosi
            assert _pico_pin_of(h, r, "MISO") == bus.miso
            assert _pico_pin_of(h, r, "RST") == table.rst
            cable = h["cables"][f"W{r}"]
            assert cable["length"] == table.full_mat.cable(r, table.kit.slack) / 1000
            straight = [
                {f"J{r}": list(range(1, 9))},
                {f"W{r}": list(range(1, 9))},
                {f"Reader{r}": list(range(1, 9))},
            ]
            assert straight in h["connections"]
    assert sorted(seen) == list(range(19))


def test_swapped_chip_selects_in_the_pin_map_swap_the_drawing(pins_with: PinsWith) -> None:
    def swap(data: dict[str, Any]) -> None:
        cs = data["pico"]["readers"]["cs"]
        cs[3], cs[4] = cs[4], cs[3]

    h = harness.harnesses(load_table(pins_with(swap)))["bus0"]
    assert (_pico_pin_of(h, 3, "SDA"), _pico_pin_of(h, 4, "SDA")) == (3, 2)


def test_the_console_wires_each_button_to_its_physical_pin(table: Table) -> None:
    h = harness.harnesses(table)["console"]
    pi = h["connectors"]["Pi"]
    label_of = dict(zip(pi["pins"], pi["pinlabels"], strict=True))
    # The Pi's header: BCM 4 is pin 7, 14 is 8, 26 is 37, 21 is 40 (pinout.xyz).
    assert label_of[7].startswith("GPIO4 ") and label_of[8].startswith("GPIO14 ")
    assert label_of[37] == "GPIO26 Back" and label_of[40] == "GPIO21 encoder push"
    for seat, pin in enumerate(table.pi.seats["menteur"], start=1):
        assert label_of[harness.PHYSICAL[pin]] == f"GPIO{pin} Seat {seat} Menteur"
        assert h["cables"][f"WSeat{seat}Menteur"]["length"] == table.kit.seat_wire
    oled = next(p for p in h["connections"] if "OLED" in p[2])
    assert [label_of[p] for p in oled[0]["Pi"]] == ["GND", "3V3", "GPIO3 SCL", "GPIO2 SDA"]
