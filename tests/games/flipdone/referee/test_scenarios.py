"""Flip Done scenario journals replayed through the referee, as a real table feeds it.

The scenarios are in tests/games/flipdone/referee/scenarios/ (written by
`python -m tests.make_fixtures scenarios`); each
test names what FD-1..FD-10 and docs/table.md say must come out of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.games.flipdone.referee import FlipDoneReferee
from companion.games.flipdone.rules import Stage
from companion.games.flipdone.screens import FdBoardScreen, FdFaultScreen, FdSay
from companion.journal import read_journal
from tests.games.flipdone.referee.scenario_scripts import SCENARIOS

HERE = Path(__file__).parent / "scenarios"


def replay(name: str) -> FlipDoneReferee:
    journal = read_journal(HERE / f"{name}.jsonl")
    referee = games.make_referee(journal.setup)
    assert isinstance(referee, FlipDoneReferee)
    for record in journal.inputs:
        referee.feed(record)
    return referee


def story(referee: FlipDoneReferee, *kinds: str) -> list[dict[str, Any]]:
    """The events of the given kinds, without their time."""
    return [{k: v for k, v in e.items() if k != "t"} for e in referee.events if e["kind"] in kinds]


SCORING = ("line_made", "line_broken", "line_held", "line_lost")
FAULTS = ("fault", "fixed")


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_files_are_the_ones_the_builder_writes(name: str) -> None:
    assert (HERE / f"{name}.jsonl").read_text() == SCENARIOS[name]().text()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_scenario_ends_with_play_going_on(name: str) -> None:
    referee = replay(name)
    if name != "refusals":
        assert referee.fault is None, referee.fault
    assert referee.state.stage is not Stage.DEAL or name == "fault_deal_first"


def test_the_deal_nine_face_down_then_the_centre_face_up() -> None:
    r = replay("deal")
    assert [e["square"] for e in story(r, "dealt_down")] == list(range(1, 10))  # FD-2
    assert story(r, "phase_start", "first_element") == [
        {"kind": "phase_start", "manche": 1, "phase": 1, "first": 0, "extra": 0,
         "overtime": False, "card": "KH"},
        {"kind": "first_element", "seat": None, "square": 5, "card": "KH"},
    ]  # fmt: skip
    assert r.state.hand_sizes == (4, 4, 4) and r.state.turn == 0
    assert "KH" not in [e.get("card") for e in story(r, "dealt_down")]  # face down: hidden
    assert all(set(e) == {"kind", "square"} for e in story(r, "dealt_down"))


def test_a_build_that_aligns_a_row_scores_it_and_owns_it_fd5() -> None:
    r = replay("build_line")
    assert story(r, "build") == [
        {"kind": "build", "seat": 0, "square": 4, "card": "AH"},
        {"kind": "build", "seat": 1, "square": 1, "card": "2S"},
        {"kind": "build", "seat": 2, "square": 6, "card": "QD"},
    ]
    assert story(r, *SCORING) == [{"kind": "line_made", "seat": 2, "line": 4, "value": 2}]
    assert r.state.owners[4] == 2 and r.state.tokens == (0, 0, 2)
    assert r.state.hand_sizes == (3, 3, 3)


def test_a_flip_that_breaks_anothers_line_takes_its_value_fd6() -> None:
    r = replay("flip_breaks_line")
    assert story(r, "flip") == [
        {"kind": "flip", "seat": 0, "square": 4, "shown": "4S", "hidden": "AH"}
    ]
    assert story(r, *SCORING)[1:] == [
        {"kind": "line_broken", "seat": 0, "owner": 2, "line": 4, "value": 2,
         "from_owner": 2, "from_bank": 0}
    ]  # fmt: skip
    assert r.state.tokens == (2, 0, 0) and r.state.owners[4] is None


def test_a_flip_that_keeps_anothers_line_gives_the_owner_a_bonus_fd6() -> None:
    r = replay("flip_keeps_line")
    assert story(r, *SCORING)[1:] == [
        {"kind": "line_held", "seat": 0, "owner": 2, "line": 4, "bonus": 1}
    ]
    assert r.state.tokens == (0, 0, 3) and r.state.owners[4] == 2


def test_flipping_in_ones_own_line_scores_nothing_and_a_break_loses_it_fd7() -> None:
    r = replay("own_line")
    assert story(r, "discard") == [{"kind": "discard", "seat": 0}, {"kind": "discard", "seat": 1}]
    assert story(r, *SCORING)[1:] == [
        {"kind": "line_lost", "seat": 2, "owner": 2, "line": 4, "ruling": "FD-7"}
    ]
    assert r.state.tokens == (0, 0, 2) and r.state.owners[4] is None


def test_the_third_flip_of_a_line_scores_nothing_fd8() -> None:
    r = replay("third_flip")
    assert story(r, *SCORING) == [
        {"kind": "line_made", "seat": 2, "line": 4, "value": 2},
        {"kind": "line_held", "seat": 0, "owner": 2, "line": 4, "bonus": 1},
        {"kind": "line_held", "seat": 1, "owner": 2, "line": 4, "bonus": 1},
        {"kind": "line_lost", "seat": 0, "owner": 2, "line": 4, "ruling": "FD-8"},
    ]
    assert r.state.tokens == (0, 0, 4)


def test_a_discard_is_a_card_on_the_pad_and_the_encoders_no_flip() -> None:
    r = replay("discard")
    assert story(r, "discard") == [{"kind": "discard", "seat": 0}, {"kind": "discard", "seat": 1}]
    assert r.state.discards == ("3S", "4H") and r.state.turn == 2
    assert all("card" not in e for e in story(r, "discard"))  # a discard stays hidden


def test_a_phase_ends_when_the_hands_are_empty_then_the_table_is_gathered_fd9() -> None:
    r = replay("phase_end")
    (end,) = story(r, "phase_end")
    assert end == {"kind": "phase_end", "cards_left": [0, 0, 0], "paid": [0, 0, 0]}
    starts = story(r, "phase_start")
    assert [(e["phase"], e["first"]) for e in starts] == [(1, 0), (2, 1)]  # FD-2
    i = next(i for i, e in enumerate(r.events) if e["kind"] == "phase_end")
    gathered = [e for e in r.events[i:] if e["kind"] == "dealt_down"]
    assert len(gathered) == 9 and not story(r, "fault")  # gathering is no fault
    assert r.state.phase == 2 and r.state.turn == 1


def test_the_phase_end_screen_asks_to_gather_until_the_table_is_empty() -> None:
    journal = read_journal(HERE / "phase_end.jsonl")
    referee = FlipDoneReferee(journal.setup)
    screens = []
    for record in journal.inputs:
        referee.feed(record)
        screens.append(referee.screen)
    kinds = [type(s).__name__ for s in screens]
    first = kinds.index("FdPhaseEndScreen")
    last = len(kinds) - 1 - kinds[::-1].index("FdPhaseEndScreen")
    waiting = [s.prompt.get("spots") for s in screens[first : last + 1]]
    assert waiting[0] == tuple(range(10)) and len(waiting[-1]) == 1
    assert kinds[last + 1] == "FdBoardScreen"


def test_people_pace_a_quick_flip_and_an_early_no_flip_count() -> None:
    r = replay("fast_acts")
    assert story(r, "flip", "discard") == [
        {"kind": "flip", "seat": 0, "square": 5, "shown": "5S", "hidden": "KH"},
        {"kind": "discard", "seat": 1},
    ]


def test_undo_takes_back_a_build_and_a_discard_never_a_flip() -> None:
    r = replay("undo")
    assert story(r, "undo", "ignored") == [
        {"kind": "undo", "step": "build"},
        {"kind": "undo", "step": "discard"},
        {"kind": "ignored", "control": "back", "seat": None, "reason": "public_fact"},
    ]
    (flip,) = story(r, "flip")
    assert flip["seat"] == 0 and flip["square"] == 5  # the undone discard's card, flipped
    assert r.state.turn == 1 and r.state.discards == ("3S",)


def test_presses_that_cannot_count_are_refused_and_shown() -> None:
    r = replay("refusals")
    assert [(e["control"], e["reason"]) for e in story(r, "ignored")] == [
        ("choose", "not_now"), ("doublon", "not_now"), ("choose", "table_first"),
    ]  # fmt: skip
    assert type(r.screen).__name__ == "FdNoticeScreen"


@pytest.mark.parametrize(
    "name,reason,spot",
    [
        ("fault_stacked", "stacked", 4),
        ("fault_flipped_twice", "flipped_twice", 5),
        ("fault_out_of_turn", "out_of_turn", 1),
        ("fault_unknown_tag", "unknown_tag", 3),
        ("fault_deal_first", "deal_first", 0),
        ("fault_two_tags", "two_tags", 2),
        ("fault_discard_first", "discard_first", 5),
        ("fault_missing", "missing_tag", 9),
        ("fault_not_element", "not_element", 9),
        ("fault_one_flip", "one_flip", 4),
        ("fault_reader_silent", "reader_silent", 7),
    ],
)
def test_each_wrong_act_is_a_fault_naming_the_spot_then_fixed(
    name: str, reason: str, spot: int
) -> None:
    r = replay(name)
    assert story(r, *FAULTS) == [
        {"kind": "fault", "spot": spot, "reason": reason},
        {"kind": "fixed"},
    ]


def test_a_card_in_play_moved_is_a_fault_where_it_appears() -> None:
    r = replay("fault_in_play")
    assert [(e.get("spot"), e.get("reason")) for e in story(r, *FAULTS)] == [
        (0, "missing_tag"), (1, "in_play"), (0, "missing_tag"), (None, None),
    ]  # fmt: skip
    assert story(r, "build") == [{"kind": "build", "seat": 1, "square": 1, "card": "2S"}]


@pytest.mark.parametrize(
    "name,after",
    [
        ("fault_flipped_twice", {"kind": "discard", "seat": 1}),
        (
            "fault_not_element",
            {"kind": "flip", "seat": 0, "square": 5, "shown": "5S", "hidden": "KH"},
        ),  # fmt: skip
        ("fault_one_flip", {"kind": "discard", "seat": 1}),
    ],
)
def test_a_wrong_flip_is_turned_back_then_the_card_on_the_pad_still_plays(
    name: str, after: dict[str, Any]
) -> None:
    r = replay(name)
    assert story(r, "flip", "discard")[-1] == after


def test_a_fault_screen_names_the_spot_and_the_fix() -> None:
    journal = read_journal(HERE / "fault_stacked.jsonl")
    referee = FlipDoneReferee(journal.setup)
    for record in journal.inputs:
        referee.feed(record)
        if referee.fault is not None:
            break
    screen = referee.screen
    assert isinstance(screen, FdFaultScreen)
    assert screen.prompt.say is FdSay.STACKED and screen.prompt.get("spot") == 4


def test_the_board_guides_the_deal() -> None:
    journal = read_journal(HERE / "deal.jsonl")
    referee = FlipDoneReferee(journal.setup)
    prompts = []
    for record in journal.inputs:
        referee.feed(record)
        screen = referee.screen
        assert isinstance(screen, FdBoardScreen)
        prompts.append((screen.prompt.say, dict(screen.prompt.params).get("n")))
    assert prompts[0] == (FdSay.DEAL_DOWN, 9)
    assert (FdSay.DEAL_DOWN, 1) in prompts and (FdSay.DEAL_UP, None) in prompts
    assert prompts[-1] == (FdSay.PLAY, None)
