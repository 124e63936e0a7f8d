"""Swiped: one test (at least) per ruling SW-1..SW-6.

Seats are 0 and 1, seat 0 is "player 1" unless Config.first says otherwise. Squares are
1..9 in reading order, cards 1..deck size.
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import json
import re
from typing import Any

import pytest

from companion.games.swiped.rules import (
    COLOURS,
    PAIRS,
    SQUARES,
    ClaimCard,
    ClaimChecked,
    ClaimMatches,
    Config,
    Deal,
    DrawLayout,
    DrawTarget,
    FalseClaim,
    GameDrawn,
    GameWon,
    LayoutDrawn,
    MancheEnded,
    MancheStarted,
    Phase,
    Program,
    Programmed,
    ProgramsRevealed,
    PublicView,
    SkipSwap,
    State,
    Swap,
    Swapped,
    SwapSkipped,
    TargetDrawn,
    actors,
    agreement,
    format_deck,
    is_over,
    legal_actions,
    make_config,
    make_deck,
    new_game,
    next_swap,
    player_view,
    print_deck,
    public_view,
    swap_order,
)
from companion.games.swiped.rules import deck as shipped_deck
from companion.rules.errors import BadInput, IllegalAction
from tests.games.swiped.rules.helpers import execute_all, game, play, program

R, OR, J, V, B, VI, RO, BL, N = COLOURS
P0 = [(R, OR), (J, V), (B, VI)]
P1 = [(RO, BL), (R, N), (OR, J)]


def swapped(grid: tuple[str, ...], a: str, b: str) -> tuple[str, ...]:
    out = list(grid)
    i, j = out.index(a), out.index(b)
    out[i], out[j] = out[j], out[i]
    return tuple(out)


def at_grid(state: State, grid: tuple[str, ...]) -> State:
    return dataclasses.replace(state, grid=grid)


# SW-1 ------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "seed"), [(24, 0), (24, 1), (3, 5), (40, 7), (60, 0)])
def test_sw_1_any_two_cards_agree_on_at_most_two_squares(size: int, seed: int) -> None:
    deck = make_deck(size, seed)
    assert len(deck) == size
    assert len(set(deck)) == size
    for card in deck:
        assert sorted(card) == sorted(COLOURS)  # a placement of the nine colours
    for a, b in itertools.combinations(deck, 2):
        assert agreement(a, b) <= 2


def test_sw_1_the_deck_is_reproducible_and_defaults_to_24_cards() -> None:
    assert make_deck() == make_deck(24, 0)
    assert len(make_deck()) == 24
    assert make_deck.__wrapped__(24, 0) == make_deck(24, 0)  # not only the cache
    assert make_deck(24, 1) != make_deck(24, 0)
    assert make_deck(10, 0) == make_deck(24, 0)[:10]  # greedy: a prefix of a longer deck


def test_sw_1_nine_colours_on_a_3_by_3_grid() -> None:
    assert COLOURS == (
        "rouge", "orange", "jaune", "vert", "bleu", "violet", "rose", "blanc", "noir"
    )  # fmt: skip
    assert len(PAIRS) == 36
    assert sorted(game().grid) == sorted(COLOURS)
    assert SQUARES == len(game().grid) == 9  # the table's spots: squares 1..9


def test_sw_1_the_deck_prints() -> None:
    out = io.StringIO()
    print_deck(file=out)
    text = out.getvalue()
    assert text == format_deck(make_deck())
    assert text.count("Carte ") == 24
    assert "Carte 24" in text
    first = text.split("\n\n")[0].splitlines()
    assert first[0] == "Carte 1"
    assert [row.split() for row in first[1:]] == [
        list(make_deck()[0][r * 3 : r * 3 + 3]) for r in range(3)
    ]


@pytest.mark.parametrize("size", [0, 2, 61])
def test_sw_1_a_deck_size_out_of_range_is_bad_input(size: int) -> None:
    with pytest.raises(BadInput):
        make_deck(size)
    with pytest.raises(BadInput):
        make_config(deck_size=size)


def test_sw_1_a_deck_its_draws_cannot_fill_is_refused_never_dealt_short(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SW-1: a deck is `size` cards, any two far enough apart, or none. Drawing stops at a
    bound the shipped sizes never meet; one met first refuses the deck."""
    monkeypatch.setattr(shipped_deck, "_MAX_DRAWS", 5)
    with pytest.raises(BadInput, match="^could not build 24 cards from seed 0$"):
        make_deck.__wrapped__(24, 0)


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("deck_size", 24.5, "deck_size must be a whole number"),
        ("deck_seed", "x", "deck_seed must be a whole number"),
        ("claims_per_gap", 2.5, "claims_per_gap must be a whole number"),
        ("manche_limit", True, "manche_limit must be a whole number"),
        ("claim_before_first_swap", "no", "claim_before_first_swap must be true or false"),
    ],
)
def test_a_setting_of_the_wrong_type_is_bad_input_naming_it(option, value, says) -> None:
    """A config file's "no" must not read as true, nor 24.5 cards build a deck."""
    with pytest.raises(BadInput, match=says):
        make_config(**{option: value})


# SW-2 ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(30))
def test_sw_2_layout_card_face_up_and_two_different_secret_targets(seed: int) -> None:
    state = game(seed)
    deck = make_deck()
    assert state.grid == deck[state.layout_card - 1]
    cards = {state.layout_card, *state.targets}
    assert len(cards) == 3  # never the same card
    assert all(1 <= c <= 24 for c in cards)
    assert state.phase is Phase.PROGRAM and state.manche == 1


def test_sw_2_the_draw_is_reproducible_from_the_seed() -> None:
    assert game(7) == game(7)
    assert len({(game(s).layout_card, game(s).targets) for s in range(20)}) > 1


def test_sw_2_each_seat_sees_only_its_own_target() -> None:
    state = game(3)
    view = public_view(state)
    names = {f.name for f in dataclasses.fields(PublicView)}
    assert not names & {"targets", "secret_programs", "target"}
    for seat in (0, 1):
        mine = player_view(state, seat)
        assert mine.target == state.targets[seat]
        assert mine.target_layout == make_deck()[state.targets[seat] - 1]
        assert mine.public == view
        assert mine.matches == agreement(state.grid, mine.target_layout) <= 2


def test_sw_2_a_views_json_says_what_its_seat_knows_and_no_more() -> None:
    """What a screen or a phone receives is the view's JSON: the public view's holds the
    layout and whose card is drawn, never a target; a seat's holds its own card too."""
    state, _ = program(game(3), P0, P1)
    public = json.loads(json.dumps(public_view(state).to_json()))
    assert public["grid"] == list(state.grid) and public["layout_card"] == state.layout_card
    assert public["targets_recorded"] == [True, True] and public["next_swap"] == 0
    assert public["revealed"] == [[list(p) for p in P0], [list(p) for p in P1]]
    assert "targets" not in public
    for seat in (0, 1):
        mine = json.loads(json.dumps(player_view(state, seat).to_json()))
        assert mine["public"] == public
        assert (mine["seat"], mine["target"]) == (seat, state.targets[seat])
        assert mine["target_layout"] == list(make_deck()[state.targets[seat] - 1])


# SW-3 ------------------------------------------------------------------------------


def test_sw_3_programs_are_secret_until_both_are_complete() -> None:
    state = game()
    state, events = play(state, Program(0, *P0[0]), Program(0, *P0[1]), Program(1, *P1[0]))
    assert events == [Programmed(0, 1), Programmed(0, 2), Programmed(1, 1)]
    view = public_view(state)
    assert view.programmed == (2, 1) and view.revealed is None
    assert player_view(state, 0).program == tuple(P0[:2])
    assert player_view(state, 1).program == tuple(P1[:1])
    text = json.dumps([view.to_json(), *(e.to_json() for e in events)])
    assert "orange" not in text.replace(json.dumps(list(state.grid)), "")
    assert actors(state) == {0, 1}
    state, events = play(state, Program(0, *P0[2]), Program(1, *P1[1]), Program(1, *P1[2]))
    assert events[-1] == ProgramsRevealed((tuple(P0), tuple(P1)))  # revealed together
    assert state.phase is Phase.EXECUTE
    assert public_view(state).revealed == (tuple(P0), tuple(P1))


def test_sw_3_a_swap_pairs_two_different_colours_and_has_no_direction() -> None:
    assert Program(0, BL, R) == Program(0, R, BL)
    state = game()
    with pytest.raises(IllegalAction, match="SW-3"):
        play(state, Program(0, R, R))
    with pytest.raises(BadInput):
        play(state, Program(0, R, "gris"))


def test_sw_3_three_swaps_each_then_no_more() -> None:
    state, _ = play(game(), *(Program(0, *p) for p in P0))
    assert all(a.seat == 1 for a in legal_actions(state) if isinstance(a, Program))
    assert sum(isinstance(a, Program) for a in legal_actions(state)) == 36
    with pytest.raises(IllegalAction, match="SW-3"):
        play(state, Program(0, N, R))
    with pytest.raises(IllegalAction, match="SW-3"):
        play(state, Swap(0, *P0[0]))  # no swap before the programs are revealed
    state, _ = program(game(), P0, P1)
    with pytest.raises(IllegalAction, match="SW-3"):
        play(state, Program(1, N, R))


def test_sw_3_a_program_may_repeat_a_pair() -> None:
    state, _ = program(game(), [(R, OR)] * 3, P1)
    assert state.phase is Phase.EXECUTE


# SW-4 ------------------------------------------------------------------------------


def test_sw_4_order_of_the_six_swaps_inverts_every_manche() -> None:
    cfg = Config()
    assert swap_order(cfg, 1) == ((0, 1), (1, 1), (1, 2), (0, 2), (0, 3), (1, 3))
    assert swap_order(cfg, 2) == ((1, 1), (0, 1), (0, 2), (1, 2), (1, 3), (0, 3))
    assert swap_order(cfg, 3) == swap_order(cfg, 1)
    assert swap_order(Config(first=1), 1) == swap_order(cfg, 2)


def test_sw_4_execution_follows_the_order_and_exchanges_squares() -> None:
    state, _ = program(game(), P0, P1)
    grid = state.grid
    seats = [s for s, _ in swap_order(state.config, 1)]
    expected = grid
    for (seat, phase), step in zip(swap_order(state.config, 1), range(6), strict=True):
        assert next_swap(state) == seat == seats[step]
        assert actors(state) == {0, 1}  # the swapper, and both may claim
        a, b = (P0 if seat == 0 else P1)[phase - 1]
        with pytest.raises(IllegalAction, match="SW-4"):
            play(state, Swap(1 - seat, a, b))
        with pytest.raises(IllegalAction, match="SW-4"):
            play(state, Swap(seat, *((N, BL) if (a, b) != (BL, N) else (R, OR))))
        state, events = play(state, Swap(seat, b, a))
        i, j = expected.index(a) + 1, expected.index(b) + 1
        expected = swapped(expected, a, b)
        assert events[0] == Swapped(seat, phase, (a, b), (min(i, j), max(i, j)))
        assert state.grid == expected
    assert isinstance(events[1], MancheEnded) and isinstance(events[2], MancheStarted)
    assert events[2] == MancheStarted(2, (1, 0, 0, 1, 1, 0))


def test_sw_4_the_same_pair_in_one_phase_is_applied_once() -> None:
    p1 = [P0[0], (R, N), P0[2]]  # phases 1 and 3 repeat seat 0's pair
    state, _ = program(game(), P0, p1)
    start = state.grid
    state, events = execute_all(state)
    skipped = [e for e in events if isinstance(e, SwapSkipped)]
    assert skipped == [SwapSkipped(1, 1, P0[0]), SwapSkipped(1, 3, P0[2])]
    assert sum(isinstance(e, Swapped) for e in events) == 4
    grid = start
    for a, b in (P0[0], (R, N), P0[1], P0[2]):  # phase 2 is seat 1 then seat 0
        grid = swapped(grid, a, b)
    assert state.grid == grid


def test_sw_4_the_same_pair_in_different_phases_is_applied_each_time() -> None:
    state, _ = program(game(), [(R, OR), (J, V), (B, VI)], [(J, V), (R, OR), (RO, BL)])
    state, events = execute_all(state)
    assert not any(isinstance(e, SwapSkipped) for e in events)


def test_sw_4_grid_and_targets_carry_over_and_manche_2_starts_with_player_2() -> None:
    state = game(4)
    targets = state.targets
    state, _ = program(state, P0, P1)
    state, _ = execute_all(state)
    grid = state.grid
    assert state.manche == 2 and state.phase is Phase.PROGRAM
    assert state.targets == targets
    assert public_view(state).programmed == (0, 0) and state.revealed is None
    state, _ = program(state, P1, P0)  # the small cubes are back: any pairs again
    assert state.grid == grid
    assert next_swap(state) == 1


# SW-5 ------------------------------------------------------------------------------


def test_sw_5_five_matches_true_wins() -> None:
    state = game(2)
    own = make_deck()[state.targets[0] - 1]
    near = swapped(swapped(own, own[0], own[1]), own[2], own[3])  # exactly 5 match
    state = at_grid(state, near)
    assert player_view(state, 0).matches == 5
    state, events = play(state, ClaimMatches(0))
    assert events == [ClaimChecked(0, "matches", True), GameWon(0)]
    assert state.phase is Phase.OVER and state.winner == 0 and is_over(state)
    assert legal_actions(state) == () and actors(state) == frozenset()
    with pytest.raises(IllegalAction, match="SW-5"):
        play(state, ClaimMatches(1))


def test_sw_5_four_matches_is_a_false_claim_and_loses() -> None:
    state = game(2)
    own = make_deck()[state.targets[1] - 1]
    near = swapped(swapped(own, own[0], own[1]), own[2], own[3])
    near = swapped(near, own[4], own[5])  # 3 match
    state, events = play(at_grid(state, near), ClaimMatches(1))
    assert events == [ClaimChecked(1, "matches", False), GameWon(0)]
    assert state.winner == 0


def test_sw_5_i_know_your_card() -> None:
    state = game(5)
    wrong = next(c for c in range(1, 25) if c != state.targets[1])
    won, events = play(state, ClaimCard(0, state.targets[1]))
    assert events == [ClaimChecked(0, "card", True), GameWon(0)]
    lost, events = play(state, ClaimCard(0, wrong))
    assert events == [ClaimChecked(0, "card", False), GameWon(1)]
    with pytest.raises(BadInput):
        play(state, ClaimCard(0, 25))


def test_sw_5_the_check_shows_neither_card() -> None:
    state = game(5)
    for action in (ClaimCard(0, state.targets[1]), ClaimCard(1, 1), ClaimMatches(0)):
        after, events = play(state, action)
        assert {f.name for f in dataclasses.fields(ClaimChecked)} == {"seat", "claim", "correct"}
        for e in events:
            assert set(e.to_json()) <= {"kind", "seat", "claim", "correct"}
        view = public_view(after)
        assert view == public_view(dataclasses.replace(after, targets=(1, 2)))


def test_sw_5_false_claim_only_refused_when_configured() -> None:
    state = game(5, false_claim="refused")
    wrong = next(c for c in range(1, 25) if c != state.targets[1])
    state, events = play(state, ClaimCard(0, wrong))
    assert events == [ClaimChecked(0, "card", False)]
    assert state.phase is Phase.PROGRAM and state.winner is None
    assert state.claims == (1, 0)
    # one claim per seat between two swaps (claims_per_gap, default 1)
    with pytest.raises(IllegalAction, match="SW-5"):
        play(state, ClaimMatches(0))
    assert not any(
        isinstance(a, ClaimMatches | ClaimCard) and a.seat == 0 for a in legal_actions(state)
    )
    state, _ = play(state, ClaimMatches(1))
    state, _ = program(state, P0, P1)
    state, _ = play(state, Swap(0, *P0[0]))
    assert state.claims == (0, 0)  # a new gap between two swaps
    state, events = play(state, ClaimCard(1, state.targets[0]))
    assert events == [ClaimChecked(1, "card", True), GameWon(1)]


def test_sw_5_one_claim_per_seat_between_two_swaps_by_default() -> None:
    """A refused false claim still counts: the seat's second claim before the next swap
    is refused, saying so (not that claims wait for the first swap: they need not)."""
    state = game(5, false_claim=FalseClaim.REFUSED)
    state, _ = play(state, ClaimMatches(0))
    with pytest.raises(IllegalAction, match="SW-5: seat 0 already made 1 claim"):
        play(state, ClaimMatches(0))


def test_sw_5_claims_per_gap_none_allows_any_number() -> None:
    state = game(5, false_claim=FalseClaim.REFUSED, claims_per_gap=None)
    state, events = play(state, ClaimMatches(0), ClaimMatches(0), ClaimMatches(0))
    assert [e.correct for e in events if isinstance(e, ClaimChecked)] == [False] * 3


def test_sw_5_a_claim_at_any_moment_between_two_swaps() -> None:
    state, _ = program(game(6), P0, P1)
    state, _ = play(state, Swap(0, *P0[0]))
    claims = [a for a in legal_actions(state) if isinstance(a, ClaimMatches | ClaimCard)]
    assert claims == [  # either seat, "5 matches" or any one card of the deck (1..24)
        claim
        for seat in (0, 1)
        for claim in (ClaimMatches(seat), *(ClaimCard(seat, c) for c in range(1, 25)))
    ]
    after, events = play(state, ClaimCard(1, state.targets[0]))
    assert events[-1] == GameWon(1)


def test_sw_5_before_the_first_swap_is_configurable() -> None:
    assert ClaimMatches(0) in legal_actions(game())
    strict = game(claim_before_first_swap=False)
    assert not any(isinstance(a, ClaimMatches | ClaimCard) for a in legal_actions(strict))
    with pytest.raises(IllegalAction, match="SW-5"):
        play(strict, ClaimMatches(0))
    state, _ = program(strict, P0, P1)
    with pytest.raises(IllegalAction, match="SW-5"):
        play(state, ClaimMatches(1))
    state, _ = play(state, Swap(0, *P0[0]))
    assert ClaimMatches(1) in legal_actions(state)


# SW-6 ------------------------------------------------------------------------------


def test_sw_6_manche_limit_ends_the_game_as_a_draw() -> None:
    state = game(manche_limit=2)
    for _ in range(2):
        state, _ = program(state, P0, P1)
        state, events = execute_all(state)
    assert events[-2:] == [MancheEnded(2), GameDrawn(2)]
    assert state.phase is Phase.OVER and state.drawn and state.winner is None
    assert legal_actions(state) == ()
    with pytest.raises(IllegalAction, match="SW-6"):
        play(state, ClaimMatches(0))
    with pytest.raises(IllegalAction, match="SW-6"):
        play(state, Program(0, R, OR))


def test_sw_6_no_limit_by_default() -> None:
    state = game()
    assert state.config.manche_limit is None
    for _ in range(6):
        state, _ = program(state, P0, P1)
        state, _ = execute_all(state)
    assert state.phase is Phase.PROGRAM and state.manche == 7


@pytest.mark.parametrize(
    "options", [{"manche_limit": 0}, {"first": 2}, {"false_claim": "maybe"}, {"claims_per_gap": 0}]
)
def test_bad_config_is_bad_input(options: dict[str, Any]) -> None:
    with pytest.raises(BadInput):
        make_config(**options)


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"deck_size": 2}, "deck_size must be 3..60, not 2"),
        ({"deck_size": 61}, "deck_size must be 3..60, not 61"),
        ({"first": -1}, "first player must be seat 0 or 1, not -1"),
        ({"first": 2}, "first player must be seat 0 or 1, not 2"),
        ({"manche_limit": 0}, "manche_limit must be at least 1 or None, not 0"),
        ({"claims_per_gap": 0}, "claims_per_gap must be at least 1 or None, not 0"),
        ({"false_claim": "maybe"}, "'maybe' is not a valid FalseClaim"),
        ({"deal": "dealt"}, "'dealt' is not a valid Deal"),
    ],
)
def test_a_setting_just_past_its_range_is_bad_input_naming_it(options, says) -> None:
    """SW-1 (3 cards at least: the face-up one and two targets), SW-4 (seats 0 and 1),
    SW-5, SW-6: each setting's first refused value, refused with its range."""
    with pytest.raises(BadInput, match=re.escape(says)):
        make_config(**options)


def test_each_settings_extreme_value_is_accepted() -> None:
    """The edges of the ranges above are settings a table may use: a 3-card or a 60-card
    deck (SW-1), player 1 at seat 1 (SW-4), one manche (SW-6), one claim a gap (SW-5)."""
    for options in (
        {"deck_size": 3, "first": 1, "manche_limit": 1, "claims_per_gap": 1},
        {"deck_size": 60, "first": 0, "manche_limit": None, "claims_per_gap": None},
    ):
        cfg = make_config(**options)
        assert {k: getattr(cfg, k) for k in options} == options
        assert Config.from_json(json.loads(json.dumps(cfg.to_json()))) == cfg


def test_the_default_settings_are_the_books_whichever_way_a_config_is_made() -> None:
    """SW-1's 24-card shipped deck, seat 0 as player 1 (SW-4), a false claim loses and one
    claim a gap, before the first swap too (SW-5), no manche limit (SW-6), the engine
    deals: a Config built directly, by make_config or read from a file without them."""
    book = {
        "deck_size": 24, "deck_seed": 0, "first": 0, "false_claim": FalseClaim.LOSES,
        "manche_limit": None, "claims_per_gap": 1, "claim_before_first_swap": True,
        "deal": Deal.SEEDED,
    }  # fmt: skip
    for cfg in (Config(), make_config(), Config.from_json({"game": "swiped"})):
        assert {k: getattr(cfg, k) for k in book} == book


def test_a_config_of_another_game_or_with_a_missing_piece_is_bad_input() -> None:
    with pytest.raises(BadInput, match="not a Swiped config"):
        Config.from_json({"game": "swiped", "players": 2})


def test_config_round_trips_and_new_game_opens_the_first_manche() -> None:
    cfg = make_config(first=1, manche_limit=3, false_claim="refused", deck_size=12, deck_seed=4)
    assert Config.from_json(json.loads(json.dumps(cfg.to_json()))) == cfg
    state, opening = new_game(cfg, 9)
    assert opening == (MancheStarted(1, (1, 0, 0, 1, 1, 0)),)  # SW-4: player 1 (seat 1) leads
    assert all(1 <= c <= 12 for c in (state.layout_card, *state.targets))


@pytest.mark.parametrize("seat", [-1, 2, "0", None])
def test_an_action_for_a_seat_other_than_0_or_1_is_bad_input_never_applied(seat: Any) -> None:
    """SW-1: two players, seats 0 and 1. Another seat (-1 would read seat 1's program and
    target) is refused before any rule is read, in every phase and for every action."""
    seeded = game(claim_before_first_swap=True)
    executing, _ = program(game(), P0, P1)
    drawing, _ = play(game(deal="observed"), DrawLayout(5))
    skipping, _ = play(table(), Swap(0, R, OR))
    for state, action in [
        (seeded, Program(seat, R, OR)),
        (seeded, ClaimMatches(seat)),
        (seeded, ClaimCard(seat, 1)),
        (executing, Swap(seat, *P0[0])),
        (drawing, DrawTarget(seat, 2)),
        (skipping, SkipSwap(seat)),
    ]:
        with pytest.raises(BadInput, match=f"no seat {seat!r}: seats are 0 and 1"):
            play(state, action)


def test_a_config_with_an_unknown_key_is_bad_input() -> None:
    with pytest.raises(BadInput):
        Config.from_json({"game": "swiped", "colours": 10})


# A real table (Deal.OBSERVED) -------------------------------------------------------


def table(**options: Any) -> State:
    """An OBSERVED game with card 5 face up, seat 0's target card 9, seat 1's card 2."""
    state = game(0, deal="observed", **options)
    state, _ = play(state, DrawLayout(5), DrawTarget(1, 2), DrawTarget(0, 9))
    return state


def test_sw_2_a_table_reads_the_layout_then_each_target_and_hides_which() -> None:
    state, opening = new_game(make_config(deal="observed"), 3)
    assert state.phase is Phase.DRAW and opening == ()
    assert public_view(state).targets_recorded == (False, False)
    assert actors(state) == frozenset()  # the layout card is the table's, nobody's turn
    with pytest.raises(IllegalAction, match="SW-2"):
        play(state, DrawTarget(0, 3))  # the layout card first
    state, events = play(state, DrawLayout(7))
    assert events == [LayoutDrawn(7, make_deck()[6])] and state.grid == make_deck()[6]
    for bad in (DrawTarget(0, 7), ClaimMatches(0), Swap(0, R, OR)):
        with pytest.raises(IllegalAction):
            play(state, bad)
    assert actors(state) == frozenset({0, 1})
    state, events = play(state, DrawTarget(1, 11))
    assert events == [TargetDrawn(1)]  # no card named
    assert actors(state) == frozenset({0})
    with pytest.raises(IllegalAction, match="different cards"):
        play(state, DrawTarget(0, 11))
    with pytest.raises(IllegalAction, match="already recorded"):
        play(state, DrawTarget(1, 12))
    state, events = play(state, DrawTarget(0, 12))
    assert events == [TargetDrawn(0), MancheStarted(1, (0, 1, 1, 0, 0, 1))]
    assert state.phase is Phase.EXECUTE and state.targets == (12, 11)
    assert player_view(state, 1).target == 11
    with pytest.raises(IllegalAction, match="SW-2: the cards are drawn once"):
        play(state, DrawTarget(0, 3))


def test_sw_4_a_table_swaps_any_pair_in_the_order_of_the_book() -> None:
    state = table()
    with pytest.raises(IllegalAction, match="seat 0's"):
        play(state, Swap(1, R, OR))
    state, events = play(state, Swap(0, N, R))
    assert events[0] == Swapped(0, 1, (R, N), events[0].squares)  # type: ignore[attr-defined]
    assert public_view(state).phase_pair == (R, N) and next_swap(state) == 1


def test_sw_4_a_table_declares_the_repeated_pair_and_the_engine_applies_it_once() -> None:
    state, _ = play(table(), Swap(0, R, OR))
    with pytest.raises(IllegalAction, match="applied once"):
        play(state, Swap(1, OR, R))  # swapping back would undo it
    with pytest.raises(IllegalAction, match="seat 1's"):
        play(state, SkipSwap(0))
    grid = state.grid
    state, events = play(state, SkipSwap(1))
    assert events == [SwapSkipped(1, 1, (R, OR))] and state.grid == grid
    assert next_swap(state) == 1 and public_view(state).phase_pair is None
    with pytest.raises(IllegalAction, match="second swap of a phase"):
        play(state, SkipSwap(1))  # phase 2's first swap cannot repeat anything


def test_sw_4_a_table_plays_manches_without_programs_and_inverts_the_order() -> None:
    state = table(manche_limit=3)
    for manche, order in enumerate(
        [(0, 1, 1, 0, 0, 1), (1, 0, 0, 1, 1, 0), (0, 1, 1, 0, 0, 1)], start=1
    ):
        assert state.manche == manche and state.phase is Phase.EXECUTE
        seen = []
        for pair_ in (PAIRS[0], PAIRS[1], PAIRS[2], PAIRS[3], PAIRS[4], PAIRS[5]):
            seen.append(next_swap(state))
            state, events = play(state, Swap(next_swap(state), *pair_))  # type: ignore[arg-type]
        assert tuple(seen) == order
    assert isinstance(events[-1], GameDrawn)


def test_sw_5_a_table_claim_is_checked_against_the_cards_it_read() -> None:
    state = table()
    assert state.matches(1) == agreement(state.grid, make_deck()[1])
    won, events = play(state, ClaimCard(0, 2))
    assert events == [ClaimChecked(0, "card", True), GameWon(0)]
    lost, events = play(state, ClaimCard(1, 2))  # its own card, not seat 0's
    assert events == [ClaimChecked(1, "card", False), GameWon(0)]


def test_sw_2_seeded_games_refuse_what_only_a_table_does() -> None:
    state = game()
    for action in (DrawLayout(1), DrawTarget(0, 1), SkipSwap(0)):
        with pytest.raises(IllegalAction):
            play(state, action)


def test_sw_2_before_a_table_reads_a_seats_card_its_view_has_no_card_layout_or_matches() -> None:
    """SW-2, SW-5: a seat whose target card is not read yet has no layout to aim at and
    no matches to count: its view says none, and asking for its matches is refused."""
    state, _ = play(game(deal="observed"), DrawLayout(5), DrawTarget(1, 2))
    waiting = player_view(state, 0)
    assert (waiting.target, waiting.target_layout, waiting.matches) == (None, (), 0)
    with pytest.raises(ValueError, match="seat 0's target card is not drawn yet"):
        state.matches(0)
    read = player_view(state, 1)
    assert (read.target, read.target_layout) == (2, make_deck()[1])
    assert read.matches == state.matches(1) == agreement(state.grid, make_deck()[1])
