"""Events: what happened. The game has no hidden fact, so all may be shown and logged."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.vnp.rules.config import Colour
from companion.rules.jsonable import TaggedEvent


@dataclass(frozen=True, slots=True)
class Event(TaggedEvent):
    """Base of every Vous ne passerez pas ! event."""


@dataclass(frozen=True, slots=True)
class Placed(Event):
    """VNP-3, VNP-4: a piece went on the board."""

    kind: ClassVar[str] = "placed"
    colour: Colour
    placement: int
    piece: str
    segments: tuple[tuple[tuple[int, int], tuple[int, int]], ...]
    """Its unit segments, each as two intersections (x, y)."""


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """VNP-5: the colour could not place; it never plays again."""

    kind: ClassVar[str] = "passed"
    colour: Colour


@dataclass(frozen=True, slots=True)
class AllPlaced(Event):
    """VNP-6: the colour placed all its pieces: -10 points."""

    kind: ClassVar[str] = "all_placed"
    colour: Colour


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """VNP-6, VNP-7: no colour can place; the lowest side score wins."""

    kind: ClassVar[str] = "game_over"
    scores: tuple[int, ...]
    """Per colour, in COLOURS order."""
    side_scores: tuple[int, ...]
    winners: tuple[int, ...]
    """The sides (seats, or teams) with the lowest score."""
