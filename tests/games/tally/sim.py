"""Tally's simulated table: made-up tags, and a whole game of pebbles dropped in turn."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.journal import Input, Setup, SpotInput, TickInput

from .referee import TallyReferee
from .rules.engine import NAME, PEBBLES


def tokens(seats: int, rules: Mapping[str, Any] | None = None) -> Sequence[tuple[int | None, str]]:
    """Each seat's pebbles, in seat order."""
    return [(seat, f"{NAME}:pebble") for seat in range(seats) for _ in range(PEBBLES)]


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
             bots: Any = None, **options: Any) -> TallyResult:  # fmt: skip
    """Pebbles dropped one a second until the first seat drops its last (it wins)."""
    referee = TallyReferee(setup)
    result = TallyResult(setup, [], referee)
    hat: set[str] = set()
    t = 0.0
    needed = PEBBLES * len(setup.seats) - (len(setup.seats) - 1)  # the first seat's last
    for uid in sorted(setup.tags)[:needed]:
        t += 1.0
        hat.add(uid)
        record = SpotInput(t, 1, frozenset(hat))
        result.inputs.append(record)
        referee.feed(record)
        if on_input:
            on_input(record, referee)
    last = TickInput(t + setup.settle + 0.1)  # the table's clock after the last drop
    result.inputs.append(last)
    referee.feed(last)
    if on_input:
        on_input(last, referee)
    return result
