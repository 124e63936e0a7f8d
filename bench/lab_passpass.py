"""The lab's PassPass games per second on one core: the table's path against the lab's.

A lab game is the whole loop: the engine, the seated bots and the counting of the game's
figures into its `GameRecord`. The table's path (`play_reference`) plays through the
engine's `apply` (a frozen State and its events each step) with the bots at table seats
and reads the record back from the events; the lab's (`LAB.play`) plays the engine's
board in place (companion/games/passpass/rules/board.py), counting as it goes. Both play
the very same games; `--check` also compares every record. Run:

    .venv/bin/python bench/lab_passpass.py --games 2000
    .venv/bin/python bench/lab_passpass.py --game phipasspass --players 5 --bots heuristic,random

Its README section (`readme`, bench/readme.py) is that of every lab_* bench: one game of
each lab, the table's path against the lab's.
"""

from __future__ import annotations

import argparse
import importlib
import platform
import time
from collections.abc import Callable

from companion.games.passpass.lab import LABS, play_reference
from companion.lab.model import GameRecord, Variant


def timed(play: Callable[[Variant, int], GameRecord], variant: Variant, games: int) -> float:
    """CPU seconds of this process to play games 0..games-1 of the variant (the machine
    is shared: its other work matters less than to a wall clock)."""
    start = time.process_time()
    for index in range(games):
        play(variant, index)
    return time.process_time() - start


README_TABLES = (
    ("ptipasspass", "passpass", 4, "heuristic"),
    ("flipdone", "flipdone", 3, "heuristic"),
    ("swiped", "swiped", 2, "deducing"),
)
"""(game, its package, seats, bots) of the README's table. Vous ne passerez pas ! has one
path only: its engine is its fast path (`bench/lab_speed.py`, `bench/vnp_moves.py`)."""


FLIPDONE_BEFORE_AFTER = """measured once, 2026-11-28, when Flip Done's fast path was
removed (history, not re-run): `bench/lab_flipdone.py --games 2000 --reference-games 0`
(heuristic bots at the 3 seats, CPU seconds of one process), 10 before/after pairs run
one after the other on the shared 2-core machine (busy: load average 5 to 13): the fast
path 742-889 games/s (median 805), the engine's board 700-825 (median 754), the pairs'
ratios 0.84-1.07 (median 0.93); both paths in one process, 600 games each, alternated 8
times: CPU time after/before 1.05-1.10 (median 1.08): the lab about 7 to 8 % slower on
the board, the same games. The thinking bot (`bench/mcts_speed.py speed`, Flip Done
alone, mcts:30, 3 pairs of 20 CPU seconds) went from 74-77 to 80-86 decisions a second on
the board, the same games; a table's path (`play_reference`, one run each) from about 13
to 135 games a second."""

PASSPASS_BEFORE_AFTER = """measured once, 2026-11-29, when PassPass's fast path was
removed (history, not re-run): `bench/lab_speed.py ptipasspass phipasspass --games 5000
--workers 1` (4 heuristic bots), 5 before/after pairs interleaved on the shared 2-core
machine (busy), before commit def13a2, after 2a26f13: the CPU time of each whole run
(both games, start-up and report included) after/before 0.99-1.04 (median 1.03); the CPU
per game the bench prints, median of the 5 runs, PtiPassPass 0.47 ms before and 0.50
after (pairs 0.93-1.09, median 1.02), PhiPassPass 0.72 and 0.74 (pairs 0.99-1.06, median
1.03); the very same records, and `companion lab`'s figures.json, figures.csv and its
ladder and restricted play byte for byte on the same seeds. The thinking bot
(`bench/mcts_speed.py speed`, mcts:30, 3 pairs): CPU time per decision after/before
0.85-0.95 in PtiPassPass, 0.92-1.03 in PhiPassPass (the games the change left alone moved
by -3 % to +14 % between the same pairs)."""

TITLE = "lab_passpass.py, lab_flipdone.py, lab_swiped.py — the table's path against the lab's"


def readme(quick: bool) -> str:
    """bench/README.md's section: each game's lab on one core, the table's path and the
    lab's (quick: half the games)."""
    scale = 2 if quick else 1
    rows = []
    for game, package, players, bot in README_TABLES:
        module = importlib.import_module(f"companion.games.{package}.lab")
        lab = module.LABS[game] if hasattr(module, "LABS") else module.LAB
        variant = Variant("bench", game, players, (bot,) * players, 1, 1)
        lab.play(variant, 0)  # the tables built once per process, outside the timing
        fast_games = 2000 // scale
        reference_games = (100 if game == "flipdone" else 400) // scale
        today = reference_games / timed(module.play_reference, variant, reference_games)
        fast = fast_games / timed(lab.play, variant, fast_games)
        label = f"{game}, {players} x {bot}"
        rows.append(f"| {label} | {today:,.1f} | {fast:,.0f} | {fast / today:.1f}x |")
    return f"""## {TITLE}

Each plays the lab's games of one game on one core twice: as a table plays them
(`play_reference`: the engine's `apply`, the table's bots, the record read from the
events as JSON) and as the lab does (`LAB.play`), bots and counting included. `--check`
(or `--diff N`) also compares the two, record for record. Speeds are in CPU seconds of
the process. This run:
{400 // scale:,} games of the table's path ({100 // scale} for Flip Done),
{2000 // scale:,} of the lab's, one run each (no target: speed-ups, not verdicts).

| game, bots | table games/s | lab games/s | speed-up |
|---|---|---|---|
{chr(10).join(rows)}

Where the time went and what the lab does: each game's engine is its board
(`rules/board.py`: PassPass's hats and hands packed in integers, legal actions cached, the
bots' memory of the hats kept with them; Flip Done's card colours and line states small
integers, so a flip's value for the heuristic bot is a table lookup): the table's path
pays a frozen `State`, its events and a fork at every step (and PassPass's table seats a
board of their seat's knowledge at each decision), the lab plays the board in place and
counts as it goes; Swiped's lab caches the deducing bot's gains and likelihoods as
integer rows and memoises first-manche plans (the table's path is the table's bots on
the engine, the lab's its own bots). The tests in tests/lab/ hold a PassPass or Flip Done
lab game to its record read back from the same game played as a table plays it, and
Swiped's lab bots to the table's, over many games in the suite
(`COMPANION_LAB_DIFF_GAMES=N` runs more). History (when the fast paths were written, not
regenerated): longer runs compared 34,000 (PassPass), 60,000 (Flip Done), 36,000 (Swiped)
and 24,000 (VNP) games with no difference. Flip Done's lab on its engine's board against
its former fast path, {FLIPDONE_BEFORE_AFTER} PassPass's lab on its engine's board
against its former fast path, {PASSPASS_BEFORE_AFTER}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="ptipasspass", choices=sorted(LABS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="heuristic", help="kinds, cycled over the seats")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--reference-games", type=int, default=0,
                        help="games of the table's path (default: --games / 5)")  # fmt: skip
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
    print(f"table (apply, table seats)       {today:9.1f} games/s  ({reference_games} games)")
    seconds = timed(lab.play, variant, args.games)
    fast = args.games / seconds
    actions = sum(lab.play(variant, i).actions for i in range(min(args.games, 500)))
    per_game = actions / min(args.games, 500)
    print(
        f"lab (the board in place)         {fast:9.1f} games/s  ({args.games} games, "
        f"{per_game:.0f} actions/game, {fast * per_game:,.0f} actions/s)  x{fast / today:.1f}"
    )
    if args.check:
        differ = [i for i in range(reference_games) if lab.play(variant, i) != play_reference(
            variant, i)]  # fmt: skip
        print(f"records compared: {reference_games}, different: {len(differ)} {differ[:10]}")


if __name__ == "__main__":
    main()
