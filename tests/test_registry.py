"""The runtime knows no game: a tiny game registered from its own package (tests/games/
tally/, through COMPANION_GAMES) runs through `run --sim`, `replay`, `demo` and
`selfplay` with no change anywhere else."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from companion import games

ROOT = Path(__file__).resolve().parent.parent


def companion(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("COMPANION_") or k == "COMPANION_LANG"
    }
    env["COMPANION_GAMES"] = "tests.games.tally"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("DISPLAY", None)
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        capture_output=True, text=True, timeout=60, cwd=cwd, env=env,
    )  # fmt: skip


def test_the_built_in_games_are_registered_and_a_tally_is_not() -> None:
    assert games.names()[:2] == ("ptipasspass", "phipasspass")
    assert "tally" not in games.names()  # only where COMPANION_GAMES names its module


def test_a_games_own_config_keys_reach_its_rules_and_agree_with_other_games() -> None:
    """A game's own [game] key ends in its setup's `rules` (its `setup_fields` names it),
    and two games taking the same key check it alike (the config checks it once)."""
    shared = games.table_settings()
    assert {"window", "doublon_min"} <= set(shared)  # PassPass's, declared in its package
    for name in games.names():
        game = games.get(name)
        for setting in game.table_settings:
            assert setting.name in game.setup_fields, (name, setting.name)
            assert shared[setting.name] == setting, (name, setting.name)


def test_a_registered_game_plays_through_demo_replay_run_and_selfplay(tmp_path: Path) -> None:
    demo = companion("demo", "--game", "tally", "--players", "3", "--seed", "3", "--out", "d",
                     "--lang", "en",
                     cwd=tmp_path)  # fmt: skip
    assert demo.returncode == 0, demo.stderr
    assert "Ana wins the game!" in demo.stdout  # seed 3, 3 seats: Ana starts and wins
    journal = tmp_path / "d" / "journal.jsonl"
    assert (tmp_path / "d" / "oled.gif").stat().st_size > 0

    replay = companion("replay", str(journal), "--json", cwd=tmp_path)
    assert replay.returncode == 0, replay.stderr
    result = json.loads(replay.stdout)
    assert (result["game"], result["winner"], result["scores"]) == ("tally", 0, [2, 1, 1])

    run = companion("run", "--sim", "--sim-input", str(journal), "--sim-clock", "script",
                    "--data-dir", "data", "--no-menu", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "tally: Ana 2, Bob 1, Cy 1" in run.stderr
    lines = (tmp_path / "data" / "game.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["game"] == "tally"
    assert (tmp_path / "data" / "oled.png").exists()  # its own screen, drawn by its renderer

    selfplay = companion("selfplay", "tally", "--players", "2", "--games", "4", "--quiet",
                         cwd=tmp_path)  # fmt: skip
    assert selfplay.returncode == 0, selfplay.stderr
    assert re.search(r"wins, seat 1 +50\.0 %", selfplay.stdout)  # the first seat always wins
    assert re.search(r"pebbles dropped per game +3\.00", selfplay.stdout)

    (tmp_path / "lab.toml").write_text(
        'game = "tally"\ngames = 30\n[[variant]]\nname = "two"\n'
        '[[variant]]\nname = "five"\nplayers = 4\nrules = { pebbles = 5 }\n'
    )
    lab = companion("lab", "lab.toml", "--out", "lab", "--quiet", cwd=tmp_path)
    assert lab.returncode == 0, lab.stderr
    figures = json.loads((tmp_path / "lab" / "figures.json").read_text())
    dropped = [f["value"] for v in figures["variants"] for f in v["figures"]
               if f["label"] == "pebbles dropped per game"]  # fmt: skip
    assert dropped == [3, 17]  # 2 x 2 - 1 and 5 x 4 - 3 (the winner's last ends it)

    report = companion("report", str(journal), "--out", "report", "--quiet", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    # The demo's journal says bots played it: a bot game, never called a real one.
    assert "1 journal of bot games" in report.stdout and "seconds per turn" in report.stdout
    assert "real games" not in report.stdout


def test_an_unknown_game_is_one_clear_line(tmp_path: Path) -> None:
    done = companion("demo", "--game", "nosuch", cwd=tmp_path)
    assert done.returncode == 2
    assert "invalid choice: 'nosuch'" in done.stderr and "tally" in done.stderr


def test_a_built_in_name_stays_the_built_in_game_whatever_registers_it() -> None:
    """A built-in game is found without scanning the installed distributions (a start
    pays for that scan otherwise), so another package's game of the same name never
    replaces it, whichever was imported first."""
    vnp = games.get("vnp")
    try:
        games.register(dataclasses.replace(vnp, title="Another VNP"))
        assert games.get("vnp") is vnp
        assert "vnp" in games.names()
    finally:
        games.register(vnp)
