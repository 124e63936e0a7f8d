"""Swiped's arithmetic on small integers: colours, swaps, cards and grids for the fast path.

Colours are 0..8 in `COLOURS` order, swaps 0..35 in `PAIRS` order, a grid or a card is a
tuple of 9 colours (square i + 1 holds colour grid[i]), as the engine's board has them
(rules/board.py). What the deducing bot computes
from a grid and a card depends only on where the card wants each colour moved, so
a `Row` is computed from that (`Deck.rows` keeps every card's Row of recent grids).

Every float here is computed by the very expressions of `companion/games/swiped/bots.py`, in the
same order (same operands, same rounding): the fast bots must choose exactly what today's
bots choose, ties included.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from companion.games.swiped.bots import LOG_PAIRS, DeducingParams
from companion.games.swiped.rules.board import (
    COLOUR_INDEX,
    SWAPS,
    Grid,
    cards_of,
    mask,
    positions,
)

SWAP_INDICES: tuple[int, ...] = tuple(range(len(SWAPS)))

PARAMS = DeducingParams()
"""The deducing bot's knobs: the lab seats today's bot, with its default knobs."""
BETA = PARAMS.beta
LOG_RATIONAL = math.log(PARAMS.rational)
LOG_RANDOM_PRIOR = math.log(1 - PARAMS.rational)
LOG_MISSED = math.log(PARAMS.missed_claim)
_BETA_G = tuple(BETA * g for g in range(-2, 3))
"""beta * gain, by gain + 2 (the value `swap_log_likelihoods` subtracts log Z from)."""
_EXP_BETA_G = tuple(math.exp(BETA * g) for g in range(-2, 3))

# A card's 36 gains on a grid are built as one integer, a byte per swap (gain + 2), as the
# sum of a base (each colour already in place loses a match when moved) and one term per
# colour: +1 on the swap with the colour the card wants where it stands, or, when that is
# the colour itself, a bit above the 36 bytes that marks it in place.
_FIXED_SHIFT = 8 * len(SWAPS)
_GAINS_MASK = (1 << _FIXED_SHIFT) - 1
_TERMS: tuple[int, ...] = tuple(
    1 << (_FIXED_SHIFT + a) if a == b else 1 << (8 * SWAPS.index((min(a, b), max(a, b))))
    for a in range(9)
    for b in range(9)
)
"""_TERMS[9 * a + b]: colour a stands where the card wants colour b."""
_BASES: tuple[int, ...] = tuple(
    sum((2 - ((fixed >> a) & 1) - ((fixed >> b) & 1)) << (8 * k) for k, (a, b) in enumerate(SWAPS))
    for fixed in range(512)
)
"""By the colours in place: gain + 2 of each swap if no colour moved onto its square."""
_NINES = tuple(9 * a for a in range(9))


class Row(NamedTuple):
    """What one card says of the 36 swaps on one grid (`swap_gains`,
    `swap_log_likelihoods` of the bots' module)."""

    gains: bytes
    """Gain + 2 (0..4) of each swap: how many more squares agree with the card after it."""
    by_gain: tuple[float, ...]
    """log P(a swap | card) for a player raising its matches, by the swap's gain + 2."""
    present: tuple[int, ...]
    """The gains + 2 some swap has."""

    def log_likelihood(self, swap: int) -> float:
        return self.by_gain[self.gains[swap]]


_NORMS: dict[tuple[int, ...], tuple[tuple[float, ...], tuple[int, ...]]] = {}
"""(by_gain, present) by the gains' first-seen order, fixed colours and 2-cycles, which
decide how many swaps have each gain (so log Z, summed in first-seen order)."""


def row(wanted: tuple[int, ...]) -> Row:
    """The Row of a card read through a grid (`wanted`: for each colour, the colour the
    card wants on the square where that colour stands)."""
    return _row(sum(map(_TERMS.__getitem__, map(int.__add__, _NINES, wanted))))


def _row(terms: int) -> Row:
    fixed = terms >> _FIXED_SHIFT
    gains = (_BASES[fixed] + (terms & _GAINS_MASK)).to_bytes(len(SWAPS), "little")
    order = tuple(dict.fromkeys(gains))
    key = (*order, fixed.bit_count(), gains.count(4))
    norm = _NORMS.get(key)
    if norm is None:
        counts = Counter(gains).items()  # first-seen order: the order Z is summed in
        log_z = math.log(sum(n * _EXP_BETA_G[g] for g, n in counts))
        norm = _NORMS[key] = (tuple(bg - log_z for bg in _BETA_G), tuple(sorted(order)))
    return Row(gains, *norm)


def swapped(grid: Grid, swap: int) -> Grid:
    """The grid after exchanging the big cubes of the swap's two colours."""
    a, b = SWAPS[swap]
    return tuple(b if c == a else a if c == b else c for c in grid)


GRID_CACHE = 2048
"""Grids whose Rows a Deck keeps (about 12 kB each) before it starts over."""


@dataclass(frozen=True, slots=True)
class Deck:
    """The shipped deck (SW-1) as colour tuples; card n is cards[n - 1]."""

    size: int
    seed: int
    cards: tuple[Grid, ...]
    masks: tuple[int, ...]
    """Each card as a grid mask (`mask`): agreement is a popcount."""
    wants: tuple[tuple[int, ...], ...]
    """Per card, by 9 * colour + square: 9 * colour + the colour the card wants there."""
    _rows: dict[Grid, tuple[Row, ...]] = field(default_factory=dict, compare=False, repr=False)

    def agreement(self, grid_mask: int, card: int) -> int:
        return (grid_mask & self.masks[card - 1]).bit_count()

    def rows(self, grid: Grid) -> tuple[Row, ...]:
        """Every card's Row on `grid` (card n at n - 1)."""
        found = self._rows.get(grid)
        if found is None:
            at = tuple(map(int.__add__, _NINES, positions(grid)))
            terms = _TERMS.__getitem__
            found = tuple(_row(sum(map(terms, map(wants.__getitem__, at)))) for wants in self.wants)
            if len(self._rows) >= GRID_CACHE:
                self._rows.clear()
            self._rows[grid] = found
        return found


@lru_cache(maxsize=16)
def deck_of(size: int, seed: int) -> Deck:
    cards, masks = cards_of(size, seed)
    wants = tuple(tuple(9 * a + card[s] for a in range(9) for s in range(9)) for card in cards)
    return Deck(size, seed, cards, masks, wants)


__all__ = [
    "BETA", "COLOUR_INDEX", "LOG_MISSED", "LOG_PAIRS", "LOG_RANDOM_PRIOR", "LOG_RATIONAL",
    "PARAMS", "SWAPS", "SWAP_INDICES", "Deck", "Grid", "Row", "deck_of", "mask", "positions",
    "row", "swapped",
]  # fmt: skip
