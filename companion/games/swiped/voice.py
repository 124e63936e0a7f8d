"""Swiped's voice: what the table says aloud of its events (`companion/speech.py`),
its descriptor's `voice`.

Said: a manche starting, a claim's verdict (SW-5: right or wrong, never either card, as
the OLED says it), a draw (SW-6), whose swap it is (the seat the board's prompt names)
once a manche starts or a swap is made; the won game and a fault's fix are the shared
lines of `companion.speech`. Not said: the cards drawn, the programs, the swaps
themselves (the table sees the cubes move), the target cards shown at the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.swiped.words import PREFIX
from companion.screens.text import check_lang, phrase, seat_name
from companion.speech import Voice, prompted_turn

SPOKEN: dict[str, dict[str, str]] = {
    "fr": {"manche_start": "Manche {manche}."},
    "en": {"manche_start": "Round {manche}."},
}
"""Swiped's spoken sentences, beside the OLED's verdicts it reuses."""

TURN_ENDS = frozenset({"manche_start", "swap", "swap_skipped", "claim", "fixed"})
"""The events after which the table hears whose swap it is (again, once a fault is fixed)."""
TURN_PROMPTS = frozenset({"program", "swap", "swap_or_skip", "swapping"})
"""The board's prompts that name the seat to swap: `SwSay.PROGRAM` (the manche's first),
`SwSay.SWAP`, `SwSay.SWAP_OR_SKIP`, and `SwSay.SWAPPING` while its cubes are on the move."""


def speak(event: Mapping[str, Any], screen: Any, names: Sequence[str], lang: str) -> str | None:
    """The sentence of a Swiped event (see the module's docstring); None for the shared
    lines."""
    kind = event["kind"]
    if kind == "manche_start":
        return SPOKEN[check_lang(lang)]["manche_start"].format(manche=event["manche"])
    if kind == "claim":
        correct = "true" if event["correct"] else "false"
        who = _who(event["seat"], names, lang)
        return phrase(f"{PREFIX}verdict.{event['claim']}.{correct}", lang, s=who)
    if kind == "game_drawn":
        return phrase(f"{PREFIX}over.drawn", lang) + "."
    return None if kind in ("game_won", "fault", "fixed") else ""


def _who(seat: object, names: Sequence[str], lang: str) -> str:
    return seat_name(names, seat, lang) if isinstance(seat, int) else "?"


VOICE = Voice(speak, prompted_turn(TURN_ENDS, TURN_PROMPTS))
"""Its voice, its descriptor's `voice`."""
