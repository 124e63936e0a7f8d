"""Vous ne passerez pas ! engine speed: legal-move generation and whole random games.

Plays seeded uniformly random 4-colour games, times `legal_actions` alone on every
position reached, then whole games (legal_actions + apply, bot included).
Run: `.venv/bin/python bench/vnp_moves.py [--games N] [--crossing nexos|strict]`.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from companion.bots.vnp import random_action
from companion.rules.vnp import State, apply, geometry, legal_actions, make_config, new_game


def positions(games: int, crossing: str, seed: int) -> tuple[float, list[State]]:
    """Seconds taken by `games` random games, and every position they went through."""
    seen: list[State] = []
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        state = new_game(make_config(crossing=crossing))
        while not state.over:
            seen.append(state)
            state, _ = apply(state, random_action(state, rng))
    return time.perf_counter() - start, seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--crossing", default="nexos", choices=["nexos", "strict"])
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    start = time.perf_counter()
    placements = len(geometry(13).placements)
    print(f"precompute {placements} placements: {time.perf_counter() - start:.3f} s")
    seconds, seen = positions(args.games, args.crossing, seed=1)
    print(
        f"random games   {args.games / seconds:8.1f} games/s  "
        f"{len(seen) / seconds:9.0f} actions/s  {len(seen) / args.games:.1f} actions/game"
    )
    moves = 0
    start = time.perf_counter()
    for state in seen:
        moves += len(legal_actions(state))
    seconds = time.perf_counter() - start
    print(
        f"legal_actions  {len(seen) / seconds:8.0f} calls/s  {moves / seconds:9.0f} moves/s  "
        f"{moves / len(seen):.1f} moves/position"
    )


if __name__ == "__main__":
    main()
