"""Actions: what a seat (or the clock, for CloseWindow) does; small frozen values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.games.passpass.rules.config import (
    Challenge,
)
from companion.rules.jsonable import TaggedAction, action_from


@dataclass(frozen=True, slots=True)
class Action(TaggedAction):
    """Base of every PassPass action."""


@dataclass(frozen=True, slots=True)
class Designate(Action):
    """The Magicien holds `token` over hat `spot` (on a real table: drops it in)."""

    name: ClassVar[str] = "designate"
    seat: int
    spot: int
    token: str


@dataclass(frozen=True, slots=True)
class Announce(Action):
    """The Magicien says which token is in hand; in a Masqué turn it may be a lie (PTI-6)."""

    name: ClassVar[str] = "announce"
    seat: int
    token: str


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """ "OK": the seat whose turn it is to speak lets the placement go (PTI-7)."""

    name: ClassVar[str] = "pass"
    seat: int


@dataclass(frozen=True, slots=True)
class CloseWindow(Action):
    """TIMED mode: the window's time ran out with no call, so everyone said OK."""

    name: ClassVar[str] = "close_window"


@dataclass(frozen=True, slots=True)
class Call(Action):
    """A seat calls "Doublon !" or "Menteur !"."""

    name: ClassVar[str] = "call"
    seat: int
    challenge: Challenge

    def __post_init__(self) -> None:  # "doublon" read from JSON is Challenge.DOUBLON
        object.__setattr__(self, "challenge", Challenge(self.challenge))


@dataclass(frozen=True, slots=True)
class RewardDrop(Action):
    """PTI-10: the successful Challenger puts one of their own tokens, shown, into a hat."""

    name: ClassVar[str] = "reward_drop"
    seat: int
    token: str
    spot: int


@dataclass(frozen=True, slots=True)
class RewardToken(Action):
    """PTI-10: the successful Challenger takes one Challenge token from the Magicien."""

    name: ClassVar[str] = "reward_token"
    seat: int


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """PTI-5: before revealing, the Magicien may exchange two contiguous hats, once."""

    name: ClassVar[str] = "swap"
    seat: int
    a: int
    b: int

    def __post_init__(self) -> None:  # a swap has no direction: one spelling per swap
        if self.a > self.b:
            a, b = self.b, self.a
            object.__setattr__(self, "a", a)
            object.__setattr__(self, "b", b)


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """PTI-11: the Magicien lifts the three hats of a line."""

    name: ClassVar[str] = "reveal"
    seat: int
    spots: tuple[int, int, int]

    def __post_init__(self) -> None:  # the same three hats, whatever order they are named in
        object.__setattr__(self, "spots", tuple(sorted(self.spots)))


ACTIONS: dict[str, type[Action]] = {
    cls.name: cls
    for cls in (Designate, Announce, Pass, CloseWindow, Call, RewardDrop, RewardToken, Swap, Reveal)
}


def action_from_json(data: Mapping[str, Any]) -> Action:
    return action_from(ACTIONS, data, "PassPass")
