"""Fault injection (issue, items 3 and 5): a whole game's journal, cut at every byte and
changed at hundreds of random bytes, each started through the code `run --resume` uses
(`open_session`). Every start either resumes the game of the valid prefix (the referee
equal to one fed that prefix directly) or reports the damage (a torn line's warning, the
damaged journal kept in archive/, a torn setup set aside); never a traceback, never a
different winner.

The journal is a real game: two bots play PtiPassPass on the simulated table through the
referee, and `JournalWriter` writes it (with its checksums). fsync is a no-op here: what is
durable is tested in test_journal_files.py; here it would only cost time.
"""

from __future__ import annotations

import argparse
import copy
import os
import queue
import random
import shutil
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.config import load_config
from companion.config.model import Config
from companion.journal import JournalWriter, ResumeInput, read_journal
from companion.referee.passpass import PassPassReferee
from companion.run.game_start import open_session
from companion.sim.driver import SimulatedGame, make_setup

SEED = 28
"""A short two-player game (44 inputs, 3.7 kB): every byte of it is a start."""
MUTATIONS = 300
WHITESPACE = b" \t\n\r\x0b\x0c"


@dataclass
class Original:
    data: bytes
    ends: list[int]
    """Where each line's content ends (before its newline); line 0 is the setup."""
    expected: list[tuple[Any, ...]]
    """The referee's `moment()` after k inputs and a resume as journaled, for each k."""
    winner: int | None
    decided: int
    """How many inputs the game needs to be over (any after it only clear the table)."""


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> Original:
    game = SimulatedGame(make_setup("ptipasspass", 2, seed=SEED)).run()
    assert game.referee is not None and game.referee.finished
    path = tmp_path_factory.mktemp("original") / "game.jsonl"
    with JournalWriter(path) as writer:
        writer.write(game.setup)
        for record in game.inputs:
            writer.write(record)
    data = path.read_bytes()
    ends = [i for i, byte in enumerate(data) if byte == ord("\n")]
    referee = PassPassReferee(game.setup)
    expected, decided = [], None
    for k in range(len(game.inputs) + 1):
        if k:
            referee.feed(game.inputs[k - 1])
        if referee.finished and decided is None:
            decided = k
        resumed = copy.deepcopy(referee)
        last = game.inputs[k - 1].t if k else game.setup.t
        resumed.feed(ResumeInput(last, dict(resumed.observed.uids)))
        expected.append(resumed.moment())
    assert decided is not None
    return Original(data, ends, expected, game.referee.state.winner, decided)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Start]:
    folder = tmp_path_factory.mktemp("table")
    (folder / "companion.toml").write_text('[game]\nseats = ["Ana", "Bob"]\nseed = 1\n')
    real = os.fsync
    os.fsync = lambda fd: None  # type: ignore[assignment]
    try:
        yield Start(load_config(folder / "companion.toml"), folder / "data")
    finally:
        os.fsync = real


class Start:
    """One power-on with `run --resume` on a data directory holding given bytes."""

    def __init__(self, config: Config, data_dir: Path) -> None:
        self.config = config
        self.data_dir = data_dir
        self.args = argparse.Namespace(resume=True, sim_input=None)

    def __call__(self, journal: bytes) -> Outcome:
        shutil.rmtree(self.data_dir, ignore_errors=True)
        self.data_dir.mkdir(mode=0o700)
        path = self.data_dir / "game.jsonl"
        path.write_bytes(journal)
        inbox: queue.Queue[Any] = queue.Queue()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            session, _ = open_session(self.config, self.args, self.data_dir, inbox, sim=True)
        session.close()
        archive = self.data_dir / "archive"
        kept = sorted(p.name for p in archive.iterdir()) if archive.is_dir() else []
        return Outcome(session.referee, session.damage, kept, [str(w.message) for w in caught])


@dataclass
class Outcome:
    referee: Any
    damage: Any
    archived: list[str]
    warnings: list[str]

    @property
    def new_game(self) -> bool:
        return self.referee.setup.seats == ("Ana", "Bob") and self.referee.setup.seed == 1


def lines_complete(original: Original, cut: int) -> int:
    """How many whole lines (setup included) the first `cut` bytes hold."""
    return sum(1 for end in original.ends if end <= cut)


def test_a_journal_cut_at_every_byte_resumes_its_prefix(original: Original, table: Start) -> None:
    data = original.data
    for cut in range(len(data) + 1):
        outcome = table(data[:cut])
        whole = lines_complete(original, cut)
        where = f"cut at byte {cut} of {len(data)}"
        if whole == 0:  # no setup: a new game (a torn setup is set aside, said in the log)
            assert outcome.new_game and outcome.damage is None, where
            torn_setup = [n for n in outcome.archived if "-torn-setup-" in n]
            assert len(torn_setup) == (cut > 0) == len(outcome.archived), where
            continue
        k = whole - 1
        torn = cut > original.ends[whole - 1] + 1
        assert outcome.damage is None, where
        assert any("torn last line" in w for w in outcome.warnings) == torn, where
        _check_resumed(outcome, original, k, table.data_dir, where)


def test_a_journal_with_a_changed_byte_resumes_before_it_or_says_so(
    original: Original, table: Start
) -> None:
    data = original.data
    rng = random.Random(5)
    for _ in range(MUTATIONS):
        at = rng.randrange(len(data))
        byte = rng.choice([b for b in range(256) if b != data[at]])
        outcome = table(data[:at] + bytes([byte]) + data[at + 1 :])
        line = sum(1 for end in original.ends if end < at)  # 0: the setup
        where = f"byte {at} (line {line + 1}) changed to 0x{byte:02X}"
        if line == 0:  # the setup: no game to resume; kept in archive/, a new game
            assert outcome.new_game, where
            assert outcome.damage is not None and outcome.damage.setup, where
            assert any("-damaged-" in n for n in outcome.archived), where
            continue
        last = at == len(data) - 1
        if last and byte in WHITESPACE:  # the final newline became a blank: nothing lost
            _check_resumed(outcome, original, line, table.data_dir, where)
            continue
        k = line - 1
        damaged = any("-damaged-" in n for n in outcome.archived)
        assert damaged or any("torn last line" in w for w in outcome.warnings), where
        if outcome.damage is not None:  # on the OLED: not after a game over (archived)
            assert outcome.damage.line == line + 1 and outcome.damage.inputs == k, where
            assert any("-damaged-" in n for n in outcome.archived), where
        _check_resumed(outcome, original, k, table.data_dir, where)


def _check_resumed(
    outcome: Outcome, original: Original, k: int, data_dir: Path, where: str
) -> None:
    """The game of the first k inputs goes on; or, when they end it, it was archived with
    the original's winner and a new game started."""
    if k >= original.decided:
        assert outcome.new_game, where
        (finished,) = [n for n in outcome.archived if "-damaged-" not in n]
        archived = data_dir / "archive" / finished
        referee = PassPassReferee(read_journal(archived).setup)
        for record in read_journal(archived).inputs:
            referee.feed(record)
        assert referee.finished and referee.state.winner == original.winner, where
        return
    assert outcome.referee.moment() == original.expected[k], where
    assert not outcome.referee.finished, where
