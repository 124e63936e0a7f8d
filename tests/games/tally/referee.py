"""Tally's table referee: a pebble more in the hat is the seat to play's drop, judged by
the engine (`rules/`); anything else on the table is a fault, shown until the table is as
expected again (then `fixed`), and no button is anyone's."""

from __future__ import annotations

from typing import Any

from companion.journal import PressInput, ResumeInput, Setup
from companion.referee.pace import PacedReferee, SetupError
from companion.screens.model import Refusal

from .rules.engine import NAME, Config, Drop, State, new_game
from .rules.engine import apply as engine_apply
from .screens import TallyScreen


class TallyReferee(PacedReferee):
    spots = 1

    def __init__(self, setup: Setup) -> None:
        if not 2 <= len(setup.seats) <= 4:
            raise SetupError(f"{NAME} is for 2 to 4 players")
        super().__init__(setup.t, 1, setup.settle)
        self.setup = setup
        self.names = setup.seats
        self.state: State = new_game(Config(len(setup.seats), setup.first), setup.seed)[0]
        self.in_hat = 0
        self.fault: tuple[str, int, int | None] | None = None
        """The fault shown (its reason, the hat or the reader, and the other reader of a
        pebble across two), until it is fixed."""

    @property
    def scores(self) -> list[int]:
        return list(self.state.dropped)

    @property
    def winner(self) -> int | None:
        return self.state.winner

    def judge_table(self) -> None:
        seen = len(self.observed.uids.get(1, frozenset()))
        if seen == self.in_hat + 1 and not self.finished:
            self._fixed()
            self.in_hat = seen
            self.state, events = engine_apply(self.state, Drop(self.state.turn))
            for event in events:
                self.emit(event.to_json())
        elif seen != self.in_hat:
            self._stop("restore", 1)
        else:
            self._fixed()

    def judge_stray(self, spot: int) -> None:
        self._stop("off_mat", spot)

    def judge_across(self, spots: tuple[int, int]) -> None:
        self._stop("across_spots", *spots)

    def _stop(self, reason: str, spot: int, other: int | None = None) -> None:
        if self.fault != (reason, spot, other):  # shown once, however often judged
            self.fault = (reason, spot, other)
            self.emit({"kind": "fault", "spot": spot, "reason": reason})

    def _fixed(self) -> None:
        if self.fault is not None:
            self.fault = None
            self.emit({"kind": "fixed"})

    def press(self, press: PressInput) -> None:
        self.emit({"kind": "ignored", "control": press.control, "seat": press.seat,
                   "reason": "not_now"})  # fmt: skip

    def seat_refusal(self, seat: int, control: str, value: Any) -> Refusal | None:
        """No button is anyone's: a pebble in the hat is Tally's only move."""
        return Refusal.NOT_NOW

    def deadline(self) -> float | None:
        return None

    def on_deadline(self) -> None:
        raise AssertionError(f"{NAME} has no deadline")

    def resume(self, record: ResumeInput) -> None:
        self.emit({"kind": "resume", "changed": []})

    @property
    def screen(self) -> TallyScreen:
        return TallyScreen(self.names, self.state.dropped, self.state.turn, self.winner, self.fault)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def result(self) -> dict[str, Any]:
        return {"game": self.setup.game, "events": list(self.events), "scores": self.scores,
                "winner": self.winner}  # fmt: skip

    def moment(self) -> tuple[Any, ...]:
        return (self.state, self.in_hat, self.fault, self.unjudged, len(self.events))

    def where(self, lang: str = "en") -> str:  # one language: numbers and names only
        stand = ", ".join(f"{n} {s}" for n, s in zip(self.names, self.scores, strict=True))
        return f"{NAME}: {stand}"
