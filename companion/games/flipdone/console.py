"""`companion play --sim --game flipdone`: a simulated Flip Done table you operate by typing
what your hands do.

Every command is a physical act on the virtual mat (a card laid on a square or the pad, an
element lifted and put back turned over, cards gathered) or a press on the console; the
referee judges the readers' reports exactly as at a real table (docs/table.md, "Flip
Done"), and the OLED is drawn after each one. The companion never knows the hands: you
play all three seats and choose each card yourself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, Any

from companion.games.flipdone.referee import PAD, FlipDoneReferee
from companion.games.flipdone.rules import CENTRE, SQUARES
from companion.games.flipdone.screens import FdFaultScreen, fd_say
from companion.games.flipdone.words import card_text, card_typed
from companion.screens.text import phrase
from companion.session import Session
from companion.sim.console import SpotConsole, run_spot_console

HELP = "flipdone.console.help"

FLIP_GAP = 0.2
"""Seconds an element is off its reader while it is turned over."""


class FlipDoneConsole(SpotConsole):
    HELP = HELP

    def __init__(self, session: Session, out: IO[str], lang: str = "fr") -> None:
        referee = session.referee
        if not isinstance(referee, FlipDoneReferee):
            raise TypeError(f"the typed Flip Done table plays Flip Done, not {referee.setup.game}")
        self.referee = referee
        self.uid = {card: uid for uid, card in sorted(referee.cards.items())}
        super().__init__(session, out, lang, SQUARES)

    def resumed_order(self, uid: str) -> tuple[int, str]:
        return (self.referee.order.get(uid, 0), uid)

    def stop(self, screen: Any, lang: str) -> str | None:
        """The OLED's STOP sentence (what is wrong, on which spot, the fix)."""
        if not isinstance(screen, FdFaultScreen):
            return None
        return fd_say(screen.prompt, screen.names, lang)

    def name(self, uid: str) -> str:
        return card_text(self.referee.cards[uid], self.lang)

    def card(self, word: str) -> str:
        """The UID of a card typed as the table writes it (R♠ at a French table, K♠ at an
        English one) or by its tag's letters (KS, 10S, TS...)."""
        card = card_typed(word, self.lang)
        if card is None:
            raise ValueError(phrase("flipdone.console.no_card", self.lang, word=repr(word)))
        if card not in self.uid:
            text = card_text(card, self.lang)
            raise ValueError(phrase("flipdone.console.no_tag", self.lang, card=text))
        return self.uid[card]

    # ---------------------------------------------------------------- inputs

    def flip(self, t: float, square: int) -> None:
        """The spot empties, then shows the same tags again (the element turned over)."""
        uids = list(self.spots[square])
        if not uids:
            raise ValueError(phrase("flipdone.console.empty_square", self.lang, square=square))
        self.spots[square] = []
        self.report(t, square)
        self.spots[square] = uids
        self.report(t + FLIP_GAP, square)
        self.settle()

    def clear(self, t: float) -> None:
        full = [s for s, uids in self.spots.items() if uids]
        if not full:
            raise ValueError(phrase("flipdone.console.empty_table", self.lang))
        for i, spot in enumerate(full):
            self.spots[spot] = []
            self.report(t + 0.2 * i, spot)
        self.settle()

    # -------------------------------------------------------------- commands

    def command(self, verb: str, args: list[str], t: float) -> bool:
        if verb in ("deal", "build"):
            square = self.square(args[0])
            dealt = len(self.referee.events)
            self.put(t, square, self.card(args[1]))
            if (
                verb == "deal"
                and any(  # no transcript line says a face-down card: say it
                    e["kind"] == "dealt_down" for e in self.referee.events[dealt:]
                )
            ):
                dealt_line = phrase("flipdone.console.dealt", self.lang, square=square)
                print(f"  {dealt_line}", file=self.out)
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
            self.press(t, "choose", None, "discard")
        else:
            return False
        return True


def run_console(
    session: Session, lines: Iterable[str], out: IO[str], lang: str, echo: bool = False
) -> int:
    """Read commands until quit or the end of the game; `echo` them when not typed live."""
    return run_spot_console(FlipDoneConsole(session, out, lang), lines, echo)
