"""The lab's PassPass games per second on one core: today's path against the fast one.

A lab game is the whole loop: the engine, the seated bots and the counting of the game's
figures into its `GameRecord`. Today's path (`play_reference`) runs the readable engine
and bots and reads the record back from the events; the fast path (`LAB.play`) runs the
fast core (companion/games/passpass/fast/). Both play the very same games; `--check` also
compares every record. Run:

    .venv/bin/python bench/lab_passpass.py --games 2000
    .venv/bin/python bench/lab_passpass.py --game phipasspass --players 5 --bots heuristic,random
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable

from companion.games.passpass.lab import LABS, play_reference
from companion.lab.model import GameRecord, Variant


def timed(play: Callable[[Variant, int], GameRecord], variant: Variant, games: int) -> float:
    """Seconds to play games 0..games-1 of the variant."""
    start = time.perf_counter()
    for index in range(games):
        play(variant, index)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="ptipasspass", choices=sorted(LABS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="heuristic", help="kinds, cycled over the seats")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--reference-games", type=int, default=0,
                        help="games for today's path (default: a fifth of --games)")  # fmt: skip
    parser.add_argument("--rule", action="append", default=[], help="key=value (turn_limit=30)")
    parser.add_argument("--check", action="store_true", help="compare every record too")
    args = parser.parse_args()
    kinds = args.bots.split(",")
    rules: dict[str, object] = {}
    for item in args.rule:
        key, value = item.split("=", 1)
        rules[key] = int(value) if value.isdigit() else value
    variant = Variant(
        "bench", args.game, args.players,
        tuple(kinds[i % len(kinds)] for i in range(args.players)), args.games, 1, rules,
    )  # fmt: skip
    lab = LABS[args.game]
    lab.check(variant)
    lab.play(variant, 0)  # build the layout's tables outside the timing
    print(f"python {platform.python_version()} on {platform.machine()}, one process")
    print(f"{args.game}, {args.players} players, bots {','.join(variant.bots)}, rules {rules}")
    reference_games = args.reference_games or max(1, args.games // 5)
    seconds = timed(play_reference, variant, reference_games)
    today = reference_games / seconds
    print(f"today (readable engine and bots) {today:9.1f} games/s  ({reference_games} games)")
    seconds = timed(lab.play, variant, args.games)
    fast = args.games / seconds
    actions = sum(lab.play(variant, i).actions for i in range(min(args.games, 500)))
    per_game = actions / min(args.games, 500)
    print(
        f"fast path                        {fast:9.1f} games/s  ({args.games} games, "
        f"{per_game:.0f} actions/game, {fast * per_game:,.0f} actions/s)  x{fast / today:.1f}"
    )
    if args.check:
        differ = [i for i in range(reference_games) if lab.play(variant, i) != play_reference(
            variant, i)]  # fmt: skip
        print(f"records compared: {reference_games}, different: {len(differ)} {differ[:10]}")


if __name__ == "__main__":
    main()
