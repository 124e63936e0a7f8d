"""Commands import what they use: `companion --help` and `config check` start without the
web server, the lab, the plotting and PDF libraries or any game (issue 30: the command
line and the service start at once on a Pi)."""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from companion.cli import COMMANDS, build_parser, summary
from companion.cli_words import speaking

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
        (
            '[game]\nname = "flipdone"\nseats = ["A", "B", "C"]\n[controls]\nenabled = false\n',
            "companion.games.flipdone",
        ),
    ],
)
def test_config_check_loads_the_configured_game_only(config, package, tmp_path):
    """It reads the config, which names a game: that game is loaded, no other game, nor
    the page, the lab or the reports."""
    (tmp_path / "companion.toml").write_text(config)
    modules = imported(["config", "check"], str(tmp_path))
    assert loaded(modules, HEAVY) == []
    assert loaded(modules, GAMES) and not loaded(modules, tuple(g for g in GAMES if g != package))


def test_a_pin_map_wiring_another_games_buttons_loads_the_games_to_check_them(tmp_path):
    """The repository's pin map wires PassPass's Doublon and Menteur: a Flip Done table's
    `config check` holds them to the games' buttons (a misspelt key is refused), so the
    games are loaded; `run` takes them by their names and loads its own game only."""
    (tmp_path / "companion.toml").write_text('[game]\nname = "flipdone"\nseats = ["A", "B", "C"]\n')
    modules = imported(["config", "check"], str(tmp_path))
    assert {"companion.games.flipdone", "companion.games.passpass"} <= {
        ".".join(m.split(".")[:3]) for m in modules
    }


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


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_command_summary_is_its_own_help_line(lang):
    with speaking(lang):
        parser = build_parser()
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        own = {action.dest: action.help for action in sub._choices_actions}
        assert own == {command: summary(command) for command in COMMANDS}


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


PAGE_NEEDS_NONE_OF = ("fpdf", "numpy", "matplotlib", "companion.lab", "paho")
"""What no game's table and page import: the PDF and plotting libraries, numpy, the lab,
the club's MQTT client (no [club] here)."""
SEATS = {"ptipasspass": 4, "phipasspass": 4, "flipdone": 3, "swiped": 2, "vnp": 2}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _run_until_the_page_shows(game: str, folder: Path) -> list[str]:
    """`companion run --sim` of `game` under `python -X importtime` until its page shows
    the game (its first state read): stderr's lines in order, imports and log lines
    interleaved as they came."""
    seats = ", ".join(f'"S{i}"' for i in range(SEATS[game]))
    port = _free_port()
    config = folder / "companion.toml"
    config.write_text(f'[game]\nname = "{game}"\nseats = [{seats}]\n'
                      f'[web]\nhost = "127.0.0.1"\nport = {port}\n')  # fmt: skip
    argv = ["run", "--sim", "--no-menu", "--config", str(config), "--data-dir",
            str(folder / "data"), "--display", "none", "--sim-input", "-"]  # fmt: skip
    code = f"import sys; from companion.cli import main; sys.exit(main({argv!r}))"
    child = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-c", code],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, cwd=folder, env={**os.environ, "HOME": str(folder)},
    )  # fmt: skip
    assert child.stderr is not None
    lines: list[str] = []
    timer = threading.Timer(60, child.kill)
    timer.start()
    try:
        for line in child.stderr:
            lines.append(line.rstrip("\n"))
            if "web page:" in line:
                break
        while True:  # the first snapshot is published right after the page listens
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=30) as got:
                if "board" in json.loads(got.read()):
                    break
            time.sleep(0.05)
    finally:
        timer.cancel()
        child.kill()
        lines += child.stderr.read().splitlines()
        child.wait()
    assert any("web page:" in line for line in lines), "\n".join(lines[-20:])
    return lines


@pytest.fixture(scope="module")
def service_lines(tmp_path_factory):
    """Each game's `_run_until_the_page_shows`, run once for the tests below."""
    runs: dict[str, list[str]] = {}

    def lines(game: str) -> list[str]:
        if game not in runs:
            runs[game] = _run_until_the_page_shows(game, tmp_path_factory.mktemp(game))
        return runs[game]

    return lines


def _modules(lines: list[str]) -> list[str]:
    return [line.rsplit("|", 1)[-1].strip() if line.startswith("import time:") else ""
            for line in lines]  # fmt: skip


@pytest.mark.parametrize("game", sorted(SEATS))
def test_the_oled_is_ready_before_aiohttp_and_no_page_imports_pdf_numpy_or_the_lab(
    game, service_lines
):
    """The table referees and its OLED shows the game ("ready") before aiohttp is imported
    (the page starts after), and neither the table nor its page showing the game imports
    the PDF library, numpy, the plotting library, the lab or the MQTT client."""
    lines = service_lines(game)
    ready = next(i for i, line in enumerate(lines) if "ready:" in line)
    modules = _modules(lines)
    first_aiohttp = next(i for i, m in enumerate(modules) if m.split(".")[0] == "aiohttp")
    assert ready < first_aiohttp, "aiohttp was imported before the table was ready"
    assert loaded({m for m in modules if m}, PAGE_NEEDS_NONE_OF) == []


@pytest.mark.parametrize("game", sorted(SEATS))
def test_no_page_imports_the_drawing_of_sheets(game, service_lines):
    """companion/sheets.py draws the deck and the builder's mats on paper (`companion
    deck`, `companion kit`): a page showing the game never needs it."""
    modules = _modules(service_lines(game))
    assert "companion.sheets" not in modules


def test_the_page_builds_no_tls_context_with_the_certificate_store(tmp_path):
    """aiohttp's client builds its default TLS contexts when imported, reading the whole
    store of certificate authorities; the page imports it without that store read
    (companion/web/aio.py), and contexts made afterwards (the club's link) load it."""
    code = (
        "import ssl, companion.web.server, aiohttp.connector as c; "
        "print(c._SSL_CONTEXT_VERIFIED.cert_store_stats()['x509_ca'], "
        "ssl.create_default_context().cert_store_stats()['x509_ca'])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
        timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    during, after = (int(n) for n in done.stdout.split())
    assert during == 0, "importing the page read the certificate store"
    store = subprocess.run(
        [sys.executable, "-c", "import ssl; "
         "print(ssl.create_default_context().cert_store_stats()['x509_ca'])"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert after == int(store.stdout)  # the usual store, once the page is imported


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_built_in_game_starts_without_scanning_the_installed_distributions(game, service_lines):
    """Start to ready within 1 s on a Pi 4 (issue 41): the config names a built-in game,
    so no scan of the installed distributions for other games (importlib.metadata, 25 ms
    of CPU here) comes before "ready"."""
    lines = service_lines(game)
    ready = next(i for i, line in enumerate(lines) if "ready:" in line)
    assert "importlib.metadata" not in _modules(lines[:ready])


def test_the_power_on_menu_shows_before_another_game_or_the_scan_for_games_is_loaded(tmp_path):
    """Issue 41: the power-on menu is on the OLED within a second on a Pi 4. Until its first
    frame, `run --menu` loads the configured game (the config is checked against it) and
    no other game's package, only what the menu shows of each (its `facts` module), nor
    the scan of the installed distributions for games installed on their own
    (importlib.metadata, 25 ms of CPU here), which comes right after that frame."""
    config = tmp_path / "companion.toml"
    config.write_text("[web]\nenabled = false\n")
    argv = ["run", "--sim", "--menu", "--config", str(config), "--data-dir",
            str(tmp_path / "data"), "--display", "none", "--sim-input", "-"]  # fmt: skip
    code = f"import sys; from companion.cli import main; sys.exit(main({argv!r}))"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True,
        cwd=tmp_path, env={**os.environ, "HOME": str(tmp_path)}, stdin=subprocess.DEVNULL,
        timeout=60, check=False,
    )  # fmt: skip
    lines = done.stderr.splitlines()
    shown = next((i for i, line in enumerate(lines) if "power-on menu (" in line), None)
    assert shown is not None, done.stderr[-2000:]
    before, after = set(_modules(lines[:shown])), set(_modules(lines[shown:]))
    assert "companion.menu" in before  # the listing is read
    games = loaded(before, GAMES)
    assert "companion.games.passpass.rules" in games  # the configured game (the default)
    assert [m for m in games if not m.startswith("companion.games.passpass")] == []
    assert "importlib.metadata" not in before and "importlib.metadata" in after
