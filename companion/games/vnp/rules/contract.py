"""Vous ne passerez pas ! under the engine contract (`companion/contract/engine.py`)."""

from __future__ import annotations

from companion.contract.engine import Engine
from companion.games.vnp.rules.actions import Action, action_from_json
from companion.games.vnp.rules.config import Config, Crossing, Mode, make_config
from companion.games.vnp.rules.engine import actors, apply, is_over, legal_actions, new_game
from companion.games.vnp.rules.events import Event
from companion.games.vnp.rules.state import PublicView, State, public_view

VnpEngine = Engine[Config, State, Action, Event, PublicView]

MODES = tuple(Mode)
CROSSINGS = tuple(Crossing)


def sample_config(seed: int) -> Config:
    """Every mode (VNP-7) in turn, then every crossing rule (VNP-4), on the book's board."""
    return make_config(
        mode=MODES[seed % len(MODES)],
        crossing=CROSSINGS[seed // len(MODES) % len(CROSSINGS)],
    )


ENGINE: VnpEngine = Engine(
    name="vnp",
    new_game=new_game,
    legal_actions=legal_actions,
    apply=apply,
    is_over=is_over,
    actors=actors,
    public_view=public_view,
    hidden=frozenset(),  # nothing is hidden
    state_from_json=State.from_json,
    action_from_json=action_from_json,
    sample_config=sample_config,
    playout_bound=200,  # each colour places at most its 24 pieces, then passes once at most
)
"""Vous ne passerez pas !'s engine under the contract."""
