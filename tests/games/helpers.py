"""What several games' tests do alike: type a game at the console, replay its journal,
hold a frame against its golden picture."""

from __future__ import annotations

import subprocess
import sys
from os import PathLike
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from companion.games import make_referee
from companion.journal import read_journal


def typed_play(
    game: str, journal: str | PathLike[str], commands: list[str], *more: str
) -> subprocess.CompletedProcess[str]:
    """`companion play --sim` of `game` in English, `commands` typed one a line."""
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "play", "--sim", "--game", game,
         "--lang", "en", "--journal", str(journal), *more],
        input="\n".join(commands) + "\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def replayed_events(path: str | PathLike[str]) -> tuple[Any, list[dict[str, Any]]]:
    """The journal at `path` fed to a new referee: it, and its events without their times."""
    journal = read_journal(path)
    referee = make_referee(journal.setup)
    for record in journal.inputs:
        referee.feed(record)
    return referee, [{k: v for k, v in e.items() if k != "t"} for e in referee.events]


def compare_golden(folder: Path, game: str, name: str, actual: Image.Image) -> None:
    """`actual` must be `folder`/`name`.png pixel for pixel; otherwise it is written beside
    it and the test says how to accept it."""
    golden_path = folder / f"{name}.png"
    actual_path = folder / f"{name}.actual.png"
    expected = Image.open(golden_path).convert("L")
    if ImageChops.difference(actual.convert("L"), expected).getbbox() is not None:
        actual.save(actual_path)
        pytest.fail(
            f"{name} differs from {golden_path.name}; wrote {actual_path.name} next to it. "
            f"If the change is wanted: python -m tests.make_fixtures golden --game {game}"
        )
    actual_path.unlink(missing_ok=True)
