"""Small Vous ne passerez pas ! bots, uniformly random and greedy largest piece first, for
self-play (companion/games/vnp/lab.py), the simulated table and tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from companion.games.vnp.rules.actions import Action, Place
from companion.games.vnp.rules.config import Config
from companion.games.vnp.rules.engine import apply, is_over, legal_actions, new_game
from companion.games.vnp.rules.pieces import PIECES, geometry
from companion.games.vnp.rules.state import State


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


# ------------------------------------------------------------------------ self-play

Bot = Callable[[State, random.Random], Action]

BOTS: dict[str, Bot] = {"largest": largest_first, "random": random_action}
"""The bot kinds, by the names `companion selfplay vnp --bots` and the sim use."""


def make_bot(kind: str) -> Bot:
    """The bot of a kind; ValueError naming the kinds for an unknown one."""
    if kind not in BOTS:
        raise ValueError(f"unknown Vous ne passerez pas ! bot {kind!r}; bots are {', '.join(BOTS)}")
    return BOTS[kind]


def play_game(config: Config, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> State:
    """One whole game: the bot of the seat playing each colour chooses its action."""
    state, _ = new_game(config, 0)
    while not is_over(state):
        seat = config.seat_of(state.turn)
        state, _ = apply(state, bots[seat](state, rngs[seat]))
    return state
