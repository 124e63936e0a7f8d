"""A builder for Swiped scenario journals: cards tapped on the pad, big cubes placed,
lifted and put down on the 3 x 3 mat, seat buttons and the encoder pushed; written in the
journal format (docs/journal.md).

Two players (Ana, Bob): squares 1 2 3 / 4 5 6 / 7 8 9, the pad 0. Each card of the deck
and each big cube has a tag: `uid(7)` for card 7, `uid("rouge")` for the red cube.

The builder keeps the physical table (what lies on each spot) and the list of the swaps
the people made, so the tests can say what the rules make of them without reading the
referee's output.
"""

from __future__ import annotations

import json
from typing import Any

from companion.games.swiped.rules import COLOURS, make_deck

DECK_SIZE = 24
DECK = make_deck(DECK_SIZE, 0)
"""The shipped deck (the book's rules: 24 cards, deck seed 0)."""

Token = int | str
"""A card number, a cube's colour, or a raw UID (any other string)."""


def uid(token: Token) -> str:
    """A card's tag (NTAG-like 7 bytes: 04C4 then its number) or a big cube's (MIFARE-like
    4 bytes: C0BE then its colour's place); any other string is a raw UID."""
    if isinstance(token, int):
        return f"04C4{token:010X}"
    if token in COLOURS:
        return f"C0BE{COLOURS.index(token):04X}"
    return token


def tags(deck_size: int = DECK_SIZE) -> dict[str, str]:
    cards = {uid(n): f"layout:{n}" for n in range(1, deck_size + 1)}
    return cards | {uid(c): f"cube:{c}" for c in COLOURS}


def card_of(card: int) -> tuple[str, ...]:
    """What a layout card shows: the colour of squares 1..9."""
    return DECK[card - 1]


class SwScript:
    def __init__(
        self,
        first: int = 0,
        settle: float = 0.5,
        seed: int = 1,
        rules: dict[str, Any] | None = None,
    ) -> None:
        self.first = first
        self.settle_s = settle
        self.t = 0.0
        self.table: dict[int, list[str]] = {spot: [] for spot in range(10)}
        self.swaps: list[tuple[int, int]] = []
        """Every exchange of two squares' cubes the people made, in order."""
        setup: dict[str, Any] = {
            "t": 0, "type": "setup", "scenario": True, "game": "swiped", "seats": ["Ana", "Bob"],
            "first": first, "seed": seed, "settle": settle, "tags": tags(),
        }  # fmt: skip
        if rules is not None:
            setup["rules"] = rules
        self.lines: list[dict[str, Any]] = [setup]

    def _at(self, dt: float) -> float:
        self.t = round(self.t + dt, 3)
        return self.t

    # ------------------------------------------------------------------ what lies where

    def colours(self, square: int) -> list[str]:
        """The colours of the big cubes lying on a square now."""
        by_uid = {uid(c): c for c in COLOURS}
        return [by_uid[u] for u in self.table[square] if u in by_uid]

    def grid(self) -> tuple[str, ...]:
        """The mat as it stands (each square holding exactly one cube)."""
        out = []
        for square in range(1, 10):
            (colour,) = self.colours(square)
            out.append(colour)
        return tuple(out)

    # ------------------------------------------------------------------------ inputs

    def report(self, spot: int, uids: list[str] | None = None, dt: float = 1.0) -> SwScript:
        """What the reader of `spot` sees now (its contents, unless `uids` are given)."""
        seen = sorted(self.table[spot] if uids is None else uids)
        self.lines.append({"t": self._at(dt), "type": "spot", "spot": spot, "uids": seen})
        return self

    def put(self, spot: int, *tokens: Token, dt: float = 1.0) -> SwScript:
        """Tags put on a spot (several: in one reader report)."""
        self.table[spot].extend(uid(t) for t in tokens)
        return self.report(spot, dt=dt)

    def take(self, spot: int, *tokens: Token, dt: float = 1.0) -> SwScript:
        for t in tokens:
            self.table[spot].remove(uid(t))
        return self.report(spot, dt=dt)

    def press(
        self, control: str, seat: int | None = None, value: Any = None, dt: float = 1.0
    ) -> SwScript:
        line: dict[str, Any] = {"t": self._at(dt), "type": "press", "control": control}
        if seat is not None:
            line["seat"] = seat
        if value is not None:
            line["value"] = value
        self.lines.append(line)
        return self

    def reader(self, spot: int, ok: bool, dt: float = 1.0) -> SwScript:
        self.lines.append({"t": self._at(dt), "type": "reader", "spot": spot, "ok": ok})
        return self

    def tick(self, dt: float = 1.0) -> SwScript:
        self.lines.append({"t": self._at(dt), "type": "tick"})
        return self

    # -------------------------------------------------------------------------- acts

    def tap(self, card: int, dt: float = 1.0) -> SwScript:
        """A card laid on the pad, then taken back a second later."""
        return self.put(0, card, dt=dt).take(0, card)

    def place(self, card: int, order: list[int] | None = None, dt: float = 1.0) -> SwScript:
        """SW-2: the nine big cubes placed one at a time as layout card `card` shows."""
        shows = card_of(card)
        for square in order or list(range(1, 10)):
            self.put(square, shows[square - 1], dt=dt)
        return self

    def opening(self, layout: int = 1, targets: tuple[int, int] = (2, 3)) -> SwScript:
        """SW-2: the layout card tapped, the cubes placed as it shows, then the target
        cards tapped from the first player on (`targets` in that order)."""
        self.tap(layout).place(layout)
        return self.tap(targets[0]).tap(targets[1])

    def swap(self, i: int, j: int, dt: float = 1.0, beside: bool = False) -> SwScript:
        """SW-4: the cubes of squares i and j exchanged one cube at a time: both lifted,
        then both put down; or (`beside`) i's cube put beside j's, then j's moved to i."""
        (a,) = self.colours(i)
        (b,) = self.colours(j)
        if beside:
            self.take(i, a, dt=dt).put(j, a, dt=dt).take(j, b, dt=dt).put(i, b, dt=dt)
        else:
            self.take(i, a, dt=dt).take(j, b, dt=dt).put(j, a, dt=dt).put(i, b, dt=dt)
        self.swaps.append((i, j))
        return self

    def skip(self, dt: float = 1.0) -> SwScript:
        """SW-4: "same pair, skip", the encoder pushed."""
        return self.press("choose", value="skip", dt=dt)

    def doublon(self, seat: int, dt: float = 1.0) -> SwScript:
        """SW-5: "5 matches"."""
        return self.press("doublon", seat, dt=dt)

    def menteur(self, seat: int, card: int, dt: float = 1.0) -> SwScript:
        """SW-5: "I know your card", then the card it names tapped on the pad."""
        return self.press("menteur", seat, dt=dt).tap(card)

    def back(self, dt: float = 1.0) -> SwScript:
        return self.press("back", dt=dt)

    def text(self) -> str:
        """The journal, ending with a tick a second after the last act (so it is judged)."""
        lines = [*self.lines, {"t": round(self.t + 1.0, 3), "type": "tick"}]
        return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
