"""Flip Done bots for self-play (companion/games/flipdone/lab.py), the simulated table and tests.

- `random`: a uniformly random legal action.
- `heuristic`: the play with the best expected token balance for itself against the
  others, from public facts and its own hand only: a build's outcome is known; a flip's
  depends on the face-down card, so it is weighed over the colours of the cards it has not
  seen (FD-1: only the colour matters). Builds come before flips and flips before
  discards when they are worth the same.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from companion.games.flipdone.rules.actions import Action, Build, Discard, Flip
from companion.games.flipdone.rules.config import DECK, is_red
from companion.games.flipdone.rules.engine import apply, legal_actions
from companion.games.flipdone.rules.state import State

Bot = Callable[[State], Action]
"""A bot: the seat to act is `state.turn`; it reads only public facts and that seat's hand."""

BOT_KINDS = ("heuristic", "random")


def random_action(state: State, rng: random.Random) -> Action:
    """One legal action chosen by `rng`; raises ValueError once the game is over."""
    legal = legal_actions(state)
    if not legal:
        raise ValueError("the game is over: no action is legal")
    return rng.choice(legal)


def _balance(before: State, after: State, seat: int) -> float:
    """What `seat` gained against the mean of the others."""
    gains = [a - b for a, b in zip(after.tokens, before.tokens, strict=True)]
    others = [g for s, g in enumerate(gains) if s != seat]
    return gains[seat] - sum(others) / len(others)


def _unknown(state: State, seat: int) -> list[str]:
    """The cards `seat` has not seen this phase (the others' hands and discards, the deck,
    the face-down cards): all but the face-up cards, the cards flipped face down (they were
    face up) and its own hand and plays."""
    visible = {c for c in state.faces if c is not None}
    visible |= {c for sq, c in enumerate(state.under) if state.flipped[sq] and c is not None}
    visible |= set(state.hands[seat]) | set(state.played[seat])
    return [c for c in DECK if c not in visible]


def _flip_value(state: State, action: Flip) -> float:
    """A flip's expected balance over the colour of the face-down card, weighed by the
    red and black cards the seat has not seen."""
    seat = action.seat
    hidden = [c for c in _unknown(state, seat) if c != action.card]
    reds = sum(is_red(c) for c in hidden)
    blacks = len(hidden) - reds
    if not hidden:
        return 0.0
    total = 0.0
    for red, weight in ((True, reds), (False, blacks)):
        if not weight:
            continue
        stand_in = next(c for c in hidden if is_red(c) is red)
        under = list(state.under)
        under[action.square - 1] = stand_in
        guess = dataclasses.replace(state, under=tuple(under))
        after, _ = apply(guess, action)
        total += weight * _balance(state, after, seat)
    return total / len(hidden)


def heuristic_action(state: State, rng: random.Random) -> Action:
    legal = legal_actions(state)
    if not legal:
        raise ValueError("the game is over: no action is legal")
    seat = state.turn
    best: list[tuple[float, int, Action]] = []
    tried: dict[tuple[str, bool, int], float] = {}
    for action in legal:
        if isinstance(action, Build):
            key = ("build", is_red(action.card), action.square)
            rank = 2
        elif isinstance(action, Flip):
            key = ("flip", False, action.square)
            rank = 1
        elif isinstance(action, Discard):
            key = ("discard", False, 0)
            rank = 0
        else:  # PlaceFirst: anywhere is as good before anything is built
            best.append((0.0, 0, action))
            continue
        if key not in tried:
            if isinstance(action, Flip):
                tried[key] = _flip_value(state, action)
            else:
                after, _ = apply(state, action)
                tried[key] = _balance(state, after, seat)
        best.append((tried[key], rank, action))
    top = max((value, rank) for value, rank, _ in best)
    choices = [a for v, r, a in best if (v, r) == top]
    return rng.choice(choices)


def make_bot(kind: str, rng: random.Random) -> Bot:
    if kind == "random":
        return lambda state: random_action(state, rng)
    if kind == "heuristic":
        return lambda state: heuristic_action(state, rng)
    raise ValueError(f"unknown Flip Done bot {kind!r}; bots are {', '.join(BOT_KINDS)}")


# ---------------------------------------------------------------------------- self-play
