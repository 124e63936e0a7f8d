"""The lab's variants file: a small TOML file naming the rule variants to compare.

Its top-level keys (`game`, `players`, `bots`, `games`, `seed`, `rules`) are every
variant's defaults; each `[[variant]]` has a `name` and overrides any of them, its `rules`
by the names of the game's `[game.rules]` (docs/lab.md has the format and an example,
docs/lab.example.toml a whole file). Every mistake is one error naming the file, the
variant and the key.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from typing import Any, TypeGuard

from companion import games
from companion.config.reading import MAX_TOML_BYTES
from companion.lab.model import LabGame, Variant

KEYS = ("name", "game", "players", "bots", "games", "seed", "rules")
"""What a variant (or the file's top level, as defaults) may set."""
MAX_GAMES = 10_000_000
STUDIES = ("ladder", "restricted")
"""The tables of a file that are no variant: a skill ladder, restricted play."""


class VariantError(ValueError):
    """A variants file the lab cannot run; the message names the file and the key."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.problem = problem
        """The sentence without the file and variant (selfplay has no file)."""


def load_lab(game: str) -> LabGame:
    """The game's part of the lab; ValueError naming the games that have one."""
    descriptor = games.get(game)
    if descriptor.lab is None:
        playable = [g for g in games.names() if games.get(g).lab is not None]
        raise ValueError(f"the lab cannot play {game}; it plays {', '.join(playable)}")
    lab: LabGame = descriptor.lab()
    return lab


def read_variants(path: str | os.PathLike[str]) -> list[Variant]:
    """The variants of a file, checked by their games (VariantError otherwise)."""
    return parse_variants(read_toml(path), str(path))


def read_toml(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A variants file's TOML (VariantError naming the file when it cannot be read)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_TOML_BYTES + 1)  # not all of /dev/zero
    except OSError as exc:
        raise VariantError(str(path), f"cannot read it: {exc.strerror or exc}") from exc
    if len(raw) > MAX_TOML_BYTES:
        raise VariantError(
            str(path), f"more than {MAX_TOML_BYTES} bytes, too big for a variants file"
        )
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # TOMLDecodeError, UnicodeDecodeError...
        raise VariantError(str(path), f"not a TOML file: {exc}") from exc


def parse_variants(data: Mapping[str, Any], name: str = "variants") -> list[Variant]:
    defaults = {k: v for k, v in data.items() if k not in ("variant", *STUDIES)}
    _known(defaults, f"{name}: top level", (*KEYS, "variant", *STUDIES))
    # A file may ask for a skill ladder or restricted play only (ladder.py, restricted.py).
    studies = any(study in data for study in STUDIES)
    tables = data.get("variant", [] if studies else [{}])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise VariantError(name, "'variant' must be tables written [[variant]]")
    if not tables and not studies:
        raise VariantError(name, "'variant' must be tables written [[variant]]")
    variants = []
    for number, table in enumerate(tables, start=1):
        where = f"{name}: variant {number}"
        _known(table, where, KEYS)
        variants.append(_variant({**defaults, **table}, where, number))
    names = [v.name for v in variants]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise VariantError(name, f"two variants are named {', '.join(map(repr, twice))}")
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
    where = f"{name}: {key}"
    if not isinstance(table, dict):
        raise VariantError(where, f"write it as a table, [{key}]")
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
        raise VariantError(where, f"unknown key {', '.join(unknown)}; keys are {', '.join(keys)}")


def _variant(values: Mapping[str, Any], where: str, number: int) -> Variant:
    game = values.get("game")
    if not isinstance(game, str):
        raise VariantError(where, f"'game' must name a game: {', '.join(games.names())}")
    try:
        lab = load_lab(game)
        descriptor = games.get(game)
    except ValueError as exc:
        raise VariantError(where, f"game: {exc}") from exc
    players = values.get("players", descriptor.default_seats)
    if not _whole(players) or players not in descriptor.seats:
        raise VariantError(
            where, f"players: {descriptor.title} is for {games.players_said(descriptor)}"
        )
    bots = values.get("bots", [descriptor.bots[0]])
    if isinstance(bots, str):
        bots = [bots]
    if not isinstance(bots, list) or not bots or not all(isinstance(b, str) for b in bots):
        raise VariantError(where, f"bots: a list of bot kinds ({', '.join(descriptor.bots)})")
    if len(bots) not in (1, players):
        raise VariantError(where, f"bots: one kind for every seat, or {players} (one a seat)")
    count = values.get("games", 1000)
    if not _whole(count) or not 1 <= count <= MAX_GAMES:
        raise VariantError(where, f"games: a whole number from 1 to {MAX_GAMES:,}")
    seed = values.get("seed", 1)
    if not _whole(seed):
        raise VariantError(where, "seed: a whole number")
    rules = values.get("rules", {})
    if not isinstance(rules, dict):
        raise VariantError(where, "rules: a table of engine settings")
    label = values.get("name", f"variant {number}")
    if not isinstance(label, str) or not label.strip():
        raise VariantError(where, "name: a non-empty string")
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
        raise VariantError(f"{where} ({variant.name})", str(exc)) from exc
    return variant


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
