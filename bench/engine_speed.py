"""Engine speed: whole 4-player PtiPassPass games per second on one core.

Two players are measured: uniformly random legal actions (the issue's "random games"; they
are long, since random seats challenge two times in three and reveal blind lines) and the
heuristic bots of `companion selfplay`. Each runs through the engine's `apply` (a frozen
State and its events at every step, as a table plays), then on the engine's board played
in place (companion/games/passpass/rules/board.py, as the lab plays), the very same games:
a step is one `rng.choice` of a legal action and its `apply`. Run:
`.venv/bin/python bench/engine_speed.py` (`--board-games` sets how many games the board
plays, default 10 times `--games`). Its README section (`readme`, bench/readme.py) runs
each measure three times.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from verdict import judge

from companion.games.passpass.lab import play_reference, self_play
from companion.games.passpass.rules import apply, is_over, legal_actions, make_config, new_game
from companion.games.passpass.rules.board import OVER, Board
from companion.games.passpass.tally import Tally
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


def random_playout(board: Board, rng: random.Random) -> int:
    """Play `rng.choice(legal)` on the board until the game ends; the actions played. The
    same draws as the `apply(state, rng.choice(legal_actions(state)))` loop."""
    getrandbits = rng.getrandbits
    legal, play = board.legal, board.play
    steps = 0
    while board.phase is not OVER:
        codes = legal()
        n = len(codes)
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        play(codes[r])
        steps += 1
    return steps


def board_random_games(games: int, players: int, seed: int) -> tuple[float, int]:
    """As `random_games`, on the board in place: the same games, so the same actions."""
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        board = Board(make_config("ptipasspass", players, first=i % players))
        actions += random_playout(board, rng)
    return time.perf_counter() - start, actions


def board_heuristic_games(games: int, players: int, seed: int) -> tuple[float, int]:
    """As `heuristic_games`, on the board in place, as the lab plays them."""
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        config = make_config("ptipasspass", players, first=i % players)
        actions += self_play(config, ("heuristic",) * players, seed, i, Tally(players))[1]
    return time.perf_counter() - start, actions


def report(name: str, games: int, seconds: float, actions: int) -> None:
    print(
        f"{name:14} {games / seconds:8.1f} games/s  {actions / seconds:9.0f} actions/s  "
        f"{actions / games:6.0f} actions/game"
    )


TARGET = 1_000_000
"""Random-playout steps per second of the board on one core (issue 17's target)."""
RUNS = 3


def heuristic_games(games: int, players: int) -> tuple[float, int]:
    """As `random_games`, with the heuristic bots at table seats, through `apply`."""
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
        "random, board": (10 * games, lambda n, p: board_random_games(n, p, seed=1)),
        "heuristic": (games, heuristic_games),
        "heuristic, board": (10 * games, lambda n, p: board_heuristic_games(n, p, seed=1)),
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
        board = f"{key}, board"
        rows.append(
            f"| {label} | {rate(key, 'games'):,.0f} | {rate(key, 'actions'):,.0f} | "
            f"{rate(board, 'games'):,.0f} | {rate(board, 'actions'):,.0f} |"
        )
    steps = [actions / seconds for seconds, actions in runs["random, board"]]
    verdict = judge(steps, TARGET, higher_is_better=True, unit="steps/s", digits=0)
    return f"""## engine_speed.py — the PassPass engine, whole games per second

`.venv/bin/python bench/engine_speed.py` plays four-player PtiPassPass games with
uniformly random legal actions and with the heuristic bots, through the engine's `apply`
(a frozen State and its events each step, as a table plays) and on the engine's board
played in place (as the lab plays; it checks that both play the same games). {games:,}
games through `apply`, {10 * games:,} on the board, each {RUNS} times: the median.

| players | apply games/s | apply actions/s | board games/s | board actions/s |
|---|---|---|---|---|
{chr(10).join(rows)}

Target: the board at {TARGET:,} random-playout steps per second on one core: {verdict}.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--board-games", type=int, default=0)
    args = parser.parse_args()
    board_games = args.board_games or 10 * args.games
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.processor()}")
    seconds, actions = random_games(args.games, args.players, seed=1)
    report("random", args.games, seconds, actions)
    same = board_random_games(args.games, args.players, seed=1)[1]
    assert same == actions, f"the board played other games: {same} actions, not {actions}"
    report("random, board", board_games, *board_random_games(board_games, args.players, seed=1))
    seconds, actions = heuristic_games(args.games, args.players)
    report("heuristic", args.games, seconds, actions)
    same = board_heuristic_games(args.games, args.players, seed=1)[1]
    assert same == actions, f"the board's bots played other games: {same} actions"
    played = board_heuristic_games(board_games, args.players, seed=1)
    report("heuristic, board", board_games, *played)


if __name__ == "__main__":
    main()
