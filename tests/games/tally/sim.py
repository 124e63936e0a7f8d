"""Tally's simulated table: made-up tags, and a whole game of pebbles dropped in turn (a
"passer" seat passes its first turn with its button, TALLY-2)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.journal import Input, PressInput, Setup, SpotInput, TickInput

from .referee import PASS_TURN, TallyReferee
from .rules.engine import NAME, PEBBLES, Config, Drop, Pass, apply, legal_actions, new_game

PEBBLE = "pebble"
"""The tokens' own name: each is tagged "<NAME>:pebble"."""


def tokens(seats: int, rules: Mapping[str, Any] | None = None) -> Sequence[tuple[int | None, str]]:
    """Each seat's pebbles, in seat order."""
    return [(seat, f"{NAME}:{PEBBLE}") for seat in range(seats) for _ in range(PEBBLES)]


def simulated_setup(seats: int, seed: int, **options: Any) -> Setup:
    rng = random.Random(seed)
    tags = {f"{rng.getrandbits(32):08X}": kind for _, kind in tokens(seats)}
    keep = {k: v for k, v in options.items() if k in ("settle", "language")}
    return Setup(NAME, ("Ana", "Bob", "Cy", "Dee")[:seats], tags, seed % seats, seed, **keep)


@dataclass
class TallyResult:
    setup: Setup
    inputs: list[Input] = field(default_factory=list)
    referee: TallyReferee | None = None


def simulate(setup: Setup, on_input: Callable[[Input, Any], None] | None = None,
             bots: Sequence[str] | None = None, **options: Any) -> TallyResult:  # fmt: skip
    """One act a second until the first seat drops its last pebble (it wins): the seat to
    play drops a pebble into the hat, or presses its pass button if its bot is "passer"
    and it has not passed yet."""
    referee = TallyReferee(setup)
    result = TallyResult(setup, [], referee)
    kinds = list(bots or ()) + ["any"] * len(setup.seats)
    uids = iter(sorted(setup.tags))
    hat: set[str] = set()
    state = new_game(Config(len(setup.seats), setup.first), setup.seed)[0]
    t = 0.0
    while actions := legal_actions(state):
        seat = state.turn
        action = Pass(seat) if kinds[seat] == "passer" and Pass(seat) in actions else Drop(seat)
        state = apply(state, action)[0]
        t += 1.0
        if isinstance(action, Pass):
            record: Input = PressInput(t, PASS_TURN, seat)
        else:
            hat.add(next(uids))
            record = SpotInput(t, 1, frozenset(hat))
        result.inputs.append(record)
    result.inputs.append(TickInput(t + setup.settle + 0.1))  # the clock after the last act
    for record in result.inputs:
        referee.feed(record)
        if on_input:
            on_input(record, referee)
    return result
