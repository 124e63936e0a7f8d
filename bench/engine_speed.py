"""Engine speed: whole 4-player PtiPassPass games per second on one core.

Two players are measured: uniformly random legal actions (the issue's "random games"; they
are long, since random seats challenge two times in three and reveal blind lines) and the
heuristic bots of `companion selfplay`. Run: `.venv/bin/python bench/engine_speed.py`.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from companion.rules.passpass import Phase, apply, legal_actions, make_config, new_game
from companion.selfplay import run


def random_games(games: int, players: int, seed: int) -> tuple[float, int]:
    """Seconds taken and actions played by `games` uniformly random games."""
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        state = new_game(make_config("ptipasspass", players, first=i % players))
        while state.phase is not Phase.OVER:
            state, _ = apply(state, rng.choice(legal_actions(state)))
            actions += 1
    return time.perf_counter() - start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.processor()}")
    seconds, actions = random_games(args.games, args.players, seed=1)
    print(
        f"random    {args.games / seconds:8.1f} games/s  {actions / seconds:9.0f} actions/s  "
        f"{actions / args.games:6.0f} actions/game"
    )
    start = time.perf_counter()
    summary = run(
        lambda i: make_config("ptipasspass", args.players, first=i % args.players),
        ["heuristic"] * args.players,
        args.games,
        seed=1,
    )
    seconds = time.perf_counter() - start
    print(
        f"heuristic {args.games / seconds:8.1f} games/s  {summary.actions / seconds:9.0f} "
        f"actions/s  {summary.actions / args.games:6.0f} actions/game"
    )


if __name__ == "__main__":
    main()
