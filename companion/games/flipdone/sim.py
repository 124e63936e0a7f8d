"""A whole Flip Done game on a simulated table, played by simulated people at their pace.

The seeded engine decides: the sim keeps its own SEEDED game (`track`), whose deal it
knows, and bots choose each play on it. The simulated people then carry it out physically,
as a real table would feed the readers: they deal the phase's nine cards face down, one at
a time, then the face-up card; they play one card at a time (a build on its square; a card
on the pad, then the element lifted and put back turned over; a card on the pad and the
encoder's "no flip"); they gather every card at a phase's end. The referee, with an
OBSERVED deal, sees only that journal, and `run` checks that it reached the very game the
seeded engine played (the same events but the OBSERVED deal's `dealt_down`): lines,
transfers, penalties, manche and game results.

`Pace` gives people's timing (`Pace.spaced()`: one act a second, ticked, as in scenario
files); `Noise` adds a rough table's flickering tags, duplicated reports, stray tags and
presses that cannot count. None of it may change the game.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.flipdone.bots import Bot, make_bot
from companion.games.flipdone.referee import FlipDoneReferee
from companion.games.flipdone.rules import (
    CENTRE,
    DECK,
    PLAYERS,
    SQUARES,
    Build,
    Config,
    Deal,
    DealtDown,
    Discard,
    Event,
    Flip,
    PhaseEnded,
    PlaceFirst,
    Stage,
    State,
    apply,
    is_over,
    new_game,
)
from companion.journal import Input, Setup, TickInput
from companion.sim.people import Diverged as Diverged
from companion.sim.people import Noise as Noise
from companion.sim.people import SimulatedPeople, first_difference

PAD = 0
NAMES = ("Ana", "Bob", "Cy")


@dataclass(frozen=True)
class Pace:
    """When simulated people act, as ranges of seconds drawn uniformly."""

    react: tuple[float, float] = (0.3, 1.5)
    """From the OLED showing what comes next to the first hand moving."""
    deal: tuple[float, float] = (0.2, 0.9)
    """Between two cards dealt."""
    lift: tuple[float, float] = (0.1, 1.0)
    """From the card on the pad to the element lifted."""
    turn: tuple[float, float] = (0.1, 1.2)
    """How long an element is off its spot while it is turned over."""
    push: tuple[float, float] = (0.05, 1.5)
    """From the card on the pad to the encoder pushed for "no flip"."""
    gather: tuple[float, float] = (0.0, 3.0)
    """When each spot is cleared at a phase's end (everyone gathers at once)."""
    scan: float = 0.06
    """A reader reports up to this late."""
    ticks: bool = False

    @classmethod
    def spaced(cls) -> Pace:
        """One act a second, each after the table settled, with ticks between."""
        one = (1.0, 1.0)
        return cls(react=one, deal=one, lift=one, turn=one, push=one, gather=one,
                   scan=0.0, ticks=True)  # fmt: skip


@dataclass
class FdSimResult:
    setup: Setup
    inputs: list[Input] = field(default_factory=list)
    referee: FlipDoneReferee | None = None
    decided: list[Event] = field(default_factory=list)
    """The events of the seeded game the people played."""


def make_tags(seed: int) -> dict[str, str]:
    """One tag per card: NTAG-like 7-byte UIDs and MIFARE-like 4-byte ones mixed."""
    rng = random.Random(f"cards:{seed}")
    tags: dict[str, str] = {}
    for i, card in enumerate(DECK):
        while True:
            size = 7 if i % 2 == 0 else 4
            raw = bytes([0x04] if size == 7 else []) + rng.randbytes(size - (size == 7))
            uid = raw.hex().upper()
            if uid not in tags:
                break
        tags[uid] = f"card:{card}"
    return tags


def make_setup(seed: int, first: int | None = None, **options: Any) -> Setup:
    """A simulated table's setup: Ana, Bob and Cy, a deck of tags made from `seed`, and a
    first player that, unless given, rotates with the seed."""
    keep = {k: v for k, v in options.items() if k in ("settle", "language")}
    first = seed % PLAYERS if first is None else first
    return Setup("flipdone", NAMES, make_tags(seed), first, seed, **keep)


def comparable(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The events both deal modes make: all but the OBSERVED deal's `dealt_down`."""
    return [e.to_json() for e in events if not isinstance(e, DealtDown)]


class FlipDoneSim(SimulatedPeople):
    """Plays one game; every input goes to `on_input` (a journal, a frame grabber)."""

    referee: FlipDoneReferee
    pace: Pace

    def __init__(
        self,
        setup: Setup,
        bots: Sequence[str] | None = None,
        noise: Noise | None = None,
        on_input: Callable[[Input, Any], None] | None = None,
        pace: Pace | None = None,
        config: Config | None = None,
    ) -> None:
        config = config or Config()
        super().__init__(setup, FlipDoneReferee(setup, config), pace or Pace(), noise, on_input)
        seeded = dataclasses.replace(config, first=setup.first, deal=Deal.SEEDED)
        self.track: State
        self.track, opening = new_game(seeded, setup.seed)
        self.decided: list[Event] = list(opening)
        kinds = list(bots or ["heuristic"])
        self.bots: list[Bot] = [
            make_bot(kinds[s % len(kinds)], random.Random(f"{setup.seed}:bot:{s}"))
            for s in range(PLAYERS)
        ]
        self.uid = {card: uid for uid, card in self.referee.cards.items()}
        self.table: dict[int, set[str]] = {s: set() for s in range(SQUARES + 1)}

    def contents(self, spot: int) -> frozenset[str]:
        return frozenset(self.table[spot])

    # -------------------------------------------------------------- physical

    def _put(self, t: float, spot: int, card: str) -> float:
        self.table[spot].add(self.uid[card])
        return self.report(t, spot)

    # -------------------------------------------------------------- decisions

    def _apply(self, action: Any) -> tuple[Event, ...]:
        self.track, events = apply(self.track, action)
        self.decided.extend(events)
        return events

    # ------------------------------------------------------------------- play

    def run(self, max_plays: int = 10_000) -> FdSimResult:
        self.ready(self.t + self.setup.settle)
        plays = 0
        while not self._over() and plays < max_plays:
            self._deal()
            ended = False
            while not ended and not self._over():
                self._maybe_noise()
                ended = self._play()
                plays += 1
                self.flush()
            if not self._over():
                self._gather()
        self.schedule(TickInput(round(self.t + self.setup.settle + 1.0, 3)))
        self.flush()
        made = comparable(self.referee.log)
        decided = comparable(self.decided)
        if made != decided:
            raise Diverged(first_difference(made, decided))
        return FdSimResult(self.setup, self.inputs, self.referee, self.decided)

    def _over(self) -> bool:
        return is_over(self.track)

    def _deal(self) -> None:
        """FD-2: the nine face-down cards one at a time, in any order, then the face-up
        card on the centre, or where the phase's first player chooses."""
        state = self.track
        squares = list(range(1, SQUARES + 1))
        if not self.pace.ticks:
            self.act_rng.shuffle(squares)
        t = self.t + self.uniform(self.pace.react)
        last = t
        for square in squares:
            card = state.under[square - 1]
            assert card is not None
            last = self._put(t, square, card)
            t += self.uniform(self.pace.deal)
        if state.stage is Stage.PLACE_FIRST:
            choice = self.bots[state.turn](state)
            assert isinstance(choice, PlaceFirst) and state.pending is not None
            self._apply(choice)
            last = self._put(t, choice.square, state.pending)
        else:
            up = state.faces[CENTRE - 1]
            assert up is not None
            last = self._put(t, CENTRE, up)
        self.ready(last + self.setup.settle)
        self.flush()

    def _play(self) -> bool:
        """One play carried out; True when it ended the phase."""
        state = self.track
        action = self.bots[state.turn](state)
        start = self.t + self.uniform(self.pace.react)
        if isinstance(action, Build):
            last = self._put(start, action.square, action.card)
            self.ready(last + self.setup.settle)
        elif isinstance(action, Flip):
            landed = self._put(start, PAD, action.card)
            element = set(self.table[action.square])
            self.table[action.square].clear()  # lifted off its reader
            lift = self.report(landed + self.uniform(self.pace.lift), action.square)
            self.table[action.square] |= element  # put back turned over: the same two tags
            back = self.report(lift + self.uniform(self.pace.turn), action.square)
            self.ready(back + self.setup.settle)
        elif isinstance(action, Discard):
            landed = self._put(start, PAD, action.card)
            push = landed + self.uniform(self.pace.push)
            self.press(push, "choose", None, "discard")
            self.ready(max(push, landed + self.setup.settle))
        else:
            raise AssertionError(f"a bot chose {action!r} during play")
        events = self._apply(action)
        return any(isinstance(e, PhaseEnded) for e in events)

    def _gather(self) -> None:
        """FD-2: every card back to the deck, everyone at once, before the next deal."""
        start = self.t + self.uniform(self.pace.react)
        last = start
        for spot in sorted(s for s, uids in self.table.items() if uids):
            when = start + self.uniform(self.pace.gather)
            self.table[spot].clear()
            last = max(last, self.report(when, spot))
        self.ready(last + self.setup.settle)
        self.flush()

    def _maybe_noise(self) -> None:
        rng = self.noise_rng
        noise = self.noise
        if rng.random() < noise.stray:
            spot = rng.randint(0, SQUARES)
            self.table[spot].add("DEADBEEF")
            self.report(self.t + 0.1, spot)
            self.table[spot].discard("DEADBEEF")  # longer than `settle`: the referee says Stop
            last = self.report(self.t + 0.1 + noise.stray_lasts, spot)
            self.ready(last + self.setup.settle)
        if rng.random() < noise.out_of_turn:
            if rng.random() < 0.5:
                self.press(self.t + 0.1, "doublon", rng.randrange(PLAYERS))
            else:  # "no flip" with nothing on the pad
                self.press(self.t + 0.1, "choose", None, "discard")
            self.ready(self.t + 0.15)
        self.flush()
