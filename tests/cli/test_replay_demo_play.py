"""`companion replay`, `companion demo` and `companion play --sim` from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from PIL import Image

from companion.cli import main

SCENARIOS = Path(__file__).parent.parent / "games" / "passpass" / "referee" / "scenarios"


def test_replay_json_is_the_document_of_the_architecture(capsys):
    assert main(["replay", str(SCENARIOS / "game_won_with_swap.jsonl"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"game", "events", "scores", "winner"}
    assert doc["game"] == "ptipasspass" and doc["winner"] == 0 and doc["scores"] == [2, 0]
    kinds = {e["kind"] for e in doc["events"]}
    assert {"reveal", "swap", "manche_won", "game_won"} <= kinds
    verdictless = [e for e in doc["events"] if e["kind"] == "reveal"]
    assert all({"seat", "spots", "success"} <= set(e) for e in verdictless)


def test_replay_text_tells_the_story(capsys):
    assert (
        main(["replay", str(SCENARIOS / "doublon_success_reward_drop.jsonl"), "--lang", "en"]) == 0
    )
    out = capsys.readouterr().out
    assert "Ana calls Doublon ! on Bob: hat 1 held Rabbit, so Ana is right" in out
    assert "Ana drops a Dove into hat 2" in out


def test_replay_tells_the_story_in_the_tables_language(capsys):
    """The journal's setup says the table's language (French, as a table speaks unless told
    otherwise): the replay's lines and its last line are in it, whatever the command
    line's; --lang says otherwise."""
    journal = SCENARIOS / "doublon_success_reward_drop.jsonl"
    assert json.loads(journal.read_text().splitlines()[0]).get("language", "fr") == "fr"
    assert main(["replay", str(journal)]) == 0
    out = capsys.readouterr().out
    assert "Ana dit « Doublon ! » à Bob" in out and "Ana calls" not in out
    assert out.splitlines()[-1].startswith("partie ")


def test_replay_of_a_broken_file_says_which_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    lines = (SCENARIOS / "undo.jsonl").read_text().splitlines()
    bad.write_text("\n".join([lines[0], "{not json", *lines[1:]]) + "\n")
    assert main(["replay", str(bad)]) == 2
    assert "bad.jsonl:2" in capsys.readouterr().err
    torn = tmp_path / "torn.jsonl"
    torn.write_text("\n".join(lines) + '\n{"t":99,"ty')
    assert main(["replay", str(torn)]) == 0
    assert "torn last line dropped" in capsys.readouterr().err


def test_demo_writes_a_journal_that_replays_to_the_same_game_and_a_gif(tmp_path, capsys):
    out = tmp_path / "demo"
    assert main(["demo", "--players", "3", "--seed", "2", "--out", str(out), "--lang", "en"]) == 0
    text = capsys.readouterr().out
    assert "wins the game!" in text and "┌" in text  # transcript and OLED frames
    assert " is the Magician (turn 1, " in text
    assert main(["replay", str(out / "journal.jsonl"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert f"winner: {['Ana', 'Bob', 'Cy'][doc['winner']]}" in text
    lines = (out / "journal.jsonl").read_text().splitlines()
    numbered = [f',"seq":{n},"crc":"' in line for n, line in enumerate(lines, start=1)]
    assert all(numbered) and all(line.endswith('"}') for line in lines)  # as a table's
    gif = Image.open(out / "oled.gif")
    assert gif.n_frames > 20


def test_demo_tells_its_game_in_the_language_of_its_oled(tmp_path, capsys, monkeypatch):
    """`demo` with no language told (French, a table's) draws the French OLED, tells the
    French story and says the rest in French too."""
    for name in ("COMPANION_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "no-config.toml"))
    assert main(["demo", "--players", "3", "--seed", "2", "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert " est le Magicien (tour 1, " in text and "la manche 2 commence avec " in text
    assert " is the Magician" not in text
    assert "gagnant : " in text and "pour la revoir : companion replay " in text


def test_play_sim_a_person_plays_a_turn_by_typing(tmp_path):
    journal = tmp_path / "play.jsonl"
    commands = "\n".join(
        [
            "help",
            "drop 5 lapin",
            "lift 5",
            "announce lapin",
            "doublon Bob",
            "take 5 lapin",
            "table",
            "quit",
        ]
    )
    run = subprocess.run(
        [sys.executable, "-m", "companion.cli", "play", "--sim", "--players", "3",
         "--lang", "en", "--journal", str(journal)],
        input=commands, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Ana drops a token into hat 5" in run.stdout
    assert "Bob calls Doublon ! on Ana: hat 5 held nothing, so Bob is wrong" in run.stdout
    assert "under hat 5: lapin" in run.stdout
    assert "hat 5: -" in run.stdout
    lines = [json.loads(x) for x in journal.read_text().splitlines()]
    assert lines[0]["type"] == "setup" and any(x.get("control") == "doublon" for x in lines)
    # and the game continues from the journal
    again = subprocess.run(
        [sys.executable, "-m", "companion.cli", "play", "--sim", "--resume",
         "--journal", str(journal)],
        input="drop 1 souris\nquit\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "Bob drops a token into hat 1" in again.stdout


def test_unknown_game_or_players_exit_2(capsys):
    assert main(["demo", "--game", "phipasspass", "--players", "2"]) == 2
    assert "3 to 6 players" in capsys.readouterr().err
