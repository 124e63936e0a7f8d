"""Flip Done's voice: what the table says aloud of its events (`companion/speech.py`),
its descriptor's `voice`.

Said: a phase starting, the points (a line aligned, broken or lost, FD-4 to FD-8), a tie (FD-10), a
manche won and the end, then whose turn it is once a card is played (the seat the
board's prompt names); a fault says its STOP screen's fix (the shared rule of
`companion.speech`). Not said: the deal, a line still held at the end of a phase, the
cards themselves (the table sees them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.flipdone.rules.config import LINES
from companion.screens.text import check_lang, phrase
from companion.speech import Voice, prompted_turn

SPOKEN: dict[str, dict[str, str]] = {
    "fr": {
        "phase_start": "Manche {manche}, phase {phase}.",
        "line.column": "la colonne {n}",
        "line.row": "la rangée {n}",
        "line.diagonal": "la diagonale {squares}",
        "line_made": "{s} aligne {line} : plus {n}.",
        "line_broken": "{s} casse {line} de {o} : plus {n}.",
        "line_lost": "{o} perd {line}.",
        "manche_won": "{s} gagne la manche {manche}.",
        "game_over": "{s} gagne la partie !",
        "game_over.many": "{s} gagnent la partie !",
        "and": " et ",
    },
    "en": {
        "phase_start": "Round {manche}, phase {phase}.",
        "line.column": "column {n}",
        "line.row": "row {n}",
        "line.diagonal": "the diagonal {squares}",
        "line_made": "{s} aligns {line}: plus {n}.",
        "line_broken": "{s} breaks {o}'s {line}: plus {n}.",
        "line_lost": "{o} loses {line}.",
        "manche_won": "{s} wins round {manche}.",
        "game_over": "{s} wins the game!",
        "game_over.many": "{s} win the game!",
        "and": " and ",
    },
}
"""Flip Done's spoken sentences: its lines named in full ("la rangée 2", where the OLED
has "rang2")."""

TURN_ENDS = frozenset({"phase_start", "first_element", "build", "flip", "discard", "fixed"})
"""The events after which the table hears whose turn it is (another seat's, or the same
one's again once a fault is fixed)."""
TURN_PROMPTS = frozenset({"play", "place_first"})
"""The board's prompts that name the seat to play (`FdSay.PLAY`, `FdSay.PLACE_FIRST`)."""


def _spoken(key: str, lang: str, **fields: object) -> str:
    return SPOKEN[check_lang(lang)][key].format(**fields)


def _who(seat: object, names: Sequence[str]) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def _line(index: int, lang: str) -> str:
    """FD-4's line `index` in words: "la rangée 2", "la diagonale 1, 5, 9"."""
    spec = LINES[index]
    if spec.diagonal:
        return _spoken("line.diagonal", lang, squares=", ".join(map(str, spec.squares)))
    kind, n = spec.name.split()
    return _spoken(f"line.{kind}", lang, n=n)


def speak(event: Mapping[str, Any], screen: Any, names: Sequence[str], lang: str) -> str | None:
    """The sentence of a Flip Done event (see the module's docstring); None for the
    shared lines (a fault, the table fixed)."""
    kind = event["kind"]
    who = _who(event.get("seat"), names)
    if kind in ("line_made", "line_broken", "line_lost"):
        owner = _who(event.get("owner"), names)
        return _spoken(kind, lang, s=who, o=owner, line=_line(event["line"], lang),
                       n=event.get("value"))  # fmt: skip
    if kind == "manche_won" and "gains" in event:
        return _spoken("manche_won", lang, s=who, manche=event["manche"])
    if kind == "tie":
        return phrase("fd.tie", lang)
    if kind == "game_over":
        winners = [_who(seat, names) for seat in event["winners"]]
        key = "game_over" if len(winners) == 1 else "game_over.many"
        return _spoken(key, lang, s=_spoken("and", lang).join(winners))
    if kind == "phase_start":
        return _spoken("phase_start", lang, manche=event["manche"], phase=event["phase"])
    return None if kind in ("fault", "fixed") else ""


VOICE = Voice(speak, prompted_turn(TURN_ENDS, TURN_PROMPTS))
"""Its voice, its descriptor's `voice`."""
