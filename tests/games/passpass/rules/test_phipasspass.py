"""PhiPassPass: one test (at least) per ruling PHI-1..PHI-5 and per "cas particulier"."""

from __future__ import annotations

import pytest

from companion.games.passpass.rules import (
    Announce,
    Announced,
    Call,
    Challenge,
    CloseWindow,
    Designate,
    Designated,
    MancheStarted,
    MancheVoid,
    MancheWon,
    Pass,
    Phase,
    Placed,
    Reveal,
    Revealed,
    Rewarded,
    Swap,
    Verdict,
    clockwise_first,
    legal_actions,
    public_view,
)
from companion.rules.errors import BadInput, IllegalAction
from tests.games.passpass.rules.helpers import assert_conserved, game, play, position

DOUBLON, MENTEUR = Challenge.DOUBLON, Challenge.MENTEUR
ALL = ("bleu", "orange", "vert")


def phi(players=3, **options):
    return game(players, "phipasspass", **options)


def reveal_position(hats, players=3):
    """Seat 0 holds nothing and must reveal; the other tokens wait in seat 1's hand."""
    placed = [k for h in hats.values() for k in h]
    leftovers = tuple(k for k in ALL for _ in range(players - placed.count(k)))
    hands = {seat: () for seat in range(players)} | {1: leftovers}
    return position(phi(players), hats=hats, hands=hands, phase=Phase.REVEAL)


# PHI-1 ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 7])
def test_phi_1_three_to_six_players(players):
    with pytest.raises(BadInput, match="3 to 6 players"):
        phi(players)


def test_phi_1_colour_tokens_and_no_challenge_tokens():
    state = phi(4)
    assert state.hands == (ALL,) * 4
    assert state.challenge_tokens == (0, 0, 0, 0)
    with pytest.raises(BadInput, match="unknown token 'lapin'"):
        play(state, Designate(0, 1, "lapin"))


def test_phi_1_every_placement_is_hidden_there_is_no_visible_turn():
    state = phi(3)
    for _ in range(9):  # three whole tours
        assert state.masque
        seat = state.magician
        token = state.hands[seat][0]
        spot = 1 + sum(1 for h in state.hats if h)
        state, events = play(state, Designate(seat, spot, token))
        assert Designated(seat, spot, None) in events
        state, _ = play(state, Pass((seat + 1) % 3), Pass((seat + 2) % 3))
        state, _ = play(state, Announce(seat, token))
        state, _ = play(state, Pass((seat + 1) % 3), Pass((seat + 2) % 3))
    assert state.tour == 4


def test_phi_1_anyone_may_call_without_any_token():
    state, _ = play(phi(3), Designate(0, 1, "bleu"), Pass(1))
    state, events = play(state, Call(2, DOUBLON))
    assert any(isinstance(e, Verdict) for e in events)


# PHI-2 ------------------------------------------------------------------------------


def test_phi_2_window_one_after_the_designation_takes_only_doublon():
    state, _ = play(phi(3), Designate(0, 4, "vert"))
    assert state.phase is Phase.WINDOW and state.announced is None
    assert state.open_challenges == (DOUBLON,)
    with pytest.raises(IllegalAction, match="PHI-2"):
        play(state, Call(1, MENTEUR))


def test_phi_2_window_two_after_the_announce_takes_only_menteur():
    state, _ = play(phi(3), Designate(0, 4, "vert"), Pass(1), Pass(2))
    assert state.phase is Phase.ANNOUNCE
    assert state.open_challenges == () and public_view(state).open_challenges == ()
    state, events = play(state, Announce(0, "bleu"))
    assert events[0] == Announced(0, "bleu")  # the colour said, told to every screen
    assert state.open_challenges == (MENTEUR,)
    with pytest.raises(IllegalAction, match="PHI-2"):
        play(state, Call(1, DOUBLON))
    state, events = play(state, Pass(1), Pass(2))
    assert Placed(0, 4) in events and state.hats[3] == ("vert",)


def test_phi_2_calls_that_come_together_go_clockwise_from_the_active_players_left():
    state = position(phi(6, window="timed"), magician=4, starter=4)
    assert clockwise_first(state, {0, 3, 1}) == 0
    state, _ = play(state, Designate(4, 2, "bleu"))
    assert state.speaker is None and state.phase is Phase.WINDOW
    state, _ = play(state, CloseWindow(), Announce(4, "bleu"), CloseWindow())
    assert state.hats[1] == ("bleu",)


# PHI-3 ------------------------------------------------------------------------------


def test_phi_3_doublon_on_an_occupied_cup_active_player_takes_all_and_keeps_their_own():
    state = position(phi(3), hats={2: ("orange",)}, hands={1: ("bleu", "vert")})
    state, events = play(state, Designate(0, 2, "bleu"), Call(1, DOUBLON))
    assert Verdict(DOUBLON, 1, 0, True, 2, ("orange",), None) in events
    assert not any(isinstance(e, Rewarded) for e in events)  # PHI-5
    assert state.hands[0] == ("bleu", "orange", "orange", "vert")
    assert state.hats[1] == () and state.magician == 1  # the turn ends
    assert_conserved(state)


def test_phi_3_doublon_on_an_empty_cup_the_accuser_takes_the_token():
    state, events = play(phi(3), Designate(0, 2, "bleu"), Pass(1), Call(2, DOUBLON))
    assert Verdict(DOUBLON, 2, 0, False, 2, (), None) in events
    assert state.hands[0] == ("orange", "vert")
    assert state.hands[2] == ("bleu", "bleu", "orange", "vert")
    assert state.magician == 1
    assert_conserved(state)


# PHI-4 ------------------------------------------------------------------------------


def test_phi_4_menteur_on_a_lie_the_active_player_keeps_the_token_unplaced():
    state, _ = play(phi(3), Designate(0, 2, "bleu"), Pass(1), Pass(2), Announce(0, "vert"))
    state, events = play(state, Call(1, MENTEUR))
    assert Verdict(MENTEUR, 1, 0, True, 2, None, "bleu") in events
    assert state.hands[0] == ALL and state.hats[1] == ()
    assert state.magician == 1


def test_phi_4_menteur_on_the_truth_the_accuser_takes_the_token():
    state, _ = play(phi(3), Designate(0, 2, "bleu"), Pass(1), Pass(2), Announce(0, "bleu"))
    state, events = play(state, Pass(1), Call(2, MENTEUR))
    assert Verdict(MENTEUR, 2, 0, False, 2, None, "bleu") in events
    assert state.hands[2] == ("bleu", "bleu", "orange", "vert")
    assert state.challenge_tokens == (0, 0, 0)


# PHI-5 ------------------------------------------------------------------------------


def test_phi_5_no_reward_after_a_successful_challenge():
    state, _ = play(phi(3), Designate(0, 2, "bleu"), Pass(1), Pass(2), Announce(0, "vert"))
    state, events = play(state, Call(1, MENTEUR))
    assert state.phase is Phase.PLACE and state.challenger is None
    assert not any(isinstance(e, Rewarded) for e in events)


def test_phi_5_reveal_victory_and_new_manche_as_in_ptipasspass():
    state = reveal_position({4: ("bleu",), 5: ("orange",), 6: ("vert",)})
    with pytest.raises(IllegalAction, match="PTI-3"):
        play(state, Reveal(0, (4, 5, 9)))
    state, events = play(state, Reveal(0, (4, 5, 6)))
    assert MancheWon(0, 1) in events and MancheStarted(2, 1) in events
    assert state.hands == (ALL,) * 3


def test_phi_5_dead_manche_is_void():
    state = reveal_position({1: ("bleu",) * 3 + ("vert",) * 3, 5: ("orange",) * 3})
    state, events = play(state, Reveal(0, (1, 2, 3)))
    assert any(isinstance(e, MancheVoid) for e in events)
    assert state.magician == 1 and state.manche == 2


# Cas particuliers of the book ------------------------------------------------------


def test_cas_particulier_doublon_takes_all_the_tokens_of_the_cup():
    state = position(phi(3), hats={7: ALL}, hands={2: ()})
    state, _ = play(state, Designate(0, 7, "vert"), Call(1, DOUBLON))
    assert state.hats[6] == ()
    assert state.hands[0] == ("bleu", "bleu", "orange", "orange", "vert", "vert")


def test_cas_particulier_a_cup_without_token_means_no_victory():
    state = reveal_position({1: ("vert",), 2: ("vert",)})
    after, events = play(state, Reveal(0, (1, 2, 3)))
    assert not any(isinstance(e, MancheWon) for e in events)
    assert after.hats == state.hats


def test_cas_particulier_several_tokens_under_a_cup_the_best_colour_is_chosen():
    state = reveal_position({1: ("bleu", "vert"), 2: ("vert",), 3: ("orange", "vert")})
    state, events = play(state, Reveal(0, (1, 2, 3)))
    (revealed,) = [e for e in events if isinstance(e, Revealed)]
    assert revealed.success and revealed.pick == ("vert", "vert", "vert")


def test_cas_particulier_an_empty_handed_accuser_who_loses_must_place_first():
    state = position(phi(3), hands={1: ()}, hats={9: ALL})
    state, _ = play(state, Designate(0, 4, "bleu"), Call(1, DOUBLON))  # empty cup: loses
    assert state.magician == 1 and state.hands[1] == ("bleu",)
    assert state.phase is Phase.PLACE
    assert all(isinstance(a, Designate) for a in legal_actions(state))


def test_cas_particulier_swapped_cups_stay_after_a_failed_reveal():
    state = reveal_position({2: ("bleu",), 3: ("vert",), 5: ("vert",)})
    state, _ = play(state, Swap(0, 2, 5), Reveal(0, (1, 2, 3)))
    assert state.hats[1] == ("vert",) and state.hats[4] == ("bleu",)
