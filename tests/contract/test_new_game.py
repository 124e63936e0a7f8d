"""Adding a game is copying a package, filling it and registering it (docs/games.md).

The proof: the test game's package (tests/games/tally/) copied to a folder of its own
outside the repository, under another name (its one `NAME` line changed), registered by
`COMPANION_GAMES` alone, passes the contract suite: nothing outside the copy is written.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.contract import CONTRACT

ROOT = Path(__file__).resolve().parents[2]
TEST_GAME = ROOT / "tests" / "games" / "tally"


def test_a_game_copied_into_a_package_of_its_own_passes_the_contract_suite(
    tmp_path: Path,
) -> None:
    package = tmp_path / "mygame"
    shutil.copytree(TEST_GAME, package, ignore=shutil.ignore_patterns("__pycache__"))
    rules = package / "rules" / "engine.py"
    source = rules.read_text(encoding="utf-8")
    assert source.count('NAME = "tally"') == 1
    rules.write_text(source.replace('NAME = "tally"', 'NAME = "mygame"'), encoding="utf-8")

    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "PYTEST_"))}
    env["COMPANION_GAMES"] = "mygame"
    env["PYTHONPATH"] = os.pathsep.join((str(tmp_path), str(ROOT)))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-n", "0",
         "-p", "no:cacheprovider", "-k", "mygame", *CONTRACT],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env=env,
    )  # fmt: skip

    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    counts = {kind: int(n) for n, kind in re.findall(r"(\d+) (passed|skipped)", done.stdout)}
    # the engine's playouts and public view, the referee's inputs, the result's shape
    assert counts.get("passed", 0) >= 19, done.stdout[-2000:]
    assert sorted(p.name for p in package.iterdir()) == sorted(
        p.name for p in TEST_GAME.iterdir() if p.name != "__pycache__"
    )
