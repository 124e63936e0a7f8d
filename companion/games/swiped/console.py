"""`companion play --sim --game swiped`: a simulated Swiped table you operate by typing what
your hands do.

Every command is a physical act on the virtual mat (a card laid on the pad, a big cube put
on a square, two squares' cubes exchanged) or a press on the console (a seat's Doublon or
Menteur button, the encoder's "same pair, skip", back); the referee judges the readers'
reports exactly as at a real table (docs/table.md, "Swiped"), and the OLED is drawn after
each one. You play both seats: the companion never knows which card a seat holds until it
is tapped on the pad.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, Any

from companion.games.swiped.referee import PAD, SwipedReferee
from companion.games.swiped.rules import COLOURS, SQUARES, public_view
from companion.games.swiped.screens import SwFaultScreen, colour_name, sw_say
from companion.screens.text import phrase, typed_kind
from companion.session import Session
from companion.sim.console import SPOT_GAP, SpotConsole, run_spot_console, seat_of

HELP = "swiped.console.help"


class SwipedConsole(SpotConsole):
    HELP = HELP

    def __init__(self, session: Session, out: IO[str], lang: str = "fr") -> None:
        referee = session.referee
        if not isinstance(referee, SwipedReferee):
            raise TypeError(f"the typed Swiped table plays Swiped, not {referee.setup.game}")
        self.referee = referee
        self.uid = {token: uid for uid, token in sorted(referee.tokens.items())}
        super().__init__(session, out, lang, SQUARES)

    def stop(self, screen: Any, lang: str) -> str | None:
        """The OLED's STOP sentence (what is wrong, on which spot, the fix)."""
        if not isinstance(screen, SwFaultScreen):
            return None
        return sw_say(screen.prompt, screen.names, lang)

    def name(self, uid: str) -> str:
        token = self.referee.tokens.get(uid, uid)
        if isinstance(token, int):
            return phrase("swiped.console.card", self.lang, n=token)
        return colour_name(token, self.lang).lower() if token in COLOURS else str(token)

    def colours(self) -> str:
        return ", ".join(colour_name(c, self.lang).lower() for c in COLOURS)

    def help(self) -> str:
        return phrase(HELP, self.lang, colours=self.colours())

    def tag(self, word: str) -> str:
        """The UID of a card typed as its number ("7", "card:7", "layout:7") or of a cube
        typed as its colour in French or English ("rouge", "red", "cube:rouge")."""
        name = word.lower().partition(":")[2] or word.lower()
        colour = typed_kind(name, COLOURS, colour_name, self.lang)  # "rouge" or "red"
        token: int | str | None = int(name) if name.isdigit() else colour
        if token is None:
            raise ValueError(phrase("swiped.console.no_tag", self.lang, word=repr(word),
                                    colours=self.colours()))  # fmt: skip
        if token not in self.uid:
            raise ValueError(phrase("swiped.console.small_deck", self.lang, n=token))
        return self.uid[token]

    def card(self, word: str) -> str:
        uid = self.tag(word)
        if not isinstance(self.referee.tokens[uid], int):
            raise ValueError(phrase("swiped.console.cube", self.lang, word=repr(word)))
        return uid

    def cube(self, square: int) -> str:
        cubes = [uid for uid in self.spots[square] if isinstance(self.referee.tokens[uid], str)]
        if len(cubes) != 1:
            raise ValueError(phrase("swiped.console.cubes", self.lang, square=square, n=len(cubes)))
        return cubes[0]

    # ---------------------------------------------------------------- acts

    def tap(self, t: float, uid: str) -> None:
        """A card laid on the pad until the referee has read it, then taken back."""
        self.put(t, PAD, uid)
        self.take(round(self.t + SPOT_GAP, 3), PAD, uid)

    def name_card(self, t: float, uid: str) -> None:
        """The encoder turned to a card (as the OLED shows it) and pushed."""
        card = [self.referee.tokens[uid]]
        self.press(t, "aim", None, card)
        self.press(round(self.t + 0.3, 3), "choose", None, card)

    def place(self, t: float) -> None:
        """Every cube moved where the face-up card shows it, one at a time."""
        view = public_view(self.referee.state)
        if view.layout_card is None:
            raise ValueError(phrase("swiped.console.no_layout", self.lang))
        for square, colour in enumerate(view.grid, start=1):
            uid = self.uid[colour]
            if uid not in self.spots[square]:
                t = self.move(t, square, uid)
        self.settle()

    def swap(self, t: float, a: int, b: int) -> None:
        """A's cube put beside B's, then B's moved to A."""
        if a == b:
            raise ValueError(phrase("swiped.console.same", self.lang))
        first, second = self.cube(a), self.cube(b)
        t = self.move(t, b, first)
        self.move(t, a, second)
        self.settle()

    # -------------------------------------------------------------- commands

    def command(self, verb: str, args: list[str], t: float) -> bool:
        if verb == "tap":
            self.tap(t, self.card(args[0]))
        elif verb == "put":
            self.put(t, self.spot(args[0]), self.tag(args[1]))
        elif verb == "take":
            spot = self.spot(args[0])
            self.take(t, spot, self.tag(args[1]) if len(args) > 1 else None)
        elif verb == "place":
            self.place(t)
        elif verb == "swap":
            self.swap(t, self.square(args[0]), self.square(args[1]))
        elif verb in ("doublon", "menteur"):
            seat = seat_of(args[0], self.setup.seats, self.lang)
            card = self.card(args[1]) if verb == "menteur" and len(args) > 1 else None
            self.press(t, verb, seat)
            if card is not None:  # the right card is in the other's hands: the encoder
                self.name_card(round(self.t + 1.0, 3), card)
        elif verb == "name":
            self.name_card(t, self.card(args[0]))
        elif verb in ("skip", "push", "choose"):
            self.press(t, "choose")
        else:
            return False
        return True


def run_console(
    session: Session, lines: Iterable[str], out: IO[str], lang: str, echo: bool = False
) -> int:
    """Read commands until quit or the end of the game; `echo` them when not typed live."""
    return run_spot_console(SwipedConsole(session, out, lang), lines, echo)
