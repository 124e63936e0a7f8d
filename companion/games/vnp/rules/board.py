"""The board as a game of Vous ne passerez pas ! stands: the engine's core, mutable.

One `Board` is played in place (`place`, `pass_turn`) and copied with `fork`; the table
sees it only through the frozen `State` (state.py), which the engine's `apply` builds from
a fork, and the lab and the bots play on it directly, as python-chess plays on one board.

A colour's legal placements (VNP-3, VNP-4) are bitsets over the placement ids of
`geometry(size)` (bit i stands for placement i), kept up to date once per placement:

- `candidates[c]`: the placements touching an intersection colour c reached (before its
  first piece, its start intersection: VNP-3, VNP-4);
- `unused[c]`: the placements of the pieces c has not placed yet (VNP-1);
- `free`: the placements no piece on the board forbids (VNP-4). Each placement forbids a
  fixed set of others, its conflict mask: those sharing one of its unit segments, and those
  going straight through an intersection it goes straight through (the Nexos rule), or,
  under the strict reading, those meeting it at an intersection inside either piece. The
  mask is the OR of a few per-segment and per-intersection bitsets (`Tables`), and is
  removed from `free` once, when the placement is made.

So a colour's legal placements are `candidates & unused & free`: two big-int ANDs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import TypeVar

from companion.games.vnp.rules.config import ALL_PLACED_BONUS, COLOURS, Config, Crossing
from companion.games.vnp.rules.pieces import PIECES, TOTAL_SEGMENTS, BuiltOnRead, Point, geometry
from companion.rules.errors import IllegalAction

_T = TypeVar("_T")

PASS = -1
"""A pass (VNP-5) where a placement id is expected: what a bot returns to pass."""

ONE_BY_ONE = len(PIECES) * len(COLOURS)
"""How many placements' conflicts are worked out one by one, from the geometry's blocks,
before the conflict tables are built instead: a whole game's at most (a resumed game's
replay never builds them; a lab or a bot playing many games soon does)."""

CACHE_LIMIT = 25_000
"""Conflict masks are kept once computed while a board has at most this many placements
(15,157 on 13 x 13: 29 MB at most); bigger boards compute them at each placement instead
(40 x 40 has 173,485 placements: keeping them all would take gigabytes)."""


def bits_of(ids: Sequence[int], count: int) -> int:
    """The bitset of `ids` (each below `count`), built without a big-int op per id."""
    buf = bytearray((count + 7) // 8)
    for i in ids:
        buf[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(buf, "little")


def ids_of(bits: int) -> tuple[int, ...]:
    """The ids of a bitset, smallest first (its binary digits read lowest first)."""
    return tuple(found.start() for found in re.finditer("1", bin(bits)[:1:-1]))


_LOW = tuple((1 << (1 << e)) - 1 for e in range(18))
"""_LOW[e]: the 2**e lowest bits set (a 40 x 40 board's 173,485 placements < 2**18)."""


_FEW = 3
"""Set bits few enough, below or above the k-th, to drop one by one instead of halving."""


def nth_bit(bits: int, k: int, count: int | None = None) -> int:
    """The index of the k-th set bit (from 0, lowest first) of `bits`: the k-th smallest
    id of a bitset (`count`: its set bits, if known), found by halving at powers of two
    (a few big-int ops, none per set bit): each step counts the upper part, never more
    than half, and the lower part's count follows from the whole's. Set bits below or
    above the k-th, when only a few (`_FEW`), are dropped one by one instead."""
    if count is None:
        count = bits.bit_count()
    base = 0
    e = (bits.bit_length() - 1).bit_length()  # bits < 2 ** (2 ** e)
    while e > 6 and k >= _FEW:
        if count - k <= _FEW:  # the k-th is among the last few: drop those above it
            for _ in range(count - 1 - k):
                bits ^= 1 << (bits.bit_length() - 1)
            return base + bits.bit_length() - 1
        e -= 1
        half = 1 << e
        upper = bits >> half
        above = upper.bit_count()
        below = count - above
        if k < below:
            bits &= _LOW[e]
            count = below
        else:
            k -= below
            bits, count = upper, above
            base += half
    for _ in range(k):  # fewer than _FEW set bits below the k-th, or at most 63
        bits &= bits - 1
    return base + (bits & -bits).bit_length() - 1


class Ids(Sequence[int]):
    """The ids of a bitset as a sorted sequence, read one at a time: what `rng.choice`
    needs (its length, then one item) without listing every id. `first`: no id is below
    it (the ids of one size, `Tables.first_of_size`), so the bits below are not read."""

    __slots__ = ("bits", "first", "length")

    def __init__(self, bits: int, first: int = 0) -> None:
        self.bits = bits >> first
        self.first = first
        self.length = self.bits.bit_count()

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, k: int) -> int:  # type: ignore[override]
        if not 0 <= k < self.length:
            raise IndexError(k)
        return self.first + nth_bit(self.bits, k, self.length)


# ---------------------------------------------------------------- the board's tables


_CONFLICTS = ("touching", "points", "forbids", "users")
"""Tables' attributes listing every placement, built together on first read."""


class Tables:
    """Everything fixed for a board size and crossing rule, as bitsets over placement ids,
    shared by every game on such a board (`tables`). What a board needs first (the
    placements, those of each piece and size) is worked out at once from the geometry's
    blocks; the conflict tables (`_CONFLICTS`) by `build`, which the referee calls once the
    table is ready, or past a whole game's placements worked out one by one from the
    blocks (`_TablesToBuild`), so a table shows a new or resumed game before they are
    built (issue 41: start to ready on a Pi)."""

    __slots__ = (
        "size", "crossing", "count", "full", "piece_of", "keep_piece", "by_size", "first_of_size",
        "keeps",
        "covered", "one_by_one", *_CONFLICTS,
    )  # fmt: skip

    size: int
    crossing: Crossing
    count: int
    """How many placements the board has."""
    full: int
    """Every placement."""
    piece_of: tuple[int, ...]
    """Per placement: its piece (an index in PIECES)."""
    keep_piece: tuple[int, ...]
    """Per piece: every placement but that piece's (a colour places each piece once, VNP-1)."""
    by_size: tuple[int, ...]
    """The placements of the pieces of 4, 3, 2 and 1 segments, largest first."""
    first_of_size: tuple[int, ...]
    """The first id of each of `by_size` (a size's placements are consecutive ids)."""
    keeps: list[int]
    """Per placement once computed (0 before): every placement it does not forbid."""
    one_by_one: int
    """How many placements' conflicts were worked out one by one (`ONE_BY_ONE`)."""
    covered: dict[tuple[str, Point], int]
    """The placements covering an intersection one way (`Geometry.covering`), as asked
    for (`covering`) before the conflict tables are built."""
    touching: Sequence[int]
    """Per intersection: the placements touching it (where a colour may attach, VNP-4)."""
    points: Sequence[tuple[int, ...]]
    """Per placement: the intersections it touches."""
    forbids: tuple[tuple[int, ...], ...]
    """Per placement: the indexes in `users` whose OR is its conflict mask."""
    users: tuple[int, ...]
    """Bitsets of the placements using a segment, or meeting an intersection in a way the
    crossing rule forbids to share (see `_conflicts`)."""

    def __init__(self, size: int, crossing: Crossing) -> None:
        g = geometry(size)
        self.size, self.crossing, self.count = size, crossing, g.count
        self.full = (1 << g.count) - 1
        self.piece_of = g.piece_of
        # A piece's placements, and a size's, are consecutive ids (`blocks`).
        span: dict[int, tuple[int, int]] = {}
        for b in g.blocks:
            first, last = span.get(b.piece, (b.first, b.first))
            span[b.piece] = first, b.first + b.columns * b.rows
        run = [(1 << last) - (1 << first) for first, last in (span[p.index] for p in PIECES)]
        self.keep_piece = tuple(self.full ^ bits for bits in run)
        sizes = range(4, 0, -1)
        self.by_size = tuple(sum(run[p.index] for p in PIECES if p.size == n) for n in sizes)
        self.first_of_size = tuple(
            min(span[p.index][0] for p in PIECES if p.size == n) for n in sizes
        )
        self.keeps = [0] * self.count if self.count <= CACHE_LIMIT else []
        self.covered = {}
        self.one_by_one = 0

    def build(self) -> None:
        """The conflict tables and the geometry's placements, now if not built yet."""
        geometry(self.size).build()
        _ = self.users

    def covering(self, at: str, point: Point) -> int:
        """The placements having intersection `point` among their `at` (see
        `Block.covering`), worked out from the blocks without the conflict tables."""
        bits = self.covered.get((at, point))
        if bits is None:
            ids = geometry(self.size).covering(at, point)
            bits = self.covered[at, point] = bits_of(ids, self.count)
        return bits

    def touching_at(self, point: int) -> int:
        """The placements touching an intersection (a new board's start, VNP-3), without
        building the conflict tables."""
        return self.covering("points", (point % self.size, point // self.size))

    def keep(self, pid: int) -> int:
        """Every placement that stays possible once `pid` is on the board (VNP-4)."""
        kept = self.keeps[pid] if self.keeps else 0
        if not kept:
            kept = self.full ^ self.conflict(pid)
            if self.keeps:
                self.keeps[pid] = kept
        return kept

    def conflict(self, pid: int) -> int:
        """The placements `pid` forbids (VNP-4), from the conflict tables."""
        users = self.users
        conflict = 0
        for i in self.forbids[pid]:
            conflict |= users[i]
        return conflict

    def _conflicts(self) -> None:
        """The conflict tables (`_CONFLICTS`), from every placement."""
        g = geometry(self.size)
        count = self.count
        npoints = self.size * self.size
        nsegments = g.segment_count
        by_segment: list[list[int]] = [[] for _ in range(nsegments)]
        by_point: list[list[int]] = [[] for _ in range(npoints)]
        by_straight: list[list[int]] = [[] for _ in range(npoints)]
        by_inner: list[list[int]] = [[] for _ in range(npoints)]
        straight_of: list[tuple[int, ...]] = []
        inner_of: list[tuple[int, ...]] = []
        for p in g.placements:
            for s in p.segments:
                by_segment[s].append(p.id)
            straight = tuple(pt for pt in p.points if p.straight_mask >> pt & 1)
            inner = tuple(pt for pt in p.points if p.inner_mask >> pt & 1)
            for pt in p.points:
                by_point[pt].append(p.id)
            for pt in straight:
                by_straight[pt].append(p.id)
            for pt in inner:
                by_inner[pt].append(p.id)
            straight_of.append(straight)
            inner_of.append(inner)
        touching = tuple(bits_of(ids, count) for ids in by_point)
        segment_users = [bits_of(ids, count) for ids in by_segment]
        if self.crossing is Crossing.STRICT:
            # Strict VNP-4: no piece touches an intersection inside another, and no piece
            # has an intersection inside it that another touches.
            inner_users = [bits_of(ids, count) for ids in by_inner]
            self.users = (*segment_users, *touching, *inner_users)
            self.forbids = tuple(
                (
                    *p.segments,
                    *(nsegments + pt for pt in inner_of[p.id]),
                    *(nsegments + npoints + pt for pt in p.points),
                )
                for p in g.placements
            )
        else:
            # Nexos VNP-4: no two pieces go straight through one intersection.
            straight_users = [bits_of(ids, count) for ids in by_straight]
            self.users = (*segment_users, *straight_users)
            self.forbids = tuple(
                (*p.segments, *(nsegments + pt for pt in straight_of[p.id])) for p in g.placements
            )
        self.touching = touching
        self.points = tuple(p.points for p in g.placements)
        self.__class__ = Tables  # built: no lookup hook left on the hot paths


@cache
def tables(size: int, crossing: Crossing) -> Tables:
    """The bitsets of a board size and crossing rule (cached: one per process, built on
    first use, see `Tables`)."""
    return _TablesToBuild(size, crossing)


class _TablesToBuild(BuiltOnRead, Tables):
    """A `Tables` whose conflict tables are not built yet: what a placement forbids, the
    intersections it touches and the placements touching them are worked out for it alone
    from the geometry's blocks (a resumed game's few placements) until `build`."""

    __slots__ = ()
    LAZY = _CONFLICTS
    build_lazy = Tables._conflicts

    def __init__(self, size: int, crossing: Crossing) -> None:
        super().__init__(size, crossing)
        g = geometry(size)
        self.points = _Each(lambda pid: g.placement(pid).points)
        self.touching = _Each(self.touching_at)

    def conflict(self, pid: int) -> int:
        """The placements `pid` forbids (VNP-4), worked out for it alone; past
        `ONE_BY_ONE` placements, from the conflict tables, built now."""
        self.one_by_one += 1
        if self.one_by_one > ONE_BY_ONE:
            self.build()
            return Tables.conflict(self, pid)
        return self.conflict_from_blocks(pid)

    def conflict_from_blocks(self, pid: int) -> int:
        """The placements `pid` forbids (VNP-4): those sharing one of its segments, and
        those meeting it where the crossing rule forbids (as `_conflicts` lists them),
        from the geometry's blocks."""
        g = geometry(self.size)
        p = g.placement(pid)
        point = g.point
        bits = 0
        for s in p.segments:
            left_or_top = g.segment(s)[0]
            bits |= self.covering("across" if s < g.segment_count // 2 else "down", left_or_top)
        if self.crossing is Crossing.STRICT:
            for pt in p.points:
                if p.inner_mask >> pt & 1:
                    bits |= self.covering("points", point(pt))
                bits |= self.covering("inner", point(pt))
        else:
            for pt in p.points:
                if p.straight_mask >> pt & 1:
                    bits |= self.covering("straight", point(pt))
        return bits


class _Each(Sequence[_T]):
    """A sequence whose items are worked out when read (its length is not known)."""

    __slots__ = ("item",)

    def __init__(self, item: Callable[[int], _T]) -> None:
        self.item = item

    def __getitem__(self, i: int) -> _T:  # type: ignore[override]
        return self.item(i)

    def __len__(self) -> int:
        raise TypeError("worked out item by item")


# ------------------------------------------------------------------------- the board


class Board:
    """A game in progress, mutable: the pieces on the board (VNP-1, VNP-4), whose turn it
    is (VNP-2), who passed (VNP-5) and whether the game is over (VNP-6).

    Play it in place with `place` and `pass_turn` (or `play`), copy it with `fork`; never
    share one between two games. `legal(colour)` is what the colour may place now."""

    __slots__ = (
        "config", "tables", "candidates", "unused", "free", "reach", "placed", "passed",
        "turn", "over",
    )  # fmt: skip

    config: Config
    tables: Tables
    candidates: list[int]
    """Per colour: the placements touching an intersection it reached (VNP-3, VNP-4)."""
    unused: list[int]
    """Per colour: the placements of the pieces it has not placed (VNP-1)."""
    free: int
    """The placements no piece on the board forbids (VNP-4)."""
    reach: list[int]
    """Per colour: the intersections its pieces touch (before its first piece, its start)."""
    placed: list[list[int]]
    """Per colour: the placement ids it put on the board, in order."""
    passed: list[bool]
    """Per colour: it passed (VNP-5), so it never plays again."""
    turn: int
    """The index in COLOURS of the colour to play; once `over`, of the colour that played
    last."""
    over: bool
    """VNP-6: every colour has passed or placed all its pieces."""

    def __init__(self, config: Config) -> None:
        """An empty board; jaune plays first (VNP-2)."""
        t = tables(config.size, config.crossing)
        starts = [y * config.size + x for x, y in config.starts]
        self.config = config
        self.tables = t
        self.candidates = [t.touching_at(s) for s in starts]  # VNP-3: the first piece
        self.reach = [1 << s for s in starts]
        self.unused = [t.full] * len(COLOURS)
        self.free = t.full
        self.placed = [[] for _ in COLOURS]
        self.passed = [False] * len(COLOURS)
        self.turn = 0  # VNP-2: jaune plays first
        self.over = False

    @classmethod
    def of(
        cls,
        config: Config,
        turn: int,
        placed: Sequence[Sequence[int]],
        passed: Sequence[bool],
    ) -> Board:
        """The board of a position given by its facts (a journal's, a test's), placements
        put down as given, unchecked."""
        board = cls(config)
        for colour, ids in enumerate(placed):
            for pid in ids:
                board._put(colour, pid)
        board.passed = list(passed)
        board.turn = turn
        board.over = all(board.out(c) for c in range(len(COLOURS)))
        return board

    def fork(self) -> Board:
        """An independent copy, to play on without changing this one."""
        twin = Board.__new__(Board)
        twin.config, twin.tables, twin.free = self.config, self.tables, self.free
        twin.turn, twin.over = self.turn, self.over
        twin.candidates, twin.unused = list(self.candidates), list(self.unused)
        twin.reach, twin.passed = list(self.reach), list(self.passed)
        twin.placed = [list(ids) for ids in self.placed]
        return twin

    # ------------------------------------------------------------------ what is legal

    def out(self, colour: int) -> bool:
        """The colour plays no more (VNP-2 skips it): it passed or placed all its pieces."""
        return self.passed[colour] or len(self.placed[colour]) == len(PIECES)

    def legal(self, colour: int) -> int:
        """The placements `colour` (an index) could make now, as a bitset (0: it can only
        pass, VNP-5)."""
        if self.passed[colour]:
            return 0
        return self.candidates[colour] & self.unused[colour] & self.free

    def refusal(self, colour: int, pid: int) -> IllegalAction:
        """Why `colour` may not put placement `pid` down now, naming the ruling: its piece
        is on the board already (VNP-1), the placement shares a segment or crosses a piece
        (VNP-4), a first piece misses its start (VNP-3), or a later one touches none of
        the colour's pieces (VNP-4)."""
        name = COLOURS[colour]
        t = self.tables
        if self.passed[colour]:
            return IllegalAction("VNP-5", f"{name} passed: it never plays again")
        if not self.unused[colour] >> pid & 1:
            return IllegalAction(
                "VNP-1", f"{name} already placed piece {PIECES[t.piece_of[pid]].name}"
            )
        if not self.free >> pid & 1:
            g = geometry(t.size)
            mine = g.segment_masks[pid]
            if any(mine & g.segment_masks[p] for ids in self.placed for p in ids):
                return IllegalAction("VNP-4", "pieces never share a unit segment")
            if t.crossing is Crossing.STRICT:
                return IllegalAction(
                    "VNP-4", "(strict reading) an intersection inside a piece is that piece's alone"
                )
            return IllegalAction("VNP-4", "pieces never cross: both would go straight through")
        if not self.placed[colour]:
            return IllegalAction("VNP-3", f"{name}'s first piece must touch its start intersection")
        return IllegalAction("VNP-4", f"the piece must share an intersection with a {name} piece")

    # ------------------------------------------------------------------ playing

    def place(self, pid: int, legal: int | None = None) -> None:
        """The colour to play puts placement `pid` down (VNP-3, VNP-4); IllegalAction,
        changing nothing, when the rules forbid it. `legal`: `legal(turn)`, when the
        caller has just read it (a bot's game), not worked out again."""
        colour = self.turn
        if self.over:
            raise IllegalAction("VNP-6", "the game is over: no colour can place")
        if legal is None:
            legal = self.legal(colour)
        if not legal >> pid & 1:
            raise self.refusal(colour, pid)
        self._put(colour, pid)
        self._next(colour)

    def pass_turn(self) -> None:
        """The colour to play passes, only when it has no legal placement (VNP-5); it
        never plays again."""
        colour = self.turn
        if self.over:
            raise IllegalAction("VNP-6", "the game is over: no colour can place")
        if self.legal(colour):
            raise IllegalAction("VNP-5", f"{COLOURS[colour]} may not pass: it can place a piece")
        self.passed[colour] = True
        self._next(colour)

    def play(self, pid: int, legal: int | None = None) -> None:
        """`place(pid, legal)`, or `pass_turn()` for PASS."""
        if pid == PASS:
            self.pass_turn()
        else:
            self.place(pid, legal)

    def _put(self, colour: int, pid: int) -> None:
        t = self.tables
        self.free &= t.keep(pid)
        self.unused[colour] &= t.keep_piece[t.piece_of[pid]]
        reach = self.reach[colour]
        candidates = self.candidates[colour]
        touching = t.touching
        for pt in t.points[pid]:
            if not reach >> pt & 1:
                reach |= 1 << pt
                candidates |= touching[pt]
        self.candidates[colour] = candidates
        self.reach[colour] = reach
        self.placed[colour].append(pid)

    def _next(self, colour: int) -> None:
        """VNP-2, VNP-5: the next colour in order that neither passed nor placed all; the
        game is over when there is none (VNP-6)."""
        n, pieces, passed, placed = len(COLOURS), len(PIECES), self.passed, self.placed
        for step in range(1, n + 1):
            other = (colour + step) % n
            if not passed[other] and len(placed[other]) < pieces:
                self.turn = other
                return
        self.over = True

    # ------------------------------------------------------------------ the score

    def left(self, colour: int) -> tuple[int, ...]:
        """The pieces (indexes in PIECES) the colour has not placed."""
        used = {self.tables.piece_of[pid] for pid in self.placed[colour]}
        return tuple(p.index for p in PIECES if p.index not in used)

    def scores(self) -> tuple[int, ...]:
        """VNP-6: per colour, the segments of its unplaced pieces, or -10 if it placed all."""
        return self.result()[0]

    def side_scores(self) -> tuple[int, ...]:
        """VNP-7: per side (a player, or a team), the sum of its colours' scores."""
        return self.result()[1]

    def winners(self) -> tuple[int, ...]:
        """VNP-6: the sides with the lowest score, once the game is over (else empty)."""
        return self.result()[2]

    def result(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """The scores per colour, per side, and the winning sides, at once."""
        piece_of = self.tables.piece_of
        scores = []
        for ids in self.placed:
            used = {piece_of[pid] for pid in ids}
            scores.append(
                ALL_PLACED_BONUS
                if len(used) == len(PIECES)
                else TOTAL_SEGMENTS - sum(PIECES[k].size for k in used)
            )
        totals = [0] * self.config.sides
        for colour, score in enumerate(scores):
            totals[self.config.side_of(colour)] += score
        best = min(totals)
        winners = tuple(i for i, t in enumerate(totals) if t == best) if self.over else ()
        return tuple(scores), tuple(totals), winners
