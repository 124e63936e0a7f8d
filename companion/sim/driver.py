"""A whole game on the virtual table: bots sit at the seats and act physically.

The bots are the engine's bots (they see only their seat's `PlayerView` and the public
events). What they decide becomes physical acts on the `VirtualTable` and presses on the
controls; those become journal inputs that go through the same referee a real table
uses. When the referee asks for a physical instruction (take back a hat, give a token,
clear the table) or shows a fault, the simulated players carry it out.

`Noise` injects what real tables do: flickering tags, duplicated reader reports, stray
unknown tags, presses out of turn. None of it may change a verdict.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.bots.passpass import Bot, make_bot
from companion.journal import Input, PressInput, Setup, SpotInput, TickInput
from companion.referee.passpass import CALL_GRACE, PassPassReferee
from companion.referee.table import compare
from companion.rules.passpass import (
    RULESETS,
    Announce,
    Designate,
    Phase,
    Reveal,
    RewardDrop,
    RewardToken,
    Swap,
    actors,
    legal_actions,
    player_view,
)
from companion.selfplay import window_calls
from companion.sim.table import VirtualTable, make_tags

STEP = 0.05
"""How far past a deadline the simulated clock ticks, in seconds."""


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


@dataclass
class SimResult:
    setup: Setup
    inputs: list[Input] = field(default_factory=list)
    referee: PassPassReferee | None = None


def make_setup(
    game: str,
    players: int,
    seed: int,
    window: float = 6.0,
    settle: float = 0.5,
    first: int | None = None,
    **kw: object,
) -> Setup:
    """A simulated table's setup: seats Ana, Bob, ..., a box of tags made from `seed`, and
    (PTI-13) a first player that, unless given, rotates with the seed."""
    rng = random.Random(f"tags:{seed}")
    tokens = RULESETS[game].tokens
    names = tuple(["Ana", "Bob", "Cy", "Dee", "Eve", "Fay"][:players])
    tags = make_tags(game, tokens, players, rng)
    first = seed % players if first is None else first
    return Setup(
        game=game, seats=names, tags=tags, first=first, seed=seed, window=window, settle=settle,
        **kw,  # type: ignore[arg-type]
    )  # fmt: skip


class SimulatedGame:
    """Plays one game; every input goes to `on_input` (a journal writer, a frame grabber)."""

    def __init__(
        self,
        setup: Setup,
        bots: list[str] | None = None,
        noise: Noise | None = None,
        on_input: Callable[[Input, PassPassReferee], None] | None = None,
    ) -> None:
        self.setup = setup
        self.referee = PassPassReferee(setup)
        layout = self.referee.state.config.layout
        kinds = bots or ["heuristic"] * len(setup.seats)
        self.bots: list[Bot] = [
            make_bot(kinds[s % len(kinds)], random.Random(f"{setup.seed}:{s}"), s, layout)
            for s in range(len(setup.seats))
        ]
        self.table = VirtualTable(layout.spots, setup.tags)
        self.noise = noise or Noise()
        self.noise_rng = random.Random(f"noise:{setup.seed}")
        self.act_rng = random.Random(f"acts:{setup.seed}")
        self.t = setup.t
        self.inputs: list[Input] = []
        self.on_input = on_input
        self._seen = 0

    # ------------------------------------------------------------------ clock

    def feed(self, record: Input) -> None:
        self.t = max(self.t, record.t)
        self.inputs.append(record)
        self.referee.feed(record)
        if self.on_input:
            self.on_input(record, self.referee)
        new = self.referee.log[self._seen :]
        if new:
            self._seen = len(self.referee.log)
            for bot in self.bots:
                bot.observe(new)

    def wait(self, seconds: float) -> None:
        self.feed(TickInput(round(self.t + seconds, 3)))

    def settle(self) -> None:
        self.wait(self.setup.settle + STEP)

    def report(self, record: SpotInput) -> None:
        """A reader report, with the noise of a real scan around it."""
        rng = self.noise_rng
        if rng.random() < self.noise.flicker and record.uids:
            blink = frozenset(list(record.uids)[1:])
            self.feed(SpotInput(record.t, record.spot, record.uids))
            self.feed(SpotInput(round(record.t + 0.05, 3), record.spot, blink))
            record = SpotInput(round(record.t + 0.1, 3), record.spot, record.uids)
        self.feed(record)
        if rng.random() < self.noise.duplicate:
            self.feed(record)

    # ------------------------------------------------------------------- play

    def run(self, max_inputs: int = 200_000) -> SimResult:
        self.settle()
        stuck = 0
        while not self.referee.finished and len(self.inputs) < max_inputs:
            before = (self.referee.state, self.referee.fault, self.referee.pending)
            self._maybe_noise()
            if self.referee.fault is not None or self.referee.pending is not None:
                self._follow_instructions()
            else:
                self._play_turn()
            now = (self.referee.state, self.referee.fault, self.referee.pending)
            stuck = stuck + 1 if now == before else 0
            if stuck > 20:
                raise RuntimeError(f"the simulated table makes no progress: {now}")
        return SimResult(self.setup, self.inputs, self.referee)

    def _follow_instructions(self) -> None:
        """The players make the table match what the referee expects, hat by hat."""
        expected = self.referee.expected()
        diffs = compare(self.referee.observed, expected, self.referee.tag_kinds)
        for d in diffs:
            for uid in d.unknown:
                self.report(self.table.remove(self.t + 0.5, d.spot, uid))
            for kind in d.extra:
                self.report(self.table.take(self.t + 0.5, d.spot, kind))
            for kind in d.missing:
                self.report(self.table.drop(self.t + 0.5, d.spot, kind))
        self.settle()

    def _play_turn(self) -> None:
        referee = self.referee
        state = referee.state
        t = self.t + 1.0
        if state.phase is Phase.WINDOW:
            self._window()
            return
        (seat,) = actors(state)
        action = self.bots[seat].choose(player_view(state, seat), legal_actions(state))
        if isinstance(action, Designate | RewardDrop):
            self.report(self.table.drop(t, action.spot, action.token))
            self.settle()
        elif isinstance(action, Announce):
            self.feed(PressInput(t, "announce", None, action.token))
        elif isinstance(action, RewardToken):
            self.feed(PressInput(t, "doublon", seat))
        elif isinstance(action, Swap):
            for record in self.table.slide(t, action.a, action.b, self.act_rng):
                self.report(record)
            self.settle()
        elif isinstance(action, Reveal):
            self.feed(PressInput(t, "aim", seat, list(action.spots)))
            self.feed(PressInput(t + 1.0, "choose", seat, list(action.spots)))
            self.settle()
        else:
            raise AssertionError(f"a bot chose {action!r} outside a window")

    def _window(self) -> None:
        """Every seat that may call is asked; callers press within 100 ms of each other,
        in no particular order; silence lets the window run out."""
        callers = window_calls(self.referee.state, self.bots)
        if not callers:
            deadline = self.referee.window_opened + self.setup.window
            self.feed(TickInput(round(max(self.t, deadline) + STEP, 3)))
            return
        self.act_rng.shuffle(callers)
        t = self.t + 1.0
        for i, call in enumerate(callers):
            self.feed(PressInput(round(t + 0.03 * i, 3), str(call.challenge), call.seat))
        self.wait(CALL_GRACE + STEP)

    def _maybe_noise(self) -> None:
        rng = self.noise_rng
        noise = self.noise
        spots = self.referee.state.config.layout.spots
        if rng.random() < noise.stray:
            spot = rng.randint(1, spots)
            uid = "DEADBEEF"
            self.report(self.table.stray(self.t + 0.1, spot, uid))
            self.wait(noise.stray_lasts)  # longer than `settle`: the referee says Stop
            self.report(self.table.remove(self.t + 0.5, spot, uid))
        phase = self.referee.state.phase
        if rng.random() < noise.out_of_turn and phase in (Phase.PLACE, Phase.REVEAL):
            seat = rng.randrange(len(self.setup.seats))
            control = rng.choice(["doublon", "menteur", "announce"])
            value = rng.choice(RULESETS[self.setup.game].tokens) if control == "announce" else None
            self.feed(PressInput(self.t + 0.2, control, seat, value))
