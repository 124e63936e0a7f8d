"""A small Flip Done bot: a uniformly random legal action, for playthroughs and tests."""

from __future__ import annotations

import random

from companion.rules.flipdone.actions import Action
from companion.rules.flipdone.engine import legal_actions
from companion.rules.flipdone.state import State


def random_action(state: State, rng: random.Random) -> Action:
    """One legal action chosen by `rng`; raises ValueError once the game is over."""
    legal = legal_actions(state)
    if not legal:
        raise ValueError("the game is over: no action is legal")
    return rng.choice(legal)
