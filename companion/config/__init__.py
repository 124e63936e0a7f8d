"""The table profile: one TOML file, validated at start, every error naming its fix.

Where it is looked for (`find_config`): `--config FILE`, else `$COMPANION_CONFIG`, else
``/etc/companion/companion.toml`` (a Raspberry Pi), else ``./companion.toml``; with none
of them the defaults apply and, as no hardware is configured, ``companion run`` simulates
the table. ``docs/companion.example.toml`` documents every key.

This module finds and reads the file (`load_config`); the rest of the package, one job a
module:

- ``model``: the dataclasses a valid file becomes (`Config`...) and `ConfigError`.
- ``tables``: `parse_config`, one function per TOML table.
- ``reading``: the `Checker` that reads typed values and words each problem.
- ``bounds``: the durations a command line option also sets (``SETTLE``), their bounds
  and fix written once. A game's own ``[game]`` keys are its `companion.games.TableSetting`s.
- ``pins``: the pin map (``hardware/pins.toml``) and its clashes.
- ``data_dir``: the one data directory of every command.
- ``check``: the `companion config check` command.
- ``install_facts``: what systemd/install.sh needs to know of a file (``KEY=VALUE``).
- ``unit_network``: what the installed service's network lets through, for the web page
  and the club's broker.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from companion.cli_words import os_error
from companion.config.model import Config, ConfigError, ControlsConfig, DisplayConfig, ReadersConfig
from companion.config.reading import MAX_TOML_BYTES, parse_toml
from companion.config.tables import parse_config
from companion.config.words import say

SYSTEM_CONFIG = Path("/etc/companion/companion.toml")
LOCAL_CONFIG = Path("companion.toml")


def find_config(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """The config file to use (see the module docstring), or None for the defaults."""
    if explicit is not None:
        return Path(explicit)
    env = os.environ.get("COMPANION_CONFIG")
    if env:
        return Path(env)
    for candidate in (SYSTEM_CONFIG, LOCAL_CONFIG):
        if candidate.is_file():
            return candidate
    return None


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """Find, read and validate the configuration; `ConfigError` on any problem."""
    source = find_config(path)
    if source is None:
        return Config(
            display=DisplayConfig(driver="dummy"),
            controls=ControlsConfig(enabled=False),
            readers=ReadersConfig(kind="none"),
            data_dir=Path.home() / ".local" / "share" / "companion",
        )
    return parse_config(_read_toml(source), source.resolve())


def _read_toml(source: Path) -> dict[str, Any]:
    """The parsed file; `ConfigError` saying how to fix a file that cannot be read."""
    try:
        with open(source, "rb") as f:
            raw = f.read(MAX_TOML_BYTES + 1)  # not all of /dev/zero
    except FileNotFoundError as exc:
        raise ConfigError([say("no_file", name=source)]) from exc
    except OSError as exc:
        raise ConfigError([say("cannot_read", name=source, why=os_error(exc))]) from exc
    return parse_toml(raw, str(source))
