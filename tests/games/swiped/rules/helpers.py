"""Small helpers to set up Swiped positions and play scripted manches."""

from __future__ import annotations

from companion.games.swiped.rules import (
    Action,
    Event,
    Pair,
    Program,
    State,
    Swap,
    apply,
    legal_actions,
    make_config,
    new_game,
    next_swap,
)
from tests.rules.contract import play_all


def game(seed: int = 0, **options: object) -> State:
    return new_game(make_config(**options), seed)[0]  # type: ignore[arg-type]


def play(state: State, *actions: Action) -> tuple[State, list[Event]]:
    """Apply actions in order; return the final state and every event."""
    return play_all(apply, state, actions)


def program(state: State, p0: list[Pair], p1: list[Pair]) -> tuple[State, list[Event]]:
    """Both seats program their three swaps (seat 0 first, interleaved)."""
    actions: list[Action] = []
    for a0, a1 in zip(p0, p1, strict=True):
        actions += [Program(0, *a0), Program(1, *a1)]
    return play(state, *actions)


def execute_all(state: State) -> tuple[State, list[Event]]:
    """Play every programmed swap of the manche, in the order the engine asks for."""
    events: list[Event] = []
    while next_swap(state) is not None:
        swap = next(a for a in legal_actions(state) if isinstance(a, Swap))
        state, new = apply(state, swap)
        events.extend(new)
    return state, events
