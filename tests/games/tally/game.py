"""Tally, as the runtime knows it: one `Game` descriptor over its engine (`rules/`), its
referee, screens and words, its simulated table (`sim`), lab figures (`lab`) and page view
(`static/`), all in this package, with its tokens' family (what `companion enroll` takes
and the logs blank) and its seat button (its pins, its labels). Importing it registers
nothing: the registry takes `TALLY` when it loads the package (COMPANION_GAMES names it)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

from companion.games import Button, Game, TokenFamily, Voice

from . import words
from .referee import PASS_TURN, TallyReferee
from .rules.contract import ENGINE
from .rules.engine import NAME
from .screens import SCREENS
from .sim import PEBBLE, simulate, simulated_setup, tokens

if TYPE_CHECKING:  # the lab is imported when it asks for the game's part, not before
    from companion.lab.model import LabGame

PEBBLES = TokenFamily.of_words(NAME, (PEBBLE,))
"""Its tokens: "<name>:pebble" ("tally:pebble")."""
PASS_BUTTON = Button(PASS_TURN, {"fr": "Passe", "en": "Pass"}, (7, 8, 9, 10))
"""Each seat's button to pass its turn (TALLY-2), by default on the GPIOs the repository's
pin map leaves free (SPI0's, free while the readers are on a Pico)."""


SEATS = range(2, 5)


def check(seats: int, first: int, layout: Mapping[str, Any] | None) -> None:
    if seats not in SEATS:
        raise ValueError(f"Tally is for 2 to 4 players, not {seats}")
    if not 0 <= first < seats:
        raise ValueError(f"first player must be a seat 1..{seats}")


def page_view(referee: TallyReferee) -> dict[str, Any]:
    """Tally hides nothing: its state, for its page view (`static/view.js`)."""
    state = referee.state
    return {"pebbles": state.config.pebbles, "dropped": list(state.dropped),
            "turn": state.turn, "over": state.winner is not None,
            "passed": list(state.passed)}  # fmt: skip


def lab() -> LabGame:
    """The lab's part, imported only when the lab asks for it."""
    from .lab import lab as tally_lab

    return tally_lab()


TALLY = Game(
    name=NAME,
    title="Tally",
    seats=SEATS,
    default_seats=2,
    referee=TallyReferee,
    describe=words.describe,
    words=words.WORDS,
    screens=lambda: SCREENS,
    voice=Voice(words.speak),
    check=check,
    spots=lambda seats, layout: 1,
    tokens=tokens,
    simulated_setup=simulated_setup,
    simulate=simulate,
    bots=("any", "passer"),
    controls=(PASS_TURN,),
    token_families=(PEBBLES,),
    buttons=(PASS_BUTTON,),
    lab=lab,
    engine=ENGINE,
    page_view=page_view,
    page_assets=resources.files(__package__) / "static",
)
