"""Helpers of the Pi service tests: simulated games as journal scripts, the service as a
subprocess (`python -m companion.service`), replays."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from companion.games.passpass.referee import PassPassReferee
from companion.games.passpass.sim import Pace, SimulatedGame, make_setup
from companion.journal import Input, Setup, TickInput, dump_lines, read_journal

ROOT = Path(__file__).resolve().parent.parent.parent
PINS = ROOT / "hardware" / "pins.toml"


@cache
def simulated_game(seed: int = 5, players: int = 3) -> tuple[Setup, tuple[Input, ...]]:
    """A whole game on a spaced-out virtual table, as its setup and inputs."""
    setup = make_setup("ptipasspass", players, seed)
    result = SimulatedGame(setup, pace=Pace.spaced()).run()  # quiet moments between acts
    return setup, tuple(result.inputs)


def with_clock(inputs: Sequence[Input], period: float = 0.1) -> list[Input]:
    """The inputs with a tick every `period` seconds in between, as a live clock makes."""
    out: list[Input] = []
    t = 0.0
    for record in inputs:
        while t + period < record.t:
            t = round(t + period, 3)
            out.append(TickInput(t))
        out.append(record)
        t = max(t, record.t)
    return out


def write_script(path: Path, setup: Setup | None, inputs: Sequence[Input]) -> Path:
    lines = (
        list(dump_lines(setup, inputs))
        if setup
        else [json.dumps(r.to_json(), separators=(",", ":")) for r in inputs]
    )
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def replay(setup: Setup, inputs: Sequence[Input]) -> PassPassReferee:
    referee = PassPassReferee(setup)
    for record in inputs:
        referee.feed(record)
    return referee


def replay_file(path: Path) -> PassPassReferee:
    journal = read_journal(path)
    return replay(journal.setup, journal.inputs)


def service_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "companion.service", *args]


def service_env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "COMPANION_CONFIG")
    }
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("DISPLAY", None)
    env.update(extra)
    return env


def run_service(
    *args: str, timeout: float = 30, stdin: str | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """`python -m companion.service ARGS` to its end (``stdin``: the text it reads)."""
    return subprocess.run(
        service_command(*args),
        input=stdin,
        env=service_env(**env),
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def without(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e.get("kind") != kind]
