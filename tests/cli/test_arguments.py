"""What a user types is checked (issue 9, item 7): a bad option, a file that is not UTF-8
JSON Lines, an output folder that is a file, each give one clear line on stderr naming the
option and what is allowed, and exit status 2, never a traceback. Ctrl-C in `play` ends
cleanly and says how to resume."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
SCENARIO = ROOT / "tests" / "games" / "passpass" / "referee" / "scenarios" / "undo.jsonl"
NOT_UTF8 = (
    b'{"t":0,"type":"setup","scenario":true,"game":"ptipasspass","seats":["Ana","Bob"],'
    b'"tags":{}}\n\xff\xfe\n'
    b'{"t":1,"type":"tick"}\n'
)
"""Not UTF-8 inside the journal (on its last line it would be a torn line, dropped)."""


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run the command, which must exit 2 (argparse's way or ours); its stderr."""
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's usage + error
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    return err


def error_line(err: str) -> str:
    """The one line that says what is wrong (argparse adds a usage before it)."""
    lines = [line for line in err.splitlines() if line.startswith("companion ")]
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    """A file that is not UTF-8, a file where a folder is expected, a missing file."""
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(NOT_UTF8)
    plain = tmp_path / "a-file"
    plain.write_text("x")
    return {"binary": str(binary), "file": str(plain), "missing": str(tmp_path / "nowhere")}


OPTIONS = [
    # (argv, what the error line must say)
    (["selfplay", "ptipasspass", "--games", "0"], ["companion selfplay", "--games", ">= 1"]),
    (["selfplay", "ptipasspass", "--players", "7"], ["--players 7", "2 to 6 players"]),
    (["selfplay", "phipasspass", "--players", "2"], ["--players 2", "3 to 6 players"]),
    (["selfplay", "ptipasspass", "--turn-limit", "0"], ["--turn-limit", ">= 1"]),
    (["demo", "--players", "1"], ["companion demo", "--players 1", "2 to 6 players"]),
    (["demo", "--game", "phipasspass", "--players", "9"], ["--players 9", "3 to 6 players"]),
    (["demo", "--players", "0"], ["--players", ">= 1"]),
    (["play", "--sim", "--players", "8"], ["companion play", "--players 8", "2 to 6"]),
    (["play", "--sim", "--first", "0"], ["--first 0", "from 1 to 4"]),
    (["play", "--sim", "--players", "3", "--first", "4"], ["--first 4", "from 1 to 3"]),
    (["play", "--sim", "--window", "0.5"], ["--window", "from 1 to 60"]),
    (["play", "--sim", "--window", "61"], ["--window", "from 1 to 60"]),
    (["play", "--sim", "--window", "nan"], ["--window", "from 1 to 60"]),
    (["play", "--sim", "--settle", "0.01"], ["--settle", "0.05 to 5"]),
    (["play", "--sim", "--settle", "six"], ["--settle", "0.05 to 5"]),
    (["play"], ["companion play", "--sim"]),
    (
        ["enroll", "--game", "ptipasspass", "--seats", "7"],
        ["companion enroll", "--seats 7", "2 to 6"],
    ),
    (["enroll", "--game", "ptipasspass", "--each", "0"], ["--each", "from 1 to 10"]),
    (["enroll", "--timeout", "-3"], ["--timeout", "above 0"]),
    (["enroll", "--spi", "zero"], ["--spi", "BUS.DEV"]),
    (["enroll", "--spi", "0.0", "animal:lapin"], ["--spi needs --rst"]),
    (["enroll", "--rst", "40"], ["--rst", "from 0 to 27"]),
    (["enroll", "animal:lapin*none"], ["animal:lapin*none", "N a whole number from 1 to 1000"]),
    (["doctor", "--seconds", "0"], ["companion doctor", "--seconds", "above 0"]),
    (["doctor", "--readers", "20"], ["--readers", "from 1 to 19"]),
    (["run", "--sim-clock", "script"], ["companion run", "--sim-clock script needs --sim-input"]),
]


@pytest.mark.parametrize(("argv", "says"), OPTIONS, ids=[" ".join(a) for a, _ in OPTIONS])
def test_a_bad_option_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    argv: list[str],
    says: list[str],
) -> None:
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "none.toml"))
    if argv[0] in ("enroll", "doctor", "run"):  # these read the config: use the defaults
        monkeypatch.delenv("COMPANION_CONFIG")
        monkeypatch.setattr("companion.config.SYSTEM_CONFIG", tmp_path / "none.toml")
        monkeypatch.chdir(tmp_path)
    line = error_line(refused(capsys, *argv))
    for words in says:
        assert words in line, line


FILES = [
    (["replay", "{binary}"], ["companion replay", "{binary}", "not UTF-8", "docs/journal.md"]),
    (["replay", "{missing}"], ["companion replay", "cannot read {missing}"]),
    (["replay", "{file}"], ["companion replay", "{file}:1", "docs/journal.md"]),
    (
        ["play", "--sim", "--resume", "--journal", "{binary}"],
        ["companion play", "--journal {binary}", "not UTF-8"],
    ),
    (
        ["play", "--sim", "--resume", "--journal", "{missing}"],
        ["--journal {missing}", "no such file", "leave out --resume"],
    ),
    (["demo", "--out", "{file}"], ["companion demo", "--out {file} is a file"]),
    (["demo", "--out", "{file}/sub"], ["--out {file}/sub cannot be created", "is a file"]),
    (
        ["run", "--sim", "--sim-input", "{missing}"],
        ["companion run", "--sim-input {missing}", "no such file"],
    ),
    (
        ["run", "--sim", "--sim-input", "{binary}", "--sim-clock", "script"],
        ["--sim-input {binary}", "not UTF-8 text", "docs/journal.md"],
    ),
    (["run", "--sim", "--sim-input", "{file}"], ["--sim-input {file}:1", "docs/journal.md"]),
    (["run", "--sim", "--data-dir", "{file}"], ["companion run", "{file} is a file"]),
    (["enroll", "--list", "--data-dir", "{file}"], ["companion enroll", "{file} is a file"]),
    (["doctor", "--data-dir", "{file}"], ["companion doctor", "{file} is a file"]),
    (["config", "check", "--data-dir", "{file}"], ["companion config check", "{file} is a file"]),
]


@pytest.mark.parametrize(("argv", "says"), FILES, ids=[" ".join(a) for a, _ in FILES])
def test_a_bad_file_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    files: dict[str, str],
    argv: list[str],
    says: list[str],
) -> None:
    monkeypatch.delenv("COMPANION_DATA", raising=False)
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setattr("companion.config.SYSTEM_CONFIG", tmp_path / "none.toml")
    monkeypatch.setattr("pathlib.Path.home", lambda: tmp_path / "home")
    monkeypatch.chdir(tmp_path)
    line = error_line(refused(capsys, *(a.format(**files) for a in argv)))
    for words in says:
        assert words.format(**files) in line, line


def test_run_on_a_missing_sim_input_stops_at_once(tmp_path: Path) -> None:
    """With the real clock nothing would ever end it: it must refuse at start."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--sim", "--sim-input",
         str(tmp_path / "nowhere.jsonl"), "--data-dir", str(tmp_path / "data")],
        capture_output=True, text=True, timeout=30, cwd=ROOT, env=_env(),
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "--sim-input" in done.stderr and "no such file" in done.stderr
    assert "Traceback" not in done.stderr
    assert time.monotonic() - started < 20
    assert not (tmp_path / "data" / "game.jsonl").exists()


def test_play_window_says_which_games_take_it(capsys: pytest.CaptureFixture[str]) -> None:
    """`--window` is a game's own setting (declared in its package): its help names the
    games that take it, with the config's bounds and default."""
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert (
        "--window WINDOW challenge window, seconds: 1 to 60 (default 6; game.window of the "
        "config; ptipasspass and phipasspass only)"
    ) in " ".join(capsys.readouterr().out.split())


def test_play_takes_settle_and_window_into_the_journal(tmp_path: Path) -> None:
    journal = tmp_path / "play.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "play", "--sim", "--players", "3",
         "--first", "3", "--window", "8", "--settle", "0.2", "--journal", str(journal)],
        input="quit\n", capture_output=True, text=True, timeout=60, cwd=ROOT, env=_env(),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    setup = json.loads(journal.read_text().splitlines()[0])
    assert (setup["rules"]["window_seconds"], setup["settle"], setup["first"]) == (8.0, 0.2, 2)
    assert "window" not in setup  # a PassPass setting: under the game's rules


def test_ctrl_c_in_play_ends_cleanly_and_says_how_to_resume(tmp_path: Path) -> None:
    journal = tmp_path / "play.jsonl"
    play = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "play", "--sim", "--journal", str(journal)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=ROOT, env=_env(),
    )  # fmt: skip
    assert play.stdin is not None
    play.stdin.write("drop 5 lapin\n")
    play.stdin.flush()
    deadline = time.monotonic() + 30
    while '"spot"' not in (journal.read_text() if journal.exists() else ""):
        assert time.monotonic() < deadline, "play did not journal the drop"
        time.sleep(0.05)
    play.send_signal(signal.SIGINT)
    # Its input stays open until it has ended: closing it first (communicate does) races
    # the interrupt with an end of input, which ends the game quietly instead.
    play.wait(timeout=30)
    _, err = play.communicate()
    assert play.returncode in (0, 130), err
    assert "Traceback" not in err
    assert f"companion play --sim --resume --journal {journal}" in err
    again = subprocess.run(
        [sys.executable, "-m", "companion.cli", "play", "--sim", "--resume",
         "--journal", str(journal)],
        input="quit\n", capture_output=True, text=True, timeout=60, cwd=ROOT, env=_env(),
    )  # fmt: skip
    assert again.returncode == 0, again.stderr


def test_ctrl_c_while_reading_a_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Interrupted(io.StringIO):
        def __iter__(self) -> Interrupted:
            return self

        def __next__(self) -> str:
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Interrupted())
    journal = tmp_path / "play.jsonl"
    assert main(["play", "--sim", "--journal", str(journal)]) == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and f"--resume --journal {journal}" in err
    assert json.loads(journal.read_text().splitlines()[0])["type"] == "setup"


def test_an_unforeseen_error_is_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("the table fell over")

    monkeypatch.delenv("COMPANION_DEBUG", raising=False)
    monkeypatch.setattr("companion.demo.run_demo", boom)
    assert main(["demo", "--out", "unused"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == (
        "companion demo: unexpected error: RuntimeError: the table fell over "
        "(COMPANION_DEBUG=1 shows where; please report it)"
    )


def _env() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("COMPANION_") or k == "COMPANION_LANG"
    }
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("DISPLAY", None)
    return env
