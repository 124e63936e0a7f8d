"""Resume speed and memory: `Session.resume` of a 10,000- and a 100,000-input journal.

The journals are one long PtiPassPass game (four bot seats on a rough simulated table:
flickering tags, stray tags, presses out of turn) padded as restless tables pad them: a
tick now and then, and every other padding input a refused press (the Magicien pressing
Menteur at their own drop: an `ignored` event each, the events a live referee used to keep
forever). The padding never changes the game: the padded journal's winner and engine
events are checked against the game's own. The lines are written exactly as
`JournalWriter` writes them (numbered, with their checksums), without its fsync per line.

For each size: the wall time and the peak of Python's allocations (tracemalloc, a second
run) of `Session.resume` (read, verify, feed the referee: one pass), and, for comparison,
of the path before it (`read_journal` into a list, then the journal replayed twice with
every event kept, as `replay_journal` and then `Session.resume` did).

Run: `.venv/bin/python bench/resume_speed.py [--sizes 10000,100000]`. Exits 1 when a
resume misses its target: under 1 s for 10,000 inputs, under 10 s for 100,000. Its README
section (`readme`, bench/readme.py) times each resume three times (bench/verdict.py) and
keeps the figures of the code before (not rebuilt) as history.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from verdict import judge

from companion.games import make_referee
from companion.games.passpass.sim import Noise, SimulatedGame, make_setup
from companion.journal import Input, PressInput, Setup, TickInput, read_journal, with_checksum
from companion.session import Session

TARGETS = {10_000: 1.0, 100_000: 10.0}
"""Seconds a resume of that many inputs may take (the issue's targets)."""
PRESS_EVERY = 2
"""One padding input in this many is a refused press (when the table is judged); the
others are ticks."""


def long_game() -> tuple[Setup, list[Input]]:
    """A long four-player PtiPassPass game played by the bots on a rough table."""
    best: tuple[Setup, list[Input]] | None = None
    for seed in range(1, 9):
        game = SimulatedGame(make_setup("ptipasspass", 4, seed=seed), noise=Noise.rough()).run()
        if best is None or len(game.inputs) > len(best[1]):
            best = (game.setup, list(game.inputs))
    assert best is not None
    return best


def padded(setup: Setup, inputs: list[Input], size: int) -> list[Input]:
    """The game's inputs with padding spread over its time, `size` inputs in all. A press
    is the Magicien's own Menteur (always refused: MAGICIAN, NOT_NOW or TABLE_FIRST),
    placed only while the table is judged so that no held press reorders a deadline."""
    referee = make_referee(setup)
    extra = size - len(inputs)
    span = inputs[-1].t - setup.t
    out: list[Input] = []
    previous = setup.t
    made = 0
    for record in inputs:
        due = round(extra * (record.t - setup.t) / span) - made
        for k in range(due):
            t = round(previous + (record.t - previous) * (k + 1) / (due + 1), 6)
            pad: Input = TickInput(t)
            if (made + k) % PRESS_EVERY == 0 and not referee.unjudged:
                pad = PressInput(t, "menteur", referee.state.magician)  # type: ignore[attr-defined]
            referee.feed(pad)
            out.append(pad)
        made += due
        referee.feed(record)
        out.append(record)
        previous = record.t
    return out


def same_game(setup: Setup, a: list[Input], b: list[Input]) -> bool:
    """Do both input lists make the same engine events and winner?"""
    results = []
    for inputs in (a, b):
        referee = make_referee(setup)
        for record in inputs:
            referee.feed(record)
        engine = [e.to_json() for e in referee.log]  # type: ignore[attr-defined]
        results.append((engine, referee.result()["winner"]))
    return results[0] == results[1]


def write(path: Path, setup: Setup, inputs: list[Input]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for seq, record in enumerate((setup, *inputs), start=1):
            line = json.dumps(record.to_json(), separators=(",", ":"))
            f.write(with_checksum(line, seq) + "\n")


def resume(path: Path) -> None:
    Session.resume(path).close()


def before(path: Path) -> None:
    """The path before: the whole journal in a list, replayed twice, every event kept."""
    for _ in range(2):
        journal = read_journal(path)
        referee = make_referee(journal.setup)
        for record in journal.inputs:
            referee.feed(record)


def measure(run: Callable[[Path], None], path: Path, original: bytes) -> tuple[float, float]:
    """(seconds, peak MB of Python allocations) of one run; the journal is put back as it
    was after each (a resume appends its `resume` line)."""
    start = time.perf_counter()
    run(path)
    seconds = time.perf_counter() - start
    path.write_bytes(original)
    tracemalloc.start()
    run(path)
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    path.write_bytes(original)
    return seconds, peak


HISTORY = """History (measured then, not regenerated): the code before the one-pass resume
(`run --resume`'s `replay_journal` then `Session.resume`, on the same journals without
checksums) took 0.15 s / 6.5 MB and 2.12 s / 63.8 MB (recorded in commit cb88ac7).
`companion replay` of the same kind of journal (a PtiPassPass setup then refused presses,
tests/cli/test_replay_memory.py's, `--json` to /dev/null; `/usr/bin/time`, the whole
process): before issue 30, 1,000 inputs 0.59 s / 29.9 MB peak resident and 100,000 inputs
4.52 s / 66.3 MB; after, 0.50 s / 30.0 MB and 3.12 s / 31.4 MB (recorded in commit
64b087a). The referee keeps its last 1,000 events as a resume's does, and what replay
prints waits in a spool (on disk past 1 MB) until the journal was read to its end."""
RUNS = 3


def readme(quick: bool) -> str:
    """bench/README.md's section: each size's resume `RUNS` times, the path before once
    (quick: 10,000 and 50,000 inputs, the second with no target)."""
    sizes = (10_000, 50_000) if quick else (10_000, 100_000)
    setup, inputs = long_game()
    rows, peaks, before_peaks = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            journal = padded(setup, inputs, size)
            assert same_game(setup, inputs, journal), "the padding changed the game"
            path = Path(folder) / f"game-{size}.jsonl"
            write(path, setup, journal)
            original = path.read_bytes()
            got = [measure(resume, path, original) for _ in range(RUNS)]
            seconds = [s for s, _ in got]
            target = TARGETS.get(size)
            cell = (
                "–"
                if target is None
                else f"< {target:g} s: {judge(seconds, target, unit='s', digits=2)}"
            )
            old_s, old_peak = measure(before, path, original)
            peaks.append(max(p for _, p in got))
            before_peaks.append(old_peak)
            rows.append(
                f"| {size:,} | {len(original) / 1e6:.1f} | {min(seconds):.2f} / "
                f"{statistics.median(seconds):.2f} / {max(seconds):.2f} | "
                f"{max(p for _, p in got):.1f} | {cell} | {old_s:.2f} | {old_peak:.1f} |"
            )
    return f"""## resume_speed.py — resuming a long journal: one pass, bounded memory

`.venv/bin/python bench/resume_speed.py [--sizes 10000,100000] [--no-before]` builds a
{sizes[0]:,}- and a {sizes[1]:,}-input journal from one long PtiPassPass game (four bot
seats on a rough table: {len(inputs)} inputs over {inputs[-1].t:.0f} s), padded over its
time with ticks and, every other padding input while the table is judged, the Magicien's
own Menteur (always refused: an `ignored` event each); it checks that the padding leaves
the game as it was. The lines are the ones `JournalWriter` writes, checksums included. It
times `Session.resume` (read, verify and feed the referee in one pass, the referee
keeping its last 1,000 events) {RUNS} times and takes the peak of Python's allocations
with tracemalloc in a second run of each; "before" is that path rebuilt with today's
modules (the whole journal read into a list, then replayed twice with every event kept,
as `replay_journal` then `Session.resume` did), once.

| inputs | journal MB | resume s min / median / max | peak MB | target | before s | before peak MB |
|---|---|---|---|---|---|---|
{chr(10).join(rows)}

From {sizes[0]:,} to {sizes[1]:,} inputs the peak goes from {peaks[0]:.1f} to
{peaks[1]:.1f} MB, the path before's from {before_peaks[0]:.1f} to {before_peaks[1]:.1f} MB:
what stays is the referee's state, its last 1,000 events and the line being read. The
bench exits 1 when a target is missed.

{HISTORY}
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000", help="journal sizes, in inputs")
    parser.add_argument("--no-before", action="store_true", help="skip the path before")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    setup, inputs = long_game()
    print(f"game: {len(inputs)} inputs over {inputs[-1].t:.0f} s (4 seats, rough table)")
    missed = False
    print("| inputs | journal MB | resume s | peak MB | target | before s | before peak MB |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            journal = padded(setup, inputs, size)
            assert same_game(setup, inputs, journal), "the padding changed the game"
            path = Path(folder) / f"game-{size}.jsonl"
            write(path, setup, journal)
            original = path.read_bytes()
            seconds, peak = measure(resume, path, original)
            target = TARGETS.get(size)
            verdict = (
                "–"
                if target is None
                else f"< {target:g} s: " + ("met" if seconds < target else "MISSED")
            )
            missed |= target is not None and seconds >= target
            old = (
                "– | –"
                if args.no_before
                else "{:.2f} | {:.1f}".format(*measure(before, path, original))
            )
            print(
                f"| {size:,} | {len(original) / 1e6:.1f} | {seconds:.2f} | {peak:.1f} "
                f"| {verdict} | {old} |"
            )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
