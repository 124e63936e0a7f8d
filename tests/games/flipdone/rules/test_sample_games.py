"""The contract's sample games of Flip Done (rules/contract.py): what the engine contract's
suite plays. Its promise: both deals (FD-2), every first seat and both ways of placing a
phase's first element, and a bound on the phases that play off a tie (FD-10), so every
sample game ends."""

from __future__ import annotations

from companion.games.flipdone.rules import PLAYERS
from companion.games.flipdone.rules.config import Deal, FirstElement
from companion.games.flipdone.rules.contract import sample_config

SEEDED, OBSERVED = Deal.SEEDED, Deal.OBSERVED
CENTRE, CHOSEN = FirstElement.CENTRE, FirstElement.CHOSEN


def test_the_sample_games_take_both_deals_every_first_seat_and_both_first_elements() -> None:
    """FD-2: the engine deals on even seeds, the table on odd ones; the first seat and the
    first element's placing change every two seeds."""
    configs = [sample_config(seed) for seed in range(8)]
    assert [(c.deal, c.first, c.first_element) for c in configs] == [
        (SEEDED, 0, CENTRE), (OBSERVED, 0, CENTRE),
        (SEEDED, 1, CHOSEN), (OBSERVED, 1, CHOSEN),
        (SEEDED, 2, CENTRE), (OBSERVED, 2, CENTRE),
        (SEEDED, 0, CHOSEN), (OBSERVED, 0, CHOSEN),
    ]  # fmt: skip
    assert PLAYERS == 3


def test_at_most_4_extra_phases_play_off_a_tie_in_a_sample_game() -> None:
    """FD-10's `tie_phase_limit`: then the tie stands, so every sample game ends."""
    assert {sample_config(seed).tie_phase_limit for seed in range(8)} == {4}
