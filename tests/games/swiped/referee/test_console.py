"""`companion play --sim --game swiped`: a Swiped table operated by typing (cards tapped on
the pad, cubes placed and swapped, the seat buttons, the encoder's skip, back), its faults,
and --resume."""

from __future__ import annotations

import io
import json

import pytest

from companion.games.flipdone.sim import make_setup as flipdone_setup
from companion.games.swiped.console import SwipedConsole, run_console
from companion.games.swiped.sim import make_setup
from companion.session import Session
from tests.games.helpers import replayed_events as events
from tests.games.helpers import typed_play

OPENING = ["tap 5", "place", "tap 9", "tap 14"]
"""Card 5 face up, the cubes as it shows, Ana's secret card 9, then Bob's 14 (Ana first)."""


def play(journal, commands, *more):
    return typed_play("swiped", journal, commands, *more)


def test_a_typed_game_opens_swaps_skips_and_a_claim_ends_it_across_a_resume(tmp_path):
    journal = tmp_path / "sw.jsonl"
    commands = ["help", *OPENING, "table", "swap 1 2", "swap 1 2", "swap 1 2", "skip", "screen"]
    run = play(journal, [*commands, "quit"])
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "> tap 5" in out  # echoed: not typed live
    assert "menteur SEAT [CARD]" in out and "skip " in out  # the help
    assert "card 5 is the face-up card" in out
    assert "the cubes stand as the face-up card shows" in out
    assert "Ana's secret target card is recorded" in out
    assert "Bob's secret target card is recorded" in out
    assert "square 1: " in out and "pad: -" in out
    assert "Ana swaps squares 1 and 2" in out
    assert "STOP at square 1: the pair just swapped, swapped again (SW-4)" in out  # Bob's
    assert "the table matches again" in out
    assert "Bob skips:" in out
    assert "┌" in out  # the OLED, drawn as text
    assert "secret target cards were" not in out
    _, made = events(journal)
    kinds = [e["kind"] for e in made]
    assert kinds[:4] == ["layout", "placed", "target", "target"]
    assert {k: made[0][k] for k in ("kind", "card")} == {"kind": "layout", "card": 5}
    assert kinds.count("swap") == 1 and kinds.count("swap_skipped") == 1
    assert {"kind": "fault", "spot": 1, "reason": "same_pair"} in made
    records = [json.loads(x) for x in journal.read_text().splitlines()]
    assert records[0]["game"] == "swiped" and records[0]["seats"] == ["Ana", "Bob"]

    # --resume carries on: Bob swaps, then names Ana's card (9) and wins
    again = play(journal, ["table", "swap 3 4", "menteur Bob 9", "quit"], "--resume")
    assert again.returncode == 0, again.stderr
    assert "square 1: " in again.stdout
    assert "Bob swaps squares 3 and 4" in again.stdout
    assert 'Bob says "I know your card"' in again.stdout
    assert "Bob names Ana's card: right" in again.stdout
    assert "Bob wins the game!" in again.stdout
    assert "the secret target cards were: Ana card 9, Bob card 14" in again.stdout
    referee, made = events(journal)
    assert referee.finished and referee.result()["winner"] == 1
    assert [e["kind"] for e in made].count("resume") == 1
    assert {"kind": "claim", "seat": 1, "claim": "card", "correct": True} in made
    assert made[-1] == {"kind": "targets", "cards": [9, 14]}


def test_faults_and_undo_at_the_typed_table(tmp_path):
    session = Session.start(tmp_path / "sw.jsonl", make_setup(1, first=1))
    out = io.StringIO()
    commands = ["place", "tap 3", "place", "swap 1 2", "swap 1 2", "put 4 7", "take 4 7",
                "tap 3", "tap 10", "tap 20", "swap 5 6", "back", "swap 5 6", "swap 7 8",
                "tap rouge", "tap 99", "swap 1 1", "swap 1", "put 10 rouge", "doublon 3",
                "take pad", "frob", "wait -1", "doublon Ana", "tap 2", "quit"]  # fmt: skip
    assert run_console(session, commands, out, "en", echo=True) == 0
    text = out.getvalue()
    assert "? no face-up card yet: tap it first" in text
    assert "STOP at square 1: cubes out of place" in text  # a swap before the targets
    assert "STOP at square 4: a card on a square: take it off" in text
    assert "STOP at the pad: a card already drawn" in text  # the face-up card again
    assert "Bob's secret target card is recorded" in text  # Bob is first
    assert "back: the swap is taken back" in text
    assert "Bob swaps squares 7 and 8" in text
    assert "? 'rouge' is a cube" in text and "? card 99 has no tag" in text
    assert "? swap two different squares" in text and "? a word is missing" in text
    assert "? no square '10'" in text and "? no seat '3'" in text
    assert "? nothing lies there" in text
    assert "unknown command 'frob'" in text and "time only goes forward" in text
    assert "Ana claims 5 matches:" in text
    referee, made = events(tmp_path / "sw.jsonl")
    steps = [(e["kind"], e.get("seat"), e.get("squares")) for e in made]
    steps = [step for step in steps if step[0] in ("swap", "undo")]
    # Bob's swap taken back, its cubes put back, then Bob's swap again: it is still his
    assert steps == [("swap", 1, [5, 6]), ("undo", None, None), ("swap", 1, [7, 8])]
    verdict = next(e for e in made if e["kind"] == "claim")
    # SW-5: 5 matches for Ana's card 20 or not, the engine knows; a false claim loses
    assert referee.finished and referee.state.winner == (0 if verdict["correct"] else 1)
    assert "the secret target cards were: Ana card 20, Bob card 10" in text
    assert "> tap 2\n" not in text  # the game is over: the console stopped there


def test_the_typed_swiped_table_refuses_another_game(tmp_path):
    session = Session.start(tmp_path / "fd.jsonl", flipdone_setup(1))
    with pytest.raises(TypeError, match="plays Swiped, not flipdone"):
        SwipedConsole(session, io.StringIO(), "en")
    session.close()
