"""Tally's table referee: a pebble more in the hat is the seat to play's drop, and its
button `pass_turn` its pass (TALLY-2), judged by the engine (`rules/`); anything else on
the table is a fault, shown until the table is as expected again (then `fixed`). A press
that cannot count is an `ignored` event with its reason."""

from __future__ import annotations

from typing import Any

from companion.journal import PressInput, ResumeInput, Setup
from companion.referee.pace import PacedReferee, SetupError
from companion.screens.model import Refusal

from .rules.engine import NAME, Config, Drop, Pass, State, legal_actions, new_game
from .rules.engine import apply as engine_apply
from .screens import TallyScreen

PASS_TURN = "pass_turn"
"""The seat button that passes the seat's turn (TALLY-2)."""


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
            self._play(Drop(self.state.turn))
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

    def _play(self, action: Drop | Pass) -> None:
        self.state, events = engine_apply(self.state, action)
        for event in events:
            self.emit(event.to_json())

    def press(self, press: PressInput) -> None:
        reason = self._refusal(press.control, press.seat)
        if reason is not None:
            self.refuse(press, reason)  # an `ignored` event, and the notice on the OLED
        elif press.seat is not None:
            self._play(Pass(press.seat))

    def _refusal(self, control: str, seat: int | None) -> Refusal | None:
        """Why a press of `control` by `seat` cannot count now (a pass is the seat to
        play's, once a game, with the table as expected), or None."""
        if control != PASS_TURN or seat is None or self.finished:
            return Refusal.NOT_NOW
        if not 0 <= seat < len(self.names):
            return Refusal.NOT_SEATED
        if seat != self.state.turn:
            return Refusal.NOT_YOUR_TURN
        if self.fault is not None:
            return Refusal.TABLE_FIRST
        if Pass(seat) not in legal_actions(self.state):
            return Refusal.ALREADY_CALLED
        return None

    def seat_refusal(self, seat: int, control: str, value: Any) -> Refusal | None:
        """A seat's own pass is its own; no other button is anyone's."""
        if control != PASS_TURN:
            return Refusal.NOT_NOW
        return Refusal.NOT_YOUR_TURN if seat != self.state.turn else None

    def deadline(self) -> float | None:
        return None

    def on_deadline(self) -> None:
        raise AssertionError(f"{NAME} has no deadline")

    def resume(self, record: ResumeInput) -> None:
        self.emit({"kind": "resume", "changed": []})

    @property
    def screen(self) -> TallyScreen:
        return TallyScreen(self.names, self.state.dropped, self.state.turn, self.winner,
                           self.fault, self.notice_shown(), self.state.passed)  # fmt: skip

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def result(self) -> dict[str, Any]:
        return {"game": self.setup.game, "events": list(self.events), "scores": self.scores,
                "winner": self.winner}  # fmt: skip

    def moment(self) -> tuple[Any, ...]:
        return (self.state, self.in_hat, self.fault, self.notice_shown(), self.unjudged,
                len(self.events))  # fmt: skip

    def where(self, lang: str = "en") -> str:  # one language: numbers and names only
        stand = ", ".join(f"{n} {s}" for n, s in zip(self.names, self.scores, strict=True))
        return f"{NAME}: {stand}"
