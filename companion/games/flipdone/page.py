"""Flip Done on the table's web page: the public facts its page view (`static/view.js`)
draws, the mat as the players see it.

Everything comes from the engine's public view (`public_view`, which has no field for a
hidden fact) and the game's fixed setup: the 3 x 3 grid with each element's face-up card
(a face-down card shows as one), the flipped marks, the eight lines (FD-4) and their
owners (the "bâtonnets", FD-5), each seat's tokens, cards in hand and manches won, the
tokens gained this manche (FD-10), the deck and the discards. A face-down card, a hand or
a discard never appears.
"""

from __future__ import annotations

from typing import Any

from companion.games.flipdone.rules import LINES, public_view


def page_view(referee: Any) -> dict[str, Any]:
    """The public mat of a Flip Done referee (`FlipDoneReferee`), as JSON."""
    state = referee.state
    view = public_view(state)
    config = state.config
    return {
        "manche": view.manche,
        "manches": config.manches,
        "phase": view.phase,
        "phases": config.phases,
        "extra": view.extra,
        "overtime": view.overtime,
        "stage": str(view.stage),
        "turn": view.turn,
        "first": view.first,
        "faces": list(view.faces),
        "dealt": list(view.dealt),
        "flipped": list(view.flipped),
        "pending": view.pending,
        "lines": [
            {"squares": list(line.squares), "value": line.value, "owner": owner}
            for line, owner in zip(LINES, view.owners, strict=True)
        ],
        "tokens": list(view.tokens),
        "gained": [now - before for now, before in zip(view.tokens, view.baseline, strict=True)],
        "manche_wins": list(view.manche_wins),
        "hands": list(view.hand_sizes),
        "deck": view.deck_size,
        "discards": view.discard_size,
        "winners": list(view.winners),
    }
