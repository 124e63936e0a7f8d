"""Tally's rules as a pure engine: no I/O, no clock, no chance.

A seat drops one of its pebbles into the hat on its turn (the only move); the first seat
to have dropped all its pebbles wins and the game is over. Nothing is hidden.
"""

from __future__ import annotations

from dataclasses import dataclass
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
class Dropped:
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": "pebble", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Won:
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": "game_won", "seat": self.seat}


Event = Dropped | Won


@dataclass(frozen=True, slots=True)
class View:
    """Everything of the state: Tally hides nothing."""

    dropped: tuple[int, ...]
    turn: int
    winner: int | None


@dataclass(frozen=True, slots=True)
class State:
    config: Config
    dropped: tuple[int, ...]
    """Per seat, the pebbles it dropped."""
    turn: int
    winner: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"config": self.config.to_json(), "dropped": list(self.dropped),
                "turn": self.turn, "winner": self.winner}  # fmt: skip

    @classmethod
    def from_json(cls, data: Any) -> State:
        try:
            return cls(Config(**data["config"]), tuple(data["dropped"]), data["turn"],
                       data["winner"])  # fmt: skip
        except (KeyError, TypeError) as exc:
            raise BadInput(f"not a tally state: {exc}") from None


def action_from_json(data: Any) -> Drop:
    if not isinstance(data, dict) or data.get("kind") != "drop":
        raise BadInput("a tally action is a drop")
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadInput("a drop names its seat")
    return Drop(seat)


def new_game(config: Config, seed: int) -> tuple[State, tuple[Event, ...]]:
    """The first state (no chance: `seed` is not used); nothing happens at the start."""
    if config.seats < 2 or not 0 <= config.first < config.seats or config.pebbles < 1:
        raise BadInput(f"tally cannot start with {config}")
    return State(config, (0,) * config.seats, config.first), ()


def is_over(state: State) -> bool:
    return state.winner is not None


def legal_actions(state: State) -> tuple[Drop, ...]:
    return () if is_over(state) else (Drop(state.turn),)


def actors(state: State) -> frozenset[int]:
    return frozenset() if is_over(state) else frozenset({state.turn})


def apply(state: State, action: Drop) -> tuple[State, tuple[Event, ...]]:
    if action not in legal_actions(state):
        raise IllegalAction("TALLY-1", f"{action} is not the seat to play's drop")
    dropped = list(state.dropped)
    dropped[action.seat] += 1
    won = dropped[action.seat] == state.config.pebbles
    turn = (action.seat + 1) % state.config.seats
    after = State(state.config, tuple(dropped), turn, action.seat if won else None)
    events: tuple[Event, ...] = (Dropped(action.seat),)
    return after, (events + (Won(action.seat),) if won else events)


def public_view(state: State) -> View:
    return View(state.dropped, state.turn, state.winner)
