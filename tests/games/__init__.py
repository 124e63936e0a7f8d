"""Games that exist for the tests, registered from their own packages (docs/games.md), and
the games the contract suite checks: every registered game and the test game."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager

from companion import games
from companion.games import Game

TEST_GAME = "tests.games.tally"
"""The test game's package (the one to copy for a new game): the contract suite checks it
with the registry's games, without leaving it registered."""


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


def contract_games() -> tuple[str, ...]:
    """What the contract suite is parametrised over: every game of the registry (a game
    named in COMPANION_GAMES included), then the test game's."""
    with registered(TEST_GAME) as found:
        return tuple(dict.fromkeys((*games.names(), *found)))


def descriptor(name: str) -> Game:
    """The game `name`: the registry's, or the test game's (taken from its package without
    staying registered)."""
    if name in games.names():
        return games.get(name)
    with registered(TEST_GAME) as found:
        return found[name]


@contextmanager
def playing(name: str) -> Iterator[Game]:
    """The game `name`, in the registry for the block (the runtime's parts that look a
    game up by name, such as the web page's `Publisher`, find the test game too)."""
    if name in games.names():
        yield games.get(name)
        return
    with registered(TEST_GAME) as found:
        yield found[name]
