"""Swiped on the table's web page: the public facts its page view (`static/view.js`)
draws, the table as the players see it.

Everything comes from the engine's public view (`public_view`, which has no field for a
hidden fact), the public events the referee keeps (`log`) and the game's fixed setup: the
nine big cubes on the 3 x 3 grid in their colours (SW-1), the face-up layout card, how
many swaps each seat has programmed, the manche's six swaps in their order with the pairs
swapped so far (SW-4), both whole programs once the engine knows them revealed (SW-3), and
the claims with their verdicts (SW-5). A target card or a swap still to come never
appears.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.swiped.colours import COLOUR_RGB
from companion.games.swiped.rules import (
    ClaimChecked,
    Event,
    MancheStarted,
    Phase,
    PublicView,
    Swapped,
    SwapSkipped,
    public_view,
    swap_order,
)

HEX = {colour: "#{:02x}{:02x}{:02x}".format(*rgb) for colour, rgb in COLOUR_RGB.items()}
"""Each colour as printed on the cards."""


def page_view(referee: Any) -> dict[str, Any]:
    """The public table of a Swiped referee (`SwipedReferee`), as JSON."""
    state = referee.state
    view = public_view(state)
    log: Sequence[Event] = referee.log
    return {
        "grid": list(view.grid),
        "hex": HEX,
        "layout_card": view.layout_card,
        "deck_size": view.deck_size,
        "manche": view.manche,
        "manche_limit": view.manche_limit,
        "phase": str(view.phase),
        "programmed": list(view.programmed),
        "programs": None if view.revealed is None else [list(map(list, p)) for p in view.revealed],
        "swaps": swaps(view, state.config, log),
        "step": view.step,
        "next_swap": view.next_swap,
        "claims": [
            {"seat": e.seat, "claim": e.claim, "correct": e.correct}
            for e in log
            if isinstance(e, ClaimChecked)
        ],
        "winner": view.winner,
        "drawn": view.drawn,
    }


def swaps(view: PublicView, config: Any, log: Sequence[Event]) -> list[dict[str, Any]]:
    """SW-4: the manche's six swaps in their order (seat, phase), each done one with the
    pair it exchanged (or skipped). Undo takes back only the last swaps of the manche and
    a swap taken back is played again by the same seat in the same phase, so the swap in
    effect of each slot is the manche's last event of that seat and phase."""
    if view.phase != Phase.EXECUTE and not (view.phase == Phase.OVER and view.step):
        return []  # programming, or the manche over with the game
    this_manche: list[Swapped | SwapSkipped] = []
    for event in reversed(log):
        if isinstance(event, MancheStarted):
            break
        if isinstance(event, Swapped | SwapSkipped):
            this_manche.append(event)
    out = []
    for i, (seat, phase) in enumerate(swap_order(config, view.manche)):
        slot: dict[str, Any] = {"seat": seat, "phase": phase, "done": i < view.step}
        made = next((e for e in this_manche if (e.seat, e.phase) == (seat, phase)), None)
        if slot["done"] and made is not None:
            slot["colours"] = list(made.colours)
            slot["skipped"] = isinstance(made, SwapSkipped)
        out.append(slot)
    return out
