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
resume misses its target: under 1 s for 10,000 inputs, under 10 s for 100,000.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

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
