"""The lab's whole path, per game: N seeded bot games on every core, summarized, with the
report (HTML with its plots, JSON, CSV) written, timed from the start to the last file.

`.venv/bin/python bench/lab_speed.py [--games 10000] [--workers 2] [GAME...]`

`--against DIR [--pairs 5]` compares with another checkout's code (DIR holds its
`companion/`, e.g. `git archive COMMIT companion | tar -x -C DIR`), run with this Python:
each game played in interleaved pairs (this code, then DIR's, the order swapped every
other pair), each run in an interpreter of its own; it prints the CPU time per game of
both sides (median, min–max), each pair's ratio and the median ratio.

Its README section (`readme`, bench/readme.py) runs every game three times, interleaved,
and holds the median against each target with the runs' spread (bench/verdict.py).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from verdict import judge

from companion.lab.runner import default_workers

ROOT = Path(__file__).resolve().parent.parent

TABLES = {
    "ptipasspass": (4, "heuristic"),
    "phipasspass": (4, "heuristic"),
    "flipdone": (3, "heuristic"),
    "swiped": (2, "deducing"),
    "vnp": (4, "largest"),
}
PI_CORES = 4
"""A Pi 4's and a Zero 2 W's cores: the lab's pool takes every one."""
TARGET_PI4_S = 30.0
"""Seconds a Pi 4 may take for 10,000 games of any game with the report (issue 17's 10 s
were this host's wall clock, which a busy machine decides): a designer's batch answered
within half a minute."""
ZERO2W_MB = 400
"""Memory a lab may hold on a Zero 2 W: its 512 MB less the system's and the service's."""
GAMES = 10_000
RUNS = 3


RUN = """
import json, resource, sys, tempfile, time
sys.path.insert(0, sys.argv.pop(1))
from pathlib import Path
from companion.lab import report
from companion.lab.cli import play
from companion.lab.model import Variant
game, players, bot, games, workers = sys.argv[1:]
variant = Variant(game, game, int(players), (bot,) * int(players), int(games), 1)
with tempfile.TemporaryDirectory() as out:
    start = time.perf_counter()
    results = play([variant], int(workers), quiet=True)
    played = time.perf_counter() - start
    report.write(Path(out), results, f"bench {game}")
    total = time.perf_counter() - start
own = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"played": played, "total": total, "lab_cpu": own.ru_utime + own.ru_stime,
                  "cpu": own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime,
                  "lab_mb": own.ru_maxrss / 1024, "worker_mb": kids.ru_maxrss / 1024}))
"""
"""One run in an interpreter of its own, so that its CPU time (the lab's and its workers')
and its peak memory are its own."""


@dataclass(frozen=True)
class Run:
    played: float
    """Seconds to play the games (wall clock)."""
    total: float
    """Seconds with the report written."""
    cpu: float
    """CPU seconds of the lab and its workers, from its start to the last file."""
    lab_mb: float
    """Peak resident memory of the lab's process."""
    worker_mb: float
    """Peak resident memory of its largest worker."""
    lab_cpu: float = 0.0
    """CPU seconds of the lab's own process (start-up, summary, report): what its workers
    cannot share."""

    def on_pi(self, factor: float) -> float:
        """Seconds on a Pi whose core is `factor` times slower than this host's, its
        `PI_CORES` cores sharing the workers' CPU time (the lab's own is not shared)."""
        return factor * (self.lab_cpu + (self.cpu - self.lab_cpu) / PI_CORES)


def timed(game: str, games: int, workers: int, root: Path = ROOT) -> Run:
    """One run of `games` games of `game` on `workers`, with the report written; `root`:
    the checkout whose code plays them."""
    players, bot = TABLES[game]
    args = [str(root), game, str(players), bot, str(games), str(workers)]
    done = subprocess.run([sys.executable, "-c", RUN, *args], capture_output=True, text=True,
                          check=True)  # fmt: skip
    return Run(**json.loads(done.stdout.splitlines()[-1]))


def _spread(values: list[float], digits: int = 1) -> str:
    """Median (min–max)."""
    return (f"{statistics.median(values):.{digits}f} "
            f"({min(values):.{digits}f}–{max(values):.{digits}f})")  # fmt: skip


def readme(quick: bool) -> str:
    """bench/README.md's section: every game `RUNS` times, interleaved (quick: 2,000 games
    twice, the target scaled to 2,000 games)."""
    from pi import ratio

    games, runs, workers = (
        (2_000, 2, default_workers()) if quick else (GAMES, RUNS, default_workers())
    )
    pi = ratio(quick)
    runs_of: dict[str, list[Run]] = {game: [] for game in TABLES}
    for _ in range(runs):
        for game in TABLES:
            runs_of[game].append(timed(game, games, workers))
    target = TARGET_PI4_S * games / GAMES
    rows, zero_misses, zero_full = [], [], []
    for game, (players, bot) in TABLES.items():
        done = runs_of[game]
        pi4 = [r.on_pi(pi.pi4) for r in done]
        zero = statistics.median(r.on_pi(pi.zero2w) for r in done)
        lab_mb = statistics.median(r.lab_mb for r in done)
        worker_mb = statistics.median(r.worker_mb for r in done)
        on_four = lab_mb + PI_CORES * worker_mb
        verdict = judge(pi4, target, unit="s", tolerance=pi.spread).short
        if zero > target:
            zero_misses.append(f"{game} {zero:.0f} s")
        if on_four > ZERO2W_MB:
            zero_full.append(f"{game} {on_four:.0f} MB")
        rows.append(
            f"| {game} | {players} x {bot} | {_spread([r.total for r in done])} "
            f"| {_spread([1000 * r.cpu / games for r in done], 2)} "
            f"| {statistics.median(pi4):.0f} / {zero:.0f} "
            f"| {lab_mb:.0f} / {worker_mb:.0f}; {on_four:.0f} | {verdict} |"
        )
    head = (
        "| game | seats x bots | with the report s (here) | CPU ms a game | Pi 4 / Zero 2 W s "
        f"| peak MB lab / worker; {PI_CORES} workers | ≤ {target:g} s on a Pi 4 |"
    )
    quick_note = (
        f" Quick run: {games:,} games a game, so the target is scaled to {games:,}."
        if quick
        else ""
    )
    zero_time = (
        f"misses the target for {', '.join(zero_misses)}: a designer on a Zero 2 W waits "
        f"that long for {games:,} games, or asks for fewer"
        if zero_misses
        else "meets the target for every game"
    )
    zero_memory = (
        f"more than {ZERO2W_MB} MB with {PI_CORES} workers for {', '.join(zero_full)}: "
        f"there, run it with `--workers 2`"
        if zero_full
        else f"under {ZERO2W_MB} MB with {PI_CORES} workers for every game"
    )
    return (
        f"""## lab_speed.py — the designer's lab, {games:,} games per game with the report

`.venv/bin/python bench/lab_speed.py [--games N] [--workers W] [--against DIR [--pairs P]]
[GAME...]` plays N seeded bot games of each game through `companion lab`'s own path
(process pool on every core, each worker tallying its games for the figures, summary with
intervals) and writes the report (HTML with its matplotlib plots, JSON, CSV), timed from
the start to the last file, each run in an interpreter of its own; `--against DIR`
compares the CPU time per game with another checkout's code in interleaved pairs (below).
{workers} workers, {runs} runs of every game interleaved: median (min–max) of the wall
clock (this machine is shared and was busy: the wall clock is noisy, the CPU time less
so), of the CPU time of the lab and its workers per game (start-up and report included),
the time on a Pi (the lab's own CPU time plus its workers' shared by {PI_CORES} cores,
times the measured ratio), and the peak resident memory of the lab's process and of its
largest worker, and what {PI_CORES} workers would hold (the lab and {PI_CORES} times its
largest worker).{quick_note} {pi.line()}

{head}
|---|---|---|---|---|---|---|
"""
        + "\n".join(rows)
        + f"""

On a Zero 2 W (four cores, each about three times slower than a Pi 4's: estimated; 512
MB) the lab {zero_time}. Its memory is {zero_memory}.

"""
        + ROUND_4
        + "\n\n"
        + HISTORY
    )


ROUND_4 = """Against 0870ced, issue 41's fifth round (history, measured then, not regenerated;
2026-11-29, this code at commit 12d7593): `lab_speed.py --games 5000 --pairs 5 --against
DIR`, DIR holding 0870ced's code (`git archive`), five interleaved pairs a game (the order
swapped every other pair), 2 workers, on this shared 2-core machine at a load average of 7
to 11 (other benches and test runs): CPU ms a game of the lab and its workers, start-up
and report included, median (min–max), and this code over 0870ced pair by pair. Target:
no game worse than 0870ced (≤ 1.05). Before this round (aaf1604, the same bench that
morning, load 5 to 13) the medians were 1.13, 1.11, 1.22, 1.00 and 1.11.

| game | 0870ced ms | this code ms | this code / 0870ced, each pair | median |
|---|---|---|---|---|
| ptipasspass | 0.483 (0.466–0.520) | 0.530 (0.509–0.551) | 1.07, 1.04, 1.09, 1.13, 1.09 | 1.09 |
| phipasspass | 0.687 (0.654–0.707) | 0.735 (0.704–0.749) | 1.04, 1.07, 1.10, 1.07, 1.08 | 1.07 |
| flipdone | 1.408 (1.343–1.537) | 1.681 (1.607–1.824) | 1.20, 1.19, 1.26, 1.22, 1.17 | 1.20 |
| swiped | 0.980 (0.949–0.992) | 0.966 (0.960–0.986) | 0.98, 1.01, 1.00, 0.99, 1.02 | 1.00 |
| vnp | 1.548 (1.477–1.735) | 1.807 (1.755–1.856) | 1.11, 1.15, 1.20, 1.22, 1.07 | 1.15 |

Swiped holds (1.00); the others miss. The pairs spread over 0.06–0.15, so a change of a
few percent is within the noise: the causes were found and the changes checked by counting
instructions (valgrind's cachegrind, one process, the same seeds: deterministic, unlike
the clock here). The whole lab path of PtiPassPass, 1 worker, report written: 0870ced
2,181 k instructions a game and 5.14 G for start-up, report and 200 games; this code
before the round 2,511 k and 5.62 G. Three causes: the worker's tally (297 k a game, where
0870ced's parent summed a record in about 43 k), the games' play (2,279 k against 2,138 k)
and start-up and report (the interest figures' plot and about 35 more modules imported:
about 0.45 G). This round: the board tells the acts of every turn (an announce, an OK, a
token placed, a turn started) only to a watcher that hears them, not to the lab's tally
(-57 k a game); the tally counts 64 games at a time figure by figure, `Counter.update`'s
own loop doing the counting (PtiPassPass 297 → 209 k, VNP 684 → 548 k with the interest
figures' leaders kept for the batch): 2,454 k a game. Left: VNP's `nth_bit` is the same
code as 0870ced's, on the same bitsets (the same 12,745 conflict masks worked out in 520
games), yet VNP's play costs 9,527 k a game against 8,023 k and Flip Done's 9,985 k against
8,573 k, not yet attributed (VNP's record now carries the lead's story, one `Lead` a
placement). The thinking bot did not slow: one `mcts:30` PtiPassPass game 666 → 657 M
instructions."""


_HISTORY = """Issue 41 (history, measured then, not regenerated): the lab had grown slower and
fatter since commit 0870ced (VNP's record 4.4 KB with the lead's story and the legal
choices; every record sent back to the lab and kept until the summary). Each worker now
tallies its games for the figures (companion/lab/tally.py: for each figure, how many games
gave each value) and sends back only the tally; the report's figures are the same, byte
for byte (figures.json and figures.csv of the same seeds compared, lab, ladder and
restricted play). Three interleaved runs of 0870ced, the commit before (c0e8552) and after,
5,000 games a run, 2 workers, each run in an interpreter of its own, CPU time of the lab
and its workers per game with start-up and report, on this shared 2-core machine (busy):
median (min–max), the ratio to 0870ced of each interleaved run, peak MB of the lab's
process / its largest worker.

{ISSUE_41_ROWS}

Memory is flat in the games: 30,000 VNP games peak at 100.4 MB in the lab's process
against 99.9 MB for 1,000, its largest worker at 77 against 72 MB (VNP's own tables fill
over a worker's first thousand games); tests/lab/test_lab_memory.py holds both within
a tenth. CPU per game is not yet back to 0870ced's everywhere: after / 0870ced is 1.01–1.26
over the runs above (Swiped and PhiPassPass closest). What remains is mostly the games'
own play, not the lab's path (one process, no lab: below); the tally costs 20–70 µs a game
(VNP's the most), and start-up about 0.07 s more. PLAY

Before the lab, `companion selfplay` played on one core: 10,000 four-player PtiPassPass
games took about 40 s, Flip Done about 7 minutes (history, measured when the lab was
built).
"""

ISSUE_41 = (  # game, then 0870ced, before, after: CPU ms a game (median, min, max)
    ("vnp", (1.53, 1.41, 1.60), (2.16, 2.09, 2.24), (1.65, 1.64, 1.70)),
    ("flipdone", (1.44, 1.42, 1.45), (2.02, 1.97, 2.11), (1.71, 1.59, 1.71)),
    ("ptipasspass", (0.46, 0.45, 0.48), (0.56, 0.53, 0.56), (0.55, 0.52, 0.60)),
    ("phipasspass", (0.70, 0.69, 0.74), (0.80, 0.76, 0.86), (0.77, 0.75, 0.78)),
    ("swiped", (0.96, 0.92, 0.96), (0.98, 0.96, 1.01), (0.98, 0.97, 1.02)),
)
ISSUE_41_PAIRS = {  # each interleaved run: after / 0870ced; peak MB lab/worker of each side
    "vnp": ("1.06, 1.08, 1.16", "100/76, 207/89, 96/77"),
    "flipdone": ("1.18, 1.11, 1.20", "94/22, 174/39, 83/27"),
    "ptipasspass": ("1.26, 1.16, 1.20", "87/22, 99/30, 83/29"),
    "phipasspass": ("1.05, 1.09, 1.12", "84/22, 94/30, 84/29"),
    "swiped": ("1.11, 1.02, 1.01", "83/37, 89/40, 83/40"),
}
ISSUE_41_PLAY = {  # ms a game of play alone (one process, 600 games): 0870ced, after
    "vnp": (0.893, 1.003),
    "flipdone": (0.961, 1.082),
    "ptipasspass": (0.218, 0.249),
    "phipasspass": (0.441, 0.485),
    "swiped": (1.011, 1.018),
}


def _history() -> str:
    head = (
        "| game | 0870ced ms | before ms | after ms | after / 0870ced | peak MB 0870ced, "
        "before, after |\n|---|---|---|---|---|---|\n"
    )
    rows = "\n".join(
        f"| {game} | "
        + " | ".join(f"{m:.2f} ({lo:.2f}–{hi:.2f})" for m, lo, hi in sides)
        + f" | {ISSUE_41_PAIRS[game][0]} | {ISSUE_41_PAIRS[game][1]} |"
        for game, *sides in ISSUE_41
    )
    play = ", ".join(
        f"{game} {old:.2f} → {new:.2f} ms ({new / old - 1:+.0%})"
        for game, (old, new) in ISSUE_41_PLAY.items()
    )
    history = _HISTORY.replace("{ISSUE_41_ROWS}", head + rows)
    start = history.index("PLAY\n")
    said = history[:start] + f"Play alone, 0870ced → after: {play}."
    para = said.rindex("\n\n") + 2
    return history[:para] + textwrap.fill(said[para:], 90) + history[start + 4 :]


HISTORY = _history()


def compare(games_: list[str], games: int, workers: int, against: Path, pairs: int) -> None:
    """This code's CPU time per game against `against`'s, `pairs` interleaved pairs a game
    (the order swapped every other pair, so neither side always runs first)."""
    print(f"{games:,} games a run, {workers} workers, {pairs} interleaved pairs a game, "
          f"CPU ms a game (the lab and its workers, start-up and report included)")  # fmt: skip
    print(f"| game | {against} ms | this code ms | ratios, pair by pair | median ratio |")
    print("|---|---|---|---|---|")
    for game in games_:
        ours: list[float] = []
        theirs: list[float] = []
        for pair in range(pairs):
            sides = [(ROOT, ours), (against, theirs)]
            for root, into in sides if pair % 2 == 0 else reversed(sides):
                into.append(1000 * timed(game, games, workers, root).cpu / games)
        ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
        print(f"| {game} | {_spread(theirs, 3)} | {_spread(ours, 3)} | "
              f"{', '.join(f'{r:.2f}' for r in ratios)} | {statistics.median(ratios):.2f} |",
              flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games_", nargs="*", metavar="GAME", default=list(TABLES))
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--against", type=Path, help="another checkout's root, to compare")
    parser.add_argument("--pairs", type=int, default=5)
    args = parser.parse_args()
    if args.against:
        compare(args.games_, args.games, args.workers, args.against.resolve(), args.pairs)
        return
    print(f"{args.games:,} games per game, {args.workers} workers, report written")
    for game in args.games_:
        players, bot = TABLES[game]
        run = timed(game, args.games, args.workers)
        print(
            f"{game:12} {players} x {bot:9} played {run.played:6.1f} s, with the report "
            f"{run.total:6.1f} s ({args.games / run.total:5.0f} games/s), CPU "
            f"{1000 * run.cpu / args.games:.2f} ms a game, peak {run.lab_mb:.0f} MB "
            f"(largest worker {run.worker_mb:.0f} MB)"
        )


if __name__ == "__main__":
    main()
