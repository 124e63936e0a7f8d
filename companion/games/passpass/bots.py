"""Bots for PtiPassPass and PhiPassPass: self-play, simulated tables, benchmarks.

A bot sees only what its seat knows: a `PlayerView` (public facts, its own hand, the token
it holds as Magicien) and the public events. All chance comes from the `random.Random`
it is given, so a seeded game replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from companion.games.passpass.rules import (
    Action,
    Announce,
    Call,
    Challenge,
    Designate,
    Designated,
    Event,
    MancheStarted,
    Pass,
    Placed,
    PlayerView,
    Reveal,
    Revealed,
    RewardDrop,
    Rewarded,
    RewardToken,
    Swap,
    Swapped,
    Verdict,
    best_pick,
)
from companion.games.passpass.rules.layouts import Layout


class Bot(Protocol):
    """Chooses one of `legal` (all of them this seat's actions) and hears every event."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action: ...

    def observe(self, events: Sequence[Event]) -> None: ...


class RandomBot:
    """Uniform over the legal actions: the baseline, and the benchmark's player."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return self.rng.choice(legal)

    def observe(self, events: Sequence[Event]) -> None:
        pass


UNKNOWN = "?"
"""A token known to be in a hat whose kind this seat never saw (a masked placement)."""


class HatMemory:
    """What one seat has seen of every hat: placements are public, their kinds not always.

    The count of tokens per hat is exact (every designation, placement and swap is seen);
    kinds are known when shown (Visible turn, reward drop, Doublon, reveal) or placed by
    this seat itself.
    """

    def __init__(self, seat: int, spots: int) -> None:
        self.seat = seat
        self.hats: list[list[str]] = [[] for _ in range(spots)]
        self._pending: str = UNKNOWN
        self._own_holding: str | None = None

    def remember_own_token(self, token: str) -> None:
        self._own_holding = token

    def observe(self, events: Sequence[Event]) -> None:
        for e in events:
            if isinstance(e, MancheStarted):
                self.hats = [[] for _ in self.hats]
            elif isinstance(e, Designated):
                own = self._own_holding if e.seat == self.seat else None
                self._pending = e.shown or own or UNKNOWN
            elif isinstance(e, Placed):
                self.hats[e.spot - 1].append(self._pending)
            elif isinstance(e, Verdict) and e.challenge is Challenge.DOUBLON:
                self.hats[e.spot - 1] = []  # emptied on success, empty on failure
            elif isinstance(e, Rewarded) and e.choice == "drop":
                assert e.spot is not None and e.token is not None
                self.hats[e.spot - 1].append(e.token)
            elif isinstance(e, Swapped):
                a, b = e.spots[0] - 1, e.spots[1] - 1
                self.hats[a], self.hats[b] = self.hats[b], self.hats[a]
            elif isinstance(e, Revealed):
                for spot, hat in zip(e.spots, e.hats, strict=True):
                    self.hats[spot - 1] = list(hat)

    def occupied(self, spot: int) -> bool:
        return bool(self.hats[spot - 1])

    def known_win(self, line: Sequence[int]) -> bool:
        """True when the hats' known kinds alone already give a winning pick."""
        known = [tuple(k for k in self.hats[s - 1] if k != UNKNOWN) for s in line]
        return best_pick(known) is not None

    def filled(self, line: Sequence[int]) -> int:
        return sum(1 for s in line if self.hats[s - 1])

    def swapped_copy(self, a: int, b: int) -> HatMemory:
        twin = HatMemory(self.seat, len(self.hats))
        twin.hats = [list(h) for h in self.hats]
        twin.hats[a - 1], twin.hats[b - 1] = twin.hats[b - 1], twin.hats[a - 1]
        return twin


class HeuristicBot:
    """A sensible player: remembers the hats, places in empty ones, calls Doublon on a hat
    it knows is occupied, bluffs now and then, calls Menteur with some judgement, and
    reveals a line it knows wins (after a swap if that makes one)."""

    def __init__(
        self,
        rng: random.Random,
        seat: int,
        layout: Layout,
        bluff: float = 0.3,
        suspicion: float = 0.2,
        stacking: float = 0.15,
        lapse: float = 0.1,
    ) -> None:
        self.rng = rng
        self.layout = layout
        self.memory = HatMemory(seat, layout.spots)
        self.bluff = bluff
        """How often a Masqué announce is a lie."""
        self.suspicion = suspicion
        """How often Menteur is called without proof."""
        self.stacking = stacking
        """How often a token goes into an occupied hat (richer picks, but Doublon bait)."""
        self.lapse = lapse
        """How often an occupied hat is forgotten when deciding on Doublon."""

    def observe(self, events: Sequence[Event]) -> None:
        self.memory.observe(events)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        first = legal[0]
        if isinstance(first, Designate):
            return self._designate(legal)
        if isinstance(first, Announce):
            return self._announce(view, legal)
        if isinstance(first, Pass | Call):
            return self._window(view, legal)
        if isinstance(first, RewardToken | RewardDrop):
            return self._reward(view, legal)
        if isinstance(first, Reveal | Swap):
            return self._reveal(legal)
        return self.rng.choice(legal)

    def _designate(self, legal: Sequence[Action]) -> Action:
        empty = [a for a in legal if isinstance(a, Designate) and not self.memory.occupied(a.spot)]
        stack = self.rng.random() < self.stacking
        choice = self.rng.choice(list(legal) if stack or not empty else empty)
        assert isinstance(choice, Designate)
        self.memory.remember_own_token(choice.token)
        return choice

    def _announce(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        truth = [a for a in legal if isinstance(a, Announce) and a.token == view.holding]
        lies = [a for a in legal if a not in truth]
        if truth and (not lies or self.rng.random() >= self.bluff):
            return truth[0]
        return self.rng.choice(lies)

    def _window(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        calls = {a.challenge: a for a in legal if isinstance(a, Call)}
        spot = view.public.spot
        doublon = calls.get(Challenge.DOUBLON)
        remembered = spot is not None and self.memory.occupied(spot)
        if doublon and remembered and self.rng.random() >= self.lapse:
            return doublon
        menteur = calls.get(Challenge.MENTEUR)
        if menteur and self._doubts(view):
            return menteur
        passes = [a for a in legal if isinstance(a, Pass)]
        return passes[0] if passes else self.rng.choice(list(legal))

    def _doubts(self, view: PlayerView) -> bool:
        """Menteur when every copy of the announced token is accounted for elsewhere."""
        announced = view.public.announced
        seen = list(view.hand) + [k for hat in self.memory.hats for k in hat]
        if announced is not None and seen.count(announced) >= view.public.players:
            return True
        return self.rng.random() < self.suspicion

    def _reward(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        token = [a for a in legal if isinstance(a, RewardToken)]
        drops = [a for a in legal if isinstance(a, RewardDrop)]
        if token and (not drops or view.public.challenge_tokens[view.seat] == 0):
            return token[0]
        empty = [a for a in drops if not self.memory.occupied(a.spot)]
        return self.rng.choice(empty or drops)

    def _reveal(self, legal: Sequence[Action]) -> Action:
        reveals = [a for a in legal if isinstance(a, Reveal)]
        for r in reveals:
            if self.memory.known_win(r.spots):
                return r
        for s in (a for a in legal if isinstance(a, Swap)):
            twin = self.memory.swapped_copy(s.a, s.b)
            if any(twin.known_win(line) for line in self.layout.lines):
                return s
        best = max(self.memory.filled(r.spots) for r in reveals)
        return self.rng.choice([r for r in reveals if self.memory.filled(r.spots) == best])


BOTS = ("heuristic", "random")


def make_bot(kind: str, rng: random.Random, seat: int, layout: Layout) -> Bot:
    if kind == "random":
        return RandomBot(rng)
    if kind == "heuristic":
        return HeuristicBot(rng, seat, layout)
    raise ValueError(f"unknown bot {kind!r}; choose from {', '.join(BOTS)}")
