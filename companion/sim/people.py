"""What every simulated table shares: people whose acts are scheduled in time, a reader
for each spot reporting at its own cadence, the noise of a rough table, and the feed of
all that to the game's referee in time order (docs/table.md, "People's pace").

A game's simulated table subclasses `SimulatedPeople`, says what a spot holds
(`contents`) and plays its own game by scheduling acts (`report`, `press`, `ready`) and
feeding them (`flush`). Its decisions come from its own copy of the game, never from the
referee, so each simulated game also tests that the referee reaches the same game.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.journal import Input, PressInput, Setup, SpotInput, TickInput
from companion.referee.event_log import TableEvent

STEP = 0.05
"""How far past a deadline a spaced table ticks, in seconds."""


@dataclass
class Noise:
    """Rates of the faults a real table produces, each per act (0 = never)."""

    flicker: float = 0.0
    duplicate: float = 0.0
    stray: float = 0.0
    stray_lasts: float = 1.0
    out_of_turn: float = 0.0

    @classmethod
    def rough(cls) -> Noise:
        return cls(flicker=0.3, duplicate=0.3, stray=0.05, out_of_turn=0.2)


class Diverged(RuntimeError):
    """The referee, fed the people's acts, did not reach the game they played."""


class PaceLike(Protocol):
    @property
    def scan(self) -> float:
        """A reader reports up to this late: each scans at its own cadence."""
        ...

    @property
    def ticks(self) -> bool:
        """Tick whenever the table is ready (a spaced table's scenario files did)."""
        ...


class FedReferee(Protocol):
    def feed(self, record: Input) -> list[TableEvent]: ...


class SimulatedPeople:
    """Schedules people's acts and feeds them, in time order, to a referee."""

    def __init__(
        self,
        setup: Setup,
        referee: FedReferee,
        pace: PaceLike,
        noise: Noise | None,
        on_input: Callable[[Input, Any], None] | None,
    ) -> None:
        self.setup = setup
        self.referee = referee
        self.pace = pace
        self.noise = noise or Noise()
        self.noise_rng = random.Random(f"noise:{setup.seed}")
        self.time_rng = random.Random(f"pace:{setup.seed}")
        self.act_rng = random.Random(f"acts:{setup.seed}")
        self.t = setup.t
        """When the table is ready for the next act: the OLED shows what comes next."""
        self.inputs: list[Input] = []
        self.on_input = on_input
        self._burst: list[Input] = []
        self._reported: dict[int, float] = {}

    def contents(self, spot: int) -> frozenset[str]:
        """The tags lying on `spot` now."""
        raise NotImplementedError

    # ------------------------------------------------------------------ time

    def uniform(self, span: tuple[float, float]) -> float:
        low, high = span
        return low if high <= low else self.time_rng.uniform(low, high)

    def ready(self, t: float) -> None:
        """The table is ready for the next act at `t` (a spaced table ticks then)."""
        self.t = max(self.t, t)
        if self.pace.ticks:
            self._burst.append(TickInput(round(self.t + STEP, 3)))

    def flush(self) -> None:
        """Feed the acts scheduled so far, in time order; an act scheduled before what was
        already fed happens now (the journal's time never goes back)."""
        burst, self._burst = sorted(self._burst, key=lambda r: r.t), []
        for record in burst:
            fed = self.inputs[-1].t if self.inputs else self.setup.t
            self.feed(record if record.t >= fed else dataclasses.replace(record, t=fed))

    def feed(self, record: Input) -> None:
        self.inputs.append(record)
        self.referee.feed(record)
        if self.on_input:
            self.on_input(record, self.referee)

    def schedule(self, record: Input) -> None:
        self._burst.append(record)

    # -------------------------------------------------------------- physical

    def last_report(self, spot: int) -> float:
        return self._reported.get(spot, 0.0)

    def report(self, t: float, spot: int) -> float:
        """A reader's report of `spot` as it is now, a little late; returns its time. A
        spot's reports keep their order."""
        t = max(t + self.time_rng.uniform(0, self.pace.scan), self.last_report(spot) + 0.01)
        t = round(t, 3)
        self._reported[spot] = t
        uids = self.contents(spot)
        if uids and self.noise_rng.random() < self.noise.flicker:
            t = self.blink(t, spot, uids)
        self._burst.append(SpotInput(t, spot, uids))
        if self.noise_rng.random() < self.noise.duplicate:
            self._burst.append(SpotInput(t, spot, uids))
        if self.pace.ticks:  # the spaced table lets every change settle before the next act
            self._burst.append(TickInput(round(t + self.setup.settle + STEP, 3)))
        return t

    def blink(self, t: float, spot: int, uids: frozenset[str]) -> float:
        """A tag seen, lost for a moment, seen again (a hand in the hat, a weak read)."""
        lost = frozenset(sorted(uids)[1:])
        self._burst.append(SpotInput(t, spot, uids))
        self._burst.append(SpotInput(round(t + 0.05, 3), spot, lost))
        t = round(t + 0.1, 3)
        self._reported[spot] = t
        return t

    def press(self, t: float, control: str, seat: int | None = None, value: Any = None) -> None:
        self._burst.append(PressInput(round(t, 3), control, seat, value))


def first_difference(made: Sequence[object], decided: Sequence[object]) -> str:
    """Where the referee's events and the people's decided events part."""
    for i, (a, b) in enumerate(zip(made, decided, strict=False)):
        if a != b:
            return f"event {i}: the referee made {a}, the players decided {b}"
    return f"the referee made {len(made)} events, the players decided {len(decided)}"
