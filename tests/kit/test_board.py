"""The breakout board: SKiDL's electrical rule check passes, catches a wiring error, and
the KiCad netlist written connects each reader's lines as hardware/wiring.md says."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.kit import board
from companion.kit.table import KitError, Table, load_table

PinsWith = Callable[[Callable[[dict[str, Any]], None]], Path]

pytestmark = pytest.mark.xdist_group("kit-board")  # one worker builds `built` once


@pytest.fixture(scope="module")
def built() -> board.Board:
    return board.build(load_table())


def kicad_nets(netlist: str) -> dict[str, set[str]]:
    """The nets of a KiCad netlist read back: name -> {"U3.1", ...}."""
    nets: dict[str, set[str]] = {}
    body = netlist[netlist.index("(nets") :]
    for chunk in body.split("(net\n")[1:]:
        name = re.search(r'\(name "([^"]*)"\)', chunk)
        assert name is not None
        nodes = re.findall(r'\(ref "([^"]+)"\)\s*\(pin "([^"]+)"\)', chunk)
        nets[name.group(1)] = {f"{ref}.{pin}" for ref, pin in nodes}
    return nets


def _net_of(nets: dict[str, set[str]], pin: str) -> set[str]:
    found = [members for members in nets.values() if pin in members]
    assert len(found) == 1, pin
    return found[0]


def _through(nets: dict[str, set[str]], b: board.Board, start: str, resistor_tag: str) -> set[str]:
    """The net on the other side of resistor ``resistor_tag`` from ``start``'s net."""
    ref = b.refs[resistor_tag]
    net = _net_of(nets, start)
    assert f"{ref}.1" in net or f"{ref}.2" in net, (start, ref)
    other = f"{ref}.2" if f"{ref}.1" in net else f"{ref}.1"
    return _net_of(nets, other)


def test_the_erc_passes_with_no_error_and_no_warning(built: board.Board) -> None:
    assert (built.errors, built.warnings) == (0, 0), built.erc


def test_the_erc_catches_two_supplies_fighting_and_a_pin_left_floating() -> None:
    def back_feed(skidl: Any, circuit: Any) -> None:
        pico = next(p for p in circuit.parts if p.ref == "A1")
        pico[board.PICO_PINS["3V3"]].disconnect()
        pico[board.PICO_PINS["3V3"]] += skidl.Net.fetch("+3V3")

    def floating(skidl: Any, circuit: Any) -> None:
        u = next(p for p in circuit.parts if p.ref == "U5")
        u[13].disconnect()  # gate 4's /OE: the chip select would float out

    fought = board.build(load_table(), back_feed)
    assert fought.errors >= 1 and "POWER-OUT connected to POWER-OUT" in fought.erc
    left = board.build(load_table(), floating)
    assert left.errors + left.warnings >= 1 and "U5" in left.erc


def test_each_reader_slice_connects_as_documented(built: board.Board) -> None:
    table = load_table()
    nets = kicad_nets(built.netlist)
    assert {n: set(p) for n, p in built.nets if p} == nets  # the file is the circuit
    pico = {name: f"A1.{pin}" for name, pin in board.PICO_PINS.items()}
    for r in range(table.full_mat.spots + 1):
        bus = table.bus_of(r)
        u, j = built.refs[f"u{r}"], built.refs[f"j{r}"]
        cs = _net_of(nets, pico[f"GP{table.readers[r].cs}"])
        assert {f"{u}.1", f"{u}.12"} <= cs  # enables the MISO gate, drives the CS gate
        assert f"{u}.3" in _net_of(nets, pico[f"GP{bus.miso}"])  # MISO back to its bus
        assert f"{u}.5" in _net_of(nets, pico[f"GP{bus.sck}"])
        assert f"{u}.9" in _net_of(nets, pico[f"GP{bus.mosi}"])
        for oe in (4, 10, 13):
            assert f"{u}.{oe}" in nets["GND"]  # SCK, MOSI and CS gates always on
        # Every line leaving the board passes a series resistor, and a TVS guards it.
        d = built.refs[f"d{r}"]
        for out, tag, pin, tvs in (("6", "sck", 2, 3), ("8", "mosi", 3, 4), ("11", "cs", 1, 1)):
            mat = _through(nets, built, f"{u}.{out}", f"{tag}{r}")
            assert {f"{j}.{pin}", f"{d}.{tvs}"} <= mat
        miso_mat = _through(nets, built, f"{u}.2", f"miso{r}")
        assert {f"{j}.4", f"{d}.6"} <= miso_mat
        assert f"{j}.7" in _through(nets, built, pico[f"GP{table.rst}"], f"rst{r}")
        assert {f"{j}.6"} <= nets["GND"] and {f"{j}.8"} <= nets["+3V3"]
        assert not any(f"{j}.5" in members for members in nets.values())  # IRQ unconnected


def test_a_one_bus_pin_map_gives_a_one_bus_board(pins_with: PinsWith) -> None:
    def one_bus(data: dict[str, Any]) -> None:
        del data["pico"]["spi1"]
        data["pico"]["readers"]["spi1"] = []

    b = board.build(load_table(pins_with(one_bus)))
    assert (b.errors, b.warnings) == (0, 0), b.erc
    names = {n for n, _ in b.nets}
    assert "MISO0" in names and "MISO1" not in names
    miso = dict(b.nets)["MISO0"]
    assert sum(1 for p in miso if p.startswith("U") and p.endswith(".3")) == 19


def test_a_board_failing_its_erc_is_not_written(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, table: Table
) -> None:
    real = board.build

    def broken(t: Table) -> board.Board:
        def short(skidl: Any, circuit: Any) -> None:
            pico = next(p for p in circuit.parts if p.ref == "A1")
            pico[board.PICO_PINS["VBUS"]].disconnect()
            pico[board.PICO_PINS["VBUS"]] += skidl.Net.fetch("+3V3")

        return real(t, short)

    monkeypatch.setattr(board, "build", broken)
    with pytest.raises(KitError, match="electrical rule check"):
        board.write(table, tmp_path)
    assert not list(tmp_path.iterdir())
