"""The table's voice in `companion run` and `companion play`: the capture back end logs
what a live loop says, in order and with its game time, the last sentence of a finished
game included; a voice asked on the command line that cannot speak is one line and exit
status 2 before anything is created."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.games import make_referee
from companion.speech import announcement, opening
from tests.pi.conftest import run_service, simulated_game, write_script

SAID = re.compile(r"say \(t=([0-9.]+)\): (.*)$")


def test_run_says_the_game_through_the_capture_voice_in_order(tmp_path: Path) -> None:
    setup, inputs = simulated_game()
    script = write_script(tmp_path / "script.jsonl", setup, inputs)
    done = run_service(
        "run", "--sim", "--sim-clock", "script", "--sim-input", str(script),
        "--exit-when-finished", "--sound", "capture", "--data-dir", str(tmp_path / "data"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = [m.groups() for m in map(SAID.search, done.stderr.splitlines()) if m]
    referee = make_referee(setup)
    expected = [(f"{referee.now:.3f}", opening(referee.screen, referee.names, setup.game,
                                              setup.language))]  # fmt: skip
    for record in inputs:
        before = len(referee.events)
        referee.feed(record)
        text = announcement(referee.events[before:], referee.screen, referee.names,
                            setup.game, setup.language)  # fmt: skip
        if text:
            expected.append((f"{record.t:.3f}", text))
    # A script read at full speed says faster than a voice: a newer announcement may
    # replace one still waiting; what is said is said in order, the end always.
    assert said and said[-1] == expected[-1]
    assert "gagne la partie" in said[-1][1]
    positions = [expected.index(item) for item in said]
    assert positions == sorted(set(positions))


def test_a_simulated_table_is_silent_unless_asked(tmp_path: Path) -> None:
    setup, inputs = simulated_game()
    script = write_script(tmp_path / "script.jsonl", setup, inputs[:40])
    config = tmp_path / "companion.toml"
    config.write_text('[sound]\nbackend = "espeak-ng"\n[controls]\nenabled = false\n'
                      '[display]\ndriver = "dummy"\n[readers]\nkind = "none"\n')  # fmt: skip
    done = run_service(
        "run", "--config", str(config), "--sim-clock", "script", "--sim-input", str(script),
        "--data-dir", str(tmp_path / "data"), "--verbose",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "turn" in done.stderr  # the game went on: turns were made, none said
    assert "sound:" not in done.stderr and "say (" not in done.stderr


def test_run_refuses_a_voice_it_cannot_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    done = run_service(
        "run", "--sim", "--sound", "espeak-ng", "--data-dir", str(data), PATH=str(tmp_path)
    )
    assert done.returncode == 2
    assert done.stderr == (
        "companion run: --sound espeak-ng: espeak-ng is not installed "
        "(sudo apt-get install espeak-ng)\n"
    )
    assert not data.exists()


def test_play_refuses_to_speak_without_espeak_ng(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    journal = tmp_path / "play.jsonl"
    assert main(["play", "--sim", "--speak", "--journal", str(journal)]) == 2
    err = capsys.readouterr().err
    assert (
        err
        == "companion play: --speak: espeak-ng is not installed (sudo apt-get install espeak-ng)\n"
    )
    assert not journal.exists()


@pytest.mark.parametrize(("turns", "said"), [(0, True), (-3, False)])
def test_the_power_on_menu_sets_the_voice_for_the_game(
    tmp_path: Path, turns: int, said: bool
) -> None:
    """The SOUND step (the table has a voice): left at the config's volume the fault is
    said; turned down to "off" (70 -> 50 -> 25 -> 0) nothing is."""
    menu = [{"type": "press", "control": "choose"}] * 3  # the game, the seats, the first
    menu += [{"type": "press", "control": "aim", "value": turns}] if turns else []
    menu += [{"type": "press", "control": "choose"}] * 2  # the volume; no readers: start
    game = [{"type": "spot", "spot": 3, "uids": ["DEADBEEF"], "t": 1.0}, {"type": "tick", "t": 2.0}]
    script = tmp_path / "menu.jsonl"
    script.write_text("".join(json.dumps(line) + "\n" for line in menu + game))
    done = run_service(
        "run", "--menu", "--sim", "--sim-clock", "script", "--sim-input", str(script),
        "--sound", "capture", "--data-dir", str(tmp_path / "data"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"volume={70 if said else 0})" in done.stderr  # the menu's NewGame, logged
    assert ("Chapeau 3 : jeton inconnu. Retire-le." in done.stderr) is said
