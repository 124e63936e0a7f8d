"""Commands import what they use: `companion --help` and `config check` start without the
web server, the lab, the plotting and PDF libraries or any game (issue 30: the command
line and the service start at once on a Pi)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import pytest

from companion.cli import SUMMARIES, build_parser

HEAVY = ("aiohttp", "segno", "matplotlib", "fpdf", "multiprocessing", "companion.lab",
         "companion.web", "paho")  # fmt: skip
GAMES = ("companion.games.passpass", "companion.games.flipdone", "companion.games.swiped",
         "companion.games.vnp")  # fmt: skip


def imported(argv: list[str], cwd: str) -> set[str]:
    """Every module `companion ARGV` imports, as `python -X importtime` lists them."""
    code = f"import sys; from companion.cli import main; sys.exit(main({argv!r}))"
    env = {**os.environ, "HOME": cwd}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = (line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines())
    return {line for line in lines if line and " " not in line}


def loaded(modules: set[str], packages: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in packages or m.startswith(packages))


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["config", "--help"],
        ["config", "check", "--help"],
        ["run", "--help"],
        ["club", "--help"],
    ],  # fmt: skip
)
def test_help_imports_no_server_lab_plotting_or_game(argv, tmp_path):
    modules = imported(argv, str(tmp_path))
    assert "companion.cli" in modules  # the listing is read
    assert loaded(modules, HEAVY + GAMES) == []


@pytest.mark.parametrize(
    ("config", "package"),
    [
        ("", "companion.games.passpass"),  # the default game
        ('[game]\nname = "flipdone"\nseats = ["A", "B", "C"]\n', "companion.games.flipdone"),
    ],
)
def test_config_check_loads_the_configured_game_only(config, package, tmp_path):
    """It reads the config, which names a game: that game is loaded, no other game, nor
    the page, the lab or the reports."""
    (tmp_path / "companion.toml").write_text(config)
    modules = imported(["config", "check"], str(tmp_path))
    assert loaded(modules, HEAVY) == []
    assert loaded(modules, GAMES) and not loaded(modules, tuple(g for g in GAMES if g != package))


def test_a_config_setting_another_games_key_loads_the_games_to_find_it(tmp_path):
    """A Flip Done table may keep PassPass's window for when the menu switches games: the
    key is checked as PassPass says, so PassPass is loaded too."""
    (tmp_path / "companion.toml").write_text(
        '[game]\nname = "flipdone"\nseats = ["A", "B", "C"]\nwindow = 8\n'
    )
    modules = imported(["config", "check"], str(tmp_path))
    assert {"companion.games.flipdone", "companion.games.passpass"} <= {
        ".".join(m.split(".")[:3]) for m in modules
    }


def test_every_command_summary_is_its_own_help_line():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    own = {action.dest: action.help for action in sub._choices_actions}
    assert own == SUMMARIES


def test_the_service_and_its_page_import_no_lab_or_plotting(tmp_path):
    code = "import companion.run.startup, companion.run.web_port"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    modules = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    assert "companion.web.server" in modules
    assert loaded(modules, ("companion.lab", "matplotlib", "fpdf")) == []
