"""Vous ne passerez pas ! through the commands a user types: demo, replay, selfplay, play
--sim and run --sim (no reader and no tag: `spots` 0); and its descriptor."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion import games
from companion.cli import main
from companion.games.vnp.referee import VnpReferee
from companion.journal import Setup
from companion.menu import new_menu, spot_count, turn
from companion.referee.pace import SetupError

ROOT = Path(__file__).resolve().parents[4]


def companion(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("COMPANION_") or k == "COMPANION_LANG"
    }
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("DISPLAY", None)
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        capture_output=True, text=True, timeout=120, cwd=cwd, env=env, input=stdin,
    )  # fmt: skip


def test_the_descriptor() -> None:
    game = games.get("vnp")
    assert (game.title, game.default_seats, game.bots) == (
        "Vous ne passerez pas !", 4, ("largest", "random"),
    )  # fmt: skip
    assert game.controls == ("place", "pass", "hint", "back") and game.played_on_page
    assert all(game.spots(n, None) == 0 for n in game.seats) and list(game.tokens(4)) == []
    game.check(2, 0, None)
    game.check(4, 3, None)
    for seats in (1, 3, 5):
        with pytest.raises(ValueError, match="2 or 4 players"):
            game.check(seats, 0, None)
    with pytest.raises(ValueError, match="layout"):
        game.check(4, 0, {"spots": 9})
    referee = game.referee(Setup("vnp", ("Ana", "Bob"), {}))
    assert isinstance(referee, VnpReferee) and referee.spots == 0
    assert game.page_view is not None and game.page_view(referee) == referee.board_view()
    with pytest.raises(SetupError, match="2 or 4 players"):
        game.simulated_setup(3, 1)


def test_the_power_on_menu_offers_it_with_no_spot_but_the_pad() -> None:
    menu = new_menu("vnp", ("Ana", "Bob", "Cy", "Dan"))
    assert spot_count(menu) == 0
    assert menu.game == "vnp" and turn(menu, 0).game == "vnp"


def test_demo_plays_a_whole_game_and_its_journal_replays_to_it(tmp_path, capsys):
    out = tmp_path / "demo"
    assert main(["demo", "--game", "vnp", "--seed", "2", "--out", str(out), "--lang", "en"]) == 0
    text = capsys.readouterr().out
    assert "Ana (yellow) places" in text and "Bob (blue) places" in text
    assert "passes: no legal placement (VNP-5)" in text and "game over: " in text
    assert "┌" in text and (out / "oled.gif").stat().st_size > 0
    assert main(["replay", str(out / "journal.jsonl"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["game"] == "vnp" and len(doc["scores"]) == 4
    (over,) = [e for e in doc["events"] if e["kind"] == "game_over"]
    assert doc["scores"] == over["side_scores"]  # four players: a side is a seat
    winners = over["winners"]
    assert doc["winner"] == (winners[0] if len(winners) == 1 else None)
    assert min(doc["scores"]) == doc["scores"][winners[0]]  # VNP-6: the lowest wins
    assert main(["replay", str(out / "journal.jsonl")]) == 0
    told = capsys.readouterr().out
    assert "game finished; scores: Ana" in told and "game over: " in told


def test_selfplay_reports_by_side_and_is_the_same_for_the_same_seed(tmp_path) -> None:
    args = ("selfplay", "vnp", "--games", "20", "--quiet")
    first = companion(*args, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    report = first.stdout
    assert "Vous ne passerez pas !, 4 players (largest at every seat)" in report
    assert re.search(r"side of yellow +\d+\.\d %", report)
    assert re.search(r"pieces left, yellow +\d+\.\d\d", report)
    assert "passes per game (VNP-5)" in report
    assert companion(*args, cwd=tmp_path).stdout == report
    two = companion("selfplay", "vnp", "--games", "6", "--players", "2", "--bots",
                    "largest,random", "--quiet", cwd=tmp_path)  # fmt: skip
    assert two.returncode == 0, two.stderr
    wins = dict(re.findall(r"wins, seat \d \((\w+)\) +([\d.]+) %", two.stdout))
    assert float(wins["largest"]) > float(wins["random"])


def test_play_sim_places_refuses_and_resumes(tmp_path) -> None:
    journal = tmp_path / "play.jsonl"
    commands = "\n".join(["board", "place 4a 2,0", "pass", "place 4a 2,0 as Ana", "hint",
                          "shapes 2b", "quit"])  # fmt: skip
    run = companion("play", "--sim", "--game", "vnp", "--players", "2", "--lang", "en",
                    "--journal", str(journal), cwd=tmp_path, stdin=commands)  # fmt: skip
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "> place 4a 2,0" in out and "Bob (yellow) places 4a" in out
    assert "Ana's pass refused: VNP-5: blue may not pass: it can place a piece" in out
    assert "Ana's place refused: VNP-4: pieces never share a unit segment" in out
    assert "hint for blue: piece 4a" in out and "o3:" in out
    lines = [json.loads(x) for x in journal.read_text().splitlines()]
    lines = [{k: v for k, v in line.items() if k not in ("seq", "crc")} for line in lines]
    assert lines[0]["game"] == "vnp" and lines[0]["tags"] == {}
    placed = lines[1]["value"]["placement"]
    assert lines[1] == {"t": 1.0, "type": "press", "control": "place", "seat": 1,
                        "value": {"colour": "jaune", "placement": placed}}  # fmt: skip
    again = companion("play", "--sim", "--resume", "--journal", str(journal), cwd=tmp_path,
                      stdin="place 4a 10,0\nboard\nquit\n")  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "Ana (blue) places 4a" in again.stdout
    assert "\n        Y               B\n" in again.stdout  # both straight 4s on the board


def test_play_sim_refuses_three_players_in_one_line(tmp_path) -> None:
    run = companion("play", "--sim", "--game", "vnp", "--players", "3", "--journal",
                    str(tmp_path / "p.jsonl"), cwd=tmp_path, stdin="quit\n")  # fmt: skip
    assert run.returncode == 2
    assert "2 or 4 players" in run.stderr and "Traceback" not in run.stderr


def test_run_sim_plays_a_journal_with_no_reader(tmp_path) -> None:
    """`companion run --sim` (the service on the simulated table) with no spot and no tag:
    the demo's journal as its input gives the same game, the OLED drawn."""
    demo = companion("demo", "--game", "vnp", "--players", "2", "--seed", "5", "--out", "d",
                     cwd=tmp_path)  # fmt: skip
    assert demo.returncode == 0, demo.stderr
    run = companion("run", "--sim", "--sim-input", "d/journal.jsonl", "--sim-clock", "script",
                    "--data-dir", "data", "--no-menu", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "game over: " in run.stderr
    lines = (tmp_path / "data" / "game.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["game"] == "vnp"
    assert (tmp_path / "data" / "oled.png").exists()
    replayed = companion("replay", "data/game.jsonl", "--json", cwd=tmp_path)
    original = companion("replay", "d/journal.jsonl", "--json", cwd=tmp_path)
    assert json.loads(replayed.stdout)["scores"] == json.loads(original.stdout)["scores"]
