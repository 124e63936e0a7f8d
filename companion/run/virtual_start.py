"""`companion run --virtual`: a table played on the web page with virtual tokens.

No hardware: the service runs as a simulated table whose only input is the page, where each
seat plays from its own paired phone or browser (`companion.web.virtual`). The game and its
players come from the config's ``[game]``, or from ``--game`` and ``--seats``; nothing is
enrolled (the tokens' tags are made up, `companion.web.virtual.made_up_tags`). Its games are
kept apart from a real table's: in the ``virtual`` folder of the data directory, unless
``--data-dir`` names one.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from companion import games
from companion.config.model import Config

MAX_NAME = 24
"""The longest seat name the OLED and the page show whole."""
FOLDER = "virtual"
"""The data directory's folder of the virtual table's games."""


def virtual_problem(args: argparse.Namespace, config: Config) -> str | None:
    """Why `run --virtual` cannot start with these options and this config, or None."""
    if args.sim_input:
        return "--virtual takes its inputs from the web page: leave out --sim-input"
    if args.sim_clock == "script":
        return "--virtual plays on the real clock: leave out --sim-clock script"
    if args.menu:
        return "--virtual starts the game at once: leave out --menu"
    if not config.web.enabled:
        return "--virtual is played on the web page: set [web] enabled = true in the config"
    game = games.get(config.game.name)
    if game.virtual is None and not game.played_on_page:
        return f"{game.title} has no virtual table yet: choose another game with --game"
    return None


def with_game(config: Config, name: str | None, seats: str | None) -> Config | str:
    """The config with ``--game`` and ``--seats`` over its ``[game]`` (its layout and rules
    only kept for the same game and number of seats), or why they cannot be."""
    if name is None and seats is None:
        return config
    g = config.game
    if name is not None and name not in games.names():
        return f"--game {name}: no such game; games are {', '.join(games.names())}"
    game = games.get(name or g.name)
    names = g.seats
    if seats is not None:
        names = tuple(s.strip() for s in seats.split(","))
        if not all(names) or len(set(names)) != len(names):
            return f"--seats {seats}: give different names, comma-separated (Ana,Bob,Cy)"
        if any(len(n) > MAX_NAME for n in names):
            return f"--seats {seats}: a name has at most {MAX_NAME} characters"
    if len(names) not in game.seats:
        if seats is not None:
            return f"--seats {seats}: {game.name} is for {game.players()}"
        names = tuple(f"Seat {i + 1}" for i in range(game.default_seats))
    same = game.name == g.name and len(names) == len(g.seats)
    return dataclasses.replace(
        config,
        game=dataclasses.replace(
            g,
            name=game.name,
            seats=names,
            first=g.first if g.first < len(names) else 0,
            settings={k: v for k, v in g.settings.items() if same or k != "layout"},
            rules=g.rules if same else None,
        ),
    )


def virtual_data_dir(located: Path, given: str | None) -> Path:
    """Where the virtual table keeps its games: ``--data-dir`` when given, else the
    ``virtual`` folder of the data directory (apart from a real table's journal and tags)."""
    return located if given else located / FOLDER
