"""The games the companion runs: one descriptor each, in one registry.

The runtime (the service, sessions, the demo, replay, the lab, enrolment, the power-on
menu) knows no game: it asks the registry for a `Game` by the name a config, a journal or
a command line gives, and works through the descriptor's parts. A game is one package
(`companion/games/<game>/`: its engine, referee, screens, words, bots, simulated table and
lab) whose `game` module registers its descriptor; nothing outside it imports it. The
registry knows the built-in games by name (`BUILT_IN`) and imports one's module when it is
first asked for; it imports every module an installed distribution names in its entry
points of group `companion.games` (a game shipped on its own), and every module named in
the environment variable `COMPANION_GAMES` (comma-separated), which is how the tests add a
tiny game without touching anything else.

The referee contract (`TableReferee`) is what every game's referee offers the runtime: it
takes the journal inputs one at a time, with time first and presses held while the table
settles (`companion/referee/pace.py`), and exposes the events, the screen to draw, whether
the game is finished, the scores and the winner; it also says whose act a phone's press
would be (`seat_refusal`), since a phone acts only for its own seat. A game whose table
has announce buttons or an encoder adds those capabilities (`Announcing`, `Aiming`).
"""

from __future__ import annotations

import argparse
import importlib
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol, runtime_checkable

from companion.games.engine import AnyEngine
from companion.journal import Input, Setup
from companion.referee.event_log import EventLog, TableEvent
from companion.referee.table import ObservedTable
from companion.screens.model import Reason

if TYPE_CHECKING:
    from companion.games.virtual_kit import Kit


class TableReferee(Protocol):
    """One game's referee, as the runtime sees it."""

    setup: Setup
    names: tuple[str, ...]
    now: float
    events: EventLog[TableEvent]
    observed: ObservedTable
    """What the readers report (PacedReferee keeps it)."""

    def feed(self, record: Input) -> list[TableEvent]:
        """Take one input (time first); the JSON-ready events it caused."""
        ...

    @property
    def screen(self) -> Any:
        """What the OLED shows now, built from public facts only."""
        ...

    @property
    def finished(self) -> bool: ...

    def warm_up(self) -> None:
        """Build what the game needs to take its inputs but not to show the table (the
        service calls it once the table is ready, before the first input)."""
        ...

    def result(self) -> dict[str, Any]:
        """The replay document: {"game", "events", "scores", "winner"}."""
        ...

    def next_due(self) -> float | None:
        """When the referee next acts on its own (the settle's judgment, a game deadline),
        in its time, or None (PacedReferee)."""
        ...

    def moment(self) -> tuple[Any, ...]:
        """Everything an input can change but the clock (a tick that leaves it equal
        changed nothing a later input depends on)."""
        ...

    def where(self, lang: str = "en") -> str:
        """Where the game stands, in one line: in English for the logs and the systemd
        status, in the table's language (`lang`) for the web page."""
        ...

    @property
    def spots(self) -> int:
        """The hat spots 1..N the readers watch (0, the pad, comes on top)."""
        ...

    def seat_refusal(self, seat: int, control: str, value: Any) -> Reason | None:
        """Why `seat`'s paired phone may not press `control` (with `value`) now, or None.

        Whose act it is, never whether it is legal: a seat's own button is its own; a
        console control that belongs to no seat (the announce buttons, the encoder) is the
        seat's only while it is that seat that would press it now; `back` only takes back
        the seat's own step (with nothing to take back it is let through, and the referee
        says so). The web page asks before a press is journaled; a refusal journals nothing
        (docs/web.md)."""
        ...


@runtime_checkable
class Announcing(Protocol):
    """A referee whose game gives the console's announce buttons a meaning. A game without
    one leaves them out: the runtime asks `isinstance(referee, Announcing)` and reads its
    buttons as meaning nothing. A referee declares it by subclassing it, so mypy holds its
    members to this contract."""

    @property
    def announce_values(self) -> tuple[str, ...]:
        """What the console's announce buttons 1, 2, 3... name in this game."""
        ...


@runtime_checkable
class Aiming(Protocol):
    """A referee whose game uses the encoder: what a turn cycles through, and what it aims
    at. A game without one leaves it out: the runtime drops the encoder's turns and sends
    its push with nothing aimed (`isinstance(referee, Aiming)`). A referee declares it by
    subclassing it, so mypy holds its members to this contract."""

    def encoder_choices(self) -> tuple[tuple[int, ...], ...]:
        """What the encoder cycles through now (none: a turn means nothing now)."""
        ...

    @property
    def aim(self) -> tuple[int, ...] | None:
        """The encoder's current choice, if any."""
        ...


class SimResultLike(Protocol):
    setup: Setup
    inputs: list[Input]

    @property
    def referee(self) -> TableReferee | None: ...


OnInput = Callable[[Input, Any], None]


def _no_options(parser: argparse.ArgumentParser) -> None:
    """A printable with no option but the file to write."""


@dataclass(frozen=True)
class Printables:
    """What a game offers to print, written by `companion deck GAME --out FILE` (Swiped:
    its deck of layout cards, as a PDF to print or PNGs to look at)."""

    summary: str
    """One line for `companion deck --help` ("its layout cards")."""
    description: str
    """What `companion deck GAME --help` says: what is printed, and how to print it."""
    write: Callable[[argparse.Namespace, Path], str]
    """(the parsed options, the file to write, in a folder that exists) -> what was
    written, in words ("24 cards on 3 pages"). Raises ValueError, one line naming the option
    (``--size 2: ...``), for an option or a kind of file it refuses, before writing
    anything; OSError when it cannot write there."""
    options: Callable[[argparse.ArgumentParser], None] = _no_options
    """Adds the game's own options to `companion deck GAME` (Swiped: ``--size``, ``--seed``)."""


@dataclass(frozen=True)
class RuleOption:
    """A shorthand option of `companion selfplay GAME` for one of the game's engine
    settings: ``--turn-limit 30`` is ``--rule turn_limit=30`` (PassPass, PTI-15)."""

    flag: str
    """As typed ("--turn-limit")."""
    rule: str
    """The engine setting it sets, by its `[game.rules]` name ("turn_limit")."""
    type: Callable[[str], Any]
    """Reads the typed value; raises ValueError or argparse.ArgumentTypeError (one line)."""
    help: str

    @property
    def dest(self) -> str:
        """Where argparse keeps its value (apart from the command's own options)."""
        return f"rule:{self.rule}"


@dataclass(frozen=True)
class TableSetting:
    """A key of the config's ``[game]`` table that belongs to the games declaring it (their
    `Game.table_settings`), not to the core: the config checks it, `config check` shows it,
    a new setup of such a game carries it in its `rules` (under the key its `setup_fields`
    give), and `play --sim` may offer it as an option. Two games taking the same key
    declare the same setting (`table_settings`)."""

    name: str
    """Its key in the config's ``[game]`` table; also its option's, ``--<name>``."""
    check: Callable[[Any], Any]
    """The value as the game takes it, or None when refused (a bool is no number)."""
    fix: str
    """What a person reads when a value is refused: its bounds and what it means."""
    default: Any
    """The value when neither the file nor the option gives one."""
    shown: str
    """How `config check` summarises it, a format of ``value`` (``"x {value:g} s"``)."""
    option_help: str | None = None
    """What `companion play --help` says of ``--<name>`` (its meaning and bounds; the
    default, the config key and the games taking it are added); None: no option."""
    legacy: bool = False
    """The setup lines written before the games' settings moved under `rules` carried it at
    top level, whatever the game: the journal reader still reads it there (with `check`),
    moves it into `rules` for a game taking it, and drops it for the others."""


@dataclass(frozen=True)
class Game:
    """Everything the runtime needs of one game."""

    name: str
    """As configs, journals and commands write it ("ptipasspass")."""
    title: str
    """As the OLED shows it ("PtiPassPass")."""
    seats: Sequence[int]
    """The numbers of players the rules allow, in order (a range, or e.g. (2, 4))."""
    default_seats: int
    referee: Callable[[Setup], TableReferee]
    """The table referee of a game set up by a journal's first line."""
    check: Callable[[int, int, Mapping[str, Any] | None], None]
    """Raises ValueError (a sentence) when seats, first seat (0-based) and layout cannot
    start this game."""
    spots: Callable[[int, Mapping[str, Any] | None], int]
    """How many hat spots the mat has for that many seats (and an optional own layout)."""
    tokens: Callable[[int, Mapping[str, Any] | None], Sequence[tuple[int | None, str]]]
    """Every tagged token of a game of that many seats (and its own rules, None for the
    book's: Swiped's ``deck_size``), in the order to enrol them: (the seat it belongs to,
    or None for a shared one such as a card; its kind, e.g. "animal:lapin")."""
    simulated_setup: Callable[..., Setup]
    """(seats, seed, **options) -> the setup of a simulated table, its tags made up."""
    simulate: Callable[..., SimResultLike]
    """(setup, on_input=None, bots=None, **options) -> one whole simulated game."""
    bots: tuple[str, ...]
    """The bot kinds selfplay and the simulated table may seat."""
    console: Callable[[Any, Any, IO[str], str], int] | None = None
    """`play --sim`: (session, input lines, output, language) -> exit status; None if the
    game has no typed table yet."""
    controls: tuple[str, ...] = ()
    """The console controls the game uses (journal `press` controls)."""
    first_question: str = "menu.title.first"
    """The text key of the power-on menu's question for the first player (PassPass asks
    who did a magic trick most recently, PTI-13)."""
    ready_prompt: str = "menu.title.ready"
    """The text key of the power-on menu's last step, while it waits for an empty table:
    PassPass's tokens go back to their owners; cards (and cubes) off the mat; a game played
    on the phones only needs the pad clear."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Anything else the game's own modules want to carry."""
    page_view: Callable[[Any], dict[str, Any]] | None = None
    """(referee) -> the game's own public facts for the table's web page, drawn by its
    page view (Vous ne passerez pas !: the board, the pieces left, the legal placements;
    PassPass: the hats and how many tokens each holds); JSON-ready. Built from the engine's
    public view and public events only, never a hidden fact: the contract suite's no-peek
    test compares it with the tokens' tags exchanged. None: the page shows the common view
    only."""
    page_value: Callable[[str, Any, int, Mapping[str, Any]], Any] | None = None
    """(control, value sent by the page, the paired seat, the game's public `page_view`)
    -> the press value to journal; raises `companion.web.errors.Refused` for a value the
    page may not send (another seat's colour, a shape that is no piece). None: the page's
    value is journaled as sent."""
    page_data: Mapping[str, Callable[[], Any]] = field(default_factory=dict)
    """Fixed public data the game's page fetches once, by name (`/api/<game>/<name>`:
    Vous ne passerez pas !'s pieces)."""
    played_on_page: bool = False
    """Players act on the web page (paired phones), not with tokens: the OLED asks the
    seat to play to pair a phone when it has none."""
    lowest_wins: bool = False
    """The lowest score wins (a score counts against its player): the club's standings say
    so beside the game's points."""
    lab: Callable[[], Any] | None = None
    """() -> the game's `companion.lab.model.LabGame` (imported on demand: the lab's fast
    engines are no concern of the table). None: `companion lab` cannot play it."""
    engine: AnyEngine | None = None
    """The game's pure rules under the engine contract (`companion/games/engine.py`): what
    the contract suite (tests/rules/test_conformance.py) plays on every registered game.
    None: a game with no engine of its own (its referee holds the rules)."""
    printables: Printables | None = None
    """What `companion deck GAME` writes to print (Swiped's deck of cards); None: the game
    has nothing to print."""
    own_layout: Callable[[Mapping[str, Any]], None] | None = None
    """Checks a table's own layout of the game's spots (the config's ``[game.layout]``):
    raises ValueError saying what is wrong and how to write one. None: the game takes no
    own layout (its `check` refuses one)."""
    mat: Callable[[int, Mapping[str, Any] | None], Sequence[tuple[int, int]]] | None = None
    """(seats, the table's own layout or None) -> the (row, column) of each hat spot 1..N on
    the mat, in reading order (as many as `spots`): what the builder's mat templates are
    drawn from (companion/kit). None: the game has no spots, only the pad."""
    selfplay_options: tuple[RuleOption, ...] = ()
    """`companion selfplay GAME`'s shorthands for its engine settings (declared here, not by
    its `lab`, so the command line is built without importing any game's lab)."""
    setup_fields: Mapping[str, str] = field(default_factory=dict)
    """The table settings this game keeps in its setup's `rules`, by the name the config's
    ``[game]`` table and old journals' setup lines give them at top level -> its key in
    `rules` (PassPass: ``window`` -> ``window_seconds``). The config and the journal reader
    move them there; a game not naming one never receives it."""
    page_assets: Traversable | None = None
    """The folder of the game's own drawing on the table's web page (a package folder, via
    `importlib.resources.files`): `view.js`, the module the page imports to draw the game
    from its public snapshot (the `page_view` facts) and to act for a paired seat, with
    `view.css` and whatever else it loads. The page serves them at `/games/<name>/<file>`
    (docs/games.md, "The game's page view"). None: the page shows the common view only."""
    table_settings: tuple[TableSetting, ...] = ()
    """Its own keys of the config's ``[game]`` table (a challenge window's seconds), each
    with its check, fix, default and `play` option; `setup_fields` names each one's key in
    the setup's `rules`."""
    virtual: Callable[[Setup], Kit] | None = None
    """(setup) -> the game's virtual kit, for the virtual table (`companion run
    --virtual`, companion/web/virtual.py): where the tokens no reader sees are (a hand,
    the deck), what a seat's hands may do with them now, and what only that seat sees
    (its hand, its secret card). Its page view draws the controls. None: no virtual
    table (a game played on the page needs none)."""

    def setup_rules(
        self, settings: Mapping[str, Any], rules: Mapping[str, Any] | None
    ) -> dict[str, Any] | None:
        """A new setup's `rules`: the config's `settings` this game takes, under their
        `rules` keys, with its ``[game.rules]`` over them; None when there is neither."""
        taken = {key: settings[name] for name, key in self.setup_fields.items() if name in settings}
        merged = taken | dict(rules or {})
        return merged or None

    def players(self) -> str:
        """Its numbers of players in words: "2 to 6 players", "3 players"."""
        counts = list(self.seats)
        if len(counts) == 1:
            return f"{counts[0]} players"
        if counts == list(range(counts[0], counts[-1] + 1)):
            return f"{counts[0]} to {counts[-1]} players"
        return f"{', '.join(map(str, counts[:-1]))} or {counts[-1]} players"


class UnknownGame(ValueError):
    """A game name the registry does not know; the message lists the ones it does."""


BUILT_IN: Mapping[str, str] = {
    "ptipasspass": "companion.games.passpass.game",
    "phipasspass": "companion.games.passpass.game",
    "flipdone": "companion.games.flipdone.game",
    "swiped": "companion.games.swiped.game",
    "vnp": "companion.games.vnp.game",
}
"""The built-in games, in the menu's order, and the module that defines each. A built-in
game's module is imported when the game is first asked for (`get`), so a command pays
only for the games it uses."""
DEFAULT_GAME = "ptipasspass"
"""The game a table plays when its config names none (the first built-in game)."""
ENTRY_POINTS = "companion.games"
"""The entry-point group through which an installed distribution adds its games: each
entry point names the module that registers them (``mygame = "mygame.game"``)."""

_REGISTRY: dict[str, Game] = {}
_BUILT_IN_GAMES: dict[str, Game | None] = {}
_loaded = False


def register(game: Game) -> Game:
    """Add a game (a module named in BUILT_IN, an entry point or COMPANION_GAMES calls
    this)."""
    _REGISTRY[game.name] = game
    return game


def _load() -> None:
    """Import the games added from outside (entry points, COMPANION_GAMES) once: their
    names are only known once their modules have run."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from importlib.metadata import entry_points  # only once a game is asked for

    installed = [entry.module for entry in entry_points(group=ENTRY_POINTS)]
    extra = [m.strip() for m in os.environ.get("COMPANION_GAMES", "").split(",") if m.strip()]
    for module in (*installed, *extra):
        importlib.import_module(module)


def _built_in(name: str) -> Game | None:
    """The built-in game `name`, its module imported now if it was not yet."""
    game = _BUILT_IN_GAMES.get(name)
    if game is None:
        module = importlib.import_module(BUILT_IN[name])
        found = [g for g in vars(module).values() if isinstance(g, Game) and g.name == name]
        game = _BUILT_IN_GAMES[name] = found[0] if found else None
    return game


def names() -> tuple[str, ...]:
    """Every registered game: the built-in ones in their order, then the others in
    registration order (no built-in game's module is imported for it)."""
    _load()
    return tuple(dict.fromkeys((*BUILT_IN, *_REGISTRY)))


def get(name: str) -> Game:
    """The game `name`: a built-in one (its module imported if it was not yet; no other
    package is looked at for it, so a start pays no scan of the installed distributions),
    or one added from outside (entry points, COMPANION_GAMES)."""
    game = _built_in(name) if name in BUILT_IN else None
    if game is None:
        _load()
        game = _REGISTRY.get(name)
    if game is None:
        raise UnknownGame(f"unknown game {name!r}; games are {', '.join(names())}")
    return game


def settings_of(game: str, keys: Iterable[str] = ()) -> dict[str, TableSetting]:
    """The ``[game]`` settings to read for a table of `game` whose config gives `keys`: the
    game's own, or every game's when a key is none of them (another game's, which the
    power-on menu may switch to, or a mistake): only then are the other games loaded."""
    known = game in BUILT_IN or game in names()
    own = {s.name: s for s in get(game).table_settings} if known else {}
    return own if set(keys) <= set(own) else table_settings()


def table_settings() -> dict[str, TableSetting]:
    """Every registered game's own ``[game]`` keys, by name, in registration order (a key
    two games take is the first one's setting)."""
    found: dict[str, TableSetting] = {}
    for game in map(get, names()):
        for setting in game.table_settings:
            found.setdefault(setting.name, setting)
    return found


def taking(setting: str) -> tuple[str, ...]:
    """The registered games that take the ``[game]`` key ``setting``."""
    return tuple(
        name for name in names() if any(s.name == setting for s in get(name).table_settings)
    )


def players_problem(game: str, players: int) -> str | None:
    """Why ``--players`` does not fit the game's rule book, or None when it does."""
    if players in get(game).seats:
        return None
    return f"--players {players}: {game} is for {get(game).players()}"


def make_referee(setup: Setup) -> TableReferee:
    """The referee of the journal's game."""
    return get(setup.game).referee(setup)
