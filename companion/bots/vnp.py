"""Small Vous ne passerez pas ! bots: uniformly random, and greedy largest piece first."""

from __future__ import annotations

import random

from companion.rules.vnp.actions import Action, Place
from companion.rules.vnp.engine import legal_actions
from companion.rules.vnp.pieces import PIECES, geometry
from companion.rules.vnp.state import State


def random_action(state: State, rng: random.Random) -> Action:
    """One legal action chosen by `rng`; raises ValueError once the game is over."""
    legal = legal_actions(state)
    if not legal:
        raise ValueError("the game is over: no action is legal")
    return rng.choice(legal)


def largest_first(state: State, rng: random.Random) -> Action:
    """Greedy: a placement of one of the largest pieces it can place (VNP-6 counts the
    segments left), chosen by `rng` among those; a Pass when that is all there is."""
    legal = legal_actions(state)
    if not legal:
        raise ValueError("the game is over: no action is legal")
    piece_of = geometry(state.config.size).piece_of

    def size(action: Action) -> int:
        return PIECES[piece_of[action.placement]].size if isinstance(action, Place) else 0

    best = max(size(a) for a in legal)
    return rng.choice([a for a in legal if size(a) == best])
