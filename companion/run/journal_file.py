"""The data directory's journal file: does it hold a game, how does it stand, archive it.

A finished game's journal is moved to ``archive/`` so the next game starts a new file; an
unfinished one is never overwritten (`in_the_way`). A journal that holds no game is moved
to ``archive/`` too, so the table can start (`clear_torn_setup`): one whose only line is
a torn setup (a cut during a new game's first write), or whose setup line is damaged or
starts no game. A journal damaged further on is replayed up to the damage (`recover`):
the table is never dead for a bad line.

A finished game is archived only once its journal ends with its end-of-game line and, with
``[club]``, its result waits in the club's outbox (`archive_finished`): a cut just after
the game's last input may have kept either from being written, and the journal is then
their record.

`recover` is the service's one pass over the journal. The power-on menu asks it whether
the game is finished (`recover`) before the players choose to resume it; the
replayed game is kept here until `take_recovered` hands it to the session, so the menu's
look and the resume are still one pass, and the damage it found still reaches the OLED.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from companion.config.club import ClubConfig
from companion.journal import Damage
from companion.session import (
    Replayed,
    complete,
    replay,
    set_aside,
    set_aside_damaged,
    set_aside_torn_setup,
    setup_problem,
)

log = logging.getLogger("companion")

_kept: dict[Path, tuple[tuple[int, int, int], Replayed]] = {}
"""The journal `recover` replayed last, by path, with the file's identity then (inode,
size, modification time): handed over only while the file is unchanged."""
_notes: dict[Path, Damage] = {}
"""A journal set aside because its setup was damaged: shown when the new game starts."""


def journal_live(path: Path) -> bool:
    """Does ``path`` hold a journal (a file with something in it)?"""
    return path.exists() and path.stat().st_size > 0


def recover(path: Path) -> Replayed:
    """The journal's game, replayed in one pass up to any damage (`_replayed`), kept for
    `take_recovered`."""
    replayed = _replayed(path)
    _kept[path] = (_identity(path), replayed)
    return replayed


def _replayed(path: Path) -> Replayed:
    """The journal's game, replayed in one pass up to any damage: a damaged line is kept
    with the whole file in ``archive/`` (with a note saying why), the journal becomes the
    lines before it, and one log line names the line and the reason (never its content).
    What else the replay noted (a torn last line dropped) is one log line each."""
    replayed = replay(path, repair=True)
    for note in replayed.notes:
        log.warning("%s", note)
    damage = replayed.damage
    if damage is not None:
        log.error(
            "%s:%d is damaged (%s): the game resumed from the %d inputs before it; the "
            "journal as it was is %s",
            path,
            damage.line,
            damage.reason,
            damage.inputs,
            replayed.archived,
        )
    return replayed


def take_recovered(path: Path) -> Replayed:
    """The journal's game as `recover` left it, if the file has not changed since (the
    menu's look), else replayed now."""
    kept = _kept.pop(path, None)
    if kept is not None and kept[0] == _identity(path):
        return kept[1]
    return _replayed(path)


def _identity(path: Path) -> tuple[int, int, int]:
    st = os.stat(path)
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def archive(path: Path) -> Path:
    """Move a journal aside (``archive/game-<time>.jsonl``, 0700): a finished game's
    (`archive_finished`), or an unfinished one the players replaced with a new game."""
    _kept.pop(path, None)
    return set_aside(path)


def archive_finished(replayed: Replayed, club: ClubConfig | None) -> Path:
    """Archive a finished game's journal once it ends with its end-of-game line
    (`session.complete`) and, with ``club``, its result is kept for the club
    (`companion.club.outbox.keep_finished`: sent by the next link, unless it was)."""
    complete(replayed)
    if club is not None:
        from companion.club.outbox import keep_finished

        keep_finished(club, replayed.path.parent, replayed.referee)
    return archive(replayed.path)


def clear_torn_setup(path: Path) -> None:
    """Set aside a journal that holds no game, saying so in one log line: only a torn
    setup line, or a setup line that is damaged or starts no game (its note then waits
    for the new game's OLED: `take_note`). The table then starts as if there were no
    journal."""
    moved = set_aside_torn_setup(path)
    if moved is not None:
        log.warning(
            "%s held only a torn setup line (a cut during a new game's first write): no "
            "game was started; moved to %s",
            path,
            moved,
        )
        return
    if not path.is_file() or not journal_live(path):
        return
    damage = setup_problem(path)
    if damage is None:
        return
    moved = set_aside_damaged(path, 0, damage)
    _notes[path] = damage
    log.error(
        "%s:%d is damaged (%s): no game can be resumed from it; a new game starts; the "
        "journal as it was is %s",
        path,
        damage.line,
        damage.reason,
        moved,
    )


def take_note(path: Path) -> Damage | None:
    """The damage of a journal `clear_torn_setup` set aside, once (for the OLED)."""
    return _notes.pop(path, None)


def in_the_way(path: Path) -> FileExistsError:
    """The error for a journal that holds a game nobody asked to resume or replace."""
    return FileExistsError(f"{path} holds a game: pass --resume to continue it, or move it away")
