"""Flip Done bots for self-play, the simulated table and tests, and the self-play report.

- `random`: a uniformly random legal action.
- `heuristic`: the play with the best expected token balance for itself against the
  others, from public facts and its own hand only: a build's outcome is known; a flip's
  depends on the face-down card, so it is weighed over the colours of the cards it has not
  seen (FD-1: only the colour matters). Builds come before flips and flips before
  discards when they are worth the same.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from companion.rules.flipdone.actions import Action, Build, Discard, Flip
from companion.rules.flipdone.config import DECK, LINES, Config, is_red, make_config
from companion.rules.flipdone.engine import apply, legal_actions, new_game
from companion.rules.flipdone.events import (
    Event,
    GameOver,
    LineBroken,
    LineHeld,
    LineLost,
    LineMade,
    MancheWon,
    PhaseEnded,
    PhaseStarted,
    Tied,
)
from companion.rules.flipdone.state import State

Bot = Callable[[State], Action]
"""A bot: the seat to act is `state.turn`; it reads only public facts and that seat's hand."""

BOT_KINDS = ("heuristic", "random")


def random_action(state: State, rng: random.Random) -> Action:
    """One legal action chosen by `rng`; raises ValueError once the game is over."""
    legal = legal_actions(state)
    if not legal:
        raise ValueError("the game is over: no action is legal")
    return rng.choice(legal)


def _balance(before: State, after: State, seat: int) -> float:
    """What `seat` gained against the mean of the others."""
    gains = [a - b for a, b in zip(after.tokens, before.tokens, strict=True)]
    others = [g for s, g in enumerate(gains) if s != seat]
    return gains[seat] - sum(others) / len(others)


def _unknown(state: State, seat: int) -> list[str]:
    """The cards `seat` has not seen this phase (the others' hands and discards, the deck,
    the face-down cards): all but the face-up cards, the cards flipped face down (they were
    face up) and its own hand and plays."""
    visible = {c for c in state.faces if c is not None}
    visible |= {c for sq, c in enumerate(state.under) if state.flipped[sq] and c is not None}
    visible |= set(state.hands[seat]) | set(state.played[seat])
    return [c for c in DECK if c not in visible]


def _flip_value(state: State, action: Flip) -> float:
    """A flip's expected balance over the colour of the face-down card, weighed by the
    red and black cards the seat has not seen."""
    seat = action.seat
    hidden = [c for c in _unknown(state, seat) if c != action.card]
    reds = sum(is_red(c) for c in hidden)
    blacks = len(hidden) - reds
    if not hidden:
        return 0.0
    total = 0.0
    for red, weight in ((True, reds), (False, blacks)):
        if not weight:
            continue
        stand_in = next(c for c in hidden if is_red(c) is red)
        under = list(state.under)
        under[action.square - 1] = stand_in
        guess = dataclasses.replace(state, under=tuple(under))
        after, _ = apply(guess, action)
        total += weight * _balance(state, after, seat)
    return total / len(hidden)


def heuristic_action(state: State, rng: random.Random) -> Action:
    legal = legal_actions(state)
    if not legal:
        raise ValueError("the game is over: no action is legal")
    seat = state.turn
    best: list[tuple[float, int, Action]] = []
    tried: dict[tuple[str, bool, int], float] = {}
    for action in legal:
        if isinstance(action, Build):
            key = ("build", is_red(action.card), action.square)
            rank = 2
        elif isinstance(action, Flip):
            key = ("flip", False, action.square)
            rank = 1
        elif isinstance(action, Discard):
            key = ("discard", False, 0)
            rank = 0
        else:  # PlaceFirst: anywhere is as good before anything is built
            best.append((0.0, 0, action))
            continue
        if key not in tried:
            if isinstance(action, Flip):
                tried[key] = _flip_value(state, action)
            else:
                after, _ = apply(state, action)
                tried[key] = _balance(state, after, seat)
        best.append((tried[key], rank, action))
    top = max((value, rank) for value, rank, _ in best)
    choices = [a for v, r, a in best if (v, r) == top]
    return rng.choice(choices)


def make_bot(kind: str, rng: random.Random) -> Bot:
    if kind == "random":
        return lambda state: random_action(state, rng)
    if kind == "heuristic":
        return lambda state: heuristic_action(state, rng)
    raise ValueError(f"unknown Flip Done bot {kind!r}; bots are {', '.join(BOT_KINDS)}")


# ---------------------------------------------------------------------------- self-play

KINDS = ("columns", "rows", "diagonals")


def _kind(line: int) -> str:
    spec = LINES[line]
    return "diagonals" if spec.diagonal else ("rows" if spec.value == 2 else "columns")


@dataclass
class Totals:
    """What the games of a self-play run add up to."""

    games: int = 0
    wins: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])
    phases: int = 0
    tie_phases: int = 0
    made: Counter[str] = field(default_factory=Counter)
    made_points: Counter[str] = field(default_factory=Counter)
    broken: Counter[str] = field(default_factory=Counter)
    broken_points: Counter[str] = field(default_factory=Counter)
    held_points: Counter[str] = field(default_factory=Counter)
    lost: Counter[str] = field(default_factory=Counter)
    penalties: int = 0
    cards_left: int = 0
    manche_bonus: int = 0
    actions: int = 0

    def add(self, events: Sequence[Event]) -> None:
        for e in events:
            if isinstance(e, PhaseStarted):
                self.phases += 1
            elif isinstance(e, Tied):
                self.tie_phases += 1
            elif isinstance(e, LineMade):
                self.made[_kind(e.line)] += 1
                self.made_points[_kind(e.line)] += e.value
            elif isinstance(e, LineBroken):
                self.broken[_kind(e.line)] += 1
                self.broken_points[_kind(e.line)] += e.value
            elif isinstance(e, LineHeld):
                self.held_points[_kind(e.line)] += e.bonus
            elif isinstance(e, LineLost):
                self.lost[_kind(e.line)] += 1
            elif isinstance(e, PhaseEnded):
                self.penalties += sum(e.paid)
                self.cards_left += sum(e.cards_left)
            elif isinstance(e, MancheWon):
                self.manche_bonus += e.bonus
            elif isinstance(e, GameOver):
                self.games += 1
                for seat in e.winners:
                    self.wins[seat] += 1 / len(e.winners)


def play_game(config: Config, seed: int, bots: Sequence[Bot], totals: Totals) -> State:
    """One whole game; its events go into `totals`. The first phase's start is counted
    too (the engine deals it before anyone acts)."""
    state = new_game(config, seed)
    totals.phases += 1
    while legal_actions(state):
        state, events = apply(state, bots[state.turn](state))
        totals.actions += 1
        totals.add(events)
    return state


def selfplay_report(
    kinds: Sequence[str],
    games: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
    tie_phase_limit: int | None = 20,
) -> str:
    """Win rate by seat, points per line kind, FD-9 penalties and tie phases. Game i is
    seeded from (seed, i) and starts with seat i mod 3 (FD-2 does not say who starts)."""
    totals = Totals()
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        bots = [make_bot(kinds[s % len(kinds)], random.Random(rng.random())) for s in range(3)]
        config = make_config(first=i % 3, tie_phase_limit=tie_phase_limit)
        play_game(config, rng.randrange(2**31), bots, totals)
        if progress:
            progress(i + 1, games)
    n = max(totals.games, 1)
    seats = [kinds[s % len(kinds)] for s in range(3)]
    lines = [f"flipdone, 3 players, {games} games, seed {seed}, first player rotating"]
    lines.append("win rate by seat (a shared win counts a part):")
    for seat, kind in enumerate(seats):
        lines.append(f"  seat {seat + 1} ({kind}): {100 * totals.wins[seat] / n:5.1f}%")
    lines.append(
        f"mean phases per game: {totals.phases / n:.1f} "
        f"(tie-break phases: {totals.tie_phases / n:.2f}); mean plays: {totals.actions / n:.1f}"
    )
    lines.append("per game, by line kind:   made (points)   broken (points)   held   lost")
    for kind in KINDS:
        lines.append(
            f"  {kind:<10} {totals.made[kind] / n:10.2f} ({totals.made_points[kind] / n:5.2f})"
            f" {totals.broken[kind] / n:10.2f} ({totals.broken_points[kind] / n:5.2f})"
            f" {totals.held_points[kind] / n:9.2f} {totals.lost[kind] / n:6.2f}"
        )
    lines.append(
        f"FD-9 penalties: {totals.penalties} tokens paid, {totals.cards_left} cards left in "
        f"hand at a phase's end, in {totals.games} games"
    )
    lines.append(f"manche bonus (FD-10): {totals.manche_bonus / n:.2f} tokens per game")
    return "\n".join(lines)
