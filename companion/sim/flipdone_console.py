"""`companion play --sim --game flipdone`: a simulated Flip Done table you operate by typing
what your hands do.

Every command is a physical act on the virtual mat (a card laid on a square or the pad, an
element lifted and put back turned over, cards gathered) or a press on the console; the
referee judges the readers' reports exactly as at a real table (docs/table.md, "Flip
Done"), and the OLED is drawn after each one. The companion never knows the hands: you
play all three seats and choose each card yourself.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from typing import IO

from companion.journal import Input, PressInput, Setup, SpotInput, TickInput
from companion.referee.flipdone import PAD, FlipDoneReferee, card_of_kind
from companion.rules.flipdone import CENTRE, SQUARES
from companion.screens.render import frame
from companion.screens.terminal import to_text
from companion.session import Session
from companion.transcript import describe

HELP = """\
Physical acts (squares are 1..9 in reading order, 5 the centre; the pad is 0 or "pad";
cards as AH, 10S or TS, QC...; you play every seat, choosing each card yourself):
  deal SQUARE CARD      deal a card face down on a square    e.g.  deal 1 7H
  up CARD               the face-up card on the centre       e.g.  up QS
  up SQUARE CARD        ... on a square (first player chooses variant)
  build SQUARE CARD     lay a card face up on a square       e.g.  build 3 4D
  pad CARD              lay a card face down on the pad      e.g.  pad 9C
  flip SQUARE           lift the element, turn it over, put it back   e.g.  flip 5
  take SPOT [CARD]      take the cards (or one card) off a spot   e.g.  take pad 9C
  clear                 gather every card (a phase's end)
Console:
  noflip (or discard)   push the encoder: "no flip", the card on the pad is discarded
  back                  undo the last step
Time:
  wait SECONDS          let time pass
Other: table (what lies where, for you only), help, quit"""

FLIP_GAP = 0.2
"""Seconds an element is off its reader while it is turned over."""


class FlipDoneConsole:
    def __init__(self, session: Session, out: IO[str], lang: str = "fr") -> None:
        self.session = session
        referee = session.referee
        if not isinstance(referee, FlipDoneReferee):
            raise TypeError(f"the typed Flip Done table plays Flip Done, not {referee.setup.game}")
        self.referee = referee
        self.out = out
        self.lang = lang
        setup: Setup = referee.setup
        self.setup = setup
        self.uid = {card: uid for uid, card in sorted(referee.cards.items())}
        self.spots: dict[int, list[str]] = {s: [] for s in range(SQUARES + 1)}
        for spot, uids in referee.observed.uids.items():  # a resumed game's table
            if spot in self.spots:
                self.spots[spot] = sorted(uids, key=lambda u: (referee.order.get(u, 0), u))
        self.t = referee.now
        self.seen = len(referee.events)

    # ---------------------------------------------------------------- words

    def card(self, word: str) -> str:
        card = card_of_kind(f"card:{word.upper()}")
        if card is None:
            raise ValueError(f"no card {word!r}: cards are AH, 2H..10H (or TH), JH, QH, KH, ... KC")
        if card not in self.uid:
            raise ValueError(f"the {card} has no tag in this game's setup")
        return card

    @staticmethod
    def square(word: str) -> int:
        if not word.isdigit() or not 1 <= int(word) <= SQUARES:
            raise ValueError(f"no square {word!r}: squares are 1..{SQUARES}")
        return int(word)

    @staticmethod
    def spot(word: str) -> int:
        if word.lower() in ("pad", "0"):
            return PAD
        return FlipDoneConsole.square(word)

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

    def put(self, t: float, spot: int, card: str) -> None:
        """A card laid on a spot; a card lying elsewhere is moved (it leaves first)."""
        uid = self.uid[card]
        before = self.where(uid)
        if before == spot:
            raise ValueError(f"the {card} already lies there")
        if before is not None:
            self.spots[before].remove(uid)
            self.report(t, before)
            t += 0.3
        self.spots[spot].append(uid)
        self.report(t, spot)
        self.settle()

    def flip(self, t: float, square: int) -> None:
        """The spot empties, then shows the same tags again (the element turned over)."""
        uids = list(self.spots[square])
        if not uids:
            raise ValueError(f"nothing lies on square {square}")
        self.spots[square] = []
        self.report(t, square)
        self.spots[square] = uids
        self.report(t + FLIP_GAP, square)
        self.settle()

    def take(self, t: float, spot: int, card: str | None) -> None:
        if card is None:
            if not self.spots[spot]:
                raise ValueError("nothing lies there")
            self.spots[spot] = []
        else:
            uid = self.uid[card]
            if uid not in self.spots[spot]:
                raise ValueError(f"the {card} does not lie there")
            self.spots[spot].remove(uid)
        self.report(t, spot)
        self.settle()

    def clear(self, t: float) -> None:
        full = [s for s, uids in self.spots.items() if uids]
        if not full:
            raise ValueError("the table is already empty")
        for i, spot in enumerate(full):
            self.spots[spot] = []
            self.report(t + 0.2 * i, spot)
        self.settle()

    # -------------------------------------------------------------- commands

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
                print(HELP, file=self.out)
                return True
            if verb == "table":
                self.print_table()
                return True
            if verb in ("deal", "build"):
                self.put(t, self.square(args[0]), self.card(args[1]))
            elif verb == "up":
                if len(args) == 1:
                    self.put(t, CENTRE, self.card(args[0]))
                else:
                    self.put(t, self.square(args[0]), self.card(args[1]))
            elif verb == "pad":
                self.put(t, PAD, self.card(args[0]))
            elif verb == "flip":
                self.flip(t, self.square(args[0]))
            elif verb == "take":
                spot = self.spot(args[0])
                self.take(t, spot, self.card(args[1]) if len(args) > 1 else None)
            elif verb in ("clear", "gather"):
                self.clear(t)
            elif verb in ("noflip", "nofip", "no-flip", "discard", "push"):
                self.feed(PressInput(t, "choose", None, "discard"))
                self.settle()
            elif verb == "back":
                self.feed(PressInput(t, "back"))
                self.settle()
            elif verb == "wait":
                self.feed(TickInput(round(self.t + _seconds(args[0]), 3)))
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

    def print_table(self) -> None:
        cards = self.referee.cards
        for spot, uids in self.spots.items():
            name = "pad" if spot == PAD else f"square {spot}"
            print(f"  {name}: {', '.join(cards[u] for u in uids) or '-'}", file=self.out)

    def show(self) -> None:
        for event in self.referee.events[self.seen :]:
            line = describe(event, self.setup.seats)
            if line:
                print(f"  {line}", file=self.out)
        self.seen = len(self.referee.events)
        print(to_text(frame(self.referee.screen, self.lang)), file=self.out)


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
    console = FlipDoneConsole(session, out, lang)
    print(HELP, file=out)
    console.show()
    for line in lines:
        if echo:
            print(f"> {line.rstrip()}", file=out)
        if not console.handle(line):
            break
    session.close()
    return 0
