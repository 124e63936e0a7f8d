"""The Vous ne passerez pas ! table at people's pace: the simulated players' journal, fed to
the referee, gives the game the bots played (run() raises if not); spaced with ticks, at
people's pace with their slips, and on a rough table, one seeded game gives one result;
ticks never matter; a journal replays to the same events; a cut journal resumes."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from companion.games.vnp.referee import VnpReferee
from companion.games.vnp.sim import Habits, Noise, Pace, VnpSim, comparable, make_setup
from companion.journal import TickInput, dump_lines, line_of, read_lines
from companion.session import Session

GAMES = [(seats, rules, seed) for seats, rules in ((4, None), (2, None), (4, {"mode": "teams"}))
         for seed in range(3)]  # fmt: skip


@pytest.mark.parametrize("seats,rules,seed", GAMES)
def test_timing_invariance_spaced_human_and_rough_tables_give_one_game(seats, rules, seed):
    """The same seeded game entered one act a second with ticks and no slip, at people's
    pace with their slips, and clumsily on a rough table (stray tags on the pad, presses of
    seats nobody sits at, controls the game does not use)."""
    setup = make_setup(seed, seats, rules=rules)
    spaced = VnpSim(setup, pace=Pace.spaced()).run()
    human = VnpSim(setup).run()
    rough = VnpSim(setup, noise=Noise.rough(), habits=Habits.clumsy()).run()
    games = [comparable(r.referee.log) for r in (spaced, human, rough)]
    assert games[0] == games[1] == games[2] == comparable(spaced.decided)
    for result in (spaced, human, rough):
        assert result.referee.finished
        assert result.referee.result()["scores"] == spaced.referee.result()["scores"]
    assert not any(e["kind"] == "ignored" for e in spaced.referee.events)
    assert not any(isinstance(r, TickInput) for r in human.inputs[:-1])  # people need none
    assert len(rough.inputs) > len(human.inputs) > len(spaced.inputs) // 2


def test_the_slips_people_make_are_each_refused_and_shown():
    """Over a few clumsy games every slip of the sim is met by its refusal: a wrong seat
    or two seats at once (not your turn), an illegal placement (with its ruling), a pass
    while a placement exists (VNP-5), a double tap (repeated); and a wrong placement taken
    back (undo), a hint."""
    reasons: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    rulings: set[str] = set()
    for seed in range(3):
        result = VnpSim(make_setup(seed), habits=Habits.clumsy(), noise=Noise.rough()).run()
        for event in result.referee.events:
            kinds[event["kind"]] += 1
            if event["kind"] == "ignored":
                reasons[event["reason"]] += 1
                rulings.add(event.get("ruling", ""))
    assert {"not_your_turn", "illegal_placement", "may_not_pass", "repeated", "not_seated",
            "not_now"} <= set(reasons)  # fmt: skip
    assert {"VNP-5", "VNP-4"} <= rulings
    assert kinds["undo"] > 0 and kinds["hint"] > 0


@pytest.mark.parametrize("seed", range(2))
def test_a_journal_replays_the_same_without_its_ticks(seed):
    result = VnpSim(make_setup(seed), pace=Pace.spaced()).run()
    inputs = result.inputs
    bare = [r for r in inputs[:-1] if not isinstance(r, TickInput)] + [inputs[-1]]
    assert len(bare) < len(inputs)
    referee = VnpReferee(result.setup)
    for record in bare:
        referee.feed(record)
    assert referee.events == result.referee.events


def test_the_journal_written_and_read_back_replays_to_the_same_game():
    result = VnpSim(make_setup(4, 2), habits=Habits.clumsy()).run()
    journal = read_lines(dump_lines(result.setup, result.inputs))
    referee = VnpReferee(journal.setup)
    for record in journal.inputs:
        referee.feed(record)
    assert referee.result() == result.referee.result()
    assert referee.board_view() == result.referee.board_view()


# ------------------------------------------------------------------------- resume


@pytest.fixture(scope="module")
def clumsy_game():
    return VnpSim(make_setup(1, 4, rules={"mode": "teams"}), habits=Habits.clumsy(),
                  noise=Noise.rough()).run()  # fmt: skip


def without_resume(events):
    return [e for e in events if e["kind"] != "resume"]


def test_cut_after_any_line_resume_and_feed_the_rest_gives_the_same_game(tmp_path, clumsy_game):
    setup, inputs = clumsy_game.setup, clumsy_game.inputs
    lines = [json.dumps(r.to_json()) for r in inputs]
    expected = clumsy_game.referee.result()
    path = tmp_path / "game.jsonl"
    for cut in range(0, len(inputs) + 1, max(1, len(inputs) // 40)):
        torn = lines[cut][: len(lines[cut]) // 2] if cut < len(lines) and cut % 3 == 0 else ""
        path.write_text("\n".join([line_of(setup, checksum=False), *lines[:cut], torn]))
        session = Session.resume(path)
        assert any("torn last line" in note for note in session.notes) == bool(torn)
        assert session.referee.events[-1]["kind"] == "resume"
        for record in inputs[cut:]:
            session.referee.feed(record)
        session.close()
        got = session.referee.result()
        assert without_resume(got["events"]) == expected["events"], f"cut after line {cut}"
        assert got["scores"] == expected["scores"]
