"""The command line's language now, and the phrase books it says.

A part of the companion with words of its own for the command line (the configuration's
checks, enrolment, the doctor and its walk, the kit builder, the commands themselves)
declares them as a `Book` and says them through it, so that importing it adds nothing to
any catalogue; `companion.cli_words` names every book of the core in one table
(`cli_words.books`), which says a phrase given by its key. Below `companion.cli_words`
and every part with a book, above the OLED's catalogue only (`companion.screens.text`,
whose numbers and languages these phrases share).

The language is the table's, as the OLED's: ``--lang`` where a command has it, else
``$COMPANION_LANG``, else the configuration's ``[game] language``, else the environment's
locale, else French (`companion.cli_language.command_language`); `main` chooses it once
per run (`cli_words.speaking`, which sets `spoken`), like a process's locale.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from companion.screens.text import DEFAULT_LANGUAGE, LANGUAGES, check_lang, fill

LANG_ENV = "COMPANION_LANG"
"""The environment variable naming the command line's language (beaten only by --lang)."""
LOCALE_ENV = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The locale's variables, strongest first, as the C library reads them for messages."""

_spoken: str | None = None
"""The language `spoken` chose for this run (None: none chose one)."""


def language() -> str:
    """The language the command line speaks now: the run's (`spoken`, which `main` sets
    from the command, the environment and the configuration), else the environment's (a
    command's parts used on their own)."""
    return _spoken or environment_language()


def environment_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language ``$COMPANION_LANG`` names, else the locale's, else French."""
    given = environ.get(LANG_ENV, "")
    if given in LANGUAGES:
        return given
    return locale_language(environ) or DEFAULT_LANGUAGE


def locale_language(environ: Mapping[str, str] = os.environ) -> str | None:
    """The language of the locale's messages (``fr_FR.UTF-8`` is French), None for one
    the catalogue does not speak (``C``, ``de_DE``)."""
    for name in LOCALE_ENV:
        value = environ.get(name, "")
        if value:
            code = value[:2].lower()
            return code if code in LANGUAGES else None
    return None


@contextlib.contextmanager
def spoken(lang: str) -> Iterator[None]:
    """The command line speaks `lang` meanwhile."""
    global _spoken
    before = _spoken
    _spoken = check_lang(lang)
    try:
        yield
    finally:
        _spoken = before


@dataclass(frozen=True)
class Book:
    """One part's phrases for the command line, each (French, English) by its name, under
    `prefix` in the keys that name them elsewhere (``cli.cfg.`` + ``fix.port``)."""

    prefix: str
    pairs: Mapping[str, tuple[str, str]]

    def say(self, name: str, /, **fields: object) -> str:
        """The phrase `name` in the command line's language, filled in."""
        return self.said_in(name, language(), **fields)

    def said_in(self, name: str, lang: str, /, **fields: object) -> str:
        """The phrase `name` in `lang`, filled in (French writes its numbers 1,5)."""
        french, english = self.pairs[name]
        return fill(french if check_lang(lang) == "fr" else english, lang, fields)

    def keyed(self) -> dict[str, str]:
        """Each phrase's key (`prefix` and its name) -> its name."""
        return {self.prefix + name: name for name in self.pairs}
