"""What the commands' parsers share: argument types and the options every command spells
the same way.

An argument ``type=`` here refuses a bad value in one line that argparse prefixes with the
option (``argument --games: ...``) and exits 2. A duration the configuration also sets is
refused with the same bounds and words as `config check` (`seconds_option`).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import Any

from companion import config
from companion.config.bounds import Seconds
from companion.config.data_dir import DATA_DIR_HELP


def fail(command: str, message: str) -> int:
    """One line on stderr naming the command, and the exit status of a bad input (2)."""
    print(f"companion {command}: {message}", file=sys.stderr)
    return 2


def seconds_option(bound: Seconds) -> Callable[[str], float]:
    """An argparse ``type=`` for an option setting a duration of the config: it refuses
    what `config check` refuses, with the same fix (argparse names the option)."""

    def parse(text: str) -> float:
        try:
            value: Any = float(text)
        except ValueError:
            value = text
        checked = bound.check(value)
        if checked is None:
            raise argparse.ArgumentTypeError(f"{text}: {bound.fix}")
        return checked

    parse.__name__ = "seconds"  # argparse's own message for a failed type names it
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


def add_data_dir_option(parser: argparse.ArgumentParser) -> None:
    """The ``--data-dir DIR`` option, the same on every command that uses the directory."""
    parser.add_argument("--data-dir", metavar="DIR", default=None, help=DATA_DIR_HELP)


def add_config_option(parser: argparse.ArgumentParser) -> None:
    """The ``--config FILE`` option, the same on every command that reads the config."""
    parser.add_argument(
        "--config",
        metavar="FILE",
        default=None,
        help=f"the configuration (default: $COMPANION_CONFIG, else {config.SYSTEM_CONFIG}, "
        "else ./companion.toml, else built-in defaults); docs/companion.example.toml "
        "documents it",
    )
