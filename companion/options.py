"""What the commands' parsers share: argument types and the options every command spells
the same way.

An argument ``type=`` here refuses a bad value in one line that argparse prefixes with the
option (``argument --games: ...``) and exits 2. A duration the configuration also sets is
refused with the same bounds and words as `config check` (`seconds_option`,
`checked_option`).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion import config
from companion.cli_words import said, text_of
from companion.config.bounds import Seconds
from companion.config.data_dir import DATA_ENV, data_dir_unwritable, folder_problem
from companion.config.model import DEFAULT_DATA_DIR
from companion.screens.text import LANGUAGES


def fail(command: str, message: str) -> int:
    """One line on stderr naming the command, and the exit status of a bad input (2)."""
    print(said("cli.fail", command=command, message=message), file=sys.stderr)
    return 2


def seconds_option(bound: Seconds) -> Callable[[str], float]:
    """An argparse ``type=`` for an option setting a duration of the config: it refuses
    what `config check` refuses, with the same fix (argparse names the option)."""
    parse = checked_option(bound.check, bound.fix)
    parse.__name__ = "seconds"  # argparse's own message for a failed type names it
    return parse


def checked_option(check: Callable[[Any], Any], fix: str) -> Callable[[str], Any]:
    """An argparse ``type=`` for an option setting a value of the config (a game's own
    `TableSetting`): the typed text, a number when it reads as one, checked as the config
    checks it and refused with the same fix."""

    def parse(text: str) -> Any:
        try:
            value: Any = float(text)
        except ValueError:
            value = text
        checked = check(value)
        if checked is None:
            raise argparse.ArgumentTypeError(f"{text}: {text_of(fix)}")
        return checked

    parse.__name__ = "value"
    return parse


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=`` for a whole number in ``low..high`` (no upper bound: None);
    argparse prefixes its message with the option, e.g. ``argument --games: ...``."""

    def allowed() -> str:
        if high is None:
            return said("cli.type.whole_from", low=low)
        return said("cli.type.whole", low=low, high=high)

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                said("cli.type.not", text=repr(text), allowed=allowed())
            ) from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(said("cli.type.range", value=value, allowed=allowed()))
        return value

    parse.__name__ = "whole number"
    return parse


def positive_seconds(text: str) -> float:
    """An argparse ``type=`` for a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(said("cli.type.seconds", text=repr(text)))
    return value


def path_text(text: str) -> str:
    """An argparse ``type=`` for a file, folder or device path: not empty (``""`` would
    be read as the current folder, or silently as "not given")."""
    if not text:
        raise argparse.ArgumentTypeError(said("cli.type.path"))
    return text


path_text.__name__ = "path"


def output_file_problem(text: str) -> str | None:
    """Why a command cannot create (or overwrite) the file ``text`` names, in one line, or
    None: it names a folder, its folder is missing or is a file, or this user may not write
    there. A command creates the file it is given, never a missing folder above it."""
    path = Path(text)
    if text.endswith(os.sep) or path.is_dir():
        return said("cli.out.folder", text=text)
    folder = path.parent
    problem = folder_problem(folder)
    if problem is not None:
        return problem
    if not folder.is_dir():
        return said("cli.out.no_folder", folder=folder)
    if path.exists() and not os.access(path, os.W_OK):
        return said("cli.out.not_writable", path=path)
    return data_dir_unwritable(folder)


def output_folder_problem(text: str) -> str | None:
    """Why a command cannot write its files into the folder ``text`` names, in one line,
    or None. The folder itself is created if missing, never the folders above it."""
    path = Path(text)
    problem = folder_problem(path)
    if problem is not None:
        return problem
    if not path.exists() and not path.parent.is_dir():
        return said("cli.out.no_parent", path=path, parent=path.parent)
    return data_dir_unwritable(path)


def add_data_dir_option(parser: argparse.ArgumentParser) -> None:
    """The ``--data-dir DIR`` option, the same on every command that uses the directory."""
    parser.add_argument(
        "--data-dir",
        metavar=said("cli.metavar.dir"),
        type=path_text,
        default=None,
        help=said("cli.option.data_dir", env=DATA_ENV, default=DEFAULT_DATA_DIR),
    )


def add_config_option(parser: argparse.ArgumentParser) -> None:
    """The ``--config FILE`` option, the same on every command that reads the config."""
    parser.add_argument(
        "--config",
        metavar=said("cli.metavar.file"),
        type=path_text,
        default=None,
        help=said("cli.option.config", system=config.SYSTEM_CONFIG),
    )


def add_lang_option(parser: argparse.ArgumentParser, help_text: str) -> None:
    """``--lang fr|en``: given, the command line's language too (`command_language`); not
    given (None), the command line's language or, for `replay`, the journal's."""
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=help_text)
