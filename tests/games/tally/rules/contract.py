"""Tally under the engine contract (`companion/contract/engine.py`)."""

from __future__ import annotations

from companion.contract.engine import Engine

from . import engine as rules

TallyEngine = Engine[rules.Config, rules.State, rules.Action, rules.Event, rules.View]


def sample_config(seed: int) -> rules.Config:
    """Every number of seats, first seat and number of pebbles in turn."""
    seats = 2 + seed % 3
    return rules.Config(seats, first=seed % seats, pebbles=1 + seed % 3)


ENGINE: TallyEngine = Engine(
    name=rules.NAME,
    new_game=rules.new_game,
    legal_actions=rules.legal_actions,
    apply=rules.apply,
    is_over=rules.is_over,
    actors=rules.actors,
    public_view=rules.public_view,
    hidden=frozenset(),  # nothing is hidden
    state_from_json=rules.State.from_json,
    action_from_json=rules.action_from_json,
    sample_config=sample_config,
    playout_bound=4 * 3 + 4,  # four seats of three pebbles at most, each passing once
)
