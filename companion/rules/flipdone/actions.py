"""Actions: what a seat does on its turn (FD-2, FD-3); small frozen values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.rules.jsonable import TaggedAction, action_from


@dataclass(frozen=True, slots=True)
class Action(TaggedAction):
    """Base of every Flip Done action."""


@dataclass(frozen=True, slots=True)
class PlaceFirst(Action):
    """FD-2 (variant): the phase's first player puts the face-up card on `square`."""

    name: ClassVar[str] = "place_first"
    seat: int
    square: int


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


ACTIONS: dict[str, type[Action]] = {cls.name: cls for cls in (PlaceFirst, Build, Flip, Discard)}


def action_from_json(data: Mapping[str, Any]) -> Action:
    return action_from(ACTIONS, data, "Flip Done")
