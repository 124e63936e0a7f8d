"""A whole Vous ne passerez pas ! game at a simulated table: bots choose the placements,
people enter them on their phones at their own pace.

The decisions are made on the sim's own copy of the game (`track`), advanced by the pure
engine, never by reading the referee: each seat's bot (`companion/games/vnp/bots.py`) chooses the
action of the colour to play. The simulated people then send it as the table's web page
does, a journal `press` for their seat, after thinking for a while (`Pace`), and with the
slips of people at a table (`Habits`): a hint asked first, a wrong seat pressing, a
placement the rules refuse tried first then corrected, a pass pressed while a placement
exists, a wrong placement entered then taken back with `back`, a double tap, two seats
pressing at once. Each slip is chosen so the referee refuses it whatever the timing, so
the game the referee reaches is the one the bots played; `run` checks it is
(`comparable`: every placement, pass and the end).

`Pace.spaced()` is the slow table of scenario files: one act a second, ticked, no slips.
`Noise` (shared with the other games) adds what a rough table adds here: a stray tag laid
on the pad (no reader matters in this game) and presses that cannot count (a seat nobody
sits at, a control the game does not use). None of it may change the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.vnp.bots import make_bot
from companion.games.vnp.referee import VnpReferee, config_of
from companion.games.vnp.rules import (
    COLOURS,
    AllPlaced,
    Event,
    GameOver,
    Pass,
    Passed,
    Place,
    Placed,
    State,
    apply,
    geometry,
    is_over,
    legal_placements,
    new_game,
)
from companion.journal import Input, Setup, SpotInput, TickInput
from companion.sim.people import Diverged as Diverged
from companion.sim.people import Noise as Noise
from companion.sim.people import SimulatedPeople, first_difference

NAMES = ("Ana", "Bob", "Cy", "Dan")
DEFAULT_BOTS = ("largest", "random")
COMPARED = (Placed, Passed, AllPlaced, GameOver)
PAD = 0
STRAY_UID = "DEADBEEF"


@dataclass(frozen=True)
class Pace:
    """When simulated people act, as ranges of seconds drawn uniformly."""

    think: tuple[float, float] = (1.0, 12.0)
    """From the colour's turn to its confirm on the phone."""
    fix: tuple[float, float] = (0.5, 4.0)
    """From a refusal on the OLED (or a slip seen) to the next press."""
    read: tuple[float, float] = (0.5, 3.0)
    """From a hint on the OLED to the confirm."""
    tap: tuple[float, float] = (0.05, 0.3)
    """A double tap's second press; two seats pressing "at once" are this far apart."""
    scan: float = 0.0
    ticks: bool = False

    @classmethod
    def spaced(cls) -> Pace:
        """One act a second, with ticks between."""
        one = (1.0, 1.0)
        return cls(think=one, fix=one, read=one, tap=(0.2, 0.2), ticks=True)


@dataclass(frozen=True)
class Habits:
    """How often (per turn) people slip while entering their acts (0 = never)."""

    hint: float = 0.15
    wrong_seat: float = 0.1
    illegal_first: float = 0.15
    pass_first: float = 0.05
    undo: float = 0.05
    double_tap: float = 0.05
    together: float = 0.1

    @classmethod
    def none(cls) -> Habits:
        return cls(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

    @classmethod
    def clumsy(cls) -> Habits:
        return cls(0.3, 0.3, 0.3, 0.2, 0.2, 0.2, 0.3)


@dataclass
class VnpSimResult:
    setup: Setup
    inputs: list[Input] = field(default_factory=list)
    referee: VnpReferee | None = None
    decided: list[Event] = field(default_factory=list)
    """The events of the game the bots played."""


def make_setup(seed: int, seats: int = 4, first: int | None = None, **options: Any) -> Setup:
    """A simulated table's setup: Ana, Bob (Cy, Dan), no tag (the pieces are never read);
    `rules` (e.g. {"mode": "teams"}), `settle` and `language` pass through."""
    keep = {k: v for k, v in options.items() if k in ("settle", "language", "rules")}
    return Setup("vnp", NAMES[:seats], {}, 0 if first is None else first, seed, **keep)


def comparable(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The events that make the game: placements, passes, all placed, the end."""
    return [e.to_json() for e in events if isinstance(e, COMPARED)]


class VnpSim(SimulatedPeople):
    """Plays one game; every input goes to `on_input` (a journal, a frame grabber)."""

    referee: VnpReferee
    pace: Pace

    def __init__(
        self,
        setup: Setup,
        bots: Sequence[str] | None = None,
        noise: Noise | None = None,
        on_input: Callable[[Input, Any], None] | None = None,
        pace: Pace | None = None,
        habits: Habits | None = None,
    ) -> None:
        referee = VnpReferee(setup)
        pace = pace or Pace()
        super().__init__(setup, referee, pace, noise, on_input)
        self.habits = habits or (Habits.none() if pace.ticks else Habits())
        self.track: State
        self.track, opening = new_game(config_of(setup), setup.seed)
        self.decided: list[Event] = list(opening)
        kinds = list(bots or DEFAULT_BOTS)
        seats = len(setup.seats)
        self.bots = [make_bot(kinds[s % len(kinds)]) for s in range(seats)]
        self.bot_rngs = [random.Random(f"vnp:{setup.seed}:{s}") for s in range(seats)]

    def contents(self, spot: int) -> frozenset[str]:
        return frozenset()

    # ------------------------------------------------------------------- play

    def run(self) -> VnpSimResult:
        self.ready(self.t + 1.0)
        while not is_over(self.track):
            self._maybe_noise()
            self._turn()
            self.flush()
        self.schedule(TickInput(round(self.t + 1.0, 3)))
        self.flush()
        made, decided = comparable(self.referee.log), comparable(self.decided)
        if made != decided:
            raise Diverged(first_difference(made, decided))
        return VnpSimResult(self.setup, self.inputs, self.referee, self.decided)

    def _apply(self, action: Place | Pass) -> None:
        self.track, events = apply(self.track, action)
        self.decided.extend(events)

    def _chance(self, rate: float) -> bool:
        return rate > 0 and self.act_rng.random() < rate

    def _turn(self) -> None:
        """The colour to play: its seat thinks, maybe slips, then confirms its act."""
        state = self.track
        config = state.config
        colour = COLOURS[state.turn]
        seat = config.seat_of(state.turn)
        action = self.bots[seat](state, self.bot_rngs[seat])
        assert isinstance(action, Place | Pass)
        habits = self.habits
        t = self.t + self.uniform(self.pace.think)
        if self._chance(habits.hint):
            self.press(t, "hint", seat)
            t += self.uniform(self.pace.read)
        if self._chance(habits.wrong_seat):  # another seat thinks it is its turn: refused
            other, theirs = self._other(state, seat)
            self.press(t, "place", other, {"colour": theirs, "placement": self._any_pid()})
            t += self.uniform(self.pace.fix)
        if self._chance(habits.illegal_first):
            bad = self._illegal_pid(state)
            if bad is not None:  # VNP-1/3/4: refused with the ruling, then corrected
                self.press(t, "place", seat, {"colour": colour, "placement": bad})
                t += self.uniform(self.pace.fix)
        if isinstance(action, Place):
            if self._chance(habits.pass_first):  # VNP-5: refused while a placement exists
                self.press(t, "pass", seat, {"colour": colour})
                t += self.uniform(self.pace.fix)
            if self.referee.undo_allowed and self._chance(habits.undo):
                wrong = self._undoable_slip(state, action.placement)
                if wrong is not None:  # a wrong one entered, taken back, then the right one
                    self.press(t, "place", seat, {"colour": colour, "placement": wrong})
                    t += self.uniform(self.pace.fix)
                    self.press(t, "back", seat)
                    t += self.uniform(self.pace.fix)
            value: dict[str, Any] = {"colour": colour, "placement": action.placement}
        else:
            value = {"colour": colour}
        together = self._chance(habits.together)
        self._apply(action)
        self.press(t, action.name, seat, value)
        if isinstance(action, Place) and self._chance(habits.double_tap):
            self.press(t + self.uniform(self.pace.tap), "place", seat, value)  # REPEATED
        if together and not is_over(self.track):  # another seat at the same moment: refused
            other, theirs = self._other(self.track, seat, before=state)
            gap = self.uniform(self.pace.tap) * (1 if self.act_rng.random() < 0.5 else -1)
            pid = self._any_pid()
            self.press(max(t + gap, self.t), "place", other, {"colour": theirs, "placement": pid})
        self.ready(t + 0.05)

    def _other(self, after: State, seat: int, before: State | None = None) -> tuple[int, str]:
        """Another seat and one of its colours that is to play neither before nor after
        this act (VNP-2), so its press is refused whenever it lands (NOT_YOUR_TURN)."""
        config = after.config
        busy = {after.turn, (before or after).turn}
        choices = [
            (config.seat_of(c), str(COLOURS[c]))
            for c in range(len(COLOURS))
            if c not in busy and config.seat_of(c) != seat
        ]
        if not choices:  # two seats, and the other plays the next colour: name a free one
            choices = [
                (config.seat_of(c), str(COLOURS[c])) for c in range(len(COLOURS)) if c not in busy
            ]
        return self.act_rng.choice(sorted(choices))

    def _any_pid(self) -> int:
        """Any placement id: the press it goes with is refused before it is looked at."""
        return self.act_rng.randrange(geometry(self.track.config.size).count)

    def _illegal_pid(self, state: State) -> int | None:
        """A placement of a piece the colour still has, that the rules refuse now."""
        g = geometry(state.config.size)
        legal = set(legal_placements(state, state.turn))
        left = set(state.left[state.turn])
        for _ in range(50):
            pid = self.act_rng.randrange(g.count)
            if g.piece_of[pid] in left and pid not in legal:
                return pid
        return None

    def _undoable_slip(self, state: State, intended: int) -> int | None:
        """A legal placement other than the intended one that does not end the game (the
        end is final, VNP-6: back could not take it back)."""
        others = [pid for pid in legal_placements(state, state.turn) if pid != intended]
        if not others:
            return None
        pid = self.act_rng.choice(others)
        after, _ = apply(state, Place(COLOURS[state.turn], pid))
        return None if is_over(after) else pid

    def _maybe_noise(self) -> None:
        """A rough table: a stray tag on the pad (read, then taken off: nothing happens),
        a seat nobody sits at, a control the game does not use."""
        rng, noise = self.noise_rng, self.noise
        if rng.random() < noise.stray:
            t = round(self.t + 0.2, 3)
            self.schedule(SpotInput(t, PAD, frozenset({STRAY_UID})))
            self.schedule(SpotInput(round(t + noise.stray_lasts, 3), PAD, frozenset()))
        if rng.random() < noise.out_of_turn:
            if rng.random() < 0.5:
                self.press(self.t + 0.1, "place", len(self.setup.seats) + rng.randrange(3))
            else:
                self.press(self.t + 0.1, "announce", None, "lapin")
