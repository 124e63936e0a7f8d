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
from companion.config.bounds import Seconds
from companion.config.data_dir import DATA_DIR_HELP, data_dir_unwritable, folder_problem


def fail(command: str, message: str) -> int:
    """One line on stderr naming the command, and the exit status of a bad input (2)."""
    print(f"companion {command}: {message}", file=sys.stderr)
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
            raise argparse.ArgumentTypeError(f"{text}: {fix}")
        return checked

    parse.__name__ = "value"
    return parse


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=`` for a whole number in ``low..high`` (no upper bound: None);
    argparse prefixes its message with the option, e.g. ``argument --games: ...``."""
    allowed = (
        f"a whole number from {low} to {high}" if high is not None else (f"a whole number >= {low}")
    )

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {allowed}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{value} is out of range: give {allowed}")
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
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds above 0")
    return value


def path_text(text: str) -> str:
    """An argparse ``type=`` for a file, folder or device path: not empty (``""`` would
    be read as the current folder, or silently as "not given")."""
    if not text:
        raise argparse.ArgumentTypeError("an empty string names no file or folder")
    return text


path_text.__name__ = "path"


def output_file_problem(text: str) -> str | None:
    """Why a command cannot create (or overwrite) the file ``text`` names, in one line, or
    None: it names a folder, its folder is missing or is a file, or this user may not write
    there. A command creates the file it is given, never a missing folder above it."""
    path = Path(text)
    if text.endswith(os.sep) or path.is_dir():
        return f"{text} is a folder: give a file name"
    folder = path.parent
    problem = folder_problem(folder)
    if problem is not None:
        return problem
    if not folder.is_dir():
        return f"there is no folder {folder}: create it first, or give another"
    if path.exists() and not os.access(path, os.W_OK):
        return f"{path} is not writable by this user"
    return data_dir_unwritable(folder)


def output_folder_problem(text: str) -> str | None:
    """Why a command cannot write its files into the folder ``text`` names, in one line,
    or None. The folder itself is created if missing, never the folders above it."""
    path = Path(text)
    problem = folder_problem(path)
    if problem is not None:
        return problem
    if not path.exists() and not path.parent.is_dir():
        return f"{path}: there is no folder {path.parent} to create it in: create that first"
    return data_dir_unwritable(path)


def add_data_dir_option(parser: argparse.ArgumentParser) -> None:
    """The ``--data-dir DIR`` option, the same on every command that uses the directory."""
    parser.add_argument(
        "--data-dir", metavar="DIR", type=path_text, default=None, help=DATA_DIR_HELP
    )


def add_config_option(parser: argparse.ArgumentParser) -> None:
    """The ``--config FILE`` option, the same on every command that reads the config."""
    parser.add_argument(
        "--config",
        metavar="FILE",
        type=path_text,
        default=None,
        help=f"the configuration (default: $COMPANION_CONFIG, else {config.SYSTEM_CONFIG}, "
        "else ./companion.toml, else built-in defaults); docs/companion.example.toml "
        "documents it",
    )
