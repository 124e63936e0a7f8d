"""Tally's words, in French and English: its OLED's phrases (registered in the shared
catalogue under `<name>.`) and its transcript lines (its describer), both registered when
this module is imported (the game's descriptor imports it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.screens.text import phrase, seat_name
from companion.screens.text import register_words as _register_words
from companion.transcript import register_describer

from .rules.engine import NAME

PREFIX = f"{NAME}."
"""Where the phrases sit in the shared catalogue."""

PHRASES: dict[str, dict[str, str]] = {
    "fr": {
        "title": "Tally",
        "won": "{s} gagne",
        "pebble": "{s} met un caillou dans le chapeau",
        "fault.restore": "Chapeau : remettez les cailloux comme avant.",
        "fault.off_mat": "Lecteur {spot} : hors du jeu. Retirez ce qui est posé dessus.",
    },
    "en": {
        "title": "Tally",
        "won": "{s} wins",
        "pebble": "{s} drops a pebble into the hat",
        "fault.restore": "Hat: put the pebbles back as before.",
        "fault.off_mat": "Reader {spot}: no spot of this game. Take off what lies on it.",
    },
}


def say(key: str, lang: str, **fields: object) -> str:
    """One of Tally's phrases, filled in."""
    return phrase(PREFIX + key, lang, **fields)


def describe(event: dict[str, Any], names: Sequence[str], lang: str) -> str | None:
    """Tally's own transcript line (a pebble dropped); None for the shared lines."""
    seat = event.get("seat")
    if event.get("kind") != "pebble" or not isinstance(seat, int):
        return None
    return say("pebble", lang, s=seat_name(names, seat, lang))


_register_words(NAME, {lang: {PREFIX + k: v for k, v in t.items()} for lang, t in PHRASES.items()})
register_describer(NAME, describe)
