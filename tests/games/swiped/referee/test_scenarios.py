"""Swiped scenario journals replayed through the referee, as a real table feeds it.

The scenarios are in tests/games/swiped/referee/scenarios/ (written by
`python -m tests.make_fixtures scenarios`); each
test names what SW-1..SW-6 and docs/table.md say must come out of it. What is expected is
worked out from the rules and from what the people did (the builder's record of the
table), never copied from the referee's output.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games.swiped.referee import SwipedReferee
from companion.games.swiped.rules import ClaimChecked, Phase, agreement, pair, public_view
from companion.games.swiped.screens import (
    SwBoardScreen,
    SwFaultScreen,
    SwGameOverScreen,
    SwNoticeScreen,
    SwSay,
    sw_phrase,
)
from companion.journal import Input, read_journal
from tests.games.swiped.referee.scenario_scripts import (
    ANA_CARD,
    BOB_CARD,
    LAYOUT,
    ROUND,
    SCENARIOS,
    TO_FIVE,
)
from tests.games.swiped.referee.script import card_of

HERE = Path(__file__).parent / "scenarios"
FAULTS = ("fault", "fixed")
FAULT_KEYS = {
    SwSay.PUT_BACK, SwSay.SAME_PAIR, SwSay.GUESS_FIRST, SwSay.UNKNOWN_TAG,
    SwSay.CARD_ON_SQUARE, SwSay.TWO_CARDS, SwSay.CARD_TAKEN, SwSay.READER_SILENT,
}  # fmt: skip
"""The prompts that are faults (the `reason` of a `fault` event)."""
NEXT_SWAP = (SwSay.PROGRAM, SwSay.SWAP, SwSay.SWAP_OR_SKIP, SwSay.SWAPPING)
"""The board's prompts that name whose swap comes next (or is under way)."""


def book_order(first: int, manche: int) -> list[int]:
    """SW-4 as the book words it: in manche 1, phases 1 and 3 are player 1 then player 2,
    phase 2 is player 2 then player 1; the order is reversed every manche."""
    p1, p2 = first, 1 - first
    order = [p1, p2, p2, p1, p1, p2]
    return order if manche % 2 == 1 else order[::-1]


def walk(name: str) -> Iterator[tuple[Input, SwipedReferee, list[dict[str, Any]]]]:
    """Each input of a scenario, the referee once it is fed, and the events it caused."""
    journal = read_journal(HERE / f"{name}.jsonl")
    referee = SwipedReferee(journal.setup)
    for record in journal.inputs:
        events = referee.feed(record)
        yield record, referee, events


def replay(name: str) -> SwipedReferee:
    journal = read_journal(HERE / f"{name}.jsonl")
    referee = SwipedReferee(journal.setup)
    for record in journal.inputs:
        referee.feed(record)
    return referee


def story(referee: SwipedReferee, *kinds: str) -> list[dict[str, Any]]:
    """The events of the given kinds, without their time."""
    return [{k: v for k, v in e.items() if k != "t"} for e in referee.events if e["kind"] in kinds]


def swaps(referee: SwipedReferee) -> list[tuple[int, int, tuple[int, int]]]:
    """(seat, phase, squares) of each swap the referee took."""
    return [(e["seat"], e["phase"], tuple(e["squares"])) for e in story(referee, "swap")]


def claims(referee: SwipedReferee) -> list[tuple[int, str, bool]]:
    return [(e["seat"], e["claim"], e["correct"]) for e in story(referee, "claim")]


def ignored(referee: SwipedReferee) -> list[tuple[str, int | None, str]]:
    return [(e["control"], e["seat"], e["reason"]) for e in story(referee, "ignored")]


def grid_after(layout: int, exchanges: list[tuple[int, int]]) -> tuple[str, ...]:
    """The mat after these exchanges of squares, from the layout card."""
    cells = list(card_of(layout))
    for i, j in exchanges:
        cells[i - 1], cells[j - 1] = cells[j - 1], cells[i - 1]
    return tuple(cells)


# ------------------------------------------------------------------------ every scenario


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_files_are_the_ones_the_builder_writes(name: str) -> None:
    assert (HERE / f"{name}.jsonl").read_text() == SCENARIOS[name]().text()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_scenario_ends_with_the_table_as_expected(name: str) -> None:
    referee = replay(name)
    assert referee.fault is None, referee.fault
    assert referee.waiting is None, referee.waiting
    kinds = [e["kind"] for e in referee.events]
    assert kinds.count("fault") - (name == "undo_during_fault") == kinds.count("fixed")
    if referee.state.phase is not Phase.DRAW and not referee.finished:
        assert referee.state.grid == SCENARIOS[name]().grid()  # the mat the people left


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_no_event_or_screen_names_a_target_card_before_the_game_is_over(name: str) -> None:
    """SW-5: the cards stay hidden; a verdict says only whether the claim was true."""
    for _, referee, events in walk(name):
        screen = referee.screen
        assert screen.view == public_view(referee.state)
        if not referee.finished:
            assert not isinstance(screen, SwGameOverScreen)
        for event in events:
            if event["kind"] == "claim":
                assert set(event) == {"t", "kind", "seat", "claim", "correct"}
            elif event["kind"] == "targets":
                assert referee.finished
            else:
                assert "cards" not in event
                assert "card" not in event or event["kind"] == "layout"
    kinds = [e["kind"] for e in referee.events]
    assert kinds.count("targets") == int(referee.finished)
    if referee.finished:
        over = kinds.index("targets")
        assert {"game_won", "game_drawn"} & set(kinds[:over])
        assert story(referee, "targets")[0]["cards"] == list(referee.state.targets)


# ---------------------------------------------------------------------------- SW-2


def test_the_opening_layout_cubes_one_at_a_time_then_targets_from_the_first_player() -> None:
    """SW-2 with Bob as player 1: the cubes may come in any order, one at a time (not a
    fault); squares 4 and 6 exchanged are named with the cube each must hold; then Bob's
    card is recorded first, and the OLED says only whose card was recorded."""
    shows = card_of(LAYOUT)
    screens = []
    for record, referee, events in walk("opening"):
        screens.append((record, referee.screen, events))
    (layout,) = [e for _, _, evs in screens for e in evs if e["kind"] == "layout"]
    assert layout["card"] == LAYOUT and tuple(layout["grid"]) == shows
    r = replay("opening")
    assert story(r, *FAULTS, "placed", "target") == [
        {"kind": "fault", "spot": 4, "reason": "put_back"},
        {"kind": "fixed"},
        {"kind": "placed"},
        {"kind": "target", "seat": 1},
        {"kind": "target", "seat": 0},
    ]
    placing = [s for rec, s, _ in screens[2:11]]  # the nine cubes going down
    assert all(isinstance(s, SwBoardScreen) and s.prompt.say is SwSay.PLACE for s in placing)
    assert all(s.prompt.get("card") == LAYOUT and s.view.grid == shows for s in placing)  # type: ignore[union-attr]
    faults = [s for _, s, _ in screens if isinstance(s, SwFaultScreen)]
    assert faults and all(s.prompt.say is SwSay.PUT_BACK for s in faults)
    assert {(s.prompt.get("spots"), s.prompt.get("colours")) for s in faults} == {
        ((4, 6), (shows[3], shows[5]))
    }
    recorded = [
        (s.recorded, s.prompt.say, dict(s.prompt.params).get("seat"))
        for _, s, _ in screens
        if isinstance(s, SwBoardScreen) and s.recorded is not None
    ]
    assert recorded[0] == (1, SwSay.TARGET, 0)  # Bob's recorded; Ana's turn to tap
    assert recorded[-1] == (0, SwSay.PROGRAM, 1)  # Ana's recorded; Bob swaps first
    for _, screen, _ in screens:
        if isinstance(screen, SwBoardScreen) and screen.recorded is not None:
            assert set(dict(screen.prompt.params)) == {"seat"}  # no card in the prompt
            for lang in ("fr", "en"):
                news = sw_phrase("recorded", lang, s=screen.names[screen.recorded])
                assert not any(ch.isdigit() for ch in news), news  # "card of Bob recorded"
    assert r.state.targets == (ANA_CARD, BOB_CARD)
    assert r.state.phase is Phase.EXECUTE


def test_cubes_swapped_before_the_targets_are_drawn_are_put_back() -> None:
    r = replay("fault_swap_before_targets")
    assert story(r, *FAULTS, "target") == [
        {"kind": "fault", "spot": 1, "reason": "put_back"},
        {"kind": "fixed"},
        {"kind": "target", "seat": 0},
        {"kind": "target", "seat": 1},
    ]
    assert swaps(r) == [(0, 1, (1, 2))]  # only the swap after the targets counts


# ---------------------------------------------------------------------------- SW-4


@pytest.mark.parametrize("name,first,manches", [("swap_order", 0, 3),
                                                ("swap_order_bob_first", 1, 2)])  # fmt: skip
def test_each_manche_swaps_in_the_books_order_inverted_every_manche(
    name: str, first: int, manches: int
) -> None:
    named: list[int | None] = []
    seat: int | None = None
    for _, referee, events in walk(name):
        named += [seat for e in events if e["kind"] == "swap"]
        screen = referee.screen
        if isinstance(screen, SwBoardScreen) and screen.prompt.say in NEXT_SWAP:
            seat = int(screen.prompt.get("seat"))  # type: ignore[arg-type]
    r = replay(name)
    expected = [s for m in range(1, manches + 1) for s in book_order(first, m)]
    assert [seat for seat, _, _ in swaps(r)] == expected
    assert named == expected  # the OLED named each swapper before the swap landed
    assert [phase for _, phase, _ in swaps(r)] == [1, 1, 2, 2, 3, 3] * manches
    starts = story(r, "manche_start")
    assert [(e["manche"], e["order"]) for e in starts] == [
        (m, book_order(first, m)) for m in range(1, manches + 2)
    ]
    assert [e["manche"] for e in story(r, "manche_end")] == list(range(1, manches + 1))
    assert [squares for _, _, squares in swaps(r)] == [tuple(sorted(p)) for p in ROUND] * manches
    colours = [tuple(e["colours"]) for e in story(r, "swap")]
    grid = list(card_of(LAYOUT))
    for (i, j), both in zip(ROUND * manches, colours, strict=True):
        assert both == pair(grid[i - 1], grid[j - 1])
        grid[i - 1], grid[j - 1] = grid[j - 1], grid[i - 1]
    assert r.state.grid == tuple(grid) and r.state.manche == manches + 1


def test_the_second_swap_of_a_phase_may_be_skipped_when_it_repeats_the_pair() -> None:
    """SW-4: a skip at the first swap of a phase is refused; after Ana's 1-2 Bob pushes
    "same pair, skip" (his swap of phase 1, not applied); then phase 2 goes on."""
    r = replay("skip")
    order = book_order(0, 1)
    shows = card_of(LAYOUT)
    assert ignored(r) == [("choose", None, "not_now")]
    assert swaps(r) == [(order[0], 1, (1, 2)), (order[2], 2, (3, 4)), (order[3], 2, (5, 6))]
    assert story(r, "swap_skipped") == [
        {"kind": "swap_skipped", "seat": order[1], "phase": 1,
         "colours": list(pair(shows[0], shows[1]))}
    ]  # fmt: skip
    assert r.state.grid == grid_after(LAYOUT, [(1, 2), (3, 4), (5, 6)])
    prompts = [
        s.prompt
        for _, referee, _ in walk("skip")
        if isinstance(s := referee.screen, SwBoardScreen)
        and s.prompt.say is SwSay.SWAP_OR_SKIP  # only after a phase's first swap
    ]
    assert prompts and {p.get("seat") for p in prompts} == {order[1], order[3]}


def test_swapping_the_same_pair_again_is_a_fault_then_skip() -> None:
    """SW-4: the pair a phase's first swap applied is applied once: Bob's swap of it is a
    Stop naming squares 1 and 2 and the cube each must hold (as Ana left them)."""
    after_ana = grid_after(LAYOUT, [(1, 2)])
    faults = [
        referee.screen
        for _, referee, _ in walk("fault_same_pair")
        if isinstance(referee.screen, SwFaultScreen)
    ]
    assert faults and {s.prompt for s in faults} == {
        faults[0].prompt.of(SwSay.SAME_PAIR, spots=(1, 2), colours=after_ana[:2])
    }
    r = replay("fault_same_pair")
    order = book_order(0, 1)
    assert story(r, *FAULTS, "swap_skipped", "ignored") == [
        {"kind": "fault", "spot": 1, "reason": "same_pair"},
        {"kind": "ignored", "control": "choose", "seat": None, "reason": "table_first"},
        {"kind": "fixed"},
        {"kind": "swap_skipped", "seat": order[1], "phase": 1,
         "colours": list(pair(*after_ana[:2]))},
    ]  # fmt: skip
    assert swaps(r) == [(order[0], 1, (1, 2)), (order[2], 2, (3, 4))]


def test_a_manche_limit_ends_the_game_in_a_draw_sw6() -> None:
    r = replay("draw_limit")
    assert [s for s, _, _ in swaps(r)] == book_order(0, 1)
    assert story(r, "manche_end", "game_drawn", "game_won", "targets") == [
        {"kind": "manche_end", "manche": 1},
        {"kind": "game_drawn", "manches": 1},
        {"kind": "targets", "cards": [ANA_CARD, BOB_CARD]},
    ]
    screen = r.screen
    assert isinstance(screen, SwGameOverScreen)
    assert screen.view.winner is None and screen.targets == (ANA_CARD, BOB_CARD)


# ---------------------------------------------------------------------------- SW-5


def test_five_matches_true_wins() -> None:
    s = SCENARIOS["matches_true"]()
    assert agreement(s.grid(), card_of(ANA_CARD)) >= 5  # the premise: the mat shows 5
    before = grid_after(LAYOUT, TO_FIVE[:-1])
    assert agreement(before, card_of(ANA_CARD)) < 5  # and only after the last swap
    r = replay("matches_true")
    assert claims(r) == [(0, "matches", True)]
    assert story(r, "game_won") == [{"kind": "game_won", "seat": 0}]
    assert ignored(r) == [("doublon", 1, "not_now")]  # the game is over
    assert isinstance(r.screen, SwGameOverScreen) and r.state.winner == 0


@pytest.mark.parametrize(
    "name,claim,winner",
    [
        ("matches_false", (1, "matches", False), 0),
        ("card_right", (1, "card", True), 1),
        ("card_wrong", (0, "card", False), 1),
    ],
)
def test_a_claim_true_wins_false_loses_by_the_book(
    name: str, claim: tuple[int, str, bool], winner: int
) -> None:
    seat, kind, correct = claim
    s = SCENARIOS[name]()
    other_card = (ANA_CARD, BOB_CARD)[1 - seat]
    if kind == "matches":  # what the rules say of the claim, from the mat the people left
        own = (ANA_CARD, BOB_CARD)[seat]
        assert (agreement(s.grid(), card_of(own)) >= 5) is correct
    else:
        named = [line for line in s.lines if line.get("spot") == 0 and line["uids"]][-1]
        assert (named["uids"] == [f"04C4{other_card:010X}"]) is correct
    r = replay(name)
    assert claims(r) == [claim]
    assert story(r, "game_won") == [{"kind": "game_won", "seat": winner}]
    screen = r.screen
    assert isinstance(screen, SwGameOverScreen)
    assert screen.verdict == ClaimChecked(*claim)
    assert screen.targets == (ANA_CARD, BOB_CARD)  # shown once the game is over


def test_false_claims_only_refused_one_per_seat_between_two_swaps() -> None:
    r = replay("false_claims_refused")
    assert claims(r) == [
        (0, "matches", False), (1, "card", False), (0, "matches", False), (1, "card", True)
    ]  # fmt: skip
    assert ignored(r) == [("doublon", 0, "already_called")]
    assert story(r, "game_won") == [{"kind": "game_won", "seat": 1}]
    verdicts = []
    for _, referee, events in walk("false_claims_refused"):
        screen = referee.screen
        if isinstance(screen, SwBoardScreen):
            kinds = [e["kind"] for e in events]
            swapped = "swap" in kinds and "claim" not in kinds[kinds.index("swap") :]
            verdicts.append((screen.verdict, swapped))
    shown = [v for v, _ in verdicts if v is not None]
    assert ClaimChecked(0, "matches", False) in shown and ClaimChecked(1, "card", False) in shown
    assert all(verdict is None for verdict, swapped in verdicts if swapped)  # cleared


def test_with_no_limit_a_seat_may_name_cards_in_a_row() -> None:
    r = replay("claims_any_number")
    assert claims(r) == [(1, "card", False)] * 3 + [(1, "card", True)]
    assert len(swaps(r)) == 1 and not ignored(r)
    assert r.state.winner == 1


def test_claims_refused_when_the_rules_do_not_allow_them() -> None:
    r = replay("claims_refused")
    assert ignored(r) == [
        ("doublon", 0, "not_now"),  # the cards are being drawn
        ("doublon", 0, "not_now"),  # claim_before_first_swap is off
        ("doublon", 3, "not_seated"),
        ("pad", None, "not_now"),  # a card on the pad when nothing asks for one
        ("doublon", 0, "already_called"),  # Bob is naming a card
        ("doublon", 1, "already_called"),  # one claim between two swaps
    ]
    assert claims(r) == [(1, "card", False)]
    assert [s for s, _, _ in swaps(r)] == book_order(0, 1)[:2]
    notices = [
        referee.screen for _, referee, _ in walk("claims_refused")
        if isinstance(referee.screen, SwNoticeScreen)
    ]  # fmt: skip
    assert {n.notice.reason for n in notices} == {"not_now", "not_seated", "already_called"}


# --------------------------------------------------------------------------- faults


@pytest.mark.parametrize(
    "name,reason,spot,after",
    [
        ("fault_put_back", SwSay.PUT_BACK, 1, (0, 1, (4, 5))),
        ("fault_same_pair", SwSay.SAME_PAIR, 1, (1, 2, (3, 4))),
        ("fault_unknown_tag", SwSay.UNKNOWN_TAG, 5, (0, 1, (4, 5))),
        ("fault_card_on_square", SwSay.CARD_ON_SQUARE, 3, (0, 1, (1, 2))),
        ("fault_two_cards", SwSay.TWO_CARDS, 0, (0, 1, (1, 2))),
        ("fault_card_taken", SwSay.CARD_TAKEN, 0, (0, 1, (1, 2))),
        ("fault_reader_silent", SwSay.READER_SILENT, 7, (0, 1, (7, 8))),
        ("fault_guess_first", SwSay.GUESS_FIRST, None, None),
    ],
)
def test_each_wrong_act_is_a_fault_naming_its_place_then_fixed(
    name: str, reason: SwSay, spot: int | None, after: tuple[int, int, tuple[int, int]] | None
) -> None:
    r = replay(name)
    assert story(r, *FAULTS) == [
        {"kind": "fault", "spot": spot, "reason": str(reason)},
        {"kind": "fixed"},
    ]
    prompts = [referee.fault for _, referee, _ in walk(name) if referee.fault is not None]
    assert prompts and {p.say for p in prompts} == {reason}
    if spot is not None:
        assert {p.spots()[0] for p in prompts} == {spot}
    shown = [
        type(referee.screen) for _, referee, _ in walk(name) if referee.fault is not None
    ]  # the Stop, or for a moment the notice of a press it refused
    assert SwFaultScreen in shown and set(shown) <= {SwFaultScreen, SwNoticeScreen}
    if after is not None:  # fixed, play goes on: the next act counts
        assert swaps(r)[-1] == after


def test_the_fault_scenarios_cover_every_fault_key() -> None:
    reasons = {e["reason"] for name in SCENARIOS for e in story(replay(name), "fault")}
    assert reasons == {str(key) for key in FAULT_KEYS}


def test_cubes_moved_round_three_squares_are_named_with_their_cubes() -> None:
    shows = card_of(LAYOUT)
    faults = [
        referee.screen
        for _, referee, _ in walk("fault_put_back")
        if isinstance(referee.screen, SwFaultScreen)
    ]
    assert {(s.prompt.get("spots"), s.prompt.get("colours")) for s in faults} == {
        ((1, 2, 3), shows[:3])
    }


def test_a_swap_while_a_card_is_named_waits_for_the_card() -> None:
    r = replay("fault_guess_first")
    assert story(r, "guess", "fault", "claim") == [
        {"kind": "guess", "seat": 0},
        {"kind": "fault", "spot": None, "reason": "guess_first"},
        {"kind": "claim", "seat": 0, "claim": "card", "correct": True},  # Bob's card 3
    ]
    assert swaps(r) == [] and r.state.winner == 0


def test_a_fault_fixed_while_squares_wait_gives_the_board_back() -> None:
    """A Stop lasts as long as its cause: once the stray tag is off, the board asks for
    squares 1 and 2 (still to be put back after back)."""
    r = replay("fault_while_waiting")
    assert story(r, *FAULTS, "undo") == [
        {"kind": "undo", "step": "swap"},
        {"kind": "fault", "spot": 5, "reason": "unknown_tag"},
        {"kind": "fixed"},
    ]
    fixed_at = next(e["t"] for e in r.events if e["kind"] == "fixed")
    on_five = [rec for rec, _, _ in walk("fault_while_waiting") if getattr(rec, "spot", None) == 5]
    stray = next(i for i, rec in enumerate(on_five) if "DEADBEEF" in rec.uids)  # type: ignore[union-attr]
    removed_at = on_five[stray + 1].t
    assert fixed_at == removed_at + 0.5  # as soon as the table is still
    for record, referee, _ in walk("fault_while_waiting"):
        if record.t == removed_at + 1.0:
            screen = referee.screen
            assert isinstance(screen, SwBoardScreen)
            assert screen.prompt.say is SwSay.WAIT_TABLE and screen.prompt.get("spots") == (1, 2)
    assert swaps(r) == [(0, 1, (1, 2)), (0, 1, (4, 5))]


def test_back_does_not_lift_a_stop_whose_cause_remains() -> None:
    after_back = None
    for record, referee, _ in walk("undo_during_fault"):
        if record.to_json().get("control") == "back":
            after_back = referee.screen
    assert isinstance(after_back, SwFaultScreen)
    assert after_back.prompt.say is SwSay.READER_SILENT
    r = replay("undo_during_fault")
    assert story(r, *FAULTS, "undo") == [
        {"kind": "fault", "spot": 7, "reason": "reader_silent"},
        {"kind": "undo", "step": "swap"},
        {"kind": "fault", "spot": 7, "reason": "reader_silent"},
        {"kind": "fixed"},
    ]
    assert swaps(r)[-1] == (0, 1, (4, 5))  # Ana's swap taken back: hers again


# ----------------------------------------------------------------------------- undo


def test_undo_takes_back_draws_swaps_skips_and_a_named_card_never_a_verdict() -> None:
    r = replay("undo")
    assert story(r, "undo", "ignored") == [
        {"kind": "ignored", "control": "back", "seat": None, "reason": "nothing_to_undo"},
        {"kind": "undo", "step": "target"},
        {"kind": "undo", "step": "swap"},
        {"kind": "ignored", "control": "doublon", "seat": 1, "reason": "table_first"},
        {"kind": "undo", "step": "skip"},
        {"kind": "undo", "step": "guess"},
        {"kind": "ignored", "control": "back", "seat": None, "reason": "public_fact"},
        {"kind": "undo", "step": "swap"},
        {"kind": "ignored", "control": "back", "seat": None, "reason": "public_fact"},
    ]
    order = book_order(0, 1)
    # Ana's 1-2 taken back (and put back), her 4-5 instead; Bob's skip taken back, his
    # 7-8 instead; Bob's 2-3 after the verdict taken back and put back.
    assert swaps(r) == [(order[0], 1, (1, 2)), (order[0], 1, (4, 5)), (order[1], 1, (7, 8)),
                        (order[2], 2, (2, 3))]  # fmt: skip
    assert claims(r) == [(0, "matches", False)]  # the verdict stays
    assert [e["seat"] for e in story(r, "target")] == [0, 1, 1]  # Bob's tapped again
    assert r.state.grid == grid_after(LAYOUT, [(4, 5), (7, 8)])
    assert r.state.step == 2  # phase 2, Bob's swap again
    waits = [
        screen.prompt.get("spots")
        for _, referee, _ in walk("undo")
        if isinstance(screen := referee.screen, SwBoardScreen)
        and screen.prompt.say is SwSay.WAIT_TABLE
    ]
    assert set(waits) == {(1, 2), (2, 3)}


def test_undo_never_takes_back_a_manches_end() -> None:
    r = replay("undo_manche_end")
    assert ignored(r) == [("back", None, "public_fact")]
    assert r.state.manche == 2
    assert swaps(r)[-1] == (book_order(0, 2)[0], 1, (1, 2))


# ---------------------------------------------------------------------- people's pace


def test_cubes_in_the_air_are_a_swap_under_way_never_a_fault() -> None:
    shown = []
    for _, referee, _ in walk("slow_swap"):
        screen = referee.screen
        if isinstance(screen, SwBoardScreen) and screen.prompt.say is SwSay.SWAPPING:
            shown.append((screen.prompt.get("seat"), screen.prompt.get("spots")))
    r = replay("slow_swap")
    assert not story(r, "fault")
    order = book_order(0, 1)
    assert swaps(r) == [(order[0], 1, (1, 2)), (order[1], 1, (3, 4))]
    assert (order[0], (1,)) in shown and (order[0], (1, 2)) in shown  # held for 4 s
    assert (order[1], (3, 4)) in shown  # a cube beside the other: square 4 holds two
    assert shown.count((order[0], (1,))) >= 4


def test_skip_pushed_just_after_with_or_just_before_the_swap_lands_counts() -> None:
    r = replay("skip_pace")
    order = book_order(0, 1)
    assert not ignored(r)
    assert swaps(r) == [(order[0], 1, (1, 2)), (order[2], 2, (3, 4)), (order[4], 3, (5, 6))]
    assert [(e["seat"], e["phase"]) for e in story(r, "swap_skipped")] == [
        (order[1], 1), (order[3], 2), (order[5], 3)
    ]  # fmt: skip
    assert story(r, "manche_end") == [{"kind": "manche_end", "manche": 1}]


@pytest.mark.parametrize("name", ["claim_pace", "claim_with_swap"])
def test_a_claim_pressed_with_the_last_cube_is_judged_after_the_swap(name: str) -> None:
    assert agreement(grid_after(LAYOUT, TO_FIVE[:-1]), card_of(ANA_CARD)) < 5
    assert agreement(grid_after(LAYOUT, TO_FIVE), card_of(ANA_CARD)) >= 5
    r = replay(name)
    assert len(swaps(r)) == len(TO_FIVE)
    assert claims(r) == [(0, "matches", True)]
    assert r.state.winner == 0


def test_two_swaps_made_at_once_count_in_the_order_they_landed() -> None:
    r = replay("two_swaps_at_once")
    order = book_order(0, 1)
    assert not story(r, "fault")
    assert swaps(r) == [(order[0], 1, (5, 6)), (order[1], 1, (1, 2)), (order[2], 2, (3, 4))]
