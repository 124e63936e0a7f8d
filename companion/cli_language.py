"""Which language a command speaks: ``--lang``, else ``$COMPANION_LANG``, else the
configuration's ``[game] language``, else the locale's, else French. Above the
configuration (it reads the file), where `companion.cli_words` is below everything that
speaks."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from companion.cli_words import LANG_ENV, locale_language
from companion.config import find_config
from companion.config.model import ConfigError
from companion.config.reading import MAX_TOML_BYTES, parse_toml
from companion.screens.text import DEFAULT_LANGUAGE, LANGUAGES


def command_language(argv: Sequence[str], environ: Mapping[str, str] = os.environ) -> str:
    """The language of `companion ARGV` (see the module's docstring)."""
    for given in (_option(argv, "--lang"), environ.get(LANG_ENV, "")):
        if given in LANGUAGES:
            return given
    config = _option(argv, "--config") or environ.get("COMPANION_CONFIG") or None
    return table_language(config) or locale_language(environ) or DEFAULT_LANGUAGE


def table_language(config: str | None = None) -> str | None:
    """The ``[game] language`` of the configuration every command reads (``--config``,
    ``$COMPANION_CONFIG``, /etc/companion/companion.toml, ./companion.toml): French when
    the file leaves it out, as the table does; None with no file, or one that cannot be
    read (its command says why)."""
    path = find_config(config)
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            data = parse_toml(f.read(MAX_TOML_BYTES + 1), str(path))
    except (OSError, ConfigError):
        return None
    game = data.get("game")
    lang = game.get("language", DEFAULT_LANGUAGE) if isinstance(game, dict) else DEFAULT_LANGUAGE
    return lang if lang in LANGUAGES else None


def _option(argv: Sequence[str], name: str) -> str | None:
    """The value of ``name VALUE`` or ``name=VALUE`` in `argv`, before any ``--``."""
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == name and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith(name + "="):
            return word[len(name) + 1 :]
    return None
