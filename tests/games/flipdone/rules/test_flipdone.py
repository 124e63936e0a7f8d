"""Flip Done: one test (at least) per ruling FD-1..FD-10, on hand-built positions.

Seats are 0-based and clockwise; seat s + 1 is on seat s's left. Squares are 1..9 in
reading order; lines are the indexes of LINES: 0-2 columns, 3-5 rows, 6-7 diagonals.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest

from companion.games.flipdone.rules import (
    DECK,
    LINES,
    LINES_THROUGH,
    Build,
    Built,
    Config,
    Deal,
    Discard,
    Discarded,
    FirstElement,
    FirstPlaced,
    Flip,
    Flipped,
    GameOver,
    LineBroken,
    LineHeld,
    LineLost,
    LineMade,
    MancheTie,
    MancheWon,
    PhaseEnded,
    PhaseStarted,
    PlaceFirst,
    Stage,
    Tied,
    TieStands,
    action_from_json,
    actors,
    aligned,
    apply,
    is_over,
    is_red,
    legal_actions,
    make_config,
    phase_over,
    player_view,
    public_view,
)
from companion.rules.errors import BadInput, IllegalAction
from tests.games.flipdone.rules.helpers import assert_conserved, game, play, position

COL1, COL2, COL3, ROW1, ROW2, ROW3, DIAG159, DIAG357 = range(8)

# FD-1 ------------------------------------------------------------------------------


def test_fd_1_three_players_and_a_52_card_deck():
    assert len(DECK) == len(set(DECK)) == 52
    assert sum(is_red(c) for c in DECK) == 26
    assert is_red("QH") and is_red("10D") and not is_red("AS") and not is_red("10C")
    with pytest.raises(BadInput, match="3 players"):
        make_config(players=4)


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"manches": 0}, "a game has at least 1 manche, not 0"),
        ({"phases": 0}, "a manche has at least 1 phase, not 0"),
        ({"first": -1}, "first player must be a seat 0..2, not -1"),
        ({"first": 3}, "first player must be a seat 0..2, not 3"),
        ({"tie_phase_limit": -1}, "tie_phase_limit must be at least 0 or None, not -1"),
        ({"first_element": "corner"}, "'corner' is not a valid FirstElement"),
        ({"manche_tie": "coin"}, "'coin' is not a valid MancheTie"),
        ({"deal": "dealt"}, "'dealt' is not a valid Deal"),
    ],
)
def test_fd_2_fd_10_a_setting_just_past_its_range_is_bad_input_naming_it(options, says):
    with pytest.raises(BadInput, match=re.escape(says)):
        make_config(**options)


def test_fd_2_fd_10_each_settings_extreme_value_is_a_game_and_round_trips():
    """One manche of one phase, the last seat first, no extra phase at a tie (FD-10's cap
    at 0): the smallest game a table may set up, saved and read back the same."""
    config = make_config(
        manches=1, phases=1, first=2, tie_phase_limit=0, first_element="chosen",
        manche_tie="extra_only", deal="observed",
    )  # fmt: skip
    assert (config.manches, config.phases, config.first, config.tie_phase_limit) == (1, 1, 2, 0)
    assert Config.from_json(json.loads(json.dumps(config.to_json()))) == config
    assert game(first=2).turn == 2


def test_a_config_saved_before_its_later_settings_reads_with_the_books_defaults():
    """FD-2's 3 manches of 3 phases, seat 0 first, the centre card, no cap on FD-10."""
    assert Config.from_json({"game": "flipdone"}) == make_config() == Config()
    assert make_config() == Config(
        players=3, manches=3, phases=3, first=0, first_element=FirstElement.CENTRE,
        manche_tie=MancheTie.CUMULATIVE, tie_phase_limit=None, deal=Deal.SEEDED,
    )  # fmt: skip


def test_fd_1_only_colour_matters_for_an_alignment():
    state = position(game(), faces={1: "AH", 2: "10D", 3: "KH", 4: "2S"})
    assert aligned(state, ROW1)  # hearts and diamonds: all red
    state = position(game(), faces={1: "AH", 2: "10S", 3: "KH"})
    assert not aligned(state, ROW1)


def test_fd_1_a_players_tokens_never_go_below_zero():
    # Seat 0's row 1 is broken by seat 1 while seat 0 holds a single token (FD-6):
    # the missing token comes from the bank.
    state = position(
        game(),
        faces={1: "AH", 2: "2H", 3: "3H", 5: "4S"},
        under={2: "5S"},
        hands={0: ("6S",), 1: ("7S", "8S")},
        owners={ROW1: 0},
        tokens=(1, 0, 0),
        turn=1,
    )
    after, events = play(state, Flip(1, "7S", 2))
    assert LineBroken(1, 0, ROW1, 2, 1, 1) in events
    assert after.tokens == (0, 2, 0)


def test_fd_1_bad_cards_squares_and_seats_are_bad_input():
    state = game()
    with pytest.raises(BadInput):
        play(state, Build(0, "1H", 1))
    with pytest.raises(BadInput):
        play(state, Build(0, state.hands[0][0], 10))
    with pytest.raises(BadInput):
        play(state, Discard(3, state.hands[0][0]))
    with pytest.raises(BadInput):
        action_from_json({"action": "jump", "seat": 0})
    with pytest.raises(BadInput, match="not a Flip Done action"):
        apply(state, ("Build", 0, "AC", 1))  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [-1, 3, "0", None])
def test_fd_1_an_action_for_a_seat_other_than_0_to_2_is_bad_input_never_applied(seat) -> None:
    """FD-1: three players, seats 0..2. Another seat (-1 would read seat 2's hand) is
    refused before any rule is read, whatever the action."""
    state = game()
    card = state.hands[0][0]
    for action in (Build(seat, card, 1), Flip(seat, card, 5), Discard(seat, card),
                   PlaceFirst(seat, 5)):  # fmt: skip
        with pytest.raises(BadInput, match=rf"^no seat {seat!r}: seats are 0\.\.2$"):
            play(state, action)


# FD-2 ------------------------------------------------------------------------------


def test_fd_2_a_phase_deals_9_face_down_1_face_up_in_the_centre_and_4_cards_each():
    state = game(seed=7)
    assert_conserved(state)
    assert len(state.under) == 9
    assert [sq for sq, f in enumerate(state.faces, 1) if f is not None] == [5]
    assert [len(h) for h in state.hands] == [4, 4, 4]
    assert len(state.deck) == 52 - 9 - 1 - 12
    assert state.stage is Stage.PLAY and state.turn == state.first == 0
    assert (state.manche, state.phase, state.deal) == (1, 1, 1)


def test_fd_2_the_deal_is_reproducible_from_the_seed():
    assert game(seed=3) == game(seed=3)
    assert game(seed=3).under != game(seed=4).under
    for seed in range(5):  # a phase: the whole deck shuffled by Random(f"{seed}:{deal}")
        cards = list(DECK)
        random.Random(f"{seed}:1").shuffle(cards)
        state = game(seed=seed)
        assert state.under == tuple(cards[:9]) and state.faces[4] == cards[9]
        assert state.hands[0] == tuple(sorted(cards[10:14])) and state.deck == tuple(cards[22:])


def test_fd_2_the_first_player_moves_one_seat_clockwise_each_phase():
    state = game(first=2)
    firsts = [state.first]
    for _ in range(3):  # end the phase: everyone discards everything
        state, events = play(state, *(Discard(state.turn, state.hands[state.turn][0]),))
        while not any(isinstance(e, PhaseStarted) for e in events):
            state, events = play(state, Discard(state.turn, state.hands[state.turn][0]))
        firsts.append(state.first)
        assert state.turn == state.first
    assert firsts == [2, 0, 1, 2]


def test_fd_2_fewer_phases_per_manche_are_configurable():
    # All discards: nobody gains, so every manche ties; the cap lets the ties stand.
    state = game(phases=1, tie_phase_limit=0)
    while state.stage is not Stage.OVER:
        state, _ = play(state, Discard(state.turn, state.hands[state.turn][0]))
    assert state.deal == 3 and state.manche == 3 and state.winners == (0, 1, 2)
    with pytest.raises(BadInput):
        make_config(phases=0)


def test_fd_2_variant_the_first_player_chooses_where_the_first_element_goes():
    state = game(first_element="chosen", first=1)
    assert state.stage is Stage.PLACE_FIRST and state.pending is not None
    assert all(f is None for f in state.faces)
    assert actors(state) == frozenset({1})
    assert legal_actions(state) == tuple(PlaceFirst(1, sq) for sq in range(1, 10))
    with pytest.raises(IllegalAction, match="FD-2"):
        play(state, Build(1, state.hands[1][0], 3))
    card = state.pending
    after, events = play(state, PlaceFirst(1, 3))
    assert events == [FirstPlaced(1, 3, card)]
    assert after.faces[2] == card and after.stage is Stage.PLAY and after.turn == 1
    with pytest.raises(IllegalAction, match="FD-2"):
        play(after, PlaceFirst(1, 4))
    assert_conserved(after)


# FD-3 ------------------------------------------------------------------------------


def test_fd_3_build_puts_a_hand_card_on_a_face_down_card():
    state = game()
    card = state.hands[0][0]
    after, events = play(state, Build(0, card, 1))
    assert after.faces[0] == card and card not in after.hands[0]
    assert events[0] == Built(0, 1, card)
    assert after.turn == 1
    with pytest.raises(IllegalAction, match="FD-3"):  # no stacking on an element
        play(after, Build(1, after.hands[1][0], 1))
    assert_conserved(after)


def test_fd_3_flip_discards_a_card_then_swaps_the_faces_once():
    state = position(game(), faces={5: "AH"}, under={5: "AS"}, hands={0: ("2H", "3H")})
    after, events = play(state, Flip(0, "2H", 5))
    assert events[0] == Flipped(0, 5, "AS", "AH")
    assert after.faces[4] == "AS" and after.under[4] == "AH" and after.flipped[4]
    assert after.discards == ("2H",) and after.hands[0] == ("3H",)
    with pytest.raises(IllegalAction, match="FD-3"):
        play(after, Flip(0, "3H", 5))  # an element is flipped once only
    with pytest.raises(IllegalAction, match="FD-3"):
        play(after, Flip(0, "3H", 1))  # not an element
    assert_conserved(after)


def test_fd_3_discard_drops_a_card_and_nothing_else():
    state = game()
    card = state.hands[0][1]
    after, events = play(state, Discard(0, card))
    assert events == [Discarded(0)]
    assert after.faces == state.faces and after.tokens == state.tokens
    assert card in after.discards and card not in after.hands[0]


def test_fd_3_one_action_per_turn_by_the_seat_whose_turn_it_is():
    state = game()
    with pytest.raises(IllegalAction, match="FD-3"):
        play(state, Discard(1, state.hands[1][0]))
    with pytest.raises(IllegalAction, match="FD-3"):
        play(state, Discard(0, state.hands[1][0]))  # not in seat 0's hand
    snapshot = state.to_json()
    assert state.to_json() == snapshot  # refused actions change nothing


def test_fd_3_a_player_with_no_card_is_skipped():
    state = position(game(), faces={5: "AH"}, hands={0: ("2H", "3H"), 2: ("4H",)})
    after, _ = play(state, Discard(0, "2H"))
    assert after.turn == 2
    after, _ = play(after, Discard(2, "4H"))
    assert after.turn == 0


# FD-4 ------------------------------------------------------------------------------


def test_fd_4_eight_lines_worth_1_2_and_3():
    assert [line.value for line in LINES] == [1, 1, 1, 2, 2, 2, 3, 3]
    assert {line.squares for line in LINES[6:]} == {(1, 5, 9), (3, 5, 7)}
    assert [line.diagonal for line in LINES] == [False] * 6 + [True] * 2
    assert [line.squares for line in LINES] == [
        (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 5, 9), (3, 5, 7),
    ]  # fmt: skip
    # the lines through each square: four through the centre, three through a corner
    assert LINES_THROUGH[0] == (COL1, ROW1, DIAG159) and LINES_THROUGH[4] == (
        COL2, ROW2, DIAG159, DIAG357,
    )  # fmt: skip
    assert [len(through) for through in LINES_THROUGH] == [3, 2, 3, 2, 4, 2, 3, 2, 3]


def test_fd_4_a_line_is_aligned_only_when_its_three_squares_are_elements():
    state = position(game(), faces={1: "AS", 4: "2S"})
    assert not aligned(state, COL1)
    state = position(game(), faces={1: "AS", 4: "2S", 7: "3C"})
    assert aligned(state, COL1)


# FD-5 ------------------------------------------------------------------------------


def test_fd_5_making_a_line_scores_its_value_and_owns_it():
    state = position(game(), faces={1: "AH", 2: "2D"}, hands={0: ("3H", "4H")})
    after, events = play(state, Build(0, "3H", 3))
    assert LineMade(0, ROW1, 2) in events
    assert after.tokens == (2, 0, 0) and after.owners[ROW1] == 0


def test_fd_5_one_build_can_make_several_lines_and_each_scores():
    faces = {2: "AS", 3: "2S", 4: "3S", 7: "4S", 5: "5S", 9: "6S"}
    state = position(game(), faces=faces, hands={1: ("7C",), 0: ("8H",)}, turn=1)
    after, events = play(state, Build(1, "7C", 1))
    made = {e.line for e in events if isinstance(e, LineMade)}
    assert made == {ROW1, COL1, DIAG159}
    assert after.tokens == (0, 2 + 1 + 3, 0)


def test_fd_5_a_flip_that_aligns_an_unowned_line_scores_it():
    state = position(
        game(), faces={1: "AH", 2: "2H", 3: "3S"}, under={3: "4D"}, hands={0: ("5S", "6S")}
    )
    after, events = play(state, Flip(0, "5S", 3))
    assert LineMade(0, ROW1, 2) in events and after.owners[ROW1] == 0
    assert after.tokens == (2, 0, 0)


def test_fd_5_a_failed_attempt_changes_nothing():
    state = position(
        game(), faces={1: "AH", 2: "2H", 3: "3S"}, under={3: "4C"}, hands={0: ("5S", "6S")}
    )
    after, events = play(state, Flip(0, "5S", 3))
    assert not [e for e in events if isinstance(e, LineMade)]
    assert after.tokens == (0, 0, 0)


# FD-6 ------------------------------------------------------------------------------


def _owned_row1(under2: str, tokens=(5, 0, 0), flipped=()):
    """Seat 0 owns row 1 (all red); seat 1 is to play and may flip square 2."""
    return position(
        game(),
        faces={1: "AH", 2: "2H", 3: "3H"},
        under={2: under2},
        hands={0: ("6S",), 1: ("7S", "8S")},
        owners={ROW1: 0},
        tokens=tokens,
        flipped=flipped,
        turn=1,
    )


def test_fd_6_breaking_someone_elses_line_takes_its_value_from_the_owner():
    after, events = play(_owned_row1("5S"), Flip(1, "7S", 2))
    assert LineBroken(1, 0, ROW1, 2, 2, 0) in events
    assert after.tokens == (3, 2, 0) and after.owners[ROW1] is None


def test_fd_6_what_the_owner_lacks_comes_from_the_bank():
    after, events = play(_owned_row1("5S", tokens=(0, 0, 0)), Flip(1, "7S", 2))
    assert LineBroken(1, 0, ROW1, 2, 0, 2) in events
    assert after.tokens == (0, 2, 0)


def test_fd_6_a_line_that_stays_aligned_gives_the_owner_one_token():
    after, events = play(_owned_row1("5D"), Flip(1, "7S", 2))
    assert LineHeld(1, 0, ROW1, 1) in events
    assert after.tokens == (6, 0, 0) and after.owners[ROW1] == 0


def test_fd_6_a_diagonal_that_stays_aligned_gives_the_owner_two_tokens():
    state = position(
        game(),
        faces={1: "AC", 5: "2C", 9: "3C"},
        under={5: "4S"},
        hands={0: ("6H",), 2: ("7H",)},
        owners={DIAG159: 0},
        tokens=(3, 0, 0),
        turn=2,
    )
    after, events = play(state, Flip(2, "7H", 5))
    assert LineHeld(2, 0, DIAG159, 2) in events
    assert after.tokens == (5, 0, 0)


# FD-7 ------------------------------------------------------------------------------


def test_fd_7_flipping_in_ones_own_line_scores_nothing_for_it():
    state = dataclasses.replace(_owned_row1("5D"), turn=0)
    after, events = play(state, Flip(0, "6S", 2))
    assert not [e for e in events if isinstance(e, LineHeld | LineMade | LineBroken)]
    assert after.tokens == (5, 0, 0) and after.owners[ROW1] == 0


def test_fd_7_breaking_ones_own_line_only_loses_ownership():
    state = dataclasses.replace(_owned_row1("5S"), turn=0)
    after, events = play(state, Flip(0, "6S", 2))
    assert LineLost(0, 0, ROW1, "FD-7") in events
    assert after.tokens == (5, 0, 0) and after.owners[ROW1] is None


def test_fd_7_but_a_derived_line_not_owned_still_scores():
    # Seat 0 owns row 1; its flip on square 2 breaks it and aligns column 2, not owned.
    state = position(
        game(),
        faces={1: "AH", 2: "2H", 3: "3H", 5: "4S", 8: "5S"},
        under={2: "6C"},
        hands={0: ("7S",), 1: ("8S",)},
        owners={ROW1: 0},
    )
    after, events = play(state, Flip(0, "7S", 2))
    assert LineLost(0, 0, ROW1, "FD-7") in events
    assert LineMade(0, COL2, 1) in events
    assert after.tokens == (1, 0, 0) and after.owners[COL2] == 0


# FD-8 ------------------------------------------------------------------------------


def test_fd_8_the_third_flip_breaking_a_line_transfers_nothing_but_removes_the_owner():
    after, events = play(_owned_row1("5S", flipped=(1, 3)), Flip(1, "7S", 2))
    assert LineLost(1, 0, ROW1, "FD-8") in events
    assert not [e for e in events if isinstance(e, LineBroken)]
    assert after.tokens == (5, 0, 0) and after.owners[ROW1] is None


def test_fd_8_the_third_flip_keeping_a_line_gives_no_bonus():
    after, events = play(_owned_row1("5D", flipped=(1, 3)), Flip(1, "7S", 2))
    assert not [e for e in events if isinstance(e, LineHeld)]
    assert after.tokens == (5, 0, 0) and after.owners[ROW1] == 0


def test_fd_8_the_third_flip_aligning_a_line_scores_nothing():
    state = position(
        game(),
        faces={1: "AH", 2: "2H", 3: "3S"},
        under={3: "4D"},
        flipped=(1, 2),
        hands={0: ("5S", "6S")},
    )
    after, events = play(state, Flip(0, "5S", 3))
    assert not [e for e in events if isinstance(e, LineMade)]
    assert after.tokens == (0, 0, 0)


def test_fd_8_a_second_flip_still_scores():
    after, events = play(_owned_row1("5S", flipped=(1,)), Flip(1, "7S", 2))
    assert LineBroken(1, 0, ROW1, 2, 2, 0) in events


# FD-9 ------------------------------------------------------------------------------

FULL = {1: "AH", 2: "2H", 3: "3S", 4: "4S", 5: "5H", 6: "6S", 7: "7H", 8: "8S", 9: "9H"}


def test_fd_9_the_phase_ends_when_every_element_is_flipped_and_hands_pay():
    state = position(
        game(),
        faces=FULL,
        flipped=(1, 2, 3, 4, 5, 6, 7, 8),
        hands={0: ("AC", "2C"), 1: ("3C", "4C", "5C"), 2: ("6C",)},
        tokens=(4, 1, 0),
    )
    assert not phase_over(state)
    after, events = play(state, Flip(0, "AC", 9))
    ended = next(e for e in events if isinstance(e, PhaseEnded))
    assert ended == PhaseEnded((1, 3, 1), (1, 1, 0))  # never below zero (FD-1)
    assert after.tokens[1] == 0 and after.tokens[2] == 0
    assert after.phase == 2 and after.deal == 2  # a new deal
    assert_conserved(after)


def test_fd_9_the_phase_ends_when_no_player_holds_a_card():
    state = position(game(), faces={5: "5H"}, hands={2: ("AC",)}, turn=2, tokens=(1, 1, 1))
    after, events = play(state, Discard(2, "AC"))
    assert PhaseEnded((0, 0, 0), (0, 0, 0)) in events
    assert after.deal == 2 and [len(h) for h in after.hands] == [4, 4, 4]


def test_fd_9_while_a_build_or_flip_is_possible_the_phase_goes_on():
    state = position(
        game(), faces=FULL, flipped=(1, 2, 3, 4, 5, 6, 7), hands={0: ("AC", "2C"), 1: ("3C",)}
    )
    after, events = play(state, Flip(0, "AC", 8))
    assert not [e for e in events if isinstance(e, PhaseEnded)]
    assert after.turn == 1


# FD-10 -----------------------------------------------------------------------------


def _last_move(tokens, baseline=(0, 0, 0), **options):
    """Manche 1 of 1, phase 1 of 1: seat 0's flip of square 9 ends it (nothing scores)."""
    state = game(manches=1, phases=1, **options)
    return position(
        state,
        faces=FULL,
        flipped=(1, 2, 3, 4, 5, 6, 7, 8),
        under={9: "10H"},
        hands={0: ("AC",)},
        tokens=tokens,
        baseline=baseline,
    )


def test_fd_10_the_best_net_gain_wins_the_manche_and_two_tokens():
    after, events = play(_last_move((5, 6, 0), baseline=(0, 3, 0)), Flip(0, "AC", 9))
    assert MancheWon(0, 1, (5, 3, 0), 2) in events
    assert after.tokens == (7, 6, 0) and after.manche_wins == (1, 0, 0)
    assert GameOver((0,), (7, 6, 0)) in events
    assert not [e for e in events if isinstance(e, Tied | TieStands)]
    assert after.stage is Stage.OVER and after.winners == (0,)
    assert is_over(after) and phase_over(after)  # FD-9: every element flipped
    assert legal_actions(after) == () and actors(after) == frozenset()
    with pytest.raises(IllegalAction, match="FD-10"):
        play(after, Discard(0, "AC"))


def test_fd_10_a_tied_manche_plays_one_more_phase():
    after, events = play(_last_move((4, 4, 0)), Flip(0, "AC", 9))
    assert Tied((0, 1), False, 1) in events
    assert not [e for e in events if isinstance(e, MancheWon)]
    assert after.stage is Stage.PLAY and after.phase == 2 and after.extra == 1
    assert after.tokens == (4, 4, 0) and after.tied == (0, 1)


def test_fd_10_a_manche_won_in_an_extra_phase_leaves_no_tie_to_the_next():
    """The tie of manche 1 is settled by its extra phase: manche 2 opens with no tie
    standing, so its own end is judged on every seat's gains (FD-10)."""
    state = dataclasses.replace(
        _last_move((5, 4, 0), manche_tie="extra_only"), extra=1, tied=(0, 1), phase=2
    )
    state = dataclasses.replace(state, config=make_config(manches=2, phases=1))
    after, events = play(state, Flip(0, "AC", 9))
    assert [e for e in events if isinstance(e, MancheWon)] == [MancheWon(0, 1, (5, 4, 0), 2)]
    assert after.manche == 2 and after.extra == 0 and after.tied == ()


def test_fd_10_a_tied_game_plays_one_more_phase():
    after, events = play(_last_move((3, 0, 5), baseline=(0, 0, 4)), Flip(0, "AC", 9))
    assert MancheWon(0, 1, (3, 0, 1), 2) in events
    assert Tied((0, 2), True, 1) in events
    assert after.overtime and after.stage is Stage.PLAY and after.tokens == (5, 0, 5)


def test_fd_10_overtime_ends_as_soon_as_the_tie_is_gone():
    state = dataclasses.replace(_last_move((5, 0, 4)), overtime=True, extra=1, tied=(0, 2))
    after, events = play(state, Flip(0, "AC", 9))
    assert GameOver((0,), (5, 0, 4)) in events and not [
        e for e in events if isinstance(e, MancheWon)
    ]
    assert after.winners == (0,) and after.tied == ()  # the game over names no tie


def test_fd_10_configurable_cap_on_tie_phases_lets_the_tie_stand():
    state = _last_move((4, 4, 0), tie_phase_limit=0)
    after, events = play(state, Flip(0, "AC", 9))
    assert TieStands((0, 1), False) in events and TieStands((0, 1), True) in events
    assert after.winners == (0, 1) and after.tokens == (4, 4, 0)


def test_fd_10_configurable_extra_only_counts_only_the_tied_players_extra_gains():
    # After a tie (0, 1) at 4 each with baseline reset to (4, 4, 0), seat 2 gained a lot in
    # the extra phase but is not a contender; seat 1 gained 1 more than seat 0.
    state = dataclasses.replace(
        _last_move((5, 6, 9), baseline=(4, 4, 0), manche_tie="extra_only"),
        extra=1,
        tied=(0, 1),
        phase=2,
    )
    after, events = play(state, Flip(0, "AC", 9))
    assert MancheWon(1, 1, (1, 2, 9), 2) in events
    cumulative = dataclasses.replace(state, config=make_config(manches=1, phases=1))
    after, events = play(cumulative, Flip(0, "AC", 9))
    assert MancheWon(2, 1, (1, 2, 9), 2) in events


@pytest.mark.parametrize(
    ("manche_tie", "baseline"), [("extra_only", (4, 4, 0)), ("cumulative", (1, 1, 0))]
)
def test_fd_10_configurable_extra_only_counts_from_the_first_tie(manche_tie, baseline):
    """With extra_only, the gains of the extra phases count from the tokens at the tie,
    however many extra phases it takes; cumulative counts from the manche's start."""
    tied = _last_move((4, 4, 0), baseline=(1, 1, 0), manche_tie=manche_tie)
    after, _ = play(tied, Flip(0, "AC", 9))
    assert after.extra == 1 and after.tied == (0, 1) and after.baseline == baseline
    again = dataclasses.replace(
        _last_move((6, 6, 0), baseline=baseline, manche_tie=manche_tie),
        extra=1, tied=(0, 1), phase=2,
    )  # fmt: skip
    after, _ = play(again, Flip(0, "AC", 9))
    assert after.extra == 2 and after.baseline == baseline


# Views ------------------------------------------------------------------------------


def test_player_view_adds_only_the_seats_own_hand():
    state = game()
    view = player_view(state, 1)
    assert view.hand == state.hands[1] and view.public == public_view(state)
    assert public_view(state).hand_sizes == (4, 4, 4)


@pytest.mark.parametrize(
    "data",
    [
        {"action": "build", "seat": 0, "square": 5},
        {"action": "flip", "seat": 0, "square": 5},
        {"action": "deal_up"},
        ["place_first", 0, 5],
        "discard",
    ],
)
def test_fd_3_an_action_read_without_its_card_or_not_an_object_is_bad_input(data) -> None:
    """FD-3: a build, a flip, a discard or a deal names its card; only a first element
    placed by a seat (FD-2) was written before it could name one, and reads as none."""
    with pytest.raises(BadInput, match="^not a Flip Done action: "):
        action_from_json(data)
    old = action_from_json({"action": "place_first", "seat": 0, "square": 5})
    assert old == PlaceFirst(0, 5, None)
