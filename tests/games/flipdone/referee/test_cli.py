"""Flip Done through the commands a user types: demo, replay, run --sim, selfplay, enroll."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from companion.cli import main
from companion.devices.enroll import enroll_session, game_steps
from companion.devices.registry import TagRegistry
from companion.games.flipdone.rules import DECK
from tests.devices.test_enroll import Hands

ROOT = Path(__file__).resolve().parents[4]


def test_demo_plays_a_whole_game_and_its_journal_replays_to_it(tmp_path, capsys):
    out = tmp_path / "demo"
    assert (
        main(["demo", "--game", "flipdone", "--seed", "2", "--out", str(out), "--lang", "en"]) == 0
    )
    text = capsys.readouterr().out
    assert "wins the game!" in text and "aligns row" in text  # the transcript tells it
    assert "round 1, phase 1:" in text
    assert (out / "oled.gif").stat().st_size > 0
    assert main(["replay", str(out / "journal.jsonl"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["game"] == "flipdone" and doc["winner"] in (0, 1, 2)
    kinds = [e["kind"] for e in doc["events"]]
    assert kinds.count("manche_won") >= 3 and kinds[-1] == "game_over"  # FD-10
    assert kinds.count("phase_end") >= 9 and kinds.count("dealt_down") >= 81
    last = doc["events"][-1]
    assert last["tokens"] == doc["scores"] and last["winners"] == [doc["winner"]]
    assert main(["replay", str(out / "journal.jsonl")]) == 0
    assert "game finished; scores: Ana" in capsys.readouterr().out


def test_run_sim_plays_the_demo_journal_on_the_service(tmp_path):
    assert main(["demo", "--game", "flipdone", "--seed", "3", "--out", str(tmp_path / "d")]) == 0
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("COMPANION_") or k == "COMPANION_LANG"
    }
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("DISPLAY", None)
    run = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--sim", "--sim-input",
         str(tmp_path / "d" / "journal.jsonl"), "--sim-clock", "script", "--data-dir",
         str(tmp_path / "data"), "--no-menu"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "game over:" in run.stderr and "won (Ana" in run.stderr
    assert (tmp_path / "data" / "oled.png").exists()


def test_selfplay_flipdone_reports_wins_lines_and_penalties(capsys):
    args = ["selfplay", "flipdone", "--games", "12", "--seed", "4", "--quiet"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert "wins, seat 1" in first and "wins, seat 3" in first
    assert "Diagonals (3 points), per game" in first
    assert "FD-9 never applies" in first  # the rules' arithmetic, said with the numbers
    assert main(args) == 0
    assert capsys.readouterr().out == first  # the same seed, the same report
    assert main([*args[:-1], "--bots", "heuristic,random", "--quiet"]) == 0
    mixed = capsys.readouterr().out
    assert "wins, seat 2 (random)" in mixed
    assert main(["selfplay", "flipdone", "--bots", "nosuch", "--games", "1"]) == 2
    assert main(["selfplay", "flipdone", "--players", "4", "--games", "1"]) == 2
    assert "flipdone is for 3 players" in capsys.readouterr().err


def test_play_sim_flipdone_checks_the_seats(capsys):
    assert main(["play", "--sim", "--game", "flipdone", "--players", "4"]) == 2
    assert "flipdone is for 3 players" in capsys.readouterr().err


def test_enroll_asks_for_the_52_cards_once_each(tmp_path):
    steps = game_steps("flipdone", 3)
    assert [s.kind for s in steps] == [f"card:{card}" for card in DECK]
    assert "(1 of 52)" in steps[0].prompt and "(52 of 52)" in steps[-1].prompt
    uids = [f"04FD{i:010X}" for i in range(52)]
    hands = Hands(uids)
    registry = TagRegistry(tmp_path)
    result = enroll_session(hands, registry, steps, say=hands.hear, timeout=5.0, settle=0.01)
    assert result.complete, result.reason
    assert dict(TagRegistry(tmp_path)) == {u: f"card:{c}" for u, c in zip(uids, DECK, strict=True)}


def test_enroll_command_checks_the_seats_of_flipdone(tmp_path, capsys):
    code = main(["enroll", "--game", "flipdone", "--seats", "4", "--data-dir", str(tmp_path)])
    assert code == 2
    assert "flipdone is for 3 players" in capsys.readouterr().err
