"""Tests follow the game: a test file that imports one game's package
(`companion.games.<package>`) and names no other game lives in tests/games/<package>/
(its rules, referee, screens, lab and page tests, by layer), so a game's tests are one
folder. What runs over the registry for every game (tests/contract/, tests/rules/) and a
core layer's own tests stay in the layer's folder, whatever games they play. A few core
tests play one game because they need a table: each is named in `THROUGH_ONE_GAME` with
the layer it tests."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import companion

TESTS = Path(__file__).parent
GAMES = Path(companion.__file__).parent / "games"
PACKAGES = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").is_file())
NAMES = re.compile(r"\b(?:ptipasspass|phipasspass|flipdone|swiped|vnp)\b")
PACKAGE_OF = {"ptipasspass": "passpass", "phipasspass": "passpass"}
"""A game's registry name -> its package, where they differ."""

THROUGH_ONE_GAME = {
    "cli/test_journal_faults.py": "the journal, cut and damaged",
    "cli/test_strict_inputs.py": "the journal's strict reading",
    "devices/test_serial_game.py": "the serial link to the Pico",
    "pi/conftest.py": "the Pi service's helpers",
    "pi/test_controls.py": "buttons and encoder through gpiozero",
    "pi/test_display.py": "the OLED port",
    "pi/test_pace.py": "people's pace through the live service",
    "pico/conftest.py": "the emulated Pico's board",
    "pico/test_pico_two_buses.py": "the firmware on the emulated RP2040",
    "referee/test_read_age.py": "the pace's settle from a reading's age",
    "referee/test_resume.py": "resume after a cut",
    "referee/test_timing.py": "timing invariance; its regressions replay every game",
    "referee/timing.py": "the timing invariance's helpers",
    "screens/samples.py": "the renderers' golden frames (the menu's too)",
    "screens/test_render.py": "the renderers on luma's devices; every game's `on_screen`",
}
"""Core tests that play one game (PassPass, the default) as the table they need -> the
layer they test."""


def games_of(path: Path) -> tuple[set[str], set[str]]:
    """The packages of the games `path` imports, and of those its code names by their
    registry name (docstrings aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    modules: list[str] = []
    named: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            modules += [alias.name for alias in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = "" if id(node) in docstrings else node.value  # a docstring tells of any game
            named.update(PACKAGE_OF.get(n, n) for n in NAMES.findall(text))
    imported = {
        p[2] for p in (m.split(".") for m in modules) if p[:2] == ["companion", "games"] and p[2:]
    }
    return imported & set(PACKAGES), named


def one_games_tests() -> dict[str, str]:
    """Every file of tests/ outside tests/games/ that is one game's -> that game's package."""
    found = {}
    for path in sorted(TESTS.rglob("*.py")):
        where = path.relative_to(TESTS)
        if where.parts[0] == "games":
            continue
        imported, named = games_of(path)
        if imported and len(games := imported | named) == 1:
            found[where.as_posix()] = games.pop()
    return found


def test_a_test_of_one_game_lives_in_its_games_folder() -> None:
    astray = {
        path: game for path, game in one_games_tests().items() if path not in THROUGH_ONE_GAME
    }
    assert astray == {}


def test_every_core_test_through_one_game_still_is_one() -> None:
    """A file of `THROUGH_ONE_GAME` that no longer plays one game leaves the list."""
    assert set(THROUGH_ONE_GAME) <= set(one_games_tests())


def test_every_game_has_its_folder_of_tests() -> None:
    for package in PACKAGES:
        assert any((TESTS / "games" / package).rglob("test_*.py")), package
