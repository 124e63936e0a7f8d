"""A game as the runtime sees it: its `Game` descriptor, the referee contract
(`TableReferee`, with the capabilities `Announcing` and `Aiming`) and what a descriptor
declares of its table (`TokenFamily`, `Button`, `TableSetting`, `RuleOption`,
`Printables`).

The referee contract is what every game's referee offers the runtime: it takes the
journal inputs one at a time, with time first and presses held while the table settles
(`companion/referee/pace.py`), and exposes the events, the screen to draw, whether the
game is finished, the scores and the winner; it also says whose act a phone's press would
be (`seat_refusal`), since a phone acts only for its own seat. A game whose table has
announce buttons or an encoder adds those capabilities (`Announcing`, `Aiming`).

The registry (`companion.games`) holds the descriptors; this module, below it and below
every part of the runtime, holds only their types.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import IO, TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

from companion.contract.engine import AnyEngine
from companion.contract.inputs import Input, Setup
from companion.referee.event_log import EventLog, TableEvent
from companion.referee.table import ObservedTable
from companion.screens.model import Reason

if TYPE_CHECKING:  # leaves, read by mypy only (the lab is imported when asked for)
    from companion.games.virtual_kit import Kit
    from companion.lab.model import LabGame
    from companion.screens.pen import Pen


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
    def screen(self) -> object:
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

    def moment(self) -> tuple[object, ...]:
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

    def seat_refusal(self, seat: int, control: str, value: object) -> Reason | None:
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


Describer = Callable[[TableEvent, Sequence[str], str], "str | None"]
"""A game's own transcript lines: (one of its events, seat names, language) -> its line,
or None for an event left to the lines every game shares (`companion.transcript`)."""

Sayer = Callable[[object, Sequence[str], str, object], str]
"""How a game says its prompts: (one of its prompts, seat names, language, the public
screen showing it, for what the sentence may need beyond the prompt) -> the sentence, as
the OLED words it; a TypeError for a prompt that is not the game's."""


class Renderer(Protocol):
    """How one kind of screens is drawn: (the pen on a blank 128x64 drawing, a screen of
    that kind, language); a TypeError for a screen of another kind."""

    def __call__(self, pen: Pen, screen: object, lang: str, /) -> None: ...


class KindRenderer(Renderer, Protocol):
    """A renderer that names the kind of screens it draws (a `Drawing`)."""

    @property
    def kind(self) -> type: ...


S = TypeVar("S")


@dataclass(frozen=True)
class Drawing(Generic[S]):
    """One kind of screens and how each is drawn, as a `Renderer`: mypy holds `render` to
    `kind`, and the drawing refuses a screen of another kind."""

    kind: type[S]
    render: Callable[[Pen, S, str], None]

    def __call__(self, pen: Pen, screen: object, lang: str, /) -> None:
        if not isinstance(screen, self.kind):
            raise TypeError(f"{self.kind.__name__} is drawn, not {type(screen).__name__}")
        self.render(pen, screen, lang)


def drawings(*each: KindRenderer) -> Mapping[type, Renderer]:
    """Screen kinds and how each is drawn, as `Game.screens` gives them: ``drawings(
    Drawing(BoardScreen, render_board), ...)``."""
    return MappingProxyType({drawing.kind: drawing for drawing in each})


EngineWords = Mapping[str, Mapping[str, str]]
"""A game's French for its engine's names that an English line shows as they are: group
("fault", "step", "phase") -> the engine's name ("designate") -> its French ("le
placement"), said by the lines every game shares (`companion.transcript.engine_word`)."""

Speak = Callable[[TableEvent, object, Sequence[str], str], "str | None"]
"""What a game says aloud of one of its events: (the event, the public screen after the
input that made it, seat names, language) -> the sentence to say, "" to say nothing, or
None to leave the event to the shared lines (a won game, a fault, the table fixed)."""
Turn = Callable[[Sequence[TableEvent], object], "int | None"]
"""A game's turns: (one input's events, the public screen after it) -> the seat the table
should hear is to play now ("À toi, Bob.", said last), or None. For a game whose events
do not say whose turn it is (its screen does)."""


@dataclass(frozen=True)
class Voice:
    """What the table says aloud of a game (`companion.speech`): its events, and its turns
    if its events do not say them."""

    speak: Speak
    turn: Turn | None = None


class SimResultLike(Protocol):
    setup: Setup
    inputs: list[Input]

    @property
    def referee(self) -> TableReferee | None: ...


def _no_options(parser: argparse.ArgumentParser) -> None:
    """A printable with no option but the file to write."""


@dataclass(frozen=True)
class Printables:
    """What a game offers to print, written by `companion deck GAME --out FILE` (a deck of
    cards, as a PDF to print or PNGs to look at)."""

    summary: str
    """One line for `companion deck --help` ("its cards"). This field and the
    command-line texts of `RuleOption` and `TableSetting` are a text, or the key of the
    game's phrase (`register_words`), said in the command line's language
    (`companion.cli_words.text_of`)."""
    description: str
    """What `companion deck GAME --help` says: what is printed, and how to print it."""
    write: Callable[[argparse.Namespace, Path], str]
    """(the parsed options, the file to write, in a folder that exists) -> what was
    written, in words of the command line's language ("24 cards on 3 pages"). Raises
    ValueError, one line naming the option (``--size 2: ...``), for an option or a kind of
    file it refuses, before writing anything; OSError when it cannot write there."""
    options: Callable[[argparse.ArgumentParser], None] = _no_options
    """Adds the game's own options to `companion deck GAME` (a deck's ``--size``)."""


@dataclass(frozen=True)
class RuleOption:
    """A shorthand option of `companion selfplay GAME` for one of the game's engine
    settings: ``--turn-limit 30`` is ``--rule turn_limit=30``."""

    flag: str
    """As typed ("--turn-limit")."""
    rule: str
    """The engine setting it sets, by its `[game.rules]` name ("turn_limit")."""
    type: Callable[[str], object]
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
    check: Callable[[object], object]
    """The value as the game takes it, or None when refused (a bool is no number)."""
    fix: str
    """What a person reads when a value is refused: its bounds and what it means (a text
    or a phrase's key, as `Printables.summary`)."""
    default: object
    """The value when neither the file nor the option gives one."""
    shown: str
    """How `config check` summarises it, a format of ``value`` (``"x {value:g} s"``), or
    the key of the game's phrase that is one."""
    option_help: str | None = None
    """What `companion play --help` says of ``--<name>`` (its meaning and bounds; the
    default, the config key and the games taking it are added); None: no option."""
    legacy: bool = False
    """The setup lines written before the games' settings moved under `rules` carried it at
    top level, whatever the game: the journal reader still reads it there (with `check`),
    moves it into `rules` for a game taking it, and drops it for the others."""


@dataclass(frozen=True)
class TokenFamily:
    """A family of tagged tokens a game declares: its tokens' kinds are "<name>:<word>"
    ("card:QH"). `companion enroll` records a tag only under a kind of a
    registered game's family, and the logs blank any kind of one (`companion.run.supervise`).
    Two games declaring the same family declare the same one (the contract suite checks)."""

    name: str
    """The part before ":" ("animal")."""
    pattern: str
    """A regular expression for the part after ":" ("(?:[A2-9TJQK]|10)[SHDC]")."""
    shown: str
    """How a refusal writes the family's kinds for a person ("card:<rank><suit> (e.g.
    card:QH)"): a text, or the key of the game's phrase (as `Printables.summary`)."""
    noun: str = ""
    """What enrolment calls one of its shared tokens ("tap card 3 (3 of 24) on the pad"),
    a text or a phrase's key; "": the family's name."""
    named: str = ""
    """The key of the phrase naming one token by the part of its kind after ":", with a
    ``{word}`` field ("g.token.{word}"), said in the command line's language; "": the word
    itself, capitalised."""

    @classmethod
    def of_words(
        cls, name: str, words: Iterable[str], noun: str = "", named: str = ""
    ) -> TokenFamily:
        """A family whose kinds are a closed list of words, shown "<name>:<word>|<word>"."""
        listed = tuple(words)
        pattern = "|".join(map(re.escape, listed))
        return cls(name, pattern, f"{name}:{'|'.join(listed)}", noun, named)

    def holds(self, kind: str) -> bool:
        """Is `kind` one of this family's ("card:QH" of the cards)?"""
        family, colon, rest = kind.partition(":")
        return bool(colon) and family == self.name and re.fullmatch(self.pattern, rest) is not None

    @property
    def enrolled_as(self) -> str:
        """The word enrolment names one of its shared tokens by."""
        return self.noun or self.name

    def token_name(self, word: str) -> str:
        """The key of the phrase naming the token `word` (the part of its kind after ":"),
        or the word capitalised when the family names none ("stone": "Stone"; a card stays "AH")."""
        return self.named.format(word=word) if self.named else word[:1].upper() + word[1:]


@dataclass(frozen=True)
class Button:
    """A button every seat has that a game declares (a call, a pass): a press journals
    ``press <name> seat=<s>``. The pin map wires it under ``[pi.seats]`` with one BCM
    pin per seat; a table whose pin map leaves it out has it at `pins`. Two
    games declaring the same button declare the same one (the contract suite checks)."""

    name: str
    """The press's control, and its key under ``[pi.seats]``."""
    labels: Mapping[str, str]
    """Its label on the OLED and in messages, in each language of the table."""
    pins: tuple[int, ...]
    """Its default BCM pins, seat 1 first (at least one per seat the game allows)."""

    def label(self, lang: str) -> str:
        """Its label in `lang`, else its name."""
        return self.labels.get(lang, self.name)


Words = Mapping[str, Mapping[str, str]]
"""A game's phrases in the shared catalogue (`companion/screens/text.py`), by language then
key, the same keys in every language of the table: ``{"fr": {"<game>.title": ...}, "en": ...}``.
The registry adds them to the catalogue when it loads the game's descriptor or facts."""


def joined(*tables: Words) -> dict[str, dict[str, str]]:
    """`tables` in one, language by language (a key of a later table wins)."""
    langs = dict.fromkeys(lang for table in tables for lang in table)
    return {lang: {k: v for t in tables for k, v in t.get(lang, {}).items()} for lang in langs}


@dataclass(frozen=True)
class Facts:
    """What the power-on menu shows of a game before it is chosen: its name and title,
    its numbers of players, its questions. A built-in game states them in a module of
    their own (`<its package>.facts`), which imports nothing else of the game, so that the
    menu lists every game without loading one; its `Game` takes them from there."""

    name: str
    title: str
    seats: Sequence[int]
    first_question: str = "menu.title.first"
    ready_prompt: str = "menu.title.ready"
    menu_words: Words = field(default_factory=dict)
    """The phrases of its own that the menu shows (its question, its prompt)."""

    def fields(self) -> dict[str, Any]:
        """These facts as a `Game`'s keyword arguments."""
        return {f: getattr(self, f) for f in self.__dataclass_fields__}


@dataclass(frozen=True)
class Game:
    """Everything the runtime needs of one game (its first fields are its `Facts`)."""

    name: str
    """As configs, journals and commands write it (lower case, no space)."""
    title: str
    """As the OLED shows it, as its rule book writes it."""
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
    book's: a deck's size), in the order to enrol them: (the seat it belongs to,
    or None for a shared one such as a card; its kind, e.g. "card:QH")."""
    simulated_setup: Callable[..., Setup]
    """(seats, seed, **options) -> the setup of a simulated table, its tags made up."""
    simulate: Callable[..., SimResultLike]
    """(setup, on_input=None, bots=None, **options) -> one whole simulated game."""
    bots: tuple[str, ...]
    """The bot kinds selfplay and the simulated table may seat."""
    console: Callable[[Any, Iterable[str], IO[str], str], int] | None = None
    """`play --sim`: (the session, which sits above the contract; input lines, output,
    language) -> exit status; None if the game has no typed table yet."""
    controls: tuple[str, ...] = ()
    """The console controls the game uses (journal `press` controls)."""
    describe: Describer | None = None
    """Its own lines for its own events in a transcript (`companion replay`, the demo, the
    page's history), in English or French; asked first for this game's events only, so
    two games may share a kind ("swap"). None: the lines every game shares only."""
    engine_words: EngineWords = field(default_factory=dict)
    """The French of its engine's names in the lines every game shares (an undone step, a
    fault); a name the core already says is the core's."""
    screens: Callable[[], Mapping[type, Renderer]] | None = None
    """() -> the kinds of its OLED screens and how each is drawn (its screens module,
    imported when a screen of the game is first drawn), so any path that has one of its
    screens draws it (`companion.screens.render.draw`). None: a game with no screen of
    its own."""
    say: Sayer | None = None
    """How its screens' prompts are said aloud (a fault's fix, the first instruction). None:
    its prompts are not said."""
    voice: Voice | None = None
    """What the table says aloud of its events (`companion.speech`), whether or not any
    of its modules was loaded before. None: the lines every game shares only."""
    first_question: str = "menu.title.first"
    """The text key of the power-on menu's question for the first player (the one its
    rule book names)."""
    ready_prompt: str = "menu.title.ready"
    """The text key of the power-on menu's last step, while it waits for an empty table:
    each seat's tokens back before it, or every card off the mat; a game played on the
    phones only needs the pad clear."""
    menu_words: Words = field(default_factory=dict)
    """The phrases of its own the power-on menu shows (its `Facts`'), when one of its keys
    above is not the core's."""
    words: Words = field(default_factory=dict)
    """Its own phrases that a screen may draw (its screens', its refusals'), checked against
    the OLED's font; the registry adds them to the catalogue when it loads the descriptor, so
    any path that has the game has its words, whichever of its modules it imported."""
    console_words: Words = field(default_factory=dict)
    """Its own phrases of the command line, drawn by no screen (its typed table, options,
    enrolment's names of its tokens)."""
    token_families: tuple[TokenFamily, ...] = ()
    """The families its tagged tokens (`tokens`) belong to: what `companion enroll`
    accepts of this game and the logs blank."""
    buttons: tuple[Button, ...] = ()
    """The buttons every seat has in this game (each one of its `controls`)."""
    page_view: Callable[[TableReferee], dict[str, Any]] | None = None
    """(referee) -> the game's own public facts for the table's web page, drawn by its
    page view (a board, the pieces left and the legal placements; the hats and how many
    tokens each holds); JSON-ready. Built from the engine's
    public view and public events only, never a hidden fact: the contract suite's no-peek
    test compares it with the tokens' tags exchanged. None: the page shows the common view
    only."""
    page_value: Callable[[str, object, int, Mapping[str, Any]], object] | None = None
    """(control, value sent by the page, the paired seat, the game's public `page_view`)
    -> the press value to journal; raises `companion.web.errors.Refused` for a value the
    page may not send (another seat's colour, a shape that is no piece). None: the page's
    value is journaled as sent."""
    page_data: Mapping[str, Callable[[], object]] = field(default_factory=dict)
    """Fixed public data the game's page fetches once, by name (`/api/<game>/<name>`: the
    shapes of its pieces)."""
    played_on_page: bool = False
    """Players act on the web page (paired phones), not with tokens: the OLED asks the
    seat to play to pair a phone when it has none."""
    lowest_wins: bool = False
    """The lowest score wins (a score counts against its player): the club's standings say
    so beside the game's points."""
    lab: Callable[[], LabGame] | None = None
    """() -> the game's part of the lab (imported on demand: the lab's fast engines are no
    concern of the table). None: `companion lab` cannot play it."""
    engine: AnyEngine | None = None
    """The game's pure rules under the engine contract (`companion/contract/engine.py`): what
    the contract suite (tests/rules/test_conformance.py) plays on every registered game.
    None: a game with no engine of its own (its referee holds the rules)."""
    printables: Printables | None = None
    """What `companion deck GAME` writes to print (a deck of cards); None: the game has
    nothing to print."""
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
    `rules` (``window`` -> ``window_seconds``). The config and the journal reader
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

    @property
    def facts(self) -> Facts:
        """What the power-on menu shows of this game."""
        return Facts(**{f: getattr(self, f) for f in Facts.__dataclass_fields__})

    def setup_rules(
        self, settings: Mapping[str, Any], rules: Mapping[str, Any] | None
    ) -> dict[str, Any] | None:
        """A new setup's `rules`: the config's `settings` this game takes, under their
        `rules` keys, with its ``[game.rules]`` over them; None when there is neither."""
        taken = {key: settings[name] for name, key in self.setup_fields.items() if name in settings}
        merged = taken | dict(rules or {})
        return merged or None
