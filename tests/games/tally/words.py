"""Tally's words, in French and English: its OLED's phrases (under `<name>.` in the shared
catalogue, which its descriptor's `words` give the registry),
its transcript lines and what the table says aloud (its descriptor's `describe` and
`voice`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.screens.text import phrase, seat_name

from .rules.engine import NAME

PREFIX = f"{NAME}."
"""Where the phrases sit in the shared catalogue."""

PHRASES: dict[str, dict[str, str]] = {
    "fr": {
        "title": "Tally",
        "won": "{s} gagne",
        "pebble": "{s} met un caillou dans le chapeau",
        "passed": "{s} passe son tour",
        "fault.restore": "Chapeau : remettez les cailloux comme avant.",
        "fault.off_mat": "Lecteur {spot} : hors du jeu. Retirez ce qui est posé dessus.",
        "fault.across_spots": "Lecteurs {spot} et {other} : un caillou à cheval. Posez-le sur un.",
    },
    "en": {
        "title": "Tally",
        "won": "{s} wins",
        "pebble": "{s} drops a pebble into the hat",
        "passed": "{s} passes their turn",
        "fault.restore": "Hat: put the pebbles back as before.",
        "fault.off_mat": "Reader {spot}: no spot of this game. Take off what lies on it.",
        "fault.across_spots": "Readers {spot} and {other}: a pebble across both. Put it on one.",
    },
}
WORDS = {lang: {PREFIX + key: text for key, text in t.items()} for lang, t in PHRASES.items()}
"""Its phrases under `PREFIX` in the shared catalogue (its descriptor's `words`)."""


def say(key: str, lang: str, **fields: object) -> str:
    """One of Tally's phrases, filled in."""
    return phrase(PREFIX + key, lang, **fields)


def describe(event: Mapping[str, Any], names: Sequence[str], lang: str) -> str | None:
    """Tally's own transcript lines (a pebble dropped, a turn passed); None for the shared
    lines."""
    seat, kind = event.get("seat"), event.get("kind")
    if kind not in ("pebble", "passed") or not isinstance(seat, int):
        return None
    return say(str(kind), lang, s=seat_name(names, seat, lang))


def speak(event: Mapping[str, Any], screen: Any, names: Sequence[str], lang: str) -> str | None:
    """What the table says aloud of Tally's events: nothing of a pebble (everyone saw it
    dropped); None leaves the others to the shared lines (the winner, a fault)."""
    return "" if event.get("kind") == "pebble" else None
