"""A whole Swiped game on a simulated table, played by simulated people at their pace.

The seeded engine decides: the sim keeps its own SEEDED game (`track`), which drew the
layout card and both targets, and bots program the swaps and choose the claims on it. The
simulated people then carry it out physically, as a real table feeds the readers: the
face-up card laid on the pad, the nine big cubes placed one at a time, each target card
held on the pad, every swap made one cube at a time (one lifted, the other lifted or put
beside it, both put down), the encoder pushed for "same pair, skip", a Doublon press for
"5 matches", a Menteur press and then the named card (the encoder turned to it and pushed, or
the card on the pad when it is not in the other player's hands). People press a claim
with a swap's last cube (claim_mid_swap "after": it waits for the swap) or as the next
swap is made ("before": it counts before that swap). The referee, with an
OBSERVED deal, sees only that journal; `run` checks it reached the game the seeded engine
played (`comparable`: every swap, skip, claim and result).

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

from companion.games.swiped.bots import Decider, make_decider
from companion.games.swiped.referee import SwipedReferee
from companion.games.swiped.rules import (
    COLOURS,
    PLAYERS,
    SQUARES,
    Action,
    ClaimCard,
    ClaimChecked,
    ClaimMatches,
    Config,
    Deal,
    Event,
    GameDrawn,
    GameWon,
    MancheEnded,
    MancheStarted,
    Phase,
    Program,
    State,
    Swap,
    Swapped,
    SwapSkipped,
    apply,
    is_over,
    legal_actions,
    new_game,
    next_swap,
)
from companion.journal import Input, Setup, TickInput
from companion.sim.people import Diverged as Diverged
from companion.sim.people import Noise as Noise
from companion.sim.people import SimulatedPeople, first_difference

PAD = 0
NAMES = ("Ana", "Bob")
DEFAULT_BOTS = ("deducing", "random")
COMPARED = (Swapped, SwapSkipped, ClaimChecked, GameWon, GameDrawn, MancheEnded, MancheStarted)


@dataclass(frozen=True)
class Pace:
    """When simulated people act, as ranges of seconds drawn uniformly."""

    react: tuple[float, float] = (0.3, 1.5)
    """From the OLED showing what comes next to the first hand moving."""
    hold: tuple[float, float] = (0.8, 2.0)
    """How long a card lies on the pad (longer than the settle time: it must be read)."""
    place: tuple[float, float] = (0.2, 1.0)
    """Between two cubes placed at the opening."""
    move: tuple[float, float] = (0.1, 0.9)
    """Between two hand movements of one swap."""
    program: tuple[float, float] = (2.0, 8.0)
    """Programming with the small cubes, then revealing: nothing the readers see."""
    push: tuple[float, float] = (0.3, 2.0)
    """From the OLED's "same pair" to the encoder pushed."""
    name: tuple[float, float] = (0.5, 2.5)
    """From the Menteur press to the named card on the pad."""
    detent: tuple[float, float] = (0.05, 0.25)
    """Between two detents of the encoder."""
    early: tuple[float, float] = (0.0, 0.5)
    """A claim pressed with a swap's last cube: this much before it is down."""
    mid: tuple[float, float] = (-0.2, 1.5)
    """A claim pressed as the next swap is made (claim_mid_swap "before"): this long after
    its first cube is lifted (negative: a moment before)."""
    scan: float = 0.06
    """A reader reports up to this late."""
    ticks: bool = False

    @classmethod
    def spaced(cls) -> Pace:
        """One act a second, each after the table settled, with ticks between."""
        one = (1.0, 1.0)
        return cls(react=one, hold=one, place=one, move=one, program=one, push=one,
                   name=one, detent=(0.2, 0.2), early=(0.0, 0.0), mid=(0.0, 0.0),
                   scan=0.0, ticks=True)  # fmt: skip


@dataclass
class SwSimResult:
    setup: Setup
    inputs: list[Input] = field(default_factory=list)
    referee: SwipedReferee | None = None
    decided: list[Event] = field(default_factory=list)
    """The events of the seeded game the people played."""


def make_tags(seed: int, deck_size: int = 24) -> dict[str, str]:
    """One tag per card ("layout:N") and per big cube ("cube:rouge"): NTAG-like 7-byte
    UIDs on the cards, MIFARE-like 4-byte ones in the cubes."""
    rng = random.Random(f"swiped:{seed}")
    kinds = [f"layout:{n}" for n in range(1, deck_size + 1)] + [f"cube:{c}" for c in COLOURS]
    tags: dict[str, str] = {}
    for kind in kinds:
        size = 7 if kind.startswith("layout") else 4
        while True:
            raw = bytes([0x04] if size == 7 else []) + rng.randbytes(size - (size == 7))
            uid = raw.hex().upper()
            if uid not in tags:
                break
        tags[uid] = kind
    return tags


def make_setup(seed: int, first: int | None = None, **options: Any) -> Setup:
    """A simulated table's setup: Ana and Bob, tags made from `seed`, and a first player
    that, unless given, alternates with the seed."""
    keep = {k: v for k, v in options.items() if k in ("settle", "language", "rules")}
    first = seed % PLAYERS if first is None else first
    size = int((keep.get("rules") or {}).get("deck_size", 24))
    return Setup("swiped", NAMES, make_tags(seed, size), first, seed, **keep)


def comparable(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The events both deals make: swaps, skips, claims, manches and the result."""
    return [e.to_json() for e in events if isinstance(e, COMPARED)]


class SwipedSim(SimulatedPeople):
    """Plays one game; every input goes to `on_input` (a journal, a frame grabber)."""

    referee: SwipedReferee
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
        referee = SwipedReferee(setup, config)
        super().__init__(setup, referee, pace or Pace(), noise, on_input)
        seeded = dataclasses.replace(referee.state.config, deal=Deal.SEEDED)
        self.track: State
        self.track, opening = new_game(seeded, setup.seed)
        self.decided: list[Event] = list(opening)
        # By default a deducing player against one swapping at random: two deducing bots
        # read each other's card from the first programs revealed, and the game is short.
        kinds = list(bots or DEFAULT_BOTS)
        self.decide: Decider = make_decider(kinds, seeded, setup.seed)
        self.uid: dict[int | str, str] = {token: uid for uid, token in referee.tokens.items()}
        self.table: dict[int, set[str]] = {s: set() for s in range(SQUARES + 1)}
        self.first_rng = random.Random(f"claims:{setup.seed}")
        """Who claims first when both would: a decision, so not drawn from the pace."""
        self.landed: float | None = None
        """When the last cube of the swap just made went down, until the next act."""
        self.with_landing = referee.mid_swap == "after" and not self.pace.ticks
        """People may press a claim as the swap before it lands (it is held till then)."""
        self.with_lift = referee.mid_swap == "before" and not self.pace.ticks
        """People may press a claim as the next swap is made (it counts before that swap):
        a Doublon while the swap goes on, a Menteur while its first cube is lifted and put
        back to wait for the card to be named."""

    def contents(self, spot: int) -> frozenset[str]:
        return frozenset(self.table[spot])

    # -------------------------------------------------------------- decisions

    def _apply(self, action: Action) -> tuple[Event, ...]:
        self.track, events = apply(self.track, action)
        self.decided.extend(events)
        self.decide.observe(events)
        return events

    def _over(self) -> bool:
        return is_over(self.track)

    # ------------------------------------------------------------------- play

    def run(self, max_swaps: int = 5_000) -> SwSimResult:
        self.ready(self.t + self.setup.settle)
        self._opening()
        swaps = 0
        while not self._over() and swaps < max_swaps:
            self._maybe_noise()
            if self._claims():
                pass
            elif self.track.phase is Phase.PROGRAM:
                self._program()
            else:
                self._swap()
                swaps += 1
                continue  # fed with the next act: a claim may be pressed as it lands
            self.landed = None
            self.flush()
        self.schedule(TickInput(round(self.t + self.setup.settle + 1.0, 3)))
        self.flush()
        made = comparable(self.referee.log)
        decided = comparable(self.decided)
        if made != decided:
            raise Diverged(first_difference(made, decided))
        return SwSimResult(self.setup, self.inputs, self.referee, self.decided)

    def _on_pad(self, t: float, token: int | str) -> float:
        """A card laid on the pad and held there; returns when it is taken back."""
        uid = self.uid[token]
        self.table[PAD].add(uid)
        put = self.report(t, PAD)
        self.table[PAD].discard(uid)
        return self.report(put + self.uniform(self.pace.hold), PAD)

    def _opening(self) -> None:
        """SW-2: the face-up card on the pad, the cubes placed as it shows, one at a time,
        then each target card on the pad, from the first player on."""
        state = self.track
        assert state.layout_card is not None
        t = self._on_pad(self.t + self.uniform(self.pace.react), state.layout_card)
        squares = list(range(1, SQUARES + 1))
        if not self.pace.ticks:
            self.act_rng.shuffle(squares)
        for square in squares:
            t += self.uniform(self.pace.place)
            self.table[square].add(self.uid[state.grid[square - 1]])
            t = self.report(t, square)
        first = state.config.first
        for seat in (first, 1 - first):
            target = state.targets[seat]
            assert target is not None
            t = self._on_pad(t + self.uniform(self.pace.react), target)
        self.ready(t + self.setup.settle)
        self.flush()

    def _turn_to(self, t: float, card: int) -> float:
        """The encoder turned detent by detent to `card` (the short way from none aimed:
        one step on aims at card 1, one step back at the last), then pushed."""
        size = self.track.config.deck_size
        path = range(1, card + 1) if card <= size // 2 else range(size, card - 1, -1)
        for aimed in path:
            self.press(t, "aim", None, [aimed])
            t += self.uniform(self.pace.detent)
        t += self.uniform(self.pace.react)
        self.press(t, "choose", None, [card])
        return t

    def _program(self) -> None:
        """SW-3: one more swap of each program, made with small cubes the readers never
        see; a claim may come between two (SW-5), so `run` asks for claims each time."""
        for seat in range(PLAYERS):
            action = self.decide(self.track, seat)
            if isinstance(action, Program):
                self._apply(action)
        if self.track.phase is not Phase.PROGRAM:
            self.ready(self.t + self.uniform(self.pace.program))

    def _claims(self) -> bool:
        """SW-5: between two swaps, a seat may claim. True when one did."""
        seats = [0, 1]
        self.first_rng.shuffle(seats)
        for seat in seats:
            action = self.decide(self.track, seat)
            if not isinstance(action, ClaimMatches | ClaimCard):
                continue
            swapping = self.track.phase is Phase.EXECUTE  # the next act moves cubes
            mid = self.with_lift and swapping and self.act_rng.random() < 0.4
            if mid and isinstance(action, ClaimMatches):
                self._swap(action)
                return True
            t = self.t + self.uniform(self.pace.react)
            if self.with_landing and self.landed is not None and self.act_rng.random() < 0.4:
                t = self.landed - self.uniform(self.pace.early)  # with the last cube
            if mid:
                t = self._lifted_and_put_back(t)
            if isinstance(action, ClaimMatches):
                self.press(t, "doublon", seat)
                self.ready(t + 0.1)
            else:
                self.press(t, "menteur", seat)
                t += self.uniform(self.pace.name)
                in_hand = action.card == self.track.targets[1 - seat]  # the other's card
                if in_hand or self.act_rng.random() < 0.5:
                    done = self._turn_to(t, action.card)
                else:
                    done = self._on_pad(t, action.card)
                self.ready(done + self.setup.settle)
            self._apply(action)
            return True
        return False

    def _next_swap(self) -> tuple[Swap, tuple[Event, ...]]:
        """The swap the next seat makes now, and the events it would make."""
        state = self.track
        seat = next_swap(state)
        action = next(a for a in self._legal_swaps(state) if a.seat == seat)
        return action, apply(state, action)[1]

    def _swap(self, claim: ClaimMatches | None = None) -> None:
        """SW-4: the next swap, one cube at a time (or the skip of a repeated pair). With
        `claim` (claim_mid_swap "before"), that "5 matches" is pressed as the swap is made,
        from a moment before its first cube is lifted to just before the table is still
        after it: it counts before the swap, which the hands finish all the same."""
        state = self.track
        action, made = self._next_swap()
        i, j = next(e.squares for e in made if isinstance(e, Swapped))
        if claim is not None:
            self._apply(claim)
        events = () if self._over() else self._apply(action)
        a, b = (self.uid[state.grid[i - 1]], self.uid[state.grid[j - 1]])
        t = lifted = self.t + self.uniform(self.pace.react)
        if self.act_rng.random() < 0.5:  # both lifted, then both put down
            steps = [(i, a, False), (j, b, False), (j, a, True), (i, b, True)]
        else:  # one put beside the other, then the other moved
            steps = [(i, a, False), (j, a, True), (j, b, False), (i, b, True)]
        for square, uid, down in steps:
            (self.table[square].add if down else self.table[square].discard)(uid)
            self.landed = landed = self.report(t, square)
            t = landed + self.uniform(self.pace.move)
        if claim is not None:
            pressed = lifted + self.uniform(self.pace.mid)
            self.press(min(pressed, landed + 0.8 * self.setup.settle), "doublon", claim.seat)
        self.ready(t + self.setup.settle)
        if any(isinstance(e, SwapSkipped) for e in events):
            self.landed = None
            self.flush()
            push = self.t + self.uniform(self.pace.push)
            self.press(push, "choose")  # as the encoder sends it: nothing aimed
            self.ready(push + 0.1)

    def _lifted_and_put_back(self, t: float) -> float:
        """The next swap's first cube lifted at `t` and put back to wait for a claim pressed
        meanwhile (or a moment before); returns when the claim is pressed."""
        swap = next(e for e in self._next_swap()[1] if isinstance(e, Swapped))
        square = swap.squares[0]
        uid = self.uid[self.track.grid[square - 1]]
        self.table[square].discard(uid)
        lifted = self.report(t, square)
        pressed = lifted + self.uniform(self.pace.mid)
        self.table[square].add(uid)
        back = self.report(max(lifted, pressed) + self.uniform(self.pace.move), square)
        self.ready(back + self.setup.settle)
        return pressed

    @staticmethod
    def _legal_swaps(state: State) -> list[Swap]:
        return [a for a in legal_actions(state) if isinstance(a, Swap)]

    def _maybe_noise(self) -> None:
        rng = self.noise_rng
        noise = self.noise
        if rng.random() < noise.stray:
            spot = rng.randint(1, SQUARES)
            self.table[spot].add("DEADBEEF")
            self.report(self.t + 0.1, spot)
            self.table[spot].discard("DEADBEEF")  # longer than `settle`: the referee says Stop
            last = self.report(self.t + 0.1 + noise.stray_lasts, spot)
            self.ready(last + self.setup.settle)
            self.landed = None  # the next claim waits for the STOP to be over
        if rng.random() < noise.out_of_turn:
            if rng.random() < 0.5:  # a seat where nobody sits in Swiped
                self.press(self.t + 0.1, "doublon", 2 + rng.randrange(4))
            else:  # an announce button: Swiped has none
                self.press(self.t + 0.1, "announce", None, "lapin")
            self.ready(self.t + 0.15)
