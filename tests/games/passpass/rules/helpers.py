"""Small helpers to set up positions and play scripted turns against the engine."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping

from companion.games.passpass.rules import (
    Action,
    Event,
    State,
    make_config,
    new_game,
)
from companion.games.passpass.rules import (
    apply as engine_apply,
)
from tests.rules.contract import play_all


def game(players: int = 3, rules: str = "ptipasspass", **options: object) -> State:
    return new_game(make_config(rules, players, **options), 0)[0]  # type: ignore[arg-type]


def play(state: State, *actions: Action) -> tuple[State, list[Event]]:
    """Apply actions in order; return the final state and every event."""
    return play_all(engine_apply, state, actions)


def position(
    state: State,
    hats: Mapping[int, tuple[str, ...]] = {},
    hands: Mapping[int, tuple[str, ...]] = {},
    **public: object,
) -> State:
    """A state with some hats and hands set (spots 1-based). Conservation is checked, so a
    test position is always one the real game could reach."""
    all_hats = list(state.hats)
    for spot, contents in hats.items():
        all_hats[spot - 1] = tuple(sorted(contents))
    all_hands = list(state.hands)
    for seat, contents in hands.items():
        all_hands[seat] = tuple(sorted(contents))
    new = dataclasses.replace(
        state,
        hats=tuple(all_hats),
        hands=tuple(all_hands),
        **public,  # type: ignore[arg-type]
    )
    assert_conserved(new)
    return new


def tokens_in_play(state: State) -> Counter[str]:
    counted: Counter[str] = Counter()
    for group in (*state.hats, *state.hands):
        counted.update(group)
    if state.holding is not None:
        counted[state.holding] += 1
    return counted


def assert_conserved(state: State) -> None:
    """PTI-14: each token in exactly one place; all tokens and Challenge tokens in play."""
    n = state.config.players
    assert tokens_in_play(state) == Counter({k: n for k in state.config.rules.tokens})
    assert sum(state.challenge_tokens) == state.config.rules.challenge_tokens * n
    assert all(t >= 0 for t in state.challenge_tokens)
