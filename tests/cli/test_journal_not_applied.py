"""A journal line the game's referee could not apply never kills the table (docs/journal.md,
"Checksums and damage"). A referee should never raise on what a table can send; if one
ever does, the line was journaled first, so every resume would raise again. The service's
resume takes it as a damaged line: the lines before it are the game, replayed on a new
referee, the file as it was goes to archive/ with a note, and the log says where the
referee raised (never the exception's text: it may hold a tag's UID). `companion replay`
and `play --sim --resume` name the line in one line and exit 2, changing nothing.

The referee that raises is tests/games/faulty.py's (tally with a `boom` press that changes
the scores, then raises), so these tests need no bug to exist.
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from companion.cli import main
from companion.journal import Damage, PressInput, Setup, SpotInput, TickInput, read_journal
from companion.session import Session, replay
from tests.cli.test_journal_files import SCRIPT, checksummed, mode
from tests.games import registered
from tests.pi.conftest import run_service, write_script

PEBBLES = ("04A1B2C3", "04A1B2C4", "04A1B2C5", "04A1B2C6")
SETUP = Setup("faulty", ("Ana", "Bob"), {uid: "tally:pebble" for uid in PEBBLES})
ANA, BOB, ANA_AGAIN = (
    SpotInput(float(t), 1, frozenset(PEBBLES[:n])) for t, n in ((1, 1), (4, 2), (5, 3))
)
KEPT = (ANA, TickInput(2.0))
"""The inputs before the line the referee raises on (line 4: the setup is line 1)."""
REASON = "the referee could not apply this input (KeyError)"


@pytest.fixture
def faulty() -> Iterator[ModuleType]:
    """tests/games/faulty.py, registered for the test only (imported at collection, it
    would stay registered, which the registry's own test refuses)."""
    with registered("tests.games.faulty"):
        yield importlib.import_module("tests.games.faulty")


def journal(path: Path, faulty: ModuleType) -> bytes:
    return checksummed(path, SETUP, *KEPT, PressInput(3.0, faulty.BOOM), BOB)


def test_the_service_resume_sets_aside_a_line_the_referee_could_not_apply(
    tmp_path: Path, faulty: ModuleType, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "game.jsonl"
    data = journal(path, faulty)
    with caplog.at_level(logging.ERROR, logger="companion"):
        replayed = replay(path, repair=True)
    assert replayed.damage == Damage(4, REASON, 2)
    assert replayed.inputs == 2
    assert replayed.referee.result()["scores"] == [1, 0]  # not the half-changed referee's
    assert read_journal(path).inputs == list(KEPT) and mode(path) == 0o600
    assert replayed.archived is not None and replayed.archived.read_bytes() == data
    note = replayed.archived.with_suffix(".txt").read_text()
    assert note.startswith(f"game.jsonl:4: {REASON}\n")
    (logged,) = caplog.records
    assert f"game.jsonl:4: {REASON}; where it raised:" in logged.getMessage()
    assert "tests/games/faulty.py" in logged.getMessage()
    assert faulty.SECRET not in caplog.text + note
    session = Session.go_live(replayed)  # the game goes on
    assert session.damage == replayed.damage
    for record in (BOB, ANA_AGAIN, TickInput(6.0)):
        session.feed(record)
    assert session.referee.finished and session.referee.result()["scores"] == [2, 1]
    session.close()


@pytest.mark.parametrize("command", ["replay", "play"])
def test_replay_and_play_name_the_line_the_referee_could_not_apply_and_change_nothing(
    tmp_path: Path, faulty: ModuleType, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    path = tmp_path / "game.jsonl"
    data = journal(path, faulty)
    args = ["replay", str(path)] if command == "replay" else ["play", "--sim", "--resume"]
    code = main(args if command == "replay" else [*args, "--journal", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1
    assert f"game.jsonl:4: {REASON}: a fault of the companion, please report it" in err
    assert "Traceback" not in err and faulty.SECRET not in err
    assert path.read_bytes() == data and not (tmp_path / "archive").exists()


def test_report_names_the_line_the_referee_could_not_apply(
    tmp_path: Path, faulty: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """`companion report` reads a journal as `replay` does (faulty is given the tally's
    lab here: it has none of its own, so the report would stop before its referee)."""
    from companion import games
    from tests.games.tally import TALLY

    games.register(dataclasses.replace(faulty.FAULTY, lab=TALLY.lab))
    path = tmp_path / "game.jsonl"
    data = journal(path, faulty)
    code = main(["report", str(path), "--out", str(tmp_path), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1, err
    assert f"game.jsonl:4: {REASON}" in err
    assert "Traceback" not in err and faulty.SECRET not in err
    assert path.read_bytes() == data and list(tmp_path.iterdir()) == [path]


def test_run_resume_goes_on_past_a_line_the_referee_could_not_apply(
    tmp_path: Path, faulty: ModuleType
) -> None:
    data_dir = tmp_path / "data"
    path = data_dir / "game.jsonl"
    data_dir.mkdir(mode=0o700)
    journal(path, faulty)
    script = write_script(tmp_path / "script.jsonl", None, [BOB, ANA_AGAIN, TickInput(6.0)])
    done = run_service(
        "run", "--resume", *SCRIPT, "--sim-input", str(script), "--data-dir", str(data_dir),
        COMPANION_GAMES="tests.games.faulty",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and faulty.SECRET not in done.stderr
    assert f"game.jsonl:4 is damaged ({REASON}): the game resumed from the 2 inputs" in done.stderr
    assert "where it raised:" in done.stderr and "faulty.py" in done.stderr
    assert "tally: Ana 2, Bob 1" in done.stderr  # where the finished game stands
    (kept,) = (data_dir / "archive").glob("game-damaged-*.jsonl")
    assert kept.with_suffix(".txt").exists()
