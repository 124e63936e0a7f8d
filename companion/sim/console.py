"""`companion play --sim`: a simulated table you operate by typing what your hands do.

Every command is a physical act on the virtual table or a press on the console; the
referee judges it exactly as on a real table, and the OLED is drawn after each one.

`Console` is PassPass's typed table. What every game's typed table shares lives here too:
`seat_of`, `show_table` and, for the games played on a mat of spots (Flip Done, Swiped),
`SpotConsole` and `run_spot_console`.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from typing import IO

from companion.games import TableReferee
from companion.games.passpass.referee import PassPassReferee
from companion.games.passpass.rules import RULESETS
from companion.journal import Input, PressInput, Setup, SpotInput, TickInput
from companion.screens.render import frame
from companion.screens.terminal import to_text
from companion.session import Session
from companion.sim.table import VirtualTable
from companion.transcript import describe

HELP = """\
Physical acts (seats are numbers 1..N or names; hats are 1..N; tokens by name):
  drop HAT TOKEN        drop a token into a hat          e.g.  drop 5 lapin
  take HAT TOKEN        take a token out of a hat        e.g.  take 5 lapin
  slide A B             slide two hats past each other   e.g.  slide 2 5
  lift HAT              lift a hat and look (the tokens stay on the reader)
  stray HAT             put an unenrolled tag in a hat (to see a fault); take it with: unstray HAT
Console:
  announce TOKEN        the announce button              e.g.  announce souris
  doublon SEAT / menteur SEAT   a seat's button          e.g.  doublon Bob
  aim A B C / choose A B C      the encoder: point at / confirm a line
  back                  undo the last step
Time:
  wait SECONDS          let time pass (a challenge window lasts {window} s)
  ok                    nobody calls: let the window run out
Other: table (what lies where, for you only), help, quit"""

STRAY_UID = "DEADBEEF"


class Console:
    def __init__(self, session: Session, out: IO[str], lang: str = "fr") -> None:
        self.session = session
        referee = session.referee
        if not isinstance(referee, PassPassReferee):
            raise TypeError(f"the typed table plays PassPass, not {referee.setup.game}")
        self.referee = referee
        self.out = out
        self.lang = lang
        setup: Setup = self.referee.setup
        self.setup = setup
        self.table = VirtualTable(self.referee.state.config.layout.spots, setup.tags)
        for spot, uids in self.referee.observed.uids.items():  # a resumed game's table
            for uid in uids:
                self.table.off.discard(uid)
                self.table.spots[spot].add(uid)
        self.t = self.referee.now
        self.seen = len(self.referee.events)

    def seat(self, word: str) -> int:
        return seat_of(word, self.setup.seats)

    def feed(self, record: Input) -> None:
        self.t = max(self.t, record.t)
        self.session.feed(record)

    def act(self, record: Input) -> None:
        """An act, then the settle time passes so the referee judges it."""
        self.feed(record)
        self.feed(TickInput(round(self.t + self.setup.settle + 0.05, 3)))

    def handle(self, line: str) -> bool:
        """Carry out one command; False once the player quits."""
        words = shlex.split(line)
        if not words:
            return True
        verb, args = words[0].lower(), words[1:]
        t = round(self.t + 1.0, 3)
        tokens = RULESETS[self.setup.game].tokens
        try:
            if verb in ("quit", "exit"):
                return False
            if verb == "help":
                print(HELP.format(window=self.setup.window), file=self.out)
                return True
            if verb == "lift":
                spot = int(args[0])
                kinds = self.table.kinds(spot) + self.table.strays(spot)
                print(f"  under hat {spot}: {', '.join(kinds) or 'nothing'}", file=self.out)
                return True
            if verb == "table":
                for spot in range(1, len(self.table.spots)):
                    kinds = self.table.kinds(spot) + self.table.strays(spot)
                    print(f"  hat {spot}: {', '.join(kinds) or '-'}", file=self.out)
                return True
            if verb in ("drop", "take"):
                spot, token = int(args[0]), args[1].lower()
                if token not in tokens:
                    raise ValueError(f"tokens are {', '.join(tokens)}")
                move = self.table.drop if verb == "drop" else self.table.take
                self.act(move(t, spot, token))
            elif verb in ("stray", "unstray"):
                spot = int(args[0])
                change = self.table.stray if verb == "stray" else self.table.remove
                self.act(change(t, spot, STRAY_UID))
            elif verb == "slide":
                for record in self.table.slide(t, int(args[0]), int(args[1])):
                    self.feed(record)
                self.act(TickInput(round(self.t + 0.01, 3)))
            elif verb == "announce":
                self.act(PressInput(t, "announce", None, args[0].lower()))
            elif verb in ("doublon", "menteur"):
                self.act(PressInput(t, verb, self.seat(args[0])))
            elif verb in ("aim", "choose"):
                line_spots = [int(a) for a in args[:3]]
                self.act(PressInput(t, verb, self.referee.state.magician, line_spots))
            elif verb == "back":
                self.act(PressInput(t, "back"))
            elif verb == "wait":
                seconds = _seconds(args[0])
                self.feed(TickInput(round(self.t + seconds, 3)))
            elif verb == "ok":
                deadline = self.referee.deadline()
                if deadline is None:
                    print("? nothing runs out now (in PhiPassPass the Doublon window lasts "
                          "until the announcement: announce TOKEN)", file=self.out)  # fmt: skip
                    return True
                self.feed(TickInput(round(max(self.t, deadline + 0.05), 3)))
            else:
                print(f"unknown command {verb!r}; type help", file=self.out)
                return True
        except IndexError:
            print("? a word is missing (type help)", file=self.out)
            return True
        except ValueError as exc:
            print(f"? {exc} (type help)", file=self.out)
            return True
        self.show()
        return not self.referee.finished

    def show(self) -> None:
        self.seen = show_table(self.referee, self.seen, self.out, self.lang)


def seat_of(word: str, seats: Sequence[str]) -> int:
    """A seat typed as its number (1..N) or its name, 0-based."""
    names = [n.lower() for n in seats]
    if word.lower() in names:
        return names.index(word.lower())
    if not word.isdigit() or not 1 <= int(word) <= len(names):
        raise ValueError(f"no seat {word!r}: seats are 1..{len(names)} or {', '.join(seats)}")
    return int(word) - 1


def show_table(referee: TableReferee, seen: int, out: IO[str], lang: str) -> int:
    """The events since the `seen` first, one line each, then the OLED as text; returns
    how many events are seen now."""
    for event in referee.events[seen:]:
        line = describe(event, referee.setup.seats, referee.setup.game)
        if line:
            print(f"  {line}", file=out)
    print(to_text(frame(referee.screen, lang)), file=out)
    return len(referee.events)


def _seconds(word: str) -> float:
    try:
        seconds = float(word)
    except ValueError:
        raise ValueError(f"wait takes seconds, e.g. wait 6, not {word!r}") from None
    if seconds < 0:
        raise ValueError("time only goes forward")
    return seconds


def run_console(
    session: Session, lines: Iterable[str], out: IO[str], lang: str, echo: bool = False
) -> int:
    """Read commands until quit or the end of the game; `echo` them when not typed live."""
    console = Console(session, out, lang)
    print(HELP.format(window=console.setup.window), file=out)
    console.show()
    for line in lines:
        if echo:
            print(f"> {line.rstrip()}", file=out)
        if not console.handle(line):
            break
    session.close()
    return 0


# ------------------------------------------------- the typed tables of a mat of spots

SPOT_GAP = 0.3
"""Seconds between two reports of one act that changes two spots (a tag moved)."""


class SpotConsole:
    """What the typed tables of games played on a mat share (Flip Done, Swiped): the tags
    lying on each spot (0 the pad, then the squares), acts reported to the referee spot by
    spot as the readers would, the settle time let pass so it judges them, `back`, `wait`,
    `screen`, `help`, `quit`, a word's mistake answered with one line, and the OLED drawn
    after each act. A game's table gives its `HELP`, adds its own commands (`command`)
    and says what lies where (`name` of a UID)."""

    HELP = ""

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

    # ---------------------------------------------------------------- words

    def square(self, word: str) -> int:
        if not word.isdigit() or not 1 <= int(word) <= self.squares:
            raise ValueError(f"no square {word!r}: squares are 1..{self.squares}")
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
            raise ValueError(f"{self.name(uid)} already lies there")
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
                raise ValueError("nothing lies there")
            self.spots[spot] = []
        else:
            if uid not in self.spots[spot]:
                raise ValueError(f"{self.name(uid)} does not lie there")
            self.spots[spot].remove(uid)
        self.report(t, spot)
        self.settle()

    # -------------------------------------------------------------- commands

    def command(self, verb: str, args: list[str], t: float) -> bool:
        """Carry out a game's own command at time `t`; False for a verb it does not know.
        A missing word raises IndexError, a wrong one ValueError (one line each)."""
        return False

    def handle(self, line: str) -> bool:
        """Carry out one command; False once the player quits or the game is over."""
        words = shlex.split(line)
        if not words:
            return True
        verb, args = words[0].lower(), words[1:]
        t = round(self.t + 1.0, 3)
        try:
            if verb in ("quit", "exit"):
                return False
            if verb == "help":
                print(self.HELP, file=self.out)
                return True
            if verb == "table":
                self.print_table()
                return True
            if verb in ("screen", "show"):
                self.show()
                return True
            if verb == "back":
                self.press(t, "back")
            elif verb == "wait":
                self.feed(TickInput(round(self.t + _seconds(args[0]), 3)))
            elif not self.command(verb, args, t):
                print(f"unknown command {verb!r}; type help", file=self.out)
                return True
        except IndexError:
            print("? a word is missing (type help)", file=self.out)
            return True
        except ValueError as exc:
            print(f"? {exc} (type help)", file=self.out)
            return True
        self.show()
        return not self.table_referee.finished

    def print_table(self) -> None:
        for spot, uids in self.spots.items():
            where = "pad" if spot == 0 else f"square {spot}"
            print(f"  {where}: {', '.join(map(self.name, uids)) or '-'}", file=self.out)

    def show(self) -> None:
        self.seen = show_table(self.table_referee, self.seen, self.out, self.lang)


def run_spot_console(console: SpotConsole, lines: Iterable[str], echo: bool = False) -> int:
    """Read commands until quit or the end of the game; `echo` them when not typed live."""
    print(console.HELP, file=console.out)
    console.show()
    for line in lines:
        if echo:
            print(f"> {line.rstrip()}", file=console.out)
        if not console.handle(line):
            break
    console.session.close()
    return 0
