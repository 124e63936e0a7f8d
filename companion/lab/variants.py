"""The lab's variants file: a small TOML file naming the rule variants to compare.

Its top-level keys (`game`, `players`, `bots`, `games`, `seed`, `rules`) are every
variant's defaults; each `[[variant]]` has a `name` and overrides any of them, its `rules`
by the names of the game's `[game.rules]` (docs/lab.md has the format and an example,
docs/lab.example.toml a whole file). Every mistake is one error naming the file, the
variant and the key.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, TypeGuard

from companion import games
from companion.cli_words import add_words, language, os_error
from companion.config.reading import MAX_TOML_BYTES
from companion.config.syntax import NotToml, toml_of
from companion.lab.model import LabGame, LabWords, Variant
from companion.report_words import FILE_SAYS, NAMES_SHOWN

KEYS = ("name", "game", "players", "bots", "games", "seed", "rules")
"""What a variant (or the file's top level, as defaults) may set."""
MAX_GAMES = 10_000_000
STUDIES = ("ladder", "restricted")
"""The tables of a file that are no variant: a skill ladder, restricted play."""


class VariantError(ValueError):
    """A variants file the lab cannot run; the message names the file and the key."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(FILE_SAYS.say("where", where=where, problem=problem))
        self.problem = problem
        """The sentence without the file and variant (selfplay has no file)."""


def load_lab(game: str) -> LabGame:
    """The game's part of the lab, its words added to the catalogue (as the registry adds
    a game's words for the table); ValueError naming the games that have one."""
    descriptor = games.get(game)
    if descriptor.lab is None:
        playable = [g for g in games.names() if games.get(g).lab is not None]
        raise ValueError(FILE_SAYS.say("cannot_play", game=game, games=", ".join(playable)))
    lab: LabGame = descriptor.lab()
    if lab.words is not None and id(lab.words) not in _ADDED:
        add_lab_words(lab.words)
        _ADDED[id(lab.words)] = lab.words
    return lab


_ADDED: dict[int, LabWords] = {}
"""The games' words already added, by identity (the lab loads a game's part again for
every chunk of games)."""


def add_lab_words(game: LabWords) -> None:
    """A game's words in the lab (`LabGame.words`) join the catalogue: its names as the
    report shows them (`companion.lab.words.shown`) and its sentences; a ValueError for a
    key the core or another game already says differently."""
    add_words(game.owner, {NAMES_SHOWN.prefix + name: pair for name, pair in game.names.items()})
    add_words(game.owner, {f"cli.lab.{game.owner}.{key}": pair
                           for key, pair in game.sentences.items()})  # fmt: skip


def read_variants(path: str | os.PathLike[str]) -> list[Variant]:
    """The variants of a file, checked by their games (VariantError otherwise)."""
    return parse_variants(read_toml(path), str(path))


def read_toml(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A variants file's TOML (VariantError naming the file when it cannot be read)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_TOML_BYTES + 1)  # not all of /dev/zero
    except OSError as exc:
        raise VariantError(str(path), _say("unreadable", why=os_error(exc))) from exc
    if len(raw) > MAX_TOML_BYTES:
        raise VariantError(str(path), _say("too_big", n=MAX_TOML_BYTES))
    try:
        return toml_of(raw)
    except NotToml as exc:
        raise VariantError(str(path), str(exc)) from exc


def parse_variants(data: Mapping[str, Any], name: str = "variants") -> list[Variant]:
    defaults = {k: v for k, v in data.items() if k not in ("variant", *STUDIES)}
    _known(defaults, _say("top", name=name), (*KEYS, "variant", *STUDIES))
    # A file may ask for a skill ladder or restricted play only (ladder.py, restricted.py).
    studies = any(study in data for study in STUDIES)
    tables = data.get("variant", [] if studies else [{}])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise VariantError(name, _say("tables"))
    if not tables and not studies:
        raise VariantError(name, _say("tables"))
    variants = []
    for number, table in enumerate(tables, start=1):
        where = _say("variant", name=name, n=number)
        _known(table, where, KEYS)
        variants.append(_variant({**defaults, **table}, where, number))
    names = [v.name for v in variants]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise VariantError(name, _say("twice", names=", ".join(map(repr, twice))))
    return variants


def read_study(
    data: Mapping[str, Any], key: str, name: str, keys: tuple[str, ...], own: tuple[str, ...]
) -> tuple[dict[str, Any], str, dict[str, Any]] | None:
    """A file's study table (`STUDIES`: ``[ladder]``, ``[restricted]``), None when it has
    none: (the table; where it is, for errors; the settings of its variants, the file's
    defaults under the table's keys but its `own`). VariantError naming a key it does
    not know."""
    table = data.get(key)
    if table is None:
        return None
    where = FILE_SAYS.say("where", where=name, problem=key)
    if not isinstance(table, dict):
        raise VariantError(where, _say("study_table", key=key))
    _known(table, where, keys)
    defaults = {k: data[k] for k in ("game", "players", "seed", "rules") if k in data}
    return table, where, {**defaults, **{k: v for k, v in table.items() if k not in own}}


def distinct_names(value: Any, least: int) -> TypeGuard[list[str]]:
    """Whether a study's list (rungs, restrictions) holds `least` or more different names."""
    return (
        isinstance(value, list)
        and len(value) >= least
        and all(isinstance(v, str) for v in value)
        and len(set(value)) == len(value)
    )


def _known(table: Mapping[str, Any], where: str, keys: tuple[str, ...]) -> None:
    unknown = sorted(set(table) - set(keys))
    if unknown:
        named = [_say("key", key=key) for key in keys]  # as typed: `game` in French prose
        raise VariantError(where, _say("unknown", keys=", ".join(unknown), known=", ".join(named)))


def _variant(values: Mapping[str, Any], where: str, number: int) -> Variant:
    game = values.get("game")
    if not isinstance(game, str) or game not in games.names():
        raise VariantError(where, _say("game", games=", ".join(games.names())))
    try:
        lab = load_lab(game)
        descriptor = games.get(game)
    except ValueError as exc:
        raise VariantError(where, _say("game_problem", problem=exc)) from exc
    players = values.get("players", descriptor.default_seats)
    if not _whole(players) or players not in descriptor.seats:
        players_said = games.players_said(descriptor, language())
        raise VariantError(where, _say("players", title=descriptor.title, players=players_said))
    bots = values.get("bots", [descriptor.bots[0]])
    if isinstance(bots, str):
        bots = [bots]
    if not isinstance(bots, list) or not bots or not all(isinstance(b, str) for b in bots):
        raise VariantError(where, _say("bots", kinds=", ".join(descriptor.bots)))
    if len(bots) not in (1, players):
        raise VariantError(where, _say("bots_count", n=players))
    count = values.get("games", 1000)
    if not _whole(count) or not 1 <= count <= MAX_GAMES:
        raise VariantError(where, _say("games", most=MAX_GAMES))
    seed = values.get("seed", 1)
    if not _whole(seed):
        raise VariantError(where, _say("seed"))
    rules = values.get("rules", {})
    if not isinstance(rules, dict):
        raise VariantError(where, _say("rules"))
    label = values.get("name", _say("default_name", n=number))
    if not isinstance(label, str) or not label.strip():
        raise VariantError(where, _say("name"))
    variant = Variant(
        name=label.strip(),
        game=game,
        players=players,
        bots=tuple(bots * players if len(bots) == 1 else bots),
        games=count,
        seed=seed,
        rules=rules,
    )
    try:
        lab.check(variant)
    except ValueError as exc:
        raise VariantError(_say("named", where=where, name=variant.name), str(exc)) from exc
    return variant


def _say(key: str, /, **fields: object) -> str:
    return FILE_SAYS.say(key, **fields)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
