"""Tokens packed into ints, and the tables the board looks things up in.

A hand or a hat is a multiset of the three token kinds, packed into one int: three bits
per kind (kind k counts `(code >> 3 * k) & 7`). A kind has at most 6 copies in play (one
per seat, PTI-1), so sums of codes never carry from one kind into the next: taking a hat
into a hand, or adding up every hat, is one integer addition. Kind k is the k-th token of
the edition's `RuleSet.tokens`, which are in alphabetical order, so a code's kinds come
out in the order of the sorted `Hand` tuples a `State` holds.

Every rule below is a cache of the readable function that says it (`best_pick` for
PTI-11, `can_still_win` for PTI-15), computed once, so the board cannot read a rule
differently.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from companion.games.passpass.rules.layouts import Layout
from companion.games.passpass.rules.picks import best_pick, can_still_win

KINDS = 3
UNIT = (1, 1 << 3, 1 << 6)
"""The code of one token of each kind."""
FULL = UNIT[0] + UNIT[1] + UNIT[2]
"""A hand of one token of each kind: what every seat is dealt (PTI-1, PTI-12)."""
CODES = 1 << (3 * KINDS)
"""Codes are below this."""

SEAT_BITS = 9
"""Per-seat fields of a packed per-seat value (`Board.secret`) are one code wide."""
SEAT_MASK = CODES - 1


def _count(code: int, kind: int) -> int:
    return (code >> (3 * kind)) & 7


MASK = tuple(sum(1 << k for k in range(KINDS) if _count(c, k)) for c in range(CODES))
"""code -> the set of kinds present, as three bits."""
KINDS_OF = tuple(tuple(k for k in range(KINDS) if _count(c, k)) for c in range(CODES))
"""code -> the kinds present, in order (a sorted `Hand`'s kinds, each once)."""
SIZE = tuple(sum(_count(c, k) for k in range(KINDS)) for c in range(CODES))
"""code -> how many tokens."""
LETTERS = ("a", "b", "c")
"""Stand-in names of the kinds, to ask the readable rules about codes."""


def _letters(mask: int) -> tuple[str, ...]:
    return tuple(LETTERS[k] for k in range(KINDS) if mask >> k & 1)


def _pick_table() -> tuple[tuple[int, ...] | None, ...]:
    """(mask a | mask b << 3 | mask c << 6) -> the best pick's kinds (PTI-11), or None."""
    table: list[tuple[int, ...] | None] = []
    for key in range(1 << (3 * KINDS)):
        hats = [_letters(key >> (3 * i) & 7) for i in range(3)]
        pick = best_pick(hats)
        table.append(None if pick is None else tuple(LETTERS.index(p) for p in pick))
    return tuple(table)


PICK = _pick_table()
"""(the three lifted hats' masks, as `mask a | mask b << 3 | mask c << 6`) -> the kinds of
the best pick of one token per hat (PTI-11), or None."""
WIN = tuple(p is not None for p in PICK)
"""(three masks, as for PICK) -> one token per hat gives a winning pick (PTI-11)."""


@cache
def names_of(tokens: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """code -> its `Hand`: token names, sorted, with repeats."""
    if list(tokens) != sorted(tokens) or len(tokens) != KINDS:
        raise ValueError(f"the board needs three tokens in alphabetical order, not {tokens}")
    return tuple(
        tuple(tokens[k] for k in range(KINDS) for _ in range(_count(c, k))) for c in range(CODES)
    )


@cache
def still_winnable(masks: tuple[int, ...]) -> bool:
    """PTI-15 (`can_still_win`) on the sorted masks of the non-empty hats."""
    return can_still_win([_letters(m) for m in masks], LETTERS)


@dataclass(frozen=True, eq=False)
class LayoutTables:
    """One layout's spots, lines and swaps as 0-based indices, and the legal codes that
    depend only on the layout and a packed hand (compared and hashed as itself: one per
    layout, `layout_tables`)."""

    spots: int
    lines: tuple[tuple[int, int, int], ...]
    """PTI-3, in the order of `Layout.lines` (the engine's order of Reveal actions)."""
    line_masks: tuple[int, ...]
    """Each line's hats as bits of an occupancy mask."""
    pairs: tuple[tuple[int, int], ...]
    """PTI-2's contiguous pairs, sorted (the engine's order of Swap actions)."""
    pair_index: dict[tuple[int, int], int]
    """(a, b), a < b -> its index in `pairs`."""
    swap_lines: tuple[tuple[tuple[int, int, int], ...], ...]
    """For each pair, the lines holding exactly one of its hats, as the hats whose contents
    they would hold after that swap (a line holding both only has its hats reordered)."""
    place: tuple[tuple[int, ...], ...]
    """hand code -> Designate codes (spot * 3 + kind), spot by spot, then kind."""
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
        pair_index={pair: i for i, pair in enumerate(pairs)},
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
