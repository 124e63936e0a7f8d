"""`companion play --sim` in a terminal of 80 columns: no line it prints is wider (the
OLED in braille, the transcript wrapped, the help and the answers short), for every
registered game, in both languages."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from companion import games
from companion.cli import main
from companion.games.passpass.console import run_console
from companion.games.passpass.sim import make_setup
from companion.session import Session
from companion.sim.console import Prompted, fill

CaptureStr = pytest.CaptureFixture[str]

SCRIPTS = {
    "ptipasspass": ["drop 5 lapin", "ok", "slide 2 5", "stray 3", "unstray 3", "take 5 lapin"],
    "phipasspass": ["drop 5 lapin", "ok", "announce lapin", "doublon 2", "menteur 3"],
    "flipdone": [*(f"deal {s} {c}H" for s, c in enumerate("A23456789", start=1)), "up 10H",
                 "build 1 JH", "flip 5", "noflip", "build 1 ZZ"],
    "swiped": ["tap 7", "place", "swap 2 7", "doublon 1", "menteur 2 12", "skip",
               "tap turquoise"],
    "vnp": ["place 1a 0,0", "pieces", "legal 1a", "hint", "pass", "board", "place 9z 2,1"],
}  # fmt: skip
"""A few of each game's commands, right or wrong (a word refused with the list of those
it takes among them): each answer is printed all the same."""
COMMON = ["help", "table", "hands", "screen", "ok", "wait 7", "back", "nonsense", "drop", "quit"]


def test_every_registered_game_has_a_script() -> None:
    assert set(SCRIPTS) == {g for g in games.names() if games.get(g).console is not None}


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("game", sorted(SCRIPTS))
def test_the_console_fits_80_columns(
    game: str, lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: CaptureStr
) -> None:
    """`companion play --sim` as a terminal of 80 columns runs it (``COLUMNS``)."""
    commands = ["help", *SCRIPTS[game], *COMMON]
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(commands) + "\n"))
    args = ["play", "--sim", "--game", game, "--lang", lang, "--journal", "game.jsonl"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "┌" in out and "> quit" in out  # the OLED is drawn; every command was read
    wide = [line for line in out.splitlines() if len(line) > 80]
    assert not wide, "\n".join(wide)


def test_a_refusal_listing_what_it_takes_wraps_between_items_only() -> None:
    """A list wraps after an item's comma, never inside an item ("place 4c 2,1 o3"), nor
    before French typography's colon."""
    items = [f"place {n}c 2,1 o3" for n in range(1, 9)]
    text = "? no such move : moves are " + ", ".join(items) + " (type help)"
    for width in (30, 41, 79):
        lines = fill(text, width, "", "  ").splitlines()
        assert len(lines) > 1 and all(len(line) <= width for line in lines)
        assert " ".join(line.strip() for line in lines) == text
        assert all(any(item in line for line in lines) for item in items), lines
        assert not any(line.lstrip().startswith(":") for line in lines)


def test_a_console_refusal_at_80_columns_keeps_each_item_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: CaptureStr
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("place 9z 2,1\nquit\n"))
    assert main(["play", "--sim", "--game", "vnp", "--lang", "en", "--journal", "g.jsonl"]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("? no piece '9z'"))
    refusal = lines[start : lines.index("> quit")]
    assert len(refusal) > 1 and all(len(line) <= 79 for line in refusal)
    assert refusal[-1].endswith("4p (type help)")
    assert all(line.endswith(",") for line in refusal[:-1])  # each piece whole


def typed(tmp_path: Path, game: str, commands: list[str]) -> list[str]:
    """The lines a PassPass typed table prints for `commands` (echoed, `> ...`)."""
    session = Session.start(tmp_path / "game.jsonl", make_setup(game, 3, 1))
    out = io.StringIO()
    run_console(session, [*commands, "quit"], out, "en", echo=True)
    return out.getvalue().splitlines()


def answer(lines: list[str], command: str) -> list[str]:
    """The lines printed for `command`, up to the next command or the OLED."""
    start = lines.index(f"> {command}") + 1
    end = next(i for i in range(start, len(lines)) if lines[i][:1] in (">", "┌"))
    return lines[start:end]


def test_hands_counts_each_seats_tokens_and_never_names_one(tmp_path: Path) -> None:
    lines = typed(tmp_path, "ptipasspass", ["hands", "drop 5 lapin", "hands"])
    before = answer(lines, "hands")
    after = answer(lines[lines.index("> drop 5 lapin") :], "hands")
    assert [line.split(":")[0].strip() for line in before] == ["Ana", "Bob", "Cy"]
    assert all(", challenge tokens 2, victories 0" in line for line in before + after)
    held = [[int(line.split("in hand ")[1].split(",")[0]) for line in b] for b in (before, after)]
    assert held[0] == [3, 3, 3]
    assert sorted(held[1]) == [2, 3, 3]  # the seat to play dropped one token
    assert not any(kind in line for line in before + after for kind in ("lapin", "souris"))


def test_ok_outside_a_window_speaks_of_this_game_only(tmp_path: Path) -> None:
    (pti,) = answer(typed(tmp_path / "pti", "ptipasspass", ["ok"]), "ok")
    (phi,) = answer(typed(tmp_path / "phi", "phipasspass", ["ok"]), "ok")
    assert pti == "? nothing runs out now: no challenge window is open"
    assert "PhiPassPass" not in pti and "Doublon window" in phi


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "STOP! Hat 3: unknown tag. Take it out."),
        ("fr", "STOP! Chapeau 3 : jeton inconnu. Retire-le."),
    ],
)  # fmt: skip
def test_a_fault_is_told_as_the_oleds_stop_sentence(
    tmp_path: Path, lang: str, sentence: str
) -> None:
    session = Session.start(tmp_path / "game.jsonl", make_setup("ptipasspass", 3, 1))
    out = io.StringIO()
    run_console(session, ["stray 3", "unstray 3", "quit"], out, lang, echo=True)
    lines = out.getvalue().splitlines()
    assert answer(lines, "stray 3")[-1].strip() == sentence  # what is wrong, where, the fix
    assert not any("STOP!" in line for line in answer(lines, "unstray 3"))  # fixed: no STOP


def test_demo_quiet_prints_only_the_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "demo"
    assert main(["demo", "--players", "3", "--seed", "2", "--out", str(out), "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("winner: ") and "scores: Ana" in lines[0]
    assert len(lines) == 5 and lines[-1] == f"replay it: companion replay {out / 'journal.jsonl'}"
    assert (out / "journal.jsonl").stat().st_size > 0 and (out / "oled.gif").stat().st_size > 0


def test_typed_live_each_command_is_asked_for_with_a_prompt() -> None:
    out = io.StringIO()
    lines = Prompted(io.StringIO("drop 5 lapin\nquit\n"), out)
    assert lines.isatty()  # typed live: the game's console does not echo them
    assert list(lines) == ["drop 5 lapin\n", "quit\n"]
    assert out.getvalue() == "> > > \n"  # one prompt per read; Ctrl-D ends the line


def test_width_draws_the_oled_for_the_columns_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: CaptureStr
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # --width wins (and monkeypatch restores it)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--sim", "--width", "80", "--journal", "game.jsonl"]) == 0
    box = [line for line in capsys.readouterr().out.splitlines() if line.startswith("┌")]
    assert box and {len(line) for line in box} == {66}  # the braille OLED
