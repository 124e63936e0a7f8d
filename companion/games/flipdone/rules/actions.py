"""Actions: what a seat does on its turn (FD-2, FD-3), and, when a real table deals
(Config.deal OBSERVED), the deal as the readers see it; small frozen values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.rules.jsonable import TaggedAction, action_from


@dataclass(frozen=True, slots=True)
class Action(TaggedAction):
    """Base of every Flip Done action."""


@dataclass(frozen=True, slots=True)
class DealDown(Action):
    """FD-2, OBSERVED deal: the readers saw `card` land face down on `square` (the 9
    squares in any order, each once). No seat: a deal is nobody's turn."""

    name: ClassVar[str] = "deal_down"
    square: int
    card: str


@dataclass(frozen=True, slots=True)
class DealUp(Action):
    """FD-2, OBSERVED deal: the readers saw `card` land face up on the centre's face-down
    card, the phase's first element; play begins."""

    name: ClassVar[str] = "deal_up"
    card: str


@dataclass(frozen=True, slots=True)
class PlaceFirst(Action):
    """FD-2 (variant): the phase's first player puts the face-up card on `square`. With an
    OBSERVED deal the engine has not seen that card yet: `card` names it (None when the
    engine dealt it, SEEDED)."""

    name: ClassVar[str] = "place_first"
    seat: int
    square: int
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Build(Action):
    """FD-3: put `card` face up on the face-down card of `square`, which becomes an element."""

    name: ClassVar[str] = "build"
    seat: int
    card: str
    square: int


@dataclass(frozen=True, slots=True)
class Flip(Action):
    """FD-3: discard `card` face down, then turn over the element on `square`."""

    name: ClassVar[str] = "flip"
    seat: int
    card: str
    square: int


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """FD-3: drop `card`, nothing else."""

    name: ClassVar[str] = "discard"
    seat: int
    card: str


ACTIONS: dict[str, type[Action]] = {
    cls.name: cls for cls in (DealDown, DealUp, PlaceFirst, Build, Flip, Discard)
}


def action_from_json(data: Mapping[str, Any]) -> Action:
    if isinstance(data, Mapping) and data.get("action") == PlaceFirst.name:
        data = {"card": None, **data}  # written before PlaceFirst could name its card
    return action_from(ACTIONS, data, "Flip Done")
