"""The bots of companion/games/passpass/bots.py on the fast core: the same choices, the same
draws from the same `random.Random`, so a seeded game is the very same game.

A readable bot draws with `rng.random()` and `rng.choice(seq)`; `choice` draws
`_randbelow(len(seq))` from `getrandbits` and takes that index, so picking an index of a
list of the same length, in the same order, is the same draw (`below`). The heuristic bot's
memory of the hats (`HatMemory`) is kept by the core (`FastGame.known`, `.mine`): the count
of tokens per hat is exact (`occupied`), kinds are known when shown or own.

Each bot answers one question per phase with a code the core plays:

    place(g)           -> spot * 3 + kind
    announce(g)        -> kind
    window(g, seat)    -> 0 (OK), 1 (Doublon) or 2 (Menteur), for the seat asked
    reward(g)          -> 0 (take a token) or 1 + spot * 3 + kind
    reveal(g)          -> line, or lines + pair (a swap)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from companion.games.passpass.fast.core import DOUBLON, MENTEUR, FastGame
from companion.games.passpass.fast.tables import KINDS_OF, MASK, SEAT_BITS, WIN, empty_spots

_BITS = tuple(n.bit_length() for n in range(64))
_LIES = ((1, 2), (0, 2), (0, 1))
"""kind -> the other kinds, in order: the lies a Masqué announce may tell."""


def below(rng: random.Random, n: int) -> int:
    """`rng.choice(range(n))`, drawn exactly as `random.Random.choice` draws (CPython's
    `_randbelow_with_getrandbits`): rejection over `n.bit_length()` bits."""
    getrandbits = rng.getrandbits
    k = _BITS[n] if n < 64 else n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


class FastBot(Protocol):
    def place(self, g: FastGame) -> int: ...

    def announce(self, g: FastGame) -> int: ...

    def window(self, g: FastGame, seat: int) -> int: ...

    def reward(self, g: FastGame) -> int: ...

    def reveal(self, g: FastGame) -> int: ...


class FastRandomBot:
    """`RandomBot`: uniform over the legal actions it is offered."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def place(self, g: FastGame) -> int:
        legal = g.tables.place[g.hands[g.magician]]
        return legal[below(self.rng, len(legal))]

    def announce(self, g: FastGame) -> int:
        return below(self.rng, 3)

    def window(self, g: FastGame, seat: int) -> int:
        """(Pass, then a Call per open challenge, Doublon first): the ROUND window's legal
        actions and what the self-play loop offers each seat in a TIMED one."""
        open_ = g.open
        if open_ == DOUBLON | MENTEUR:
            return below(self.rng, 3)
        return open_ if below(self.rng, 2) else 0

    def reward(self, g: FastGame) -> int:
        legal = g.legal()
        return legal[below(self.rng, len(legal))]

    def reveal(self, g: FastGame) -> int:
        legal = g.legal()
        return legal[below(self.rng, len(legal))]


class FastHeuristicBot:
    """`HeuristicBot` with its default temperament (the only one the lab seats)."""

    __slots__ = ("rng", "seat", "shift", "draw", "bluff", "suspicion", "stacking", "lapse")

    draw: Callable[[], float]
    """The rng's `random`, bound once."""

    def __init__(
        self,
        rng: random.Random,
        seat: int,
        bluff: float = 0.3,
        suspicion: float = 0.2,
        stacking: float = 0.15,
        lapse: float = 0.1,
    ) -> None:
        self.rng = rng
        self.draw = rng.random
        self.seat = seat
        self.shift = SEAT_BITS * seat
        self.bluff = bluff
        self.suspicion = suspicion
        self.stacking = stacking
        self.lapse = lapse

    def place(self, g: FastGame) -> int:
        """An empty hat, unless stacking now and then (or every hat is taken)."""
        kinds = KINDS_OF[g.hands[g.magician]]
        stack = self.draw() < self.stacking
        empty = () if stack else empty_spots(g.occupied, g.spots)
        if not empty:
            legal = g.tables.place[g.hands[g.magician]]
            return legal[below(self.rng, len(legal))]
        nk = len(kinds)
        i = below(self.rng, len(empty) * nk)
        return empty[i // nk] * 3 + kinds[i % nk]

    def announce(self, g: FastGame) -> int:
        """The truth, or now and then a lie (PTI-6)."""
        truth = g.holding
        if self.draw() >= self.bluff:
            return truth
        return _LIES[truth][below(self.rng, 2)]

    def window(self, g: FastGame, seat: int) -> int:
        """Doublon on a hat known to be occupied (unless it slipped its mind), Menteur with
        proof or suspicion, else OK."""
        open_ = g.open
        if open_ & DOUBLON and g.occupied >> g.spot & 1 and self.draw() >= self.lapse:
            return DOUBLON
        if open_ & MENTEUR and self._doubts(g):
            return MENTEUR
        return 0

    def _doubts(self, g: FastGame) -> bool:
        """Menteur when every copy of the announced token is accounted for elsewhere."""
        seen = g.hands[self.seat] + sum(g.known) + (sum(g.mine) >> self.shift & 511)
        if (seen >> 3 * g.announced) & 7 >= g.n:
            return True
        return self.draw() < self.suspicion

    def reward(self, g: FastGame) -> int:
        """A Challenge token when it has none (or nothing to drop), else a drop into an
        empty hat (PTI-10)."""
        token = g.tokens[g.magician] > 0
        hand = g.hands[self.seat]
        if token and (not hand or g.tokens[self.seat] == 0):
            return 0
        kinds = KINDS_OF[hand]
        nk = len(kinds)
        empty = empty_spots(g.occupied, g.spots) or range(g.spots)
        i = below(self.rng, len(empty) * nk)
        return 1 + empty[i // nk] * 3 + kinds[i % nk]

    def reveal(self, g: FastGame) -> int:
        """A line it knows wins, else a swap that makes one, else the fullest line."""
        shift = self.shift
        mine = g.mine
        km = [MASK[k + (mine[h] >> shift & 511)] for h, k in enumerate(g.known)]
        lines = g.lines
        for i, (a, b, c) in enumerate(lines):
            if WIN[km[a] | km[b] << 3 | km[c] << 6]:
                return i
        if g.swapped < 0:
            tables = g.tables
            for p, (a, b) in enumerate(g.pairs):
                if km[a] == km[b]:
                    continue  # the swap changes nothing this seat knows
                for x, y, z in tables.swap_lines[p]:
                    if WIN[km[x] | km[y] << 3 | km[z] << 6]:
                        return len(lines) + p
        occ = g.occupied
        filled = [(occ & lm).bit_count() for lm in g.tables.line_masks]
        best = max(filled)
        fullest = [i for i, f in enumerate(filled) if f == best]
        return fullest[below(self.rng, len(fullest))]


BOTS = ("heuristic", "random")


def make_fast_bot(kind: str, rng: random.Random, seat: int) -> FastBot:
    if kind == "random":
        return FastRandomBot(rng)
    if kind == "heuristic":
        return FastHeuristicBot(rng, seat)
    raise ValueError(f"unknown bot {kind!r}; choose from {', '.join(BOTS)}")
