"""Flip Done under the engine contract (`companion/contract/engine.py`)."""

from __future__ import annotations

from companion.contract.engine import Engine
from companion.games.flipdone.rules.actions import Action, action_from_json
from companion.games.flipdone.rules.config import PLAYERS, Config, Deal, FirstElement, make_config
from companion.games.flipdone.rules.engine import actors, apply, is_over, legal_actions, new_game
from companion.games.flipdone.rules.events import Event
from companion.games.flipdone.rules.state import PublicView, State, public_view

FlipDoneEngine = Engine[Config, State, Action, Event, PublicView]


def sample_config(seed: int) -> Config:
    """Both deals in turn (FD-2): the engine deals on even seeds, the table on odd ones
    (the sample player then deals too: any unseen card, on any square); the first seat
    and how the first element is placed vary with the seed. At most 4 extra phases play
    off a tie (FD-10, `tie_phase_limit`; then the tie stands), so every game ends."""
    k = seed // 2
    return make_config(
        tie_phase_limit=4,
        deal=(Deal.SEEDED, Deal.OBSERVED)[seed % 2],
        first=k % PLAYERS,
        first_element=(FirstElement.CENTRE, FirstElement.CHOSEN)[k % 2],
    )


ENGINE: FlipDoneEngine = Engine(
    name="flipdone",
    new_game=new_game,
    legal_actions=legal_actions,
    apply=apply,
    is_over=is_over,
    actors=actors,
    public_view=public_view,
    hidden=frozenset({"under", "hands", "deck", "discards", "played"}),
    state_from_json=State.from_json,
    action_from_json=action_from_json,
    sample_config=sample_config,
    playout_bound=5_000,
)
"""Flip Done's engine under the contract."""
