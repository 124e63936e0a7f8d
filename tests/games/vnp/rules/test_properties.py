"""Properties over seeded random playouts of whole Vous ne passerez pas ! games."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.vnp.bots import largest_first, random_action
from companion.games.vnp.rules import (
    COLOURS,
    GameOver,
    Pass,
    Place,
    State,
    action_from_json,
    actors,
    apply,
    geometry,
    legal_actions,
    make_config,
    new_game,
    public_view,
)
from companion.games.vnp.rules.actions import Action

MAX_ACTIONS = 4 * 24 + 4  # every colour places at most 24 pieces, then passes once


def playout(seed: int, crossing: str, mode: str, greedy: bool) -> tuple[State, list[Action], State]:
    first = state = new_game(make_config(crossing=crossing, mode=mode), 0)[0]
    rng = random.Random(seed)
    bot = largest_first if greedy else random_action
    actions: list[Action] = []
    while not state.over:
        assert len(actions) < MAX_ACTIONS, "the game did not end"
        legal = legal_actions(state)
        assert legal and len(set(legal)) == len(legal)
        assert list(legal) == sorted(legal, key=lambda a: getattr(a, "placement", -1))
        assert actors(state) == frozenset({state.config.seat_of(state.turn)})
        if any(isinstance(a, Pass) for a in legal):
            assert legal == (Pass(COLOURS[state.turn]),)  # VNP-5: pass only when blocked
        action = bot(state, rng)
        assert action in legal
        assert action_from_json(json.loads(json.dumps(action.to_json()))) == action
        state, events = apply(state, action)
        json.dumps([e.to_json() for e in events])
        assert isinstance(events[-1], GameOver) == state.over
        actions.append(action)
    assert legal_actions(state) == () and actors(state) == frozenset()
    return first, actions, state


def check_board(state: State) -> None:
    """No two placed pieces share a segment or cross; strict: no touching an inside."""
    g = geometry(state.config.size)
    pieces = [(c, p) for c, ids in enumerate(state.placed) for p in ids]
    segments = straight = 0
    for _, p in pieces:
        assert not g.segment_masks[p] & segments
        assert not g.straight_masks[p] & straight
        segments |= g.segment_masks[p]
        straight |= g.straight_masks[p]
    if str(state.config.crossing) == "strict":
        for i, (_, p) in enumerate(pieces):
            for _, q in pieces[i + 1 :]:
                assert not g.inner_masks[p] & g.point_masks[q]
                assert not g.point_masks[p] & g.inner_masks[q]
    for c, ids in enumerate(state.placed):
        used = [g.piece_of[p] for p in ids]
        assert len(set(used)) == len(used)  # VNP-1: each piece once
        if ids:
            start = g.point_id(state.config.starts[c])
            assert g.point_masks[ids[0]] >> start & 1  # VNP-3
        reach = 0
        for p in ids:
            if reach:
                assert g.point_masks[p] & reach  # VNP-4
            reach |= g.point_masks[p]


games = st.tuples(
    st.integers(0, 2**32 - 1),
    st.sampled_from(["nexos", "strict"]),
    st.sampled_from(["four", "two", "teams"]),
    st.booleans(),
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_playouts_end_legally_round_trip_and_replay(game: tuple[int, str, str, bool]) -> None:
    first, actions, last = playout(*game)
    check_board(last)
    assert all(isinstance(a, Place) for a in actions[: len(COLOURS)])  # nobody starts blocked
    # each colour ends blocked (a pass) or with every piece placed
    assert all(p or not left for p, left in zip(last.passed, last.left, strict=True))
    assert State.from_json(json.loads(json.dumps(last.to_json()))) == last
    view = public_view(last)
    assert view.over and view.winners and json.dumps(view.to_json())
    state = first
    for action in actions:
        state, _ = apply(state, action)
    assert state == last
    assert public_view(state) == view
