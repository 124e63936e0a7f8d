"""Engine speed: whole 4-player PtiPassPass games per second on one core.

Two players are measured: uniformly random legal actions (the issue's "random games"; they
are long, since random seats challenge two times in three and reveal blind lines) and the
heuristic bots of `companion selfplay`. Each runs on the readable engine, then on the lab's
fast core (companion/games/passpass/fast/), which plays the very same games: a step is one
`rng.choice` of a legal action and its `apply`. Run: `.venv/bin/python bench/engine_speed.py`
(`--fast-games` sets how many games the fast core plays, default 10 times `--games`).
Its README section (`readme`, bench/readme.py) runs each measure three times.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from verdict import judge

from companion.games.passpass.fast.core import FastGame
from companion.games.passpass.fast.play import play_bots, random_playout
from companion.games.passpass.lab import play_reference
from companion.games.passpass.rules import apply, is_over, legal_actions, make_config, new_game
from companion.lab.model import Variant


def random_games(games: int, players: int, seed: int) -> tuple[float, int]:
    """Seconds taken and actions played by `games` uniformly random games."""
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        state, _ = new_game(make_config("ptipasspass", players, first=i % players), 0)
        while not is_over(state):
            state, _ = apply(state, rng.choice(legal_actions(state)))
            actions += 1
    return time.perf_counter() - start, actions


def fast_random_games(games: int, players: int, seed: int) -> tuple[float, int]:
    """As `random_games`, on the fast core: the same games, so the same actions."""
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        game = FastGame(make_config("ptipasspass", players, first=i % players))
        actions += random_playout(game, rng)
    return time.perf_counter() - start, actions


def fast_heuristic_games(games: int, players: int, seed: int) -> tuple[float, int]:
    """As `run` with heuristic bots, on the fast core with the fast bots."""
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        config = make_config("ptipasspass", players, first=i % players)
        actions += play_bots(config, ("heuristic",) * players, seed, i)[1]
    return time.perf_counter() - start, actions


def report(name: str, games: int, seconds: float, actions: int) -> None:
    print(
        f"{name:14} {games / seconds:8.1f} games/s  {actions / seconds:9.0f} actions/s  "
        f"{actions / games:6.0f} actions/game"
    )


TARGET = 1_000_000
"""Random-playout steps per second of the fast core on one core (issue 17's target)."""
RUNS = 3


def heuristic_games(games: int, players: int) -> tuple[float, int]:
    """As `random_games`, with the heuristic bots on the readable engine."""
    start = time.perf_counter()
    variant = Variant("today", "ptipasspass", players, ("heuristic",) * players, games, 1)
    actions = sum(play_reference(variant, i).actions for i in range(games))
    return time.perf_counter() - start, actions


def readme(quick: bool) -> str:
    """bench/README.md's section: each path `RUNS` times (quick: a third of the games)."""
    games = 100 if quick else 300
    runs: dict[str, list[tuple[float, int]]] = {}
    paths: dict[str, tuple[int, Callable[[int, int], tuple[float, int]]]] = {
        "random": (games, lambda n, p: random_games(n, p, seed=1)),
        "random, fast": (10 * games, lambda n, p: fast_random_games(n, p, seed=1)),
        "heuristic": (games, heuristic_games),
        "heuristic, fast": (10 * games, lambda n, p: fast_heuristic_games(n, p, seed=1)),
    }
    for _ in range(RUNS):
        for name, (count, path) in paths.items():
            runs.setdefault(name, []).append(path(count, 4))

    def rate(name: str, per: str) -> float:
        count = paths[name][0]
        return statistics.median(
            (count if per == "games" else actions) / seconds for seconds, actions in runs[name]
        )

    rows = []
    for label, key in (("uniformly random", "random"), ("heuristic bots", "heuristic")):
        fast = f"{key}, fast"
        rows.append(
            f"| {label} | {rate(key, 'games'):,.0f} | {rate(key, 'actions'):,.0f} | "
            f"{rate(fast, 'games'):,.0f} | {rate(fast, 'actions'):,.0f} |"
        )
    steps = [actions / seconds for seconds, actions in runs["random, fast"]]
    verdict = judge(steps, TARGET, higher_is_better=True, unit="steps/s", digits=0)
    return f"""## engine_speed.py — the PassPass engine, whole games per second

`.venv/bin/python bench/engine_speed.py` plays four-player PtiPassPass games with
uniformly random legal actions and with the heuristic bots, on the readable engine and on
the lab's fast core (it checks that both play the same games). {games:,} games on the
readable engine, {10 * games:,} on the fast core, each {RUNS} times: the median.

| players | readable games/s | readable actions/s | fast games/s | fast actions/s |
|---|---|---|---|---|
{chr(10).join(rows)}

Target: the fast core at {TARGET:,} random-playout steps per second on one core:
{verdict}. The readable engine stays immutable and readable: it is the referee's, and the
reference the fast core is held to.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--fast-games", type=int, default=0)
    args = parser.parse_args()
    fast_games = args.fast_games or 10 * args.games
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.processor()}")
    seconds, actions = random_games(args.games, args.players, seed=1)
    report("random", args.games, seconds, actions)
    same = fast_random_games(args.games, args.players, seed=1)[1]
    assert same == actions, f"the fast core played other games: {same} actions, not {actions}"
    report("random, fast", fast_games, *fast_random_games(fast_games, args.players, seed=1))
    seconds, actions = heuristic_games(args.games, args.players)
    report("heuristic", args.games, seconds, actions)
    same = fast_heuristic_games(args.games, args.players, seed=1)[1]
    assert same == actions, f"the fast bots played other games: {same} actions"
    report("heuristic, fast", fast_games, *fast_heuristic_games(fast_games, args.players, seed=1))


if __name__ == "__main__":
    main()
