"""Vous ne passerez pas ! in the lab: whole lab games per second on one core, today's path
(`play_reference`: the readable engine, the readable bots, the record read from the
events) against the fast path (`LAB.play`), engine, bots and counting included.

Run: `.venv/bin/python bench/lab_vnp.py [--games N] [--reference-games N] [--bots largest]
[--players 4] [--rules '{"crossing": "strict"}'] [--check]`. `--check` also asserts that
both paths give equal records (a differential run over the reference games).
"""

from __future__ import annotations

import argparse
import json
import platform
import time

from companion.games.vnp.lab import LAB, fast_game, play_reference
from companion.lab.model import Variant


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="fast-path games")
    parser.add_argument("--reference-games", type=int, default=200, help="today's games")
    parser.add_argument("--bots", default="largest", help="one kind, or one per seat: a,b,..")
    parser.add_argument("--players", type=int, default=4, choices=[2, 4])
    parser.add_argument("--rules", default="{}", help="the variant's rules, as JSON")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="assert equal records")
    args = parser.parse_args()
    kinds = args.bots.split(",")
    bots = tuple(kinds * args.players if len(kinds) == 1 else kinds)
    variant = Variant("bench", "vnp", args.players, bots, args.games, args.seed,
                      json.loads(args.rules))  # fmt: skip
    LAB.check(variant)
    print(f"python {platform.python_version()} on {platform.machine()}")
    print(
        f"vnp, {args.players} players, bots {', '.join(bots)}, rules {variant.rules or 'as ruled'}"
    )

    start = time.perf_counter()
    LAB.play(variant, 0)  # the board's tables, built once per process
    print(f"first fast game (builds the bitsets): {time.perf_counter() - start:.3f} s")

    start = time.perf_counter()
    reference = [play_reference(variant, i) for i in range(args.reference_games)]
    today = time.perf_counter() - start
    steps = sum(r.actions for r in reference)
    print(
        f"today (play_reference) {args.reference_games / today:8.1f} games/s  "
        f"{steps / today:9.0f} actions/s"
    )

    start = time.perf_counter()
    records = [LAB.play(variant, i) for i in range(args.games)]
    seconds = time.perf_counter() - start
    steps = sum(r.actions for r in records)
    print(
        f"fast (LAB.play)        {args.games / seconds:8.1f} games/s  "
        f"{steps / seconds:9.0f} actions/s  ({steps / args.games:.1f} actions/game)"
    )

    start = time.perf_counter()
    for i in range(args.games):
        fast_game(variant, i)
    engine = time.perf_counter() - start
    print(
        f"  of which engine+bots {args.games / engine:8.1f} games/s  "
        f"{steps / engine:9.0f} actions/s (without the record)"
    )
    print(f"speed-up: {(args.games / seconds) / (args.reference_games / today):.1f}x")
    if args.check:
        for i, (expected, record) in enumerate(zip(reference, records, strict=False)):
            assert record == expected, f"game {i} differs"
        print(f"checked: {min(len(reference), len(records))} games give equal records")


if __name__ == "__main__":
    main()
