"""Many simulated games: no screen leaks a hidden fact, and a rough table (flicker,
duplicated reports, stray tags, out-of-turn presses) never changes a verdict."""

from __future__ import annotations

import dataclasses
import random

import pytest

from companion.games.passpass.referee import PassPassReferee
from companion.games.passpass.rules import Phase, public_view
from companion.games.passpass.sim import Noise, SimulatedGame, make_setup
from companion.journal import Input

CONFIGS = [("ptipasspass", n) for n in range(2, 7)] + [("phipasspass", n) for n in range(3, 7)]


def scrambled(referee: PassPassReferee, rng: random.Random):
    """The same game with other hidden facts: which tokens lie in the hats and the hands
    (how many is public, PTI-14), the token in flight."""
    state = referee.state
    tokens = state.config.rules.tokens
    return dataclasses.replace(
        state,
        hats=tuple(tuple(sorted(rng.choices(tokens, k=len(h)))) for h in state.hats),
        hands=tuple(tuple(sorted(rng.choices(tokens, k=len(h)))) for h in state.hands),
        holding=rng.choice(tokens) if state.holding else None,
    )


@pytest.mark.parametrize("seed", range(60))
def test_no_screen_and_no_public_view_carries_a_hidden_fact(seed):
    game, players = CONFIGS[seed % len(CONFIGS)]
    rng = random.Random(seed)
    checked = 0

    def check(record: Input, referee: PassPassReferee) -> None:
        nonlocal checked
        state = referee.state
        screen = referee.screen
        assert screen.view == public_view(state)
        real = referee.state
        referee.state = scrambled(referee, rng)
        try:
            assert referee.screen == screen  # the screen does not depend on hidden facts
        finally:
            referee.state = real
        bluffing = state.holding and state.masque and state.announced != state.holding
        if bluffing and state.phase in (Phase.ANNOUNCE, Phase.WINDOW):
            assert state.holding not in repr(screen)  # a Masqué animal stays hidden
        checked += 1

    SimulatedGame(make_setup(game, players, seed), on_input=check).run()
    assert checked > 50


def verdicts(game: SimulatedGame) -> list[dict]:
    return [e.to_json() for e in game.referee.log]


@pytest.mark.parametrize("block", range(10))
def test_fault_soak_a_rough_table_gives_the_verdicts_of_the_clean_game(block):
    """1,000 games in all (10 blocks of 100)."""
    faults = 0
    for seed in range(block * 100, block * 100 + 100):
        game, players = CONFIGS[seed % len(CONFIGS)]
        setup = make_setup(game, players, seed)
        clean = SimulatedGame(setup).run()
        rough = SimulatedGame(setup, noise=Noise.rough()).run()
        assert clean.referee.finished and rough.referee.finished
        assert [e.to_json() for e in rough.referee.log] == [
            e.to_json() for e in clean.referee.log
        ], f"seed {seed}"
        assert not any(e["kind"] == "fault" for e in clean.referee.events)
        faults += sum(1 for e in rough.referee.events if e["kind"] == "fault")
    assert faults > 0  # the noise really made the table misbehave
