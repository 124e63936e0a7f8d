"""The BOM and the power budget: every count follows the description (pin map and mats)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.kit import bom
from companion.kit.table import KitError, Mat, Table, load_table

PinsWith = Callable[[Callable[[dict[str, Any]], None]], Path]


def _qty(table: Table, part: str) -> float:
    found = [i.qty for i in bom.items(table) if part in i.part]
    assert len(found) == 1, (part, found)
    return found[0]


def test_the_kit_is_built_for_the_largest_mat_of_any_game(table: Table) -> None:
    most = max(
        games.get(name).spots(seats, None)
        for name in games.names()
        for seats in games.get(name).seats
    )
    assert table.full_mat.spots == most == 18
    assert _qty(table, "MFRC522") == most + 1  # and the pad


def test_per_reader_parts_follow_the_mat(table: Table) -> None:
    small = dataclasses.replace(table, mats=(Mat(((0, 0), (0, 1), (0, 2)), ("x",), 80.0),))
    for t, readers in ((table, 19), (small, 4)):
        assert _qty(t, "74LVC125A") == readers
        assert _qty(t, "TVS") == readers
        assert _qty(t, "33 ohm") == 4 * readers  # SCK, MOSI, CS and MISO of each
        assert _qty(t, "100 kohm") == readers
        assert _qty(t, "pin header 1x8") == readers
        assert _qty(t, "Dupont female crimp") == readers * 2 * 8
        assert _qty(t, "100 nF") == 2 * readers
    cable = _qty(small, "flat cable")
    mat = small.full_mat
    assert cable == pytest.approx(sum(mat.cable(r, 100) for r in range(4)) / 1000)


def test_button_lines_and_seat_wire_follow_the_pi_pins(pins_with: PinsWith) -> None:
    def four_seats(data: dict[str, Any]) -> None:
        data["pi"]["seats"]["doublon"] = data["pi"]["seats"]["doublon"][:4]
        data["pi"]["seats"]["menteur"] = data["pi"]["seats"]["menteur"][:4]
        data["kit"]["seat_wire_m"] = 2.5

    t = load_table(pins_with(four_seats))
    assert _qty(t, "push button") == 4 + 4 + 3 + 1
    assert _qty(t, "1 kohm") == 19 + 12  # each reader's RST, each button line
    assert _qty(t, "twisted pair") == 8 * 2.5


def test_one_bus_means_one_field_on_and_one_miso_pull_down(pins_with: PinsWith) -> None:
    def one_bus(data: dict[str, Any]) -> None:
        del data["pico"]["spi1"]
        data["pico"]["readers"]["spi1"] = []

    two, one = bom.budget(load_table()), bom.budget(load_table(pins_with(one_bus)))
    assert (two.fields, one.fields) == (2, 1)
    assert two.expected - one.expected == pytest.approx(sum(bom.FIELD_MA) / 2)
    assert _qty(load_table(pins_with(one_bus)), "10 kohm") == 19 + 1 + 1


def test_the_power_budget_is_about_0_45_a_and_the_2_a_supply_covers_it(table: Table) -> None:
    b = bom.budget(table)
    assert b.readers == 19 and b.fields == 2
    assert 19 * 13 + 2 * 60 <= b.low < b.expected < b.high <= 19 * 17 + 2 * 100 + 19 * 1
    assert 420 <= b.expected <= 480  # the "about 0.45 A"
    assert b.high < bom.SUPPLY_A * 1000 < b.every_field


def test_the_rendered_bom_shows_every_item_and_the_budget(table: Table) -> None:
    text = bom.render(table)
    rows = [line for line in text.splitlines() if re.match(r"\| [\d.]+(?: m)?\+? \|", line)]
    assert len(rows) == len(list(bom.items(table))) + 1  # and the tags
    assert "74HC125" not in text
    assert f"| {bom.budget(table).expected:.0f} mA |" in text
    for mat in table.mats:
        assert f"| {mat.name} | {mat.spots + 1} |" in text


def test_a_pin_map_the_kit_cannot_draw_is_refused_with_the_key(pins_with: PinsWith) -> None:
    def few(data: dict[str, Any]) -> None:
        data["pico"]["readers"]["cs"] = data["pico"]["readers"]["cs"][:10]
        data["pico"]["readers"]["spi1"] = []

    def twice(data: dict[str, Any]) -> None:
        data["pico"]["readers"]["cs"][3] = 18

    def bad_kit(data: dict[str, Any]) -> None:
        data["kit"]["pitch_mm"] = 20

    def unknown(data: dict[str, Any]) -> None:
        data["kit"]["pich_mm"] = 90

    for change, words in (
        (few, "has 10 chip selects"),
        (twice, "GPIO 18 used twice"),
        (bad_kit, "kit.pitch_mm = 20"),
        (unknown, "kit.pich_mm: unknown key"),
    ):
        with pytest.raises(KitError, match=words):
            load_table(pins_with(change))
