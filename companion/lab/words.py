"""The lab's report in the command line's language: its sentences (`say`), a variant's
rules (`rules_said`) and the names it shows (`shown`), from the lab's phrase books
(`companion.report_words`) and each game's lab words.

A figure, a section, a ruling's special case and a restriction keep one name whatever
the language: the name a game's lab gives it (English), by which the report finds it and
figures.json and figures.csv write it (a script reads them the same in any language).
The report shows each through `shown`: its words in the run's language, which the core
(`companion.report_words.NAMES`) and each game (its `LabGame.words`, which
`companion.lab.variants.load_lab` adds to the catalogue when the lab loads the game)
give; a name no table gives (a game that speaks one language) is shown as it is.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.cli_words import language, numeral
from companion.report_words import NAMES, NAMES_SHOWN, REPORT_SAYS
from companion.screens.text import phrase


def rules_said(rules: Mapping[str, object]) -> str:
    """A variant's rules as they are set ("turn_limit = 30, window = timed"), a number as
    the command line's language writes it ("window_seconds = 6,0 ; doublon_min = 2,0")."""
    return say("rules_apart").join(f"{key} = {_value(value)}" for key, value in rules.items())


def _value(value: object) -> str:
    if isinstance(value, float):
        return numeral(value, "")  # as it is set: 6.0 (6,0 in French)
    return str(value)


def say(key: str, /, **fields: object) -> str:
    """The report's sentence `key` in the command line's language."""
    return REPORT_SAYS.say(key, **fields)


def shown(name: str) -> str:
    """A figure's, section's, ruling's or restriction's name as the report shows it: in the
    command line's language (the core's `NAMES`, else a loaded game's), or as it is when no
    words table gives it."""
    if name in NAMES:
        return NAMES_SHOWN.say(name)
    try:
        return phrase(NAMES_SHOWN.prefix + name, language())
    except KeyError:
        return name
