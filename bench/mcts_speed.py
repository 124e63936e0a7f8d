"""The thinking bot: decisions per second, and restricted play's figures (PtiPassPass).

`.venv/bin/python bench/mcts_speed.py [--iterations N] [--games G] [--workers W]`

1. Decisions per second of `mcts:N` in two-player PtiPassPass against the heuristic
   (decisions with one legal action are not thought about and not counted).
2. Its win rate against the heuristic, seats alternating, with its 95 % interval.
3. Restricted play (Jaffe et al. 2012): each restricted `mcts:N/<restriction>` against the
   unrestricted `mcts:N`, seats alternating: the restricted agent's win rate and what the
   element is worth (50 % minus it), with intervals; and the games' wall time.
"""

from __future__ import annotations

import argparse
import random
import time

from companion.games.passpass.lab import reference_events
from companion.games.passpass.mcts import RESTRICTIONS, MctsBot, seat_bot
from companion.lab.model import Variant
from companion.lab.runner import run
from companion.lab.stats import wilson
from companion.lab.variants import parse_variants


def decisions_per_second(iterations: int, games: int) -> float:
    thought = 0
    seconds = 0.0
    original = MctsBot.choose

    def timed(self: MctsBot, view, legal):  # type: ignore[no-untyped-def]
        nonlocal thought, seconds
        start = time.perf_counter()
        chosen = original(self, view, legal)
        seconds += time.perf_counter() - start
        thought += len(legal) > 1
        return chosen

    MctsBot.choose = timed  # type: ignore[method-assign]
    try:
        for i in range(games):
            variant = Variant("speed", "ptipasspass", 2, (f"mcts:{iterations}", "heuristic"), 1, 1)
            reference_events(variant, i, seat_bot)
    finally:
        MctsBot.choose = original  # type: ignore[method-assign]
    return thought / seconds


def duel(a: str, b: str, games: int, workers: int) -> tuple[float, float, float, float]:
    """`a`'s win rate against `b` in two-player PtiPassPass (seats alternating), its
    interval, and the seconds the games took."""
    base = {"game": "ptipasspass", "players": 2, "games": games // 2, "seed": 7}
    variants = parse_variants({**base, "variant": [
        {"name": "a first", "bots": [a, b]}, {"name": "b first", "bots": [b, a], "seed": 8},
    ]})  # fmt: skip
    start = time.perf_counter()
    results = run(variants, workers)
    seconds = time.perf_counter() - start
    wins = sum(0 in r.winners for r in results[0]) + sum(1 in r.winners for r in results[1])
    e = wilson(wins, 2 * (games // 2))
    return e.value, e.low, e.high, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    n = args.iterations
    random.seed(0)
    print(f"mcts:{n} decisions/s (one core): {decisions_per_second(n, 4):.0f}")
    v, lo, hi, s = duel(f"mcts:{n}", "heuristic", args.games, args.workers)
    print(f"mcts:{n} against heuristic: {v:.0%} [{lo:.0%}, {hi:.0%}] in {s:.0f} s")
    for name in RESTRICTIONS:
        v, lo, hi, s = duel(f"mcts:{n}/{name}", f"mcts:{n}", args.games, args.workers)
        print(
            f"{name:14} wins {v:.0%} [{lo:.0%}, {hi:.0%}]; worth {0.5 - v:+.0%} "
            f"[{0.5 - hi:+.0%}, {0.5 - lo:+.0%}]  ({args.games} games, {s:.0f} s)"
        )


if __name__ == "__main__":
    main()
