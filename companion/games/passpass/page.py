"""PtiPassPass and PhiPassPass on the table's web page: the public facts its page view
(`static/view.js`) draws, the table as the players see it.

Everything comes from the engine's public view (`public_view`, which has no field for a
hidden fact) and the game's fixed setup (the hats' layout, the edition's tokens): the hats
on their grid with how many tokens each holds, the Magicien's token in flight over the
designated hat, the Visible/Masqué token, every seat's tokens in hand, Challenge and
victory tokens, and what the turn waits for. Which token lies where never appears.
"""

from __future__ import annotations

from typing import Any

from companion.games.passpass.rules import VICTORIES_TO_WIN, Phase, public_view

IN_FLIGHT = (Phase.ANNOUNCE, Phase.WINDOW)
"""The phases in which the Magicien's token is in flight: dropped in the designated hat
at a table, placed only once nobody challenged it (PTI-7)."""


def page_view(referee: Any) -> dict[str, Any]:
    """The public table of a PassPass referee (`PassPassReferee`), as JSON."""
    state = referee.state
    view = public_view(state)
    rules = state.config.rules
    return {
        "tokens": list(rules.tokens),
        "positions": [list(p) for p in state.config.layout.positions],
        "hats": list(view.hat_counts),
        "in_flight": view.spot if view.phase in IN_FLIGHT else None,
        "spot": view.spot,
        "swapped": None if view.swapped is None else list(view.swapped),
        "manche": view.manche,
        "tour": view.tour,
        "visible_turns": rules.visible_turns,
        "masque": view.masque,
        "phase": str(view.phase),
        "magician": view.magician,
        "announced": view.announced,
        "open_challenges": [str(c) for c in view.open_challenges],
        "challenger": view.challenger,
        "hands": list(view.hand_counts),
        "challenge_tokens": list(view.challenge_tokens) if rules.challenge_tokens else None,
        "victories": list(view.victories),
        "to_win": VICTORIES_TO_WIN,
        "winner": view.winner,
    }
