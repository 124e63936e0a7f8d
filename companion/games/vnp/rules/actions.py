"""Actions: what a colour does on its turn (VNP-3..VNP-5); small frozen values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.games.vnp.rules.config import Colour
from companion.rules.errors import BadInput
from companion.rules.jsonable import TaggedAction, action_from


@dataclass(frozen=True, slots=True)
class Action(TaggedAction):
    """Base of every Vous ne passerez pas ! action."""


@dataclass(frozen=True, slots=True)
class Place(Action):
    """VNP-3, VNP-4: put a piece on the board; `placement` is an id of the board size's
    precomputed placements (see `pieces.geometry`), which fixes piece, orientation, position."""

    name: ClassVar[str] = "place"
    colour: Colour
    placement: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """VNP-5: the colour has no legal placement (the engine refuses it otherwise)."""

    name: ClassVar[str] = "pass"
    colour: Colour


ACTIONS: dict[str, type[Action]] = {cls.name: cls for cls in (Place, Pass)}


def action_from_json(data: Mapping[str, Any]) -> Action:
    try:
        colour = Colour(data["colour"])
    except (KeyError, TypeError, ValueError) as exc:
        raise BadInput(f"not a Vous ne passerez pas ! action: {data!r}") from exc
    return action_from(ACTIONS, {**data, "colour": colour}, "Vous ne passerez pas !")
