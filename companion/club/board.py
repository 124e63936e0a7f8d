"""The club's board: every table's live state, the evening's results and the standings.

Fed by the broker's messages (`companion.club.reader`), read by the club's page. Pure data
under one lock: no I/O here. A result is counted once whatever the number of times it
arrives (its ``id``), whether alone (``result``) or in its table's evening (the retained
``results``); a table may only report its own games (the result's ``table`` is its
topic's). Players are their seats' names: the same name at two tables is one player.
"""

from __future__ import annotations

import csv
import io
import json
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from companion.club.topics import AVAILABILITY, FRAME, ONLINE, RESULT, RESULTS, STATE, recent

MAX_STATE = 1 << 20
"""A state larger than this is no table's: ignored."""


@dataclass
class TableNow:
    """What the board knows of one table."""

    name: str
    online: bool = False
    state: dict[str, Any] | None = None
    frame: bytes = b""
    frame_no: int = 0


@dataclass
class Standing:
    """One player's evening: games played, won, and the points of the games that score."""

    name: str
    played: int = 0
    wins: int = 0
    points: dict[str, float] = field(default_factory=dict)
    """By game (each game scores its own way: docs/games.md)."""


class Board:
    """The evening as the broker told it. `apply` takes one message; the rest reads."""

    def __init__(self, clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.clock = clock
        """Now, to tell this evening's results from older ones (`topics.recent`)."""
        self.lock = threading.Lock()
        self.tables: dict[str, TableNow] = {}
        self.results: dict[str, dict[str, Any]] = {}
        """By id, in the order they arrived."""
        self.version = 0

    def apply(self, table: str, kind: str, payload: bytes) -> list[dict[str, Any]]:
        """One message of ``table``; the result records it brought that are new. A payload
        no table sends (not JSON, a result of another table...) changes nothing."""
        with self.lock:
            if kind in (RESULT, RESULTS):
                return self._results(table, kind, payload)
            now = self.tables.setdefault(table, TableNow(table))
            if kind == AVAILABILITY:
                now.online = payload == ONLINE
            elif kind == STATE:
                state = _json(payload) if len(payload) <= MAX_STATE else None
                if not isinstance(state, dict):
                    return []
                now.state = state
            elif kind == FRAME:
                if not payload.startswith(b"\x89PNG"):
                    return []
                now.frame = payload
                now.frame_no += 1
            else:
                return []
            self.version += 1
            return []

    def _results(self, table: str, kind: str, payload: bytes) -> list[dict[str, Any]]:
        """The new records of a ``result`` (one) or of a table's retained ``results`` (the
        evening's: those of another evening are left out)."""
        data = _json(payload) if len(payload) <= MAX_STATE else None
        if kind == RESULTS:
            listed = data if isinstance(data, list) else []
            records = recent([r for r in listed if isinstance(r, dict)], self.clock())
        else:
            records = [data] if isinstance(data, dict) else []
        new = []
        for record in records:
            if _valid(table, record) and record["id"] not in self.results:
                record.setdefault("ended", "")
                record.setdefault("duration", 0)
                self.results[record["id"]] = record
                new.append(record)
        self.version += bool(new)
        return new

    def add_result(self, record: dict[str, Any]) -> bool:
        """A result read back from the night's archive (the club restarted); False when
        it is not one or already counted."""
        payload = json.dumps(record).encode()
        return bool(self.apply(str(record.get("table", "")), RESULT, payload))

    def standings(self) -> list[Standing]:
        """Every player: most wins first, then fewest games, then by name."""
        with self.lock:
            results = list(self.results.values())
        players: dict[str, Standing] = {}
        for record in results:
            for seat, name in enumerate(record["seats"]):
                standing = players.setdefault(name, Standing(name))
                standing.played += 1
                standing.wins += int(record["winner"] == seat)
                score = record["scores"][seat] if seat < len(record["scores"]) else None
                if isinstance(score, int | float) and not isinstance(score, bool):
                    game = record["game"]
                    standing.points[game] = standing.points.get(game, 0) + score
        return sorted(players.values(), key=lambda s: (-s.wins, s.played, s.name))

    def view(self) -> dict[str, Any]:
        """What the club's page draws, JSON-ready."""
        with self.lock:
            tables = [
                {"name": t.name, "online": t.online, "state": t.state, "frame_no": t.frame_no}
                for t in sorted(self.tables.values(), key=lambda t: t.name)
            ]
            results = list(self.results.values())
            version = self.version
        standings = [
            {"name": s.name, "played": s.played, "wins": s.wins, "points": s.points}
            for s in self.standings()
        ]
        return {"version": version, "tables": tables, "results": results,
                "standings": standings}  # fmt: skip

    def frame(self, table: str) -> bytes | None:
        with self.lock:
            now = self.tables.get(table)
            return now.frame if now is not None and now.frame else None

    def results_csv(self) -> str:
        """One line a seat of every result: the evening's sheet."""
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["ended", "table", "game", "result_id", "seat", "player", "score",
                         "winner", "duration_s"])  # fmt: skip
        with self.lock:
            results = list(self.results.values())
        for r in results:
            for seat, name in enumerate(r["seats"]):
                score = r["scores"][seat] if seat < len(r["scores"]) else ""
                writer.writerow([r["ended"], r["table"], r["game"], r["id"], seat + 1,
                                 _cell(name), score, int(r["winner"] == seat),
                                 r["duration"]])  # fmt: skip
        return out.getvalue()

    def standings_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out)
        standings = self.standings()
        scored = sorted({game for s in standings for game in s.points})
        writer.writerow(["player", "played", "wins", *(f"points_{g}" for g in scored)])
        for s in standings:
            writer.writerow([_cell(s.name), s.played, s.wins,
                             *(_number(s.points.get(g, "")) for g in scored)])  # fmt: skip
        return out.getvalue()


def _number(value: float | str) -> float | str:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _cell(text: str) -> str:
    """A name as a spreadsheet cell: never a formula (a name may begin with ``=``)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _json(payload: bytes) -> Any:
    try:
        return json.loads(payload)
    except (ValueError, RecursionError):
        return None


def _valid(table: str, record: dict[str, Any]) -> bool:
    """Is ``record`` a result of ``table``, with the fields the board reads?"""
    if record.get("table") != table:
        return False
    seats, scores, winner = record.get("seats"), record.get("scores"), record.get("winner")
    return (
        isinstance(record.get("id"), str)
        and isinstance(record.get("game"), str)
        and isinstance(seats, list)
        and all(isinstance(s, str) for s in seats)
        and isinstance(scores, list)
        and all(_finite(s) for s in scores)
        and (winner is None or (isinstance(winner, int) and not isinstance(winner, bool)))
        and isinstance(record.get("ended", ""), str)
        and _finite(record.get("duration", 0))
    )


def _finite(value: Any) -> bool:
    return value is None or (
        isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    )
