"""A live game: every input is journaled (and fsync'd) before the referee takes it.

So killing the process at any moment loses no input, and `resume` rebuilds the game by
replaying the journal through the same referee, then goes on live. A torn last line (a
power cut mid-write) is dropped with a warning and cut from the file before appending. A
journal whose only line is a torn setup (a cut during a new game's first write) holds no
game: it is moved aside to ``archive/`` (`set_aside_torn_setup`) and a new game may start.
The journal stays 0600 through the rewrite, whose rename is fsync'd in its folder.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.games import TableReferee, make_referee
from companion.journal import (
    Input,
    JournalError,
    JournalWriter,
    ResumeInput,
    Setup,
    TornSetup,
    dump_lines,
    fsync_dir,
    make_private_dirs,
    open_private,
    read_journal,
    read_lines,
)

TORN_SETUP_HEAD = 1 << 20
"""How much of a journal `set_aside_torn_setup` reads: a setup line is far shorter, so a
file longer than this holds more than a setup."""


class NoGameStarted(JournalError):
    """`resume` of a journal whose only line was a torn setup: it was moved aside."""


class Session:
    """A referee with its journal. Use `start` for a new game, `resume` after a cut."""

    def __init__(self, referee: TableReferee, writer: JournalWriter) -> None:
        self.referee = referee
        self.writer = writer

    @classmethod
    def start(cls, path: str | os.PathLike[str], setup: Setup) -> Session:
        if Path(path).exists() and Path(path).stat().st_size:
            raise FileExistsError(f"{path} already holds a game: resume it or choose another")
        referee = make_referee(setup)
        writer = JournalWriter(path)
        writer.write(setup)
        return cls(referee, writer)

    @classmethod
    def resume(
        cls, path: str | os.PathLike[str], live_table: Mapping[int, frozenset[str]] | None = None
    ) -> Session:
        """Replay the journal, then record where it resumed with what the readers see now
        (`live_table`; None means: as last journaled). A journal whose only line is a
        torn setup is moved aside and `NoGameStarted` says where."""
        try:
            journal = read_journal(path)
        except TornSetup as exc:
            moved = set_aside(Path(path), "torn-setup")
            raise NoGameStarted(
                f"{exc}; moved to {moved}: start a new game (leave out --resume)"
            ) from exc
        for warning in journal.warnings:
            warnings.warn(warning, stacklevel=2)
        if journal.warnings:  # rewrite without the torn line, atomically
            _rewrite(Path(path), journal.setup, journal.inputs)
        referee = make_referee(journal.setup)
        for record in journal.inputs:
            referee.feed(record)
        session = cls(referee, JournalWriter(path))
        last = journal.inputs[-1].t if journal.inputs else journal.setup.t
        table = dict(referee.observed.uids) if live_table is None else dict(live_table)
        session.feed(ResumeInput(last, table))
        return session

    def feed(self, record: Input) -> list[dict[str, Any]]:
        """Journal first, then judge: an input the referee saw is always on disk."""
        self.writer.write(record)
        return self.referee.feed(record)

    def close(self) -> None:
        self.writer.close()


def _rewrite(path: Path, setup: Setup, inputs: list[Input]) -> None:
    """Replace the journal by these records, atomically: a 0600 temporary file, fsync'd,
    renamed over it, and the rename fsync'd in the folder."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open_private(tmp, append=False) as f:
        for line in dump_lines(setup, inputs):
            f.write(line + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)


def torn_setup(path: Path) -> bool:
    """Is the journal at ``path`` only a torn setup line (no game was started)? Reads at
    most `TORN_SETUP_HEAD` bytes, so a long journal costs nothing."""
    with open(path, "rb") as f:
        head = f.read(TORN_SETUP_HEAD + 1)
    lines = [line for line in head.split(b"\n") if line.strip()]
    if len(head) > TORN_SETUP_HEAD or len(lines) != 1:
        return False
    try:
        read_lines(lines, str(path))
    except TornSetup:
        return True
    except JournalError:
        return False
    return False


def set_aside_torn_setup(path: Path) -> Path | None:
    """Move a journal that is only a torn setup line to ``archive/`` (named
    ``<stem>-torn-setup-<time>``) so a new game can start; where it went, or None when
    ``path`` is not one (or does not exist)."""
    if not path.is_file() or not torn_setup(path):
        return None
    return set_aside(path, "torn-setup")


def set_aside(path: Path, reason: str | None = None) -> Path:
    """Move a journal to the ``archive/`` folder beside it (0700), as
    ``<stem>[-<reason>]-<time><suffix>`` (never over another file); both folders'
    entries are fsync'd."""
    folder = path.parent / "archive"
    make_private_dirs(folder)
    stem = path.stem if reason is None else f"{path.stem}-{reason}"
    base = f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}"
    target = folder / f"{base}{path.suffix}"
    count = 1
    while target.exists():
        count += 1
        target = folder / f"{base}-{count}{path.suffix}"
    os.replace(path, target)
    fsync_dir(folder)
    fsync_dir(path.parent)
    return target
