"""The colours, seats and sides (VNP-2, VNP-7) and the frozen config of one game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.rules.errors import BadInput

BOARD_SIZE = 13  # VNP-2: 13 x 13 intersections
BOARD_SIZES = range(5, 41)
"""VNP-2 (configurable): the board sizes a table may set, intersections a side."""
ALL_PLACED_BONUS = -10  # VNP-6


class Colour(StrEnum):
    """VNP-2: the colours in playing order; jaune starts top-left, the others clockwise."""

    JAUNE = "jaune"
    BLEU = "bleu"
    ROUGE = "rouge"
    VERT = "vert"


COLOURS: tuple[Colour, ...] = tuple(Colour)
"""Colours are referred to by their index 0..3 in this tuple inside the state."""


class Crossing(StrEnum):
    """VNP-4: which meetings of pieces at an intersection are allowed."""

    NEXOS = "nexos"
    """Default: no two pieces both go straight through an intersection; otherwise pieces
    may share intersections (end to end, in a T, corner to corner)."""
    STRICT = "strict"
    """Any intersection inside a piece (straight, corner or branch) is that piece's alone."""


class Mode(StrEnum):
    """VNP-7: who plays which colours, and whose scores are added."""

    FOUR = "four"
    """Four players, one colour each, each for themselves."""
    TWO = "two"
    """Player 1 (seat 0) plays bleu and vert, player 2 (seat 1) jaune and rouge."""
    TEAMS = "teams"
    """Four players, one colour each; side 0 is bleu + vert, side 1 jaune + rouge."""


_BLUE_GREEN = (1, 0, 1, 0)
"""Side (or seat) of each colour in the two-sided modes: 0 for bleu and vert (VNP-7)."""


def default_starts(size: int) -> tuple[tuple[int, int], ...]:
    """VNP-2: where the third lines from each corner cross, top-left then clockwise."""
    far = size - 3
    return (2, 2), (far, 2), (far, far), (2, far)


@dataclass(frozen=True, slots=True)
class Config:
    """Everything fixed for a whole game. Checked once, here."""

    size: int = BOARD_SIZE
    """VNP-2 (configurable): intersections on a side; at least 5 (the pieces must fit)."""
    starts: tuple[tuple[int, int], ...] = ()
    """VNP-2: the start intersection (x, y) of each colour in COLOURS order, y downwards;
    empty means the default of `default_starts(size)`."""
    crossing: Crossing = Crossing.NEXOS
    mode: Mode = Mode.FOUR

    def __post_init__(self) -> None:
        if not (isinstance(self.size, int) and self.size in BOARD_SIZES):
            low, high = BOARD_SIZES[0], BOARD_SIZES[-1]
            raise BadInput(f"the board has {low}..{high} intersections a side, not {self.size!r}")
        if not self.starts:
            object.__setattr__(self, "starts", default_starts(self.size))
        starts = tuple(tuple(s) for s in self.starts)
        if len(starts) != len(COLOURS) or any(
            len(s) != 2 or not all(isinstance(c, int) and 0 <= c < self.size for c in s)
            for s in starts
        ):
            raise BadInput(f"one start intersection a colour, on the board: {self.starts!r}")
        object.__setattr__(self, "starts", starts)
        if not isinstance(self.crossing, Crossing) or not isinstance(self.mode, Mode):
            raise BadInput("crossing and mode must be a Crossing and a Mode")

    @property
    def seats(self) -> int:
        return 2 if self.mode is Mode.TWO else len(COLOURS)

    @property
    def sides(self) -> int:
        """How many scores compete: seats, or the two teams (VNP-7)."""
        return len(COLOURS) if self.mode is Mode.FOUR else 2

    def seat_of(self, colour: int) -> int:
        """The seat that plays a colour (by index)."""
        return _BLUE_GREEN[colour] if self.mode is Mode.TWO else colour

    def side_of(self, colour: int) -> int:
        """The side whose score a colour adds to (VNP-7)."""
        return colour if self.mode is Mode.FOUR else _BLUE_GREEN[colour]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "vnp",
            "size": self.size,
            "starts": [list(s) for s in self.starts],
            "crossing": str(self.crossing),
            "mode": str(self.mode),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Config:
        return make_config(
            size=data.get("size", BOARD_SIZE),
            starts=tuple(tuple(s) for s in data.get("starts", ())),
            crossing=data.get("crossing", Crossing.NEXOS),
            mode=data.get("mode", Mode.FOUR),
        )


def make_config(
    *,
    size: int = BOARD_SIZE,
    starts: tuple[tuple[int, ...], ...] = (),
    crossing: str = Crossing.NEXOS,
    mode: str = Mode.FOUR,
) -> Config:
    """Build a Config from plain values, with a clear error for each bad one."""
    try:
        cross = Crossing(crossing)
        how = Mode(mode)
    except ValueError as exc:
        raise BadInput(str(exc)) from exc
    if any(len(s) != 2 for s in starts):
        raise BadInput(f"a start intersection is (x, y), not {starts!r}")
    return Config(size, tuple((s[0], s[1]) for s in starts), cross, how)
