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
more of its segments meet there: the stricter reading of VNP-4). Placements are indexed by
(intersection touched, piece), so moves come from a colour's attach points x pieces left.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

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
class Geometry:
    """Everything fixed for a board size: computed once, shared by every game."""

    size: int
    placements: tuple[Placement, ...]
    by_point_piece: tuple[tuple[tuple[int, ...], ...], ...]
    """by_point_piece[point][piece]: the ids of that piece's placements touching point."""
    point_segments: tuple[int, ...]
    """point_segments[point]: the mask of the segments at that intersection."""
    by_segments: dict[frozenset[int], int]
    """The placement id covering exactly these segment ids."""
    # Parallel tuples of the placement masks, for fast move generation.
    segment_masks: tuple[int, ...]
    point_masks: tuple[int, ...]
    straight_masks: tuple[int, ...]
    inner_masks: tuple[int, ...]
    piece_of: tuple[int, ...]

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
    """Every placement of every piece on a size x size board (cached per size)."""
    placements: list[Placement] = []
    limit = 2 * (size - 1)
    horizontal = size * (size - 1)  # the first vertical segment's id
    for piece in PIECES:
        for shape in piece.orientations:
            width = max(a for a, _ in shape)
            height = max(b for _, b in shape)
            # The shape at the board's corner, then moved: a move by (x, y) intersections
            # adds y * size + x to a point's id and to a vertical segment's, y * (size -
            # 1) + x to a horizontal one's, and shifts the masks of points as much.
            first = _placement(0, piece.index, list(shape), size)
            across = sum(1 << s for s in first.segments if s < horizontal)
            down = first.segment_mask ^ across
            for y in range(0, (limit - height) // 2 + 1):
                for x in range(0, (limit - width) // 2 + 1):
                    moved, along = y * size + x, y * (size - 1) + x
                    placements.append(Placement(
                        id=len(placements),
                        piece=piece.index,
                        segments=tuple(s + (along if s < horizontal else moved)
                                       for s in first.segments),
                        points=tuple(pt + moved for pt in first.points),
                        segment_mask=across << along | down << moved,
                        point_mask=first.point_mask << moved,
                        straight_mask=first.straight_mask << moved,
                        inner_mask=first.inner_mask << moved,
                    ))  # fmt: skip
    index: list[list[list[int]]] = [[[] for _ in PIECES] for _ in range(size * size)]
    for p in placements:
        for point in p.points:
            index[point][p.piece].append(p.id)
    point_segments = []
    for point in range(size * size):
        x, y = point % size, point // size
        mask = 0
        for mid in around((2 * x, 2 * y)):
            a, b = mid
            if 0 <= a <= limit and 0 <= b <= limit:
                mask |= 1 << _segment_id(mid, size)
        point_segments.append(mask)
    return Geometry(
        size=size,
        placements=tuple(placements),
        by_point_piece=tuple(tuple(tuple(ids) for ids in row) for row in index),
        point_segments=tuple(point_segments),
        by_segments={frozenset(p.segments): p.id for p in placements},
        segment_masks=tuple(p.segment_mask for p in placements),
        point_masks=tuple(p.point_mask for p in placements),
        straight_masks=tuple(p.straight_mask for p in placements),
        inner_masks=tuple(p.inner_mask for p in placements),
        piece_of=tuple(p.piece for p in placements),
    )


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
