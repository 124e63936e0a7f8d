"""The journal's file handling (issue 15, items 1, 2, 4 and 7): an append always starts on
a fresh line, a torn setup means no game was started, a non-UTF-8 byte is a torn or bad
line (never a traceback), and files are 0600, directories 0700 whatever the umask, with
the directory entry fsync'd after a create or a rename."""

from __future__ import annotations

import argparse
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main
from companion.journal import (
    JournalError,
    JournalWriter,
    Setup,
    SpotInput,
    TickInput,
    dump_lines,
    read_journal,
)
from companion.run.journal_file import archive
from companion.session import Session
from tests.pi.conftest import replay_file, run_service, simulated_game, write_script

SETUP = Setup(game="ptipasspass", seats=("Ana", "Bob"), tags={}, seed=3)
SPOT = SpotInput(1.0, 5, frozenset({"04A1B2C3"}))
SCRIPT = ("--sim", "--sim-clock", "script", "--exit-when-finished")


def write_journal(path: Path, text: str | bytes) -> Path:
    """A journal file holding exactly these bytes."""
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def whole(*records: Setup | SpotInput | TickInput) -> str:
    """The journal of these records, each line ended."""
    setup, *inputs = records
    assert isinstance(setup, Setup)
    return "".join(line + "\n" for line in dump_lines(setup, inputs))  # type: ignore[arg-type]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask_022() -> Iterator[None]:
    """The usual desktop umask, under which Python creates files 0644 and folders 0755."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


# Item 1: a line whose newline was lost does not swallow the next record.


def test_an_append_after_a_lost_newline_starts_a_fresh_line(tmp_path: Path) -> None:
    path = write_journal(tmp_path / "game.jsonl", whole(SETUP, SPOT).rstrip("\n"))
    with JournalWriter(path) as writer:
        writer.write(TickInput(2.0))
    journal = read_journal(path)
    assert journal.inputs == [SPOT, TickInput(2.0)] and journal.warnings == []


def test_a_resume_after_a_lost_newline_keeps_both_records(tmp_path: Path) -> None:
    path = write_journal(tmp_path / "game.jsonl", whole(SETUP, SPOT).rstrip("\n"))
    Session.resume(path).close()
    journal = read_journal(path)
    assert journal.inputs[0] == SPOT and journal.warnings == []
    assert [type(r).__name__ for r in journal.inputs] == ["SpotInput", "ResumeInput"]


# Item 2: a torn setup line means no game was started.

TORN_SETUP = '{"t":0,"type":"setup","game":"ptipass'


def test_play_resume_of_a_torn_setup_moves_it_aside_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_journal(tmp_path / "play.jsonl", TORN_SETUP)
    code = main(["play", "--sim", "--resume", "--journal", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and "torn setup" in err and "no game was started" in err
    assert "Traceback" not in err and not path.exists()
    (aside,) = (tmp_path / "archive").glob("play-torn-setup-*.jsonl")
    assert aside.read_text() == TORN_SETUP and aside.name in err
    Session.start(path, SETUP).close()  # the table can start again
    assert read_journal(path).setup == SETUP


def test_run_resume_of_a_torn_setup_starts_a_new_game(tmp_path: Path) -> None:
    setup, inputs = simulated_game()
    data = tmp_path / "data"
    data.mkdir()
    write_journal(data / "game.jsonl", TORN_SETUP.encode())
    script = write_script(tmp_path / "script.jsonl", setup, inputs)
    done = run_service(
        "run", "--resume", *SCRIPT, "--sim-input", str(script), "--data-dir", str(data)
    )
    assert done.returncode == 0, done.stderr
    assert "torn setup" in done.stderr and "Traceback" not in done.stderr
    (aside,) = (data / "archive").glob("game-torn-setup-*.jsonl")
    assert aside.read_bytes() == TORN_SETUP.encode()
    assert read_journal(data / "game.jsonl").setup == setup
    assert replay_file(data / "game.jsonl").finished


def test_the_menu_does_not_offer_a_torn_setup(tmp_path: Path) -> None:
    from companion.config import load_config
    from companion.run.power_on_menu import start_menu

    write_journal(tmp_path / "game.jsonl", TORN_SETUP)
    (tmp_path / "companion.toml").write_text('[game]\nseats = ["Ana", "Bob"]\n')
    config = load_config(tmp_path / "companion.toml")
    args = argparse.Namespace(resume=True, menu=False, no_menu=False, sim_input=None)
    menu = start_menu(config, args, tmp_path, sim=True)
    assert not menu.resumable and not (tmp_path / "game.jsonl").exists()
    assert len(list((tmp_path / "archive").glob("game-torn-setup-*.jsonl"))) == 1


def test_a_torn_line_after_a_whole_setup_is_still_a_game(tmp_path: Path) -> None:
    path = write_journal(tmp_path / "game.jsonl", whole(SETUP) + '{"t":1,"ty')
    with pytest.warns(UserWarning, match="torn last line"):
        Session.resume(path).close()
    assert read_journal(path).setup == SETUP and not (tmp_path / "archive").exists()


# Item 4: a non-UTF-8 byte is a torn last line, or an error naming its line.


def test_a_non_utf8_byte_in_the_last_line_is_a_torn_line(tmp_path: Path) -> None:
    path = write_journal(tmp_path / "game.jsonl", whole(SETUP, SPOT).encode() + b'{"t":2,"\xff')
    journal = read_journal(path)
    assert journal.inputs == [SPOT]
    assert len(journal.warnings) == 1 and "game.jsonl:3: torn last line" in journal.warnings[0]
    with pytest.warns(UserWarning, match="torn last line"):
        Session.resume(path).close()
    assert b"\xff" not in path.read_bytes() and read_journal(path).warnings == []


def test_a_non_utf8_byte_inside_the_journal_names_its_line(tmp_path: Path) -> None:
    text = whole(SETUP, SPOT, TickInput(2.0)).encode().replace(b'"spot",', b'"sp\xe9t",')
    path = write_journal(tmp_path / "game.jsonl", text)
    with pytest.raises(JournalError, match=r"game\.jsonl:2: not UTF-8 text \(byte 0xE9"):
        read_journal(path)


def test_replay_of_a_non_utf8_line_is_one_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = whole(SETUP, SPOT, TickInput(2.0)).encode().replace(b'"spot",', b'"sp\xe9t",')
    path = write_journal(tmp_path / "game.jsonl", text)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "game.jsonl:2: not UTF-8 text" in err and "Traceback" not in err


# Item 7: 0600 files, 0700 folders whatever the umask; directory entries fsync'd.


def test_a_new_journal_and_its_new_folder_are_private(tmp_path: Path, umask_022: None) -> None:
    there = tmp_path / "there"
    there.mkdir(mode=0o755)
    path = there / "new" / "deeper" / "game.jsonl"
    Session.start(path, SETUP).close()
    assert mode(path) == 0o600
    assert mode(there / "new") == 0o700 and mode(there / "new" / "deeper") == 0o700
    assert mode(there) == 0o755  # a folder that was there is left as it was


def test_an_existing_journal_is_made_private(tmp_path: Path, umask_022: None) -> None:
    path = write_journal(tmp_path / "game.jsonl", whole(SETUP))
    assert mode(path) == 0o644
    Session.resume(path).close()
    assert mode(path) == 0o600


def test_the_torn_line_rewrite_stays_private(tmp_path: Path, umask_022: None) -> None:
    path = write_journal(tmp_path / "game.jsonl", whole(SETUP, SPOT) + '{"t":2,"ty')
    path.chmod(0o600)
    with pytest.warns(UserWarning):
        Session.resume(path).close()
    assert mode(path) == 0o600 and read_journal(path).inputs[0] == SPOT


def test_archive_and_data_directory_are_private(tmp_path: Path, umask_022: None) -> None:
    from companion.config.data_dir import make_data_dir

    data = tmp_path / "var" / "companion"
    make_data_dir(data)
    assert mode(data) == 0o700 and mode(tmp_path / "var") == 0o700
    moved = archive(write_journal(data / "game.jsonl", whole(SETUP)))
    assert mode(moved.parent) == 0o700 and moved.parent == data / "archive"


def test_run_creates_its_data_directory_private(tmp_path: Path, umask_022: None) -> None:
    setup, inputs = simulated_game()
    data = tmp_path / "data"
    script = write_script(tmp_path / "script.jsonl", setup, inputs[:3])
    done = run_service("run", *SCRIPT, "--sim-input", str(script), "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    assert mode(data) == 0o700 and mode(data / "game.jsonl") == 0o600


@pytest.fixture
def fsynced_folders(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The folders whose entry is fsync'd from now on (os.fsync on a directory)."""
    folders: list[Path] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            folders.append(Path(os.readlink(f"/proc/self/fd/{fd}")))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return folders


def test_creating_a_journal_fsyncs_its_folder(tmp_path: Path, fsynced_folders: list[Path]) -> None:
    Session.start(tmp_path / "game.jsonl", SETUP).close()
    assert tmp_path in fsynced_folders


def test_rewriting_a_journal_fsyncs_its_folder(tmp_path: Path, fsynced_folders: list[Path]) -> None:
    path = write_journal(tmp_path / "game.jsonl", whole(SETUP, SPOT) + '{"t":2,"ty')
    with pytest.warns(UserWarning):
        Session.resume(path).close()
    assert tmp_path in fsynced_folders


def test_archiving_a_journal_fsyncs_both_folders(
    tmp_path: Path, fsynced_folders: list[Path]
) -> None:
    moved = archive(write_journal(tmp_path / "game.jsonl", whole(SETUP)))
    assert tmp_path in fsynced_folders and moved.parent in fsynced_folders
