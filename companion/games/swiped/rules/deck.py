"""SW-1: the deck of layout cards the companion ships, built reproducibly, and its printout.

A card is a placement of the nine colours on the 3 x 3 grid: card[i] is the colour on
square i + 1. Cards are numbered 1..size. Any two cards agree on at most 2 squares.
"""

from __future__ import annotations

import random
import sys
from functools import lru_cache
from typing import TextIO

from companion.games.swiped.rules.config import COLOURS, MAX_DECK, MIN_DECK
from companion.rules.errors import BadInput

Card = tuple[str, ...]

MAX_AGREEMENT = 2  # SW-1
_MAX_DRAWS = 200_000


def agreement(a: Card, b: Card) -> int:
    """On how many squares two placements put the same colour."""
    return sum(x == y for x, y in zip(a, b, strict=True))


@lru_cache(maxsize=16)
def make_deck(size: int = 24, seed: int = 0) -> tuple[Card, ...]:
    """SW-1: `size` placements, any two agreeing on at most 2 squares; the same for the same
    (size, seed). Greedy: shuffle, keep the placement when it is far enough from all kept."""
    if not MIN_DECK <= size <= MAX_DECK:
        raise BadInput(f"a deck has {MIN_DECK}..{MAX_DECK} cards, not {size}")
    rng = random.Random(seed)
    deck: list[Card] = []
    for _ in range(_MAX_DRAWS):
        if len(deck) == size:
            break
        colours = list(COLOURS)
        rng.shuffle(colours)
        card = tuple(colours)
        if all(agreement(card, kept) <= MAX_AGREEMENT for kept in deck):
            deck.append(card)
    if len(deck) < size:  # pragma: no cover - never happens for size <= MAX_DECK
        raise BadInput(f"could not build {size} cards from seed {seed}")
    return tuple(deck)


def format_card(number: int, card: Card) -> str:
    width = max(len(c) for c in COLOURS)
    rows = [" ".join(c.ljust(width) for c in card[r * 3 : r * 3 + 3]).rstrip() for r in range(3)]
    return "\n".join([f"Carte {number}", *(f"  {row}" for row in rows)])


def format_deck(deck: tuple[Card, ...]) -> str:
    """The deck as text to print and cut out: each card's three rows, squares 1..9."""
    return "\n\n".join(format_card(i, card) for i, card in enumerate(deck, start=1)) + "\n"


def print_deck(size: int = 24, seed: int = 0, file: TextIO | None = None) -> None:
    """SW-1: print the shipped deck."""
    (file or sys.stdout).write(format_deck(make_deck(size, seed)))
