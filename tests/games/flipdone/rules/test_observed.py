"""Flip Done with an OBSERVED deal (Config.deal): a real table shuffles and deals, the
engine takes the deal the readers see (FD-2) and each hand card only when it is played.

The same engine serves a simulated table (SEEDED, the engine deals): a phase dealt by
observation must play exactly as the same cards dealt by the seed (FD-3..FD-10), and
every wrong deal or play is refused without changing the state.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from companion.games.flipdone.bots import random_action
from companion.games.flipdone.rules import (
    CENTRE,
    DECK,
    HAND_SIZE,
    Action,
    Build,
    Built,
    Config,
    Deal,
    DealDown,
    DealtDown,
    DealUp,
    Discard,
    Discarded,
    Event,
    FirstPlaced,
    Flip,
    Flipped,
    PhaseEnded,
    PhaseStarted,
    PlaceFirst,
    Stage,
    State,
    action_from_json,
    actors,
    apply,
    legal_actions,
    make_config,
    new_game,
    phase_over,
    player_view,
    public_view,
    seen,
    unseen,
)
from companion.rules.errors import BadInput, IllegalAction
from tests.games.flipdone.rules.helpers import play

FULL = {1: "AH", 2: "2H", 3: "3S", 4: "4S", 5: "5H", 6: "6S", 7: "7H", 8: "8S", 9: "9H"}


def observed(**options: object) -> State:
    return new_game(make_config(deal="observed", **options), 0)[0]  # type: ignore[arg-type]


def deal(state: State, under: dict[int, str], face: str | None = None) -> State:
    """Feed an observed deal: the face-down cards by square, then the face-up centre."""
    for sq, card in under.items():
        state, _ = apply(state, DealDown(sq, card))
    if face is not None:
        state, _ = apply(state, DealUp(face))
    return state


UNDER = {sq: card for sq, card in zip(range(1, 10), DECK[13:22], strict=True)}  # 2D..10D


def dealt(**options: object) -> State:
    """An observed phase dealt: diamonds 2..10 face down, the AH face up on the centre."""
    return deal(observed(**options), UNDER, "AH")


def assert_refused(state: State, action: Action, match: str, ruling: str = "FD-2") -> None:
    """The action raises IllegalAction naming `ruling` and changes nothing."""
    snapshot = state.to_json()
    copy = State.from_json(snapshot)
    with pytest.raises(IllegalAction, match=match) as caught:
        apply(state, action)
    assert caught.value.ruling == ruling
    assert state.to_json() == snapshot and state == copy
    assert action not in legal_actions(state)


# Config ------------------------------------------------------------------------------


def test_the_deal_mode_is_a_config_field_seeded_by_default():
    assert Config().deal is Deal.SEEDED and make_config().deal is Deal.SEEDED
    cfg = make_config(deal="observed", first_element="chosen")
    assert cfg.deal is Deal.OBSERVED
    assert Config.from_json(json.loads(json.dumps(cfg.to_json()))) == cfg
    old = {k: v for k, v in cfg.to_json().items() if k != "deal"}
    assert Config.from_json(old).deal is Deal.SEEDED  # a config written before the field
    with pytest.raises(BadInput):
        make_config(deal="shuffled")


def test_deal_actions_and_place_first_round_trip_through_json():
    for action in (DealDown(3, "QH"), DealUp("10S"), PlaceFirst(1, 4, "AD"), PlaceFirst(1, 4)):
        assert action_from_json(json.loads(json.dumps(action.to_json()))) == action
    # a PlaceFirst written before it could name its card reads back with none
    assert action_from_json({"action": "place_first", "seat": 1, "square": 4}) == PlaceFirst(1, 4)
    with pytest.raises(BadInput):
        apply(observed(), DealDown(3, "1H"))
    with pytest.raises(BadInput):
        apply(observed(), DealDown(10, "QH"))
    with pytest.raises(BadInput):
        apply(dealt(), Discard(0, None))  # type: ignore[arg-type]


# FD-2: the deal as the readers see it -------------------------------------------------


def test_fd_2_an_observed_phase_waits_for_the_deal_and_knows_only_hand_sizes():
    state = observed(first=2)
    assert state.stage is Stage.DEAL and state.turn == state.first == 2
    assert state.under == (None,) * 9 and state.hands == ((), (), ())
    assert state.hand_sizes == (HAND_SIZE,) * 3 and state.deck == ()
    assert actors(state) == frozenset({2})  # the table waits on the phase's first player
    legal = legal_actions(state)
    assert len(legal) == 9 * 52 and all(isinstance(a, DealDown) for a in legal)
    view = public_view(state)
    assert view.dealt == (False,) * 9 and view.hand_sizes == (4, 4, 4) and view.deck_size == 30


def test_fd_2_the_face_down_cards_land_in_any_order_then_the_centre_card():
    state = observed()
    order = [7, 1, 9, 5, 3, 2, 8, 4, 6]
    all_events: list[Event] = []
    for sq in order:
        state, events = apply(state, DealDown(sq, UNDER[sq]))
        assert events == (DealtDown(sq),)  # which card: a hidden fact
        all_events.extend(events)
        assert state.stage is Stage.DEAL and public_view(state).dealt[sq - 1]
    assert state.under == tuple(UNDER[sq] for sq in range(1, 10))
    assert legal_actions(state) == tuple(DealUp(c) for c in unseen(state))
    assert len(unseen(state)) == 43
    state, events = apply(state, DealUp("AH"))
    assert events == (PhaseStarted(1, 1, 0, 0, False, "AH"), FirstPlaced(None, CENTRE, "AH"))
    assert state.stage is Stage.PLAY and state.faces[CENTRE - 1] == "AH" and state.turn == 0
    assert seen(state) == frozenset({*UNDER.values(), "AH"})


def test_fd_2_variant_the_first_player_places_and_names_the_first_card():
    state = deal(observed(first_element="chosen", first=1), UNDER)
    assert state.stage is Stage.PLACE_FIRST and state.pending is None
    assert len(legal_actions(state)) == 9 * 43
    assert_refused(state, DealUp("AH"), "complete")
    assert_refused(state, PlaceFirst(1, 3), "name the face-up card")
    assert_refused(state, PlaceFirst(1, 3, "5D"), "the 5D is already in play this phase")
    assert_refused(state, PlaceFirst(0, 3, "AH"), "seat 1's turn", "FD-3")
    after, events = apply(state, PlaceFirst(1, 3, "AH"))
    assert events == (PhaseStarted(1, 1, 1, 0, False, "AH"), FirstPlaced(1, 3, "AH"))
    assert after.faces[2] == "AH" and after.stage is Stage.PLAY and after.turn == 1


def test_fd_2_faults_of_the_deal_raise_and_change_nothing():
    state = deal(observed(), {1: "QH"})
    assert_refused(state, DealDown(2, "QH"), "the QH is already in play this phase")
    assert_refused(state, DealDown(1, "KH"), "square 1 already has its face-down card")
    assert_refused(state, DealUp("KH"), "deal the 9 face-down cards first: .* square 2, 3")
    assert_refused(dealt(), DealDown(1, "KH"), "the deal of this phase is complete")
    assert_refused(dealt(), DealUp("KH"), "the deal of this phase is complete")
    full = deal(observed(), UNDER)
    assert_refused(full, DealUp("9D"), "the 9D is already in play this phase")
    chosen = observed(first_element="chosen")
    assert_refused(chosen, DealUp("KH"), "the first player chooses")
    assert_refused(chosen, PlaceFirst(0, 5, "KH"), "not complete: no face-down card")


def test_fd_2_a_play_before_the_deal_is_complete_is_refused():
    assert_refused(observed(), Build(0, "KH", 1), "not complete: no face-down card on square 1")
    state = deal(observed(), UNDER)
    assert_refused(state, Discard(0, "KH"), "the face-up centre card is not dealt yet")
    assert_refused(state, Flip(0, "KH", 5), "not complete")


def test_fd_2_new_game_returns_the_events_of_the_deal_it_made():
    state, opening = new_game(make_config(first=2), 1)
    face = state.faces[CENTRE - 1]
    assert face is not None
    assert opening == (PhaseStarted(1, 1, 2, 0, False, face), FirstPlaced(None, CENTRE, face))
    chosen, opening = new_game(make_config(first_element="chosen"), 1)
    assert chosen.pending is not None  # the variant: the first player places it
    assert opening == (PhaseStarted(1, 1, 0, 0, False, chosen.pending),)
    assert new_game(make_config(deal="observed"), 1)[1] == ()  # the table has not dealt


def test_fd_2_a_seeded_game_takes_no_deal():
    state, _ = new_game(make_config(), 1)
    assert_refused(state, DealDown(1, "KH"), "the engine deals this game")
    assert_refused(state, DealUp("KH"), "the engine deals this game")
    chosen, _ = new_game(make_config(first_element="chosen"), 1)
    assert chosen.pending is not None
    assert_refused(chosen, PlaceFirst(0, 5, chosen.pending), "PlaceFirst names no card")


# FD-3: plays name the card the readers saw -------------------------------------------


def test_fd_3_a_play_names_any_card_not_in_play_this_phase():
    state = dealt()
    legal = legal_actions(state)
    cards = unseen(state)
    assert len(cards) == 42 and "AH" not in cards and "5D" not in cards
    assert len(legal) == 42 * (8 + 1 + 1)  # builds on 8 squares, a flip of the centre, a discard
    assert {a.card for a in legal if isinstance(a, Discard)} == set(cards)
    after, events = apply(state, Build(0, "QS", 1))
    assert events[0] == Built(0, 1, "QS")
    assert after.hand_sizes == (3, 4, 4) and after.hands == ((), (), ())
    assert after.played == (("QS",), (), ()) and after.turn == 1


def test_fd_3_a_card_already_in_play_this_phase_is_a_fault():
    state = dealt()
    assert_refused(state, Build(0, "AH", 1), "the AH is already in play this phase")  # face up
    assert_refused(state, Discard(0, "2D"), "the 2D is already in play this phase")  # face down
    state, _ = play(state, Build(0, "QS", 1), Discard(1, "QH"))
    assert_refused(state, Build(2, "QS", 2), "the QS is already in play this phase")
    assert_refused(state, Flip(2, "QH", 1), "the QH is already in play this phase")  # discarded


def test_fd_3_a_play_out_of_turn_or_by_a_seat_with_no_card_is_a_fault():
    state = dealt()
    assert_refused(state, Discard(1, "QS"), "seat 0's turn", "FD-3")
    fresh = iter(unseen(state))
    while state.hand_sizes[0]:  # until seat 0 has played its fourth card
        state, _ = apply(state, Discard(state.turn, next(fresh)))
    assert state.hand_sizes == (0, 1, 1) and state.turn == 1
    assert_refused(state, Discard(0, next(fresh)), "seat 0 holds no card", "FD-3")


def test_fd_3_the_flip_turns_up_the_face_down_card_seen_at_the_deal():
    state, _ = play(dealt(), Discard(0, "QS"))
    after, events = apply(state, Flip(1, "KS", CENTRE))
    assert events[0] == Flipped(1, CENTRE, UNDER[CENTRE], "AH")
    assert after.faces[CENTRE - 1] == UNDER[CENTRE] and after.under[CENTRE - 1] == "AH"
    assert after.discards == ("QS", "KS") and after.hand_sizes == (3, 3, 4)


def test_fd_2_a_card_of_the_last_phase_may_be_played_again_in_the_next():
    state = dealt(phases=2)
    fresh = iter(unseen(state))
    played = []
    while state.phase == 1:
        card = next(fresh)
        played.append(card)
        state, _ = apply(state, Discard(state.turn, card))
    assert state.stage is Stage.DEAL and state.hand_sizes == (4, 4, 4)
    state = deal(state, {sq: played[sq - 1] for sq in range(1, 10)}, played[9])
    state, _ = apply(state, Build(state.turn, played[10], 1))
    assert state.faces[0] == played[10]


# FD-9: the penalty counts the hands ---------------------------------------------------


def test_fd_9_with_an_observed_deal_the_penalty_counts_the_hand_sizes():
    state = dataclasses.replace(
        dealt(),
        faces=tuple(FULL[sq] for sq in range(1, 10)),
        flipped=(True,) * 8 + (False,),
        hand_sizes=(2, 3, 1),
        tokens=(4, 1, 0),
    )
    assert not phase_over(state)
    after, events = apply(state, Flip(0, "AC", 9))
    assert PhaseEnded((1, 3, 1), (1, 1, 0)) in events  # never below zero (FD-1)
    assert after.tokens == (3, 0, 0) and after.stage is Stage.DEAL
    assert after.hand_sizes == (4, 4, 4) and after.phase == 2 and after.first == 1


def test_fd_9_the_phase_ends_when_no_hand_holds_a_card():
    state = dealt()
    fresh = iter(unseen(state))
    for _ in range(3 * HAND_SIZE - 1):
        state, events = apply(state, Discard(state.turn, next(fresh)))
        assert not any(isinstance(e, PhaseEnded) for e in events)
    state, events = apply(state, Discard(state.turn, next(fresh)))
    assert events == (Discarded(2), PhaseEnded((0, 0, 0), (0, 0, 0)))
    assert state.stage is Stage.DEAL  # the next deal is awaited


# Views --------------------------------------------------------------------------------


def test_views_never_show_a_face_down_card_or_a_discard():
    state, _ = play(dealt(), Discard(0, "QS"), Build(1, "KS", 1), Flip(2, "JS", 1))
    view = json.dumps(public_view(state).to_json())
    never_shown = [c for c, f in zip(state.under, state.flipped, strict=True) if not f]
    hidden = [*never_shown, *state.discards]
    assert len(hidden) == 10 and all(f'"{c}"' not in view for c in hidden)
    assert public_view(state).hand_sizes == (3, 3, 3)
    shown = json.loads(view)  # what every player may know, to a screen or a page
    assert shown["hand_sizes"] == [3, 3, 3] and shown["discard_size"] == len(state.discards)
    assert shown["faces"] == list(public_view(state).faces) and shown["flipped"][0] is True
    assert "hands" not in shown and "deck" not in shown and "under" not in shown
    other = iter(unseen(state))  # the same position with other hidden cards
    twin = dataclasses.replace(
        state,
        under=tuple(next(other) for _ in state.under),
        discards=tuple(next(other) for _ in state.discards),
        played=((), (), ()),
    )
    assert public_view(twin) == public_view(state)


def test_player_view_gives_a_seat_its_hand_size_and_the_cards_it_played():
    state, _ = play(dealt(), Discard(0, "QS"), Build(1, "KS", 1), Flip(2, "JS", 1))
    state, _ = apply(state, Discard(0, "10S"))
    view = player_view(state, 0)
    assert view.hand == () and view.hand_size == 2 and view.played == ("QS", "10S")
    assert view.public == public_view(state)
    assert player_view(state, 2).played == ("JS",)
    seeded, _ = new_game(make_config(), 3)
    assert player_view(seeded, 1).hand == seeded.hands[1]
    assert player_view(seeded, 1).hand_size == 4 and player_view(seeded, 1).played == ()


def test_an_observed_state_round_trips_through_json_mid_deal_and_mid_play():
    for state in (deal(observed(), {4: "QH"}), dealt(), play(dealt(), Discard(0, "QS"))[0]):
        again = State.from_json(json.loads(json.dumps(state.to_json())))
        assert again == state and legal_actions(again) == legal_actions(state)
        assert repr(again) == repr(state)  # printed as its facts, board built or not


# The same phase, dealt by the seed and by observation ---------------------------------


def seeded_run(config: Config, seed: int, bot_seed: int) -> tuple[list[State], list[Action]]:
    """A whole seeded game by the random bot: the state before each action, the actions."""
    state, _ = new_game(config, seed)
    rng = random.Random(bot_seed)
    states, actions = [], []
    while state.stage is not Stage.OVER:
        action = random_action(state, rng)
        states.append(state)
        actions.append(action)
        state, _ = apply(state, action)
    states.append(state)
    return states, actions


def replay_observed(
    config: Config, states: list[State], actions: list[Action], rng: random.Random
) -> tuple[State, list[Event], list[Event]]:
    """Replay a seeded game through an OBSERVED engine: each phase's deal fed as the readers
    would see it (the face-down cards in a random order), then the same plays. Returns the
    final state, every event, and the events of the seeded game."""
    obs, _ = new_game(dataclasses.replace(config, deal=Deal.OBSERVED), 99)
    seeded_events: list[Event] = []
    observed_events: list[Event] = []
    for before, action in zip(states, actions, strict=False):
        if obs.stage is Stage.DEAL:
            squares = list(range(1, 10))
            rng.shuffle(squares)
            for sq in squares:
                card = before.under[sq - 1]
                assert card is not None
                obs, events = apply(obs, DealDown(sq, card))
                observed_events.extend(events)
            if before.stage is Stage.PLAY:  # the engine's centre card, seen face up
                centre = before.faces[CENTRE - 1]
                assert centre is not None
                obs, events = apply(obs, DealUp(centre))
                observed_events.extend(events)
        # Same position, as the public sees it (the seeded pending card is not seen yet)
        assert public_view(obs) == dataclasses.replace(public_view(before), pending=None)
        assert obs.under == before.under and obs.discards == before.discards
        assert obs.played == before.played and obs.hand_sizes == before.hand_sizes
        not_seen = {*before.deck, *(c for h in before.hands for c in h), before.pending}
        assert set(unseen(obs)) == not_seen - {None}
        mirrored = action
        if isinstance(action, PlaceFirst):
            mirrored = PlaceFirst(action.seat, action.square, before.pending)
        assert mirrored in legal_actions(obs)
        obs, events = apply(obs, mirrored)
        observed_events.extend(events)
        _, events = apply(before, action)
        seeded_events.extend(events)
    return obs, observed_events, seeded_events


@pytest.mark.parametrize("first_element", ["centre", "chosen"])
@pytest.mark.parametrize("seed", range(25))
def test_a_game_dealt_by_observation_plays_as_the_same_cards_dealt_by_the_seed(
    seed: int, first_element: str
) -> None:
    config = make_config(
        first_element=first_element, first=seed % 3, phases=1 + seed % 3, tie_phase_limit=3
    )
    states, actions = seeded_run(config, seed, bot_seed=1000 + seed)
    last, observed_events, seeded_events = replay_observed(
        config, states, actions, random.Random(seed)
    )
    dealt_down = [e for e in observed_events if isinstance(e, DealtDown)]
    assert len(dealt_down) == 9 * states[-1].deal
    _, opening = new_game(config, seed)  # the seeded deal's opening events
    assert [e for e in observed_events if not isinstance(e, DealtDown)] == [
        *opening,
        *seeded_events,
    ]
    final = states[-1]
    assert last.stage is Stage.OVER
    assert (last.tokens, last.manche_wins, last.winners) == (
        final.tokens,
        final.manche_wins,
        final.winners,
    )
    assert (last.owners, last.faces, last.flipped) == (final.owners, final.faces, final.flipped)


# Random playouts: every listed action applies, others are refused ---------------------


@pytest.mark.parametrize("first_element", ["centre", "chosen"])
def test_random_observed_playouts_end_and_every_sampled_legal_action_applies(first_element):
    rng = random.Random(first_element)
    for game_seed in range(3):
        state = observed(first_element=first_element, first=game_seed, tie_phase_limit=3)
        for step in range(3_000):
            if state.stage is Stage.OVER:
                break
            legal = legal_actions(state)
            assert legal and actors(state) == frozenset({state.turn})
            if step % 7 == 0:
                for other in rng.sample(legal, min(20, len(legal))):
                    apply(state, other)
            state, _ = apply(state, rng.choice(legal))
            cards = [*state.under, *state.faces, *state.discards]
            shown = [c for c in cards if c is not None]
            assert len(shown) == len(set(shown)) == len(seen(state))  # each card once (FD-2)
            assert all(0 <= k <= HAND_SIZE for k in state.hand_sizes)
            if state.stage is Stage.PLAY:
                assert state.hand_sizes[state.turn] > 0 and not phase_over(state)
        assert state.stage is Stage.OVER and legal_actions(state) == ()
