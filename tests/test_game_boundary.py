"""The boundary between the core and the games (docs/games.md): a game is one package under
`companion/games/`, and the core (everything else in `companion/`) reaches a game only
through the registry, `companion.games`, which imports the built-in games by name, and
names no game (`git grep -niE 'passpass|flipdone|swiped|vnp' -- companion ':!companion/games'`
finds nothing). Nor does the core cite a game's ruling (`PTI-8`) or speak its words (its
buttons, their labels, its tokens' names): a game declares them in its descriptor. A game
package imports no other game, and cites no other game's ruling or tokens."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import companion

ROOT = Path(companion.__file__).parent
GAMES = ROOT / "games"
GAME_NAMES = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").is_file())

GAME_WORDS = re.compile(r"passpass|flipdone|swiped|vnp", re.IGNORECASE)
"""How the built-in games' names are spelt in code, keys and prose."""
RULINGS = ROOT.parent / "docs" / "rulings.md"
RULING_ID = re.compile(r"\b[A-Z]+-[0-9]+\b")
CLOSED = re.compile(r"[a-z]+(?:\|[a-z]+)*")
"""A token family's pattern that is a closed list of words (their names are the game's)."""
ENGLISH = {"orange"}
"""A game's word the core may use in its plain English sense: the kit's bus-1 cables are
orange."""


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


def ruling_owners() -> dict[str, str]:
    """Every ruling id docs/rulings.md gives -> the name of the game whose section holds it
    (its section is titled with the game's title)."""
    from companion import games

    by_title = {games.get(name).title: name for name in games.names()}
    owners: dict[str, str] = {}
    game = ""
    for line in RULINGS.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            game = by_title.get(line[3:].strip(), "")
        elif game and (found := re.match(r"- \*\*([A-Z]+-[0-9]+)\b", line)):
            owners[found[1]] = game
    return owners


def vocabulary(name: str) -> set[str]:
    """The game's own words, lower-case: its buttons' names and labels, the names of its
    tokens when they are a closed list (its animals, its colours)."""
    from companion import games

    game = games.get(name)
    words = {w for b in game.buttons for w in (b.name, *b.labels.values())}
    for family in game.token_families:
        if CLOSED.fullmatch(family.pattern):
            words.update(family.pattern.split("|"))
    return {word.lower() for word in words}


def package_of(name: str) -> str:
    from companion.games import BUILT_IN

    return BUILT_IN[name].split(".")[2]


def spoken(path: Path, rulings: set[str], words: set[str]) -> list[str]:
    """Each line of `path` that cites one of `rulings` or says one of `words`."""
    said = re.compile(rf"\b(?:{'|'.join(map(re.escape, sorted(words)))})\b", re.IGNORECASE)
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        cited = set(RULING_ID.findall(line)) & rulings
        if cited or (words and said.search(line)):
            found.append(f"{path.relative_to(ROOT.parent)}:{number}: {line.strip()}")
    return found


def test_the_rulings_each_belong_to_a_game() -> None:
    owners = ruling_owners()
    assert {"PTI-8", "PHI-2", "FD-6", "SW-1", "VNP-6"} <= set(owners)
    assert owners["PTI-8"] == "ptipasspass" and owners["VNP-6"] == "vnp"


def test_the_core_cites_no_ruling_and_speaks_no_games_words() -> None:
    """A game's rulings and words are in its package: the core says "the game's button",
    "the one the game's rule book names", and takes labels from the descriptors."""
    from companion import games

    words = set().union(*map(vocabulary, games.names())) - ENGLISH
    assert {"doublon", "menteur", "lapin", "bleu"} <= words
    rulings = set(ruling_owners())
    assert [line for path in core_files() for line in spoken(path, rulings, words)] == []


def core_files() -> list[Path]:
    """Every file of `companion/` outside the game packages."""
    return [path for path in sorted(ROOT.rglob("*"))
            if not (path.is_relative_to(GAMES) and path.parent != GAMES)
            and path.is_file() and "__pycache__" not in path.parts]  # fmt: skip


def test_the_core_cites_no_ruling_and_speaks_no_words_of_the_test_game() -> None:
    """A new game's rulings and words stay in its folder: the ruling ids the test game's
    package cites (TALLY-2), its buttons' names and its tokens appear nowhere in the core,
    not even as an example."""
    from tests.games import TEST_GAME, registered

    folder = ROOT.parent.joinpath(*TEST_GAME.split("."))
    rulings = {rid for path in folder.rglob("*.py")
               for rid in RULING_ID.findall(path.read_text(encoding="utf-8"))}  # fmt: skip
    with registered(TEST_GAME) as found:
        words = {b.name for game in found.values() for b in game.buttons}
        for family in (f for game in found.values() for f in game.token_families):
            if CLOSED.fullmatch(family.pattern):
                words.update(family.pattern.split("|"))
    assert {"TALLY-2", "pass_turn", "pebble"} <= rulings | words
    assert [line for path in core_files() for line in spoken(path, rulings, words)] == []


def test_a_game_cites_only_its_own_rulings_and_tokens() -> None:
    """A game package cites its own games' rulings and tags only their tokens' kinds
    ("animal:lapin" is PtiPassPass's alone). Words alone may be shared: two games' pieces
    are both "bleu", and a game's simulated table may press another game's button where it
    means nothing (a table's buttons are its hardware)."""
    from companion import games

    owners = ruling_owners()
    found = []
    for package in GAME_NAMES:
        own = {name for name in games.names() if package_of(name) == package}
        mine = {f.name for name in own for f in games.get(name).token_families}
        theirs = games.token_families().values()
        kinds = [rf"{f.name}:(?:{f.pattern})" for f in theirs if f.name not in mine]
        kind = re.compile(rf"\b(?:{'|'.join(kinds)})\b")
        rulings = {rid for rid, game in owners.items() if game not in own}
        for path in sorted((GAMES / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                found += spoken(path, rulings, set())
                text = path.read_text(encoding="utf-8")
                found += [f"{path.name}: {m[0]}" for m in kind.finditer(text)]
    assert found == []


# ------------------------------------------------------------------ layers and cycles

CONTRACT_LEAVES = {
    "companion.rules.errors",
    "companion.referee.event_log",
    "companion.referee.table",
    "companion.screens.model",
    "companion.games.virtual_kit",
}
"""What the contract (`companion/contract/`) is written in: modules that import nothing of
`companion` themselves."""


def imports_of(path: Path, *, lazy: bool = True) -> set[str]:
    """The `companion` modules `path` imports (those inside functions too with `lazy`;
    never those only type checkers read), each resolved to a module file of the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path).removesuffix(".__init__")
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    skipped = {
        id(node)
        for top in ast.walk(tree)
        if isinstance(top, ast.If) and "TYPE_CHECKING" in ast.dump(top.test)
        for node in ast.walk(top)
    }
    nodes = ast.walk(tree) if lazy else iter(tree.body)
    found: set[str] = set()
    for node in nodes:
        if id(node) in skipped:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for name in names:
            while name.startswith("companion") and name not in MODULES:
                name = name.rpartition(".")[0]
            if name.startswith("companion") and name != module_of(path):
                found.add(name)
    return found


def module_of(path: Path) -> str:
    return module_name(path).removesuffix(".__init__")


MODULES = {module_of(path) for path in ROOT.rglob("*.py")}


@functools.cache
def cycles() -> list[set[str]]:
    """The groups of `companion` modules that import each other, lazily or not (Tarjan's
    strongly connected components of the import graph)."""
    graph = {module_of(path): imports_of(path) for path in ROOT.rglob("*.py")}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = set()
            while True:
                other = stack.pop()
                group.add(other)
                if other == node:
                    break
            if len(group) > 1:
                found.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_contract_is_below_everything() -> None:
    """The contract imports only the leaves it is written in: never the registry, the
    journal, the config or a game, which all depend on it."""
    contract = ROOT / "contract"
    for path in sorted(contract.rglob("*.py")):
        outside = {m for m in imports_of(path) if not m.startswith("companion.contract")}
        assert outside <= CONTRACT_LEAVES, (module_of(path), outside - CONTRACT_LEAVES)
    for leaf in CONTRACT_LEAVES:
        path = ROOT.parent / (leaf.replace(".", "/") + ".py")
        assert imports_of(path) <= {"companion.rules.errors"} - {leaf}, leaf


def test_no_import_cycle() -> None:
    """No two modules of `companion` import each other, lazily or not, in the core or
    inside a game: what two modules share sits in a module below both (a game's lab plays
    its thinking bot's games; the thinking bot knows nothing of the lab)."""
    assert sorted(sorted(group) for group in cycles()) == []
