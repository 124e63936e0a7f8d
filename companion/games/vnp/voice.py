"""The voice of Vous ne passerez pas !: what the table says aloud of its events
(`companion/speech.py`): its descriptor's `voice`.

Said: a colour that passes (VNP-5), the winners (VNP-6, as the OLED says them), and whose
turn it is after a placement, a pass or an undo (the seat of the colour to play, from the
public view). Not said: the placements themselves (every phone shows the board), hints,
refused placements (the phone that tried shows why).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.vnp.words import PREFIX
from companion.screens.text import check_lang, phrase, seat_name
from companion.speech import Voice

SPOKEN: dict[str, dict[str, str]] = {
    "fr": {"passed": "{c} passe."},
    "en": {"passed": "{c} passes."},
}

TURN_ENDS = frozenset({"placed", "passed", "undo", "fixed"})
"""The events after which the table hears whose turn it is."""


def speak(event: Mapping[str, Any], screen: Any, names: Sequence[str], lang: str) -> str | None:
    """The sentence of a VNP event (see the module's docstring)."""
    kind = event["kind"]
    if kind == "passed":
        colour = phrase(f"{PREFIX}colour.{event['colour']}", lang)
        return SPOKEN[check_lang(lang)]["passed"].format(c=colour)
    if kind == "game_over":
        sides = event.get("sides") or [seat_name(names, i, lang) for i in range(len(names))]
        winners = [str(sides[i]) for i in event["winners"] if 0 <= i < len(sides)]
        key = "won" if len(winners) == 1 else "won.many"
        return phrase(f"{PREFIX}{key}", lang, s=phrase(f"{PREFIX}and", lang).join(winners))
    return None if kind == "fixed" else ""


def turn(events: Sequence[Mapping[str, Any]], screen: Any) -> int | None:
    """The seat of the colour to play (the screen's public view), after an input that
    placed, passed or took back a piece, and as the game opens (no events); None once
    the game is over."""
    if events and not any(event["kind"] in TURN_ENDS for event in events):
        return None
    view = getattr(screen, "view", None)
    seat = getattr(view, "seat", None)
    return seat if isinstance(seat, int) and getattr(view, "turn", None) is not None else None


VOICE = Voice(speak, turn)
"""Its voice, its descriptor's `voice`."""
