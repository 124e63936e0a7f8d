"""The boundary between the core and the games (docs/games.md): a game is one package under
`companion/games/`, and the core (everything else in `companion/`) reaches a game only
through the registry, `companion.games`, which imports the built-in games by name, and
names no game (`git grep -niE 'passpass|flipdone|swiped|vnp' -- companion ':!companion/games'`
finds nothing). A game package imports no other game."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import companion

ROOT = Path(companion.__file__).parent
GAMES = ROOT / "games"
GAME_NAMES = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").is_file())

GAME_WORDS = re.compile(r"passpass|flipdone|swiped|vnp", re.IGNORECASE)
"""How the built-in games' names are spelt in code, keys and prose."""


def imported(path: Path) -> set[str]:
    """Every module `path` imports, anywhere in it (`from a import b` gives "a" and "a.b")."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def games_imported(path: Path) -> set[str]:
    return {
        name.split(".")[2]
        for name in imported(path)
        if name.startswith("companion.games.") and name.split(".")[2] in GAME_NAMES
    }


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)


def test_every_built_in_game_is_a_package() -> None:
    from companion import games
    from companion.games import BUILT_IN, DEFAULT_GAME

    assert {module.split(".")[2] for module in BUILT_IN.values()} == set(GAME_NAMES)
    assert games.names()[0] == DEFAULT_GAME  # the first built-in game, a table's default


def test_the_core_imports_no_game() -> None:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        if path.is_relative_to(GAMES) and path != GAMES / "__init__.py":
            continue
        if crossed := games_imported(path):
            found[module_name(path)] = crossed
    assert found == {}


def test_a_game_imports_no_other_game() -> None:
    for game in GAME_NAMES:
        for path in (GAMES / game).rglob("*.py"):
            assert games_imported(path) <= {game}, module_name(path)


def test_the_web_pages_core_names_no_game() -> None:
    """The page's own files (companion/web/static/) draw every game alike: a game's own
    drawing is its page view, in its package (docs/games.md, "The game's page view")."""
    from companion import games

    words = {*GAME_NAMES, *games.names(), *(games.get(name).title for name in games.names())}
    static = ROOT / "web" / "static"
    found = {
        path.name: sorted(w for w in words if w.lower() in text)
        for path in sorted(static.iterdir())
        if (text := path.read_text(encoding="utf-8").lower())
    }
    assert len(found) >= 5  # the page, its script, its words, its style, the replay's
    assert {name: named for name, named in found.items() if named} == {}


def test_the_core_names_no_game() -> None:
    """Nothing in `companion/` outside `companion/games/` names a game, in code, keys or
    prose: the core says "a game's own ..." and a game's example lives in its package. The
    registry's list of built-in games is in `companion/games/__init__.py`."""
    found = []
    for path in sorted(ROOT.rglob("*")):
        if path.is_relative_to(GAMES) or "__pycache__" in path.parts:
            continue
        if not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if GAME_WORDS.search(line):
                found.append(f"{path.relative_to(ROOT.parent)}:{number}: {line.strip()}")
    assert found == []
