"""The lab's whole path, per game: N seeded bot games on every core, summarized, with the
report (HTML with its plots, JSON, CSV) written, timed from the start to the last file.

`.venv/bin/python bench/lab_speed.py [--games 10000] [--workers 2] [GAME...]`

Its README section (`readme`, bench/readme.py) runs every game three times, interleaved,
and holds the median against each target with the runs' spread (bench/verdict.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from verdict import judge

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
TARGET_S = {"ptipasspass": 10.0, "flipdone": 10.0, "swiped": 10.0}
"""Seconds 10,000 games with the report may take (issue 17's targets)."""
VNP_TODAY = 25.0
"""VNP's games per second on the readable engine when the lab was built (vnp_moves.py);
the lab's target was 5 times that."""
GAMES = 10_000
RUNS = 3


def timed(game: str, games: int, workers: int) -> tuple[float, float]:
    """Seconds to play `games` games of `game` on `workers`, and with the report written."""
    players, bot = TABLES[game]
    variant = Variant(game, game, players, (bot,) * players, games, 1)
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        results = play([variant], workers, quiet=True)
        played = time.perf_counter() - start
        report.write(Path(out), results, f"bench {game}")
        return played, time.perf_counter() - start


def readme(quick: bool) -> str:
    """bench/README.md's section: every game `RUNS` times, interleaved (quick: 2,000 games
    twice, the targets scaled to 2,000 games)."""
    games, runs, workers = (
        (2_000, 2, default_workers()) if quick else (GAMES, RUNS, default_workers())
    )
    times: dict[str, list[tuple[float, float]]] = {game: [] for game in TABLES}
    for _ in range(runs):
        for game in TABLES:
            times[game].append(timed(game, games, workers))
    rows = []
    for game, (players, bot) in TABLES.items():
        played = sorted(p for p, _ in times[game])
        total = [t for _, t in times[game]]
        if game in TARGET_S:
            target = TARGET_S[game] * games / GAMES
            cell = f"≤ {target:g} s: {judge(total, target, unit='s')}"
        elif game == "vnp":
            rates = [games / t for t in total]
            verdict = judge(rates, 5 * VNP_TODAY, higher_is_better=True, unit="games/s", digits=0)
            cell = f"≥ 5x {VNP_TODAY:g} games/s: {verdict}"
        else:
            cell = "–"
        rows.append(
            f"| {game} | {players} x {bot} | {played[len(played) // 2]:.1f} "
            f"({played[0]:.1f}–{played[-1]:.1f}) | {statistics.median(total):.1f} "
            f"({min(total):.1f}–{max(total):.1f}) | {cell} |"
        )
    quick_note = (
        f" Quick run: {games:,} games a game, so each 10 s target is scaled to {games:,}."
        if quick
        else ""
    )
    return (
        f"""## lab_speed.py — the designer's lab, {games:,} games per game with the report

`.venv/bin/python bench/lab_speed.py [--games N] [--workers W] [GAME...]` plays N seeded
bot games of each game through `companion lab`'s own path (process pool on every core,
summary with intervals) and writes the report (HTML with its matplotlib plots, JSON,
CSV), timed from the start to the last file. {workers} workers, {runs} runs of every game
interleaved: median (min–max).{quick_note}

| game | seats x bots | played s | with the report s | target |
|---|---|---|---|---|
"""
        + "\n".join(rows)
        + """

Before the lab, `companion selfplay` played on one core: 10,000 four-player PtiPassPass
games took about 40 s, Flip Done about 7 minutes (history, measured when the lab was
built).
"""
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games_", nargs="*", metavar="GAME", default=list(TABLES))
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=default_workers())
    args = parser.parse_args()
    print(f"{args.games:,} games per game, {args.workers} workers, report written")
    for game in args.games_:
        players, bot = TABLES[game]
        played, total = timed(game, args.games, args.workers)
        print(
            f"{game:12} {players} x {bot:9} played {played:6.1f} s, with the report "
            f"{total:6.1f} s  ({args.games / total:7.0f} games/s)"
        )


if __name__ == "__main__":
    main()
