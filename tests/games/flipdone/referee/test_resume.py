"""Resume after a cut: a Flip Done journal cut after any line (even mid-line), replayed
and fed the rest, gives the very same game."""

from __future__ import annotations

import json

import pytest

from companion.games.flipdone.sim import FlipDoneSim, Noise, make_setup
from companion.journal import SpotInput, TickInput, line_of, read_journal
from companion.session import Session


def without_resume(events):
    return [e for e in events if e["kind"] != "resume"]


@pytest.fixture(scope="module")
def long_game():
    noise = Noise(flicker=0.2, stray=0.05, out_of_turn=0.1)  # faults and refusals too
    game = FlipDoneSim(make_setup(12), noise=noise).run()
    assert game.referee.finished and len(game.inputs) > 300
    kinds = {e["kind"] for e in game.referee.events}
    assert {"fault", "fixed", "ignored", "phase_end", "manche_won", "game_over"} <= kinds
    return game


def test_cut_after_every_line_resume_and_feed_the_rest_gives_the_same_game(tmp_path, long_game):
    setup, inputs = long_game.setup, long_game.inputs
    lines = [json.dumps(r.to_json()) for r in inputs]
    expected = long_game.referee.result()
    path = tmp_path / "game.jsonl"
    for cut in range(len(inputs) + 1):
        torn = lines[cut][: len(lines[cut]) // 2] if cut < len(lines) and cut % 7 == 0 else ""
        path.write_text("\n".join([line_of(setup, checksum=False), *lines[:cut], torn]))
        session = Session.resume(path)
        assert any("torn last line" in note for note in session.notes) == bool(torn)
        for record in inputs[cut:]:
            session.referee.feed(record)
        session.close()
        got = session.referee.result()
        assert without_resume(got["events"]) == expected["events"], f"cut after line {cut}"
        assert (got["winner"], got["scores"]) == (expected["winner"], expected["scores"])


def test_after_a_resume_a_spot_changed_while_down_is_put_back_before_play(tmp_path):
    setup = make_setup(1)
    path = tmp_path / "live.jsonl"
    Session.start(path, setup).close()
    stray = next(iter(setup.tags))
    session = Session.resume(path, live_table={4: frozenset({stray})})
    referee = session.referee
    assert referee.waiting is not None and referee.waiting.get("spots") == (4,)
    assert type(referee.screen).__name__ == "FdBoardScreen"
    session.feed(SpotInput(3.0, 4, frozenset()))  # the card is taken off again
    session.feed(TickInput(4.0))
    assert referee.waiting is None and not referee.state.under[3]
    assert read_journal(path).inputs[0].to_json()["type"] == "resume"
