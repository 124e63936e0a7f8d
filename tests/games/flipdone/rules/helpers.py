"""Small helpers to build Flip Done positions and play scripted turns against the engine."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping

from companion.games.flipdone.rules import (
    DECK,
    LINES,
    SQUARES,
    Action,
    Event,
    State,
    apply,
    make_config,
    new_game,
)
from tests.rules.contract import play_all


def game(seed: int = 1, **options: object) -> State:
    return new_game(make_config(**options), seed)[0]  # type: ignore[arg-type]


def play(state: State, *actions: Action) -> tuple[State, list[Event]]:
    """Apply actions in order; return the final state and every event."""
    return play_all(apply, state, actions)


def position(
    state: State,
    faces: Mapping[int, str] = {},
    hands: Mapping[int, Iterable[str]] = {},
    under: Mapping[int, str] = {},
    flipped: Iterable[int] = (),
    owners: Mapping[int, int] = {},
    **public: object,
) -> State:
    """A hand-built phase position: the elements `faces` (square -> face-up card), the
    face-down cards `under` (the rest filled from the deck), `flipped` squares, line
    `owners` (line index -> seat) and `hands` (seats not named hold nothing). Every other
    card waits in the deck, so the position conserves the 52 cards (FD-1)."""
    used = [*faces.values(), *under.values(), *(c for h in hands.values() for c in h)]
    assert len(set(used)) == len(used), "a card is used twice"
    rest = [c for c in DECK if c not in used]
    all_under = []
    for sq in range(1, SQUARES + 1):
        all_under.append(under[sq] if sq in under else rest.pop(0))
    new = dataclasses.replace(
        state,
        faces=tuple(faces.get(sq) for sq in range(1, SQUARES + 1)),
        flipped=tuple(sq in set(flipped) for sq in range(1, SQUARES + 1)),
        owners=tuple(owners.get(i) for i in range(len(LINES))),
        under=tuple(all_under),
        hands=tuple(tuple(sorted(hands.get(s, ()))) for s in range(state.config.players)),
        hand_sizes=tuple(len(tuple(hands.get(s, ()))) for s in range(state.config.players)),
        deck=tuple(rest),
        discards=(),
        played=((),) * state.config.players,
        pending=None,
        **public,  # type: ignore[arg-type]
    )
    assert_conserved(new)
    return new


def cards_in_play(state: State) -> Counter[str]:
    counted: Counter[str] = Counter(state.under)
    counted.update(c for c in state.faces if c is not None)
    counted.update(c for h in state.hands for c in h)
    counted.update(state.deck)
    counted.update(state.discards)
    if state.pending is not None:
        counted[state.pending] += 1
    return counted


def assert_conserved(state: State) -> None:
    """FD-1: the 52 cards, each exactly once; tokens never below zero."""
    assert cards_in_play(state) == Counter(DECK)
    assert len(state.under) == SQUARES
    assert state.hand_sizes == tuple(len(h) for h in state.hands)
    assert all(t >= 0 for t in state.tokens)
