"""A builder of Vous ne passerez pas ! scenario journals: what the players enter on their
phones, one press a second, as the table's web page sends it (docs/journal.md).

The builder keeps its own record of the game (`track`, advanced by the pure engine with
each act it says counts, `acts`), so a test can work out from the rules what the referee
must reach, never from the referee's output.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.vnp.bots import make_bot
from companion.games.vnp.console import find_placement
from companion.games.vnp.rules import (
    COLOURS,
    Action,
    Colour,
    Pass,
    Place,
    State,
    apply,
    is_over,
    make_config,
    new_game,
)
from companion.journal import Input, PressInput, Setup, TickInput, dump_lines

FOUR = ("Ana", "Bob", "Cy", "Dan")
TWO = ("Ana", "Bob")


class VnpScript:
    def __init__(self, seats: Sequence[str] = FOUR, rules: Mapping[str, Any] | None = None,
                 settle: float = 0.5) -> None:  # fmt: skip
        self.setup = Setup("vnp", tuple(seats), {}, settle=settle,
                           rules=dict(rules) if rules is not None else None)  # fmt: skip
        values = dict(rules or {})
        mode = values.get("mode", "two" if len(seats) == 2 else "four")
        self.track: State = new_game(make_config(size=values.get("size", 13), mode=mode), 0)[0]
        self.inputs: list[Input] = []
        self.t = 0.0
        self.acts: list[Action] = []
        """The acts that count, in order (the builder's record of the game)."""

    # ------------------------------------------------------------------ words

    def pid(self, piece: str, x: int, y: int, o: int = 0) -> int:
        return find_placement(self.track.config.size, piece, o, x, y)

    def turn(self) -> Colour:
        return COLOURS[self.track.turn]

    def seat_of(self, colour: str) -> int:
        return self.track.config.seat_of(COLOURS.index(Colour(colour)))

    # ----------------------------------------------------------------- inputs

    def press(self, control: str, seat: int | None = None, value: Any = None,
              gap: float = 1.0) -> VnpScript:  # fmt: skip
        self.t = round(self.t + gap, 3)
        self.inputs.append(PressInput(self.t, control, seat, value))
        return self

    def tick(self, gap: float = 1.0) -> VnpScript:
        self.t = round(self.t + gap, 3)
        self.inputs.append(TickInput(self.t))
        return self

    def place(self, pid: int, colour: str | None = None, seat: int | None = None,
              counts: bool = True, gap: float = 1.0) -> VnpScript:  # fmt: skip
        """A placement confirmed on a phone; `counts`: the rules take it (the builder's
        record moves on)."""
        colour = str(colour or self.turn())
        seat = self.seat_of(colour) if seat is None else seat
        self.press("place", seat, {"colour": colour, "placement": pid}, gap)
        if counts:
            self._count(Place(Colour(colour), pid))
        return self

    def pass_(self, colour: str | None = None, seat: int | None = None,
              counts: bool = True) -> VnpScript:  # fmt: skip
        colour = str(colour or self.turn())
        seat = self.seat_of(colour) if seat is None else seat
        self.press("pass", seat, {"colour": colour})
        if counts:
            self._count(Pass(Colour(colour)))
        return self

    def undo(self, seat: int | None = None) -> VnpScript:
        """`back` that takes back the last act (a placement)."""
        self.press("back", seat)
        last = self.acts.pop()
        assert isinstance(last, Place)
        state, _ = new_game(self.track.config, 0)
        for act in self.acts:
            state, _ = apply(state, act)
        self.track = state
        return self

    def _count(self, action: Action) -> None:
        self.track, _ = apply(self.track, action)
        self.acts.append(action)

    def bot_game(self, kind: str, seed: int, hint_before_pass: bool = False) -> VnpScript:
        """The rest of the game as a bot chooses it from random.Random(seed), each act
        confirmed a second after the last (with `hint_before_pass`, the seat asks for a
        hint before each pass: there is none, VNP-5)."""
        bot, rng = make_bot(kind), random.Random(seed)
        while not is_over(self.track):
            action = bot(self.track, rng)
            if isinstance(action, Place):
                self.place(action.placement)
            else:
                if hint_before_pass:
                    self.press("hint", self.seat_of(str(action.colour)))
                self.pass_()
        return self

    def text(self) -> str:
        return "\n".join(dump_lines(self.setup, self.inputs)) + "\n"
