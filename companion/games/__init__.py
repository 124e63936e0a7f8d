"""The games the companion runs: one descriptor each, in one registry.

The runtime (the service, sessions, the demo, replay, the lab, enrolment, the power-on
menu) knows no game: it asks the registry for a `Game` by the name a config, a journal or
a command line gives, and works through the descriptor's parts. A game is one package
(`companion/games/<game>/`: its engine, referee, screens, words, bots, simulated table and
lab) whose `game` module defines its descriptor; nothing outside it imports it. Importing
a game's module registers nothing: the registry takes a game's descriptor (and adds its
words to the catalogue) when it loads the module that defines it. It knows the built-in
games by name (`BUILT_IN`) and imports one's `game` module when it is first asked for
(`get`), its `facts` module alone when only what the power-on menu shows is asked for
(`facts`); it imports every module an installed distribution names in its entry points of
group `companion.games` (a game shipped on its own), and every module named in the
environment variable `COMPANION_GAMES` (comma-separated), which is how the tests add a
tiny game without touching anything else, and registers every `Game` each one names.

This module is a lookup: the descriptor's types are the contract's
(`companion/contract/game.py`, below everything), named here too for the games and the
runtime that import them from the registry.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable, Mapping
from typing import TypeVar

from companion.cli_words import check_words, language, said_in
from companion.contract.game import (
    Aiming,
    Announcing,
    Button,
    Drawing,
    Facts,
    Game,
    Printables,
    Renderer,
    RuleOption,
    SimResultLike,
    TableReferee,
    TableSetting,
    TokenFamily,
    Voice,
    Words,
    drawings,
)
from companion.contract.inputs import Setup
from companion.screens.text import LANGUAGES, register_words

__all__ = [
    "BUILT_IN", "DEFAULT_GAME", "ENTRY_POINTS", "Aiming", "Announcing", "Button", "Drawing",
    "Facts", "Game",
    "Printables", "Renderer", "RuleOption", "SimResultLike", "TableReferee", "TableSetting",
    "TokenFamily", "UnknownGame", "Voice", "Words", "buttons", "facts", "get", "known", "loaded",
    "drawings", "make_referee", "names",
    "players_problem", "register", "settings_of", "table_settings", "taking",
    "token_families",
]  # fmt: skip


class UnknownGame(ValueError):
    """A game name the registry does not know; the message lists the ones it does."""


BUILT_IN: Mapping[str, str] = {
    "ptipasspass": "companion.games.passpass",
    "phipasspass": "companion.games.passpass",
    "flipdone": "companion.games.flipdone",
    "swiped": "companion.games.swiped",
    "vnp": "companion.games.vnp",
}
"""The built-in games, in the menu's order, and the package of each: its `game` module
defines the descriptor, imported when the game is first asked for (`get`), so a command
pays only for the games it uses; its `facts` module, which imports nothing else of the
game, what the power-on menu shows of it (`facts`)."""
DEFAULT_GAME = "ptipasspass"
"""The game a table plays when its config names none (the first built-in game)."""
ENTRY_POINTS = "companion.games"
"""The entry-point group through which an installed distribution adds its games: each
entry point names the module that registers them (``mygame = "mygame.game"``)."""

_Named = TypeVar("_Named", Game, Facts)
_REGISTRY: dict[str, Game] = {}
_BUILT_IN_GAMES: dict[str, Game | None] = {}
_loaded = False


def register(game: Game) -> Game:
    """Add a game: its words join the catalogue, with its buttons' labels
    (``control.<name>``). The registry calls it for each game of a module it loads (a
    built-in game's, an entry point's, COMPANION_GAMES'); a test, for a variant it makes."""
    labels = {lang: {f"control.{b.name}": b.label(lang) for b in game.buttons}
              for lang in LANGUAGES}  # fmt: skip
    _add_words(game.name, game.menu_words, game.words)
    _add_words(f"{game.name}.buttons", labels)
    _add_words(game.name, game.console_words, drawn=False)
    _REGISTRY[game.name] = game
    return game


def _add_words(owner: str, *tables: Words, drawn: bool = True) -> None:
    """Add a game's phrases to the catalogue (none: nothing to add)."""
    for table in tables:
        if any(table.values()):
            check_words(owner, table)
            register_words(owner, table, drawn=drawn)


def _load() -> None:
    """Import the games added from outside (entry points, COMPANION_GAMES) once: their
    names are only known once their modules have run."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from importlib.metadata import entry_points  # only once a game is asked for

    installed = [entry.module for entry in entry_points(group=ENTRY_POINTS)]
    extra = [m.strip() for m in os.environ.get("COMPANION_GAMES", "").split(",") if m.strip()]
    for module in (*installed, *extra):
        for game in _defined(Game, module):
            register(game)


def _built_in(name: str) -> Game | None:
    """The built-in game `name`, its module imported now if it was not yet."""
    game = _BUILT_IN_GAMES.get(name)
    if game is None:
        game = _BUILT_IN_GAMES[name] = _named(Game, name, f"{BUILT_IN[name]}.game")
        if game is not None:
            register(game)
    return game


def _defined(kind: type[_Named], module: str) -> list[_Named]:
    """Every `kind` that `module` (imported now if it was not yet) names."""
    return [v for v in vars(importlib.import_module(module)).values() if isinstance(v, kind)]


def _named(kind: type[_Named], name: str, module: str) -> _Named | None:
    """The `kind` named `name` that `module` (imported now if it was not yet) names."""
    return next((v for v in _defined(kind, module) if v.name == name), None)


def names(*, scan: bool = True) -> tuple[str, ...]:
    """Every registered game: the built-in ones in their order, then the others in
    registration order (no built-in game's module is imported for it). `scan=False`: the
    built-in games and those added so far, without looking at the installed distributions
    for others (the power-on menu's first frame)."""
    if scan:
        _load()
    return tuple(dict.fromkeys((*BUILT_IN, *_REGISTRY)))


def get(name: str) -> Game:
    """The game `name`: a built-in one (its module imported if it was not yet; no other
    package is looked at for it, so a start pays no scan of the installed distributions),
    or one added from outside (entry points, COMPANION_GAMES)."""
    game = _built_in(name) if name in BUILT_IN else None
    if game is None:
        _load()
        game = _REGISTRY.get(name)
    if game is None:
        raise UnknownGame(f"unknown game {name!r}; games are {', '.join(names())}")
    return game


def known(name: str | None) -> Game | None:
    """The game `name`, or None for no name or one the registry does not know (an old
    journal's: its events get the lines every game shares)."""
    if not name:
        return None
    try:
        return get(name)
    except UnknownGame:
        return None


def loaded() -> tuple[Game, ...]:
    """The games loaded so far, loading none (the built-in ones first)."""
    found = [g for g in _BUILT_IN_GAMES.values() if g is not None]
    return tuple({g.name: g for g in (*found, *_REGISTRY.values())}.values())


def facts(name: str) -> Facts:
    """What the power-on menu shows of the game `name` (its title, numbers of players,
    questions): a built-in game's from its `facts` module, loading no other part of it;
    another's from its descriptor."""
    if name in BUILT_IN:
        found = _named(Facts, name, f"{BUILT_IN[name]}.facts")
        if found is not None:
            _add_words(name, found.menu_words)
            return found
    return get(name).facts


def settings_of(game: str, keys: Iterable[str] = ()) -> dict[str, TableSetting]:
    """The ``[game]`` settings to read for a table of `game` whose config gives `keys`: the
    game's own, or every game's when a key is none of them (another game's, which the
    power-on menu may switch to, or a mistake): only then are the other games loaded."""
    known = game in BUILT_IN or game in names()
    own = {s.name: s for s in get(game).table_settings} if known else {}
    return own if set(keys) <= set(own) else table_settings()


def table_settings() -> dict[str, TableSetting]:
    """Every registered game's own ``[game]`` keys, by name, in registration order (a key
    two games take is the first one's setting)."""
    found: dict[str, TableSetting] = {}
    for game in map(get, names()):
        for setting in game.table_settings:
            found.setdefault(setting.name, setting)
    return found


def token_families() -> dict[str, TokenFamily]:
    """Every registered game's token families, by name (a family two games declare is the
    first one's)."""
    found: dict[str, TokenFamily] = {}
    for game in map(get, names()):
        for family in game.token_families:
            found.setdefault(family.name, family)
    return found


def buttons(*, loaded: bool = False) -> dict[str, Button]:
    """Every registered game's seat buttons, by name (a button two games declare is the
    first one's); `loaded`: those of the games loaded so far only, loading none."""
    found: dict[str, Button] = {}
    for game in list(_REGISTRY.values()) if loaded else map(get, names()):
        for button in game.buttons:
            found.setdefault(button.name, button)
    return found


def taking(setting: str) -> tuple[str, ...]:
    """The registered games that take the ``[game]`` key ``setting``."""
    return tuple(
        name for name in names() if any(s.name == setting for s in get(name).table_settings)
    )


def players_said(game: Game, lang: str = "en") -> str:
    """The game's numbers of players in words of `lang`: "2 to 6 players", "3 joueurs"."""
    counts = list(game.seats)
    if len(counts) == 1:
        return said_in("cli.players.one", lang, n=counts[0])
    if counts == list(range(counts[0], counts[-1] + 1)):
        return said_in("cli.players.range", lang, low=counts[0], high=counts[-1])
    listed = ", ".join(map(str, counts[:-1]))
    return said_in("cli.players.list", lang, counts=listed, last=counts[-1])


def players_problem(game: str, players: int) -> str | None:
    """Why ``--players`` does not fit the game's rule book, or None when it does."""
    if players in get(game).seats:
        return None
    lang = language()
    return said_in("cli.players.problem", lang, players=players, game=game,
                  range=players_said(get(game), lang))  # fmt: skip


def make_referee(setup: Setup) -> TableReferee:
    """The referee of the journal's game."""
    return get(setup.game).referee(setup)
