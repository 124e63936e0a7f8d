"""Properties over seeded random playthroughs of whole Flip Done games."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.flipdone.bots import random_action
from companion.games.flipdone.rules import (
    ACTIONS,
    DECK,
    HAND_SIZE,
    Action,
    Deal,
    Event,
    GameOver,
    PublicView,
    Stage,
    State,
    action_from_json,
    actors,
    apply,
    legal_actions,
    make_config,
    new_game,
    phase_over,
    public_view,
    unseen,
)
from tests.games.flipdone.rules.helpers import assert_conserved
from tests.rules.contract import assert_illegal_refused

MAX_ACTIONS = 5_000


@st.composite
def setups(draw: st.DrawFn) -> tuple[int, int, int, str, str, int, str]:
    seed = draw(st.integers(0, 2**32 - 1))
    phases = draw(st.integers(1, 3))
    first = draw(st.integers(0, 2))
    first_element = draw(st.sampled_from(["centre", "chosen"]))
    manche_tie = draw(st.sampled_from(["cumulative", "extra_only"]))
    bot_seed = draw(st.integers(0, 2**32 - 1))
    deal = draw(st.sampled_from(["seeded", "observed"]))  # FD-2: who deals
    return seed, phases, first, first_element, manche_tie, bot_seed, deal


def playthrough(
    seed: int,
    phases: int,
    first: int,
    first_element: str,
    manche_tie: str,
    bot_seed: int,
    deal: str = "seeded",
) -> Iterator[tuple[State, Action, State, tuple[Event, ...]]]:
    """A whole game by the random bot; with an OBSERVED deal it also deals at random."""
    config = make_config(
        phases=phases, first=first, first_element=first_element, manche_tie=manche_tie, deal=deal
    )
    rng = random.Random(bot_seed)
    state, _ = new_game(config, seed)
    for _ in range(MAX_ACTIONS):
        if state.stage is Stage.OVER:
            return
        action = random_action(state, rng)
        after, events = apply(state, action)
        yield state, action, after, events
        state = after
    raise AssertionError(f"the game did not end within {MAX_ACTIONS} actions")


PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(setups())
def test_the_game_always_ends_with_a_game_over(setup):
    steps = list(playthrough(*setup))
    final = steps[-1][2]
    assert final.stage is Stage.OVER and final.winners
    assert any(isinstance(e, GameOver) for e in steps[-1][3])
    best = max(final.tokens)
    assert final.winners == (final.tokens.index(best),)  # no cap: the tie is gone (FD-10)


@PROPERTY
@given(setups())
def test_conservation_and_tokens_never_negative_at_every_step(setup):
    for _, _, after, _ in playthrough(*setup):
        if after.config.deal is Deal.SEEDED:
            assert_conserved(after)  # FD-1: 52 cards, each exactly once
        else:
            assert_observed_conserved(after)
        if after.stage is not Stage.OVER:
            assert not phase_over(after)  # FD-9: a finished phase is never left open
            assert after.hand_sizes[after.turn]  # FD-3: the seat to play holds a card


@PROPERTY
@given(setups())
def test_some_action_is_legal_until_the_end_and_every_legal_action_applies(setup):
    for i, (before, action, after, _) in enumerate(playthrough(*setup)):
        assert action in legal_actions(before)
        assert bool(legal_actions(after)) == (after.stage is not Stage.OVER)
        assert bool(actors(after)) == (after.stage is not Stage.OVER)
        if i % 3 == 0:
            legal = legal_actions(after)
            if after.config.deal is Deal.OBSERVED:  # hundreds: any card not seen may come
                legal = tuple(random.Random(i).sample(legal, min(30, len(legal))))
            for other in legal:
                apply(after, other)  # raises if the engine disagrees with itself


def random_candidates(state: State, rnd: random.Random, count: int) -> list[Action]:
    """Well-formed actions of every kind, most of them illegal now."""
    out = []
    for _ in range(count):
        cls = rnd.choice(list(ACTIONS.values()))
        values: dict[str, object] = {}
        for f in dataclasses.fields(cls):
            if f.name == "seat":
                values[f.name] = rnd.randrange(3)
            elif f.name == "square":
                values[f.name] = rnd.randint(1, 9)
            elif f.name == "card":
                values[f.name] = rnd.choice(DECK)
        out.append(action_from_json({"action": cls.name, **values}))
    return out


@PROPERTY
@given(setups(), st.integers(0, 2**32 - 1))
def test_an_action_that_is_not_legal_raises_and_changes_nothing(setup, seed):
    rnd = random.Random(seed)
    for _, _, after, _ in playthrough(*setup):
        candidates = random_candidates(after, rnd, 3)
        assert_illegal_refused(after, candidates, legal_actions, apply)


@PROPERTY
@given(setups())
def test_state_actions_and_events_round_trip_through_json(setup):
    for i, (_, action, after, events) in enumerate(playthrough(*setup)):
        assert action_from_json(json.loads(json.dumps(action.to_json()))) == action
        for e in events:
            assert json.loads(json.dumps(e.to_json()))["kind"] == e.kind
        if i % 5 == 0:
            again = State.from_json(json.loads(json.dumps(after.to_json())))
            assert again == after
            assert legal_actions(again) == legal_actions(after)


@PROPERTY
@given(setups())
def test_replaying_the_actions_gives_the_same_state(setup):
    steps = list(playthrough(*setup))
    state = steps[0][0]
    again, _ = new_game(state.config, state.seed)
    assert again == state
    for _, action, after, _ in steps:
        again, _ = apply(again, action)
        assert again == after


def assert_observed_conserved(state: State) -> None:
    """FD-1, FD-2 with an OBSERVED deal: no card seen twice, 12 hand cards a phase, each
    seat's count its 4 less what it played; tokens never below zero."""
    shown = [c for c in (*state.under, *state.faces, *state.discards) if c is not None]
    assert len(shown) == len(set(shown))
    assert state.hands == ((), (), ()) and state.deck == () and state.pending is None
    assert all(k + len(p) == HAND_SIZE for k, p in zip(state.hand_sizes, state.played, strict=True))
    assert all(t >= 0 for t in state.tokens)


HIDDEN = {"under", "hands", "deck", "discards", "played"}


def test_the_public_view_type_has_no_field_for_a_hidden_fact():
    public_fields = {f.name for f in dataclasses.fields(PublicView)}
    state_fields = {f.name for f in dataclasses.fields(State)}
    assert state_fields >= HIDDEN
    assert not public_fields & HIDDEN


def hidden_twin(state: State, rnd: random.Random) -> State:
    """The same position with the hidden cards dealt differently (same counts)."""
    if state.config.deal is Deal.OBSERVED:  # some cards the engine has not seen instead
        other = list(unseen(state))
        rnd.shuffle(other)
        it = iter(other + [c for c in (*state.under, *state.discards) if c is not None])
        under = tuple(None if c is None else next(it) for c in state.under)
        discards = tuple(next(it) for _ in state.discards)
        return dataclasses.replace(state, under=under, discards=discards, played=((),) * 3)
    hidden = [*state.under, *(c for h in state.hands for c in h), *state.deck, *state.discards]
    rnd.shuffle(hidden)
    it = iter(hidden)
    under = tuple(next(it) for _ in state.under)
    hands = tuple(tuple(sorted(next(it) for _ in h)) for h in state.hands)
    deck = tuple(next(it) for _ in state.deck)
    discards = tuple(next(it) for _ in state.discards)
    played = tuple(tuple(rnd.sample(hidden, len(p))) for p in state.played)
    return dataclasses.replace(
        state, under=under, hands=hands, deck=deck, discards=discards, played=played
    )


@PROPERTY
@given(setups(), st.integers(0, 2**32 - 1))
def test_states_differing_only_in_hidden_facts_have_equal_public_views(setup, seed):
    rnd = random.Random(seed)
    for _, _, after, _ in playthrough(*setup):
        twin = hidden_twin(after, rnd)
        if after.config.deal is Deal.SEEDED:
            assert_conserved(twin)
        assert public_view(twin) == public_view(after)
        view = json.dumps(public_view(after).to_json())
        for card in after.under:
            if card is not None and card not in after.faces and card != after.pending:
                assert f'"{card}"' not in view
