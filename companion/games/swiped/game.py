"""Swiped, as the runtime knows it: one `Game` descriptor over the engine (`rules/`),
its referee (`referee.py`), screens (`screens.py`), bots (`bots.py`) and simulated table
(`sim.py`), all in this package.

Two players; the mat's 9 spots are the 3 x 3 grid of big cubes and the pad (spot 0) reads
the printed cards. The tokens are shared (no seat owns one): the deck's cards, tagged
"layout:1" ... "layout:24" (card N of `companion deck swiped`), then the 9 big cubes,
tagged "cube:rouge" ... "cube:noir".
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from companion.cli_words import said
from companion.contract.game import joined
from companion.games import Button, Game, Printables, Renderer, TokenFamily
from companion.games.swiped import words
from companion.games.swiped.facts import FACTS
from companion.games.swiped.rules import COLOURS, ENGINE, PLAYERS, SQUARES, Config
from companion.games.swiped.rules.config import MAX_DECK, MIN_DECK
from companion.games.swiped.voice import VOICE
from companion.journal import Setup
from companion.referee.event_log import TableEvent

if TYPE_CHECKING:  # the referee is imported when a game starts, not at registry load
    from companion.games.swiped.referee import SwipedReferee

BOTS = ("deducing", "random")

GRID = tuple((row, col) for row in range(3) for col in range(3))
"""SW-1: the mat's 3 x 3 squares, (row, column) of squares 1..9 in reading order."""


def check(seats: int, first: int, layout: Mapping[str, Any] | None) -> None:
    if seats != PLAYERS:
        raise ValueError(f"Swiped is for {PLAYERS} players, not {seats}")
    if not 0 <= first < seats:
        raise ValueError(f"first player must be a seat 1..{seats}, not {first + 1}")
    if layout:
        raise ValueError("Swiped is played on its own 3 x 3 mat: no [game.layout]")


def tokens(seats: int, rules: Mapping[str, Any] | None = None) -> Sequence[tuple[int | None, str]]:
    """SW-1: the deck's cards in number order (``deck_size`` of the rules, else the
    book's 24), then the 9 big cubes; all shared."""
    size = (rules or {}).get("deck_size")
    if not isinstance(size, int) or not MIN_DECK <= size <= MAX_DECK:
        size = Config().deck_size  # the referee refuses a bad deck_size, with its reason
    cards = [(None, f"layout:{n}") for n in range(1, size + 1)]
    return [*cards, *((None, f"cube:{colour}") for colour in COLOURS)]


def referee(setup: Setup) -> SwipedReferee:
    from companion.games.swiped.referee import SwipedReferee

    return SwipedReferee(setup)


def describe(event: TableEvent, names: Sequence[str], lang: str) -> str | None:
    """Its own transcript lines, the referee's (imported with the first line asked for)."""
    from companion.games.swiped.referee import describe as lines

    return lines(event, names, lang)


def say(prompt: object, names: Sequence[str], lang: str, screen: object) -> str:
    """Its screens' prompts, said (its screens module imported with the first one asked)."""
    from companion.games.swiped.screens import SwPrompt, sw_say

    if not isinstance(prompt, SwPrompt):
        raise TypeError(f"{FACTS.title} says no {type(prompt).__name__}")
    return sw_say(prompt, names, lang)


def screens() -> Mapping[type, Renderer]:
    """Its screen kinds and how each is drawn (its screens module, imported with the first
    one drawn)."""
    from companion.games.swiped.screens import SCREENS

    return SCREENS


def simulated_setup(seats: int, seed: int, **options: Any) -> Setup:
    from companion.games.swiped.sim import make_setup

    return make_setup(seed, **options)


def simulate(setup: Setup, on_input: Any = None, bots: Sequence[str] | None = None,
             **options: Any) -> Any:  # fmt: skip
    from companion.games.swiped.referee import config_of
    from companion.games.swiped.sim import SwipedSim

    if setup.rules:  # the seeded game the people play follows the setup's rules too
        options["config"] = config_of(setup, options.get("config"))
    return SwipedSim(setup, bots=bots, on_input=on_input, **options).run()


def virtual(setup: Setup) -> Any:
    """The virtual table's kit (`companion/games/swiped/virtual.py`), imported on demand."""
    from companion.games.swiped.virtual import make_kit

    return make_kit(setup)


def lab() -> Any:
    """The designer's lab's part of Swiped (fast self-play, figures from events)."""
    from companion.games.swiped.lab import LAB

    return LAB


def console(session: Any, lines: Any, out: IO[str], lang: str) -> int:
    """`companion play --sim --game swiped`: the typed table (sim/swiped_console.py)."""
    from companion.games.swiped.console import run_console

    echo = not getattr(lines, "isatty", lambda: False)()
    return run_console(session, lines, out, lang, echo=echo)


def deck_options(parser: argparse.ArgumentParser) -> None:
    """`companion deck swiped`'s own options: the engine's `deck_size` and `deck_seed`."""
    parser.add_argument(
        "--size",
        type=int,
        default=Config().deck_size,
        metavar="N",
        help=said("swiped.cli.size", low=MIN_DECK, high=MAX_DECK),
    )
    parser.add_argument(
        "--seed", type=int, default=Config().deck_seed, metavar="N", help=said("swiped.cli.seed")
    )


def write_deck(args: argparse.Namespace, out: Path) -> str:
    """SW-1: the deck `make_deck(--size, --seed)` builds, as a PDF or PNGs (deck_sheet.py)."""
    from companion.games.swiped import deck_sheet
    from companion.games.swiped.rules.deck import make_deck
    from companion.rules.errors import BadInput

    if out.suffix.lower() not in deck_sheet.SUFFIXES:
        raise ValueError(said("swiped.cli.suffix", out=out))
    try:
        deck = make_deck(args.size, args.seed)
    except BadInput as exc:
        raise ValueError(f"--size {args.size}: {exc}") from None
    title = f"Swiped - jeu de {len(deck)} cartes (graine {args.seed})"
    written = deck_sheet.write_sheet(deck, out, title)
    pages = deck_sheet.pages_needed(len(deck))
    files = ", ".join(map(str, written[1:]))
    also = said("swiped.cli.also", files=files) if len(written) > 1 else ""
    pages_said = said("swiped.cli.pages" if pages > 1 else "swiped.cli.page", n=pages)
    return said("swiped.cli.written", cards=len(deck), pages=pages_said, also=also)


def page_view(referee: Any) -> dict[str, Any]:
    """The table the page draws (companion/games/swiped/page.py)."""
    from companion.games.swiped.page import page_view as table

    return table(referee)


DECK = Printables(
    summary="swiped.cli.deck",
    description="swiped.cli.deck.description",
    write=write_deck,
    options=deck_options,
)


SWIPED = Game(
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
    say=say,
    screens=screens,
    voice=VOICE,
    engine_words=words.ENGINE_WORDS,
    words=words.PHRASES,
    console_words=joined(words.CLI_WORDS, words.ENROLL_WORDS, words.SETUP_WORDS),
    controls=("doublon", "menteur", "aim", "choose", "back"),
    token_families=(
        TokenFamily("layout", "[1-9][0-9]*", "swiped.cli.layout_kinds", "swiped.cli.card"),
        TokenFamily.of_words("cube", COLOURS, "swiped.cli.cube", "sw.colour.{word}"),
    ),
    buttons=(  # the table's call buttons: "5 matches!", "I know your card!"
        Button("doublon", {"fr": "Doublon", "en": "Doublon"}, (4, 17, 27, 22, 5, 6)),
        Button("menteur", {"fr": "Menteur", "en": "Menteur"}, (14, 15, 18, 23, 24, 25)),
    ),
    lab=lab,
    engine=ENGINE,
    printables=DECK,
    page_view=page_view,
    page_assets=resources.files("companion.games.swiped") / "static",
    virtual=virtual,
)
