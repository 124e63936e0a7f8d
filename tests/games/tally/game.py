"""Tally, as the runtime knows it: one `Game` descriptor over its engine (`rules/`), its
referee, screens and words, its simulated table (`sim`), lab figures (`lab`) and page view
(`static/`), all in this package. Registered when imported (COMPANION_GAMES names the
package)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from typing import Any

from companion.games import Game, register

from . import words  # noqa: F401  (registers the game's phrases and transcript lines)
from .referee import TallyReferee
from .rules.contract import ENGINE
from .rules.engine import NAME
from .sim import simulate, simulated_setup, tokens


def check(seats: int, first: int, layout: Mapping[str, Any] | None) -> None:
    if not 0 <= first < seats:
        raise ValueError(f"first player must be a seat 1..{seats}")


def page_view(referee: TallyReferee) -> dict[str, Any]:
    """Tally hides nothing: its state, for its page view (`static/view.js`)."""
    state = referee.state
    return {"pebbles": state.config.pebbles, "dropped": list(state.dropped),
            "turn": state.turn, "over": state.winner is not None}  # fmt: skip


def lab() -> Any:
    """The lab's part, imported only when the lab asks for it."""
    from .lab import lab as tally_lab

    return tally_lab()


TALLY = register(
    Game(
        name=NAME,
        title="Tally",
        seats=range(2, 5),
        default_seats=2,
        referee=TallyReferee,
        check=check,
        spots=lambda seats, layout: 1,
        tokens=tokens,
        simulated_setup=simulated_setup,
        simulate=simulate,
        bots=("any",),
        lab=lab,
        engine=ENGINE,
        page_view=page_view,
        page_assets=resources.files(__package__) / "static",
    )
)
