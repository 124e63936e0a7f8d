"""One readable line per referee event, for `companion replay`, `companion demo` and the
web page's history, in English (the command line's) or French (the table's default).

Events are public by construction (the engine's events and the referee's faults), so a
transcript can be shown to the whole table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.screens.text import phrase

Describer = Callable[[dict[str, Any], Sequence[str], str], "str | None"]
"""A game's own describer: (event, seat names, language) -> a line or None."""
_GAME_DESCRIBERS: dict[str, Describer] = {}


def register_describer(game: str, describer: Describer) -> None:
    """A game's own sentences for its own event kinds (its referee module calls this once).
    Asked first for that game's events only, so two games may share a kind ("swap"); it
    returns None for an event the shared lines below describe."""
    _GAME_DESCRIBERS[game] = describer


def _names(tokens: Sequence[str]) -> str:
    return ", ".join(t.capitalize() for t in tokens) or "nothing"


def describe(
    event: dict[str, Any], names: Sequence[str], game: str | None = None, lang: str = "en"
) -> str | None:
    """A sentence for `event` of `game` in `lang` ("en" or "fr"), or None for bookkeeping
    events not worth a line."""

    def who(key: str = "seat") -> str:
        seat = event.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    own = _GAME_DESCRIBERS.get(game or "")
    line = own(event, names, lang) if own else None
    if line is not None:
        return line
    kind = event["kind"]
    if kind == "turn":
        mode = "Masqué" if event["masque"] else "Visible"
        what = "places" if event["phase"] == "place" else "must reveal"
        return f"{who()} is the Magicien (tour {event['tour']}, {mode}) and {what}"
    if kind == "designate":
        shown = f" a {event['shown'].capitalize()}" if event["shown"] else " a token"
        return f"{who()} drops{shown} into hat {event['spot']}"
    if kind == "announce":
        return f"{who()} announces {event['token'].capitalize()}"
    if kind == "place":
        return f"nobody challenges: the token stays in hat {event['spot']}"
    if kind == "verdict":
        call = "Doublon !" if event["challenge"] == "doublon" else "Menteur !"
        result = "right" if event["success"] else "wrong"
        if event["challenge"] == "doublon":
            fact = f"hat {event['spot']} held {_names(event['hat'])}"
        else:
            fact = f"it was a {event['shown'].capitalize()}"
        return f"{who()} calls {call} on {who('magician')}: {fact}, so {who()} is {result}"
    if kind == "reward":
        if event["choice"] == "drop":
            return f"{who()} drops a {event['token'].capitalize()} into hat {event['spot']}"
        if event["choice"] == "token":
            return f"{who()} takes a Challenge token from the Magicien"
        return f"{who()} can take no reward"
    if kind == "swap":
        a, b = event["spots"]
        return f"{who()} swaps hats {a} and {b}"
    if kind == "reveal":
        hats = "; ".join(_names(h) for h in event["hats"])
        result = "wins the manche" if event["success"] else "fails"
        return f"{who()} reveals hats {event['spots']}: {hats} - {result}"
    if kind == "manche_won":
        return f"{who()} takes victory token {event['victories']}"
    if kind == "game_won":
        return f"{who()} wins the game!"
    if kind == "manche_void":
        return f"the manche is void: {event['reason']}"
    if kind == "manche_start":
        return f"manche {event['manche']} starts with {who('starter')}"
    if kind == "fault":
        where = f"hat {event['spot']}" if event.get("spot") is not None else "the table"
        return f"STOP: {event['reason'].replace('_', ' ')} at {where}"
    if kind == "fixed":
        return "the table matches again: play goes on"
    if kind == "undo":
        return f"back: the {event.get('step', 'last step')} is taken back"
    if kind == "resume":
        return "resumed after a cut"
    if kind == "calls_together":
        together = ", ".join(names[s] for s in event["seats"] if 0 <= s < len(names))
        return f"{together} call together: {who('counted')}'s call counts (first clockwise)"
    if kind == "held":
        return f"announced {event['value'].capitalize()} before the drop: held until it"
    if kind == "ignored":
        seat = event.get("seat")
        whose = ""
        if isinstance(seat, int):
            whose = f"{who()}'s " if 0 <= seat < len(names) else f"seat {seat + 1}'s "
        try:
            why = phrase(f"notice.{event['reason']}", "en")
        except KeyError:
            why = str(event["reason"])
        return f"{whose}{event['control']} refused: {why}"
    return None
