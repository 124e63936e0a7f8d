"""VNP-1 pieces and VNP-2 board geometry, with every placement precomputed once.

A unit segment is written by its midpoint in doubled coordinates: the segment from
intersection (x, y) to (x + 1, y) is (2x + 1, 2y), the one from (x, y) to (x, y + 1) is
(2x, 2y + 1). Rotations and reflections of the plane act on these midpoints as on points,
and a translation by a whole unit is a shift by an even vector, so shapes are easy to
turn, flip and normalise. The 24 free polysticks of 1 to 4 segments are grown from one
segment (VNP-1), never typed by hand.

On a board of `size` x `size` intersections (x to the right, y downwards, 0-based),
intersection (x, y) has id `y * size + x`; horizontal segment (x, y)-(x + 1, y) has id
`y * (size - 1) + x` and vertical segment (x, y)-(x, y + 1) has id
`size * (size - 1) + y * size + x`. Bit i of a mask (a Python int) stands for id i.

As in Pentobi's Nexos, every placement (a piece in one orientation at one position) is
computed once per board size, with its masks: the segments it covers, the intersections
it touches, those it goes straight through (VNP-4: crossing) and those inside it (two or
more of its segments meet there: the stricter reading of VNP-4).
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

Mid = tuple[int, int]
"""A unit segment by its midpoint in doubled coordinates."""
Shape = frozenset[Mid]
Point = tuple[int, int]
"""An intersection (x, y) of the board."""
Segment = tuple[Point, Point]
"""A unit segment by its two intersections, the smaller first."""

MAX_SEGMENTS = 4  # VNP-1

_SYMMETRIES: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, 0, 1),
    (0, -1, 1, 0),
    (-1, 0, 0, -1),
    (0, 1, -1, 0),
    (-1, 0, 0, 1),
    (0, 1, 1, 0),
    (1, 0, 0, -1),
    (0, -1, -1, 0),
)
"""The 8 rotations and reflections of the square, as matrices (a, b, c, d):
(x, y) -> (a x + b y, c x + d y)."""


def ends(mid: Mid) -> tuple[Mid, Mid]:
    """The two intersections of a segment, in doubled coordinates (both even)."""
    a, b = mid
    return ((a - 1, b), (a + 1, b)) if a % 2 else ((a, b - 1), (a, b + 1))


def around(point: Mid) -> tuple[Mid, Mid, Mid, Mid]:
    """The four segments at an intersection (doubled): left, right, up, down."""
    a, b = point
    return ((a - 1, b), (a + 1, b), (a, b - 1), (a, b + 1))


def normalise(shape: Shape) -> Shape:
    """Shift by an even vector so the smallest coordinates are 0 or 1."""
    da = min(a for a, _ in shape) & ~1
    db = min(b for _, b in shape) & ~1
    return frozenset((a - da, b - db) for a, b in shape)


def _key(shape: Shape) -> tuple[Mid, ...]:
    return tuple(sorted(shape))


def orientations(shape: Shape) -> tuple[Shape, ...]:
    """Every distinct fixed shape got by turning and flipping (VNP-1), in a fixed order."""
    found = {
        normalise(frozenset((p * a + q * b, r * a + t * b) for a, b in shape))
        for p, q, r, t in _SYMMETRIES
    }
    return tuple(sorted(found, key=_key))


def canonical(shape: Shape) -> Shape:
    return orientations(shape)[0]


def free_polysticks(max_segments: int) -> tuple[tuple[Shape, ...], ...]:
    """The free polysticks of 1..max_segments segments, by size, grown one segment at a
    time from a single segment (a new segment shares an intersection with the shape)."""
    level = {canonical(frozenset({(1, 0)}))}
    sizes = [tuple(sorted(level, key=_key))]
    for _ in range(max_segments - 1):
        level = {
            canonical(shape | {new})
            for shape in level
            for mid in shape
            for end in ends(mid)
            for new in around(end)
            if new not in shape
        }
        sizes.append(tuple(sorted(level, key=_key)))
    return tuple(sizes)


@dataclass(frozen=True, slots=True)
class Piece:
    """One of a colour's 24 pieces (VNP-1)."""

    index: int
    name: str
    """Size then a letter: "1a", "2a", "2b", "3a".."3e", "4a".."4p"."""
    size: int
    """Its number of unit segments, which is also what it costs when unplaced (VNP-6)."""
    shape: tuple[Mid, ...]
    """The canonical fixed shape (doubled midpoints)."""
    orientations: tuple[tuple[Mid, ...], ...]


def _pieces() -> tuple[Piece, ...]:
    pieces: list[Piece] = []
    for n, shapes in enumerate(free_polysticks(MAX_SEGMENTS), start=1):
        for i, shape in enumerate(shapes):
            turned = tuple(_key(o) for o in orientations(shape))
            pieces.append(Piece(len(pieces), f"{n}{chr(97 + i)}", n, _key(shape), turned))
    return tuple(pieces)


PIECES: tuple[Piece, ...] = _pieces()
PIECE_NAMES: dict[str, int] = {p.name: p.index for p in PIECES}
TOTAL_SEGMENTS = sum(p.size for p in PIECES)
"""84 for the 24 pieces of VNP-1."""


@dataclass(frozen=True, slots=True)
class Placement:
    """A piece in one orientation at one position of the board."""

    id: int
    piece: int
    segments: tuple[int, ...]
    points: tuple[int, ...]
    segment_mask: int
    point_mask: int
    straight_mask: int
    """The intersections the piece goes straight through (VNP-4: no other piece may)."""
    inner_mask: int
    """The intersections where two or more of its segments meet (the stricter reading)."""


@dataclass(frozen=True, slots=True)
class Block:
    """One piece in one orientation at every position of a board: placements `first` to
    `first + columns * rows - 1`, the one moved x intersections right and y down from the
    board's corner being `first + y * columns + x`."""

    piece: int
    shape: tuple[Mid, ...]
    """The orientation (doubled midpoints) at the board's corner."""
    first: int
    columns: int
    rows: int
    corner: Placement
    """The placement at the board's corner (id `first`)."""
    points: tuple[Point, ...]
    """The intersections the shape touches at the board's corner."""
    across: tuple[Point, ...]
    """Its horizontal segments at the corner, each by its left end."""
    down: tuple[Point, ...]
    """Its vertical segments at the corner, each by its top end."""
    straight: tuple[Point, ...]
    """The intersections it goes straight through at the corner (VNP-4)."""
    inner: tuple[Point, ...]
    """The intersections inside it at the corner (the stricter reading of VNP-4)."""

    def moved(self, pid: int, size: int) -> Placement:
        """Its placement `pid`: the corner's, moved (a move by (x, y) intersections adds
        y * size + x to a point's id and to a vertical segment's, y * (size - 1) + x to a
        horizontal one's, and shifts the masks of points as much)."""
        y, x = divmod(pid - self.first, self.columns)
        corner, horizontal = self.corner, size * (size - 1)
        moved, along = y * size + x, y * (size - 1) + x
        across = sum(1 << s for s in corner.segments if s < horizontal)
        return Placement(
            id=pid,
            piece=self.piece,
            segments=tuple(s + (along if s < horizontal else moved) for s in corner.segments),
            points=tuple(pt + moved for pt in corner.points),
            segment_mask=across << along | (corner.segment_mask ^ across) << moved,
            point_mask=corner.point_mask << moved,
            straight_mask=corner.straight_mask << moved,
            inner_mask=corner.inner_mask << moved,
        )

    def covering(self, at: str, point: Point) -> list[int]:
        """The ids of its placements having `point` among their `at` ("points", "across",
        "down", "straight" or "inner")."""
        x, y = point
        ids = []
        for px, py in getattr(self, at):
            dx, dy = x - px, y - py
            if 0 <= dx < self.columns and 0 <= dy < self.rows:
                ids.append(self.first + dy * self.columns + dx)
        return ids


def blocks(size: int) -> tuple[Block, ...]:
    """The placements of a size x size board, a block per piece and orientation, their
    ids running by piece (so by size), then orientation, then row, then column."""
    found: list[Block] = []
    first = 0
    span = 2 * (size - 1)
    for piece in PIECES:
        for shape in piece.orientations:
            columns = (span - max(a for a, _ in shape)) // 2 + 1
            rows = (span - max(b for _, b in shape)) // 2 + 1
            corner = _placement(first, piece.index, list(shape), size)
            found.append(Block(
                piece=piece.index, shape=shape, first=first, columns=columns, rows=rows,
                corner=corner,
                points=tuple(sorted({(a // 2, b // 2) for m in shape for a, b in ends(m)})),
                across=tuple((a // 2, b // 2) for a, b in shape if a % 2),
                down=tuple((a // 2, b // 2) for a, b in shape if not a % 2),
                straight=_points_of(corner.straight_mask, size),
                inner=_points_of(corner.inner_mask, size),
            ))  # fmt: skip
            first += columns * rows
    return tuple(found)


def _points_of(mask: int, size: int) -> tuple[Point, ...]:
    return tuple((i % size, i // size) for i in range(size * size) if mask >> i & 1)


_PLACED = (
    "placements", "by_segments", "segment_masks", "point_masks", "straight_masks",
    "inner_masks",
)  # fmt: skip
"""Geometry's attributes listing every placement, built together on first read."""


class Geometry:
    """Everything fixed for a board size, shared by every game. What a new board needs
    (its blocks, their count, each placement's piece) is worked out at once; the
    placements and their masks (`_PLACED`) when one of them is first read (`geometry`
    makes it so), so a table shows a new game before they are built (issue 41: start to
    ready on a Pi)."""

    __slots__ = ("size", "blocks", "count", "piece_of", *_PLACED)

    size: int
    blocks: tuple[Block, ...]
    count: int
    """How many placements the board has."""
    piece_of: tuple[int, ...]
    """Per placement: its piece (an index in PIECES)."""
    placements: tuple[Placement, ...]
    by_segments: dict[frozenset[int], int]
    """The placement id covering exactly these segment ids."""
    # Parallel tuples of the placement masks, for fast move generation.
    segment_masks: tuple[int, ...]
    point_masks: tuple[int, ...]
    straight_masks: tuple[int, ...]
    inner_masks: tuple[int, ...]

    def __init__(self, size: int) -> None:
        self.size = size
        self.blocks = blocks(size)
        self.count = sum(b.columns * b.rows for b in self.blocks)
        self.piece_of = tuple(b.piece for b in self.blocks for _ in range(b.columns * b.rows))

    def _place(self) -> None:
        """Every placement and its masks (`_PLACED`)."""
        size = self.size
        placements = [
            block.moved(pid, size)
            for block in self.blocks
            for pid in range(block.first, block.first + block.columns * block.rows)
        ]
        self.placements = tuple(placements)
        self.by_segments = {frozenset(p.segments): p.id for p in placements}
        self.segment_masks = tuple(p.segment_mask for p in placements)
        self.point_masks = tuple(p.point_mask for p in placements)
        self.straight_masks = tuple(p.straight_mask for p in placements)
        self.inner_masks = tuple(p.inner_mask for p in placements)
        self.__class__ = Geometry  # built: no lookup hook left on the hot paths

    def build(self) -> None:
        """The placements and their masks, now if not built yet."""
        _ = self.placements

    def placement(self, pid: int) -> Placement:
        """Placement `pid` (0 <= pid < count)."""
        return self.placements[pid]

    def covering(self, at: str, point: Point) -> list[int]:
        """The ids of the placements having `point` among their `at` (see
        `Block.covering`), worked out from the blocks (no placement built)."""
        return [pid for block in self.blocks for pid in block.covering(at, point)]

    @property
    def segment_count(self) -> int:
        return 2 * self.size * (self.size - 1)

    def point_id(self, point: Point) -> int:
        return point[1] * self.size + point[0]

    def point(self, point_id: int) -> Point:
        return point_id % self.size, point_id // self.size

    def segment_id(self, segment: Segment) -> int:
        """The id of the unit segment between two neighbouring intersections."""
        (x1, y1), (x2, y2) = sorted(segment)
        n = self.size
        if y1 == y2 and x2 == x1 + 1 and 0 <= x1 < n - 1 and 0 <= y1 < n:
            return y1 * (n - 1) + x1
        if x1 == x2 and y2 == y1 + 1 and 0 <= x1 < n and 0 <= y1 < n - 1:
            return n * (n - 1) + y1 * n + x1
        raise ValueError(f"not a unit segment of the board: {segment!r}")

    def segment(self, segment_id: int) -> Segment:
        n = self.size
        horizontal = n * (n - 1)
        if segment_id < horizontal:
            y, x = divmod(segment_id, n - 1)
            return (x, y), (x + 1, y)
        y, x = divmod(segment_id - horizontal, n)
        return (x, y), (x, y + 1)


def _segment_id(mid: Mid, size: int) -> int:
    a, b = mid
    if a % 2:
        return (b // 2) * (size - 1) + a // 2
    return size * (size - 1) + (b // 2) * size + a // 2


@cache
def geometry(size: int) -> Geometry:
    """The placements of every piece on a size x size board (cached per size; built on
    first use, see `Geometry`)."""
    return _GeometryToPlace(size)


class BuiltOnRead:
    """The unbuilt state of an object some of whose attributes (`LAZY`) are built on their
    first read, all at once (`build_lazy`, which then turns the object into its plain
    class: a class with `__getattr__` is slower at every read, hot loops included).

    One thread builds; another reading meanwhile waits for it (the referee's loop and
    the page's thread may both read a board's tables first)."""

    __slots__ = ()
    LAZY: tuple[str, ...] = ()
    _building = threading.RLock()  # re-entered: building tables reads the geometry

    def build_lazy(self) -> None:
        raise NotImplementedError

    if not TYPE_CHECKING:  # mypy still sees every attribute's own type

        def __getattr__(self, name: str) -> object:
            """An attribute of `LAZY` not built yet: build them all, then read it."""
            if name not in self.LAZY:
                raise AttributeError(name)
            with BuiltOnRead._building:
                if isinstance(self, BuiltOnRead):  # not built by another thread meanwhile
                    self.build_lazy()
            return object.__getattribute__(self, name)


class _GeometryToPlace(BuiltOnRead, Geometry):
    """A `Geometry` whose placements are not built yet."""

    __slots__ = ()
    LAZY = _PLACED
    build_lazy = Geometry._place

    def placement(self, pid: int) -> Placement:
        """Placement `pid`, moved from its block's corner (the others not built)."""
        firsts = [b.first for b in self.blocks]
        return self.blocks[bisect_right(firsts, pid) - 1].moved(pid, self.size)


def _placement(pid: int, piece: int, mids: list[Mid], size: int) -> Placement:
    shape = set(mids)
    segments = sorted(_segment_id(m, size) for m in mids)
    points = sorted({e for m in mids for e in ends(m)})
    straight = inner = 0
    for a, b in points:
        left, right, up, down = (m in shape for m in around((a, b)))
        bit = 1 << ((b // 2) * size + a // 2)
        if left + right + up + down >= 2:
            inner |= bit
        if (left and right) or (up and down):
            straight |= bit
    point_ids = tuple((b // 2) * size + a // 2 for a, b in points)
    return Placement(
        id=pid,
        piece=piece,
        segments=tuple(segments),
        points=point_ids,
        segment_mask=sum(1 << s for s in segments),
        point_mask=sum(1 << p for p in point_ids),
        straight_mask=straight,
        inner_mask=inner,
    )
