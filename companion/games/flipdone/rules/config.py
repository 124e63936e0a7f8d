"""Flip Done's material (FD-1), board geometry (FD-4) and the frozen config of one game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.rules.errors import BadInput

PLAYERS = 3  # FD-1
SQUARES = 9  # FD-2: a 3 x 3 grid, squares numbered 1..9 in reading order
HAND_SIZE = 4  # FD-2
MANCHE_BONUS = 2  # FD-10

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("H", "D", "S", "C")
RED_SUITS = frozenset("HD")
DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
"""The 52 cards in a fixed order: rank then suit, "10S", "QH", "AD" (FD-1)."""
CARDS = frozenset(DECK)

Hand = tuple[str, ...]
"""A set of cards, kept sorted so equal contents compare equal."""


def is_red(card: str) -> bool:
    """FD-1: only a card's colour matters (red: hearts, diamonds; black: spades, clubs)."""
    return card[-1] in RED_SUITS


@dataclass(frozen=True, slots=True)
class Line:
    """FD-4: one of the 8 lines of the grid, with its value."""

    name: str
    squares: tuple[int, int, int]
    value: int
    diagonal: bool


LINES: tuple[Line, ...] = (
    Line("column 1", (1, 4, 7), 1, False),
    Line("column 2", (2, 5, 8), 1, False),
    Line("column 3", (3, 6, 9), 1, False),
    Line("row 1", (1, 2, 3), 2, False),
    Line("row 2", (4, 5, 6), 2, False),
    Line("row 3", (7, 8, 9), 2, False),
    Line("diagonal 1-5-9", (1, 5, 9), 3, True),
    Line("diagonal 3-5-7", (3, 5, 7), 3, True),
)
"""Lines are referred to by their index 0..7 in this tuple."""
LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, line in enumerate(LINES) if square in line.squares)
    for square in range(1, SQUARES + 1)
)
"""LINES_THROUGH[square - 1]: the indexes of the lines through that square."""
CENTRE = 5


class Stage(StrEnum):
    DEAL = "deal"
    """FD-2, OBSERVED deal only: the engine waits for the deal the readers see (DealDown for
    each of the 9 face-down cards, then DealUp for the face-up centre card)."""
    PLACE_FIRST = "place_first"
    """FD-2 (configurable): the phase's first player chooses where the first element goes."""
    PLAY = "play"
    OVER = "over"


class FirstElement(StrEnum):
    """FD-2: where the face-up card that makes the first element of a phase goes."""

    CENTRE = "centre"
    CHOSEN = "chosen"
    """The variant: the phase's first player chooses any square."""


class Deal(StrEnum):
    """Who deals each phase (FD-2): the engine itself, or the people at a real table."""

    SEEDED = "seeded"
    """The engine shuffles with Random(f"{seed}:{deal}") and deals: it knows every card,
    hands included (a simulated table, bots, tests). The default."""
    OBSERVED = "observed"
    """People shuffle and deal; the engine takes the deal as the readers see it (DealDown,
    DealUp, or PlaceFirst naming its card) and each hand card only when it is played. It
    knows hand sizes, never hands."""


class MancheTie(StrEnum):
    """FD-10 is silent on what an extra phase decides; this chooses (a reading, configurable)."""

    CUMULATIVE = "cumulative"
    """The manche's net gain, extra phases included, decides again (default)."""
    EXTRA_ONLY = "extra_only"
    """Only the tied players compete, on what they gain in the extra phases alone."""


@dataclass(frozen=True, slots=True)
class Config:
    """Everything fixed for a whole game. Checked once, here."""

    players: int = PLAYERS
    manches: int = 3
    """FD-2: 3 manches."""
    phases: int = 3
    """FD-2 (configurable): phases per manche; fewer for a shorter game."""
    first: int = 0
    """The seat that starts the game's first phase (the book does not say who)."""
    first_element: FirstElement = FirstElement.CENTRE
    manche_tie: MancheTie = MancheTie.CUMULATIVE
    tie_phase_limit: int | None = None
    """FD-10 plays extra phases until a tie is gone; a number here caps them (for bots and
    simulations): after that many extra phases the tie stands. None: the book (no cap)."""
    deal: Deal = Deal.SEEDED
    """FD-2: SEEDED, the engine deals each phase from the seed (a simulated table); or
    OBSERVED, a real table deals and the engine waits at each phase start (stage DEAL) for
    DealDown(square, card) of the 9 face-down cards in any order, then DealUp(card) for the
    centre (with first_element "chosen": PlaceFirst(seat, square, card)). It then knows
    the hand sizes (4 each) but no hand: a Build, Flip or Discard names the card the readers
    saw, legal if the seat holds a card and that card is not in play this phase yet.
    Everything else is computed as in SEEDED mode."""

    def __post_init__(self) -> None:
        if self.players != PLAYERS:
            raise BadInput(f"Flip Done is for {PLAYERS} players, not {self.players}")
        if self.manches < 1:
            raise BadInput(f"a game has at least 1 manche, not {self.manches}")
        if self.phases < 1:
            raise BadInput(f"a manche has at least 1 phase, not {self.phases}")
        if not 0 <= self.first < self.players:
            raise BadInput(f"first player must be a seat 0..{self.players - 1}, not {self.first}")
        if self.tie_phase_limit is not None and self.tie_phase_limit < 0:
            raise BadInput(
                f"tie_phase_limit must be at least 0 or None, not {self.tie_phase_limit}"
            )

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "flipdone",
            "players": self.players,
            "manches": self.manches,
            "phases": self.phases,
            "first": self.first,
            "first_element": str(self.first_element),
            "manche_tie": str(self.manche_tie),
            "tie_phase_limit": self.tie_phase_limit,
            "deal": str(self.deal),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Config:
        return make_config(
            players=data.get("players", PLAYERS),
            manches=data.get("manches", 3),
            phases=data.get("phases", 3),
            first=data.get("first", 0),
            first_element=data.get("first_element", FirstElement.CENTRE),
            manche_tie=data.get("manche_tie", MancheTie.CUMULATIVE),
            tie_phase_limit=data.get("tie_phase_limit"),
            deal=data.get("deal", Deal.SEEDED),
        )


def make_config(
    *,
    players: int = PLAYERS,
    manches: int = 3,
    phases: int = 3,
    first: int = 0,
    first_element: str = FirstElement.CENTRE,
    manche_tie: str = MancheTie.CUMULATIVE,
    tie_phase_limit: int | None = None,
    deal: str = Deal.SEEDED,
) -> Config:
    """Build a Config from plain values, with a clear error for each bad one."""
    try:
        placement = FirstElement(first_element)
        tie = MancheTie(manche_tie)
        dealing = Deal(deal)
    except ValueError as exc:
        raise BadInput(str(exc)) from exc
    return Config(players, manches, phases, first, placement, tie, tie_phase_limit, dealing)
