"""Vous ne passerez pas !: a fast path for self-play, playing the very games of the
readable engine (`engine.py`, the referee's and the reference) with the bots of
`companion/games/vnp/bots.py`.

The readable engine recomputes a colour's legal placements from its attach points at every
position. Here they are bitsets over the placement ids of `geometry(size)` (bit i stands for
placement i), kept up to date once per placement:

- `candidates[c]`: the placements touching an intersection colour c reached (before its
  first piece, its start intersection: VNP-3, VNP-4);
- `unused[c]`: the placements of the pieces c has not placed yet (VNP-1);
- `free`: the placements no piece on the board forbids (VNP-4). Each placement forbids a
  fixed set of others, its conflict mask: those sharing one of its unit segments, and those
  going straight through an intersection it goes straight through (the Nexos rule), or,
  under the strict reading, those meeting it at an intersection inside either piece. The
  mask is the OR of a few per-segment and per-intersection bitsets, and is removed from
  `free` once, when the placement is made.

A colour's legal placements are `candidates & unused & free`, two big-int ANDs, and the
fast bots choose from that bitset exactly as the readable bots choose from `legal_actions`
(sorted by id), with the same draws of their random.Random, without building an action
per placement. tests/lab/test_fast_equals_engine.py holds both equal step by step, and
tests/lab/test_vnp.py checks that both paths play the same games.

Pure, like every engine: no I/O, no clock, randomness only from the injected rngs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from companion.games.vnp.rules.config import COLOURS, Config, Crossing
from companion.games.vnp.rules.pieces import PIECES, geometry
from companion.games.vnp.rules.state import State
from companion.rules.errors import IllegalAction

PASS = -1
"""What a fast bot returns to pass (VNP-5), and a pass in `Game.turns`."""

CACHE_LIMIT = 25_000
"""Conflict masks are kept once computed while a board has at most this many placements
(15,157 on 13 x 13: 29 MB at most); bigger boards compute them at each placement instead
(40 x 40 has 173,485 placements: keeping them all would take gigabytes)."""


def _bits(ids: Sequence[int], count: int) -> int:
    """The bitset of `ids` (each below `count`), built without a big-int op per id."""
    buf = bytearray((count + 7) // 8)
    for i in ids:
        buf[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(buf, "little")


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything fixed for a board size and crossing rule, as bitsets: computed once
    (`rules_for`), shared by every game."""

    size: int
    crossing: Crossing
    count: int
    """How many placements the board has."""
    full: int
    """Every placement."""
    touching: tuple[int, ...]
    """Per intersection: the placements touching it (where a colour may attach, VNP-4)."""
    points: tuple[tuple[int, ...], ...]
    """Per placement: the intersections it touches."""
    piece_of: tuple[int, ...]
    keep_piece: tuple[int, ...]
    """Per piece: every placement but that piece's (a colour places each piece once)."""
    by_size: tuple[int, ...]
    """The placements of the pieces of 4, 3, 2 and 1 segments, largest first (the ids of
    `geometry` run by piece, and the pieces by size)."""
    forbids: tuple[tuple[int, ...], ...]
    """Per placement: the indexes in `users` whose OR is its conflict mask."""
    users: tuple[int, ...]
    """Bitsets of the placements using a segment, or meeting an intersection in a way a
    rule forbids to share (see `rules_for`)."""
    keeps: list[int]
    """Per placement once computed (0 before): every placement it does not forbid."""

    def keep(self, pid: int) -> int:
        """Every placement that stays possible once `pid` is on the board (VNP-4)."""
        kept = self.keeps[pid] if self.keeps else 0
        if not kept:
            users = self.users
            conflict = 0
            for i in self.forbids[pid]:
                conflict |= users[i]
            kept = self.full ^ conflict
            if self.keeps:
                self.keeps[pid] = kept
        return kept


@cache
def rules_for(size: int, crossing: Crossing) -> Rules:
    """The bitsets of a board size and crossing rule (cached: built once per process)."""
    g = geometry(size)
    count = len(g.placements)
    npoints = size * size
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
    touching = tuple(_bits(ids, count) for ids in by_point)
    segment_users = [_bits(ids, count) for ids in by_segment]
    if crossing is Crossing.STRICT:
        # Strict VNP-4: no piece touches an intersection inside another, and no piece has
        # an intersection inside it that another touches.
        inner_users = [_bits(ids, count) for ids in by_inner]
        users = (*segment_users, *touching, *inner_users)
        forbids = tuple(
            (
                *p.segments,
                *(nsegments + pt for pt in inner_of[p.id]),
                *(nsegments + npoints + pt for pt in p.points),
            )
            for p in g.placements
        )
    else:
        # Nexos VNP-4: no two pieces go straight through one intersection.
        straight_users = [_bits(ids, count) for ids in by_straight]
        users = (*segment_users, *straight_users)
        forbids = tuple(
            (*p.segments, *(nsegments + pt for pt in straight_of[p.id])) for p in g.placements
        )
    full = (1 << count) - 1
    keep_piece = tuple(
        full ^ _bits([pid for pid in range(count) if g.piece_of[pid] == k], count)
        for k in range(len(PIECES))
    )
    by_size = tuple(
        _bits([pid for pid in range(count) if PIECES[g.piece_of[pid]].size == n], count)
        for n in range(4, 0, -1)
    )
    return Rules(
        size=size,
        crossing=crossing,
        count=count,
        full=full,
        touching=touching,
        points=tuple(p.points for p in g.placements),
        piece_of=g.piece_of,
        keep_piece=keep_piece,
        by_size=by_size,
        forbids=forbids,
        users=users,
        keeps=[0] * count if count <= CACHE_LIMIT else [],
    )


# ------------------------------------------------------------------------ the position


class Position:
    """A game in progress, mutable (one per game, never shared): the bitsets above and the
    facts the turn order needs. `legal(colour)` equals the readable engine's
    `legal_placements(state, colour)` as a bitset."""

    __slots__ = (
        "rules", "candidates", "unused", "free", "reach", "placed", "passed", "turn", "over",
    )  # fmt: skip

    def __init__(self, config: Config) -> None:
        rules = rules_for(config.size, config.crossing)
        starts = [y * config.size + x for x, y in config.starts]
        self.rules = rules
        self.candidates = [rules.touching[s] for s in starts]  # VNP-3: the first piece
        self.reach = [1 << s for s in starts]
        self.unused = [rules.full] * len(COLOURS)
        self.free = rules.full
        self.placed = [0] * len(COLOURS)
        self.passed = [False] * len(COLOURS)
        self.turn = 0  # VNP-2: jaune plays first
        self.over = False

    @classmethod
    def of(cls, state: State) -> Position:
        """The position of a readable State (for tests and benchmarks)."""
        position = cls(state.config)
        for colour, ids in enumerate(state.placed):
            for pid in ids:
                position._put(colour, pid)
        position.passed = list(state.passed)
        position.turn = state.turn
        position.over = state.over
        return position

    def legal(self, colour: int) -> int:
        """The placements `colour` could make now, as a bitset (0: it can only pass)."""
        if self.passed[colour]:
            return 0
        return self.candidates[colour] & self.unused[colour] & self.free

    def place(self, pid: int) -> None:
        """The colour to play places `pid`: it must be legal (IllegalAction otherwise)."""
        colour = self.turn
        if self.over or pid < 0 or not self.legal(colour) >> pid & 1:
            name = COLOURS[colour]
            raise IllegalAction("VNP-4", f"placement {pid} is not legal for {name} (VNP-1, 3, 4)")
        self._put(colour, pid)
        self._next(colour)

    def pass_turn(self) -> None:
        """The colour to play passes: only when it has no legal placement (VNP-5)."""
        colour = self.turn
        if self.over or self.legal(colour):
            raise IllegalAction("VNP-5", f"{COLOURS[colour]} may not pass: it can place a piece")
        self.passed[colour] = True
        self._next(colour)

    def _put(self, colour: int, pid: int) -> None:
        rules = self.rules
        self.free &= rules.keep(pid)
        self.unused[colour] &= rules.keep_piece[rules.piece_of[pid]]
        reach = self.reach[colour]
        touching = rules.touching
        added = 0
        for pt in rules.points[pid]:
            if not reach >> pt & 1:
                reach |= 1 << pt
                added |= touching[pt]
        if added:
            self.candidates[colour] |= added
        self.reach[colour] = reach
        self.placed[colour] += 1

    def _next(self, colour: int) -> None:
        """VNP-2, VNP-5: the next colour in order that neither passed nor placed all."""
        n = len(COLOURS)
        pieces = len(PIECES)
        for step in range(1, n + 1):
            other = (colour + step) % n
            if not self.passed[other] and self.placed[other] < pieces:
                self.turn = other
                return
        self.over = True  # VNP-6


# ------------------------------------------------------------------------------ bots

FastBot = Callable[[int, Rules, random.Random], int]
"""(legal placements as a bitset, the board's rules, the seat's rng) -> a placement id,
or PASS when the bitset is empty."""

_PASS_ONLY = (PASS,)
"""The readable bots choose among `legal_actions`, which is the lone Pass when no
placement is legal: choosing from this draws the same random bits."""


def nth_bit(bits: int, k: int) -> int:
    """The index of the k-th set bit (from 0, lowest first) of `bits`: the k-th smallest
    id of a bitset, found by halving (a few big-int ops, none per set bit)."""
    base = 0
    width = bits.bit_length()
    while width > 64:
        half = width >> 1
        low = bits & ((1 << half) - 1)
        count = low.bit_count()
        if k < count:
            bits = low
            width = low.bit_length()
        else:
            k -= count
            bits >>= half
            base += half
            width = bits.bit_length()
    for _ in range(k):
        bits &= bits - 1
    return base + (bits & -bits).bit_length() - 1


class Ids(Sequence[int]):
    """The ids of a bitset as a sorted sequence, read one at a time: what `rng.choice`
    needs (its length, then one item) without listing every id."""

    __slots__ = ("bits", "length")

    def __init__(self, bits: int) -> None:
        self.bits = bits
        self.length = bits.bit_count()

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, k: int) -> int:  # type: ignore[override]
        if not 0 <= k < self.length:
            raise IndexError(k)
        return nth_bit(self.bits, k)


def random_bot(legal: int, rules: Rules, rng: random.Random) -> int:
    """`bots.vnp.random_action`: any legal placement, uniformly; Pass when there is none."""
    if not legal:
        return rng.choice(_PASS_ONLY)
    return rng.choice(Ids(legal))


def largest_bot(legal: int, rules: Rules, rng: random.Random) -> int:
    """`bots.vnp.largest_first`: a placement of the largest piece it can place, uniformly
    among those; Pass when there is none."""
    for size in rules.by_size:
        best = legal & size
        if best:
            return rng.choice(Ids(best))
    return rng.choice(_PASS_ONLY)


BOTS: dict[str, FastBot] = {"largest": largest_bot, "random": random_bot}
"""The fast bot of each kind of `companion.games.vnp.bots.BOTS`."""


# ------------------------------------------------------------------------------ a game


@dataclass(frozen=True, slots=True)
class Game:
    """A whole game played on the fast path."""

    config: Config
    turns: tuple[tuple[int, int], ...]
    """Every action in order: (colour index, placement id, or PASS)."""
    choices: tuple[int, int] = (0, 0)
    """(legal placements summed, placements chosen): a forced pass is no choice."""


def play(config: Config, bots: Sequence[FastBot], rngs: Sequence[random.Random]) -> Game:
    """One whole game: the bot of each colour (by colour index, with its rng: the two
    colours of a seat share the seat's) chooses its action until no colour can play
    (VNP-6). Equal, action for action, to the readable engine with the readable bots."""
    position = Position(config)
    rules = position.rules
    turns: list[tuple[int, int]] = []
    choices = moves = 0
    while not position.over:
        colour = position.turn
        legal = position.legal(colour)
        if legal:
            choices += legal.bit_count()
            moves += 1
        pid = bots[colour](legal, rules, rngs[colour])
        turns.append((colour, pid))
        if pid == PASS:
            position.pass_turn()
        else:
            position.place(pid)
    return Game(config, tuple(turns), (choices, moves))
