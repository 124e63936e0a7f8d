"""Tally's rules as a pure engine: no I/O, no clock, no chance.

A seat drops one of its pebbles into the hat on its turn (TALLY-1), or passes its turn,
once a game (TALLY-2); the first seat to have dropped all its pebbles wins and the game is
over. Nothing is hidden.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.rules.errors import BadInput, IllegalAction

NAME = "tally"
"""The game's name, written once: a copy of this package under another name changes it."""
PEBBLES = 2
"""How many pebbles each seat drops, by the book."""


@dataclass(frozen=True, slots=True)
class Config:
    seats: int
    first: int = 0
    pebbles: int = PEBBLES

    def to_json(self) -> dict[str, Any]:
        return {"seats": self.seats, "first": self.first, "pebbles": self.pebbles}


@dataclass(frozen=True, slots=True)
class Drop:
    """The action: `seat` drops a pebble into the hat."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": "drop", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Pass:
    """The action: `seat` passes its turn (TALLY-2: once a game)."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": "pass", "seat": self.seat}


Action = Drop | Pass


@dataclass(frozen=True, slots=True)
class Dropped:
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": "pebble", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": "passed", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Won:
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": "game_won", "seat": self.seat}


Event = Dropped | Passed | Won


@dataclass(frozen=True, slots=True)
class View:
    """Everything of the state: Tally hides nothing."""

    dropped: tuple[int, ...]
    turn: int
    winner: int | None
    passed: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class State:
    config: Config
    dropped: tuple[int, ...]
    """Per seat, the pebbles it dropped."""
    turn: int
    winner: int | None
    passed: tuple[bool, ...]
    """Per seat, whether it has passed its turn (TALLY-2)."""

    def to_json(self) -> dict[str, Any]:
        return {"config": self.config.to_json(), "dropped": list(self.dropped),
                "turn": self.turn, "winner": self.winner, "passed": list(self.passed)}  # fmt: skip

    @classmethod
    def from_json(cls, data: Any) -> State:
        try:
            return cls(Config(**data["config"]), tuple(data["dropped"]), data["turn"],
                       data["winner"], tuple(data["passed"]))  # fmt: skip
        except (KeyError, TypeError) as exc:
            raise BadInput(f"not a tally state: {exc}") from None


def action_from_json(data: Any) -> Action:
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind not in ("drop", "pass"):
        raise BadInput("a tally action is a drop or a pass")
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadInput(f"a {kind} names its seat")
    return Drop(seat) if kind == "drop" else Pass(seat)


def new_game(config: Config, seed: int) -> tuple[State, tuple[Event, ...]]:
    """The first state (no chance: `seed` is not used); nothing happens at the start."""
    if config.seats < 2 or not 0 <= config.first < config.seats or config.pebbles < 1:
        raise BadInput(f"tally cannot start with {config}")
    return State(config, (0,) * config.seats, config.first, None, (False,) * config.seats), ()


def is_over(state: State) -> bool:
    return state.winner is not None


def legal_actions(state: State) -> tuple[Action, ...]:
    """The seat to play's drop, then its pass while it has not passed (TALLY-2)."""
    if is_over(state):
        return ()
    seat = state.turn
    return (Drop(seat),) if state.passed[seat] else (Drop(seat), Pass(seat))


def actors(state: State) -> frozenset[int]:
    return frozenset() if is_over(state) else frozenset({state.turn})


def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    if action not in legal_actions(state):
        ruling = "TALLY-2" if isinstance(action, Pass) else "TALLY-1"
        raise IllegalAction(ruling, f"{action} is not a move of the seat to play")
    turn = (action.seat + 1) % state.config.seats
    if isinstance(action, Pass):
        passed = tuple(p or seat == action.seat for seat, p in enumerate(state.passed))
        return replace(state, turn=turn, passed=passed), (Passed(action.seat),)
    dropped = list(state.dropped)
    dropped[action.seat] += 1
    won = dropped[action.seat] == state.config.pebbles
    after = replace(state, dropped=tuple(dropped), turn=turn, winner=action.seat if won else None)
    events: tuple[Event, ...] = (Dropped(action.seat),)
    return after, (events + (Won(action.seat),) if won else events)


def public_view(state: State) -> View:
    return View(state.dropped, state.turn, state.winner, state.passed)
