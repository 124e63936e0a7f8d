"""The data directory's journal file: does it hold a game, how does it stand, archive it.

A finished game's journal is moved to ``archive/`` so the next game starts a new file; an
unfinished one is never overwritten (`in_the_way`).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from companion.games import TableReferee, make_referee
from companion.journal import read_journal


def journal_live(path: Path) -> bool:
    """Does ``path`` hold a journal (a file with something in it)?"""
    return path.exists() and path.stat().st_size > 0


def replay_journal(path: Path) -> TableReferee:
    """The referee after every input of the journal at ``path``."""
    journal = read_journal(path)
    referee = make_referee(journal.setup)
    for record in journal.inputs:
        referee.feed(record)
    return referee


def archive(path: Path) -> Path:
    """Move a finished game's journal aside (``archive/game-<time>.jsonl``)."""
    folder = path.parent / "archive"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{path.stem}-{time.strftime('%Y%m%d-%H%M%S')}{path.suffix}"
    os.replace(path, target)
    return target


def in_the_way(path: Path) -> FileExistsError:
    """The error for a journal that holds a game nobody asked to resume or replace."""
    return FileExistsError(f"{path} holds a game: pass --resume to continue it, or move it away")
