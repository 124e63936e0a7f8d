"""The 1:1 mat templates: each mat drawn at full size and tiled over A4 or A3 pages.

`drawing` lays out one mat in millimetres (x to the right, y down the page, the console
at the bottom): the mat's edge, for each reader its board's outline, its antenna loop and
a red cross on the antenna's centre, the spot number, the reader number, its bus and chip
select, the header its cable plugs into, and the cable's run to the breakout board (bus 0
blue, bus 1 orange); the pad and the board beside the mat. `tiles` cuts that drawing
into pages: each page shows a frame of the drawing, neighbouring frames overlap by
`OVERLAP`, and registration marks (a circle and a cross) sit in every overlap, so that a
builder trims a tile along its frame's left and top edges, lays it on its neighbours with
the marks over each other, and tapes it. Each page carries a 100 mm scale bar to measure
after printing at 100 %.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from companion.kit.table import MODULE, Mat, Table
from companion.sheets import (
    A3,
    A4,
    BLACK,
    GREY,
    LIGHT_GREY,
    Circle,
    Clip,
    Line,
    Page,
    Primitive,
    Rect,
    Size,
    Text,
    write_pdf,
)

RED = (220, 0, 0)
"""The antenna centres' crosses, and nothing else: the test finds them by this colour."""
ANTENNA = (40, 90, 200)
BUS_COLOURS = ((30, 110, 220), (235, 130, 20))
MARK = BLACK
CROSS = 6.0
"""Half the length of an antenna centre's cross, mm."""
MARK_SIZE = 5.0
"""Half the length of a registration mark's cross, mm (its circle's radius is 3)."""
MARGIN = 10.0
"""Unprinted border of every page, mm (most printers cannot print closer to the edge)."""
STRIP = 22.0
"""The band at the foot of every page: the tile's name, the scale bar, how to print."""
OVERLAP = 12.0
"""How far neighbouring tiles overlap, mm: the registration marks sit in the middle."""
BORDER = 10.0
"""Drawn around the mat's extent, so the outer edges lie inside a tile."""
PAPERS: dict[str, Size] = {"A4": A4, "A3": A3}
MARK_AT = (0.2, 0.45, 0.8)
"""Where the marks sit along each seam, as fractions of the frame: unevenly, so that two
tiles fit over each other one way only."""


@dataclass(frozen=True)
class Tiling:
    """How a drawing of ``extent`` is cut into tiles of a paper."""

    paper: str
    size: Size
    """The page, width and height (landscape when wider), mm."""
    origin: tuple[float, float]
    """The drawing's point at the first tile's frame's top-left corner."""
    columns: int
    rows: int

    @property
    def frame(self) -> tuple[float, float]:
        width, height = self.size
        return width - 2 * MARGIN, height - 2 * MARGIN - STRIP

    @property
    def step(self) -> tuple[float, float]:
        fw, fh = self.frame
        return fw - OVERLAP, fh - OVERLAP

    def corner(self, row: int, column: int) -> tuple[float, float]:
        """The drawing's point at tile (row, column)'s frame's top-left corner."""
        sx, sy = self.step
        return self.origin[0] + column * sx, self.origin[1] + row * sy

    def marks(self) -> list[tuple[float, float]]:
        """Where the registration marks are, in the drawing's coordinates: in the middle of
        every overlap, three along each seam of each tile (`MARK_AT`), and where seams cross."""
        fw, fh = self.frame
        sx, sy = self.step
        seams_x = [self.origin[0] + c * sx + OVERLAP / 2 for c in range(1, self.columns)]
        seams_y = [self.origin[1] + r * sy + OVERLAP / 2 for r in range(1, self.rows)]
        points = {(x, y) for x in seams_x for y in seams_y}
        for x in seams_x:
            for r in range(self.rows):
                top = self.origin[1] + r * sy
                points |= {(x, top + fh * f) for f in MARK_AT}
        for y in seams_y:
            for c in range(self.columns):
                left = self.origin[0] + c * sx
                points |= {(left + fw * f, y) for f in MARK_AT}
        return sorted(points)


def tiling(mat: Mat, paper: str) -> Tiling:
    """The fewest tiles of ``paper`` (portrait or landscape) covering ``mat``'s drawing."""
    left, top, right, bottom = mat.extent
    width, height = right - left + 2 * BORDER, bottom - top + 2 * BORDER
    best: Tiling | None = None
    short, long = PAPERS[paper]
    for size in ((short, long), (long, short)):
        t = Tiling(paper, size, (left - BORDER, top - BORDER), 1, 1)
        sx, sy = t.step
        fw, fh = t.frame
        columns = max(1, math.ceil((width - fw) / sx) + 1)
        rows = max(1, math.ceil((height - fh) / sy) + 1)
        t = Tiling(paper, size, t.origin, columns, rows)
        if best is None or columns * rows < best.columns * best.rows:
            best = t
    assert best is not None
    return best


def drawing(table: Table, mat: Mat) -> list[Primitive]:
    """The mat at full size, in mm (see the module's docstring)."""
    width, height = mat.size
    out: list[Primitive] = [Rect(0, 0, width, height, None, GREY, 0.5)]
    out.append(
        Text(4, 5, f"Mat {mat.name}: {mat.spots} spots, console side below", 4, GREY, "left")
    )
    px, py = mat.centre(0)
    half = mat.pitch / 2
    out.append(Rect(px - half, py - half, mat.pitch, mat.pitch, None, GREY, 0.5))
    bx, by = mat.board
    out.append(Rect(bx - 30, by - 4, 60, 20, None, GREY, 0.5))
    out.append(Text(bx, by + 10, "breakout board", 3.5, GREY))
    for r in range(mat.spots + 1):
        bus = table.readers[r].bus
        route = mat.route(r)
        for (x1, y1), (x2, y2) in zip(route, route[1:], strict=False):
            out.append(Line(x1, y1, x2, y2, BUS_COLOURS[bus], 0.8))
    for r in range(mat.spots + 1):
        out += _reader(table, mat, r)
    return out


def _reader(table: Table, mat: Mat, r: int) -> list[Primitive]:
    reader = table.readers[r]
    x, y = mat.centre(r)
    aw, ah = MODULE.antenna
    top = y - MODULE.above
    label = "PAD" if r == 0 else str(r)
    return [
        Rect(x - MODULE.width / 2, top, MODULE.width, MODULE.height, None, LIGHT_GREY, 0.4),
        Rect(x - aw / 2, y - ah / 2, aw, ah, None, ANTENNA, 0.5),
        Circle(x, y, 25.0, GREY, 0.3, dash=2.0),  # a cup's foot on the spot
        Line(x - CROSS, y, x + CROSS, y, RED, 0.3),
        Line(x, y - CROSS, x, y + CROSS, RED, 0.3),
        Text(x - aw / 2 + 2, y - ah / 2 + 5, label, 7 if r else 5, BLACK, "left", bold=True),
        Text(x, y + ah / 2 + 3, f"reader {r}, bus {reader.bus}, CS GP{reader.cs}", 2.4, BLACK),
        Rect(x - 10.16, y + MODULE.header - 1.27, 20.32, 2.54, LIGHT_GREY),  # the 8-pin header
        Text(x, y + MODULE.header - 4, "header: SDA first", 1.8, GREY),
    ]


def _moved(p: Primitive, dx: float, dy: float) -> Primitive:
    if isinstance(p, Rect):
        return Rect(p.x + dx, p.y + dy, p.w, p.h, p.fill, p.outline, p.width)
    if isinstance(p, Text):
        return Text(p.x + dx, p.y + dy, p.text, p.size, p.colour, p.align, p.bold)
    if isinstance(p, Line):
        return Line(p.x1 + dx, p.y1 + dy, p.x2 + dx, p.y2 + dy, p.colour, p.width)
    if isinstance(p, Circle):
        return Circle(p.cx + dx, p.cy + dy, p.r, p.outline, p.width, p.dash)
    return Clip(p.x + dx, p.y + dy, p.w, p.h)


def _box(p: Primitive) -> tuple[float, float, float, float]:
    if isinstance(p, Rect | Clip):
        return p.x, p.y, p.x + p.w, p.y + p.h
    if isinstance(p, Line):
        return min(p.x1, p.x2), min(p.y1, p.y2), max(p.x1, p.x2), max(p.y1, p.y2)
    if isinstance(p, Circle):
        return p.cx - p.r, p.cy - p.r, p.cx + p.r, p.cy + p.r
    reach = len(p.text) * p.size  # generous: a text never wider than its size per letter
    return p.x - reach, p.y - p.size, p.x + reach, p.y + p.size


def registration_mark(x: float, y: float) -> list[Primitive]:
    return [
        Circle(x, y, 3.0, MARK, 0.25),
        Line(x - MARK_SIZE, y, x + MARK_SIZE, y, MARK, 0.25),
        Line(x, y - MARK_SIZE, x, y + MARK_SIZE, MARK, 0.25),
    ]


def scale_bar(x: float, y: float) -> list[Primitive]:
    """A 100 mm bar with a tick every 10 mm, its left end at (x, y)."""
    out: list[Primitive] = [Line(x, y, x + 100, y, BLACK, 0.4)]
    for i in range(11):
        out.append(Line(x + 10 * i, y, x + 10 * i, y + (3.0 if i % 5 else 5.0), BLACK, 0.25))
    out.append(Text(x + 50, y - 3, "100 mm: measure this bar after printing", 2.6, BLACK))
    return out


def tiles(table: Table, mat: Mat, paper: str) -> Iterator[Page]:
    """The pages of ``mat``'s template on ``paper``, row by row."""
    t = tiling(mat, paper)
    art = drawing(table, mat)
    for x, y in t.marks():
        art += registration_mark(x, y)
    width, height = t.size
    fw, fh = t.frame
    for row in range(t.rows):
        for column in range(t.columns):
            gx, gy = t.corner(row, column)
            dx, dy = MARGIN - gx, MARGIN - gy
            foot = height - MARGIN - STRIP
            page: Page = [
                Rect(MARGIN, MARGIN, fw, fh, None, GREY, 0.2),
                Text(
                    MARGIN,
                    foot + 6,
                    f"Mat {mat.name} - {paper} tile row {row + 1} of {t.rows}, "
                    f"column {column + 1} of {t.columns}",
                    3.2,
                    BLACK,
                    "left",
                    bold=True,
                ),
                Text(
                    MARGIN,
                    foot + 11,
                    "Print at 100 % (actual size, no fit to page). Trim "
                    "along the frame's left and top edges, lay on the neighbours with the "
                    "circled crosses over each other.",
                    2.2,
                    GREY,
                    "left",
                ),
                Text(
                    MARGIN,
                    foot + 15,
                    "Red cross: antenna centre. Blue: antenna. Grey: reader "
                    "board, cup. Lines: cables (bus 0 blue, bus 1 orange).",
                    2.2,
                    GREY,
                    "left",
                ),
                *scale_bar(width - MARGIN - 100, foot + 14),
                Clip(MARGIN, MARGIN, fw, fh),
            ]
            for p in art:
                x1, y1, x2, y2 = _box(p)
                if x2 >= gx and x1 <= gx + fw and y2 >= gy and y1 <= gy + fh:
                    page.append(_moved(p, dx, dy))
            yield page


def write(table: Table, folder: Path) -> list[Path]:
    """Every mat's template on A4 and on A3, as PDFs in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for mat in table.mats:
        for paper in PAPERS:
            path = folder / f"mat-{mat.name}-{paper}.pdf"
            t = tiling(mat, paper)
            write_pdf(
                list(tiles(table, mat, paper)),
                path,
                size=t.size,
                title=f"Mat {mat.name}, 1:1, {paper}",
                creator="python -m companion.kit",
            )
            written.append(path)
    return written


def _grid(mat: Mat) -> list[str]:
    """The spot numbers as mats.md has always drawn them, ``P`` for the pad."""
    rows = max(r for r, _ in mat.cells) + 1
    cols = max(c for _, c in mat.cells) + 1
    at = {cell: n for n, cell in enumerate(mat.cells, start=1)}
    lines = []
    for row in range(rows):
        line = "".join(f"{at[(row, c)]:>3}" if (row, c) in at else "   " for c in range(cols))
        lines.append(line + ("        P" if row == rows - 1 else ""))
    return lines


def render(table: Table) -> str:
    """hardware/mats.md."""
    pitch = table.kit.pitch
    lines = [
        "# Mats",
        "",
        "<!-- Generated by `python -m companion.kit` from hardware/pins.toml and the games' "
        "mats: do not edit. -->",
        "",
        "A mat holds one MFRC522 under each hat spot and one under the pad. Spots are "
        "numbered 1..N in reading order (left to right, then top to bottom, seen from the "
        "console side); reader n of pins.toml sits under spot n, reader 0 under the pad.",
        "",
        f"**Spacing: {pitch:g} mm centre to centre** (`kit.pitch_mm` in pins.toml; at least "
        "80). An RC522 board's antenna reads a tag up to about 30-50 mm away; at 80 mm a tag "
        "on one spot is well outside its neighbours' fields (and the firmware keeps only one "
        "antenna on per bus). Keep antennas in one plane, tags 5-15 mm above them (the mat "
        "top plus the cup's floor), and no metal within 20 mm. `companion doctor --walk` "
        "checks on the finished mat that no neighbour reads a spot's tag.",
        "",
        "## Templates to print",
        "",
        "`hardware/mats/mat-<layout>-<paper>.pdf`: each mat at full size, tiled over A4 or A3 "
        "pages with registration marks and a 100 mm scale bar. Print at 100 % (no fit to "
        "page), measure the scale bar, trim each tile along its frame's left and top edges "
        "and tape it on its neighbours with the circled crosses over each other. A red cross "
        "marks each antenna's centre; the blue box is the antenna loop and the grey box the "
        f"board around it (a typical {MODULE.width:g} x {MODULE.height:g} mm RC522 board, "
        "antenna at the far end, header toward the console: measure yours); the coloured "
        "lines are the cable runs to the breakout board (bus 0 blue, bus 1 orange).",
        "",
        "| layout | spots | played by | A4 tiles | A3 tiles |",
        "| --- | ---: | --- | ---: | ---: |",
    ]
    for mat in table.mats:
        a4, a3 = tiling(mat, "A4"), tiling(mat, "A3")
        lines.append(
            f"| {mat.name} | {mat.spots} | {'; '.join(mat.users)} | {a4.columns} x {a4.rows} "
            f"| {a3.columns} x {a3.rows} |"
        )
    if table.pad_only:
        lines.append(f"| pad only | 0 | {'; '.join(table.pad_only)} | - | - |")
    lines += ["", "## Layouts", ""]
    for mat in table.mats:
        width, height = mat.size
        px, _ = mat.centre(0)
        buses = sorted({table.readers[r].bus for r in range(mat.spots + 1)})
        lines += [
            f"### {mat.name} ({mat.spots} spots)",
            "",
            f"Played by {'; '.join(mat.users)}. Mat without the pad {width:g} x {height:g} mm; "
            f"the pad's centre {px - width:g} mm right of the mat's edge, level with the last "
            "row; the breakout board below the pad.",
            "",
            "```",
            *_grid(mat),
            "```",
            "",
            "| reader | spot | bus | chip select | cable |",
            "| ---: | --- | ---: | --- | ---: |",
        ]
        for r in range(mat.spots + 1):
            reader = table.readers[r]
            cable = mat.cable(r, table.kit.slack)
            lines.append(
                f"| {r} | {reader.name} | {reader.bus} | GP{reader.cs} | {cable / 10:g} cm |"
            )
        lines += ["", f"Buses used: {', '.join(f'SPI{b}' for b in buses)}.", ""]
    lines += [
        "This file fixes only the physical numbering; which spots count as contiguous and "
        "which form lines is the rules' business. A smaller mat fits readers 0..N only; the "
        "unfitted readers report `E <n> absent` once at start-up, and the companion's "
        "layout config says which spots exist.",
        "",
    ]
    return "\n".join(lines)
