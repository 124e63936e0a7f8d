"""Events: what happened. They carry only public facts, so they may be shown and logged."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.passpass.rules.config import (
    Challenge,
    Hand,
    Phase,
)
from companion.rules.jsonable import TaggedEvent


@dataclass(frozen=True, slots=True)
class Event(TaggedEvent):
    """Base of every PassPass event: public facts only."""


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn"
    seat: int
    tour: int
    masque: bool
    phase: Phase
    """PLACE when the Magicien holds a token, REVEAL otherwise (PTI-5)."""


@dataclass(frozen=True, slots=True)
class Designated(Event):
    kind: ClassVar[str] = "designate"
    seat: int
    spot: int
    shown: str | None
    """The token, in a Visible turn where it is shown (PTI-4); None when masked."""


@dataclass(frozen=True, slots=True)
class Announced(Event):
    kind: ClassVar[str] = "announce"
    seat: int
    token: str


@dataclass(frozen=True, slots=True)
class Passed(Event):
    kind: ClassVar[str] = "ok"
    seat: int


@dataclass(frozen=True, slots=True)
class Placed(Event):
    """Nobody challenged: the token disappeared into the hat."""

    kind: ClassVar[str] = "place"
    seat: int
    spot: int


@dataclass(frozen=True, slots=True)
class Verdict(Event):
    """A challenge settled, with exactly the facts the book makes public (PTI-8/9, PHI-3/4)."""

    kind: ClassVar[str] = "verdict"
    challenge: Challenge
    seat: int
    magician: int
    success: bool
    spot: int
    hat: Hand | None
    """Doublon: the lifted hat's contents (empty on a failure). None for Menteur."""
    shown: str | None
    """Menteur: the token the Magicien shows. None for Doublon (it goes back unseen)."""


@dataclass(frozen=True, slots=True)
class Rewarded(Event):
    kind: ClassVar[str] = "reward"
    seat: int
    choice: str
    """"drop", "token", or "none" when neither is possible (PTI-10)."""
    token: str | None = None
    spot: int | None = None


@dataclass(frozen=True, slots=True)
class Swapped(Event):
    kind: ClassVar[str] = "swap"
    seat: int
    spots: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    kind: ClassVar[str] = "reveal"
    seat: int
    spots: tuple[int, int, int]
    success: bool
    hats: tuple[Hand, Hand, Hand]
    """What the three lifted hats held, in the order of `spots`."""
    pick: tuple[str, str, str] | None
    """The best pick of one token per hat (PTI-11), None when there is no winning pick."""


@dataclass(frozen=True, slots=True)
class MancheWon(Event):
    kind: ClassVar[str] = "manche_won"
    seat: int
    victories: int


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    kind: ClassVar[str] = "game_won"
    seat: int


DEAD_MANCHE = "no three hats can ever win"
"""A `MancheVoid` reason (PTI-15): no hat line can be won with the tokens left."""
TURN_LIMIT = "turn limit of {limit} reached"
"""A `MancheVoid` reason: the configured turn limit, ``.format(limit=...)``."""


@dataclass(frozen=True, slots=True)
class MancheVoid(Event):
    """PTI-15: nobody can win this manche any more (or the configured turn limit is hit);
    ``reason`` is `DEAD_MANCHE` or `TURN_LIMIT` filled in."""

    kind: ClassVar[str] = "manche_void"
    reason: str


@dataclass(frozen=True, slots=True)
class MancheStarted(Event):
    kind: ClassVar[str] = "manche_start"
    manche: int
    starter: int
