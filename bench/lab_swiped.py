"""Swiped in the lab: seeded bot games per second on one core, the table's path and the lab's.

The table's path is `companion.games.swiped.lab.play_reference` (the engine's `apply`, the
bots asked through a `Decider`, the record read from the events); the lab's is `LAB.play`
(the same bots on the engine's board played in place), what a lab worker runs. Both play
the same games (seeded from (seed, i)); with `--check` the records of every game are
compared too. The lab's figure includes filling its caches (the first manche's plans, the
rows of recent grids), as a worker's first games do.

    .venv/bin/python bench/lab_swiped.py --games 2000
    .venv/bin/python bench/lab_swiped.py --games 500 --bots deducing,random --rule manche_limit=5
    .venv/bin/python bench/lab_swiped.py --games 20000 --lab-only --profile
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import time
import tomllib
from collections.abc import Callable
from typing import Any

from companion.games.swiped.lab import LAB, play_reference
from companion.lab.model import GameRecord, Variant


def timed(
    play: Callable[[Variant, int], GameRecord], variant: Variant, games: int
) -> tuple[float, float, list[GameRecord]]:
    """Wall and CPU seconds taken by games 0..games-1, and their records. On a shared
    machine the CPU time is the fairer figure of one core."""
    start, cpu = time.perf_counter(), time.process_time()
    records = [play(variant, i) for i in range(games)]
    return time.perf_counter() - start, time.process_time() - cpu, records


def line(name: str, wall: float, cpu: float, records: list[GameRecord]) -> str:
    games = len(records)
    actions = sum(r.actions for r in records)
    return (
        f"{name:<6} {games / cpu:8.1f} games/s  {actions / cpu:9.0f} actions/s of CPU "
        f"({games / wall:.1f} games/s of wall time)  {actions / games:.1f} actions/game, "
        f"{games} games"
    )


def rule(text: str) -> tuple[str, Any]:
    key, _, value = text.partition("=")
    try:
        return key, tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        return key, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="deducing", help="one kind, or one per seat")
    parser.add_argument("--rule", type=rule, action="append", default=[], help="KEY=VALUE")
    parser.add_argument("--lab-only", action="store_true", help="skip the table's path")
    parser.add_argument("--check", action="store_true", help="compare every game's records")
    parser.add_argument("--profile", action="store_true", help="cProfile the lab's path")
    args = parser.parse_args()
    kinds = args.bots.split(",")
    bots = tuple(kinds * 2 if len(kinds) == 1 else kinds)
    variant = Variant("bench", "swiped", 2, bots, args.games, args.seed, dict(args.rule))
    LAB.check(variant)
    print(f"python {platform.python_version()} on {platform.machine()}; swiped {bots} "
          f"{dict(args.rule) or 'rules as ruled'}, seed {args.seed}")  # fmt: skip
    profile = cProfile.Profile() if args.profile else None
    if profile is not None:
        profile.enable()
    wall, cpu, lab = timed(LAB.play, variant, args.games)
    if profile is not None:
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(20)
    print(line("lab", wall, cpu, lab))
    if args.lab_only:
        return
    wall, cpu, reference = timed(play_reference, variant, args.games)
    print(line("table", wall, cpu, reference))
    if args.check:
        differ = [i for i, (a, b) in enumerate(zip(lab, reference, strict=True)) if a != b]
        print(f"records compared: {len(lab)} games, {len(differ)} differ {differ[:10]}")


if __name__ == "__main__":
    main()
