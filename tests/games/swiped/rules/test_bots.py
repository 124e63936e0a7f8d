"""Swiped's bots: they play legal moves only, know what their seat may know and nothing
else, deduce without ever ruling out the truth, and the deducing bot beats the random one."""

from __future__ import annotations

import dataclasses
import random

import pytest

from companion.games.swiped.bots import (
    BOTS,
    PROGRAM_SWAP,
    DeducingBot,
    evidence_of,
    make_decider,
)
from companion.games.swiped.lab import LAB
from companion.games.swiped.rules import (
    ClaimCard,
    ClaimChecked,
    ClaimMatches,
    Deal,
    Phase,
    apply,
    legal_actions,
    make_config,
    new_game,
)
from companion.lab.model import Variant


def decided_game(seed: int, kinds: list[str], **options: object):
    """A whole game where, at each moment, the seats are asked in a seeded order; yields
    (state, seat, action, decide) for every action applied."""
    config = make_config(first=seed % 2, manche_limit=20, **options)  # type: ignore[arg-type]
    state, opening = new_game(config, seed)
    decide = make_decider(kinds, config, seed)
    decide.observe(opening)
    order_rng = random.Random(seed)
    while state.phase is not Phase.OVER:
        seats = [0, 1]
        order_rng.shuffle(seats)
        offers = [(s, decide(state, s)) for s in seats]
        claims = [(s, a) for s, a in offers if isinstance(a, ClaimMatches | ClaimCard)]
        moves = [(s, a) for s, a in offers if a is not None]
        assert moves, f"no seat acts in manche {state.manche}, phase {state.phase}"
        seat, action = claims[0] if claims else moves[0]
        yield state, seat, action, decide
        state, events = apply(state, action)
        decide.observe(events)


@pytest.mark.parametrize("kinds", [["deducing"], ["random"], ["deducing", "random"]])
@pytest.mark.parametrize("false_claim", ["loses", "refused"])
def test_bots_play_only_their_seats_legal_actions_and_finish_every_game(kinds, false_claim):
    for seed in range(12):
        applied = 0
        for state, seat, action, _ in decided_game(seed, kinds, false_claim=false_claim):
            assert action in legal_actions(state)
            assert action.seat == seat  # type: ignore[union-attr]
            applied += 1
        assert applied > 0


def test_a_bot_acts_on_its_view_alone_the_opponents_card_changes_nothing_it_does():
    """Two games differing only in seat 1's secret card: seat 0's bot, asked at the same
    moments and told the same events, gives the same answers until a claim's verdict ends
    the sameness."""
    for seed in range(20):
        config = make_config(first=seed % 2, manche_limit=20)
        start, opening = new_game(config, seed)
        taken = {start.layout_card, *start.targets}
        other = next(c for c in range(1, config.deck_size + 1) if c not in taken)
        asked_a = make_decider(["deducing"], config, seed)
        asked_b = make_decider(["deducing"], config, seed)
        steps = 0
        for state, _seat, action, _ in decided_game(seed, ["deducing", "random"]):
            twin = dataclasses.replace(state, targets=(state.targets[0], other))
            assert asked_a(state, 0) == asked_b(twin, 0), (seed, steps)
            _, events = apply(state, action)
            if any(isinstance(e, ClaimChecked) for e in events):
                break
            asked_a.observe(events)
            asked_b.observe(events)
            steps += 1
        assert steps > 3, seed


def test_deduction_never_rules_out_the_true_card_of_an_honest_opponent():
    """After each reveal (SW-3), the deducing bot's belief gives the opponent's true card
    a positive probability, whatever the opponent is."""
    checked = 0
    for seed in range(30):
        kinds = ["deducing", "deducing" if seed % 2 else "random"]
        for state, _, _, decide in decided_game(seed, kinds):
            if state.revealed is None or state.step > 0:
                continue  # not just revealed
            for seat, bot in enumerate(decide.bots):
                if isinstance(bot, DeducingBot):
                    assert bot.belief()[state.target(1 - seat)] > 0, seed
                    checked += 1
    assert checked > 30


def test_the_belief_is_a_distribution_over_the_cards_it_may_be():
    config = make_config()
    state, _ = new_game(config, 5)
    board = state.fork()
    bot = DeducingBot(0, board, evidence_of(board), random.Random(1))
    belief = bot.belief()
    assert abs(sum(belief.values()) - 1) < 1e-9
    # SW-2: never the face-up card nor its own card.
    assert set(belief) == set(range(1, 25)) - {state.layout_card, state.targets[0]}


def test_a_refused_card_claim_rules_that_card_out():
    """SW-5 with false claims refused: a named card that left the game going is not it."""
    config = make_config(false_claim="refused")
    state, _ = new_game(config, 5)
    board = state.fork()
    bot = DeducingBot(0, board, evidence_of(board), random.Random(1))
    card = next(c for c in bot.belief() if c != state.targets[1])
    bot.named = card
    bot.refused()
    belief = bot.belief()
    assert belief[card] == 0
    assert len({p for c, p in belief.items() if c != card}) == 1  # the rest alike


def test_a_deducing_bot_plans_the_rest_of_a_program_its_seat_changed():
    """A seat that programmed another swap than its bot planned (a thinking bot's twin,
    SW-3): the bot's next swaps are planned on from the swaps really entered."""
    config = make_config()
    state, _ = new_game(config, 2)
    board = state.fork()
    bot = DeducingBot(0, board, evidence_of(board), random.Random(1))
    offer = bot.act(board)
    assert offer is not None and offer[0] == PROGRAM_SWAP
    other = next(k for k in range(36) if k != offer[1])
    board.program(0, other)
    again = bot.act(board)
    assert again is not None and again[0] == PROGRAM_SWAP
    assert bot.plan[0] == other and again[1] == bot.plan[1]


def test_the_deducing_bot_beats_the_random_one():
    """It deduces and programs toward its card; a random player does neither."""
    variant = Variant("v", "swiped", 2, ("deducing", "random"), 40, 3)
    records = [LAB.play(variant, i) for i in range(variant.games)]
    assert sum(0 in r.winners for r in records) >= 30


def test_unknown_bots_and_an_observed_deal_are_refused_with_a_sentence():
    with pytest.raises(ValueError, match="clever"):
        LAB.check(Variant("v", "swiped", 2, ("clever", "random"), 1, 0))
    with pytest.raises(ValueError, match="clever"):
        make_decider(["clever"], make_config(), 0)
    with pytest.raises(ValueError, match="SEEDED"):
        make_decider(list(BOTS), make_config(deal=Deal.OBSERVED), 0)
