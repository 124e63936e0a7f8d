"""The power-on menu (docs/table.md, "Starting a game"): a pure state machine.

No I/O and no clock: the service turns encoder detents, pushes, the back button and the
readers' reports into calls of ``turn``, ``push``, ``back`` and ``table``, draws
``screen(menu)`` after each, and opens the game once ``menu.result`` is set.

The steps, in order:

    RESUME  only when an unfinished journal exists: "resume" or "new game"
    GAME    one of the registered games
    SEATS   the game's number of players (its rule set's range, capped by the seats the
            console has buttons for); starts at the config's number of seats
    FIRST   the first player (the game's own question, `Game.first_question`), by name:
            the config's names, else "Siège N" / "Seat N"
    SOUND   only when the table has a voice ([sound] backend not "none"): its volume for
            this game, or off; starts at the config's volume
    READY   "put every token in front of its owner, hats empty": with readers, the game
            starts as soon as every spot (the pad and the hats) reads empty; without
            readers, a push starts it

The encoder wraps around at both ends of every list; a push confirms and goes on; back
(or a long push) goes one step back. Changing the game keeps the number of seats and the
first player when they still fit, and clamps them otherwise.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion import games as registry
from companion.screens.model import MenuScreen
from companion.screens.text import DEFAULT_LANGUAGE, is_default_seat_name, phrase

MAX_SEATS = 6


class Step(StrEnum):
    RESUME = "resume"
    GAME = "game"
    SEATS = "seats"
    FIRST = "first"
    SOUND = "sound"
    READY = "ready"


RESUME_OPTIONS = ("resume", "new")
VOLUMES = (0, 25, 50, 75, 100)
"""The volumes the SOUND step offers (0: off), with the config's own among them."""


@dataclass(frozen=True, slots=True)
class Resume:
    """Continue the unfinished journal's game."""


@dataclass(frozen=True, slots=True)
class NewGame:
    """A new game: ``seats`` are the names clockwise, ``first`` a 0-based seat;
    ``volume`` the voice's for this game (None: the table has no voice, the config's
    stands)."""

    game: str
    seats: tuple[str, ...]
    first: int
    volume: int | None = None


Result = Resume | NewGame


@dataclass(frozen=True, slots=True)
class Menu:
    step: Step
    game: str
    seats: int
    first: int
    names: tuple[str, ...]
    """The config's seat names (a default name, "Seat 3" or "Siège 3", counts as unnamed)."""
    language: str
    resumable: bool
    readers: bool
    """Do readers report the table? Without, a push at READY starts the game."""
    max_seats: int
    games: tuple[str, ...]
    """The games offered (those this console has seats for), in the registry's order."""
    own_layout: tuple[str, int, Mapping[str, Any]] | None = None
    """The config's own layout of the spots, with the game and number of seats it is for
    (another choice takes the game's own layout)."""
    resume_cursor: int = 0
    table: tuple[tuple[int, frozenset[str] | None], ...] = ()
    """The latest report of each spot that reported (None: its reader is silent)."""
    result: Result | None = None
    volume: int | None = None
    """The voice's volume chosen so far (0: off); None: the table has no voice, and no
    SOUND step."""


def seat_range(game: str, max_seats: int = MAX_SEATS) -> tuple[int, ...]:
    """The numbers of players ``game`` allows at this console, in order (from its facts:
    no game is loaded to list the choices)."""
    return tuple(n for n in registry.facts(game).seats if n <= max_seats)


def _placeholder(name: str, index: int) -> bool:
    return is_default_seat_name(name, index)


def new_menu(
    game: str,
    names: Sequence[str],
    first: int = 0,
    *,
    language: str = DEFAULT_LANGUAGE,
    resumable: bool = False,
    readers: bool = True,
    max_seats: int = MAX_SEATS,
    layout: Mapping[str, Any] | None = None,
    volume: int | None = None,
) -> Menu:
    """The menu at power-on, preset from the config (its game, its number of seats and
    first player). ``layout``: the config's layout, used for its game and seat count;
    ``volume``: the config's volume when the table has a voice (None: it has none)."""
    games = _offered(registry.names(scan=False), max_seats)
    if game not in games:
        raise ValueError(f"{game} cannot be played with {max_seats} seats")
    menu = Menu(
        step=Step.RESUME if resumable else Step.GAME,
        game=game,
        seats=len(names),
        first=first,
        names=tuple(names),
        language=language,
        resumable=resumable,
        readers=readers,
        max_seats=max_seats,
        games=games,
        own_layout=None if layout is None else (game, len(names), layout),
        volume=volume,
    )
    return _fit(menu)


def _offered(games: Sequence[str], max_seats: int) -> tuple[str, ...]:
    """The games this console has seats for."""
    return tuple(g for g in games if seat_range(g, max_seats))


def with_every_game(menu: Menu) -> Menu:
    """The menu offering the games installed on their own too (an entry point,
    $COMPANION_GAMES): `new_menu` offers the built-in games and those already loaded, so that
    its first frame waits for no scan of the installed distributions; the service adds the
    others right after that frame."""
    return dataclasses.replace(menu, games=_offered(registry.names(), menu.max_seats))


def _fit(menu: Menu) -> Menu:
    """Seats within the game's range, the first player among them."""
    allowed = seat_range(menu.game, menu.max_seats)
    seats = min(allowed, key=lambda n: (abs(n - menu.seats), n))  # the nearest allowed
    first = menu.first if 0 <= menu.first < seats else 0
    return dataclasses.replace(menu, seats=seats, first=first)


def seat_names(menu: Menu) -> tuple[str, ...]:
    """The names of the chosen number of seats: the config's, else "Siège N"."""
    out = []
    for i in range(menu.seats):
        name = menu.names[i] if i < len(menu.names) else ""
        if _placeholder(name, i):
            name = phrase("menu.seat", menu.language, n=i + 1)
        out.append(name.strip())
    return tuple(out)


def spot_count(menu: Menu) -> int:
    """The hat spots of the chosen game and seats (1..N; the pad is 0): the game is loaded
    (once chosen, at the READY step, it is about to start)."""
    own = menu.own_layout
    layout = own[2] if own is not None and own[:2] == (menu.game, menu.seats) else None
    return registry.get(menu.game).spots(menu.seats, layout)


def not_empty(menu: Menu) -> tuple[int, ...]:
    """The spots (0 the pad, 1..N the hats) not read empty yet, in order."""
    seen = dict(menu.table)
    return tuple(s for s in range(spot_count(menu) + 1) if seen.get(s) != frozenset())


def volumes(menu: Menu) -> tuple[int, ...]:
    """The SOUND step's choices: `VOLUMES` and the config's own volume, in order."""
    return tuple(sorted({*VOLUMES, menu.volume or 0}))


def _wrap(value: int, steps: int, low: int, count: int) -> int:
    return low + (value - low + steps) % count


def turn(menu: Menu, steps: int) -> Menu:
    """The encoder moved ``steps`` detents (positive: clockwise, to the next choice)."""
    if menu.result is not None or steps == 0:
        return menu
    if menu.step is Step.RESUME:
        return dataclasses.replace(
            menu, resume_cursor=_wrap(menu.resume_cursor, steps, 0, len(RESUME_OPTIONS))
        )
    if menu.step is Step.GAME:
        games = menu.games
        index = _wrap(games.index(menu.game), steps, 0, len(games))
        return _fit(dataclasses.replace(menu, game=games[index]))
    if menu.step is Step.SEATS:
        allowed = seat_range(menu.game, menu.max_seats)
        seats = allowed[_wrap(allowed.index(menu.seats), steps, 0, len(allowed))]
        return _fit(dataclasses.replace(menu, seats=seats))
    if menu.step is Step.FIRST:
        return dataclasses.replace(menu, first=_wrap(menu.first, steps, 0, menu.seats))
    if menu.step is Step.SOUND:
        choices = volumes(menu)
        index = _wrap(choices.index(menu.volume or 0), steps, 0, len(choices))
        return dataclasses.replace(menu, volume=choices[index])
    return menu


_NEXT = {
    Step.GAME: Step.SEATS,
    Step.SEATS: Step.FIRST,
    Step.FIRST: Step.SOUND,
    Step.SOUND: Step.READY,
}
_PREVIOUS = {
    Step.SEATS: Step.GAME,
    Step.FIRST: Step.SEATS,
    Step.SOUND: Step.FIRST,
    Step.READY: Step.SOUND,
}


def _skip(menu: Menu, step: Step, moves: Mapping[Step, Step]) -> Step:
    """`step`, or the one after it in `moves` when it is the SOUND step of a table
    without a voice."""
    return moves[step] if step is Step.SOUND and menu.volume is None else step


def push(menu: Menu) -> Menu:
    """The encoder's push: confirm this step's choice."""
    if menu.result is not None:
        return menu
    if menu.step is Step.RESUME:
        if RESUME_OPTIONS[menu.resume_cursor] == "resume":
            return dataclasses.replace(menu, result=Resume())
        return dataclasses.replace(menu, step=Step.GAME)
    if menu.step is Step.READY:
        return menu if menu.readers else _start(menu)
    step = _skip(menu, _NEXT[menu.step], _NEXT)
    return _check_ready(dataclasses.replace(menu, step=step))


def back(menu: Menu) -> Menu:
    """The back button (or a long push): one step back."""
    if menu.result is not None:
        return menu
    if menu.step is Step.GAME:
        return dataclasses.replace(menu, step=Step.RESUME) if menu.resumable else menu
    if menu.step in _PREVIOUS:
        return dataclasses.replace(menu, step=_skip(menu, _PREVIOUS[menu.step], _PREVIOUS))
    return menu


def table(menu: Menu, spot: int, uids: frozenset[str] | None) -> Menu:
    """A reader's report: what spot ``spot`` holds now (None: its reader went silent)."""
    if menu.result is not None:
        return menu
    seen = dict(menu.table)
    seen[spot] = uids
    return _check_ready(dataclasses.replace(menu, table=tuple(sorted(seen.items()))))


def _check_ready(menu: Menu) -> Menu:
    if menu.step is Step.READY and menu.readers and not not_empty(menu):
        return _start(menu)
    return menu


def _start(menu: Menu) -> Menu:
    chosen = NewGame(menu.game, seat_names(menu), menu.first, menu.volume)
    return dataclasses.replace(menu, result=chosen)


def screen(menu: Menu) -> MenuScreen:
    """What the OLED shows for the menu now."""
    title = "" if menu.step in (Step.RESUME, Step.GAME) else menu.game
    if menu.step is Step.RESUME:
        return MenuScreen(menu.step.value, RESUME_OPTIONS, menu.resume_cursor, title)
    if menu.step is Step.GAME:
        games = menu.games
        return MenuScreen(menu.step.value, games, games.index(menu.game), title)
    if menu.step is Step.SEATS:
        allowed = seat_range(menu.game, menu.max_seats)
        options = tuple(str(n) for n in allowed)
        return MenuScreen(menu.step.value, options, allowed.index(menu.seats), title)
    if menu.step is Step.FIRST:
        return MenuScreen(menu.step.value, seat_names(menu), menu.first, title)
    if menu.step is Step.SOUND:
        choices = volumes(menu)
        options = tuple(str(v) for v in choices)
        return MenuScreen(menu.step.value, options, choices.index(menu.volume or 0), title)
    waiting = tuple(str(s) for s in not_empty(menu)) if menu.readers else ()
    return MenuScreen(menu.step.value, waiting, -1 if menu.readers else 0, title)
