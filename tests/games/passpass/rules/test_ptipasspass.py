"""PtiPassPass: one test (at least) per ruling PTI-1..PTI-15 and per "cas particulier".

Seats are 0-based and clockwise; seat s + 1 is on seat s's left. With 3 players the hats
form a 3 x 3 grid numbered 1..9 in reading order (PTI-2).
"""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from companion.games.passpass.rules import (
    PTIPASSPASS,
    Announce,
    Announced,
    Call,
    Challenge,
    CloseWindow,
    Config,
    Designate,
    Designated,
    GameWon,
    MancheStarted,
    MancheVoid,
    MancheWon,
    Pass,
    Passed,
    Phase,
    Placed,
    Reveal,
    Revealed,
    RewardDrop,
    Rewarded,
    RewardToken,
    Swap,
    TurnStarted,
    Verdict,
    apply,
    best_pick,
    can_still_win,
    clockwise_first,
    is_over,
    legal_actions,
    make_config,
    new_game,
    player_view,
    public_view,
)
from companion.rules.errors import BadInput, IllegalAction
from tests.games.passpass.rules.helpers import assert_conserved, game, play, position

DOUBLON, MENTEUR = Challenge.DOUBLON, Challenge.MENTEUR
ALL = ("colombe", "lapin", "souris")


def masked_drop(state, spot, token, announced, seat=0):
    """Seat `seat` (the Magicien) drops `token` into `spot` and announces `announced`."""
    return play(state, Designate(seat, spot, token), Announce(seat, announced))


# PTI-1 ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_pti_1_each_player_starts_with_three_animals_and_two_challenge_tokens(players):
    state = game(players)
    assert state.hands == (ALL,) * players
    assert state.challenge_tokens == (2,) * players
    assert state.victories == (0,) * players
    assert all(hat == () for hat in state.hats)


@pytest.mark.parametrize("players", [1, 7])
def test_pti_1_refuses_fewer_than_2_or_more_than_6_players(players):
    with pytest.raises(BadInput, match="2 to 6 players"):
        game(players)


@pytest.mark.parametrize("seat", [-1, 3, "0", None])
def test_pti_1_an_action_for_a_seat_not_at_the_table_is_bad_input_never_applied(seat):
    """PTI-1: three players are seats 0..2; another seat (3, or -1, which would read seat
    2's hand) is refused before any rule is read, whoever's turn it is."""
    state = game(3)
    with pytest.raises(BadInput, match=f"no seat {seat!r}: seats are 0..2"):
        play(state, Designate(seat, 1, "lapin"))  # type: ignore[arg-type]


@pytest.mark.parametrize("spot", [0, 10, "1", None])
def test_pti_2_a_hat_outside_1_to_n_is_bad_input_never_applied(spot):
    """PTI-2: with 3 players the hats are numbered 1..9; any other hat, in a designation or
    a swap, is refused as bad input, not read as another hat."""
    state = game(3)
    with pytest.raises(BadInput, match=f"no hat {spot!r}: hats are 1..9"):
        play(state, Designate(0, spot, "lapin"))  # type: ignore[arg-type]
    if isinstance(spot, int):
        revealing = _reveal_position({1: ("lapin",)})
        with pytest.raises(BadInput, match=f"no hat {spot}: hats are 1..9"):
            play(revealing, Swap(0, spot, 1))


def test_anything_but_a_passpass_action_is_bad_input():
    with pytest.raises(BadInput, match="not a PassPass action"):
        apply(game(3), ("Designate", 0, 1, "lapin"))  # type: ignore[arg-type]


def test_pti_1_the_second_victory_token_wins_the_game():
    state = _reveal_position({1: ("lapin",), 2: ("lapin",), 3: ("lapin",)})
    state = position(state, victories=(1, 0, 0))
    state, events = play(state, Reveal(0, (1, 2, 3)))
    assert MancheWon(0, 2) in events and GameWon(0) in events
    assert state.phase is Phase.OVER and state.winner == 0 and is_over(state)
    assert legal_actions(state) == ()
    with pytest.raises(IllegalAction, match="PTI-1"):
        play(state, Reveal(0, (1, 2, 3)))


def _reveal_position(hats, **options):
    """Seat 0 (3 players) holds nothing and must reveal; `hats` are set and every other
    animal waits in seat 1's hand (PTI-14)."""
    state = game(3, **options)
    placed = [k for h in hats.values() for k in h]
    leftovers = tuple(k for k in ALL for _ in range(3 - placed.count(k)))
    return position(state, hats=hats, hands={0: (), 1: leftovers, 2: ()}, phase=Phase.REVEAL)


# PTI-2 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rows", "cols"), [(2, 2, 3), (3, 3, 3), (4, 3, 4), (5, 3, 5), (6, 3, 6)]
)
def test_pti_2_hat_grid_by_number_of_players(players, rows, cols):
    layout = game(players).config.layout
    assert layout.spots == rows * cols
    assert layout.positions[0] == (0, 0) and layout.positions[-1] == (rows - 1, cols - 1)


def test_pti_2_contiguous_means_orthogonal_neighbour_never_diagonal():
    layout = game(3).config.layout
    assert layout.contiguous(5, 2) and layout.contiguous(5, 4) and layout.contiguous(5, 6)
    assert layout.contiguous(5, 8)
    assert not layout.contiguous(5, 1) and not layout.contiguous(5, 9)  # red crosses
    assert not layout.contiguous(3, 4)  # end of one row, start of the next
    assert not layout.contiguous(1, 3)


def test_pti_2_a_swap_of_non_contiguous_hats_is_refused():
    state = position(game(3), hats={1: ("lapin",)}, hands={0: ("colombe", "souris")})
    state = position(state, hats={9: ("colombe", "souris")}, hands={0: ()}, phase=Phase.REVEAL)
    with pytest.raises(IllegalAction, match="PTI-2"):
        play(state, Swap(0, 1, 5))


# PTI-3 ------------------------------------------------------------------------------


def test_pti_3_lines_are_three_consecutive_hats_in_a_row_or_column():
    layout = game(4).config.layout  # 3 x 4
    assert layout.lines == (
        (1, 2, 3), (1, 5, 9), (2, 3, 4), (2, 6, 10), (3, 7, 11), (4, 8, 12),
        (5, 6, 7), (6, 7, 8), (9, 10, 11), (10, 11, 12),
    )  # fmt: skip


def test_pti_3_a_diagonal_or_a_gapped_triple_is_not_a_line():
    state = position(game(3), hands={0: ()}, hats={9: ALL}, phase=Phase.REVEAL)
    for spots in [(1, 5, 9), (3, 5, 7), (1, 2, 4)]:
        with pytest.raises(IllegalAction, match="PTI-3"):
            play(state, Reveal(0, spots))


# PTI-4 ------------------------------------------------------------------------------


def test_pti_4_tours_alternate_masque_visible_starting_masque():
    state = game(2)  # seats 0 and 1: a tour is two turns
    tours = []
    for _ in range(5):
        tours.append((state.tour, state.masque))
        seat = state.magician
        token = state.hands[seat][0]
        spot = 1 + len([h for h in state.hats if h])  # always an empty hat
        state, _ = play(state, Designate(seat, spot, token))
        if state.phase is Phase.ANNOUNCE:
            state, _ = play(state, Announce(seat, token))
        state, _ = play(state, Pass(1 - seat))
    assert [m for _, m in tours] == [True, True, False, False, True]
    assert [t for t, _ in tours] == [1, 1, 2, 2, 3]


def test_pti_4_in_a_visible_turn_the_animal_is_shown_and_only_doublon_may_be_called():
    state = game(3)
    state = position(state, tour=2)
    assert not state.masque
    state, events = play(state, Designate(0, 4, "lapin"))
    assert Designated(0, 4, "lapin") in events
    assert state.phase is Phase.WINDOW and state.announced == "lapin"
    assert state.open_challenges == (DOUBLON,)
    with pytest.raises(IllegalAction, match="PTI-9"):
        play(state, Call(1, MENTEUR))


def test_pti_4_a_masked_designation_does_not_show_the_animal():
    state, events = play(game(3), Designate(0, 4, "lapin"))
    assert Designated(0, 4, None) in events


def test_pti_4_only_the_magicien_knows_the_token_in_flight_each_seat_its_own_hand():
    """PTI-4, PTI-14: in a Masqué turn the designated token is the Magicien's secret until
    placed; every seat's view holds its own hand, and only the Magicien's the token."""
    fresh, _ = play(game(3, window="timed"), Designate(0, 4, "lapin"), Announce(0, "lapin"))
    fresh, _ = play(fresh, CloseWindow())  # played, so a snapshot of the board played on
    nothing = (None,) * 7
    assert (
        fresh.spot, fresh.announced, fresh.speaker, fresh.challenger, fresh.swapped,
        fresh.winner, fresh.holding,
    ) == nothing  # fmt: skip
    view = public_view(fresh)
    assert (view.spot, view.announced, view.speaker, view.challenger, view.swapped) == nothing[:5]
    assert view.winner is None and player_view(fresh, fresh.magician).holding is None
    state, _ = play(game(3), Designate(0, 4, "lapin"))
    views = [player_view(state, seat) for seat in range(3)]
    assert [v.holding for v in views] == ["lapin", None, None]
    assert [v.hand for v in views] == [("colombe", "souris"), ALL, ALL]
    assert [v.seat for v in views] == [0, 1, 2] and views[1].public == public_view(state)
    assert views[0].public.hand_counts == (2, 3, 3)  # the token in flight is in no hand
    assert (views[0].public.players, views[0].public.spots) == (3, 9)
    sent = json.loads(json.dumps(public_view(state).to_json()))  # what a screen receives
    assert sent["spot"] == 4 and sent["masque"] is True and sent["announced"] is None
    assert sent["hand_counts"] == [2, 3, 3] and sent["phase"] == "announce"
    assert "lapin" not in json.dumps(sent) and "holding" not in sent


# PTI-5 ------------------------------------------------------------------------------


def test_pti_5_a_magicien_holding_an_animal_must_place_it_and_cannot_reveal():
    state = game(3)
    assert state.phase is Phase.PLACE
    assert all(isinstance(a, Designate) for a in legal_actions(state))
    with pytest.raises(IllegalAction, match="PTI-5"):
        play(state, Reveal(0, (1, 2, 3)))


def test_pti_5_a_magicien_holding_nothing_must_reveal_after_at_most_one_swap():
    state = position(game(3), hands={0: ()}, hats={5: ALL}, phase=Phase.REVEAL)
    with pytest.raises(IllegalAction, match="PTI-5"):
        play(state, Designate(0, 1, "lapin"))
    state, events = play(state, Swap(0, 5, 6))
    with pytest.raises(IllegalAction, match="PTI-5"):
        play(state, Swap(0, 6, 5))
    assert all(isinstance(a, Reveal) for a in legal_actions(state))


def test_pti_5_only_the_magicien_acts_in_the_placement():
    with pytest.raises(IllegalAction, match="PTI-5"):
        play(game(3), Designate(1, 1, "lapin"))


# PTI-6 ------------------------------------------------------------------------------


def test_pti_6_any_hat_may_be_chosen_even_an_occupied_one():
    state = position(game(3), hats={7: ("souris",)}, hands={1: ("colombe", "lapin")})
    state, events = masked_drop(state, 7, "lapin", "lapin")
    state, events = play(state, Pass(1), Pass(2))
    assert Placed(0, 7) in events
    assert state.hats[6] == ("lapin", "souris")


def test_pti_6_in_a_masque_turn_the_announce_may_be_a_lie():
    state, events = masked_drop(game(3), 2, "lapin", "colombe")
    assert Announced(0, "colombe") in events  # what every screen tells: the announce
    assert state.announced == "colombe" and state.phase is Phase.WINDOW
    state, events = play(state, Pass(1), Pass(2))
    assert state.hats[1] == ("lapin",)  # nobody called it: the lie stands


# PTI-7 ------------------------------------------------------------------------------


def test_pti_7_seats_speak_once_clockwise_from_the_magiciens_left():
    state = position(game(4), magician=2, starter=2)
    state, _ = masked_drop(state, 1, "lapin", "lapin", seat=2)
    order = []
    while state.phase is Phase.WINDOW:
        order.append(state.speaker)
        wrong = next(s for s in range(4) if s not in (state.speaker, 2))
        with pytest.raises(IllegalAction, match="PTI-7"):
            play(state, Pass(wrong))
        state, events = play(state, Pass(state.speaker))
        assert events[0] == Passed(order[-1])  # every screen tells who said OK
    assert order == [3, 0, 1]
    assert state.magician == 3  # placed, turn over


def test_pti_7_an_ok_outside_a_challenge_window_is_refused_as_such():
    """Saying OK answers a challenge window: before one opens, the refusal says so (not
    that a timed window has no turns)."""
    with pytest.raises(IllegalAction, match="saying OK is not possible now: the turn is at"):
        play(game(3), Pass(1))


def test_pti_7_a_seat_without_challenge_token_can_only_say_ok_and_is_skipped():
    state = position(game(3), challenge_tokens=(4, 0, 2))
    state, _ = masked_drop(state, 1, "lapin", "lapin")
    assert state.speaker == 2
    with pytest.raises(IllegalAction, match="PTI-7"):
        play(state, Call(1, DOUBLON))


def test_pti_7_the_first_challenge_ends_the_round():
    state, _ = masked_drop(game(3), 1, "lapin", "souris")
    state, events = play(state, Call(1, MENTEUR))
    assert [e for e in events if isinstance(e, Verdict)][0].seat == 1
    assert state.phase is not Phase.WINDOW
    with pytest.raises(IllegalAction):
        play(state, Call(2, DOUBLON))


def test_pti_7_nobody_can_call_when_no_one_holds_a_challenge_token():
    state = position(game(3), challenge_tokens=(6, 0, 0))
    state, events = masked_drop(state, 1, "lapin", "souris")
    assert Placed(0, 1) in events and state.magician == 1


def test_pti_7_calling_costs_nothing_by_itself():
    state, _ = masked_drop(game(3), 1, "lapin", "souris")
    state, _ = play(state, Call(1, MENTEUR), RewardDrop(1, "colombe", 9))
    assert state.challenge_tokens == (2, 2, 2)


def test_pti_7_timed_window_any_eligible_seat_calls_and_silence_means_ok():
    state = game(4, window="timed")
    state, _ = masked_drop(state, 1, "lapin", "lapin")
    assert state.speaker is None and state.phase is Phase.WINDOW
    with pytest.raises(IllegalAction, match="PTI-7"):
        play(state, Pass(1))
    late, _ = play(state, Call(3, DOUBLON))  # seat 3 need not wait for seats 1 and 2
    assert late.magician == 1
    quiet, events = play(state, CloseWindow())
    assert Placed(0, 1) in events


def test_pti_7_a_timed_window_offers_each_call_clockwise_from_the_magiciens_left():
    """The timed window lists the calls in the order PTI-7 settles calls made together:
    seat by seat clockwise from the Magicien's left, a seat without Challenge token left
    out, Doublon before Menteur; closing (silence) first."""
    state = position(game(5, window="timed", first=3), challenge_tokens=(2, 0, 4, 2, 2))
    state, _ = masked_drop(state, 1, "lapin", "lapin", seat=3)
    assert legal_actions(state) == (
        CloseWindow(),
        *(Call(seat, call) for seat in (4, 0, 2) for call in (DOUBLON, MENTEUR)),
    )
    state = position(game(5, window="timed", first=3), tour=2)  # Visible: Doublon only
    state, _ = play(state, Designate(3, 1, "lapin"))
    assert legal_actions(state) == (CloseWindow(), *(Call(s, DOUBLON) for s in (4, 0, 1, 2)))


def test_pti_7_simultaneous_calls_are_settled_clockwise_from_the_magiciens_left():
    state = position(game(5, window="timed"), magician=3, starter=3)
    assert clockwise_first(state, {1, 4, 2}) == 4
    assert clockwise_first(state, {3, 2}) == 2  # the order starts at the Magicien's left
    assert clockwise_first(state, {0, 2}) == 0


# PTI-8 ------------------------------------------------------------------------------


def test_pti_8_doublon_succeeds_on_an_occupied_hat_magicien_takes_all_back():
    state = position(game(3), hats={5: ("lapin",)}, hands={1: ("colombe", "souris")})
    state, _ = masked_drop(state, 5, "souris", "souris")
    state, events = play(state, Call(1, DOUBLON))
    assert Verdict(DOUBLON, 1, 0, True, 5, ("lapin",), None) in events
    assert state.hats[4] == ()
    assert state.hands[0] == ("colombe", "lapin", "lapin", "souris")
    assert state.phase is Phase.REWARD and state.challenger == 1
    assert_conserved(state)


def test_pti_8_doublon_fails_on_an_empty_hat_animal_and_token_change_hands():
    state, _ = masked_drop(game(3), 5, "souris", "souris")
    state, events = play(state, Call(1, DOUBLON))
    assert Verdict(DOUBLON, 1, 0, False, 5, (), None) in events
    assert state.hats[4] == ()  # the hat stays empty
    assert state.hands[0] == ("colombe", "lapin")
    assert state.hands[1] == ("colombe", "lapin", "souris", "souris")
    assert state.challenge_tokens == (3, 1, 2)
    assert state.magician == 1 and state.phase is Phase.PLACE
    assert_conserved(state)


# PTI-9 ------------------------------------------------------------------------------


def test_pti_9_menteur_succeeds_on_a_lie_the_magicien_keeps_the_animal():
    state, _ = masked_drop(game(3), 5, "souris", "lapin")
    state, events = play(state, Pass(1), Call(2, MENTEUR))
    assert Verdict(MENTEUR, 2, 0, True, 5, None, "souris") in events
    assert state.hands[0] == ALL and state.hats[4] == ()
    assert state.phase is Phase.REWARD and state.challenger == 2


def test_pti_9_menteur_fails_on_the_truth_as_a_failed_doublon():
    state = position(game(3), hats={5: ("lapin",)}, hands={2: ("colombe", "souris")})
    state, _ = masked_drop(state, 5, "souris", "souris")
    state, events = play(state, Call(1, MENTEUR))
    assert Verdict(MENTEUR, 1, 0, False, 5, None, "souris") in events
    assert state.hands[1] == ("colombe", "lapin", "souris", "souris")
    assert state.hats[4] == ("lapin",)  # the animal was not placed
    assert state.challenge_tokens == (3, 1, 2)
    assert state.magician == 1


# PTI-10 -----------------------------------------------------------------------------


def _successful_menteur(state):
    state, _ = masked_drop(state, 5, "souris", "lapin")
    return play(state, Call(1, MENTEUR))[0]


def test_pti_10_reward_drop_is_shown_cannot_be_challenged_and_ends_the_turn():
    state = _successful_menteur(game(3))
    state, events = play(state, RewardDrop(1, "colombe", 5))
    assert Rewarded(1, "drop", "colombe", 5) in events
    assert not any(isinstance(e, Verdict) for e in events)
    assert state.hats[4] == ("colombe",)
    assert state.magician == 1  # the seat left of the Magicien, who happens to be seat 1


def test_pti_10_reward_token_comes_from_the_magicien():
    state = _successful_menteur(game(3))
    assert state.phase is Phase.REWARD and public_view(state).challenger == 1
    assert state.open_challenges == () and public_view(state).open_challenges == ()  # settled
    state, events = play(state, RewardToken(1))
    assert Rewarded(1, "token") in events
    assert state.challenge_tokens == (1, 3, 2)


def test_pti_10_next_magicien_is_left_of_the_magicien_never_of_the_challenger():
    state, _ = masked_drop(game(4), 5, "souris", "lapin")
    state, _ = play(state, Pass(1), Call(2, MENTEUR), RewardToken(2))
    assert state.magician == 1


def test_pti_10_when_neither_reward_is_possible_nothing_happens():
    state = position(game(3), challenge_tokens=(0, 4, 2), hands={1: ()}, hats={9: ALL})
    state, _ = masked_drop(state, 5, "souris", "lapin")
    state, events = play(state, Call(1, MENTEUR))
    assert Rewarded(1, "none") in events
    assert state.magician == 1 and state.phase is Phase.REVEAL


@pytest.mark.parametrize(
    ("players", "hand", "others", "magicien_tokens"),
    [
        (3, ALL, {}, 2),
        (3, ("lapin", "souris"), {9: ("colombe",)}, 2),
        (3, ("colombe", "colombe", "souris"), {2: ("lapin", "souris"), 9: ("lapin",)}, 0),
        (
            5,
            ("colombe", "lapin") + ("souris",) * 4,
            {s: ("colombe", "lapin") for s in (2, 3, 4)},
            1,
        ),
    ],
)
def test_pti_10_the_challenger_drops_any_animal_of_its_hand_into_any_hat_or_takes_a_token(
    players, hand, others, magicien_tokens
):
    """PTI-10: one of the successful Challenger's own animals into any hat, empty or not
    (PTI-6), or a Challenge token when the Magicien has one: every such choice, no other,
    whatever the hand (four souris won in failed challenges among five players too)."""
    hands = {1: hand} | {seat: h for seat, h in others.items() if seat < players}
    hats = {spot: h for spot, h in others.items() if spot >= players}
    tokens = (magicien_tokens, 2, 4 - magicien_tokens) + (2,) * (players - 3)
    state = position(game(players), hats, hands, challenge_tokens=tokens)
    legal = legal_actions(_successful_menteur(state))
    token = [RewardToken(1)] if magicien_tokens else []
    spots = range(1, state.config.layout.spots + 1)
    drops = [RewardDrop(1, animal, spot) for spot in spots for animal in sorted(set(hand))]
    assert len(legal) == len(token + drops) and set(legal) == set(token + drops)


def test_pti_10_an_empty_handed_challenger_may_still_take_a_token():
    """Either reward is a choice of its own: with no animal to drop, the successful
    Challenger still takes a Challenge token from the Magicien who has one."""
    state = position(game(3), hands={1: ()}, hats={9: ALL})
    state, _ = masked_drop(state, 5, "souris", "lapin")
    state, events = play(state, Call(1, MENTEUR))
    assert not any(isinstance(e, Rewarded) for e in events)
    assert state.phase is Phase.REWARD and legal_actions(state) == (RewardToken(1),)
    state, events = play(state, RewardToken(1))
    assert Rewarded(1, "token") in events and state.challenge_tokens == (1, 3, 2)


def test_pti_10_a_reward_before_any_successful_challenge_is_refused_as_untimely():
    """No challenge has succeeded yet, so no reward is due: the refusal says the reward
    is not possible now (not that another seat is the Challenger)."""
    state, _ = masked_drop(game(3), 5, "souris", "lapin")
    for action in (RewardToken(1), RewardDrop(1, "lapin", 1)):
        with pytest.raises(IllegalAction, match="PTI-10.*a reward is not possible now"):
            play(state, action)


def test_pti_10_no_token_reward_from_a_magicien_without_tokens():
    state = position(game(3), challenge_tokens=(0, 4, 2))
    state = _successful_menteur(state)
    assert not any(isinstance(a, RewardToken) for a in legal_actions(state))
    with pytest.raises(IllegalAction, match="PTI-10"):
        play(state, RewardToken(1))
    with pytest.raises(IllegalAction, match="PTI-10"):
        play(state, RewardDrop(2, "lapin", 1))


# PTI-11 -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hats",
    [
        {1: ("lapin",), 2: ("lapin",), 3: ("lapin",)},
        {1: ("lapin",), 2: ("souris",), 3: ("colombe",)},
    ],
)
def test_pti_11_three_identical_or_three_different_win(hats):
    state = _reveal_position(hats)
    state, events = play(state, Reveal(0, (1, 2, 3)))
    assert MancheWon(0, 1) in events


def test_pti_11_two_alike_and_one_different_lose_and_hats_go_back_unchanged():
    hats = {1: ("lapin",), 2: ("lapin",), 3: ("souris",)}
    state = _reveal_position(hats)
    after, events = play(state, Reveal(0, (1, 2, 3)))
    assert Revealed(0, (1, 2, 3), False, (("lapin",), ("lapin",), ("souris",)), None) in events
    assert after.hats == state.hats and after.magician == 1


def test_pti_11_best_pick_per_hat_is_found():
    assert best_pick([("lapin", "souris"), ("lapin",), ("colombe", "lapin")]) == (
        "lapin",
        "lapin",
        "lapin",
    )
    assert best_pick([("lapin", "souris"), ("souris",), ("souris", "colombe")]) == (
        "souris",
        "souris",
        "souris",
    )
    assert best_pick([("lapin",), ("lapin", "souris"), ("colombe", "lapin")]) == (
        "lapin",
        "lapin",
        "lapin",
    )
    assert best_pick([("lapin",), ("lapin",), ("colombe", "souris")]) is None
    assert best_pick([("lapin",), ("lapin", "souris"), ("colombe",)]) == (
        "lapin",
        "souris",
        "colombe",
    )


@pytest.mark.parametrize(
    "hats",
    [
        [("lapin",), ("lapin",)],
        [("lapin",), ("lapin",), ("lapin",), ("lapin",)],
        [("lapin",), (), ("lapin",)],
        [("lapin", "souris"), ("souris", "colombe"), ()],
    ],
)
def test_pti_11_a_pick_is_one_animal_from_each_of_three_hats_none_empty(hats):
    """PTI-11: the three hats of a line, each holding at least one animal; any other
    number of hats, or an empty one, never gives a pick (nor an error)."""
    assert best_pick(hats) is None


# PTI-12 -----------------------------------------------------------------------------


def test_pti_12_a_won_manche_deals_again_and_left_of_the_winner_starts():
    state = _reveal_position({1: ("lapin",), 2: ("lapin",), 3: ("lapin",)})
    state = position(state, tour=4, challenge_tokens=(5, 1, 0))
    state, events = play(state, Reveal(0, (1, 2, 3)))
    assert MancheStarted(2, 1) in events
    assert state.manche == 2 and state.magician == 1 and state.starter == 1
    assert state.hands == (ALL,) * 3 and all(h == () for h in state.hats)
    assert state.challenge_tokens == (2, 2, 2) and state.victories == (1, 0, 0)
    assert state.tour == 1 and state.masque


def test_pti_12_a_manche_won_after_a_swap_starts_the_next_as_any_won_manche():
    """PTI-5: the swap belongs to the turn that reveals; PTI-12: the next manche starts
    afresh, so nothing of that swap is left (the page would show it as made)."""
    swapped_in = _reveal_position({1: ("lapin",), 2: ("lapin",), 6: ("lapin",)})
    state, events = play(swapped_in, Swap(0, 3, 6), Reveal(0, (1, 2, 3)))
    assert MancheWon(0, 1) in events and state.manche == 2
    assert state.swapped is None and public_view(state).swapped is None
    assert state.phase is Phase.PLACE and state.open_challenges == ()  # no window yet
    in_place = _reveal_position({1: ("lapin",), 2: ("lapin",), 3: ("lapin",)})
    assert state == play(in_place, Reveal(0, (1, 2, 3)))[0]


def test_pti_12_configurable_the_winner_starts_the_next_manche():
    hats = {1: ("lapin",), 2: ("lapin",), 3: ("lapin",)}
    state = _reveal_position(hats, next_starter="winner")
    state, _ = play(state, Reveal(0, (1, 2, 3)))
    assert state.magician == 0


# PTI-13 -----------------------------------------------------------------------------


def test_pti_13_the_table_names_the_first_player():
    state = game(5, first=3)
    assert state.magician == 3 and state.starter == 3
    with pytest.raises(BadInput, match="first player"):
        game(5, first=5)


@pytest.mark.parametrize("first", [-1, 5])
def test_pti_13_a_first_player_not_at_the_table_is_bad_input_naming_the_seats(first):
    with pytest.raises(BadInput, match=f"first player must be a seat 0..4, not {first}"):
        make_config("ptipasspass", 5, first=first)


def test_pti_13_any_seat_at_the_table_may_be_named_first():
    for first in (0, 4):
        assert game(5, first=first).magician == first


@pytest.mark.parametrize(
    ("game_name", "players", "says"),
    [
        ("ptipasspass", 1, "ptipasspass is for 2 to 6 players, not 1"),
        ("ptipasspass", 7, "ptipasspass is for 2 to 6 players, not 7"),
        ("phipasspass", 2, "phipasspass is for 3 to 6 players, not 2"),
        ("phipasspass", 7, "phipasspass is for 3 to 6 players, not 7"),
    ],
)
def test_pti_1_phi_1_a_table_of_the_wrong_size_is_refused_with_the_editions_range(
    game_name, players, says
):
    with pytest.raises(BadInput, match=says):
        make_config(game_name, players)


def test_pti_1_a_config_built_directly_is_checked_as_make_config_checks_it():
    layout = make_config("ptipasspass", 6).layout
    with pytest.raises(BadInput, match="ptipasspass is for 2 to 6 players, not 7"):
        Config(PTIPASSPASS, 7, layout)


def test_pti_2_a_draft_edition_for_more_players_than_any_grid_asks_for_its_layout():
    """A designer's draft for 8 players: PTI-2 gives no grid for 8, so the table is told
    to give a layout, never a crash."""
    draft = dataclasses.replace(PTIPASSPASS, name="draft", max_players=8)
    with pytest.raises(
        BadInput, match=re.escape("no hat layout for 8 players (PTI-2 covers 2 to 6)")
    ):
        make_config(draft, 8)


def test_pti_1_phi_1_each_editions_smallest_and_largest_tables_are_accepted():
    for game_name, players in [("ptipasspass", 2), ("ptipasspass", 6), ("phipasspass", 3)]:
        assert make_config(game_name, players).players == players
    assert make_config("phipasspass", 6).layout.spots == 18


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"turn_limit": 0}, "turn_limit must be at least 1 or None, not 0"),
        ({"window": "silent"}, "'silent' is not a valid WindowMode"),
        ({"next_starter": "loser"}, "'loser' is not a valid Starter"),
    ],
)
def test_pti_7_12_15_a_setting_out_of_range_is_bad_input_naming_it(options, says):
    with pytest.raises(BadInput, match=says):
        make_config("ptipasspass", 3, **options)


def test_a_config_round_trips_and_an_older_one_without_the_later_settings_reads_with_defaults():
    """The settings a config written before PTI-7/12/13/15's options had are the defaults:
    first seat 0, round windows, left of the winner starts, no turn limit."""
    config = make_config(
        "phipasspass", 4, first=3, window="timed", next_starter="winner", turn_limit=1
    )
    assert Config.from_json(json.loads(json.dumps(config.to_json()))) == config
    older = {k: v for k, v in config.to_json().items() if k in ("game", "players", "layout")}
    assert Config.from_json(older) == make_config("phipasspass", 4)
    assert Config.from_json(older) == Config(config.rules, 4, config.layout)


def test_pti_13_new_game_opens_the_first_manche_on_the_first_players_turn():
    state, opening = new_game(make_config("ptipasspass", 5, first=3), 0)
    assert opening == (MancheStarted(1, 3), TurnStarted(3, 1, True, Phase.PLACE))
    assert new_game(make_config("ptipasspass", 5, first=3), 7) == (state, opening)  # no chance


# PTI-14 -----------------------------------------------------------------------------


def test_pti_14_a_token_not_in_hand_cannot_be_placed():
    state = position(game(3), hands={0: ("lapin", "souris"), 1: ALL + ("colombe",)})
    with pytest.raises(IllegalAction, match="PTI-14"):
        play(state, Designate(0, 1, "colombe"))


def test_pti_14_the_animal_in_flight_is_counted_once():
    state, _ = masked_drop(game(3), 4, "lapin", "lapin")
    assert state.holding == "lapin" and state.hats[3] == ()
    assert_conserved(state)


# PTI-15 -----------------------------------------------------------------------------


def test_pti_15_dead_manche_is_void_and_the_same_magicien_starts():
    # Every hand is empty. Colombe is in two hats only, lapin and souris share one hat:
    # no three hats give three identical or three different animals, whatever the swaps.
    dead = {1: ("lapin",) * 3 + ("souris",) * 3, 5: ("colombe", "colombe"), 9: ("colombe",)}
    state = _reveal_position(dead)
    assert state.hands == ((), (), ())
    state, events = play(state, Reveal(0, (1, 2, 3)))
    assert MancheVoid("no three hats can ever win") in events
    assert state.manche == 2 and state.magician == 1 and state.victories == (0, 0, 0)
    assert state.hands == (ALL,) * 3 and all(h == () for h in state.hats)


def test_pti_15_can_still_win_uses_any_three_hats_whatever_their_place():
    assert can_still_win([("lapin",), (), ("souris",), ("colombe", "lapin")], ALL) is True
    assert can_still_win([("lapin",), ("lapin", "souris"), ("lapin",)], ALL) is True
    assert can_still_win([("lapin", "souris"), ("colombe",), ("colombe",)], ALL) is False
    assert can_still_win([("lapin", "souris", "colombe"), ("colombe",)], ALL) is False
    assert can_still_win([("lapin", "colombe"), ("souris", "colombe")], ALL) is False  # 2 hats


def test_pti_15_three_different_animals_need_each_kind_in_a_hat():
    """PTI-11's "all different" needs a colombe, a lapin and a souris from three distinct
    hats: with no colombe left in any hat, and no animal in all three, nothing can win."""
    assert can_still_win([("lapin",), ("lapin", "souris"), ("souris",)], ALL) is False
    assert can_still_win([("lapin",), ("lapin", "souris"), ("colombe",)], ALL) is True


def test_pti_15_a_manche_that_can_still_be_won_is_not_void():
    state = _reveal_position({1: ("lapin",), 2: ("lapin",), 6: ("souris",)})
    state, events = play(state, Reveal(0, (1, 2, 3)))  # fails, but swaps can still win
    assert not any(isinstance(e, MancheVoid) for e in events)
    assert state.manche == 1


def test_pti_15_configurable_turn_limit_voids_a_long_manche():
    state = game(3, turn_limit=2)
    state, _ = masked_drop(state, 1, "lapin", "lapin")
    state, _ = play(state, Pass(1), Pass(2))
    state, events = play(state, Designate(1, 2, "lapin"), Announce(1, "lapin"))
    state, events = play(state, Pass(2), Pass(0))
    assert MancheVoid("turn limit of 2 reached") in events
    assert state.manche == 2 and state.magician == 2


# Cas particuliers of the book ------------------------------------------------------


def test_cas_particulier_doublon_takes_back_all_the_animals_of_the_hat():
    state = position(game(3), hats={3: ALL}, hands={1: ()})
    state, _ = masked_drop(state, 3, "lapin", "lapin")
    state, _ = play(state, Call(1, DOUBLON))
    assert state.hats[2] == ()
    assert state.hands[0] == ("colombe", "colombe", "lapin", "lapin", "souris", "souris")


def test_cas_particulier_an_empty_hat_in_the_line_means_no_victory():
    state = _reveal_position({1: ("lapin",), 3: ("lapin",), 4: ("lapin",)})
    after, events = play(state, Reveal(0, (1, 2, 3)))
    assert not any(isinstance(e, MancheWon) for e in events)
    assert after.hats == state.hats and after.victories == (0, 0, 0)


def test_cas_particulier_several_animals_in_a_hat_the_best_one_is_chosen():
    state = _reveal_position({1: ("colombe", "lapin"), 2: ("souris",), 3: ("colombe",)})
    state, events = play(state, Reveal(0, (1, 2, 3)))
    (revealed,) = [e for e in events if isinstance(e, Revealed)]
    assert revealed.success and revealed.pick == ("lapin", "souris", "colombe")


def test_cas_particulier_an_empty_handed_challenger_who_loses_must_place_before_revealing():
    state = position(game(3), hands={1: ()}, hats={9: ALL})
    state, _ = masked_drop(state, 4, "lapin", "lapin")
    state, _ = play(state, Call(1, MENTEUR))  # the truth: seat 1 loses, gets the lapin
    assert state.magician == 1 and state.hands[1] == ("lapin",)
    assert state.phase is Phase.PLACE
    with pytest.raises(IllegalAction, match="PTI-5"):
        play(state, Reveal(1, (1, 2, 3)))


def test_cas_particulier_a_swap_stays_after_a_failed_reveal():
    state = _reveal_position({1: ("lapin",), 2: ("souris",), 4: ("souris",)})
    state, events = play(state, Swap(0, 1, 4), Reveal(0, (1, 2, 3)))
    assert not any(isinstance(e, MancheWon) for e in events)
    assert state.hats[0] == ("souris",) and state.hats[3] == ("lapin",)
