"""Issue 24, the command line: bad command lines an attacker tried on every subcommand.

Each is refused through the real `companion` command with one line naming the option and
what is wrong, a non-zero exit status, no traceback, bounded memory, and nothing created
that the user did not ask for: a huge ``enroll --each`` or ``KIND*N``, a ``[game.rules]``
key the game does not have, a folder or an unwritable place given for a file, a serial
port that does not exist or a table without a Pico, a missing folder above an output, an
empty string, a device that never ends (``/dev/zero``) given for a file.
"""

from __future__ import annotations

import os
import pty
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion import games
from companion.cli import main
from companion.devices.enroll import FIRST_REPORT, enroll_session
from companion.devices.registry import TagRegistry
from companion.devices.serial_link import find_pico
from tests.pi.conftest import ROOT

MEMORY = 1 << 30
"""The address space a command gets here: far above its needs, far below what the
attacks took (3 GB for ``enroll --each 100000000``)."""


def tree(folder: Path) -> set[Path]:
    """Every path under ``folder`` (to see that a refused command created nothing)."""
    return set(folder.rglob("*"))


def config_file(folder: Path, game: str = "", rules: str = "") -> Path:
    """A table without hardware; ``game`` a [game] table, ``rules`` its [game.rules]."""
    path = folder / "companion.toml"
    text = 'schema = 1\n[paths]\ndata_dir = "data"\n[display]\ndriver = "dummy"\n'
    text += '[controls]\nenabled = false\n[readers]\nkind = "none"\n'
    if game:
        text += f"[game]\n{game}\n"
    if rules:
        text += f"[game.rules]\n{rules}\n"
    path.write_text(text, encoding="utf-8")
    return path


def companion(folder: Path, *argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The real command in a process of its own, in ``folder``, its memory capped at
    `MEMORY`, with no configuration or data directory of this machine."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("COMPANION_") or k == "COMPANION_LANG"
    }
    env.update(PYTHONPATH=str(ROOT), HOME=str(folder), COMPANION_DATA=str(folder / "data"))
    env.pop("DISPLAY", None)
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *argv],
        capture_output=True, text=True, timeout=timeout, cwd=folder, env=env, preexec_fn=cap,
    )  # fmt: skip


def refused_by_process(done: subprocess.CompletedProcess[str], command: str) -> str:
    """The one line a refused command printed on stderr (argparse adds its usage)."""
    assert done.returncode != 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "unexpected error" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith(f"companion {command}")]
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder as the current one, no config or data directory of this machine."""
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    monkeypatch.setattr("companion.config.SYSTEM_CONFIG", tmp_path / "none.toml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """``companion ARGV`` run in this process: its exit status and its one error line."""
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's usage and error
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code != 0, err
    assert "Traceback" not in err and "unexpected error" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("companion ")]
    assert len(lines) == 1, err
    return code, lines[0]


# ------------------------------------------------------------------ 1. enroll's sizes


def test_a_huge_enroll_each_is_refused_at_once_in_bounded_memory(tmp_path: Path) -> None:
    config = str(config_file(tmp_path))
    argv = ["enroll", "--config", config]
    done = companion(tmp_path, *argv, "--game", "ptipasspass", "--each", "100000000")
    line = refused_by_process(done, "enroll")
    assert "--each" in line and "from 1 to 10" in line, line
    line = refused_by_process(companion(tmp_path, *argv, "animal:lapin*100000000"), "enroll")
    assert "animal:lapin*100000000" in line and "from 1 to 1000" in line, line
    assert tree(tmp_path) == {tmp_path / "companion.toml"}


def test_enroll_help_says_the_bounds_of_each_and_of_a_session(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["enroll", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "copies of each token per seat, 1 to 10" in text
    assert "at most 1000 tokens in all" in text


def test_kinds_asking_more_than_a_session_holds_are_refused_by_their_sum(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, line = refused(capsys, "enroll", "animal:lapin*600", "colour:bleu*600")
    assert code == 2 and "1200 tokens asked: at most 1000 in one session" in line, line
    assert not (here / "data").exists()


# ------------------------------------------------------------------ 2. [game.rules]


@pytest.mark.parametrize("game", games.names())
def test_config_check_refuses_a_rule_the_game_does_not_have(
    here: Path, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    """Every game's referee refuses a key it does not take, and `config check` says so,
    naming the key and the game's settings (the referee's own list)."""
    seats = games.get(game).default_seats
    config = config_file(here, f'name = "{game}"\nseats = {seats}', "zzz = 1")
    code, out = main(["config", "check", "--config", str(config)]), capsys.readouterr()
    assert code == 1 and "configuration OK" not in out.out, out
    assert "game.rules" in out.err and "unknown" in out.err and "zzz" in out.err, out.err
    assert "Traceback" not in out.err


def test_config_check_names_the_settings_the_game_has(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.games.vnp import referee as vnp

    config = config_file(here, 'name = "vnp"\nseats = 2', 'next_starter = "winner"')
    assert main(["config", "check", "--config", str(config)]) == 1
    err = capsys.readouterr().err
    assert "unknown setting `next_starter`; the settings of Vous ne passerez pas !" in err, err
    assert ", ".join(f"`{key}`" for key in (*vnp.RULE_KEYS, *vnp.TABLE_KEYS)) in err, err


# ------------------------------------------------------------------ 3. play --journal


def test_play_names_a_folder_given_as_its_journal(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "games").mkdir()
    for given in ("games", "games/"):
        code, line = refused(capsys, "play", "--sim", "--journal", given)
        assert code == 2 and f"--journal {given}: {given} is a folder: give a file name" in line
        assert "already holds a game" not in line
    code, line = refused(capsys, "play", "--sim", "--resume", "--journal", "games")
    assert code == 2 and "--journal games is a folder: give the journal file to resume" in line
    assert tree(here) == {here / "games"}


def test_play_says_it_cannot_write_a_journal_under_a_file(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "version").write_text("not a folder")
    code, line = refused(capsys, "play", "--sim", "--journal", "version/x.jsonl")
    assert code == 2 and "version is a file, not a directory" in line, line
    assert "cannot read" not in line
    assert tree(here) == {here / "version"}


def test_play_resume_refuses_a_device_instead_of_reading_it_forever(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, line = refused(capsys, "play", "--sim", "--resume", "--journal", "/dev/zero")
    assert code == 2 and "--journal /dev/zero is not a regular file" in line, line


# ------------------------------------------------------------------ 4. the Pico


def test_enroll_on_a_port_that_does_not_exist_says_so_at_once(tmp_path: Path) -> None:
    config = str(config_file(tmp_path))
    missing = str(tmp_path / "ttyACM9")
    started = time.monotonic()
    done = companion(tmp_path, "enroll", "--config", config, "--port", missing, "animal:lapin")
    line = refused_by_process(done, "enroll")
    assert f"--port {missing}: no such device: is the Pico plugged in?" in line, line
    assert "timed out" not in done.stdout + done.stderr
    assert time.monotonic() - started < FIRST_REPORT  # no wait for a report
    assert tree(tmp_path) == {tmp_path / "companion.toml"}


def test_enroll_on_a_file_that_is_no_serial_port_says_so(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "notes.txt").write_text("hello")
    code, line = refused(capsys, "enroll", "--port", "notes.txt", "animal:lapin")
    assert code == 2 and "--port notes.txt: cannot open it: not a serial port" in line, line
    assert not (here / "data").exists()


def test_enroll_on_a_port_another_program_holds_says_so_at_once(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The service (or `doctor`) holds the Pico's port exclusively: enrolment cannot
    share it, and says so instead of waiting for a report."""
    import serial

    controller, device = pty.openpty()
    port = os.ttyname(device)
    held = serial.Serial(port, exclusive=True)
    try:
        code, line = refused(capsys, "enroll", "--port", port, "animal:lapin")
    finally:
        held.close()
        os.close(controller)
        os.close(device)
    assert code == 2 and f"--port {port}: cannot open it: in use by another program" in line
    assert not (here / "data").exists()


@pytest.mark.skipif(bool(find_pico()), reason="a Pico is plugged in here")
def test_enroll_without_a_pico_says_so_at_once(tmp_path: Path) -> None:
    config = str(config_file(tmp_path))
    done = companion(tmp_path, "enroll", "--config", config, "--game", "ptipasspass")
    line = refused_by_process(done, "enroll")
    assert done.returncode == 2 and "no Pico found on USB" in line and "--port" in line, line
    assert tree(tmp_path) == {tmp_path / "companion.toml"}


def test_enroll_on_a_silent_port_ends_with_why_after_a_bounded_wait(tmp_path: Path) -> None:
    """A serial device that never answers (a pty: a Pico not running the firmware): the
    wait for the pad's first report ends, saying what was awaited, exit status 1."""
    controller, device = pty.openpty()
    try:
        port = os.ttyname(device)
        config = str(config_file(tmp_path))
        argv = ["enroll", "--config", config, "--port", port, "--timeout", "0.5", "colour:bleu"]
        done = companion(tmp_path, *argv)
    finally:
        os.close(controller)
        os.close(device)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert "timed out after 0.5 s waiting for a first report from the pad reader" in last
    assert "is the Pico running the firmware" in last, last


def test_the_wait_for_the_pads_first_report_is_bounded_whatever_the_tap_timeout(
    tmp_path: Path,
) -> None:
    """An hour to tap each token, but a pad reader that never reports: enrolment ends
    after `FIRST_REPORT` seconds, naming why the link is down (a clock 200 times faster
    than time, so that the test takes a twentieth of a second)."""
    from companion.devices.readers import LinkStatus, Sink

    class DeadLink:
        def start(self, sink: Sink) -> None:
            sink.put_nowait(LinkStatus(False, "/dev/ttyACM0", reason="cannot open it"))

        def stop(self) -> None:
            pass

    said: list[str] = []
    result = enroll_session(
        DeadLink(), TagRegistry(tmp_path), [("tap it", "colour:bleu")], say=said.append,
        timeout=3600, clock=lambda: time.monotonic() * 200,
    )  # fmt: skip
    assert not result.complete
    assert f"timed out after {FIRST_REPORT:g} s waiting for a first report" in result.reason
    assert "cannot open it" in result.reason


# ------------------------------------------------------------------ 5. outputs' folders


def test_deck_refuses_a_missing_folder_and_creates_none(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, line = refused(capsys, "deck", "swiped", "--out", "nonexist/deck.pdf")
    assert code == 2 and "--out nonexist/deck.pdf: there is no folder nonexist" in line, line
    assert tree(here) == set()


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["demo", "--out", "nonexist/demo"], "there is no folder nonexist to create it in"),
        (["play", "--sim", "--journal", "nonexist/play.jsonl"], "there is no folder nonexist"),
        (["lab", "{lab}", "--out", "nonexist/report"], "there is no folder nonexist"),
    ],
)
def test_outputs_never_create_the_folders_above_what_was_named(
    here: Path, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    lab = ROOT / "docs" / "lab.example.toml"
    code, line = refused(capsys, *(a.format(lab=lab) for a in argv))
    assert code == 2 and says in line, line
    assert tree(here) == set()


def test_deck_writes_in_a_folder_that_exists(here: Path) -> None:
    (here / "sheets").mkdir()
    assert main(["deck", "swiped", "--out", "sheets/deck.png", "--size", "3"]) == 0
    assert (here / "sheets" / "deck.png").is_file()


# ------------------------------------------------------------------ the sweep


@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "--out", ""],
        ["replay", ""],
        ["play", "--sim", "--journal", ""],
        ["deck", "swiped", "--out", ""],
        ["config", "check", "--config", ""],
        ["config", "check", "--data-dir", ""],
        ["enroll", "--list", "--data-dir", ""],
        ["enroll", "--port", "", "animal:lapin"],
        ["doctor", "--port", ""],
        ["run", "--sim", "--sim-input", ""],
        ["report", ""],
        ["lab", ""],
    ],
    ids=lambda argv: " ".join(argv),
)
def test_an_empty_path_is_refused_not_read_as_the_current_folder(
    here: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """``""`` once wrote a demo into the current folder, or was silently "not given"."""
    code, line = refused(capsys, *argv)
    assert code == 2 and "an empty string names no file or folder" in line, line
    assert tree(here) == set()


def test_an_unknown_kind_lists_the_kinds_in_words_not_regexes(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, line = refused(capsys, "enroll", "--data-dir", str(here), "card:ZZ")
    assert code == 2 and "card:<rank><suit>" in line and "(?:" not in line, line
