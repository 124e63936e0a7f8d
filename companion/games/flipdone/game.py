"""Flip Done, as the runtime knows it: one `Game` descriptor over the engine (`rules/`),
its referee (`referee.py`), screens (`screens.py`), bots (`bots.py`) and simulated table
(`sim.py`), all in this package.

Three players; the mat's 9 spots are the 3 x 3 grid and the pad (spot 0) is the discard
pile. The tokens are the 52 cards of one deck, shared (no seat owns a card), each tagged
"card:QH" ... "card:10S".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import resources
from typing import IO, TYPE_CHECKING, Any

from companion.contract.game import joined
from companion.games import Game, Renderer, TokenFamily
from companion.games.flipdone import words
from companion.games.flipdone.facts import FACTS
from companion.games.flipdone.page import page_view
from companion.games.flipdone.rules import DECK, ENGINE, PLAYERS, SQUARES
from companion.games.flipdone.voice import VOICE
from companion.journal import Setup
from companion.referee.event_log import TableEvent

if TYPE_CHECKING:  # the referee is imported when a game starts, not at registry load
    from companion.games.flipdone.referee import FlipDoneReferee

BOTS = ("heuristic", "random")

GRID = tuple((row, col) for row in range(3) for col in range(3))
"""FD-2: the mat's 3 x 3 squares, (row, column) of squares 1..9 in reading order."""


def check(seats: int, first: int, layout: Mapping[str, Any] | None) -> None:
    if seats != PLAYERS:
        raise ValueError(f"Flip Done is for {PLAYERS} players, not {seats}")
    if not 0 <= first < seats:
        raise ValueError(f"first player must be a seat 1..{seats}, not {first + 1}")
    if layout:
        raise ValueError("Flip Done is played on its own 3 x 3 mat: no [game.layout]")


def tokens(seats: int, rules: Mapping[str, Any] | None = None) -> Sequence[tuple[int | None, str]]:
    """FD-1: the 52 cards, shared, in deck order (A..K of hearts, diamonds, spades, clubs)."""
    return [(None, f"card:{card}") for card in DECK]


def referee(setup: Setup) -> FlipDoneReferee:
    from companion.games.flipdone.referee import FlipDoneReferee

    return FlipDoneReferee(setup)


def describe(event: TableEvent, names: Sequence[str], lang: str) -> str | None:
    """Its own transcript lines, the referee's (imported with the first line asked for)."""
    from companion.games.flipdone.referee import describe as lines

    return lines(event, names, lang)


def say(prompt: object, names: Sequence[str], lang: str, screen: object) -> str:
    """Its screens' prompts, said (its screens module imported with the first one asked)."""
    from companion.games.flipdone.screens import FdPrompt, fd_say

    if not isinstance(prompt, FdPrompt):
        raise TypeError(f"{FACTS.title} says no {type(prompt).__name__}")
    return fd_say(prompt, tuple(names), lang)


def screens() -> Mapping[type, Renderer]:
    """Its screen kinds and how each is drawn (its screens module, imported with the first
    one drawn)."""
    from companion.games.flipdone.screens import SCREENS

    return SCREENS


def simulated_setup(seats: int, seed: int, **options: Any) -> Setup:
    from companion.games.flipdone.sim import make_setup

    return make_setup(seed, **options)


def simulate(setup: Setup, on_input: Any = None, bots: Sequence[str] | None = None,
             **options: Any) -> Any:  # fmt: skip
    from companion.games.flipdone.referee import config_of
    from companion.games.flipdone.sim import FlipDoneSim

    if setup.rules:  # the seeded game the people play follows the setup's rules too
        options["config"] = config_of(setup, options.get("config"))
    return FlipDoneSim(setup, bots=bots, on_input=on_input, **options).run()


def virtual(setup: Setup) -> Any:
    """The virtual table's kit (`companion/games/flipdone/virtual.py`), imported on demand."""
    from companion.games.flipdone.virtual import make_kit

    return make_kit(setup)


def lab() -> Any:
    """The designer's lab for Flip Done (`companion/games/flipdone/lab.py`), imported on demand."""
    from companion.games.flipdone.lab import LAB

    return LAB


def console(session: Any, lines: Any, out: IO[str], lang: str) -> int:
    """`companion play --sim --game flipdone`: the typed table (sim/flipdone_console.py)."""
    from companion.games.flipdone.console import run_console

    echo = not getattr(lines, "isatty", lambda: False)()
    return run_console(session, lines, out, lang, echo=echo)


FLIPDONE = Game(
    **FACTS.fields(),
    default_seats=PLAYERS,
    referee=referee,
    check=check,
    spots=lambda seats, layout: SQUARES,
    mat=lambda seats, layout: GRID,
    tokens=tokens,
    simulated_setup=simulated_setup,
    simulate=simulate,
    bots=BOTS,
    console=console,
    describe=describe,
    engine_words=words.ENGINE_WORDS,
    words=words.PHRASES,
    console_words=joined(words.CONSOLE_WORDS, words.ENROLL_WORDS, words.SETUP_WORDS),
    say=say,
    screens=screens,
    voice=VOICE,
    controls=("choose", "back"),
    token_families=(
        TokenFamily(
            "card", "(?:[A2-9TJQK]|10)[SHDC]", "flipdone.cli.card_kinds", "flipdone.cli.card"
        ),
    ),
    lab=lab,
    engine=ENGINE,
    page_view=page_view,
    page_assets=resources.files("companion.games.flipdone") / "static",
    virtual=virtual,
)
