"""The engine contract (`companion/contract/engine.py`), checked the same way on every game.

One suite over the registry: every registered game with an engine (`Game.engine`), and
the test game (tests/games/tally/), plays
seeded sample games (its own `sample_config` and sample player, so nothing here is
adapted by hand to one game). They end within the game's bound; some action is legal
until the game is over and none after; states, actions and events round-trip through
JSON; replaying the actions from the first state gives the same state; and the public
view has no field for a hidden fact. The sample configs alternate the deal modes, so
Flip Done's and Swiped's OBSERVED deals (FD-2, SW-2: the table deals and the sample
player deals too) are played on odd seeds. Each engine's own tests go further.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from typing import Any

import pytest

from companion.contract.engine import AnyEngine
from companion.rules.errors import RuleError
from companion.rules.jsonable import TaggedEvent
from tests.games import contract_games, descriptor

SEEDS = range(16)
"""Enough for every sample variant of each game (both deals, seat counts, modes)."""

ENGINES = [g.engine for g in map(descriptor, contract_games()) if g.engine is not None]


def round_trip(value: Any) -> Any:
    return json.loads(json.dumps(value.to_json()))


def playout(engine: AnyEngine, seed: int) -> tuple[Any, list[Any], Any]:
    """First state, the actions played, and the last state, checking every step."""
    where = f"{engine.name}, seed {seed}"
    first, opening = engine.sample_game(seed)
    json.dumps([e.to_json() for e in opening])
    state = first
    rng = random.Random(seed)
    actions = []
    for step in range(engine.playout_bound):
        legal = engine.legal_actions(state)
        if engine.is_over(state):
            assert legal == (), f"{where}: legal actions after the end"
            assert engine.actors(state) == frozenset(), f"{where}: a seat acts after the end"
            return first, actions, state
        assert legal, f"{where}, step {step}: no legal action in an unfinished game"
        action = engine.sample_action(state, rng)
        assert action in legal, f"{where}, step {step}: {action} is not legal"
        assert engine.action_from_json(round_trip(action)) == action
        state, events = engine.apply(state, action)
        json.dumps([e.to_json() for e in events])
        if step % 13 == 0:
            again = engine.state_from_json(round_trip(state))
            assert again == state, f"{where}, step {step}: JSON round trip changed the state"
        actions.append(action)
    raise AssertionError(f"{where}: did not end within {engine.playout_bound} actions")


def test_every_built_in_game_and_the_test_game_have_an_engine_the_suite_plays() -> None:
    for name in ("ptipasspass", "phipasspass", "flipdone", "swiped", "vnp", "tally"):
        engine = descriptor(name).engine
        assert engine is not None and engine.name == name
        assert engine in ENGINES


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_playouts_end_and_replay_to_the_same_state(engine: AnyEngine, seed: int) -> None:
    first, actions, last = playout(engine, seed)
    assert engine.sample_game(seed)[0] == first  # the seed alone gives the first state
    state = first
    for action in actions:
        state, _ = engine.apply(state, action)
    assert state == last  # replaying the record rebuilds the game


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_the_public_view_has_no_field_for_a_hidden_fact(engine: AnyEngine) -> None:
    state, _ = engine.sample_game(1)
    state_fields = {f.name for f in dataclasses.fields(state)}
    view_fields = {f.name for f in dataclasses.fields(engine.public_view(state))}
    assert engine.hidden <= state_fields
    assert not view_fields & engine.hidden


HOSTILE = [None, "x", "", -1, 0, 10**9, 1.5, True, [], [1], [1, "x", None], {}, {"a": 1}]
"""Values a journal line or a phone can put in any field of an action."""


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_an_action_with_any_field_garbled_is_applied_or_refused_never_raised(
    engine: AnyEngine,
) -> None:
    """Every field of every action a sample game plays, replaced by each hostile value: the
    engine reads it back as an action or refuses it (`BadInput`), and applies that action
    or refuses it by its rules (`RuleError`); nothing else is raised (a swap's hat given as
    null once raised TypeError from the action's own constructor)."""
    first, actions, _ = playout(engine, seed=1)
    state = first
    tried = 0
    for action in actions:
        data = round_trip(action)
        for key in data:
            if key == "action":
                continue
            for value in HOSTILE:
                tried += 1
                try:
                    garbled = engine.action_from_json({**data, key: value})
                    engine.apply(state, garbled)
                except RuleError:
                    pass
        state, _ = engine.apply(state, action)
    assert tried > len(HOSTILE)


def test_every_event_of_every_game_has_its_own_kind() -> None:
    """An event's `kind` is its tag in the journal and on the page: each event class of
    every game (the test game's too) names its own, no two alike in one game, so every
    event a game can send is read back as what it was, even one no sample game reaches
    (a tie that stands, a manche voided at its turn limit)."""
    for name in contract_games():
        descriptor(name)  # its engine, events included, loaded

    def concrete(cls: type[TaggedEvent]) -> list[type[TaggedEvent]]:
        # (a slotted dataclass is a new class: the one it replaced is no module's any more)
        below = [c for c in cls.__subclasses__() if vars(sys.modules[c.__module__]).get(
            c.__qualname__) is c]  # fmt: skip
        return [c for sub in below for c in concrete(sub)] if below else [cls]

    kinds: dict[str, list[str]] = {}
    for event in concrete(TaggedEvent):
        assert "kind" in vars(event), f"{event.__module__}.{event.__qualname__} names no kind"
        kinds.setdefault(event.__module__.rsplit(".", 2)[0], []).append(event.kind)
    for package, named in kinds.items():
        assert len(named) == len(set(named)), (package, sorted(named))
