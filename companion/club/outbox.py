"""What a table keeps on disk for the club: its results until the broker has them, and the
evening's games and results it publishes again at each connection (docs/club.md).

In the data directory: ``club-outbox/`` (one result a file, removed once the broker
acknowledged it), ``club-results.json`` (the results of the last `RECENT` seconds, the
retained ``results``) and ``club-games.json`` (the games of the last `RECENT` seconds as
each started, the retained ``games``). Every file is written whole (a temporary file
fsync'd, then renamed, the folder fsync'd), so a cut leaves the old one or the new one.

A game's result id is its table's name and the game's own id (`journal.game_id`, from its
setup line): the same at every replay of the journal, so a result kept again after a cut
(`keep_finished`, from the journal at the next start) is the same result, counted once by
the board, and sent only when neither the outbox nor the evening list has it already.
No paho here: the service recovers a result before any link exists.
"""

from __future__ import annotations

import json
import logging
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion import games
from companion.club.topics import EVENING_GAMES, announcement, recent, result_record
from companion.config.club import ClubConfig
from companion.contract.game import TableReferee
from companion.journal import Setup, fsync_dir, game_id, make_private_dirs

log = logging.getLogger("companion.club")

OUTBOX = "club-outbox"
"""The folder of the data directory where results wait for the broker's PUBACK."""
EVENING = "club-results.json"
"""In the data directory: the table's recent results, its retained ``results``."""
GAMES_FILE = "club-games.json"
"""In the data directory: the table's recent games as each started, its retained ``games``."""


def result_id(table: str, setup: Setup) -> str:
    """The id of a game's result and of its announcement: the table's name and the game's
    own id (the same after any cut, at every replay of its journal)."""
    return f"{table}-{game_id(setup)}"


def now_utc() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def game_result(table: str, referee: TableReferee, ended: str) -> dict[str, Any]:
    """The club's record of a finished game (`topics.result_record`)."""
    setup = referee.setup
    return result_record(
        result_id(table, setup),
        table,
        setup.game,
        games.get(setup.game).title,
        dict(setup.rules) if setup.rules else None,
        list(referee.names),
        referee.result(),
        referee.now - setup.t,
        ended,
    )


def game_announcement(table: str, referee: TableReferee, started: str) -> dict[str, Any]:
    """The club's announcement of a game (`topics.announcement`): its result's id."""
    setup = referee.setup
    return announcement(result_id(table, setup), setup.game, list(referee.names), started)


def write_whole(path: Path, data: bytes) -> None:
    """``data`` in ``path``, whole or not at all (a temporary file fsync'd, renamed)."""
    temporary = path.with_suffix(".tmp")
    with open(temporary, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    temporary.replace(path)
    fsync_dir(path.parent)


class Outbox:
    """Results waiting for the broker: one JSON file each, written whole and removed once
    acknowledged."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, record_id: str) -> Path:
        return self.folder / f"{record_id}.json"

    def put(self, record: dict[str, Any]) -> Path:
        make_private_dirs(self.folder)  # its entry fsync'd in the data directory
        path = self.path(record["id"])
        write_whole(path, json.dumps(record, ensure_ascii=False).encode())
        return path

    def waiting(self) -> list[Path]:
        """The results not acknowledged yet, oldest first."""
        if not self.folder.is_dir():
            return []
        return sorted(self.folder.glob("*.json"), key=lambda p: (p.stat().st_mtime, p.name))


class RecentList:
    """A JSON list of records on disk, those of the last `RECENT` seconds by ``field`` (an
    ISO time), the latest `EVENING_GAMES` of them: the evening's results (``ended``) or
    games (``started``)."""

    def __init__(self, path: Path, field: str) -> None:
        self.path = path
        self.field = field
        self._said: str | None = None
        """Why the file could not be read, as last logged."""

    def read(self) -> list[dict[str, Any]]:
        """The recent records: none when the file is missing, or is not a JSON list (said
        once in the log; the next record added replaces it)."""
        try:
            records = json.loads(self.path.read_bytes())
        except FileNotFoundError:
            return []
        except (OSError, ValueError, RecursionError) as exc:  # RecursionError: too deep
            return self._unreadable(str(exc) or type(exc).__name__)
        if not isinstance(records, list):
            return self._unreadable("valid JSON, but not a list")
        self._said = None
        kept = recent([r for r in records if isinstance(r, dict)], datetime.now(UTC), self.field)
        return kept[-EVENING_GAMES:]

    def _unreadable(self, why: str) -> list[dict[str, Any]]:
        if why != self._said:
            log.error("club: %s cannot be read as a list of games (%s): read as none, "
                      "replaced when the next game is kept", self.path, why)  # fmt: skip
            self._said = why
        return []

    def ids(self) -> set[str]:
        return {str(r.get("id")) for r in self.read()}

    def add(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        """The recent records with ``record`` added unless its id is there (written then):
        the list to publish. A disk that refuses it is logged (the list is still sent)."""
        records = self.read()
        if all(r.get("id") != record["id"] for r in records):
            records.append(record)
            try:
                write_whole(self.path, json.dumps(records, ensure_ascii=False).encode())
            except OSError as exc:
                log.error("club: cannot write %s: %s", self.path, exc.strerror or exc)
        return records


class ClubFiles:
    """The club's files of one data directory (see the module docstring)."""

    def __init__(self, data_dir: Path) -> None:
        self.outbox = Outbox(data_dir / OUTBOX)
        self.evening = RecentList(data_dir / EVENING, "ended")
        self.games = RecentList(data_dir / GAMES_FILE, "started")

    def announce(self, table: str, referee: TableReferee) -> list[dict[str, Any]]:
        """The game of ``referee`` in the games list (started now, unless it is there
        already: a resumed game keeps its first announcement); the list to publish."""
        return self.games.add(game_announcement(table, referee, now_utc()))

    def keep(self, record: dict[str, Any]) -> Path | None:
        """A finished game's result in the outbox, unless it is there or was already sent
        (in the evening list); and in the evening list. Its outbox file when new; an
        `OSError` when the outbox cannot be written (the evening list then has it)."""
        known = self.outbox.path(record["id"]).exists() or record["id"] in self.evening.ids()
        try:
            return None if known else self.outbox.put(record)
        finally:
            self.evening.add(record)


def keep_finished(config: ClubConfig, data_dir: Path, referee: TableReferee) -> None:
    """A finished game's result kept for the club before its journal is archived (a cut
    may have come before the link kept it: the journal is its record), with its game in
    the games list; nothing when it was kept already. A disk that refuses is logged."""
    try:
        files = ClubFiles(data_dir)
        files.announce(config.table, referee)
        kept = files.keep(game_result(config.table, referee, now_utc()))
    except OSError as exc:
        log.error("club: cannot keep the result of the game that ended: %s", exc.strerror or exc)
        return
    if kept is not None:
        log.info("club: the result of the game that ended waits in %s", kept)
