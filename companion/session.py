"""A live game: every input is journaled (and fsync'd) before the referee takes it.

So killing the process at any moment loses no input, and `resume` rebuilds the game by
replaying the journal through the same referee, then goes on live. A torn last line (a
power cut mid-write) is dropped with a warning and cut from the file before appending.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.games import TableReferee, make_referee
from companion.journal import (
    Input,
    JournalWriter,
    ResumeInput,
    Setup,
    dump_lines,
    read_journal,
)


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
        (`live_table`; None means: as last journaled)."""
        journal = read_journal(path)
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
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for line in dump_lines(setup, inputs):
            f.write(line + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
