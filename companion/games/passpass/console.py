"""`companion play --sim`: a simulated PtiPassPass or PhiPassPass table you operate by
typing what your hands do.

Every command is a physical act on the virtual table or a press on the console; the
referee judges it exactly as on a real table, and the OLED is drawn after each one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

from companion.games.passpass.referee import PassPassReferee
from companion.games.passpass.rules import RULESETS
from companion.games.passpass.screens import FaultScreen
from companion.games.passpass.words import say, token_list, token_name
from companion.journal import Input, PressInput, Setup, TickInput
from companion.screens.text import number, phrase, typed_kind
from companion.session import Session
from companion.sim.console import (
    UnknownCommand,
    hands_lines,
    obey,
    seat_of,
    show_table,
    wait_seconds,
)
from companion.sim.table import VirtualTable

HELP = "passpass.console.help"
"""The typed table's help, in the table's language (`words.CONSOLE_WORDS`)."""

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
        return seat_of(word, self.setup.seats, self.lang)

    def help(self) -> str:
        return phrase(HELP, self.lang, window=number(self.referee.settings.window, "g", self.lang))

    def token(self, word: str) -> str:
        """The token kind typed by its name in the table's language or the other one
        ("Rabbit" or "lapin"), or as the engine spells it."""
        tokens = RULESETS[self.setup.game].tokens
        kind = typed_kind(word, tokens, token_name, self.lang)
        if kind is None:
            listed = token_list(tokens, self.lang).lower()
            raise ValueError(phrase("passpass.console.tokens", self.lang, tokens=listed))
        return kind

    def feed(self, record: Input) -> None:
        self.t = max(self.t, record.t)
        self.session.feed(record)

    def act(self, record: Input) -> None:
        """An act, then the settle time passes so the referee judges it."""
        self.feed(record)
        self.feed(TickInput(round(self.t + self.setup.settle + 0.05, 3)))

    def handle(self, line: str) -> bool:
        """Carry out one typed line (`obey`); False once the player quits or the game is
        over."""
        return obey(line, self.out, self.command, self.show, lambda: self.referee.finished,
                    self.lang)  # fmt: skip

    def command(self, verb: str, args: list[str]) -> bool | None:
        """One command (`companion.sim.console.Act`)."""
        t = round(self.t + 1.0, 3)
        if verb == "help":
            print(self.help(), file=self.out)
            return True
        if verb == "lift":
            spot = int(args[0])
            kinds = self.table.kinds(spot) + self.table.strays(spot)
            under = ", ".join(kinds) or phrase("passpass.console.nothing", self.lang)
            print("  " + phrase("passpass.console.under", self.lang, spot=spot, kinds=under),
                  file=self.out)  # fmt: skip
            return True
        if verb == "hands":
            print("\n".join(hands_lines(self.referee, self.lang)), file=self.out)
            return True
        if verb == "table":
            for spot in range(1, len(self.table.spots)):
                listed = ", ".join(self.table.kinds(spot) + self.table.strays(spot)) or "-"
                print("  " + phrase("passpass.console.hat", self.lang, spot=spot, kinds=listed),
                      file=self.out)  # fmt: skip
            return True
        if verb in ("drop", "take"):
            spot, token = int(args[0]), self.token(args[1])
            move = self.table.drop if verb == "drop" else self.table.take
            self.act(move(t, spot, token))
        elif verb in ("stray", "unstray"):
            spot = int(args[0])
            change = self.table.stray if verb == "stray" else self.table.remove
            self.act(change(t, spot, STRAY_UID))
        elif verb == "slide":
            if int(args[0]) == int(args[1]):  # a hat lifted and put back: nothing to see
                example = f"{args[0]} {int(args[0]) % 9 + 1}"
                print(phrase("passpass.console.slide", self.lang, example=example), file=self.out)
                return True
            for record in self.table.slide(t, int(args[0]), int(args[1])):
                self.feed(record)
            self.act(TickInput(round(self.t + 0.01, 3)))
        elif verb == "announce":
            self.act(PressInput(t, "announce", None, self.token(args[0])))
        elif verb in ("doublon", "menteur"):
            self.act(PressInput(t, verb, self.seat(args[0])))
        elif verb in ("aim", "choose"):
            line_spots = [int(a) for a in args[:3]]
            self.act(PressInput(t, verb, self.referee.state.magician, line_spots))
        elif verb == "back":
            self.act(PressInput(t, "back"))
        elif verb == "wait":
            seconds = wait_seconds(args[0], self.lang)
            self.feed(TickInput(round(self.t + seconds, 3)))
        elif verb == "ok":
            deadline = self.referee.deadline()
            if deadline is None:
                print(f"? {self.nothing_runs_out()}", file=self.out)
                return True
            self.feed(TickInput(round(max(self.t, deadline + 0.05), 3)))
        else:
            raise UnknownCommand(verb, self.lang)
        return None

    def nothing_runs_out(self) -> str:
        """Why `ok` lets no time pass: no window runs out now (in PhiPassPass the Doublon
        window lasts until the announcement)."""
        edition = "phi" if self.setup.game == "phipasspass" else "pti"
        return phrase(f"passpass.console.no_window.{edition}", self.lang)

    def show(self) -> None:
        self.seen = show_table(self.referee, self.seen, self.out, self.lang, stop_sentence)


def stop_sentence(screen: object, lang: str) -> str | None:
    """The OLED's STOP sentence (what is wrong, at which hat, the fix), else None."""
    if not isinstance(screen, FaultScreen):
        return None
    return say(screen.prompt, screen.names, lang, view=screen.view)


def run_console(
    session: Session, lines: Iterable[str], out: IO[str], lang: str, echo: bool = False
) -> int:
    """Read commands until quit or the end of the game; `echo` them when not typed live."""
    console = Console(session, out, lang)
    print(console.help(), file=out)
    console.show()
    for line in lines:
        if echo:
            print(f"> {line.rstrip()}", file=out)
        if not console.handle(line):
            break
    session.close()
    return 0
