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
import tempfile
import time
from pathlib import Path

from verdict import judge

ROOT = Path(__file__).resolve().parent.parent
MAIN = "import sys; sys.path.insert(0, sys.argv.pop(1)); from companion.cli import main; main()"
DEFAULT = ("--help", "config --help", "config check --help")
README_COMMANDS = ("--help", "config --help", "config check", "run --help")
TARGET_MS = {"--help": 200.0, "config check": 200.0, "run --sim (to ready)": 300.0}
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
| companion run --help | 590 / 817 / 1,351 | 108 / 113 / 128 |

Then each game loaded only when asked for (commit 729c7d0's parent against it, seven
interleaved runs each at a load average of 3.5): `config check` 244 ms median before, 150
after; `run --sim --no-menu` to ready, page on, 518 ms before, 392 after."""


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


def to_ready(runs: int, page: bool, root: str = str(ROOT), mark: str = "ready:") -> list[float]:
    """`companion run --sim --no-menu` from its start to its "ready" log line (the referee
    takes inputs, the OLED shows the game), or to another `mark`, in ms, `runs` times;
    with or without the page ([web] on, as by default, or off)."""
    got = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            config = Path(folder) / "companion.toml"
            config.write_text("" if page else "[web]\nenabled = false\n")
            argv = ["run", "--sim", "--no-menu", "--config", str(config), "--data-dir", folder,
                    "--display", "none", "--sim-input", "-"]  # fmt: skip
            started = time.perf_counter()
            child = subprocess.Popen([sys.executable, "-c", MAIN, root, *argv], cwd=folder,
                                     stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)  # fmt: skip
            assert child.stderr is not None
            for line in child.stderr:
                if mark in line:
                    got.append((time.perf_counter() - started) * 1000)
                    break
            child.kill()
            child.wait()
    return got


def readme(quick: bool) -> str:
    """bench/README.md's section: 7 runs of each command (quick: 4)."""
    runs = 4 if quick else 7
    times = timed(list(README_COMMANDS), runs)
    times["run --sim (to ready)"] = to_ready(runs, page=True)
    times["run --sim, page off (to ready)"] = to_ready(runs, page=False)
    times["run --sim (to its page)"] = to_ready(runs, page=True, mark="web page:")
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
(`config check` without a config file: the built-in defaults); `run --sim (to ready)` is
`companion run --sim --no-menu` from its start to its "ready" log line (the referee takes
inputs, the OLED shows the game), with its web page (the default) and without, and to the page's
"web page:" log line (it listens):

| command | min / median / max ms |
|---|---|
{chr(10).join(rows)}

Targets:

{chr(10).join(verdicts)}

`companion` builds only the typed command's parser (the others are their line of
`--help`), so `--help` imports neither the page (aiohttp, segno), the lab
(multiprocessing, matplotlib), fpdf nor any game. The registry imports a built-in game's
module when the game is first asked for, so `config check` and `run` load the configured
game only (another game's too when the file sets one of its `[game]` keys), never the page
or the lab for `config check` (tests/cli/test_imports.py holds both under `python -X
importtime`). `run` says it is ready once the referee takes inputs and the OLED shows the
game; its page and club link start right after (inputs wait in the inbox meanwhile), the
page's server, aiohttp's import most of all, being the difference between the "ready" and
"to its page" rows.

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
