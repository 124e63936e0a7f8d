"""A builder for Flip Done scenario journals: cards put on spots and the pad, elements
lifted and put back, the encoder pushed; written in the journal format (docs/journal.md).

Three players (Ana, Bob, Cy) at the 3 x 3 mat: squares 1 2 3 / 4 5 6 / 7 8 9, the pad 0.
Each of the 52 cards has a tag: `uid("QH")`.
"""

from __future__ import annotations

import json
from typing import Any

from companion.games.flipdone.rules import DECK


def uid(card: str) -> str:
    """A card's tag: NTAG-like 7-byte UIDs, 04FD then the card's place in the deck."""
    return f"04FD{DECK.index(card):010X}"


def tags() -> dict[str, str]:
    return {uid(card): f"card:{card}" for card in DECK}


class FdScript:
    def __init__(self, first: int = 0, settle: float = 0.5, seed: int = 1) -> None:
        self.settle_s = settle
        self.t = 0.0
        self.table: dict[int, list[str]] = {}
        self.lines: list[dict[str, Any]] = [
            {"t": 0, "type": "setup", "scenario": True, "game": "flipdone",
             "seats": ["Ana", "Bob", "Cy"], "first": first, "seed": seed, "settle": settle,
             "tags": tags()}
        ]  # fmt: skip

    def _at(self, dt: float) -> float:
        self.t = round(self.t + dt, 3)
        return self.t

    def report(self, spot: int, uids: list[str] | None = None, dt: float = 1.0) -> FdScript:
        """What the reader of `spot` sees now (its contents, unless `uids` are given)."""
        seen = sorted(self.table.get(spot, []) if uids is None else uids)
        self.lines.append({"t": self._at(dt), "type": "spot", "spot": spot, "uids": seen})
        return self

    def put(self, spot: int, *cards: str, dt: float = 1.0) -> FdScript:
        """Cards put on a spot (several: in one reader report)."""
        self.table.setdefault(spot, []).extend(uid(c) if c in DECK else c for c in cards)
        return self.report(spot, dt=dt)

    def take(self, spot: int, *cards: str, dt: float = 1.0) -> FdScript:
        for c in cards:
            self.table[spot].remove(uid(c) if c in DECK else c)
        return self.report(spot, dt=dt)

    def lift(self, spot: int, dt: float = 1.0) -> FdScript:
        """The cards of a spot lifted off its reader (to be turned over)."""
        return self.report(spot, [], dt=dt)

    def back(self, spot: int, dt: float = 1.0) -> FdScript:
        """The cards of a spot put back on its reader."""
        return self.report(spot, dt=dt)

    def press(self, control: str, seat: int | None = None, value: Any = None,
              dt: float = 1.0) -> FdScript:  # fmt: skip
        line: dict[str, Any] = {"t": self._at(dt), "type": "press", "control": control}
        if seat is not None:
            line["seat"] = seat
        if value is not None:
            line["value"] = value
        self.lines.append(line)
        return self

    def reader(self, spot: int, ok: bool, dt: float = 1.0) -> FdScript:
        self.lines.append({"t": self._at(dt), "type": "reader", "spot": spot, "ok": ok})
        return self

    def tick(self, dt: float = 1.0) -> FdScript:
        self.lines.append({"t": self._at(dt), "type": "tick"})
        return self

    # ------------------------------------------------------------------ acts

    def deal(self, down: list[str], up: str) -> FdScript:
        """FD-2: the nine face-down cards on squares 1..9, then the face-up card on the
        centre."""
        for square, card in enumerate(down, start=1):
            self.put(square, card)
        return self.put(5, up)

    def build(self, square: int, card: str) -> FdScript:
        return self.put(square, card)

    def flip(self, square: int, card: str, dt: float = 1.0) -> FdScript:
        """A card on the pad, then the element lifted and put back turned over."""
        return self.put(0, card).lift(square, dt=dt).back(square, dt=dt)

    def discard(self, card: str) -> FdScript:
        return self.put(0, card).press("choose", value="discard")

    def gather(self) -> FdScript:
        """Every card taken off the table, spot after spot."""
        for spot in sorted(self.table):
            if self.table[spot]:
                self.table[spot] = []
                self.report(spot, dt=0.3)
        return self

    def text(self) -> str:
        """The journal, ending with a tick a second after the last act (so it is judged)."""
        lines = [*self.lines, {"t": round(self.t + 1.0, 3), "type": "tick"}]
        return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
