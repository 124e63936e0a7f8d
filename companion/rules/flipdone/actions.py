"""Actions: what a seat does on its turn (FD-2, FD-3); small frozen values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from companion.rules.errors import BadInput
from companion.rules.jsonable import plain as _plain


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action; `name` is its JSON tag."""

    name: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        return {"action": self.name, **_plain(self)}


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
    try:
        cls = ACTIONS[data["action"]]
        values = {f.name: data[f.name] for f in fields(cls)}
    except (KeyError, TypeError) as exc:
        raise BadInput(f"not a Flip Done action: {data!r}") from exc
    return cls(**values)
