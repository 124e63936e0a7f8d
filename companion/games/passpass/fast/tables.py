"""Packed tokens and the tables the fast PassPass core looks things up in.

A hand or a hat is a multiset of the three token kinds, packed into one int: three bits
per kind (kind k counts `(code >> 3 * k) & 7`). A kind has at most 6 copies in play (one
per seat, PTI-1), so sums of codes never carry from one kind into the next: taking a hat
into a hand, or adding up every hat, is one integer addition. Kind k is the k-th token of
the edition's `RuleSet.tokens`, which are in alphabetical order, so a code's kinds come
out in the order of the readable engine's sorted `Hand` tuples.

Everything below is computed once, from the readable engine's own functions where one
exists (`best_pick`), so the fast core cannot read a rule differently.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from companion.games.passpass.rules.layouts import Layout
from companion.games.passpass.rules.picks import best_pick

KINDS = 3
UNIT = (1, 1 << 3, 1 << 6)
"""The code of one token of each kind."""
FULL = UNIT[0] + UNIT[1] + UNIT[2]
"""A hand of one token of each kind: what every seat is dealt (PTI-1, PTI-12)."""
CODES = 1 << (3 * KINDS)
"""Codes are below this."""

SEAT_BITS = 9
"""Per-seat fields of a packed per-seat value (`FastGame.mine`) are one code wide."""


def _count(code: int, kind: int) -> int:
    return (code >> (3 * kind)) & 7


MASK = tuple(sum(1 << k for k in range(KINDS) if _count(c, k)) for c in range(CODES))
"""code -> the set of kinds present, as three bits."""
KINDS_OF = tuple(tuple(k for k in range(KINDS) if _count(c, k)) for c in range(CODES))
"""code -> the kinds present, in order (the readable engine's `sorted(set(hand))`)."""
SIZE = tuple(sum(_count(c, k) for k in range(KINDS)) for c in range(CODES))
"""code -> how many tokens."""


def _letters(mask: int) -> tuple[str, ...]:
    return tuple("abc"[k] for k in range(KINDS) if mask >> k & 1)


def _pick_table() -> tuple[tuple[int, ...] | None, ...]:
    """(mask a | mask b << 3 | mask c << 6) -> the best pick's kinds (PTI-11), or None."""
    table: list[tuple[int, ...] | None] = []
    for key in range(1 << (3 * KINDS)):
        hats = [_letters(key >> (3 * i) & 7) for i in range(3)]
        pick = best_pick(hats)
        table.append(None if pick is None else tuple("abc".index(p) for p in pick))
    return tuple(table)


PICK = _pick_table()
WIN = tuple(p is not None for p in PICK)
"""(three masks, as for PICK) -> one token per hat gives a winning pick (PTI-11)."""


@cache
def names_of(tokens: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """code -> the readable `Hand`: token names, sorted, with repeats."""
    if list(tokens) != sorted(tokens) or len(tokens) != KINDS:
        raise ValueError(f"the fast core needs three tokens in alphabetical order, not {tokens}")
    return tuple(
        tuple(tokens[k] for k in range(KINDS) for _ in range(_count(c, k))) for c in range(CODES)
    )


@cache
def can_still_win(masks: tuple[int, ...]) -> bool:
    """PTI-15 on the sorted masks of the non-empty hats: some kind in three hats, or three
    kinds matched to three distinct hats (Hall's condition), as `picks.can_still_win`."""
    if len(masks) < 3:
        return False
    if any(sum(1 for m in masks if m >> k & 1) >= 3 for k in range(KINDS)):
        return True
    subsets = range(1, 1 << KINDS)
    return all(sum(1 for m in masks if m & sub) >= sub.bit_count() for sub in subsets)


@dataclass(frozen=True)
class LayoutTables:
    """One layout's spots, lines and swaps as 0-based indices, and the legal-action tuples
    that depend only on the layout and a packed hand."""

    spots: int
    lines: tuple[tuple[int, int, int], ...]
    """PTI-3, in the order of `Layout.lines` (the readable engine's Reveal order)."""
    line_masks: tuple[int, ...]
    """Each line's hats as bits of an occupancy mask."""
    pairs: tuple[tuple[int, int], ...]
    """PTI-2's contiguous pairs, sorted (the readable engine's Swap order)."""
    swap_lines: tuple[tuple[tuple[int, int, int], ...], ...]
    """For each pair, the lines holding exactly one of its hats, as the hats whose contents
    they would hold after that swap (a line holding both only has its hats reordered)."""
    place: tuple[tuple[int, ...], ...]
    """hand code -> Designate codes (spot * 3 + kind), spot-major as the readable engine."""
    reward: tuple[tuple[int, ...], ...]
    """(hand code << 1 | token possible) -> reward codes: 0 (take a Challenge token), then
    1 + spot * 3 + kind for each drop (PTI-10)."""
    reveal_swap: tuple[int, ...]
    """Reveal codes (line index), then swap codes (lines + pair index) (PTI-5)."""
    reveal_only: tuple[int, ...]


@cache
def layout_tables(layout: Layout) -> LayoutTables:
    spots = layout.spots
    lines = tuple((a - 1, b - 1, c - 1) for a, b, c in layout.lines)
    pairs = tuple(sorted((min(p) - 1, max(p) - 1) for p in layout.adjacent))
    swap_lines = []
    for a, b in pairs:
        moved = {a: b, b: a}
        swap_lines.append(
            tuple(
                (moved.get(x, x), moved.get(y, y), moved.get(z, z))
                for x, y, z in lines
                if (a in (x, y, z)) != (b in (x, y, z))
            )
        )
    place = tuple(tuple(s * 3 + k for s in range(spots) for k in KINDS_OF[c]) for c in range(CODES))
    reward = tuple(
        ((0,) if key & 1 else ()) + tuple(1 + d for d in place[key >> 1])
        for key in range(2 * CODES)
    )
    reveal_only = tuple(range(len(lines)))
    return LayoutTables(
        spots=spots,
        lines=lines,
        line_masks=tuple((1 << x) | (1 << y) | (1 << z) for x, y, z in lines),
        pairs=pairs,
        swap_lines=tuple(swap_lines),
        place=place,
        reward=reward,
        reveal_swap=reveal_only + tuple(len(lines) + p for p in range(len(pairs))),
        reveal_only=reveal_only,
    )


@cache
def empty_spots(occupied: int, spots: int) -> tuple[int, ...]:
    """The spots whose bit is clear in an occupancy mask."""
    return tuple(s for s in range(spots) if not occupied >> s & 1)
