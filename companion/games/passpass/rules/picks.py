"""Picks of one token per hat (PTI-11) and whether a manche can still be won (PTI-15)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from companion.games.passpass.rules.config import (
    Hand,
)


def best_pick(hats: Sequence[Hand]) -> tuple[str, ...] | None:
    """One token per hat, all identical or all different, or None (PTI-11).

    With several tokens in a hat the best one is taken; identical picks are preferred.
    """
    if len(hats) != 3 or not all(hats):
        return None
    a, b, c = (sorted(set(h)) for h in hats)
    for k in a:
        if k in b and k in c:
            return (k, k, k)
    for x, y, z in itertools.product(a, b, c):
        if x != y and y != z and x != z:
            return (x, y, z)
    return None


def can_still_win(hats: Iterable[Hand], tokens: Sequence[str]) -> bool:
    """PTI-15: do any three non-empty hats admit a winning pick?

    Swaps can bring any three hats into a line, so positions do not matter: some kind in
    three hats, or three kinds matched to three distinct hats (Hall's condition).
    """
    sets = [frozenset(h) for h in hats if h]
    if len(sets) < 3:
        return False
    if any(sum(k in s for s in sets) >= 3 for k in tokens):
        return True
    for trio in itertools.combinations(tokens, 3):
        # Hall's condition for the whole trio holds already: three hats, none empty.
        subsets = (frozenset(sub) for size in (1, 2) for sub in itertools.combinations(trio, size))
        if all(sum(1 for s in sets if s & sub) >= len(sub) for sub in subsets):
            return True
    return False
