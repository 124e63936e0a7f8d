"""Scenario journals replayed through the referee, as a real table would feed it.

The scenarios are in tests/referee/scenarios/ (written by make_scenarios.py); each test
names what the rule books, the rulings and TABLE.md say must come out of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.journal import read_journal
from companion.referee.passpass import PassPassReferee
from tests.referee.make_scenarios import SCENARIOS

HERE = Path(__file__).parent / "scenarios"


def replay(name: str) -> PassPassReferee:
    journal = read_journal(HERE / f"{name}.jsonl")
    referee = PassPassReferee(journal.setup)
    for record in journal.inputs:
        referee.feed(record)
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


def test_back_undoes_a_designation_and_a_verdict():
    r = replay("undo")
    assert [e["kind"] for e in story(r, "designate", "undo", "verdict", "place")] == [
        "designate", "undo", "designate", "verdict", "undo", "place",
    ]  # fmt: skip
    assert r.state.hats[1] == ("lapin",) and r.state.challenge_tokens == (2, 2)


def test_window_timing_simultaneous_calls_go_clockwise_late_calls_are_ignored():
    r = replay("window_timing")
    verdicts = story(r, "verdict")
    assert [(v["challenge"], v["seat"]) for v in verdicts] == [("doublon", 1), ("menteur", 2)]
    (ignored,) = story(r, "ignored")
    assert ignored["control"] == "doublon" and ignored["seat"] == 0


def test_phipasspass_doublon_window_then_menteur_window():
    r = replay("phipasspass_two_windows")
    assert story(r, "ignored")[0]["control"] == "announce"  # PHI-2: window 1 first
    verdicts = story(r, "verdict")
    assert [(v["challenge"], v["seat"], v["success"]) for v in verdicts] == [
        ("menteur", 1, True),
        ("doublon", 2, False),
    ]
    assert r.state.hands[2] == ("bleu", "orange", "vert", "vert")  # PHI-3: takes the token
