"""How long a command takes to start: the whole process, several runs.

`.venv/bin/python bench/cli_start.py [--runs N] [COMMAND...]` runs `companion --help` and
`companion config check --help` (or the commands given, each a quoted string) N times
(default 7), interleaved, and prints the wall time's min, median and max. `--root DIR`
runs another checkout's code (e.g. an older commit's, to compare) with this Python.

Its README section (`readme`, bench/readme.py) times `--help`, `config --help`,
`config check` and `run --help`, holds `--help` and `config check` against their 0.2 s
target (bench/verdict.py: each run is one start), and keeps the figures before issue 30
as history.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

from verdict import judge

ROOT = Path(__file__).resolve().parent.parent
MAIN = "import sys; sys.path.insert(0, sys.argv.pop(1)); from companion.cli import main; main()"
DEFAULT = ("--help", "config --help", "config check --help")
README_COMMANDS = ("--help", "config --help", "config check", "run --help")
TARGET_MS = {"--help": 200.0, "config check": 200.0}
"""Issue 30's targets for a command's start, the whole process."""
HISTORY = """History (measured then, not regenerated): seven runs each, back to back on the shared
machine, of the code before issue 30 (commit fe98f88, exported with `git archive`, run
with `--root`) and after its change (recorded in commit 52d7707); a busier run gave
1.07 / 1.30 / 1.63 s before against 0.18 / 0.31 / 0.37 s after for `--help`:

| command | before min / median / max ms | after min / median / max ms |
|---|---|---|
| companion --help | 604 / 688 / 1,129 | 111 / 126 / 163 |
| companion config --help | 621 / 783 / 1,121 | 111 / 122 / 167 |
| companion config check | 607 / 815 / 1,102 | 267 / 294 / 344 |
| companion run --help | 590 / 817 / 1,351 | 108 / 113 / 128 |"""


def timed(commands: list[str], runs: int, root: str = str(ROOT)) -> dict[str, list[float]]:
    """Each command's wall times (ms), `runs` runs interleaved, a fresh interpreter each."""
    times: dict[str, list[float]] = {c: [] for c in commands}
    for _ in range(runs):
        for command in commands:
            started = time.perf_counter()
            subprocess.run(
                [sys.executable, "-c", MAIN, root, *shlex.split(command)],
                capture_output=True,
                check=False,
            )
            times[command].append((time.perf_counter() - started) * 1000)
    return times


def readme(quick: bool) -> str:
    """bench/README.md's section: 7 runs of each command (quick: 4)."""
    runs = 4 if quick else 7
    times = timed(list(README_COMMANDS), runs)
    rows, verdicts = [], []
    for command, got in times.items():
        rows.append(
            f"| companion {command} | {min(got):.0f} / {statistics.median(got):.0f} / "
            f"{max(got):.0f} |"
        )
        if command in TARGET_MS:
            verdict = judge([t / 1000 for t in got], TARGET_MS[command] / 1000, unit="s", digits=2)
            verdicts.append(f"- `{command}` under {TARGET_MS[command] / 1000:g} s: {verdict}")
    return f"""## cli_start.py — a command's start, the whole process

`.venv/bin/python bench/cli_start.py [--runs N] [--root DIR] -- COMMAND...` runs each
command (`--help`, `config --help`...) N times interleaved, a fresh interpreter each, and
prints the wall time's min / median / max; `--root` runs another checkout's code with
the same Python (e.g. an older commit's, exported with `git archive`). {runs} runs each
(`config check` without a config file: the built-in defaults):

| command | min / median / max ms |
|---|---|
{chr(10).join(rows)}

Targets:

{chr(10).join(verdicts)}

`companion` builds only the typed command's parser (the others are their line of
`--help`), so `--help` imports neither the page (aiohttp, segno), the lab
(multiprocessing, matplotlib), fpdf nor any game; `config check` reads the config, whose
`[game]` keys are checked against the registered games, so it loads the games but not the
page or the lab (tests/cli/test_imports.py holds both under `python -X importtime`).
`run --help` imports none of them either (the service is imported when it runs), and
`run` imports the page's server only when `[web]` is on and the lab (whose report files
the page lists) only when a report is asked for; it still loads every game at start (the
registry imports every game's descriptor): a game loaded only when played needs
descriptors that import nothing heavy, not done yet.

{HISTORY}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--root", default=str(ROOT))
    parser.add_argument("commands", nargs="*", default=list(DEFAULT))
    args = parser.parse_args()
    times = timed(args.commands, args.runs, args.root)
    print("| command | min ms | median ms | max ms |")
    print("|---|---|---|---|")
    for command, runs in times.items():
        print(f"| companion {command} | {min(runs):.0f} | {statistics.median(runs):.0f} | "
              f"{max(runs):.0f} |")  # fmt: skip


if __name__ == "__main__":
    main()
