"""Timing invariance (docs/table.md, "People's pace"): for the same decisions, any
human-plausible timing gives the same verdicts, transfers, reveals and winner, and a
journal replays the same with or without ticks.

Each seed plays one game twice with the same bots: on a spaced-out, ticked, clean table,
and at human pace (announce before, with or after the drop, calls anywhere in the window
and within 300 ms of each other, one token at a time, no ticks) on a rough table
(flicker, duplicated reports, stray tags, presses out of turn). 2,000 games in all, of
2 to 6 seats, both rule sets. A game the referee gets wrong is shrunk to a short journal
in tests/referee/regressions/ (see timing.py), which the last test then replays forever,
with the journals kept there of other games' faults (each through its own game's referee:
flipdone-3-seed1-off-mat is a Flip Done game with a tag put on reader 12, off its 3 x 3
mat, then taken off, which used to raise at every replay and resume).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.games import make_referee
from companion.games.passpass.sim import Noise, Pace, make_setup
from companion.journal import Input, TickInput, read_journal
from tests.referee.timing import REGRESSIONS, engine_events, play, replay

CONFIGS = [("ptipasspass", n) for n in range(2, 7)] + [("phipasspass", n) for n in range(3, 7)]
BLOCKS = 10
PER_BLOCK = 100


def with_random_ticks(inputs: list[Input], rng: random.Random) -> list[Input]:
    """The same inputs with ticks at random moments between them."""
    out: list[Input] = []
    last = 0.0
    for record in inputs:
        for _ in range(rng.randint(0, 2)):
            out.append(TickInput(round(rng.uniform(last, record.t), 3)))
        out.append(record)
        last = record.t
    return sorted(out, key=lambda r: r.t)


@pytest.mark.parametrize("block", range(BLOCKS))
def test_any_human_timing_gives_the_same_game(block: int) -> None:
    held = ticks = 0
    for seed in range(block * PER_BLOCK, (block + 1) * PER_BLOCK):
        game, players = CONFIGS[seed % len(CONFIGS)]
        setup = make_setup(game, players, seed)
        name = f"{game}-{players}-seed{seed}"
        spaced = play(setup, Pace.spaced(), Noise(), f"{name}-spaced")
        human = play(setup, Pace(), Noise.rough(), f"{name}-human")
        assert spaced.referee is not None and human.referee is not None
        assert human.referee.finished and spaced.referee.finished
        assert engine_events(human.referee) == engine_events(spaced.referee), name
        assert human.referee.result()["winner"] == spaced.referee.result()["winner"]
        held += sum(e["kind"] == "held" for e in human.referee.events)
        ticks += sum(isinstance(r, TickInput) for r in human.inputs)
    assert held > PER_BLOCK // 2  # announcements before the drop really happened
    assert ticks == PER_BLOCK  # human pace: only the clock after the last act


@pytest.mark.parametrize("seed", range(20))
def test_a_journal_replays_the_same_with_or_without_ticks(seed: int) -> None:
    game, players = CONFIGS[seed % len(CONFIGS)]
    setup = make_setup(game, players, seed)
    spaced = play(setup, Pace.spaced(), Noise.rough(), f"{game}-{players}-ticks{seed}")
    assert spaced.referee is not None
    live = spaced.referee.result()
    ticks = [r for r in spaced.inputs if isinstance(r, TickInput)]
    assert len(ticks) > 20
    without = [r for r in spaced.inputs if not isinstance(r, TickInput)]
    without.append(ticks[-1])  # the table's clock after the last act
    assert replay(setup, without).result() == live  # the same events at the same times
    more = with_random_ticks(list(spaced.inputs), random.Random(seed))
    assert replay(setup, more).result() == live


def regressions() -> list[Path]:
    return sorted(REGRESSIONS.glob("*.jsonl"))


@pytest.mark.parametrize("path", regressions(), ids=lambda p: p.stem)
def test_regression_journals_give_the_decided_game(path: Path) -> None:
    journal = read_journal(path)
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    referee = make_referee(journal.setup)
    for record in journal.inputs:
        referee.feed(record)
    assert engine_events(referee)[: len(expected)] == expected
