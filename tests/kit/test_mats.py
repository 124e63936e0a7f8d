"""The 1:1 mat templates, read back from the PDFs: printed at 100 % and assembled by their
registration marks, every antenna centre lands within 1 mm of the layout.

The PDF's content streams are run here (lines, their stroke colour, shown texts and the
clip), with no help from the code that drew them: a red cross of two 12 mm lines is an
antenna centre, a black cross of two 10 mm lines a registration mark, and the tiles are
put together by translating each onto a neighbour so that their shared marks coincide,
as a builder does with tape.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from pypdf import PdfReader

from companion.kit import build, mats
from companion.kit.table import Mat, Table

K = 72 / 25.4  # points per mm
PAPERS = {"A4": (210.0, 297.0), "A3": (297.0, 420.0)}
Point = tuple[float, float]
Box = tuple[float, float, float, float]


@dataclass
class PdfPage:
    size: tuple[float, float]
    """Width and height, mm."""
    lines: list[tuple[tuple[float, ...], Point, Point]] = field(default_factory=list)
    """(stroke colour, start, end) in mm from the page's top-left corner."""
    texts: list[tuple[Point, str]] = field(default_factory=list)
    clip: tuple[float, float, float, float] | None = None
    """(left, top, right, bottom) mm."""


TOKEN = re.compile(
    rb"\((?:\\.|[^\\()])*\)|\[[^\]]*\]|/[^\s/\[\]()<>]+|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z*']+"
)


def read_pages(path: Path) -> list[PdfPage]:
    out = []
    for page in PdfReader(path).pages:
        box = [float(v) for v in page.mediabox]
        width, height = (box[2] - box[0]) / K, (box[3] - box[1]) / K
        p = PdfPage((width, height))
        stack: list[bytes] = []
        colour: tuple[float, ...] = (0.0,)
        saved: list[tuple[float, ...]] = []
        start: Point | None = None
        segment: tuple[Point, Point] | None = None
        rect: tuple[float, ...] | None = None
        at: Point = (0.0, 0.0)

        def mm(x: float, y: float, height: float = height) -> Point:
            return x / K, height - y / K

        for token in TOKEN.findall(page.get_contents().get_data()):  # type: ignore[union-attr]
            if not token[:1].isalpha() and token[:1] not in b"*'":
                stack.append(token)
                continue
            nums = [float(t) for t in stack if re.fullmatch(rb"[-+.\d]+", t)]
            if token == b"q":
                saved.append(colour)
            elif token == b"Q":
                colour = saved.pop()
            elif token == b"RG":
                colour = tuple(nums[-3:])
            elif token == b"G":
                colour = (nums[-1],) * 3
            elif token == b"m":
                start = mm(*nums[-2:])
            elif token == b"l" and start is not None:
                segment = (start, mm(*nums[-2:]))
            elif token == b"S" and segment is not None:
                p.lines.append((colour, *segment))
                segment = None
            elif token == b"re":
                rect = tuple(nums[-4:])
            elif token == b"W" and rect is not None:
                x, y, w, h = rect
                (x0, y0), (x1, y1) = mm(x, max(y, y + h)), mm(x + w, min(y, y + h))
                p.clip = (x0, y0, x1, y1)
            elif token == b"Td":
                at = mm(*nums[-2:])
            elif token == b"Tj":
                text = stack[-1][1:-1].decode("latin-1")
                p.texts.append((at, re.sub(r"\\(.)", r"\1", text)))
            stack = []
        out.append(p)
    return out


def crosses(page: PdfPage, colour: tuple[float, ...], half: float) -> list[Point]:
    """Centres of the crosses of two lines ``2 * half`` mm long in ``colour``, whole inside
    the page's clip (a cross cut by a tile's edge is found on the neighbouring tile)."""

    def inside(pt: Point) -> bool:
        if page.clip is None:
            return True
        x0, y0, x1, y1 = page.clip
        return x0 <= pt[0] <= x1 and y0 <= pt[1] <= y1

    found = []
    level = [
        (a, b)
        for c, a, b in page.lines
        if all(abs(x - y) < 0.01 for x, y in zip(c, colour, strict=True))
    ]
    across = [
        (a, b)
        for a, b in level
        if abs(a[1] - b[1]) < 0.01 and abs(math.dist(a, b) - 2 * half) < 0.05
    ]
    down = [
        (a, b)
        for a, b in level
        if abs(a[0] - b[0]) < 0.01 and abs(math.dist(a, b) - 2 * half) < 0.05
    ]
    for a, b in across:
        mid = ((a[0] + b[0]) / 2, a[1])
        for c, d in down:
            crossing = abs(c[0] - mid[0]) < 0.02 and abs((c[1] + d[1]) / 2 - mid[1]) < 0.02
            if crossing and all(inside(pt) for pt in (a, b, c, d)):
                found.append(mid)
    return found


RED = tuple(round(c / 255, 4) for c in mats.RED)


def _overlap(a: Box | None, at: Point, b: Box | None, bt: Point) -> bool:
    """Whether frames ``a`` and ``b``, moved by their offsets, overlap in a strip only (as
    neighbouring tiles do: side by side, not one over the other)."""
    assert a is not None and b is not None
    width = min(a[2] + at[0], b[2] + bt[0]) - max(a[0] + at[0], b[0] + bt[0])
    height = min(a[3] + at[1], b[3] + bt[1]) - max(a[1] + at[1], b[1] + bt[1])
    return width > 0 and height > 0 and min(width, height) <= 30


def _place(page: PdfPage) -> tuple[int, int]:
    """(row, column) of a tile, as its printed name says."""
    for _, text in page.texts:
        m = re.search(r"tile row (\d+) of \d+, column (\d+) of \d+", text)
        if m:
            return int(m.group(1)), int(m.group(2))
    raise AssertionError("a tile without its name")


def assemble(pages: list[PdfPage]) -> list[Point]:
    """Each page's offset that lays it on the tile to its left (or above) as a builder
    does: side by side, a strip in common, the most registration marks over each other."""
    marks = [crosses(p, (0.0, 0.0, 0.0), mats.MARK_SIZE) for p in pages]
    where = {_place(p): i for i, p in enumerate(pages)}
    offsets: dict[int, Point] = {}
    for (row, column), i in sorted(where.items()):
        j = where.get((row, column - 1), where.get((row - 1, column)))
        if j is None:
            offsets[i] = (0.0, 0.0)
            continue
        ox, oy = offsets[j]
        best: tuple[int, Point] | None = None
        for a in marks[j]:
            for b in marks[i]:
                dx, dy = a[0] + ox - b[0], a[1] + oy - b[1]
                shared = sum(
                    any(math.dist((x + dx, y + dy), (p + ox, q + oy)) < 0.1 for p, q in marks[j])
                    for x, y in marks[i]
                )
                strip = _overlap(pages[j].clip, (ox, oy), pages[i].clip, (dx, dy))
                if shared >= 3 and strip and (best is None or shared > best[0]):
                    best = (shared, (dx, dy))
        assert best is not None, f"tile {row}, {column} shares no three marks with its neighbour"
        offsets[i] = best[1]
    return [offsets[i] for i in range(len(pages))]


def centre_errors(path: Path, table: Table, mat: Mat, paper: str) -> list[str]:
    """How far each antenna centre of the assembled template lies from the layout."""
    pages = read_pages(path)
    problems = []
    for i, page in enumerate(pages, start=1):
        if max(abs(a - b) for a, b in zip(sorted(page.size), PAPERS[paper], strict=True)) > 0.1:
            problems.append(f"page {i}: {page.size[0]:.1f} x {page.size[1]:.1f} mm, not {paper}")
        bars = [
            (a, b)
            for c, a, b in page.lines
            if abs(a[1] - b[1]) < 0.01 and abs(math.dist(a, b) - 100) < 0.05
        ]
        if not bars:
            problems.append(f"page {i}: no 100 mm scale bar")
        if not any("Print at 100 %" in t for _, t in page.texts):
            problems.append(f"page {i}: does not say to print at 100 %")
    offsets = assemble(pages)
    seen: dict[int, list[Point]] = {}
    for page, (ox, oy) in zip(pages, offsets, strict=True):
        labels = [
            (pt, int(m.group(1)))
            for pt, t in page.texts
            if (m := re.match(r"reader (\d+), bus", t))
        ]
        for cx, cy in crosses(page, RED, mats.CROSS):
            near = [(abs(pt[1] - cy - 18.5) + abs(pt[0] - cx + 15), r) for pt, r in labels]
            near = [n for n in near if n[0] < 12]
            assert near, f"no reader label under the antenna centre at {cx:.1f}, {cy:.1f}"
            seen.setdefault(min(near)[1], []).append((cx + ox, cy + oy))
    if sorted(seen) != list(range(mat.spots + 1)):
        problems.append(f"antenna centres found for readers {sorted(seen)}")
        return problems
    for r, points in seen.items():  # a centre on two tiles: the same place once taped
        for p in points[1:]:
            if math.dist(p, points[0]) > 1.0:
                problems.append(
                    f"reader {r}: its two tiles disagree by {math.dist(p, points[0]):.2f} mm"
                )
    measured = {r: points[0] for r, points in seen.items()}
    dx = sum(measured[r][0] - mat.centre(r)[0] for r in measured) / len(measured)
    dy = sum(measured[r][1] - mat.centre(r)[1] for r in measured) / len(measured)
    for r, (x, y) in sorted(measured.items()):
        lx, ly = mat.centre(r)
        error = math.dist((x - dx, y - dy), (lx, ly))
        if error > 1.0:
            problems.append(f"reader {r}: {error:.2f} mm from the layout")
    return problems


@pytest.mark.parametrize("paper", ["A4", "A3"])
def test_every_committed_template_puts_each_antenna_centre_within_1_mm(
    table: Table, paper: str
) -> None:
    for mat in table.mats:
        path = build.ROOT / "hardware" / "mats" / f"mat-{mat.name}-{paper}.pdf"
        assert centre_errors(path, table, mat, paper) == [], path.name


def test_a_centre_drawn_2_mm_off_is_caught(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mat = next(m for m in table.mats if m.name == "3x3")
    real = Mat.centre

    def off(self: Mat, reader: int) -> tuple[float, float]:
        x, y = real(self, reader)
        return (x + 2.0, y) if reader == 5 else (x, y)

    monkeypatch.setattr(Mat, "centre", off)
    drawn = mats.write(dataclasses.replace(table, mats=(mat,)), tmp_path)
    monkeypatch.setattr(Mat, "centre", real)
    problems = centre_errors(tmp_path / "mat-3x3-A4.pdf", table, mat, "A4")
    assert len(drawn) == 2 and problems and all("reader" in p for p in problems)
    assert any(p.startswith("reader 5:") for p in problems)


def test_tiles_overlap_and_cover_the_whole_mat(table: Table) -> None:
    for mat in table.mats:
        for paper in mats.PAPERS:
            t = mats.tiling(mat, paper)
            left, top, right, bottom = mat.extent
            gx, gy = t.corner(t.rows - 1, t.columns - 1)
            fw, fh = t.frame
            assert t.origin[0] < left and t.origin[1] < top
            assert gx + fw > right and gy + fh > bottom
            assert len(list(mats.tiles(table, mat, paper))) == t.rows * t.columns
