"""The simulated table at people's pace: its journal, fed to the OBSERVED referee, gives
the seeded game's events (run() raises if not); a spaced, ticked table and a rough table at
human pace give the same game; ticks never matter; FD-9's penalty never applies."""

from __future__ import annotations

import random

import pytest

from companion.games.flipdone.bots import random_action
from companion.games.flipdone.referee import FlipDoneReferee
from companion.games.flipdone.rules import (
    Config,
    PhaseEnded,
    apply,
    is_over,
    make_config,
    new_game,
)
from companion.games.flipdone.sim import FlipDoneSim, Noise, Pace, comparable, make_setup
from companion.journal import TickInput

BLOCKS = 8
PER_BLOCK = 30


def game_events(sim_result) -> list[dict]:
    return comparable(sim_result.referee.log)


@pytest.mark.parametrize("block", range(BLOCKS))
def test_timing_invariance_spaced_and_human_pace_on_a_rough_table_give_one_game(block):
    """240 games: the same seeded game played a second an act with ticks, and at people's
    pace on a rough table (flicker, duplicated reports, stray tags, refused presses)."""
    faults = 0
    for seed in range(block * PER_BLOCK, (block + 1) * PER_BLOCK):
        setup = make_setup(seed)
        bots = ["heuristic", "random"] if seed % 2 else None
        spaced = FlipDoneSim(setup, bots=bots, pace=Pace.spaced()).run()
        rough = FlipDoneSim(setup, bots=bots, noise=Noise.rough()).run()
        assert spaced.referee.finished and rough.referee.finished
        assert game_events(rough) == game_events(spaced) == comparable(spaced.decided), seed
        assert rough.referee.result()["scores"] == spaced.referee.result()["scores"]
        assert not any(e["kind"] in ("fault", "ignored") for e in spaced.referee.events)
        faults += sum(e["kind"] == "fault" for e in rough.referee.events)
    assert faults > 0  # the noise really made the table misbehave


@pytest.mark.parametrize("seed", range(4))
def test_a_journal_replays_the_same_without_its_ticks(seed):
    result = FlipDoneSim(make_setup(seed), pace=Pace.spaced()).run()
    inputs = result.inputs
    bare = [r for r in inputs[:-1] if not isinstance(r, TickInput)] + [inputs[-1]]
    assert len(bare) < len(inputs)
    referee = FlipDoneReferee(result.setup)
    for record in bare:
        referee.feed(record)
    assert referee.events == result.referee.events
    assert referee.result()["scores"] == result.referee.result()["scores"]


@pytest.mark.parametrize("seed", range(6))
def test_the_first_player_chooses_variant_at_the_table(seed):
    """FD-2 variant: the phase's first player lays the face-up card where they choose."""
    config = make_config(first_element="chosen", phases=1, manches=2)
    noise = Noise.rough() if seed % 2 else None
    result = FlipDoneSim(make_setup(seed), config=config, noise=noise).run()
    placed = [e for e in result.referee.log if type(e).__name__ == "FirstPlaced"]
    assert placed and all(e.seat is not None for e in placed)
    assert result.referee.finished


def test_fd9_a_phase_never_ends_with_cards_in_hand_under_the_books_rules():
    """FD-9 ends a phase when nobody can build or flip: every square a flipped element, or
    every hand empty. Flipping every square takes 8 builds and 9 flips, 17 plays, but a
    phase deals only 12 hand cards (FD-2): the hands are always empty first, so nobody
    ever pays a token for cards left. Checked over random play too."""
    assert (9 - 1) + 9 > 3 * 4
    rng = random.Random(9)
    ended = 0
    for seed in range(150):
        state, _ = new_game(Config(tie_phase_limit=3), seed)
        while not is_over(state):
            state, events = apply(state, random_action(state, rng))
            for e in events:
                if isinstance(e, PhaseEnded):
                    ended += 1
                    assert e.cards_left == (0, 0, 0) and e.paid == (0, 0, 0)
    assert ended >= 150 * 9
