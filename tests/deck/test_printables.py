"""`companion deck GAME`: any game offers its printables through its descriptor
(`Game.printables`); the command knows no game, and one with nothing to print says so."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

import pytest

from companion import games
from companion.cli import main
from companion.games import Printables
from tests.games import registered


def add_copies(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--copies", type=int, default=1)


def write_score_pads(args: argparse.Namespace, out: Path) -> str:
    """Tally's score pads: one line per seat, `--copies` times, in a text file."""
    if args.copies < 1:
        raise ValueError(f"--copies {args.copies}: at least one")
    out.write_text("seat ____ pebbles __\n" * 4 * args.copies, encoding="utf-8")
    return f"{args.copies} score pads"


PADS = Printables(
    summary="its score pads",
    description="Tally's score pads, as a text file.",
    write=write_score_pads,
    options=add_copies,
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_game_offers_its_printables_with_its_own_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "pads.txt"
    with registered("tests.games.tally") as found:
        games.register(dataclasses.replace(found["tally"], name="tallypads", printables=PADS))
        code, stdout, err = run(capsys, "deck", "tallypads", "--out", str(out), "--copies", "3")
        assert (code, err) == (0, "")
        assert stdout == f"wrote {out}: 3 score pads\n"
        assert out.read_text(encoding="utf-8").count("seat") == 12
        code, stdout, err = run(capsys, "deck", "tallypads", "--out", str(out), "--copies", "0")
        assert (code, stdout) == (2, "")
        assert err == "companion deck: --copies 0: at least one\n"
        code, stdout, err = run(capsys, "deck", "tally", "--out", str(tmp_path / "t.txt"))
        assert (code, stdout) == (2, "")
        assert err == (
            "companion deck: tally has nothing to print (games that do: swiped, tallypads)\n"
        )
    assert not (tmp_path / "t.txt").exists()


def test_nothing_to_print_needs_no_out(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, err = run(capsys, "deck", "flipdone")
    assert (code, stdout) == (2, "")
    assert err == "companion deck: flipdone has nothing to print (games that do: swiped)\n"
