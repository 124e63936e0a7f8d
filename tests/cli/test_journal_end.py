"""The end of a game in its journal (docs/journal.md, "Checksums, line numbers and damage"
and "`end`"): the input that ends the game is followed by the end-of-game line, which
every replay checks, so a finished game's last input removed is named as damage, never
replayed as a shorter game; a journal without it says the game may be cut short; a cut
between the two is mended at the resume; and a journal stripped of every number and
checksum is read as a scenario only when it says it is one."""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path

import pytest

from companion import games
from companion.cli import main
from companion.journal import (
    Input,
    JournalError,
    Setup,
    checked,
    dump_lines,
    parse_end,
    read_journal,
    read_lines,
    with_checksum,
)
from companion.run.journal_file import archive_finished
from companion.run.sim_input import script_items
from companion.session import Session, replay, setup_problem

GAMES = games.names()


@cache
def ending(name: str) -> tuple[Setup, tuple[Input, ...], int, dict]:
    """A simulated game of ``name``: its setup, its inputs (some after its end), the index
    of the input that ends it, and its result."""
    played = games.get(name)
    setup = played.simulated_setup(played.default_seats, 1)
    inputs = tuple(played.simulate(setup).inputs)
    referee = played.referee(setup)
    for index, record in enumerate(inputs):
        referee.feed(record)
        if referee.finished:
            return setup, inputs, index, referee.result()
    raise AssertionError(f"the simulated {name} never ends")


def played(path: Path, name: str) -> list[str]:
    """The game played through a session (as the table journals it): its lines."""
    setup, inputs, _, _ = ending(name)
    session = Session.start(path, setup)
    for record in inputs:
        session.feed(record)
    session.close()
    return path.read_text().splitlines()


def body(line: str) -> dict:
    return json.loads(checked(line.encode()).body)


def renumbered(lines: list[str]) -> list[str]:
    """The lines numbered and checksummed again in order (as a careful editor would)."""
    return [with_checksum(checked(line.encode()).body.decode(), seq) for seq, line in
            enumerate(lines, start=1)]  # fmt: skip


def replayed(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str, str]:
    code = main(["replay", "--json", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", GAMES)
def test_the_input_that_ends_the_game_is_followed_by_the_end_line(tmp_path, capsys, name):
    setup, inputs, index, result = ending(name)
    lines = played(tmp_path / "game.jsonl", name)
    kinds = [body(line)["type"] for line in lines]
    assert kinds.count("end") == 1 and len(lines) == len(inputs) + 2
    end = kinds.index("end")
    assert end == index + 2  # the setup, the inputs up to the one that ends the game
    assert body(lines[end]) == {"t": body(lines[end])["t"], "type": "end",
                                "scores": result["scores"], "winner": result["winner"]}  # fmt: skip
    journal = read_journal(tmp_path / "game.jsonl")
    assert journal.inputs == list(inputs) and journal.end is not None
    code, out, err = replayed(capsys, tmp_path / "game.jsonl")
    assert code == 0 and err == ""
    assert (json.loads(out)["scores"], json.loads(out)["winner"]) == (result["scores"],
                                                                      result["winner"])  # fmt: skip


@pytest.mark.parametrize("name", GAMES)
def test_a_finished_games_last_input_removed_is_named_as_damage(tmp_path, capsys, name):
    _, _, index, _ = ending(name)
    lines = played(tmp_path / "whole.jsonl", name)
    last = index + 1  # the line of the input that ends the game (0-based)
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines[:last] + lines[last + 1 :]) + "\n")
    code, out, err = replayed(capsys, path)
    assert code == 2 and out == "" and f"game.jsonl:{last + 1}: it is numbered" in err
    # Numbered and checksummed again, the lines still do not end the game at its end line.
    path.write_text("\n".join(renumbered(lines[:last] + lines[last + 1 :])) + "\n")
    code, out, err = replayed(capsys, path)
    assert code == 2 and out == ""
    assert f"game.jsonl:{last + 1}: an end-of-game line where the game is not over" in err
    # The service resumes the lines before it, and shows the damage.
    kept = replay(path, repair=True)
    assert kept.damage is not None and kept.damage.line == last + 1
    assert not kept.referee.finished and not kept.ended


def test_an_end_line_with_another_result_is_damage(tmp_path, capsys):
    lines = played(tmp_path / "whole.jsonl", "flipdone")
    end = next(i for i, line in enumerate(lines) if body(line)["type"] == "end")
    other = body(lines[end]) | {"winner": None}
    lines[end] = with_checksum(json.dumps(other, separators=(",", ":")), end + 1)
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, _, err = replayed(capsys, path)
    assert code == 2 and f":{end + 1}: the end-of-game line says scores" in err
    assert "and winner None, its inputs give" in err


@pytest.mark.parametrize("name", ["flipdone", "vnp"])
def test_a_journal_without_its_end_line_may_be_cut_short(tmp_path, capsys, name):
    """Its last lines removed, the end line with them: `companion replay` says so."""
    lines = played(tmp_path / "whole.jsonl", name)
    end = next(i for i, line in enumerate(lines) if body(line)["type"] == "end")
    for kept in (lines[:end], lines[: end - 1]):  # the end line lost, then the input too
        path = tmp_path / "game.jsonl"
        path.write_text("\n".join(kept) + "\n")
        code, out, err = replayed(capsys, path)
        assert code == 0 and out
        assert err == (f"companion replay: warning: {path}: no end-of-game line: the game may "
                       "be cut short (not over, or its last lines lost or removed)\n")  # fmt: skip


def test_a_second_end_line_is_damage(tmp_path, capsys):
    lines = played(tmp_path / "whole.jsonl", "swiped")
    end = next(i for i, line in enumerate(lines) if body(line)["type"] == "end")
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(renumbered(lines[: end + 1] + [lines[end]])) + "\n")
    code, _, err = replayed(capsys, path)
    assert code == 2 and f":{end + 2}: a second end-of-game line" in err


@pytest.mark.parametrize("name", GAMES)
def test_a_cut_between_the_last_input_and_the_end_line_is_mended_at_resume(tmp_path, name):
    setup, inputs, index, result = ending(name)
    path = tmp_path / "game.jsonl"
    path.write_text("".join(f"{line}\n" for line in dump_lines(setup, inputs[: index + 1],
                                                                checksum=True)))  # fmt: skip
    session = Session.resume(path)
    session.close()
    lines = path.read_text().splitlines()
    assert [body(line)["type"] for line in lines[-2:]] == ["end", "resume"]
    assert (body(lines[-2])["scores"], body(lines[-2])["winner"]) == (result["scores"],
                                                                      result["winner"])  # fmt: skip
    assert read_journal(path).end is not None


def test_a_finished_game_is_archived_with_its_end_line(tmp_path):
    setup, inputs, index, _ = ending("ptipasspass")
    path = tmp_path / "game.jsonl"
    path.write_text("".join(f"{line}\n" for line in dump_lines(setup, inputs[: index + 1],
                                                                checksum=True)))  # fmt: skip
    moved = archive_finished(replay(path), None)
    assert not path.exists() and read_journal(moved).end is not None
    assert body(moved.read_text().splitlines()[-1])["type"] == "end"


STRIPPED_SAYS = (
    ':1: its lines carry no number and no checksum ("seq", "crc"), as every line the '
    'companion writes does, and it does not say "scenario": true'
)


def test_a_journal_stripped_of_every_number_and_checksum_is_refused(tmp_path, capsys):
    lines = played(tmp_path / "whole.jsonl", "flipdone")
    path = tmp_path / "game.jsonl"
    path.write_text("".join(checked(line.encode()).body.decode() + "\n" for line in lines))
    code, out, err = replayed(capsys, path)
    assert code == 2 and out == "" and STRIPPED_SAYS in err
    damage = setup_problem(path)  # the service sets it aside and starts a new game
    assert damage is not None and damage.setup and "scenario" in damage.reason
    # Saying it is a scenario, it is read as one (and its end line is checked all the same).
    head = json.loads(path.read_text().splitlines()[0])
    marked = json.dumps({"t": head.pop("t"), "type": head.pop("type"), "scenario": True} | head)
    rest = path.read_text().splitlines()[1:]
    path.write_text("\n".join([marked, *rest]) + "\n")
    code, out, err = replayed(capsys, path)
    assert code == 0 and err == ""
    _, _, _, result = ending("flipdone")
    assert json.loads(out)["winner"] == result["winner"]


@pytest.mark.parametrize(
    "end",
    [
        {"t": 1, "type": "end", "scores": "3", "winner": 0},
        {"t": 1, "type": "end", "scores": ["04A1B2C3D4E580"], "winner": 0},
        {"t": 1, "type": "end", "scores": [1, True], "winner": 0},
        {"t": 1, "type": "end", "scores": [0] * 65, "winner": 0},
        {"t": 1, "type": "end", "scores": [1, 0], "winner": -1},
        {"t": 1, "type": "end", "scores": [1, 0], "winner": True},
        {"t": 1, "type": "end", "scores": [1, 0], "winner": 0.5},
        {"t": 1, "type": "end", "scores": [1, 0]},
        {"t": 1, "type": "end", "scores": [1, 0], "winner": 0, "why": "x"},
        {"t": -1, "type": "end", "scores": [1, 0], "winner": 0},
        {"type": "end", "scores": [1, 0], "winner": 0},
    ],
)
def test_an_end_line_is_read_strictly(end):
    setup = json.dumps({"t": 0, "type": "setup", "scenario": True, "game": "swiped",
                        "seats": ["Ana", "Bob"]})  # fmt: skip
    with pytest.raises(JournalError, match=r"journal:2: end line: ") as caught:
        read_lines([setup, json.dumps(end)])
    assert "04A1B2C3D4E580" not in str(caught.value)  # never quotes the line's strings
    if "t" in end:  # a script's line without one happens at 0
        with pytest.raises(JournalError, match=r"script:1: end line: "):
            list(script_items(io.StringIO(json.dumps(end) + "\n"), "script"))


def test_an_end_line_holds_up_to_64_scores():
    """64 scores, more than any game has seats, are an end line's (65 are refused above)."""
    end = parse_end({"t": 1, "type": "end", "scores": [0] * 64, "winner": 63})
    assert end.scores == (0,) * 64 and end.winner == 63


def test_a_simulated_table_skips_a_journals_end_line(tmp_path):
    lines = played(tmp_path / "game.jsonl", "swiped")
    items = list(script_items(io.StringIO("\n".join(lines) + "\n"), "script"))
    assert len(items) == len(lines) - 1  # every line but the end line


def test_a_seat_without_a_score_and_no_winner_are_null_in_the_end_line():
    """docs/journal.md: a score is a number or null, the winner a seat or null."""
    end = parse_end({"t": 1, "type": "end", "scores": [None, 3], "winner": None})
    assert end.scores == (None, 3) and end.winner is None
