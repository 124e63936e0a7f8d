"""How long a command takes to start: the whole process, several runs.

`.venv/bin/python bench/cli_start.py [--runs N] [COMMAND...]` runs `companion --help` and
`companion config check --help` (or the commands given, each a quoted string) N times
(default 7), interleaved, and prints the wall time's min, median and max. `--root DIR`
runs another checkout's code (e.g. an older commit's, to compare) with this Python.

Its README section (`readme`, bench/readme.py) times `--help`, `config --help`,
`config check`, `run --help` and `run --sim` to ready, in wall and CPU time, holds their
CPU time on a Pi 4 (bench/pi.py) against their targets (bench/verdict.py: each run is one
start), measures a started table left idle (its CPU and memory), and keeps the figures
before issue 30 as history.
"""

from __future__ import annotations

import argparse
import resource
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pi import on_pi, ratio
from verdict import judge

ROOT = Path(__file__).resolve().parent.parent
MAIN = "import sys; sys.path.insert(0, sys.argv.pop(1)); from companion.cli import main; main()"
DEFAULT = ("--help", "config --help", "config check --help")
README_COMMANDS = ("--help", "config --help", "config check", "run --help")
GAMES = {"PhiPassPass": "phipasspass", "Flip Done": "flipdone", "Swiped": "swiped", "VNP": "vnp"}
"""The games started besides the default (PtiPassPass), by their config name."""
SEATS = {"flipdone": 3, "swiped": 2}
"""The games whose config must name their seats (no default number of players)."""
RESUMED = ROOT / "tests" / "games" / "vnp" / "referee" / "scenarios" / "two_players.jsonl"
RESUMED_PLACEMENTS = 20
"""A VNP game resumed (`run --resume`, as the service starts) at its 20th placement: the
first inputs of a two-player game the referee's tests replay."""
TARGET_PI4_S = {
    "--help": 0.5,
    "config check": 0.75,
    "run --sim (to ready)": 1.0,
    **{f"run --sim, {title} (to ready)": 1.0 for title in GAMES},
    f"run --sim --resume, VNP at {RESUMED_PLACEMENTS} placements (to ready)": 1.0,
    "run --sim --menu (to the power-on menu)": 1.0,
}
"""Targets for a command's start on a Pi 4, the whole process's CPU time: issue 41's
second to ready, for every game and for the power-on menu; `--help` and `config check`
typed at a prompt, answered at once."""
IDLE_SECONDS = 5.0
TARGET_IDLE_PCT = 2.0
"""A table left alone (no input, no watcher) spends at most this much of a Pi 4 core (1.5 %
when issue 41 set it: the clock's ticks, the countdown on the OLED): kept."""
TARGET_RSS_MB = 60.0
"""Resident memory of the service with its page, idle (45 MB when issue 41 set it): kept,
a Zero 2 W having 512 MB for the system, the service and a lab run."""
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
after; `run --sim --no-menu` to ready, page on, 518 ms before, 392 after.

VNP to ready, page on, five interleaved pairs in issue 41's second round (CPU time, the
shared 2-core machine busy): commit a667ca3 406 ms median (runs 401–425), after 287 ms
(279–297), each orientation's placements moved from the board's corner instead of worked
out one by one (the placements 173 -> 57 ms, the conflict tables 74 -> 64 ms). Still
missed: those two are about 120 ms of the 290 (0.6 s on a Pi 4); a start within 1 s needs
them shipped as data, or built after "ready" while the page starts (its placements come
from phones).

Every game to ready, page on, seven interleaved pairs in issue 41's third round (CPU time
median and runs, the shared 2-core machine at a load average of 10): commit c0e8552
against after VNP's board built after "ready" and no scan of the installed distributions
for a built-in game: PtiPassPass 173 (162–179) -> 157 (153–168) ms, PhiPassPass 175
(164–181) -> 162 (154–171), Flip Done 167 (162–172) -> 157 (154–168), Swiped 170
(156–177) -> 155 (144–172), VNP 289 (276–298) -> 149 (144–153); VNP to its page 419
(406–449) -> 269 (257–286). Then a placement's conflicts worked out for it alone: VNP
resumed at its 20th placement, five interleaved pairs, 285 (275–288) -> 165 (160–181).

The power-on menu to its first frame, page on, seven interleaved pairs in issue 41's fourth
round (CPU time median and runs, the shared 2-core machine at a load average of 11.6):
commit 790b028 254 (242–261) ms (1.3 s on a Pi 4 at ×5.2), every game loaded to list its
seats and spots and the installed distributions scanned for more, against 174 (165–176) ms
after (0.9 s), each game listed from its facts and the scan after the first frame; `run
--sim` to ready measured 181 ms in the same minutes."""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(
    commands: list[str], runs: int, root: str = str(ROOT), cpu: dict[str, list[float]] | None = None
) -> dict[str, list[float]]:
    """Each command's wall times (ms), `runs` runs interleaved, a fresh interpreter each;
    its CPU times (ms) into `cpu` when given."""
    times: dict[str, list[float]] = {c: [] for c in commands}
    for _ in range(runs):
        for command in commands:
            before = _children_cpu()
            started = time.perf_counter()
            subprocess.run(
                [sys.executable, "-c", MAIN, root, *shlex.split(command)],
                capture_output=True,
                check=False,
            )
            times[command].append((time.perf_counter() - started) * 1000)
            if cpu is not None:
                cpu.setdefault(command, []).append((_children_cpu() - before) * 1000)
    return times


def _cpu_of(pid: int) -> float:
    """A running process's CPU time so far (ms), all its threads (the scheduler's own
    count, in ns: /proc's ticks are 10 ms)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, IndexError, ValueError):
            continue  # a thread that just ended
    return total / 1e6


def _memory_of(pid: int) -> tuple[float, float]:
    """A running process's resident and peak resident memory (MB)."""
    status = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024


@dataclass
class Started:
    """One `companion run --sim` start: wall and CPU ms to its mark; with `idle`, its CPU
    over that many idle seconds after it (ms) and its memory then (MB)."""

    wall: float
    cpu: float
    idle_cpu: float = 0.0
    rss: float = 0.0
    peak: float = 0.0


def to_ready(
    runs: int,
    page: bool,
    root: str = str(ROOT),
    mark: str = "ready:",
    idle: float = 0.0,
    game: str | None = None,
    menu: bool = False,
    resumed: int = 0,
) -> list[Started]:
    """`companion run --sim --no-menu` from its start to its "ready" log line (the referee
    takes inputs, the OLED shows the game), or to another `mark`, `runs` times; with or
    without the page ([web] on, on a free loopback port, or off); then, with `idle`, that
    many seconds of a table left alone. `game`: the config's game (else the default's);
    `menu`: with the power-on menu (`--menu`, a console with an encoder shows it);
    `resumed`: resuming `RESUMED`'s game at that many placements (`--resume`)."""
    got = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            config = Path(folder) / "companion.toml"
            config.write_text(_config(game, page))
            argv = ["run", "--sim", "--menu" if menu else "--no-menu", "--config", str(config),
                    "--data-dir", folder, "--display", "none", "--sim-input", "-"]  # fmt: skip
            if resumed:
                lines = RESUMED.read_text().splitlines()[: 1 + resumed]  # its setup, then inputs
                (Path(folder) / "game.jsonl").write_text("\n".join(lines) + "\n")
                argv.append("--resume")
            started = time.perf_counter()
            child = subprocess.Popen([sys.executable, "-c", MAIN, root, *argv], cwd=folder,
                                     stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)  # fmt: skip
            assert child.stderr is not None
            line = ""
            for line in child.stderr:
                if mark in line:
                    one = Started((time.perf_counter() - started) * 1000, _cpu_of(child.pid))
                    if idle:
                        time.sleep(1.0)  # the page's first requests and frames are done
                        cpu0 = _cpu_of(child.pid)
                        time.sleep(idle)
                        one.idle_cpu = _cpu_of(child.pid) - cpu0
                        one.rss, one.peak = _memory_of(child.pid)
                    got.append(one)
                    break
            else:
                raise RuntimeError(f"companion run ({game or 'the default game'}) ended without "
                                   f"logging {mark!r}, its last line: {line.strip()}")  # fmt: skip
            child.kill()
            child.wait()
    return got


def _config(game: str | None, page: bool) -> str:
    """A config starting `game` (else the default's), its page on a free loopback port
    or off."""
    text = ""
    if game:
        text += f'[game]\nname = "{game}"\n'
        if game in SEATS:
            names = ", ".join(f'"Seat {n}"' for n in range(1, SEATS[game] + 1))
            text += f"seats = [{names}]\n"
    if page:
        return text + f'[web]\nhost = "127.0.0.1"\nport = {_free_port()}\n'
    return text + "[web]\nenabled = false\n"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def compiled() -> None:
    """The bytecode of the project compiled, as an install leaves it (pip compiles what it
    installs; a checkout compiles on its first run)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "companion")],
                   check=True, capture_output=True)  # fmt: skip


def readme(quick: bool) -> str:
    """bench/README.md's section: 7 runs of each command (quick: 4), held on a Pi 4's
    figures (bench/pi.py)."""
    runs = 4 if quick else 7
    pi = ratio(quick)
    compiled()
    cpu: dict[str, list[float]] = {}
    times = timed(list(README_COMMANDS), runs, cpu=cpu)
    starts: tuple[tuple[str, dict[str, Any]], ...] = (
        ("run --sim (to ready)", {}),
        ("run --sim, page off (to ready)", {"page": False}),
        ("run --sim (to its page)", {"mark": "web page:"}),
        *((f"run --sim, {title} (to ready)", {"game": game}) for title, game in GAMES.items()),
        (f"run --sim --resume, VNP at {RESUMED_PLACEMENTS} placements (to ready)",
         {"game": "vnp", "resumed": RESUMED_PLACEMENTS}),
        ("run --sim --menu (to the power-on menu)", {"mark": "power-on menu", "menu": True}),
    )  # fmt: skip
    for name, how in starts:
        started = to_ready(runs, **{"page": True, **how})
        times[name], cpu[name] = [s.wall for s in started], [s.cpu for s in started]
    idle = to_ready(3 if quick else 5, page=True, mark="web page:", idle=IDLE_SECONDS)
    rows, verdicts = [], []
    for command, got in times.items():
        spent = cpu[command]
        rows.append(
            f"| companion {command} | {min(got):.0f} / {statistics.median(got):.0f} / "
            f"{max(got):.0f} | {statistics.median(spent):.0f} ({min(spent):.0f}–{max(spent):.0f}) "
            f"| {on_pi(statistics.median(spent) / 1000, pi, 2)} |"
        )
        if command in TARGET_PI4_S:
            verdict = judge([t / 1000 * pi.pi4 for t in spent], TARGET_PI4_S[command], unit="s",
                            digits=2, tolerance=pi.spread)  # fmt: skip
            verdicts.append(
                f"- `{command}` within {TARGET_PI4_S[command]:g} s on a Pi 4: {verdict}"
            )
    idle_pct = [s.idle_cpu / 10 / IDLE_SECONDS * pi.pi4 for s in idle]
    rss = [s.rss for s in idle]
    verdicts.append(
        f"- idle, a Pi 4's CPU at most {TARGET_IDLE_PCT:g} % of a core: "
        f"{judge(idle_pct, TARGET_IDLE_PCT, unit='%', digits=2, tolerance=pi.spread)}"
    )
    verdicts.append(f"- idle, resident memory at most {TARGET_RSS_MB:g} MB: "
                    f"{judge(rss, TARGET_RSS_MB, unit='MB', digits=1)} (peak "
                    f"{statistics.median(s.peak for s in idle):.1f} MB)")  # fmt: skip
    zero = {c: statistics.median(cpu[c]) / 1000 * pi.zero2w for c in TARGET_PI4_S}
    missed = [c for c, t in zero.items() if t > TARGET_PI4_S[c]]
    ready = [zero[c] for c in TARGET_PI4_S if "ready" in c or "menu" in c]
    zero_said = (
        f"On a Zero 2 W (estimated, three times a Pi 4) {len(missed)} of these "
        f"{len(zero)} targets are missed"
        + (f" ({', '.join(f'`{c}`' for c in missed)})" if missed else "")
        + f": a table on a Zero 2 W is ready {min(ready):.1f}–{max(ready):.1f} s after its "
        f"service starts (more after a reboot, its SD card read), and `--help` answers in "
        f"{zero['--help']:.1f} s."
    )
    return f"""## cli_start.py — a command's start, the whole process

`.venv/bin/python bench/cli_start.py [--runs N] [--root DIR] -- COMMAND...` runs each
command (`--help`, `config --help`...) N times interleaved, a fresh interpreter each, and
prints the wall time's min / median / max; `--root` runs another checkout's code with
the same Python (e.g. an older commit's, exported with `git archive`). {runs} runs each,
the project's bytecode compiled first as an install leaves it (`config check` without a
config file: the built-in defaults); `run --sim (to ready)` is `companion run --sim
--no-menu` from its start to its "ready" log line (the referee takes inputs, the OLED
shows the game), with its web page (the default) and without, and to the page's "web
page:" log line (it listens); the default game's (PtiPassPass), then every other game's
to ready (Flip Done with 3 seats, Swiped with 2, the others their default), and a VNP game
resumed at its {RESUMED_PLACEMENTS}th placement (`--resume`, as the service starts: the
first inputs of tests/games/vnp/referee/scenarios/two_players.jsonl). Wall time (this
machine is shared: an idle one is faster) and the process's CPU time; the Pi figures are
the CPU time's. {pi.line()} A start also reads a few MB of bytecode and libraries from
the Pi's SD card, which the ratio does not cover: a cold start (after a reboot) takes
longer than these figures.

| command | wall min / median / max ms | CPU ms (runs) | Pi 4 / Zero 2 W s |
|---|---|---|---|
{chr(10).join(rows)}

Idle: {len(idle)} starts of `run --sim` with its page, left alone {IDLE_SECONDS:g} s after
the page listens: CPU {statistics.median(s.idle_cpu for s in idle):.0f} ms in
{IDLE_SECONDS:g} s here ({statistics.median(idle_pct):.2f} % of a Pi 4 core), resident
memory {statistics.median(rss):.1f} MB.

Targets (on a Pi 4):

{chr(10).join(verdicts)}

{zero_said}

`companion` builds only the typed command's parser (the others are their line of
`--help`), so `--help` imports neither the page (aiohttp, segno), the lab
(multiprocessing, matplotlib), fpdf nor any game. The registry imports a built-in game's
module when the game is first asked for, so `config check` and `run` load the configured
game only (another game's too when the file sets one of its `[game]` keys), never the page
or the lab for `config check` (tests/cli/test_imports.py holds both under `python -X
importtime`). `run` says it is ready once the referee takes inputs and the OLED shows the
game; its page and club link start right after (inputs wait in the inbox meanwhile), the
page's server, aiohttp's import most of all, being the difference between the "ready" and
"to its page" rows; aiohttp is imported without its HTTP client's TLS contexts
(companion/web/aio.py: no certificate store read, 40 ms of CPU here). A built-in game is
found without scanning the installed distributions for other games (importlib.metadata,
25 ms of CPU here); a name no built-in game has, the power-on menu or a command listing
every game scans them. VNP's board needs only its blocks (a piece in one orientation at
every position): the ids, the pieces, those touching an intersection, a placement's
segments and what it forbids are arithmetic on them, for the placements of a new or
resumed game; its 15,157 placements and their conflict tables (120 ms of CPU here, 0.6 s
on a Pi 4) are built after "ready" and the page's start, before the first input
(`warm_up`; inputs wait in the inbox meanwhile), or past a whole game's placements worked
out one by one (the lab's). The power-on menu (a console with an encoder shows it first;
its row is to its first frame) lists every game from what it shows of it (each built-in
game's `facts` module: its title, numbers of players and questions), loading only the
configured game (the config is checked against it); the game chosen is loaded at the
menu's last step, which counts its spots, and games installed on their own are looked for
right after the first frame (tests/cli/test_imports.py holds both).

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
