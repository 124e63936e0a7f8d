"""Swiped: the colours, the phases and the frozen config of one game (SW-1, SW-5, SW-6)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.rules.errors import BadInput

COLOURS: tuple[str, ...] = (
    "rouge",
    "orange",
    "jaune",
    "vert",
    "bleu",
    "violet",
    "rose",
    "blanc",
    "noir",
)
"""SW-1: the nine colours, in this order everywhere (it also orders the two colours of a pair)."""

SQUARES = 9
"""SW-1: a 3 x 3 grid, squares 1..9 in reading order."""
PLAYERS = 2
SWAPS_PER_PROGRAM = 3  # SW-3
MATCHES_TO_WIN = 5  # SW-5
MIN_DECK, MAX_DECK = 3, 60
"""At least the face-up card and two targets (SW-2); at most what make_deck builds quickly."""

Pair = tuple[str, str]
"""Two different colours, in COLOURS order: a swap has no direction."""

PAIRS: tuple[Pair, ...] = tuple((a, b) for i, a in enumerate(COLOURS) for b in COLOURS[i + 1 :])
"""The 36 swaps, in COLOURS order."""


class Phase(StrEnum):
    DRAW = "draw"
    """SW-2, OBSERVED deal only: the layout card and the two target cards are read."""
    PROGRAM = "program"
    """SW-3: both players secretly enter their three ordered swaps."""
    EXECUTE = "execute"
    """SW-4: the six swaps of the manche, one at a time."""
    OVER = "over"


class Deal(StrEnum):
    """Who draws the cards and knows the programs: the engine, or the people at a table."""

    SEEDED = "seeded"
    """new_game draws the layout and both targets from the seed, and each seat enters its
    program (Program): a simulated table, bots, tests. The default."""
    OBSERVED = "observed"
    """People draw; the engine takes the layout card and each target as the pad reads them
    (DrawLayout, DrawTarget). Programs stay on the table in small cubes (SW-3): the engine
    never sees them, takes each Swap the readers see from the seat whose swap is next, and
    a SkipSwap when the players declare the second swap of a phase the same pair (SW-4)."""


class FalseClaim(StrEnum):
    """SW-5 (configurable): what a false claim costs."""

    LOSES = "loses"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class Config:
    """Everything fixed for a whole game. Checked once, here."""

    deck_size: int = 24
    """SW-1: how many layout cards make_deck builds."""
    deck_seed: int = 0
    """SW-1: the seed of the shipped deck (the same deck for every game by default)."""
    first: int = 0
    """SW-4: the seat that is "player 1" (the book is silent on who that is)."""
    false_claim: FalseClaim = FalseClaim.LOSES
    """SW-5 (configurable)."""
    manche_limit: int | None = None
    """SW-6 (configurable): after this many manches the game is a draw. None: no limit."""
    claims_per_gap: int | None = 1
    """Silent in SW-5: with REFUSED, how many claims a seat may make between two swaps
    (None: any number; that lets a seat name every card in a row)."""
    claim_before_first_swap: bool = True
    """Silent in SW-5 ("a tout instant" / "between two swaps"): may a seat claim before the
    first swap of the game?"""
    deal: Deal = Deal.SEEDED
    """SEEDED (the engine draws, seats program) or OBSERVED (a real table; see Deal)."""

    def __post_init__(self) -> None:
        for name in ("deck_size", "deck_seed", "first", "manche_limit", "claims_per_gap"):
            value = getattr(self, name)
            optional = name in ("manche_limit", "claims_per_gap")
            if not (_is_whole(value) or (optional and value is None)):
                raise BadInput(f"{name} must be a whole number, not {value!r}")
        before = self.claim_before_first_swap
        if not isinstance(before, bool):
            raise BadInput(f"claim_before_first_swap must be true or false, not {before!r}")
        if not MIN_DECK <= self.deck_size <= MAX_DECK:
            raise BadInput(f"deck_size must be {MIN_DECK}..{MAX_DECK}, not {self.deck_size}")
        if not 0 <= self.first < PLAYERS:
            raise BadInput(f"first player must be seat 0 or 1, not {self.first}")
        if self.manche_limit is not None and self.manche_limit < 1:
            raise BadInput(f"manche_limit must be at least 1 or None, not {self.manche_limit}")
        if self.claims_per_gap is not None and self.claims_per_gap < 1:
            raise BadInput(f"claims_per_gap must be at least 1 or None, not {self.claims_per_gap}")

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "swiped",
            "deck_size": self.deck_size,
            "deck_seed": self.deck_seed,
            "first": self.first,
            "false_claim": str(self.false_claim),
            "manche_limit": self.manche_limit,
            "claims_per_gap": self.claims_per_gap,
            "claim_before_first_swap": self.claim_before_first_swap,
            "deal": str(self.deal),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Config:
        try:
            return make_config(**{k: v for k, v in data.items() if k != "game"})
        except TypeError as exc:
            raise BadInput(f"not a Swiped config: {dict(data)!r}") from exc


def make_config(
    *,
    deck_size: int = 24,
    deck_seed: int = 0,
    first: int = 0,
    false_claim: str = FalseClaim.LOSES,
    manche_limit: int | None = None,
    claims_per_gap: int | None = 1,
    claim_before_first_swap: bool = True,
    deal: str = Deal.SEEDED,
) -> Config:
    """Build a Config from plain values, with a clear error for each bad one."""
    try:
        mode = FalseClaim(false_claim)
        drawn_by = Deal(deal)
    except ValueError as exc:
        raise BadInput(str(exc)) from exc
    return Config(
        deck_size=deck_size,
        deck_seed=deck_seed,
        first=first,
        false_claim=mode,
        manche_limit=manche_limit,
        claims_per_gap=claims_per_gap,
        claim_before_first_swap=claim_before_first_swap,
        deal=drawn_by,
    )


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def pair(a: str, b: str) -> Pair:
    """The one spelling of a swap of colours a and b (unknown colours sort last)."""

    def rank(c: str) -> int:
        return COLOURS.index(c) if c in COLOURS else len(COLOURS)

    return (a, b) if (rank(a), a) <= (rank(b), b) else (b, a)


def swap_order(config: Config, manche: int) -> tuple[tuple[int, int], ...]:
    """SW-4: the six swaps of a manche as (seat, phase 1..3), in execution order.

    Manche 1: phases 1 and 3 are player 1 then player 2, phase 2 player 2 then player 1;
    every new manche inverts the order. Each seat plays its k-th pair in phase k."""
    p1 = config.first
    p2 = 1 - p1
    if manche % 2 == 0:
        p1, p2 = p2, p1
    firsts = (p1, p2, p1)
    return tuple(
        (seat, phase) for phase, lead in enumerate(firsts, start=1) for seat in (lead, 1 - lead)
    )
