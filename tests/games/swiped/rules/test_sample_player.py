"""The engine's sample player and sample games (rules/contract.py): what the contract's
suite and the random bot play. Its promises: "5 matches" claimed as soon as a seat's own
card says so (SW-5), any other claim only now and then, and sample games in both deals
(SW-2) from either seat, each ending (SW-6's manche limit)."""

from __future__ import annotations

import random

import pytest

from companion.games.swiped.rules import (
    MATCHES_TO_WIN,
    ClaimCard,
    ClaimMatches,
    Deal,
    legal_actions,
    make_deck,
    player_view,
)
from companion.games.swiped.rules.contract import random_action, sample_config
from tests.games.swiped.rules.helpers import game, play
from tests.games.swiped.rules.test_swiped import at_grid, swapped

SEEDS = range(200)


def test_five_matches_are_claimed_as_soon_as_the_own_card_says_so() -> None:
    """SW-5: at exactly five squares where its card puts them, the seat claims, whatever
    the draw; one fewer and it plays on as usual."""
    state = game(2)
    own = make_deck()[state.targets[0] - 1]
    five = at_grid(state, swapped(swapped(own, own[0], own[1]), own[2], own[3]))
    assert player_view(five, 0).matches == MATCHES_TO_WIN == 5
    assert {random_action(five, random.Random(seed)) for seed in range(20)} == {ClaimMatches(0)}
    three_cycle = swapped(swapped(own, own[2], own[3]), own[3], own[4])
    four = at_grid(state, swapped(three_cycle, own[0], own[1]))
    assert player_view(four, 0).matches == 4
    assert ClaimMatches(0) in legal_actions(four)
    picks = [random_action(four, random.Random(seed)) for seed in range(20)]
    assert sum(isinstance(a, ClaimMatches | ClaimCard) for a in picks) <= 2


def test_any_other_claim_is_made_now_and_then_only() -> None:
    """A claim one time in fifty by default (random games stay long enough to play their
    manches), always or never as asked; every pick is legal."""
    state = game(2)
    legal = legal_actions(state)
    assert any(isinstance(a, ClaimMatches | ClaimCard) for a in legal)
    picks = [random_action(state, random.Random(seed)) for seed in SEEDS]
    claims = sum(isinstance(a, ClaimMatches | ClaimCard) for a in picks)
    assert 1 <= claims <= 12, claims  # 0.02 of 200: 4 expected
    assert all(a in legal for a in picks)
    always = [random_action(state, random.Random(seed), claim_rate=1.0) for seed in range(20)]
    assert all(isinstance(a, ClaimMatches | ClaimCard) and a in legal for a in always)
    never = [random_action(state, random.Random(seed), claim_rate=0.0) for seed in SEEDS]
    assert not any(isinstance(a, ClaimMatches | ClaimCard) for a in never)


def test_no_action_is_picked_once_the_game_is_over() -> None:
    state = game(2)
    own = make_deck()[state.targets[0] - 1]
    state, _ = play(at_grid(state, swapped(swapped(own, own[0], own[1]), own[2], own[3])),
                    ClaimMatches(0))  # fmt: skip
    with pytest.raises(ValueError, match="^the game is over: no legal action$"):
        random_action(state, random.Random(0))


def test_the_sample_games_take_both_deals_from_either_seat_and_end_after_8_manches() -> None:
    """SW-2: the engine deals on even seeds, the table on odd ones; the first seat changes
    every two seeds; SW-6: a draw after 8 manches, so every sample game ends."""
    configs = [sample_config(seed) for seed in range(4)]
    assert [(c.deal, c.first) for c in configs] == [
        (Deal.SEEDED, 0), (Deal.OBSERVED, 0), (Deal.SEEDED, 1), (Deal.OBSERVED, 1),
    ]  # fmt: skip
    assert {c.manche_limit for c in configs} == {8}
