"""Properties over seeded random playthroughs of Swiped with every configurable option."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.swiped.bots import random_action
from companion.games.swiped.rules import (
    ACTIONS,
    COLOURS,
    PAIRS,
    Action,
    ClaimChecked,
    Config,
    Event,
    Phase,
    PublicView,
    State,
    action_from_json,
    actors,
    apply,
    legal_actions,
    make_config,
    new_game,
    player_view,
    public_view,
)
from tests.rules.contract import assert_illegal_refused

MAX_ACTIONS = 5_000


@st.composite
def setups(draw: st.DrawFn) -> tuple[Config, int]:
    config = make_config(
        deck_size=draw(st.sampled_from([3, 9, 24])),
        deck_seed=draw(st.integers(0, 3)),
        first=draw(st.integers(0, 1)),
        false_claim=draw(st.sampled_from(["loses", "refused"])),
        manche_limit=draw(st.integers(1, 4)),
        claims_per_gap=draw(st.sampled_from([1, 2, None])),
        claim_before_first_swap=draw(st.booleans()),
        deal=draw(st.sampled_from(["seeded", "observed"])),
    )
    return config, draw(st.integers(0, 2**32 - 1))


def playthrough(
    config: Config, seed: int
) -> Iterator[tuple[State, Action, State, tuple[Event, ...]]]:
    rng = random.Random(seed)
    state, _ = new_game(config, seed)
    for _ in range(MAX_ACTIONS):
        if state.phase is Phase.OVER:
            return
        action = random_action(state, rng, claim_rate=0.03)
        after, events = apply(state, action)
        yield state, action, after, events
        state = after
    raise AssertionError(f"not over after {MAX_ACTIONS} actions")


PROPERTY = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(setups())
def test_games_with_a_manche_limit_end_won_or_drawn(setup: tuple[Config, int]) -> None:
    final = None
    for _, _, after, _ in playthrough(*setup):
        final = after
        limit = after.config.manche_limit
        assert limit is not None and after.manche <= limit
    assert final is not None and final.phase is Phase.OVER
    assert (final.winner is None) == final.drawn


@PROPERTY
@given(setups())
def test_the_grid_is_always_a_permutation_of_the_nine_colours(setup: tuple[Config, int]) -> None:
    for _, _, after, _ in playthrough(*setup):
        assert sorted(after.grid) == sorted(COLOURS) or after.phase is Phase.DRAW


@PROPERTY
@given(setups())
def test_legal_actions_all_apply_and_actors_are_their_seats(setup: tuple[Config, int]) -> None:
    for before, action, after, _ in playthrough(*setup):
        assert action in legal_actions(before)
        legal = legal_actions(after)
        assert legal == legal_actions(after)  # deterministic
        if after.phase is Phase.OVER:
            assert legal == () and actors(after) == frozenset()
            continue
        assert legal
        seats = {a.seat for a in legal if hasattr(a, "seat")}  # DrawLayout: anyone draws
        assert actors(after) == seats
        for other in legal[:: max(1, len(legal) // 6)]:
            apply(after, other)  # raises if the engine disagrees with itself


@PROPERTY
@given(setups(), st.integers(0, 2**32 - 1))
def test_an_action_that_is_not_legal_raises_and_changes_nothing(
    setup: tuple[Config, int], seed: int
) -> None:
    rnd = random.Random(seed)
    for _, _, after, _ in playthrough(*setup):
        candidates = random_candidates(after, rnd, 4)
        assert_illegal_refused(after, candidates, legal_actions, apply)


def random_candidates(state: State, rnd: random.Random, count: int) -> list[Action]:
    """Well-formed actions of every kind, many of them illegal now."""
    out = []
    for _ in range(count):
        cls = rnd.choice(list(ACTIONS.values()))
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name == "seat":
                values[f.name] = rnd.randrange(2)
            elif f.name in ("a", "b"):
                values[f.name] = rnd.choice(COLOURS)
            elif f.name == "card":
                values[f.name] = rnd.randint(1, state.config.deck_size)
        out.append(action_from_json({"action": cls.name, **values}))
    return out


@PROPERTY
@given(setups())
def test_state_actions_events_and_views_round_trip_through_json(setup: tuple[Config, int]) -> None:
    config, seed = setup
    replayed, _ = new_game(config, seed)
    for i, (_, action, after, events) in enumerate(playthrough(*setup)):
        assert action_from_json(json.loads(json.dumps(action.to_json()))) == action
        json.dumps([e.to_json() for e in events])
        json.dumps(public_view(after).to_json())
        json.dumps([player_view(after, seat).to_json() for seat in (0, 1)])
        replayed, _ = apply(replayed, action)
        assert replayed == after  # replay gives the same state
        if i % 5 == 0:
            again = State.from_json(json.loads(json.dumps(after.to_json())))
            assert again == after
            assert legal_actions(again) == legal_actions(after)


HIDDEN = {"targets", "secret_programs"}


def test_the_public_view_type_has_no_field_for_a_hidden_fact() -> None:
    public_fields = {f.name for f in dataclasses.fields(PublicView)}
    state_fields = {f.name for f in dataclasses.fields(State)}
    assert state_fields >= HIDDEN
    assert not public_fields & HIDDEN


@PROPERTY
@given(setups(), st.integers(0, 2**32 - 1))
def test_states_differing_only_in_hidden_facts_have_equal_public_views(
    setup: tuple[Config, int], seed: int
) -> None:
    rnd = random.Random(seed)
    for _, _, after, events in playthrough(*setup):
        size = after.config.deck_size
        twin = dataclasses.replace(
            after,
            targets=tuple(
                None if old is None else new
                for old, new in zip(after.targets, rnd.sample(range(1, size + 1), 2), strict=True)
            ),
            secret_programs=tuple(
                tuple(rnd.choice(PAIRS) for _ in prog) for prog in after.secret_programs
            ),
        )
        assert public_view(twin) == public_view(after)
        for e in events:  # a verdict names no card (SW-5)
            if isinstance(e, ClaimChecked):
                assert set(e.to_json()) == {"kind", "seat", "claim", "correct"}
