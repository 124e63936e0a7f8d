"""`companion config check`: validate the configuration, or say every problem and its fix.

A valid configuration is summarised (`describe`) with the data directory the commands
resolve, so a table owner sees what the service will use. Exit status: 0 valid, 1 problems
in the configuration, 2 a bad option.
"""

from __future__ import annotations

import argparse
import sys

from companion import games
from companion.cli_words import said, text_of
from companion.config import load_config
from companion.config.data_dir import (
    DataDir,
    data_dir_unwritable,
    folder_problem,
    locate_data_dir,
)
from companion.config.model import (
    OLED_DRIVERS,
    Config,
    ConfigError,
    DisplayConfig,
    GameConfig,
    ReadersConfig,
)
from companion.config.pins import undeclared_buttons
from companion.config.unit_network import unit_network
from companion.config.words import say
from companion.options import add_config_option, add_data_dir_option, fail


def describe(config: Config, data: DataDir | None = None) -> list[str]:
    """A short summary of a valid configuration, for `config check`; ``data`` is the
    data directory the commands resolve (default: the config's own)."""
    data = data or locate_data_dir(config)
    lines = [
        say("sum.config", source=config.source or say("sum.defaults")),
        _game_line(config.game),
        say("sum.data", path=data.path, origin=data.origin),
        _display_line(config.display),
        _controls_line(config),
        _readers_line(config.readers),
        config.sound.summary(),
    ]
    if config.club is not None:
        lines.append(config.club.summary())
    lines.append(unit_network(config).summary())
    if not config.hardware:
        lines.append(say("sum.no_hardware"))
    return lines


def _game_line(g: GameConfig) -> str:
    """The game, its seats and times, with the registered games' own [game] keys."""
    own = [
        text_of(setting.shown, value=g.settings.get(name, setting.default))
        for name, setting in games.settings_of(g.name, g.settings).items()
    ]
    parts = [say("sum.seats", n=len(g.seats), names=", ".join(g.seats)),
             say("sum.first", n=g.first + 1), say("sum.settle", seconds=g.settle), *own,
             say("sum.language", lang=g.language)]  # fmt: skip
    return say("sum.game", name=g.name, parts=", ".join(parts))


def _display_line(d: DisplayConfig) -> str:
    if d.driver in OLED_DRIVERS:
        return say("sum.oled", driver=d.driver, bus=d.i2c_bus, address=d.address,
                   rotation=d.rotation, contrast=d.contrast)  # fmt: skip
    return say("sum.display", driver=d.driver)


def _controls_line(config: Config) -> str:
    if config.controls.enabled and config.pins is not None:
        k = config.controls
        return say("sum.controls", path=config.pins_path, bounce=k.bounce_ms,
                   long=k.long_press_ms)  # fmt: skip
    return say("sum.no_controls")


def _readers_line(r: ReadersConfig) -> str:
    if r.kind == "pico":
        return say("sum.pico", port=r.port)
    if r.kind == "spi":
        return say("sum.spi", n=len(r.spi_spots))
    return say("sum.no_readers")


def _check_buttons(config: Config) -> None:
    """The pin map's seat buttons that are not the configured game's, held to every
    game's (a misspelt key): the games are loaded only when there is such a button."""
    pins = config.pins
    if pins is None or set(pins.seats) <= {b.name for b in games.get(config.game.name).buttons}:
        return
    problems = undeclared_buttons(pins, str(config.pins_path), config.game.language)
    if problems:
        raise ConfigError(problems)


def _check_command(args: argparse.Namespace) -> int:
    """`companion config check`: 0 valid, 1 the configuration has problems, 2 a bad
    ``--data-dir``."""
    try:
        config = load_config(args.config)
        _check_buttons(config)
    except ConfigError as exc:
        for line in exc.problems:
            print(said("cli.check.error", problem=line), file=sys.stderr)
        print(said("cli.check.problems", n=len(exc.problems)), file=sys.stderr)
        return 1
    data = locate_data_dir(config, args.data_dir)
    problem = folder_problem(data.path)
    if problem is not None:
        if data.origin == "--data-dir":
            return fail("config check", f"--data-dir {problem}")
        print(said("cli.check.error", problem=f"{data.origin}: {problem}"), file=sys.stderr)
        print(said("cli.check.problems", n=1), file=sys.stderr)
        return 1
    for line in describe(config, data):
        print(line)
    unwritable = data_dir_unwritable(data.path)
    if unwritable is not None:
        print(said("cli.check.note", problem=unwritable))
    print(said("cli.check.ok"))
    return 0


def add_config_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion config check`` to ``subparsers`` (``func`` returns the exit code)."""
    p = subparsers.add_parser(
        "config", help=said("cli.summary.config"), description=said("cli.config.description")
    )
    sub = p.add_subparsers(dest="config_command", required=True)
    check = sub.add_parser(
        "check", help=said("cli.check.help"), description=said("cli.check.description")
    )
    add_config_option(check)
    add_data_dir_option(check)
    check.set_defaults(func=_check_command)
