"""PtiPassPass's and PhiPassPass's voice: what the table says aloud of their events
(`companion/speech.py`), their descriptors' `voice`.

Said: whose turn (a Visible turn and a reveal named as such), a challenge's verdict with
exactly the facts the book makes public (PTI-8/9, PHI-3/4: the lifted hat, the token
shown; the OLED's words, `words.py`), a reveal's outcome, a manche won or void, a fault
with its fix (the STOP screen's sentence). Not said: a drop, an announcement (the
Magicien says it), a window closing with nobody calling, a reward, a swap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.passpass.rules import Challenge, Verdict
from companion.games.passpass.words import (
    prompt_said,
    verdict_facts,
    verdict_outcome,
    verdict_title,
)
from companion.referee.event_log import TableEvent
from companion.screens.text import check_lang
from companion.speech import Voice, fix, line

SPOKEN: dict[str, dict[str, str]] = {
    "fr": {
        "turn.visible": "À toi, {s} : tour Visible.",
        "turn.reveal": "À toi, {s} : choisis une ligne.",
        "reveal.won": "Ligne {a}, {b}, {c} : gagné !",
        "reveal.missed": "Ligne {a}, {b}, {c} : raté !",
        "manche_won": "{s} gagne la manche. Victoires : {n}.",
        "manche_void": "Manche nulle.",
        "manche_start": "Manche {n}.",
    },
    "en": {
        "turn.visible": "Your turn, {s}: a Visible turn.",
        "turn.reveal": "Your turn, {s}: choose a line.",
        "reveal.won": "Line {a}, {b}, {c}: won!",
        "reveal.missed": "Line {a}, {b}, {c}: missed!",
        "manche_won": "{s} wins the round. Victories: {n}.",
        "manche_void": "Void round.",
        "manche_start": "Round {n}.",
    },
}
"""PassPass's spoken sentences, beside those of the OLED it reuses (the verdicts, the
fixes) and the shared "À toi, {s}." of `companion.speech`."""


def _spoken(key: str, lang: str, **fields: object) -> str:
    return SPOKEN[check_lang(lang)][key].format(**fields)


def _who(seat: object, names: Sequence[str]) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def speak(event: TableEvent, screen: Any, names: Sequence[str], lang: str) -> str | None:
    """The sentence of a PassPass event (see the module's docstring); None for the shared
    lines (the game won, the table fixed)."""
    own: Mapping[str, Any] = event  # PassPass's own keys, beside the shared ones
    kind = event["kind"]
    who = _who(event.get("seat"), names)
    if kind == "turn":
        if own["phase"] != "place":
            return _spoken("turn.reveal", lang, s=who)
        return line("turn", lang, s=who) if own["masque"] else _spoken("turn.visible", lang, s=who)
    if kind == "verdict":
        return _verdict(own, names, lang)
    if kind == "reveal":
        a, b, c = own["spots"]
        return _spoken("reveal.won" if own["success"] else "reveal.missed", lang, a=a, b=b, c=c)
    if kind == "manche_won":
        return _spoken("manche_won", lang, s=who, n=own["victories"])
    if kind in ("manche_void", "manche_start"):
        return _spoken(kind, lang, n=own.get("manche"))
    if kind == "fault":  # the fix in the game's words for its tokens (the view's game)
        return fix(event, screen, names, lang, prompt_said)
    if kind in ("game_won", "fixed"):
        return None
    return ""


def _verdict(event: Mapping[str, Any], names: Sequence[str], lang: str) -> str:
    """The call, who was right and the public facts: "Menteur ! Ana a raison ! Bob
    montre : Souris." (the OLED's verdict, said)."""
    hat = event.get("hat")
    verdict = Verdict(
        challenge=Challenge(event["challenge"]),
        seat=int(event["seat"]),
        magician=int(event["magician"]),
        success=bool(event["success"]),
        spot=int(event["spot"]),
        hat=None if hat is None else tuple(hat),
        shown=event.get("shown"),
    )
    parts = (
        verdict_title(verdict, lang),
        verdict_outcome(verdict, names, lang),
        verdict_facts(verdict, names, lang),
    )
    return " ".join(p for p in parts if p)


VOICE = Voice(speak)
"""Its voice (both editions'), its descriptors' `voice`."""
