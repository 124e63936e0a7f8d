"""Resume after a cut: the journal, cut after any line (even mid-line), replayed and fed the
rest, gives the very same game; a journal damaged at a line resumes the game before it,
and the table is guided back to what that game expects."""

from __future__ import annotations

import json

import pytest

from companion.games.passpass.sim import Noise, SimulatedGame, make_setup
from companion.journal import JournalWriter, SpotInput, TickInput, line_of, read_journal
from companion.run.loop import damage_card
from companion.session import Session, replay


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
        path.write_text("\n".join([line_of(setup, checksum=False), *lines[:cut], torn]))
        session = Session.resume(path)
        assert any("torn last line" in note for note in session.notes) == bool(torn)
        for record in inputs[cut:]:
            session.referee.feed(record)
        session.close()
        got = session.referee.result()
        assert without_resume(got["events"]) == expected["events"], f"cut after line {cut}"
        assert (got["winner"], got["scores"]) == (expected["winner"], expected["scores"])
        assert read_journal(path).warnings == []  # the torn line was cut from the file


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


def test_a_damaged_journal_resumes_its_prefix_and_the_table_is_guided_back(tmp_path, long_game):
    """The line of a drop is damaged: the game resumes before it, and the token the readers
    still see in the hat must come out again before play goes on (then it is dropped anew)."""
    setup, inputs = long_game.setup, long_game.inputs
    drop = next(
        i for i, r in enumerate(inputs) if isinstance(r, SpotInput) and r.spot >= 1 and r.uids
    )
    path = tmp_path / "game.jsonl"
    with JournalWriter(path) as writer:
        for record in (setup, *inputs[: drop + 5]):
            writer.write(record)
    lines = path.read_bytes().split(b"\n")
    lines[drop + 1] = lines[drop + 1].replace(b'"spot":', b'"spot":1', 1)  # the drop's line
    path.write_bytes(b"\n".join(lines))
    replayed = replay(path, repair=True)
    assert replayed.damage.line == drop + 2 and replayed.inputs == drop
    before = replayed.referee.state
    seen = dict(replayed.referee.observed.uids)
    session = Session.go_live(replayed, live_table={**seen, inputs[drop].spot: inputs[drop].uids})
    referee = session.referee
    assert referee.pending is not None and referee.pending.spots == {inputs[drop].spot}
    assert damage_card(session) is not None
    t = inputs[drop - 1].t
    session.feed(SpotInput(t + 1, inputs[drop].spot, seen[inputs[drop].spot]))  # taken out
    session.feed(TickInput(t + 2))
    assert referee.pending is None and referee.state == before
    session.close()
    assert read_journal(path).inputs[:drop] == list(inputs[:drop])
