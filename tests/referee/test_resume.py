"""Resume after a cut: the journal, cut after any line (even mid-line), replayed and fed the
rest, gives the very same game."""

from __future__ import annotations

import json

import pytest

from companion.journal import SpotInput, TickInput, read_journal
from companion.session import Session
from companion.sim.driver import Noise, SimulatedGame, make_setup


def without_resume(events):
    return [e for e in events if e["kind"] != "resume"]


@pytest.fixture(scope="module")
def long_game():
    game = SimulatedGame(make_setup("ptipasspass", 3, seed=11), noise=Noise.rough()).run()
    assert game.referee.finished and len(game.inputs) > 150
    return game


def test_cut_after_every_line_resume_and_feed_the_rest_gives_the_same_game(tmp_path, long_game):
    setup, inputs = long_game.setup, long_game.inputs
    lines = [json.dumps(r.to_json()) for r in inputs]
    expected = long_game.referee.result()
    path = tmp_path / "game.jsonl"
    for cut in range(len(inputs) + 1):
        torn = lines[cut][: len(lines[cut]) // 2] if cut < len(lines) else ""
        path.write_text("\n".join([json.dumps(setup.to_json()), *lines[:cut], torn]))
        with pytest.warns(UserWarning, match="torn") if torn else _nothing():
            session = Session.resume(path)
        for record in inputs[cut:]:
            session.referee.feed(record)
        session.close()
        got = session.referee.result()
        assert without_resume(got["events"]) == expected["events"], f"cut after line {cut}"
        assert (got["winner"], got["scores"]) == (expected["winner"], expected["scores"])
        assert read_journal(path).warnings == []  # the torn line was cut from the file


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_a_session_journals_every_input_before_judging_it(tmp_path):
    setup = make_setup("ptipasspass", 2, seed=1)
    path = tmp_path / "live.jsonl"
    session = Session.start(path, setup)
    uid = next(iter(setup.tags))
    session.feed(SpotInput(1.0, 3, frozenset({uid})))
    assert [r.to_json() for r in read_journal(path).inputs] == [
        {"t": 1.0, "type": "spot", "spot": 3, "uids": [uid]}
    ]
    with pytest.raises(FileExistsError):
        Session.start(path, setup)


def test_after_a_resume_a_table_changed_while_down_is_restored_before_play(tmp_path):
    setup = make_setup("ptipasspass", 2, seed=1)
    path = tmp_path / "live.jsonl"
    Session.start(path, setup).close()
    stray = next(iter(setup.tags))
    session = Session.resume(path, live_table={4: frozenset({stray})})
    referee = session.referee
    assert referee.pending is not None and referee.pending.spots == {4}
    assert type(referee.screen).__name__ == "InstructionScreen"
    session.feed(SpotInput(3.0, 4, frozenset()))  # the players take it out again
    session.feed(TickInput(4.0))
    assert referee.pending is None and referee.state.phase == "place"
