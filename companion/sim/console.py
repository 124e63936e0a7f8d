"""`companion play --sim`: a simulated table you operate by typing what your hands do.

Every command is a physical act on the virtual table or a press on the console; the
referee judges it exactly as on a real table, and the OLED is drawn after each one.

Each game's typed table lives in its package (`companion/games/<game>/console.py`, the
descriptor's `console`); this module holds what they share: `seat_of`, `show_table`,
`wait_seconds`, `obey` (one typed line, whatever is typed) and, for the games played on
a mat of spots, `SpotConsole` and `run_spot_console`.
"""

from __future__ import annotations

import os
import re
import shlex
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, Any

from companion import games
from companion.cli_words import said_in
from companion.contract.game import TableReferee
from companion.journal import Input, PressInput, Setup, SpotInput, TickInput
from companion.screens.render import frame
from companion.screens.terminal import to_braille, to_text
from companion.screens.text import phrase
from companion.session import Session
from companion.transcript import describe


def seat_of(word: str, seats: Sequence[str], lang: str) -> int:
    """A seat typed as its number (1..N) or its name, 0-based."""
    names = [n.lower() for n in seats]
    if word.lower() in names:
        return names.index(word.lower())
    if not word.isdigit() or not 1 <= int(word) <= len(names):
        raise ValueError(said_in("cli.console.no_seat", lang, word=repr(word), n=len(names),
                                names=", ".join(seats)))  # fmt: skip
    return int(word) - 1


class UnknownCommand(ValueError):
    """A verb no command of the console has."""

    def __init__(self, verb: str, lang: str) -> None:
        super().__init__(said_in("cli.console.unknown", lang, verb=repr(verb)))


Act = Callable[[str, list[str]], "bool | None"]
"""A console's commands: (verb, its words) -> None when it acted on the table (the table
is shown again), True when it only answered (help, a look); raises `UnknownCommand`,
IndexError (a word is missing) or ValueError (a bad word) for a line it cannot take."""


def obey(line: str, out: IO[str], act: Act, show: Callable[[], None],
         finished: Callable[[], bool], lang: str) -> bool:  # fmt: skip
    """Carry out one typed line, whatever it is: a line the console cannot take (a
    missing word, a bad one, an unknown verb, an unclosed quote) is answered with "?" in
    the table's language `lang` and changes nothing. False once the player quits or the
    game is over."""
    try:
        try:
            words = shlex.split(line)
        except ValueError:  # shlex's own words, English: an unclosed quote
            raise ValueError(said_in("cli.console.quote", lang)) from None
        if not words:
            return True
        verb, args = words[0].lower(), words[1:]
        if verb in ("quit", "exit"):
            return False
        if act(verb, args):
            return True
    except IndexError:
        print(said_in("cli.console.missing", lang), file=out)
        return True
    except (ValueError, KeyError) as exc:
        refused = said_in("cli.console.refused", lang, why=exc)
        print(fill(refused, columns_of(out) - 1, "", "  "), file=out)
        return True
    show()
    return not finished()


ITEM = 24
"""Characters of a list's item (between ", ") that a wrapped line never breaks inside."""
_GLUE = "\x1f"
"""A space no line breaks at, while a text is wrapped."""


def fill(text: str, width: int, first: str = "  ", rest: str = "    ") -> str:
    """`text` wrapped to `width` columns (`first` and `rest` indent its first and next
    lines), at spaces between words and between a list's items: never inside a short item
    ("place 4c 2,1 o3", "Ana Maria"), nor before French typography's ":", ";", "!", "?".
    A list's items are alike: its first one ends the text before the first ", " and its
    last one begins the text after the last, each as many words as the second item."""
    chunks = text.split(", ")
    if len(chunks) > 1:
        words = len(chunks[1].split()) if len(chunks) > 2 else 1
        head, tail = chunks[0].rsplit(" ", words), chunks[-1].split(" ", words)
        chunks[0] = " ".join([*head[:1], _glued(" ".join(head[1:]))] if len(head) > 1 else head)
        chunks[-1] = " ".join([_glued(" ".join(tail[:words])), *tail[words:]])
        chunks[1:-1] = map(_glued, chunks[1:-1])
    glued = re.sub(r" (?=[:;!?»])", _GLUE, ", ".join(chunks))
    wrapped = textwrap.fill(glued, width, initial_indent=first, subsequent_indent=rest,
                            break_long_words=False, break_on_hyphens=False)  # fmt: skip
    return wrapped.replace(_GLUE, " ")


def _glued(item: str) -> str:
    """A list's item no line breaks inside, unless it is longer than `ITEM`."""
    return item.replace(" ", _GLUE) if len(item) <= ITEM else item


FULL_COLUMNS = 130
"""The columns the OLED drawn in half blocks takes (`to_text`); a narrower terminal gets
it in braille (`to_braille`, 66 columns)."""


def columns_of(out: IO[str]) -> int:
    """The width of the terminal `out` writes to (``COLUMNS`` first, as a shell sets
    it); a file or a pipe is as wide as the full drawing."""
    given = os.environ.get("COLUMNS", "")
    if given.isdigit() and int(given) > 0:
        return int(given)
    try:
        fd = out.fileno()
        return os.get_terminal_size(fd).columns if os.isatty(fd) else FULL_COLUMNS
    except (AttributeError, OSError, ValueError):  # a buffer (tests), a closed stream
        return FULL_COLUMNS


StopText = Callable[[Any, str], "str | None"]
"""A game's STOP sentence of a screen, as its OLED says it (what is wrong, where, and
the fix), or None for a screen that is no STOP: (screen, language) -> sentence."""


def show_table(
    referee: TableReferee, seen: int, out: IO[str], lang: str, stop: StopText | None = None
) -> int:
    """The events since the `seen` first, each wrapped to the terminal's width, the STOP
    sentence while the table is stopped (`stop`: the OLED's words, in full), then the
    OLED as text (in braille when the terminal is narrower than the full drawing);
    returns how many events are seen now."""
    columns = columns_of(out)

    def say(text: str) -> None:
        print(fill(text, columns - 1), file=out)

    for event in referee.events[seen:]:
        line = describe(event, referee.setup.seats, referee.setup.game, lang)
        if line:
            say(line)
    sentence = stop(referee.screen, lang) if stop is not None else None
    if sentence:
        say(f"STOP! {sentence}")
    image = frame(referee.screen, lang)
    print(to_text(image) if columns >= FULL_COLUMNS else to_braille(image), file=out)
    return len(referee.events)


class Prompted:
    """Commands typed live, each asked for with a prompt (`> `) on `out`."""

    PROMPT = "> "

    def __init__(self, lines: IO[str], out: IO[str]) -> None:
        self.lines = lines
        self.out = out

    def isatty(self) -> bool:
        return True  # typed live: not echoed back

    def __iter__(self) -> Iterator[str]:
        while True:
            print(self.PROMPT, end="", file=self.out, flush=True)
            line = self.lines.readline()
            if not line:  # Ctrl-D
                print(file=self.out)
                return
            yield line


def hands_lines(referee: TableReferee, lang: str) -> list[str]:
    """`hands`: what each seat holds, as the table shows it to everyone (the counts of
    the game's public view, the page's: never which token lies where), each count by its
    name in `lang` (a game's phrase ``<game>.hands.<key>``; an empty one hides it)."""
    names = referee.setup.seats
    view = games.get(referee.setup.game).page_view
    board = (view(referee) if view else None) or {}
    counts = {
        _count_name(referee.setup.game, key, lang): value
        for key, value in board.items()
        if isinstance(value, list)
        and len(value) == len(names)
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    }
    counts.pop("", None)
    if not counts:
        return ["  " + said_in("cli.console.empty_hands", lang)]
    return [
        fill(f"{name}: " + ", ".join(f"{key} {value[seat]}" for key, value in counts.items()), 79)
        for seat, name in enumerate(names)
    ]


def _count_name(game: str, key: str, lang: str) -> str:
    if key == "hands":
        return said_in("cli.console.in_hand", lang)
    try:
        return phrase(f"{game}.hands.{key}", lang)
    except KeyError:  # a game that names none of its counts
        return key.replace("_", " ")


def wait_seconds(word: str, lang: str) -> float:
    """The seconds of `wait SECONDS`; a word that is none raises ValueError (one line)."""
    try:
        seconds = float(word)
    except ValueError:
        raise ValueError(said_in("cli.console.wait", lang, word=repr(word))) from None
    if seconds < 0:
        raise ValueError(said_in("cli.console.forward", lang))
    return seconds


# ------------------------------------------------- the typed tables of a mat of spots

SPOT_GAP = 0.3
"""Seconds between two reports of one act that changes two spots (a tag moved)."""


class SpotConsole:
    """What the typed tables of games played on a mat of spots share: the tags lying on
    each spot (0 the pad, then the squares), acts reported to the referee spot by spot as
    the readers would, the settle time let pass so it judges them, `back`, `wait`,
    `screen`, `help`, `quit`, a word's mistake answered with one line, and the OLED drawn
    after each act. A game's table gives its `HELP`, adds its own commands (`command`)
    and says what lies where (`name` of a UID)."""

    HELP = ""
    """The key of the game's help phrase, in the table's language (`help`)."""

    def __init__(self, session: Session, out: IO[str], lang: str, squares: int) -> None:
        self.session = session
        self.out = out
        self.lang = lang
        referee: TableReferee = session.referee
        self.setup: Setup = referee.setup
        self.squares = squares
        self.spots: dict[int, list[str]] = {s: [] for s in range(squares + 1)}
        for spot, uids in referee.observed.uids.items():  # a resumed game's table
            if spot in self.spots:
                self.spots[spot] = sorted(uids, key=self.resumed_order)
        self.t = referee.now
        self.seen = len(referee.events)

    @property
    def table_referee(self) -> TableReferee:
        return self.session.referee

    def resumed_order(self, uid: str) -> tuple[int, str]:
        """In which order a resumed game's tags lie on a spot (the bottom one first)."""
        return (0, uid)

    def name(self, uid: str) -> str:
        """A tag as `table` names it."""
        return uid

    def help(self) -> str:
        """What `help` prints, in the table's language."""
        return phrase(self.HELP, self.lang)

    # ---------------------------------------------------------------- words

    def square(self, word: str) -> int:
        if not word.isdigit() or not 1 <= int(word) <= self.squares:
            raise ValueError(said_in("cli.console.no_square", self.lang, word=repr(word),
                                    n=self.squares))  # fmt: skip
        return int(word)

    def spot(self, word: str) -> int:
        """A spot typed as "pad" (or 0) or a square's number."""
        return 0 if word.lower() in ("pad", "0") else self.square(word)

    def where(self, uid: str) -> int | None:
        return next((s for s, uids in self.spots.items() if uid in uids), None)

    # ---------------------------------------------------------------- inputs

    def feed(self, record: Input) -> None:
        self.t = max(self.t, record.t)
        self.session.feed(record)

    def report(self, t: float, spot: int) -> None:
        self.feed(SpotInput(round(t, 3), spot, frozenset(self.spots[spot])))

    def settle(self) -> None:
        """The settle time passes so the referee judges the table."""
        self.feed(TickInput(round(self.t + self.setup.settle + 0.05, 3)))

    def press(self, t: float, control: str, seat: int | None = None, value: object = None) -> None:
        self.feed(PressInput(t, control, seat, value))
        self.settle()

    def move(self, t: float, spot: int, uid: str) -> float:
        """A tag laid on a spot (a tag lying elsewhere leaves it first), unsettled; returns
        when the next hand movement may come."""
        before = self.where(uid)
        if before == spot:
            raise ValueError(said_in("cli.console.lies_there", self.lang, tag=self.name(uid)))
        if before is not None:
            self.spots[before].remove(uid)
            self.report(t, before)
            t += SPOT_GAP
        self.spots[spot].append(uid)
        self.report(t, spot)
        return t + SPOT_GAP

    def put(self, t: float, spot: int, uid: str) -> None:
        """A tag laid on a spot, then judged."""
        self.move(t, spot, uid)
        self.settle()

    def take(self, t: float, spot: int, uid: str | None) -> None:
        """One tag (or, None, every tag) taken off a spot, then judged."""
        if uid is None:
            if not self.spots[spot]:
                raise ValueError(said_in("cli.console.nothing_there", self.lang))
            self.spots[spot] = []
        else:
            if uid not in self.spots[spot]:
                raise ValueError(said_in("cli.console.not_there", self.lang, tag=self.name(uid)))
            self.spots[spot].remove(uid)
        self.report(t, spot)
        self.settle()

    # -------------------------------------------------------------- commands

    def command(self, verb: str, args: list[str], t: float) -> bool:
        """Carry out a game's own command at time `t`; False for a verb it does not know.
        A missing word raises IndexError, a wrong one ValueError (one line each)."""
        return False

    def handle(self, line: str) -> bool:
        """Carry out one typed line (`obey`); False once the player quits or the game is
        over."""
        return obey(line, self.out, self.act, self.show, lambda: self.table_referee.finished,
                    self.lang)  # fmt: skip

    def act(self, verb: str, args: list[str]) -> bool | None:
        """One command (`Act`): the looks and moves every spot table shares, then the
        game's own (`command`)."""
        t = round(self.t + 1.0, 3)
        if verb == "help":
            print(self.help(), file=self.out)
            return True
        if verb == "table":
            self.print_table()
            return True
        if verb == "hands":
            print("\n".join(hands_lines(self.table_referee, self.lang)), file=self.out)
            return True
        if verb in ("screen", "show"):
            self.show()
            return True
        if verb == "back":
            self.press(t, "back")
        elif verb == "wait":
            self.feed(TickInput(round(self.t + wait_seconds(args[0], self.lang), 3)))
        elif not self.command(verb, args, t):
            raise UnknownCommand(verb, self.lang)
        return None

    def print_table(self) -> None:
        for spot, uids in self.spots.items():
            where = said_in("cli.console.pad" if spot == 0 else "cli.console.square", self.lang,
                           n=spot)  # fmt: skip
            what = ", ".join(map(self.name, uids)) or "-"
            print(said_in("cli.console.lies", self.lang, where=where, what=what), file=self.out)

    def stop(self, screen: Any, lang: str) -> str | None:
        """The game's STOP sentence of `screen` (`StopText`); None: no STOP screen."""
        return None

    def show(self) -> None:
        self.seen = show_table(self.table_referee, self.seen, self.out, self.lang, self.stop)


def run_spot_console(console: SpotConsole, lines: Iterable[str], echo: bool = False) -> int:
    """Read commands until quit or the end of the game; `echo` them when not typed live."""
    print(console.help(), file=console.out)
    console.show()
    for line in lines:
        if echo:
            print(f"> {line.rstrip()}", file=console.out)
        if not console.handle(line):
            break
    console.session.close()
    return 0
