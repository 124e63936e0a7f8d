"""The lab's whole path, per game: N seeded bot games on every core, summarized, with the
report (HTML with its plots, JSON, CSV) written, timed from the start to the last file.

`.venv/bin/python bench/lab_speed.py [--games 10000] [--workers 2] [GAME...]`
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from companion.lab import report
from companion.lab.cli import play
from companion.lab.model import Variant
from companion.lab.runner import default_workers

TABLES = {
    "ptipasspass": (4, "heuristic"),
    "phipasspass": (4, "heuristic"),
    "flipdone": (3, "heuristic"),
    "swiped": (2, "deducing"),
    "vnp": (4, "largest"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games_", nargs="*", metavar="GAME", default=list(TABLES))
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=default_workers())
    args = parser.parse_args()
    print(f"{args.games:,} games per game, {args.workers} workers, report written")
    for game in args.games_:
        players, bot = TABLES[game]
        variant = Variant(game, game, players, (bot,) * players, args.games, 1)
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            results = play([variant], args.workers, quiet=True)
            played = time.perf_counter() - start
            report.write(Path(out), results, f"bench {game}")
            total = time.perf_counter() - start
        print(
            f"{game:12} {players} x {bot:9} played {played:6.1f} s, with the report "
            f"{total:6.1f} s  ({args.games / total:7.0f} games/s)"
        )


if __name__ == "__main__":
    main()
