"""The paired search of companion/lab/mcts.py on a toy game of one decision: a seat picks
a number, a hidden luck is drawn, and the seat's value is that luck plus what its number
adds. The moves are compared in the same drawn worlds, so a small edge shows through a
large luck; the heuristic's choice stands unless another move beats it clearly."""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.lab.mcts import Thinking, think

Toy = tuple[float, int | None]
"""(the world's luck, the number picked)."""


def _toy(edge: Callable[[int, random.Random], float]) -> Thinking[None, Toy, int]:
    """Luck uniform in [0, 0.9]; picking `a` adds `edge(a, playout's rng)` (kept in [0, 1])."""

    def playout(state: Toy, rng: random.Random) -> tuple[float, ...]:
        luck, picked = state
        assert picked is not None
        return (min(1.0, max(0.0, luck + edge(picked, rng))),)

    return Thinking(
        sample=lambda _, rng: (rng.uniform(0.0, 0.9), None),
        legal=lambda state: () if state[1] is not None else (0, 1, 2),
        step=lambda state, a: (state[0], a),
        mover=lambda state, a: 0,
        playout=playout,
        paired=True,
    )


def test_common_worlds_tell_a_small_edge_from_a_large_luck() -> None:
    """Number 2 adds 0.02 to a luck spread over 0.9: in 5 worlds, each compared in the same
    world, the search sees it every time and leaves the heuristic's 0."""
    thinking = _toy(lambda a, rng: 0.01 * a)
    for seed in range(10):
        assert think(thinking, None, 0, (0, 1, 2), 5, random.Random(seed), prior=0) == 2


def test_the_heuristics_choice_stands_when_no_move_is_clearly_better() -> None:
    """Every number is worth the same but for a coin of the playout: what a few worlds
    show is noise, and the heuristic's choice stands."""
    thinking = _toy(lambda a, rng: rng.choice((0.0, 0.1)))
    kept = sum(
        think(thinking, None, 0, (0, 1, 2), 8, random.Random(s), prior=1) == 1 for s in range(40)
    )
    assert kept >= 36
    assert (
        think(_toy(lambda a, rng: 0.01 * a), None, 0, (0, 1, 2), 1, random.Random(0), prior=0) == 0
    )


def test_without_a_heuristic_the_best_mean_is_chosen() -> None:
    thinking = _toy(lambda a, rng: 0.05 * (a == 1))
    assert think(thinking, None, 0, (0, 1, 2), 3, random.Random(3)) == 1
