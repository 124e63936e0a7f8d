"""Games that exist for the tests, registered from their own modules (docs/games.md)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager

from companion import games
from companion.games import Game


@contextmanager
def registered(module: str) -> Iterator[dict[str, Game]]:
    """The games `module` defines (e.g. "tests.games.tally"), by name, in the registry for
    the block only: the registry's own test checks that a test game is registered only
    where COMPANION_GAMES names its module."""
    games.names()  # the built-in games are loaded first, into the registry itself
    real = games._REGISTRY
    games._REGISTRY = dict(real)
    try:
        found = vars(importlib.import_module(module)).values()
        yield {g.name: games.register(g) for g in found if isinstance(g, Game)}
    finally:
        games._REGISTRY = real
