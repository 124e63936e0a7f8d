"""A small Swiped bot for simulations and tests: random legal play, honest about its own card.

It claims "5 matches" as soon as its own card (which it knows) says so, and otherwise
makes a random claim only now and then, so random games are long enough to exercise the
manches yet still explore every claim.
"""

from __future__ import annotations

import random

from companion.rules.swiped.actions import Action, ClaimCard, ClaimMatches
from companion.rules.swiped.config import MATCHES_TO_WIN
from companion.rules.swiped.engine import legal_actions
from companion.rules.swiped.state import State, player_view


def random_action(state: State, rng: random.Random, claim_rate: float = 0.02) -> Action:
    """One legal action for whichever seat; raises ValueError when the game is over."""
    legal = legal_actions(state)
    if not legal:
        raise ValueError("the game is over: no legal action")
    for action in legal:
        if (
            isinstance(action, ClaimMatches)
            and player_view(state, action.seat).matches >= MATCHES_TO_WIN
        ):
            return action
    claims = [a for a in legal if isinstance(a, ClaimMatches | ClaimCard)]
    moves = [a for a in legal if not isinstance(a, ClaimMatches | ClaimCard)]
    if claims and (not moves or rng.random() < claim_rate):
        return rng.choice(claims)
    return rng.choice(moves)
