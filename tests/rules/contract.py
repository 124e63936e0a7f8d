"""Checks of the engine contract (ARCHITECTURE.md) shared by every engine's tests."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from companion.rules.errors import RuleError


def assert_illegal_refused(
    state: Any,
    candidates: Iterable[Any],
    legal_actions: Callable[[Any], tuple[Any, ...]],
    apply: Callable[[Any, Any], Any],
) -> None:
    """Every candidate not in `legal_actions(state)` raises a RuleError, and none of them
    changes the state (its JSON and the state itself are as before)."""
    legal = set(legal_actions(state))
    snapshot = state.to_json()
    copy = type(state).from_json(snapshot)
    for candidate in candidates:
        if candidate in legal:
            continue
        try:
            apply(state, candidate)
        except RuleError:
            pass
        else:
            raise AssertionError(f"{candidate} is not listed as legal, yet it applied")
    assert state.to_json() == snapshot and state == copy


def play_all(
    apply: Callable[[Any, Any], tuple[Any, tuple[Any, ...]]], state: Any, actions: Iterable[Any]
) -> tuple[Any, list[Any]]:
    """Apply actions in order with an engine's `apply`; the final state and every event."""
    events: list[Any] = []
    for action in actions:
        state, new = apply(state, action)
        events.extend(new)
    return state, events
