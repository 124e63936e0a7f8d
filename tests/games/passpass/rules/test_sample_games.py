"""The contract's sample games of PtiPassPass and PhiPassPass (rules/contract.py): what the
engine contract's suite plays. Its promises: every number of players each rule set allows
and first seats all round the table (PTI-1, PTI-13), and PhiPassPass's sample player
calling "Doublon !" or "Menteur !" only now and then (PHI-2 gives two windows a turn;
called at random, a game almost never ends)."""

from __future__ import annotations

import random

from companion.games.passpass.rules import apply, legal_actions
from companion.games.passpass.rules.actions import Call
from companion.games.passpass.rules.contract import CALL_RATE, ENGINES, rare_calls


def test_the_sample_games_seat_every_number_of_players_and_every_first_seat() -> None:
    assert ENGINES["ptipasspass"].sample_policy is None  # uniformly random: its games end
    assert ENGINES["phipasspass"].sample_policy is rare_calls
    for name, players in (("ptipasspass", range(2, 7)), ("phipasspass", range(3, 7))):
        configs = [ENGINES[name].sample_config(seed) for seed in range(60)]
        assert {c.players for c in configs} == set(players), name
        assert {c.first for c in configs} == set(range(max(players))), name
        assert all(0 <= c.first < c.players for c in configs)


def test_phipasspass_s_sample_player_calls_one_time_in_twenty_when_it_may_do_else() -> None:
    engine = ENGINES["phipasspass"]
    state, _ = engine.sample_game(0)
    rng = random.Random(0)
    while not (
        any(isinstance(a, Call) for a in legal_actions(state))
        and any(not isinstance(a, Call) for a in legal_actions(state))
    ):
        state, _ = apply(state, rare_calls(state, rng))
    picks = [rare_calls(state, random.Random(seed)) for seed in range(400)]
    assert all(a in legal_actions(state) for a in picks)
    calls = sum(isinstance(a, Call) for a in picks)
    assert CALL_RATE == 0.05 and 8 <= calls <= 36, calls  # 20 expected
