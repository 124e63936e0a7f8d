"""Fault injection (issue, items 3 and 5): a whole game's journal, cut at every byte and
changed at hundreds of random bytes, each started through the code `run --resume` uses
(`open_session`). Every start either resumes the game of the valid prefix (the referee
equal to one fed that prefix directly) or reports the damage (a torn line's warning, the
damaged journal kept in archive/, a torn setup set aside); never a traceback, never a
different winner.

The journal is a real game: two bots play PtiPassPass on the simulated table through the
referee, and `JournalWriter` writes it (with its numbers and checksums). fsync is a no-op
here: what is durable is tested in test_journal_files.py; here it would only cost time.

Issue 24: a line removed, repeated or moved (swapped with the next) is found like a changed
one, from its number: in that game at every line through `run --resume`, and in the demo
journal of every game at some hundred places through `companion replay`'s reading and the
service's repair. The one case nothing can tell is the last line removed: the journal is
then the one a power cut just before that line leaves.
"""

from __future__ import annotations

import argparse
import copy
import logging
import os
import queue
import random
import shutil
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.config import load_config
from companion.config.model import Config
from companion.games.passpass.referee import PassPassReferee
from companion.games.passpass.sim import SimulatedGame, make_setup
from companion.journal import (
    Input,
    JournalError,
    JournalWriter,
    ResumeInput,
    Setup,
    checked,
    dump_lines,
    read_journal,
    read_lines,
)
from companion.run.game_start import open_session
from companion.session import Session, replay

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
        with Logged() as logged:
            session, _ = open_session(self.config, self.args, self.data_dir, inbox, sim=True)
        session.close()
        archive = self.data_dir / "archive"
        kept = sorted(p.name for p in archive.iterdir()) if archive.is_dir() else []
        return Outcome(session.referee, session.damage, kept, logged.lines)


class Logged(logging.Handler):
    """The warnings and errors the service logs (the `companion` logger) while in use."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())

    def __enter__(self) -> Logged:
        logging.getLogger("companion").addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        logging.getLogger("companion").removeHandler(self)


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


# Issue 24: a line removed, repeated or moved is found from its number.

KINDS = ("removed", "repeated", "swapped")


def mutated(lines: list[bytes], kind: str, at: int) -> tuple[list[bytes], int | None]:
    """``lines`` with line ``at`` (0: the setup) removed, repeated, or swapped with the
    next; and the line (from 1) where the result stops being the journal as written, None
    when nothing can tell (the last line removed: what a cut before it leaves)."""
    out = list(lines)
    if kind == "removed":
        del out[at]
        return out, (at + 1 if at < len(lines) - 1 else None)
    if kind == "repeated":
        out.insert(at, lines[at])
        return out, at + 2
    out[at], out[at + 1] = lines[at + 1], lines[at]
    return out, at + 1


def places(lines: list[bytes], kind: str) -> range:
    """Every line that can be removed, repeated, or swapped with the next."""
    return range(len(lines) - (kind == "swapped"))


@pytest.mark.parametrize("kind", KINDS)
def test_a_line_removed_repeated_or_moved_resumes_before_it_and_says_so(
    original: Original, table: Start, kind: str
) -> None:
    lines = original.data.splitlines(keepends=True)
    named_lines = 0
    for at in places(lines, kind):
        journal, named = mutated(lines, kind, at)
        outcome = table(b"".join(journal))
        where = f"line {at + 1} {kind}"
        if named is None:  # the last line removed: as if the power went before it was written
            assert outcome.damage is None, where
            assert not any("game.jsonl:" in w for w in outcome.warnings), where
            _check_resumed(outcome, original, len(lines) - 2, table.data_dir, where)
            continue
        named_lines += 1
        (said,) = [w for w in outcome.warnings if "is damaged" in w]
        assert said.startswith(f"{table.data_dir / 'game.jsonl'}:{named} is damaged ("), where
        assert any("-damaged-" in n for n in outcome.archived), where
        if named == 1:  # no setup on line 1: no game to resume, a new one starts
            assert "the first line must be the setup" in said, where
            assert outcome.new_game and outcome.damage is not None and outcome.damage.setup, where
            continue
        assert f"is numbered {checked(journal[named - 1]).seq} where {named} was due" in said
        if outcome.damage is not None:  # on the OLED: not after a game over (archived)
            assert (outcome.damage.line, outcome.damage.inputs) == (named, named - 2), where
        _check_resumed(outcome, original, named - 2, table.data_dir, where)
    assert named_lines == len(places(lines, kind)) - (kind == "removed")


@dataclass
class Demo:
    """A game's demo journal, as `companion demo` writes it (numbered, checksummed)."""

    game: str
    setup: Setup
    inputs: list[Input]
    lines: list[bytes]


@pytest.fixture(scope="module")
def demos() -> list[Demo]:
    made = []
    for name in games.names():
        game = games.get(name)
        setup = game.simulated_setup(game.default_seats, 1)
        inputs = list(game.simulate(setup).inputs)
        lines = [line.encode() + b"\n" for line in dump_lines(setup, inputs, checksum=True)]
        made.append(Demo(name, setup, inputs, lines))
    return made


def test_a_line_removed_repeated_or_moved_in_any_games_journal_is_refused_naming_it(
    demos: list[Demo],
) -> None:
    """What `companion replay` and `play --sim --resume` read: some 20 places a game and a
    kind (the first two lines and the last among them), each refused naming the first line
    out of place, except the last line removed (read as the game before it)."""
    rng = random.Random(24)
    caught: Counter[str] = Counter()
    tried: Counter[str] = Counter()
    for kind in KINDS:
        for demo in demos:
            last = places(demo.lines, kind)[-1]
            for at in (0, 1, last, *rng.sample(range(2, last), 17)):
                journal, named = mutated(demo.lines, kind, at)
                where = f"{demo.game}: line {at + 1} {kind}"
                tried[kind] += 1
                try:
                    read = read_lines(journal, "game.jsonl")
                except JournalError as exc:
                    assert named is not None, where
                    said = str(exc)
                    assert said.startswith(f"game.jsonl:{named}: "), f"{where}: {said}"
                    seq = checked(journal[named - 1]).seq
                    reason = (
                        "the first line must be the setup"
                        if named == 1
                        else f"it is numbered {seq} where {named} was due"
                    )
                    assert reason in said, f"{where}: {said}"
                    caught[kind] += 1
                    continue
                assert named is None, f"{where}: read as another game"
                assert read.inputs == demo.inputs[:-1] and read.warnings == [], where
    assert tried == Counter(removed=100, repeated=100, swapped=100)
    assert caught == tried - Counter(removed=len(demos))  # each game's last line removed


def test_run_resume_of_any_games_journal_with_a_line_out_of_place_goes_on_numbering(
    demos: list[Demo], tmp_path: Path
) -> None:
    """The service's repair (`replay(..., repair=True)`): the journal becomes the lines
    before the one named, the whole file is kept in archive/, and the lines the resumed
    game appends go on from the last kept line's number."""
    rng = random.Random(7)
    path = tmp_path / "game.jsonl"
    for demo in demos:
        for kind in KINDS:
            at = rng.randrange(1, len(demo.lines) - 1)
            journal, named = mutated(demo.lines, kind, at)
            assert named is not None
            path.write_bytes(b"".join(journal))
            where = f"{demo.game}: line {at + 1} {kind}"
            replayed = replay(path, repair=True)
            k = named - 2
            assert replayed.damage is not None and replayed.damage.line == named, where
            assert replayed.inputs == k and replayed.archived is not None, where
            assert replayed.archived.read_bytes() == b"".join(journal), where
            assert path.read_bytes() == b"".join(demo.lines[: k + 1]), where
            session = Session.go_live(replayed)
            for record in demo.inputs[k : k + 3]:
                session.feed(record)
            session.close()
            again = read_journal(path)
            assert again.warnings == [], where
            assert again.inputs[:k] == demo.inputs[:k], where
            assert isinstance(again.inputs[k], ResumeInput), where
            assert again.inputs[k + 1 :] == demo.inputs[k : k + 3], where
            shutil.rmtree(tmp_path / "archive")
