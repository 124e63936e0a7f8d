"""Flip Done in the lab: games per second on one core, the table's path against the lab's.

The table's path is `play_reference` (the engine's `apply`, the bots at table seats, the
events read by `record_of` as a journal's are); the lab's is `LAB.play` (the engine's
board played in place, counted as it goes). Both play the same seeded games (heuristic
bots at every seat unless --bots says otherwise) in one process; speeds are CPU seconds
of this process, so other work on the machine matters less (wall clock is shown too).

    .venv/bin/python bench/lab_flipdone.py --games 2000 [--reference-games 100]
    .venv/bin/python bench/lab_flipdone.py --profile          # cProfile of the lab's loop
    .venv/bin/python bench/lab_flipdone.py --pool 10000       # the lab runner on 2 cores
    .venv/bin/python bench/lab_flipdone.py --diff 5000        # both paths, every core

`--diff N` plays N games of each variant below on both paths on every core and counts the
games whose records differ (the counting of the board and of a journal's reader: one set
of rules plays both).
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from companion.games.flipdone.lab import LAB, play_reference
from companion.lab.model import GameRecord, Variant

H, R = "heuristic", "random"
DIFF_VARIANTS: list[tuple[tuple[str, ...], dict[str, Any]]] = [
    ((H, H, H), {}),
    ((R, R, R), {}),
    ((H, R, R), {"manches": 2, "phases": 2}),
    ((H, H, H), {"manches": 1, "phases": 1}),
    ((H, R, H), {"first_element": "chosen", "manche_tie": "extra_only", "tie_phase_limit": 1}),
    ((R, H, H), {"manches": 1, "phases": 2, "tie_phase_limit": 0}),
]


def timed(
    play: Callable[[Variant, int], GameRecord], variant: Variant, games: int
) -> tuple[float, float, int]:
    """CPU and wall seconds to play `games` games, and the actions they took."""
    cpu, wall = time.process_time(), time.perf_counter()
    actions = sum(play(variant, index).actions for index in range(games))
    return time.process_time() - cpu, time.perf_counter() - wall, actions


def report(name: str, games: int, cpu: float, wall: float, actions: int) -> None:
    print(
        f"{name:<10} {games:6d} games  {games / cpu:8.1f} games/s  {actions / cpu:10,.0f} "
        f"actions/s  (wall clock {games / wall:7.1f} games/s)  {actions / games:.1f} actions/game"
    )


def differ(job: tuple[int, int, int]) -> int:
    """Games of variant `job[0]`, indexes job[1]..job[2]-1, whose records differ."""
    number, start, stop = job
    bots, rules = DIFF_VARIANTS[number]
    variant = Variant(f"diff {number}", "flipdone", 3, bots, stop, 100 + number, rules)
    return sum(LAB.play(variant, i) != play_reference(variant, i) for i in range(start, stop))


def differential(games: int, workers: int | None) -> None:
    step = 250
    jobs = [
        (number, start, min(start + step, games))
        for number in range(len(DIFF_VARIANTS))
        for start in range(0, games, step)
    ]
    wall = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        bad = sum(pool.map(differ, jobs))
    total = games * len(DIFF_VARIANTS)
    print(
        f"differential: {total:,} games ({games:,} of each of {len(DIFF_VARIANTS)} variants), "
        f"{bad} differ; {time.perf_counter() - wall:.0f} s"
    )


def pooled(variant: Variant, workers: int) -> None:
    """The lab's own runner and figures, as `companion lab` runs them."""
    from companion.lab.runner import run
    from companion.lab.summary import summarize

    wall = time.perf_counter()
    records = run([variant], workers=workers)[0]
    figures = summarize(LAB, variant, records)
    seconds = time.perf_counter() - wall
    print(
        f"lab runner: {variant.games:,} games on {workers} workers with the figures in "
        f"{seconds:.1f} s ({variant.games / seconds:,.0f} games/s); "
        f"{figures.finished:,} finished"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="games of the lab's path")
    parser.add_argument("--reference-games", type=int, default=100)
    parser.add_argument("--bots", default="heuristic", help="one kind, or three, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="cProfile the lab's path")
    parser.add_argument("--pool", type=int, default=0, help="games through the lab runner")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--diff", type=int, default=0, help="games per variant on both paths")
    args = parser.parse_args()
    kinds = args.bots.split(",")
    bots = tuple(kinds * 3 if len(kinds) == 1 else kinds)
    variant = Variant("bench", "flipdone", 3, bots, args.games, args.seed)
    print(f"python {platform.python_version()} on {platform.machine()}; bots {', '.join(bots)}")
    if args.diff:
        differential(args.diff, args.workers)
        return
    if args.pool:
        pooled(Variant("bench", "flipdone", 3, bots, args.pool, args.seed), args.workers)
        return
    if args.profile:
        profile = cProfile.Profile(time.process_time)
        profile.runcall(timed, LAB.play, variant, args.games)
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
        return
    if args.reference_games:
        reference = timed(play_reference, variant, args.reference_games)
        report("table", args.reference_games, *reference)
    report("lab", args.games, *timed(LAB.play, variant, args.games))


if __name__ == "__main__":
    main()
