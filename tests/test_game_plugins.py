"""A game shipped as its own distribution: once installed, its entry point (group
`companion.games`) names the module that registers it, and every command knows the game
with no configuration (docs/games.md). The distribution here is a real dist-info folder on
the path, as pip writes one, whose entry point names the test game's module."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def install_plugin(site: Path) -> None:
    info = site / "companion_tally-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: companion-tally\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[companion.games]\ntally = tests.games.tally\n")


def companion(*args: str, cwd: Path, site: Path | None) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("COMPANION_") or k == "COMPANION_LANG"
    }
    paths = [str(site)] if site else []
    env["PYTHONPATH"] = os.pathsep.join([*paths, str(ROOT), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        capture_output=True, text=True, timeout=60, cwd=cwd, env=env,
    )  # fmt: skip


def test_an_installed_game_is_known_to_every_command_through_its_entry_point(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    install_plugin(site)
    demo = companion("demo", "--game", "tally", "--players", "3", "--seed", "3", "--out", ".",
                     "--lang", "en",
                     cwd=tmp_path, site=site)  # fmt: skip
    assert demo.returncode == 0, demo.stderr
    assert "Ana wins the game!" in demo.stdout
    without = companion("demo", "--game", "tally", "--out", ".", cwd=tmp_path, site=None)
    assert without.returncode == 2 and "invalid choice: 'tally'" in without.stderr
