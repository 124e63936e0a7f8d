"""The one description of a table: its pin map and its games' mats, with their geometry.

`load_table` reads hardware/pins.toml (the ``[pico]`` readers and buses, the ``[pi]``
console, the optional ``[kit]`` choices) and asks every registered game where its spots
lie (`Game.mat`); the mats of all games and seat counts are merged by shape, so one
3 x 3 mat lists every game that plays on it, with its seat count. Everything else in the
kit is computed from the `Table` this returns.

Geometry, in millimetres, seen from the console side (x to the right, y away from the
console is *up* on paper: y grows down the page, row 1 at the top, as mats.md draws it):
reader centres sit `pitch` apart, the mat's edge `pitch / 2` beyond the outer centres;
the pad sits 1.5 pitches right of the last column, level with the last row; the
breakout board sits below the pad, at the console edge. Each reader module's header
points at the console; its cable runs down to the channel below its row, along the row
to the mat's right edge, down that edge and across to the board (`Mat.route`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.cli_words import os_error
from companion.config.model import ConfigError, PinMap
from companion.config.pins import REPOSITORY_PINS, load_pins
from companion.config.syntax import NotToml, toml_of
from companion.kit.words import kit_says

Point = tuple[float, float]
Cell = tuple[int, int]


class KitError(ValueError):
    """A description the kit cannot draw from: says what is wrong and where."""


@dataclass(frozen=True, slots=True)
class Module:
    """The reader board's outline around its antenna's centre (mm): a typical blue RC522
    board, 40 x 60 mm, its antenna loop at one end and its 8-pin header at the other.
    A builder with another board measures it and changes these numbers."""

    width: float = 40.0
    height: float = 60.0
    antenna: tuple[float, float] = (36.0, 32.0)
    """Width and height of the antenna loop, centred on the spot."""
    above: float = 22.0
    """From the antenna's centre to the board's far edge (away from the header)."""
    header: float = 35.0
    """From the antenna's centre to the header's pins, toward the console."""


MODULE = Module()
PINS_PER_READER = ("SDA", "SCK", "MOSI", "MISO", "IRQ", "GND", "RST", "3.3V")
"""The RC522 board's header, in its order: a reader's cable and its board connector
follow it, so that a straight 8-way cable joins them (IRQ is not connected)."""


@dataclass(frozen=True, slots=True)
class Reader:
    number: int
    """0 the pad, 1..N the spots."""
    cs: int
    """The Pico GPIO of its chip select."""
    bus: int
    """0 or 1: the SPI bus (its index in `Table.buses`)."""

    @property
    def name(self) -> str:
        return "pad" if self.number == 0 else f"spot {self.number}"


@dataclass(frozen=True, slots=True)
class Bus:
    index: int
    """The SPI controller (0: SPI0, 1: SPI1)."""
    sck: int
    mosi: int
    miso: int
    readers: tuple[int, ...]
    """The reader numbers on it, in order."""


@dataclass(frozen=True, slots=True)
class Kit:
    """The builder's choices of pins.toml's ``[kit]`` table (all optional)."""

    pitch: float = 80.0
    """Centre to centre between neighbouring readers, mm (mats.md: at least 80)."""
    slack: float = 100.0
    """Added to each reader cable's route for its two connectors and strain relief, mm."""
    seat_wire: float = 1.0
    """Metres from the console to a seat's buttons (depends on the table)."""


@dataclass(frozen=True, slots=True)
class Mat:
    """One shape of mat: its spots' grid cells (reading order) and who plays on it."""

    cells: tuple[Cell, ...]
    users: tuple[str, ...]
    """Each game and seat count played on it ("<game>, 4 seats"), in the registry's
    order."""
    pitch: float

    @property
    def spots(self) -> int:
        return len(self.cells)

    @property
    def name(self) -> str:
        rows = {r for r, _ in self.cells}
        cols = {c for _, c in self.cells}
        if len(rows) * len(cols) == self.spots:
            return f"{len(rows)}x{len(cols)}"
        return f"{self.spots}-spot"

    @property
    def size(self) -> Point:
        """Width and height of the mat without the pad."""
        rows = [r for r, _ in self.cells]
        cols = [c for _, c in self.cells]
        return ((max(cols) - min(cols) + 1) * self.pitch, (max(rows) - min(rows) + 1) * self.pitch)

    def centre(self, reader: int) -> Point:
        """Where reader ``reader``'s antenna centre lies (0: the pad)."""
        if reader == 0:
            width, height = self.size
            return width + self.pitch, height - self.pitch / 2
        row0 = min(r for r, _ in self.cells)
        col0 = min(c for _, c in self.cells)
        row, col = self.cells[reader - 1]
        return (col - col0 + 0.5) * self.pitch, (row - row0 + 0.5) * self.pitch

    @property
    def board(self) -> Point:
        """Where the cables meet the breakout board: below the pad, at the console edge."""
        x, _ = self.centre(0)
        return x, self.size[1] + self.pitch / 2

    @property
    def extent(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of everything drawn: mat, pad, board."""
        pad_x, _ = self.centre(0)
        _, board_y = self.board
        return (0.0, 0.0, pad_x + self.pitch / 2, board_y + 20.0)  # the board's label below

    def route(self, reader: int) -> list[Point]:
        """The cable run of ``reader``, from its header to the board, as a polyline."""
        x, y = self.centre(reader)
        header = (x, y + MODULE.header)
        bx, by = self.board
        if reader == 0:
            return [header, (x, by)]
        width, height = self.size
        channel = min(y + self.pitch / 2 + 10.0, height - 5.0)  # between two rows' modules
        edge = width - 5.0  # down the mat's right edge
        points = [header, (x, channel), (edge, channel), (edge, height - 5.0), (bx, height - 5.0)]
        points.append((bx, by))
        return [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]

    def cable(self, reader: int, slack: float) -> float:
        """The length of ``reader``'s cable, mm: its route, the slack, up to 5 cm."""
        points = self.route(reader)
        run = sum(math.dist(a, b) for a, b in zip(points, points[1:], strict=False))
        return math.ceil((run + slack) / 50.0) * 50.0


@dataclass(frozen=True, slots=True)
class Table:
    readers: tuple[Reader, ...]
    buses: tuple[Bus, ...]
    rst: int
    pi: PinMap
    oled_address: int
    mats: tuple[Mat, ...]
    kit: Kit
    pad_only: tuple[str, ...]
    """The games played with the pad alone (no spots at any seat count, or no mat)."""

    @property
    def full_mat(self) -> Mat:
        """The mat with the most spots: the one the kit is built for."""
        return max(self.mats, key=lambda m: m.spots)

    def bus_of(self, reader: int) -> Bus:
        return self.buses[self.readers[reader].bus]


def load_table(path: Path = REPOSITORY_PINS) -> Table:
    """The table described by the pin map at ``path`` and the registered games' mats;
    `KitError` names what cannot be drawn (a `ConfigError` for the Pi's pins)."""
    data = _document(path)
    try:
        pi = load_pins(path)
    except ConfigError as exc:
        raise KitError(str(exc)) from exc
    readers, buses, rst = _pico(data.get("pico"), path)
    kit = _kit(data.get("kit", {}), path)
    mats, pad_only = game_mats(kit.pitch)
    most = max(m.spots for m in mats)
    if most > len(readers) - 1:
        raise KitError(kit_says("few_cs", path=path, cs=len(readers), spots=len(readers) - 1,
                                most=most))  # fmt: skip
    address = data.get("pi", {}).get("oled", {}).get("address", 0x3C)
    return Table(tuple(readers), buses, rst, pi, int(address), mats, kit, pad_only)


def load_pico(path: Path) -> tuple[list[Reader], tuple[Bus, ...], int]:
    """The ``[pico]`` part of the pin map at ``path``: its readers, buses and reset pin
    (`companion doctor --walk` names a reader's wires with it)."""
    return _pico(_document(path).get("pico"), path)


def _document(path: Path) -> dict[str, Any]:
    """The pin map at ``path`` read, or `KitError` saying why not in the table's words."""
    try:
        return toml_of(path.read_bytes())
    except OSError as exc:
        raise KitError(kit_says("unreadable", path=path, why=os_error(exc))) from exc
    except NotToml as exc:
        raise KitError(kit_says("unreadable", path=path, why=exc)) from exc


def _pico(pico: Any, path: Path) -> tuple[list[Reader], tuple[Bus, ...], int]:
    def need(table: Any, key: str, where: str) -> int:
        value = table.get(key) if isinstance(table, Mapping) else None
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 29:
            raise KitError(kit_says("gpio", path=path, where=where, key=key, value=repr(value)))
        return value

    if not isinstance(pico, Mapping):
        raise KitError(kit_says("no_pico", path=path))
    spi = pico.get("spi")
    second = pico.get("spi1")
    readers = pico.get("readers")
    cs = readers.get("cs") if isinstance(readers, Mapping) else None
    if not isinstance(cs, list) or not cs:
        raise KitError(kit_says("cs_list", path=path))
    on_spi1 = list(readers.get("spi1", [])) if isinstance(readers, Mapping) else []
    if on_spi1 and second is None:
        raise KitError(kit_says("no_spi1", path=path))
    if len(set(on_spi1)) != len(on_spi1) or not all(
        isinstance(r, int) and 0 <= r < len(cs) for r in on_spi1
    ):
        raise KitError(kit_says("spi1_readers", path=path, last=len(cs) - 1))
    cs_pins = [need({"cs": p}, "cs", f"pico.readers.cs[{i}]") for i, p in enumerate(cs)]
    table = [Reader(n, pin, 1 if n in on_spi1 else 0) for n, pin in enumerate(cs_pins)]

    def bus(section: Any, where: str, index: int) -> Bus:
        spi_id, sck, mosi, miso = (
            need(section, key, where) for key in ("bus", "sck", "mosi", "miso")
        )
        return Bus(spi_id, sck, mosi, miso, tuple(r.number for r in table if r.bus == index))

    buses = [bus(spi, "pico.spi", 0)]
    if second is not None:
        buses.append(bus(second, "pico.spi1", 1))
    rst = need(readers, "rst", "pico.readers")
    every = [p for b in buses for p in (b.sck, b.mosi, b.miso)] + [rst] + cs_pins
    twice = sorted({p for p in every if every.count(p) > 1})
    if twice:
        raise KitError(kit_says("twice", path=path, pins=", ".join(map(str, twice))))
    return table, tuple(buses), rst


KIT_KEYS = {"pitch_mm": (80.0, 500.0), "cable_slack_mm": (0.0, 1000.0), "seat_wire_m": (0.1, 20.0)}


def _kit(section: Any, path: Path) -> Kit:
    if not isinstance(section, Mapping):
        raise KitError(kit_says("kit_table", path=path))
    for key in sorted(set(section) - set(KIT_KEYS)):
        raise KitError(kit_says("kit_key", path=path, key=key, known=", ".join(sorted(KIT_KEYS))))
    values: dict[str, float] = {}
    for key, (lo, hi) in KIT_KEYS.items():
        if key not in section:
            continue
        value = section[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
            raise KitError(kit_says("kit_value", path=path, key=key, value=repr(value), low=lo,
                                    high=hi))  # fmt: skip
        values[key] = float(value)
    default = Kit()
    return Kit(
        pitch=values.get("pitch_mm", default.pitch),
        slack=values.get("cable_slack_mm", default.slack),
        seat_wire=values.get("seat_wire_m", default.seat_wire),
    )


def game_mats(pitch: float) -> tuple[tuple[Mat, ...], tuple[str, ...]]:
    """Every registered game's mat for each of its seat counts, merged by shape (fewest
    spots first), and the games played on the pad alone."""
    from companion import games

    users: dict[tuple[Cell, ...], list[str]] = {}
    pad_only: list[str] = []
    for name in games.names():
        game = games.get(name)
        for seats in game.seats:
            if game.spots(seats, None) == 0 or game.mat is None:
                if name not in pad_only:
                    pad_only.append(name)
                continue
            cells = _normalised(game.mat(seats, None))
            if len(cells) != game.spots(seats, None):
                raise KitError(kit_says("mat_cells", game=name, seats=seats, cells=len(cells),
                                        spots=game.spots(seats, None)))  # fmt: skip
            users.setdefault(cells, []).append(f"{name}, {seats} seats")
    mats = [Mat(cells, tuple(who), pitch) for cells, who in users.items()]
    mats.sort(key=lambda m: (m.spots, m.name))
    return tuple(mats), tuple(pad_only)


def _normalised(cells: Sequence[tuple[int, int]]) -> tuple[Cell, ...]:
    row0 = min(r for r, _ in cells)
    col0 = min(c for _, c in cells)
    return tuple((r - row0, c - col0) for r, c in cells)
