"""Actions: what a seat does; small frozen values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.games.swiped.rules.config import pair
from companion.rules.jsonable import TaggedAction, action_from


@dataclass(frozen=True, slots=True)
class Action(TaggedAction):
    """Base of every Swiped action."""


@dataclass(frozen=True, slots=True)
class Program(Action):
    """SW-3: a seat secretly adds the swap of colours a and b to its program (3 in order)."""

    name: ClassVar[str] = "program"
    seat: int
    a: str
    b: str

    def __post_init__(self) -> None:  # a swap has no direction: one spelling per swap
        a, b = pair(self.a, self.b)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """SW-4: the seat whose swap is next exchanges the big cubes of colours a and b."""

    name: ClassVar[str] = "swap"
    seat: int
    a: str
    b: str

    def __post_init__(self) -> None:
        a, b = pair(self.a, self.b)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)


@dataclass(frozen=True, slots=True)
class SkipSwap(Action):
    """SW-4, OBSERVED deal: the seat whose swap is next says its pair is the one just
    applied in this phase, so it is not applied again. (SEEDED: the engine skips it.)"""

    name: ClassVar[str] = "skip_swap"
    seat: int


@dataclass(frozen=True, slots=True)
class DrawLayout(Action):
    """SW-2, OBSERVED deal: the card drawn face up, read on the pad; the cubes go as it shows."""

    name: ClassVar[str] = "draw_layout"
    card: int


@dataclass(frozen=True, slots=True)
class DrawTarget(Action):
    """SW-2, OBSERVED deal: `seat` taps its secret target card on the pad."""

    name: ClassVar[str] = "draw_target"
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class ClaimMatches(Action):
    """SW-5: "5 matches": at least 5 big cubes stand where the seat's own card puts them."""

    name: ClassVar[str] = "claim_matches"
    seat: int


@dataclass(frozen=True, slots=True)
class ClaimCard(Action):
    """SW-5: "I know your card": the seat names a card (1..deck size) of the deck."""

    name: ClassVar[str] = "claim_card"
    seat: int
    card: int


ACTIONS: dict[str, type[Action]] = {
    cls.name: cls
    for cls in (Program, Swap, SkipSwap, DrawLayout, DrawTarget, ClaimMatches, ClaimCard)
}


def action_from_json(data: Mapping[str, Any]) -> Action:
    return action_from(ACTIONS, data, "Swiped")
