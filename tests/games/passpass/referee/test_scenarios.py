"""Scenario journals replayed through the referee, as a real table would feed it.

The scenarios are in tests/games/passpass/referee/scenarios/ (written by
`python -m tests.make_fixtures scenarios`); each test
names what the rule books, the rulings and docs/table.md say must come out of it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.games.passpass.prompt import Prompt, Say
from companion.games.passpass.referee import NOTICE_SECONDS, SHOW_SECONDS, PassPassReferee
from companion.games.passpass.screens import InstructionScreen, NoticeScreen, RevealMissScreen
from companion.games.passpass.words import say
from companion.journal import Input, PressInput, TickInput, read_journal
from tests.games.passpass.referee.scenario_scripts import SCENARIOS

HERE = Path(__file__).parent / "scenarios"


def replay(
    name: str, until: Callable[[PassPassReferee, Input], bool] = lambda r, i: False
) -> PassPassReferee:
    """The scenario fed through a referee, to its end or to the first input after which
    `until` holds."""
    journal = read_journal(HERE / f"{name}.jsonl")
    referee = PassPassReferee(journal.setup)
    for record in journal.inputs:
        referee.feed(record)
        if until(referee, record):
            break
    return referee


def story(referee: PassPassReferee, *kinds: str) -> list[dict[str, Any]]:
    """The events of the given kinds, without their time."""
    return [{k: v for k, v in e.items() if k != "t"} for e in referee.events if e["kind"] in kinds]


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_files_are_the_ones_the_builder_writes(name):
    assert (HERE / f"{name}.jsonl").read_text() == SCENARIOS[name]().text()


def test_doublon_success_the_magicien_takes_back_the_hat_and_the_challenger_drops():
    r = replay("doublon_success_reward_drop")
    (verdict,) = story(r, "verdict")
    assert verdict | {"hat": ["lapin"]} == verdict  # PTI-8: the hat is shown
    assert verdict["challenge"] == "doublon" and verdict["seat"] == 0
    assert verdict["magician"] == 1 and verdict["success"] is True
    assert story(r, "reward") == [
        {"kind": "reward", "seat": 0, "choice": "drop", "token": "colombe", "spot": 2}
    ]
    assert r.state.hands[1] == ("colombe", "lapin", "lapin", "souris")  # took all back
    assert r.state.magician == 0 and not r.state.masque  # left of Bob; tour 2 is Visible


def test_doublon_failure_the_challenger_wins_the_animal_and_pays_a_token():
    r = replay("doublon_failure")
    (verdict,) = story(r, "verdict")
    assert verdict["success"] is False and verdict["hat"] == []
    assert r.state.challenge_tokens == (3, 1)
    assert story(r, "place") == [{"kind": "place", "seat": 1, "spot": 3}]


def test_menteur_success_shows_the_animal_and_the_reward_is_a_token():
    r = replay("menteur_success_reward_token")
    (verdict,) = story(r, "verdict")
    assert verdict["challenge"] == "menteur" and verdict["success"] is True
    assert verdict["shown"] == "souris"  # PTI-9: the Magicien shows the real animal
    assert story(r, "reward") == [
        {"kind": "reward", "seat": 1, "choice": "token", "token": None, "spot": None}
    ]
    assert r.state.challenge_tokens == (1, 3) and r.state.magician == 1


def test_menteur_failure_the_animal_goes_to_the_challenger():
    r = replay("menteur_failure")
    (verdict,) = story(r, "verdict")
    assert verdict["success"] is False and verdict["shown"] == "colombe"
    assert r.state.hands[1] == ("colombe", "colombe", "lapin", "souris")
    assert r.pending is None and r.state.magician == 1


def test_reward_none_when_the_challenger_holds_nothing_and_the_magicien_no_token():
    r = replay("reward_none")
    assert story(r, "reward") == [
        {"kind": "reward", "seat": 1, "choice": "none", "token": None, "spot": None}
    ]
    assert r.state.magician == 1 and r.state.phase == "reveal"


def test_end_of_manche_and_of_the_game_with_a_contiguous_swap():
    r = replay("game_won_with_swap")
    reveals = story(r, "reveal")
    assert [(x["seat"], x["success"]) for x in reveals] == [(0, True), (1, False), (0, True)]
    assert story(r, "swap") == [{"kind": "swap", "seat": 0, "spots": [3, 6]}]
    assert story(r, "manche_won", "game_won") == [
        {"kind": "manche_won", "seat": 0, "victories": 1},
        {"kind": "manche_won", "seat": 0, "victories": 2},
        {"kind": "game_won", "seat": 0},
    ]
    assert story(r, "manche_start") == [{"kind": "manche_start", "manche": 2, "starter": 1}]
    assert r.result()["winner"] == 0 and r.result()["scores"] == [2, 0]
    assert type(r.screen).__name__ == "GameWonScreen"


def test_a_slide_of_non_contiguous_hats_is_a_fault_and_a_same_kind_swap_is_seen():
    r = replay("swap_not_contiguous")
    assert story(r, "fault", "fixed", "swap") == [
        {"kind": "fault", "spot": 1, "reason": "not_contiguous"},
        {"kind": "fixed"},
        {"kind": "swap", "seat": 0, "spots": [2, 5]},  # both hats held a lapin
    ]


def test_reveal_with_a_two_animal_hat_takes_the_best_pick():
    r = replay("reveal_multi_animal")
    (reveal,) = story(r, "reveal")
    assert reveal["hats"][0] == ["colombe", "lapin"]
    assert reveal["success"] and reveal["pick"] == ["colombe", "souris", "lapin"]
    assert type(r.screen).__name__ == "MancheWonScreen"  # until the table is cleared


def test_every_fault_kind_is_reported_then_fixed():
    r = replay("faults")
    faults = story(r, "fault")
    assert [f["reason"] for f in faults] == [
        "unknown_tag", "two_tags", "extra_tag", "missing_tag", "reader_silent", "not_yours",
    ]  # fmt: skip
    assert len(story(r, "fixed")) == len(faults)
    # Faults are never moves: the only designations are the real ones.
    assert [e["spot"] for e in story(r, "designate")] == [2, 4]
    assert r.fault is None


def test_back_undoes_a_designation_and_an_announcement_never_a_verdict():
    r = replay("undo")
    kinds = ("designate", "announce", "undo", "verdict", "ignored")
    assert [e["kind"] for e in story(r, *kinds)] == [
        "designate", "undo", "designate", "announce", "undo", "announce", "verdict", "ignored",
    ]  # fmt: skip
    assert [e["step"] for e in story(r, "undo")] == ["designate", "announce"]
    (refused,) = story(r, "ignored")
    assert refused == {"kind": "ignored", "control": "back", "seat": None, "reason": "public_fact"}
    (verdict,) = story(r, "verdict")
    assert verdict["success"] is False  # PTI-8: the undone "lapin" never counted: Bob is wrong
    assert r.state.hands[1] == ("colombe", "lapin", "lapin", "souris")  # Bob won the lapin
    assert r.state.challenge_tokens == (3, 1) and r.pending is None


def test_window_timing_simultaneous_calls_go_clockwise_late_calls_are_ignored():
    r = replay("window_timing")
    verdicts = story(r, "verdict")
    assert [(v["challenge"], v["seat"]) for v in verdicts] == [("doublon", 1), ("menteur", 2)]
    (ignored,) = story(r, "ignored")
    assert ignored["control"] == "doublon" and ignored["seat"] == 0


def test_phipasspass_doublon_window_then_menteur_window():
    r = replay("phipasspass_two_windows")
    (refused,) = story(r, "ignored")
    assert refused["control"] == "menteur" and refused["reason"] == "wrong_window"  # PHI-2
    (drop,) = [e for e in r.events if e["kind"] == "designate" and e["spot"] == 1]
    (announce,) = [e for e in r.events if e["kind"] == "announce"][:1]
    assert announce["t"] == drop["t"] + 2.0  # held until doublon_min after the drop (PHI-2)
    verdicts = story(r, "verdict")
    assert [(v["challenge"], v["seat"], v["success"]) for v in verdicts] == [
        ("menteur", 1, True),
        ("doublon", 2, False),
    ]
    assert r.state.hands[2] == ("bleu", "orange", "vert", "vert")  # PHI-3: takes the token


# People's pace: the announce before, with and after the drop; presses while settling.


def test_an_announcement_before_the_drop_is_held_until_the_drop():
    r = replay("announce_before_drop")
    assert story(r, "held") == [
        {"kind": "held", "seat": 0, "control": "announce", "value": "lapin"}
    ]
    (verdict,) = story(r, "verdict")
    assert verdict["challenge"] == "menteur" and verdict["success"] is True  # PTI-9
    assert verdict["shown"] == "souris" and not story(r, "ignored")


def test_an_announcement_with_the_drop_waits_for_the_table_to_settle():
    r = replay("announce_with_drop")
    (announce,) = story(r, "announce")
    assert announce["token"] == "souris"
    (verdict,) = story(r, "verdict")
    assert verdict["success"] is False and not story(r, "ignored")  # the truth: Bob pays
    assert r.state.challenge_tokens == (3, 1)


def test_an_announcement_after_the_drop_and_an_early_doublon_both_count():
    r = replay("announce_after_drop")
    (verdict,) = story(r, "verdict")
    assert (verdict["challenge"], verdict["seat"], verdict["success"]) == ("doublon", 1, False)
    assert not story(r, "ignored") and r.state.hands[1].count("colombe") == 2


def test_a_doublon_held_before_the_window_counts_at_its_opening():
    r = replay("doublon_before_window")
    (refused,) = story(r, "ignored")
    assert (refused["control"], refused["seat"], refused["reason"]) == (
        "menteur", 2, "no_announcement",
    )  # fmt: skip
    (verdict,) = [e for e in r.events if e["kind"] == "verdict"]
    assert verdict["seat"] == 2  # within 300 ms of Ana's held call, and first clockwise
    (together,) = story(r, "calls_together")  # journaled: companion report counts PTI-7
    assert together == {"kind": "calls_together", "seats": [0, 2], "counted": 2}
    (announce,) = [e for e in r.events if e["kind"] == "announce" and e["seat"] == 1]
    assert verdict["t"] == round(announce["t"] + 0.3, 3)


def test_calls_pressed_while_the_drop_settles_are_held_and_go_clockwise():
    r = replay("calls_during_settle")
    (verdict,) = story(r, "verdict")
    assert (verdict["challenge"], verdict["seat"], verdict["success"]) == ("doublon", 1, True)
    assert not story(r, "ignored")
    assert story(r, "calls_together")[0]["counted"] == 1


def test_every_refused_press_is_journaled_and_shown():
    r = replay("refused_presses")
    assert [(e["control"], e["seat"], e["reason"]) for e in story(r, "ignored")] == [
        ("announce", None, "visible_turn"),
        ("menteur", 1, "visible_turn"),
        ("doublon", 0, "magician"),
        ("doublon", 5, "not_seated"),
    ]
    assert story(r, "place") and not story(r, "verdict")


def test_a_refused_press_is_on_the_oled_for_a_moment():
    referee = replay(
        "refused_presses",
        lambda referee, record: isinstance(record, PressInput) and record.seat == 5,
    )
    screen = referee.screen
    assert isinstance(screen, NoticeScreen)
    assert (screen.notice.seat, screen.notice.reason) == (5, "not_seated")
    referee.feed(TickInput(referee.now + NOTICE_SECONDS))
    assert not isinstance(referee.screen, NoticeScreen)


# Undo never unsays a public fact; fault prompts name every hat and the fix.


def test_back_takes_a_swap_back_and_a_second_swap_is_a_fault_naming_both_hats():
    r = replay("undo_swap_then_one_swap_only")
    assert story(r, "swap", "undo", "fault", "fixed") == [
        {"kind": "swap", "seat": 0, "spots": [1, 2]},
        {"kind": "undo", "step": "swap"},
        {"kind": "swap", "seat": 0, "spots": [2, 3]},
        {"kind": "fault", "spot": 2, "reason": "one_swap"},
        {"kind": "fixed"},
    ]
    (reveal,) = story(r, "reveal")
    assert reveal["success"] is False and reveal["hats"][2] == []  # PTI-11: hat 6 empty
    (refused,) = story(r, "ignored")
    assert (refused["control"], refused["reason"]) == ("back", "public_fact")
    assert r.state.hats[1:3] == (("souris",), ("lapin",))  # the swap made before stays


def test_the_one_swap_fault_names_both_hats_on_the_oled():
    referee = replay(
        "undo_swap_then_one_swap_only", lambda referee, record: referee.fault is not None
    )
    assert referee.fault == Prompt.of(Say.ONE_SWAP, a=2, b=3)
    assert "Chapeaux 2 et 3" in say(referee.fault, referee.names, "fr")


def test_a_failed_reveal_shows_the_three_hats_then_the_next_turn():
    referee = replay(
        "undo_swap_then_one_swap_only",
        lambda referee, record: isinstance(record, PressInput) and record.control == "choose",
    )
    screen = referee.screen
    assert isinstance(screen, RevealMissScreen)
    assert screen.spots == (4, 5, 6) and screen.lifted == (("colombe",), ("lapin", "souris"), ())
    referee.feed(TickInput(referee.now + SHOW_SECONDS))
    assert type(referee.screen).__name__ == "RevealMapScreen"  # Bob must reveal now


def test_back_takes_back_a_reward_not_yet_carried_out():
    r = replay("undo_reward")
    assert [e["choice"] for e in story(r, "reward")] == ["token", "drop"]
    assert story(r, "undo") == [{"kind": "undo", "step": "reward"}]
    assert r.state.challenge_tokens == (2, 2)  # the token taken back
    assert r.state.hats[1] == ("colombe",)


def test_a_placed_token_that_leaves_its_hat_is_put_back_or_the_placement_redone():
    r = replay("designated_gone")
    assert story(r, "fault") == [{"kind": "fault", "spot": 2, "reason": "designated_gone"}]
    assert [e["step"] for e in story(r, "undo")] == ["announce", "designate"]
    assert [e["spot"] for e in story(r, "designate")] == [2, 3]
    assert story(r, "place") == [{"kind": "place", "seat": 0, "spot": 3}]
    assert r.fault is None and r.pending is None


def test_a_failed_doublon_says_where_the_animal_is_and_who_gets_it():
    r = replay("doublon_failure")
    referee = replay("doublon_failure", lambda r, i: r.verdict is not None)
    assert referee.pending is not None
    text = say(referee.pending.prompt, referee.names, "en", view=referee.screen.view)
    assert text == "Ana, take your animal from hat 2 to Bob, who gives you a Challenge token."
    assert r.state.challenge_tokens == (3, 1)


def test_the_end_of_a_manche_says_the_next_starts_when_every_hat_is_empty():
    referee = replay("game_won_with_swap", lambda r, i: r.celebration is not None)
    assert type(referee.screen).__name__ == "MancheWonScreen"
    referee.feed(TickInput(referee.now + SHOW_SECONDS))
    screen = referee.screen
    assert isinstance(screen, InstructionScreen) and screen.prompt == Prompt.of(Say.CLEAR_TABLE)
    assert "every hat is empty" in say(screen.prompt, referee.names, "en", view=screen.view)
