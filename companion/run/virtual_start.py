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
from companion.cli_words import language, said
from companion.config.model import Config
from companion.screens.text import phrase

MAX_NAME = 24
"""The longest seat name the OLED and the page show whole."""
FOLDER = "virtual"
"""The data directory's folder of the virtual table's games."""


def virtual_problem(args: argparse.Namespace, config: Config) -> str | None:
    """Why `run --virtual` cannot start with these options and this config, or None."""
    if args.sim_input:
        return said("cli.run.virtual_input")
    if args.sim_clock == "script":
        return said("cli.run.virtual_clock")
    if args.menu:
        return said("cli.run.virtual_menu")
    if not config.web.enabled:
        return said("cli.run.virtual_web")
    game = games.get(config.game.name)
    if game.virtual is None and not game.played_on_page:
        return said("cli.run.no_virtual", title=game.title)
    return None


def with_game(config: Config, name: str | None, seats: str | None) -> Config | str:
    """The config with ``--game`` and ``--seats`` over its ``[game]`` (its layout and rules
    only kept for the same game and number of seats), or why they cannot be."""
    if name is None and seats is None:
        return config
    g = config.game
    if name is not None and name not in games.names():
        return said("cli.run.no_game", name=name, names=", ".join(games.names()))
    game = games.get(name or g.name)
    names = g.seats
    if seats is not None:
        names = tuple(s.strip() for s in seats.split(","))
        if not all(names) or len(set(names)) != len(names):
            return said("cli.run.seat_names", seats=seats)
        if any(len(n) > MAX_NAME for n in names):
            return said("cli.run.seat_long", seats=seats, n=MAX_NAME)
    if len(names) not in game.seats:
        if seats is not None:
            return said("cli.run.seat_count", seats=seats, game=game.name,
                        range=games.players_said(game, language()))  # fmt: skip
        names = tuple(phrase("seat", g.language, n=i + 1) for i in range(game.default_seats))
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
