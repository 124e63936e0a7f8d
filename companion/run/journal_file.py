"""The data directory's journal file: does it hold a game, how does it stand, archive it.

A finished game's journal is moved to ``archive/`` so the next game starts a new file; an
unfinished one is never overwritten (`in_the_way`). A journal that is only a torn setup
line (a cut during a new game's first write) holds no game: `clear_torn_setup` moves it to
``archive/`` too, so the table can start.
"""

from __future__ import annotations

import logging
from pathlib import Path

from companion.games import TableReferee, make_referee
from companion.journal import read_journal
from companion.session import set_aside, set_aside_torn_setup

log = logging.getLogger("companion")


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
    """Move a finished game's journal aside (``archive/game-<time>.jsonl``, 0700)."""
    return set_aside(path)


def clear_torn_setup(path: Path) -> None:
    """Set aside a journal that is only a torn setup line, saying so in one log line: the
    table then starts as if there were no journal."""
    moved = set_aside_torn_setup(path)
    if moved is not None:
        log.warning(
            "%s held only a torn setup line (a cut during a new game's first write): no "
            "game was started; moved to %s",
            path,
            moved,
        )


def in_the_way(path: Path) -> FileExistsError:
    """The error for a journal that holds a game nobody asked to resume or replace."""
    return FileExistsError(f"{path} holds a game: pass --resume to continue it, or move it away")
