"""Swiped under the engine contract (`companion/games/engine.py`), with its sample player."""

from __future__ import annotations

import random

from companion.games.engine import Engine
from companion.games.swiped.rules.actions import (
    Action,
    ClaimCard,
    ClaimMatches,
    action_from_json,
)
from companion.games.swiped.rules.config import (
    MATCHES_TO_WIN,
    PLAYERS,
    Config,
    Deal,
    make_config,
)
from companion.games.swiped.rules.engine import actors, apply, is_over, legal_actions, new_game
from companion.games.swiped.rules.events import Event
from companion.games.swiped.rules.state import PublicView, State, player_view, public_view

SwipedEngine = Engine[Config, State, Action, Event, PublicView]


def random_action(state: State, rng: random.Random, claim_rate: float = 0.02) -> Action:
    """One legal action for whichever seat; raises ValueError when the game is over.

    It claims "5 matches" as soon as a seat's own card says so, and otherwise makes a
    random claim only now and then, so random games are long enough to exercise the
    manches yet still explore every claim."""
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


def sample_config(seed: int) -> Config:
    """Both deals in turn (SW-2): the engine draws on even seeds, the table on odd ones (the
    sample player then draws any card); the first seat varies with the seed. After 8
    manches the game is a draw (SW-6's `manche_limit`), so every game ends."""
    return make_config(
        manche_limit=8,
        deal=(Deal.SEEDED, Deal.OBSERVED)[seed % 2],
        first=seed // 2 % PLAYERS,
    )


def _sample_action(state: State, rng: random.Random) -> Action:
    return random_action(state, rng)


ENGINE: SwipedEngine = Engine(
    name="swiped",
    new_game=new_game,
    legal_actions=legal_actions,
    apply=apply,
    is_over=is_over,
    actors=actors,
    public_view=public_view,
    hidden=frozenset({"targets", "secret_programs", "_board"}),  # the board holds both
    state_from_json=State.from_json,
    action_from_json=action_from_json,
    sample_config=sample_config,
    playout_bound=5_000,
    sample_policy=_sample_action,
)
"""Swiped's engine under the contract."""
