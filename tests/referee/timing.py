"""Helpers of the timing-invariance property: play a game at a given pace, and shrink a
failing one to a short journal kept in tests/referee/regressions/.

A regression file is a journal (`NAME.jsonl`) and the engine events the simulated people
decided up to the first one the referee got wrong (`NAME.expected.json`): replaying the
journal must give exactly those events, in that order.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.games.passpass.referee import PassPassReferee
from companion.games.passpass.sim import Diverged, Noise, Pace, SimResult, SimulatedGame
from companion.journal import Input, Setup, dump_lines

REGRESSIONS = Path(__file__).parent / "regressions"

Referee = Callable[[Setup], Any]
"""Makes a referee for a setup (the current PassPassReferee, or another to compare)."""


def engine_events(referee: Any) -> list[dict[str, Any]]:
    return [e.to_json() for e in referee.log]


def replay(setup: Setup, inputs: Sequence[Input], make: Referee = PassPassReferee) -> Any:
    referee = make(setup)
    for record in inputs:
        referee.feed(record)
    return referee


def first_wrong(made: list[dict[str, Any]], decided: list[dict[str, Any]]) -> int | None:
    """The index of the first event the referee made that the people did not decide."""
    for i, event in enumerate(made):
        if i >= len(decided) or event != decided[i]:
            return i
    return None


def shrink(
    setup: Setup,
    inputs: Sequence[Input],
    decided: list[dict[str, Any]],
    make: Referee = PassPassReferee,
) -> tuple[list[Input], list[dict[str, Any]]]:
    """The shortest prefix of `inputs` on which the referee already goes wrong, and the
    decided events up to and including the one it got wrong."""
    low, high = 0, len(inputs)  # wrong with inputs[:high]; not known for low
    while high - low > 1:
        mid = (low + high) // 2
        if first_wrong(engine_events(replay(setup, inputs[:mid], make)), decided) is None:
            low = mid
        else:
            high = mid
    prefix = list(inputs[:high])
    index = first_wrong(engine_events(replay(setup, prefix, make)), decided)
    assert index is not None, "the full journal must go wrong"
    return prefix, decided[: index + 1]


def save_regression(name: str, setup: Setup, inputs: Sequence[Input], expected: list[Any]) -> Path:
    REGRESSIONS.mkdir(exist_ok=True)
    path = REGRESSIONS / f"{name}.jsonl"
    path.write_text("".join(line + "\n" for line in dump_lines(setup, inputs)), encoding="utf-8")
    expected_text = json.dumps(expected, indent=1, ensure_ascii=False) + "\n"
    path.with_suffix(".expected.json").write_text(expected_text, encoding="utf-8")
    return path


def play(setup: Setup, pace: Pace, noise: Noise, name: str) -> SimResult:
    """One simulated game; a referee that goes wrong is shrunk to a regression file."""
    game = SimulatedGame(setup, pace=pace, noise=noise)
    try:
        return game.run()
    except Diverged as exc:
        decided = [e.to_json() for e in game.decided]
        prefix, expected = shrink(setup, game.inputs, decided)
        path = save_regression(name, setup, prefix, expected)
        raise AssertionError(f"{exc}; shrunk to {len(prefix)} inputs in {path}") from exc
