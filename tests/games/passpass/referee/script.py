"""A small builder for scenario journals: physical acts on a table, written as the journal
format (docs/journal.md). `python -m tests.make_fixtures scenarios` uses it to write
tests/games/passpass/referee/scenarios/."""

from __future__ import annotations

import json
from typing import Any

# Tags of a default box: seat s owns "<kind><s>" (e.g. L0 is Ana's lapin). Seat 0's are
# NTAG-like 7-byte UIDs, seat 1's MIFARE-like 4-byte ones, seat 2's 7-byte again.
ANIMALS = {"C": "colombe", "L": "lapin", "S": "souris"}
COLOURS = {"B": "bleu", "V": "vert", "O": "orange"}


def uid(token: str) -> str:
    letter, seat = token[0], int(token[1:])
    index = "CLSBVO".index(letter) + 1
    return f"04A{seat}00000000{index:02d}" if seat % 2 == 0 else f"B{seat}00000{index}"


def box(players: int, kinds: dict[str, str], prefix: str) -> dict[str, str]:
    return {uid(f"{k}{s}"): f"{prefix}:{name}" for s in range(players) for k, name in kinds.items()}


class Script:
    def __init__(
        self,
        game: str = "ptipasspass",
        seats: tuple[str, ...] = ("Ana", "Bob"),
        first: int = 0,
        window: float = 6.0,
        settle: float = 0.5,
    ) -> None:
        kinds, prefix = (ANIMALS, "animal") if game == "ptipasspass" else (COLOURS, "colour")
        self.window = window
        self.settle_s = settle
        self.t = 0.0
        self.table: dict[int, set[str]] = {}
        self.lines: list[dict[str, Any]] = [
            {"t": 0, "type": "setup", "scenario": True, "game": game, "seats": list(seats),
             "first": first, "seed": 1, "window": window, "settle": settle,
             "tags": box(len(seats), kinds, prefix)}
        ]  # fmt: skip

    def _at(self, dt: float) -> float:
        self.t = round(self.t + dt, 3)
        return self.t

    def spot(self, spot: int, dt: float = 1.0) -> Script:
        self.lines.append({"t": self._at(dt), "type": "spot", "spot": spot,
                           "uids": sorted(self.table.get(spot, set()))})  # fmt: skip
        return self

    def drop(self, spot: int, *tokens: str, dt: float = 1.0) -> Script:
        self.table.setdefault(spot, set()).update(uid(t) if len(t) <= 3 else t for t in tokens)
        return self.spot(spot, dt)

    def take(self, spot: int, *tokens: str, dt: float = 1.0) -> Script:
        self.table.setdefault(spot, set()).difference_update(
            uid(t) if len(t) <= 3 else t for t in tokens
        )
        return self.spot(spot, dt)

    def clear(self, *spots: int) -> Script:
        for s in spots:
            self.table[s] = set()
            self.spot(s, dt=0.2)
        return self.settle()

    def slide(self, a: int, b: int) -> Script:
        """Two cups exchanged: a transient (both empty), then the exchanged contents."""
        was_a, was_b = self.table.get(a, set()), self.table.get(b, set())
        self.table[a], self.table[b] = set(), set()
        self.spot(a).spot(b, dt=0.05)
        self.table[a], self.table[b] = was_b, was_a
        return self.spot(b, dt=0.15).spot(a, dt=0.05).settle()

    def tick(self, dt: float) -> Script:
        self.lines.append({"t": self._at(dt), "type": "tick"})
        return self

    def settle(self) -> Script:
        return self.tick(self.settle_s + 0.05)

    def press(self, control: str, seat: int | None = None, value: Any = None, dt: float = 1.0):
        line: dict[str, Any] = {"t": self._at(dt), "type": "press", "control": control}
        if seat is not None:
            line["seat"] = seat
        if value is not None:
            line["value"] = value
        self.lines.append(line)
        return self

    def reader(self, spot: int, ok: bool, dt: float = 1.0) -> Script:
        self.lines.append({"t": self._at(dt), "type": "reader", "spot": spot, "ok": ok})
        return self

    def quiet_window(self) -> Script:
        """Nobody calls: the window runs out."""
        return self.tick(self.window + 0.05)

    def place(self, spot: int, token: str, announce: str | None = None) -> Script:
        """A whole unchallenged placement (drop, announce in a Masqué turn, window)."""
        self.drop(spot, token).settle()
        if announce:
            self.press("announce", value=announce)
        return self.quiet_window()

    def call(self, seat: int, challenge: str, dt: float = 1.0) -> Script:
        return self.press(challenge, seat, dt=dt).tick(0.35)

    def text(self) -> str:
        return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in self.lines)
