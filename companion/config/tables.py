"""`parse_config`: the TOML file's tables checked one by one into a `Config`.

One function per table ([game], [paths], [display], [controls], [readers]), then the pin
map the controls need. Every problem is one line ``<file>: <key>: <what is wrong> (<the
fix>)``; all of them are reported at once (``ConfigError.problems``), so a table owner
fixes the file in one go. A key whose check is a plain value check is a `Rule` in the
table's ``*_RULES``: its order there is the order its problems are reported in.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion import games
from companion import journal_fields as fields
from companion.cli_words import language, text_of
from companion.config.bounds import SETTLE
from companion.config.club_table import parse_club
from companion.config.data_dir import expand
from companion.config.model import (
    DEFAULT_DATA_DIR,
    DISPLAY_DRIVERS,
    LANGUAGES,
    READER_KINDS,
    ROTATIONS,
    Config,
    ConfigError,
    ControlsConfig,
    DisplayConfig,
    GameConfig,
    PinMap,
    ReadersConfig,
    WebConfig,
)
from companion.config.pins import MAX_GPIO, check_pins, default_pins, load_pins
from companion.config.reading import (
    Checker,
    Rule,
    boolean,
    choice,
    choices,
    float_in,
    host_address,
    int_in,
    text,
)
from companion.config.sound_table import parse_sound
from companion.config.words import fix, say
from companion.screens.text import default_seat_names

TABLES = {"schema", "game", "paths", "display", "controls", "readers", "web", "sound", "club"}
GAME_KEYS = {"name", "seats", "first", "settle", "language", "seed", "layout", "rules"}
"""The [game] keys of every game; the registered games add their own (`_settings`)."""
GAME_RULES: dict[str, Rule] = {
    "settle": (SETTLE.check, SETTLE.fix),
    "language": (choice(LANGUAGES), fix("language")),
    "seed": (int_in(0, 2**63 - 1), fix("seed")),
}
DISPLAY_RULES: dict[str, Rule] = {
    "driver": (choice(DISPLAY_DRIVERS), fix("driver")),
    "i2c_bus": (int_in(0, 22), fix("i2c_bus")),
    "address": (int_in(0x03, 0x77), fix("address")),
    "rotation": (choice(ROTATIONS), fix("rotation")),
    "contrast": (int_in(0, 255), fix("contrast")),
}
CONTROLS_RULES: dict[str, Rule] = {
    "enabled": (boolean, fix("boolean")),
    "bounce_ms": (int_in(1, 200), fix("bounce_ms")),
    "long_press_ms": (int_in(200, 5000), fix("long_press_ms")),
}
READERS_RULES: dict[str, Rule] = {
    "kind": (choice(READER_KINDS), fix("kind")),
    "port": (text, fix("port")),
    "settle_us": (int_in(0, 20000), fix("settle_us")),
}
READERS_KEYS = {*READERS_RULES, "spi_spots", "spi_rst", "resume_wait"}
WEB_RULES: dict[str, Rule] = {
    "enabled": (boolean, fix("web_enabled")),
    "host": (host_address, fix("host")),
    "port": (int_in(1, 65535), fix("web_port")),
    "pairing_hours": (float_in(0, 720), fix("pairing_hours")),
}


def parse_config(data: Mapping[str, Any], source: Path | None = None) -> Config:
    """A validated `Config` from parsed TOML; raises `ConfigError` listing every problem."""
    c = Checker(str(source) if source else "companion.toml", data)
    base = source.parent if source else Path.cwd()
    c.unknown("", data, TABLES)
    c.get(data, "schema", 1, choice((1,)), fix("schema"))
    game = _game(c)
    data_dir, pins_path = _paths(c, base)
    display = _display(c)
    controls = _controls(c)
    readers = _readers(c)
    web = _web(c)
    sound = parse_sound(c)
    club = parse_club(c, base)
    pins: PinMap | None = None
    if controls.enabled and not c.problems:
        pins_path, pins = _pin_map(c, pins_path or default_pins(base), game, display, readers)
    if c.problems:
        raise ConfigError(c.problems)
    return Config(
        game, data_dir, pins_path, display, controls, readers, pins, source, web, sound, club
    )


def _game(c: Checker) -> GameConfig:
    """[game]: which game, its seats, its first player, its times, its language."""
    g = c.table("game")
    default = GameConfig()
    # A built-in game's name is checked without scanning the installed distributions for
    # other games (a start pays for it otherwise: 25 ms of CPU here, 0.13 s on a Pi 4).
    asked = g.get("name", default.name)
    built_in = isinstance(asked, str) and asked in games.BUILT_IN
    known = tuple(games.BUILT_IN) if built_in else games.names()
    name = c.get(g, "game.name", default.name, choice(known), say("choose", options=choices(known)))
    own = games.settings_of(name, set(g) - GAME_KEYS)
    c.unknown("game.", g, GAME_KEYS | set(own))
    values = c.values(g, "game", default, GAME_RULES)
    seats = _seats(c, g, values.get("language", default.language))
    first = c.get(
        g,
        "game.first",
        1,
        int_in(1, len(seats)),
        say("first", n=len(seats)),
    )
    settings = _settings(c, g, own)
    layout = _layout(c, name, _as_json(c, "game.layout", g.get("layout")))
    rules = _as_json(c, "game.rules", g.get("rules"))
    if rules is not None and not isinstance(rules, Mapping):
        c.bad("game.rules", rules, say("rules_table"))
        rules = None
    if not c.problems:
        _check_game(c, name, g.get("seats"), len(seats), first - 1, layout)
    if not c.problems and rules is not None:
        _check_rules(c, name, seats, rules)
    if layout is not None:
        settings["layout"] = layout
    return GameConfig(
        name, seats, first - 1, settings=settings,
        rules=None if rules is None else dict(rules), **values,
    )  # fmt: skip


def _settings(
    c: Checker, g: Mapping[str, Any], own: Mapping[str, games.TableSetting]
) -> dict[str, Any]:
    """The [game] keys of some games only (`GameConfig.settings`), each checked as the
    game that declares it says (`companion.games.TableSetting`), else its default."""
    return {
        name: c.get(g, f"game.{name}", setting.default, setting.check, setting.fix)
        for name, setting in own.items()
    }


def _as_json(c: Checker, key: str, value: Any) -> Any:
    """``value`` when the journal can record it (its setup line is JSON, read back
    strictly: `companion.journal_fields.json_value`), else None with the problem."""
    try:
        return fields.json_value(key, value)
    except fields.FieldError as exc:
        why = str(exc).removeprefix(f"{key!r} ")
        c.bad(key, value, say("as_json", why=why, depth=fields.MAX_DEPTH))
        return None


def _check_rules(c: Checker, name: str, seats: tuple[str, ...], rules: Mapping[str, Any]) -> None:
    """game.rules: the game's own rule settings (docs/rulings.md), checked by its referee."""
    from companion.journal import Setup

    try:
        games.get(name).referee(Setup(game=name, seats=seats, tags={}, rules=dict(rules)))
    except ValueError as exc:
        c.bad("game.rules", dict(rules), say("rules", why=exc))


LONGEST_SEAT_NAME = 64
"""Characters of a seat's name: any player's, and within what a club's board takes of a
table (docs/club.md, "What one table can do")."""


def _seats(c: Checker, g: Mapping[str, Any], lang: str) -> tuple[str, ...]:
    """game.seats: names clockwise from seat 1, or a number of seats (named in the table's
    language `lang`, as its menu names them)."""
    default = default_seat_names(len(GameConfig().seats), lang)
    if "seats" not in g:
        return default
    raw = g["seats"]
    if isinstance(raw, int) and not isinstance(raw, bool) and 2 <= raw <= 6:
        return default_seat_names(raw, lang)
    if (
        isinstance(raw, list)
        and 2 <= len(raw) <= 6
        and all(isinstance(s, str) and 0 < len(s.strip()) <= LONGEST_SEAT_NAME for s in raw)
        and len({s.strip() for s in raw}) == len(raw)
    ):
        return tuple(s.strip() for s in raw)
    c.bad("game.seats", raw, say("seats", longest=LONGEST_SEAT_NAME))
    return default


def _layout(c: Checker, name: str, layout: Any) -> Mapping[str, Any] | None:
    """game.layout: the positions of the game's spots, when not the book's; the game checks
    them (its descriptor's `own_layout`; one that takes none refuses any in `check`)."""
    if layout is None:
        return None
    if not isinstance(layout, Mapping):
        c.bad("game.layout", layout, say("layout_table"))
        return None
    check = games.get(name).own_layout
    try:
        if check is not None:
            check(layout)
    except ValueError as exc:
        c.bad("game.layout", layout, str(exc))
        return None
    return dict(layout)


def _check_game(
    c: Checker,
    name: str,
    raw_seats: Any,
    seats: int,
    first: int,
    layout: Mapping[str, Any] | None,
) -> None:
    """Does the game itself accept this many seats, this first player, this layout?"""
    allowed = games.get(name).seats
    if seats not in allowed:
        players = games.players_said(games.get(name), language())
        c.bad("game.seats", raw_seats, say("seats_for", game=name, players=players))
        return
    try:
        games.get(name).check(seats, first, layout)
    except ValueError as exc:
        c.bad("game", name, f"{exc}")


def _paths(c: Checker, base: Path) -> tuple[Path, Path | None]:
    """[paths]: (the data directory, the pin map named, if any), relative to ``base``."""
    p = c.table("paths")
    c.unknown("paths.", p, {"data_dir", "pins"})
    data_dir = _path(c, p, base, "paths.data_dir", DEFAULT_DATA_DIR, fix("data_dir"))
    pins = _path(c, p, base, "paths.pins", None, fix("pins"))
    return data_dir or _resolve(base, DEFAULT_DATA_DIR), pins


def _path(
    c: Checker, p: Mapping[str, Any], base: Path, key: str, default: str | None, fix: str
) -> Path | None:
    """The path at ``key``, ``~`` expanded and relative to ``base``; checked as the
    commands check theirs (`expand`), so a path `run` would refuse is refused here."""
    raw = c.get(p, key, default, lambda v: v if isinstance(v, str) and v.strip() else None, fix)
    if raw is None:
        return None
    try:
        return _resolve(base, raw)
    except ValueError as exc:
        c.bad(key, raw, say("path", why=exc, fix=text_of(fix)))
        return None


def _resolve(base: Path, text: str) -> Path:
    path = expand(text)
    return path if path.is_absolute() else base / path


def _display(c: Checker) -> DisplayConfig:
    """[display]: the OLED's driver, bus, address, rotation and contrast."""
    d = c.table("display")
    c.unknown("display.", d, set(DISPLAY_RULES))
    return DisplayConfig(**c.values(d, "display", DisplayConfig(), DISPLAY_RULES))


def _controls(c: Checker) -> ControlsConfig:
    """[controls]: the buttons and the encoder on the Pi's GPIO."""
    k = c.table("controls")
    c.unknown("controls.", k, set(CONTROLS_RULES))
    return ControlsConfig(**c.values(k, "controls", ControlsConfig(), CONTROLS_RULES))


def _web(c: Checker) -> WebConfig:
    """[web]: the table's web page: on or off, where it listens."""
    w = c.table("web")
    c.unknown("web.", w, set(WEB_RULES))
    return WebConfig(**c.values(w, "web", WebConfig(), WEB_RULES))


def _readers(c: Checker) -> ReadersConfig:
    """[readers]: on a Pico, on the Pi's SPI, or none."""
    r = c.table("readers")
    c.unknown("readers.", r, READERS_KEYS)
    default = ReadersConfig()
    values = c.values(r, "readers", default, READERS_RULES)
    spi_spots, spi_rst = _spi(c, r, values["kind"])
    resume_wait = c.get(
        r,
        "readers.resume_wait",
        default.resume_wait,
        float_in(0.0, 30.0),
        fix("resume_wait"),
    )
    return ReadersConfig(spi_spots=spi_spots, spi_rst=spi_rst, resume_wait=resume_wait, **values)


def _spi(
    c: Checker, r: Mapping[str, Any], kind: str
) -> tuple[tuple[tuple[int, int], ...], int | None]:
    """readers.spi_spots and readers.spi_rst, which readers on the Pi's SPI both need."""
    spi_spots = _spi_spots(c, r)
    spi_rst = c.get(
        r,
        "readers.spi_rst",
        None,
        int_in(0, MAX_GPIO),
        say("spi_rst", max=MAX_GPIO),
    )
    if kind == "spi" and (not spi_spots or spi_rst is None):
        c.problems.append(say("spi_needs", name=c.name))
    return spi_spots, spi_rst


def _spi_spots(c: Checker, r: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    """readers.spi_spots: one [bus, device] pair per reader, the pad first."""
    if "spi_spots" not in r:
        return ()
    raw = r["spi_spots"]
    if (
        isinstance(raw, list)
        and raw
        and all(
            isinstance(x, list) and len(x) == 2 and all(int_in(0, 6)(v) is not None for v in x)
            for x in raw
        )
    ):
        return tuple((int(b), int(dv)) for b, dv in raw)
    c.bad("readers.spi_spots", raw, fix("spi_spots"))
    return ()


def _pin_map(
    c: Checker,
    path: Path | None,
    game: GameConfig,
    display: DisplayConfig,
    readers: ReadersConfig,
) -> tuple[Path | None, PinMap | None]:
    """The pin map the enabled controls need, checked against the game's seats and the
    buses in use: (its path, the map; None when it has problems, which ``c`` records)."""
    if path is None:
        c.problems.append(say("no_pins", name=c.name))
        return None, None
    try:
        pins = load_pins(path, game.name, game.language)
        check_pins(pins, len(game.seats), display, readers, str(path), game.name)
    except ConfigError as exc:
        c.problems.extend(exc.problems)
        return path, None
    return path, pins
