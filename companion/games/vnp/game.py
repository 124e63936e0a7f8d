"""Vous ne passerez pas !, as the runtime knows it: one `Game` descriptor over the engine
(`rules/`), its referee (`referee.py`), screens (`screens.py`), bots (`bots.py`) and
simulated table (`sim.py`, `console.py`), all in this package.

2 or 4 players (VNP-7: two players play two colours each; four play one each, alone or in
teams). The pieces lie on a lattice board that no reader sees: the players act on the
table's web page from their phones (`played_on_page`), which sends each act as a journal
press and draws the board from `page_view` (the referee's `board_view()`) with its own
page view (`static/view.js`, `static/view.css`: `page_assets`). So the game uses no hat
spot (`spots` 0: only the pad exists, unused) and no tagged token.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib import resources
from typing import IO, TYPE_CHECKING, Any

from companion.games import Game, Renderer
from companion.games.vnp import words
from companion.games.vnp.facts import FACTS
from companion.games.vnp.rules.config import BOARD_SIZES
from companion.games.vnp.rules.contract import ENGINE
from companion.games.vnp.voice import VOICE
from companion.journal import Setup
from companion.referee.event_log import TableEvent

if TYPE_CHECKING:  # the referee is imported when a game starts, not at registry load
    from companion.games.vnp.referee import VnpReferee

BOTS = ("largest", "random")
SEATS = (2, 4)
"""VNP-7: two players (two colours each) or four (one colour each)."""


def check(seats: int, first: int, layout: Mapping[str, Any] | None) -> None:
    if seats not in SEATS:
        raise ValueError(f"Vous ne passerez pas ! is for 2 or 4 players, not {seats} (VNP-7)")
    if not 0 <= first < seats:
        raise ValueError(f"first player must be a seat 1..{seats}, not {first + 1}")
    if layout:
        raise ValueError("Vous ne passerez pas ! is played on its own board: no [game.layout]")


def tokens(seats: int, rules: Mapping[str, Any] | None = None) -> Sequence[tuple[int | None, str]]:
    """No tagged token: the pieces are never read."""
    return []


def referee(setup: Setup) -> VnpReferee:
    from companion.games.vnp.referee import VnpReferee

    return VnpReferee(setup)


def describe(event: TableEvent, names: Sequence[str], lang: str) -> str | None:
    """Its own transcript lines, the referee's (imported with the first line asked for)."""
    from companion.games.vnp.referee import describe as lines

    return lines(event, names, lang)


def screens() -> Mapping[type, Renderer]:
    """Its screen kinds and how each is drawn (its screens module, imported with the first
    one drawn)."""
    from companion.games.vnp.screens import SCREENS

    return SCREENS


def simulated_setup(seats: int, seed: int, **options: Any) -> Setup:
    from companion.games.vnp.sim import make_setup
    from companion.referee.pace import SetupError

    try:
        check(seats, 0, None)
    except ValueError as exc:
        raise SetupError(str(exc)) from None
    return make_setup(seed, seats, **options)


def simulate(setup: Setup, on_input: Any = None, bots: Sequence[str] | None = None,
             **options: Any) -> Any:  # fmt: skip
    from companion.games.vnp.sim import VnpSim

    return VnpSim(setup, bots=bots, on_input=on_input, **options).run()


def console(session: Any, lines: Any, out: IO[str], lang: str) -> int:
    """`companion play --sim --game vnp`: the typed table (sim/vnp_console.py)."""
    from companion.games.vnp.console import run_console

    echo = not getattr(lines, "isatty", lambda: False)()
    return run_console(session, lines, out, lang, echo=echo)


def page_view(referee: Any) -> dict[str, Any]:
    """The board, the pieces left, the legal placements...: `VnpReferee.board_view()`."""
    view: dict[str, Any] = referee.board_view()
    return view


def page_value(control: str, value: Any, seat: int, board: Mapping[str, Any]) -> Any:
    """A phone's action as its journal press value (companion/games/vnp/page.py)."""
    from companion.games.vnp.page import press_value

    return press_value(control, value, seat, board)


def pieces() -> dict[str, Any]:
    """The 24 pieces' shapes the page draws (companion/games/vnp/page.py)."""
    from companion.games.vnp.page import pieces as shapes

    return shapes()


TABLE_PREFIX = "placements-"


class PageData(Mapping[str, Callable[[], Any]]):
    """The page data (`Game.page_data`): the `pieces`, and `placements-SIZE`, the
    placement table of each board size the rules allow (companion/games/vnp/page.py),
    built when first asked."""

    names = ("pieces", *(f"{TABLE_PREFIX}{size}" for size in BOARD_SIZES))

    def __getitem__(self, name: str) -> Callable[[], Any]:
        if name not in self.names:
            raise KeyError(name)
        if name == "pieces":
            return pieces
        size = int(name.removeprefix(TABLE_PREFIX))

        def table() -> dict[str, Any]:
            from companion.games.vnp.page import placement_table

            return placement_table(size)

        return table

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)


def lab() -> Any:
    """The designer's lab part (`companion/games/vnp/lab.py`): imported on demand, so the table
    never loads the fast engine."""
    from companion.games.vnp.lab import LAB

    return LAB


VNP = Game(
    **FACTS.fields(),
    default_seats=4,
    referee=referee,
    check=check,
    spots=lambda seats, layout: 0,
    tokens=tokens,
    simulated_setup=simulated_setup,
    simulate=simulate,
    bots=BOTS,
    console=console,
    describe=describe,
    screens=screens,
    voice=VOICE,
    words=words.PHRASES,
    console_words=words.CONSOLE_WORDS,
    controls=("place", "pass", "hint", "back"),
    page_view=page_view,
    page_value=page_value,
    page_data=PageData(),
    played_on_page=True,
    lowest_wins=True,  # VNP-6
    lab=lab,
    engine=ENGINE,
    page_assets=resources.files("companion.games.vnp") / "static",
)
