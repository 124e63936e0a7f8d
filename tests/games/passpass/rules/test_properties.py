"""Properties over random legal playthroughs: 2..6 players, both rule sets, both windows.

Each playthrough is driven by heuristic bots with a dose of uniformly random legal
actions (so every kind of action is explored while games still end in reasonable time).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.passpass.bots import HatMemory, make_bot
from companion.games.passpass.rules import (
    ACTIONS,
    VICTORIES_TO_WIN,
    Action,
    Challenge,
    Designated,
    Event,
    GameWon,
    MancheStarted,
    Phase,
    PublicView,
    Rewarded,
    State,
    Verdict,
    action_from_json,
    actors,
    apply,
    legal_actions,
    make_config,
    new_game,
    public_view,
)
from companion.games.passpass.selfplay import choose
from tests.games.passpass.rules.helpers import assert_conserved
from tests.rules.contract import assert_illegal_refused

MAX_ACTIONS = 30_000
TURN_LIMIT = 300
"""PTI-15's turn limit for bots: two heuristic bots can reveal losing lines for ever where
people would swap (seed 1242080, two players, round window); the ruling voids such a
manche. Far above a real manche's turns, so it never cuts one short."""


@st.composite
def setups(draw: st.DrawFn) -> tuple[str, int, str, int, float]:
    game = draw(st.sampled_from(["ptipasspass", "phipasspass"]))
    players = draw(st.integers(2 if game == "ptipasspass" else 3, 6))
    window = draw(st.sampled_from(["round", "timed"]))
    seed = draw(st.integers(0, 2**32 - 1))
    epsilon = draw(st.sampled_from([0.0, 0.05, 0.2]))
    return game, players, window, seed, epsilon


def playthrough(
    game: str, players: int, window: str, seed: int, epsilon: float
) -> Iterator[tuple[State, Action, State, tuple[Event, ...]]]:
    rng = random.Random(seed)
    config = make_config(
        game, players, first=rng.randrange(players), window=window, turn_limit=TURN_LIMIT
    )
    bots = [
        make_bot("heuristic", random.Random(rng.random()), s, config.layout) for s in range(players)
    ]
    state, _ = new_game(config, 0)
    for _ in range(MAX_ACTIONS):
        if state.phase is Phase.OVER:
            return
        legal = legal_actions(state)
        action = rng.choice(legal) if rng.random() < epsilon else choose(state, bots)
        after, events = apply(state, action)
        for bot in bots:
            bot.observe(events)
        yield state, action, after, events
        state = after
    raise AssertionError(f"no winner after {MAX_ACTIONS} actions")


PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(setups())
def test_every_game_ends_with_exactly_two_victory_tokens_for_the_winner(setup):
    final = None
    for _, _, after, _ in playthrough(*setup):
        final = after
        assert max(after.victories) <= VICTORIES_TO_WIN
        if after.phase is not Phase.OVER:
            assert max(after.victories) < VICTORIES_TO_WIN  # PTI-1: 2 tokens end it at once
    assert final is not None and final.phase is Phase.OVER
    assert final.victories[final.winner] == VICTORIES_TO_WIN
    assert sorted(final.victories)[-2] < VICTORIES_TO_WIN


def test_two_bots_revealing_losing_lines_for_ever_see_their_manche_voided():
    """PTI-15's turn limit ends the loop two heuristic bots fell into (found by the
    property above): the manche is void, a new one is dealt, and the game ends."""
    kinds = [
        type(event).__name__
        for _, _, _, events in playthrough("ptipasspass", 2, "round", 1242080, 0.0)
        for event in events
    ]
    assert "MancheVoid" in kinds and kinds[-1] == "GameWon"


@PROPERTY
@given(setups())
def test_conservation_at_every_step(setup):
    for _, _, after, _ in playthrough(*setup):
        assert_conserved(after)  # PTI-14


@PROPERTY
@given(setups())
def test_some_action_is_legal_until_the_game_is_over_and_every_legal_action_applies(setup):
    for before, action, after, _ in playthrough(*setup):
        assert action in legal_actions(before)
        assert legal_actions(after) or after.phase is Phase.OVER
        assert actors(after) or after.phase is Phase.OVER
        legal = legal_actions(after)
        for other in legal[:: max(1, len(legal) // 4)]:
            apply(after, other)  # raises if the engine disagrees with itself


@PROPERTY
@given(setups(), st.integers(0, 2**32 - 1))
def test_an_action_that_is_not_legal_raises_and_changes_nothing(setup, seed):
    rnd = random.Random(seed)
    for _, _, after, _ in playthrough(*setup):
        candidates = random_candidates(after, rnd, 3)
        assert_illegal_refused(after, candidates, legal_actions, apply)


def random_candidates(state: State, rnd: random.Random, count: int) -> list[Action]:
    """Well-formed actions of every kind, most of them illegal now."""
    n = state.config.players
    spots = state.config.layout.spots
    out = []
    for _ in range(count):
        cls = rnd.choice(list(ACTIONS.values()))
        values: dict[str, object] = {}
        for f in dataclasses.fields(cls):
            if f.name == "seat":
                values[f.name] = rnd.randrange(n)
            elif f.name in ("spot", "a", "b"):
                values[f.name] = rnd.randint(1, spots)
            elif f.name == "token":
                values[f.name] = rnd.choice(state.config.rules.tokens)
            elif f.name == "challenge":
                values[f.name] = rnd.choice(["doublon", "menteur"])
            elif f.name == "spots":
                values[f.name] = list(rnd.choice(state.config.layout.lines + ((1, 2, 4),)))
        out.append(action_from_json({"action": cls.name, **values}))
    return out


@PROPERTY
@given(setups())
def test_state_and_actions_round_trip_through_json(setup):
    for i, (_, action, after, events) in enumerate(playthrough(*setup)):
        assert action_from_json(json.loads(json.dumps(action.to_json()))) == action
        json.dumps([e.to_json() for e in events])
        if i % 7 == 0:
            again = State.from_json(json.loads(json.dumps(after.to_json())))
            assert again == after
            assert legal_actions(again) == legal_actions(after)


HIDDEN = {"hats", "hands", "holding"}


def test_the_public_view_type_has_no_field_for_a_hidden_fact():
    public_fields = {f.name for f in dataclasses.fields(PublicView)}
    state_fields = {f.name for f in dataclasses.fields(State)}
    assert state_fields >= HIDDEN
    assert not public_fields & HIDDEN


def other_kinds(rnd: random.Random, tokens: tuple[str, ...], hand: tuple[str, ...]):
    """As many tokens as `hand`, of kinds drawn at random: which ones is hidden, how many is
    not (PTI-14: every placement, verdict and swap is seen)."""
    return tuple(sorted(rnd.choice(tokens) for _ in hand))


@PROPERTY
@given(setups(), st.integers(0, 2**32 - 1))
def test_states_differing_only_in_hidden_facts_have_equal_public_views(setup, seed):
    rnd = random.Random(seed)
    for _, _, after, _ in playthrough(*setup):
        tokens = after.config.rules.tokens
        twin = dataclasses.replace(
            after,
            hats=tuple(other_kinds(rnd, tokens, h) for h in after.hats),
            hands=tuple(other_kinds(rnd, tokens, h) for h in after.hands),
            holding=rnd.choice(tokens) if after.holding else None,
        )
        assert public_view(twin) == public_view(after)
        view = json.dumps(public_view(after).to_json())
        if after.holding and after.masque and after.announced != after.holding:
            assert after.holding not in view  # the real token of a bluff stays hidden


class HandCounts:
    """How many tokens each seat holds, as anyone at the table counts them from what they
    see: the deal, each designation, each verdict's outcome, each reward drop."""

    def __init__(self, players: int, tokens: int) -> None:
        self.players, self.tokens = players, tokens
        self.counts = [tokens] * players

    def observe(self, events: tuple[Event, ...]) -> None:
        for e in events:
            if isinstance(e, MancheStarted):
                self.counts = [self.tokens] * self.players
            elif isinstance(e, Designated):
                self.counts[e.seat] -= 1  # in flight: in no hand
            elif isinstance(e, Verdict):
                if not e.success:
                    self.counts[e.seat] += 1  # PTI-8, PTI-9: the Challenger takes it
                elif e.challenge is Challenge.DOUBLON:
                    self.counts[e.magician] += 1 + len(e.hat or ())  # the hat, and their own
                else:
                    self.counts[e.magician] += 1  # a lie: the Magicien keeps it
            elif isinstance(e, Rewarded) and e.choice == "drop":
                self.counts[e.seat] -= 1


@PROPERTY
@given(setups())
def test_the_counts_of_the_public_view_are_what_anyone_counts_from_the_public_events(setup):
    """PTI-14: which token lies where is hidden, how many is not: a seat that only watches
    the public events (a bot's hat memory, the hands' counts) counts what the view says."""
    hats: HatMemory | None = None
    hands: HandCounts | None = None
    for before, _, after, events in playthrough(*setup):
        if hats is None or hands is None:
            hats = HatMemory(-1, before.config.layout.spots)
            hands = HandCounts(before.config.players, len(before.config.rules.tokens))
            for hand, count in zip(before.hands, hands.counts, strict=True):
                assert len(hand) == count
        hats.observe(events)
        hands.observe(events)
        view = public_view(after)
        assert view.hat_counts == tuple(len(h) for h in hats.hats)
        assert view.hand_counts == tuple(hands.counts)


@PROPERTY
@given(setups())
def test_a_game_is_won_only_by_a_reveal_and_the_winner_is_the_revealer(setup):
    for before, action, _, events in playthrough(*setup):
        for e in events:
            if isinstance(e, GameWon):
                assert action.name == "reveal" and e.seat == before.magician
