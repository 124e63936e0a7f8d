"""The club's board: every table's live state, the evening's results and the standings.

Fed by the broker's messages (`companion.club.reader`), read by the club's page. Pure data
under one lock: no I/O here. A table is trusted with its own card only: a message larger
than its bound (`Bounds`), or not of the shape a table sends, is refused and counted on
that table's card; the other cards, the standings and the results stay as they were.

- A state is the table page's public view (`companion.web.public`), checked field by
  field and kept with those fields only; one that is not is refused and its card says so.
- A result counts once whatever the number of times it arrives (its ``id``), alone
  (``result``) or in its table's evening (the retained ``results``), and only for a game
  its table announced (``games``) with the same game and seats: one arriving before its
  announcement waits for it. A table may report its own games only (the result's
  ``table`` is its topic's), at most `Bounds.games` an evening.
- Players are their seats' names: the same name at two tables is one player.

The page's JSON is built once a version (`view_json`), each table's card once a change of
that table, the results and standings (and the CSV exports) once a new result: a page
polling every second costs a lookup, however many pages and whatever a table sends.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeGuard

from companion.club.topics import (
    AVAILABILITY,
    EVENING_GAMES,
    FRAME,
    GAMES,
    OFFLINE,
    ONLINE,
    PAGE,
    RESULT,
    RESULTS,
    STATE,
    compact,
    recent,
)

NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
"""A game's name, as the registry has them."""
LANGUAGE = re.compile(r"[a-z]{2,8}")
"""A language's code ("fr")."""
ASSET = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}\.(?:js|css)")
"""A file of a game's page view."""
SEATS = 12
"""The most seats a state or a result may name (the games have at most 6)."""
LONGEST_NAME = 200
LONGEST_TEXT = 1000
"""Characters of a player's name; of a title, a status or history line."""
LONGEST_ID = 64
PNG = b"\x89PNG\r\n\x1a\n"
ADDRESS = re.compile(
    r"(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9][A-Za-z0-9.-]{0,252})"
    r":[0-9]{1,5}"
)
"""A table's page address, "HOST:PORT" (`topics.page_address`): an IPv4 address, an IPv6
one in brackets or a host name, never a path or a scheme the card's link could carry."""


@dataclass(frozen=True, slots=True)
class Bounds:
    """What one table may send (bytes a message, games an evening), and how much of the
    evening the page's JSON carries (the CSV exports carry it all)."""

    state: int = 256 * 1024
    """A table's largest state is about 65 KB (the built-in games' largest board of its
    own, with 200 history lines)."""
    frame: int = 16 * 1024
    """A frame of the OLED is under 1 KB."""
    frame_side: int = 512
    """Pixels: a frame's width and height (the OLED's are 128 x 64)."""
    result: int = 4 * 1024
    """One result (about 300 bytes)."""
    results: int = 512 * 1024
    games_list: int = 256 * 1024
    """The ``results`` and ``games`` lists of an evening."""
    games: int = EVENING_GAMES
    """Games a table may announce in an evening."""
    page: int = 300
    """Where a table's page is ("HOST:PORT")."""
    waiting: int = 32
    """Results of a table kept until their announcement arrives (the oldest go first)."""
    shown_results: int = 100
    shown_players: int = 200

    def size(self, kind: str) -> int | None:
        """The largest payload of ``kind``; None for a kind the board does not read."""
        return {
            STATE: self.state,
            FRAME: self.frame,
            AVAILABILITY: max(len(ONLINE), len(OFFLINE)),
            RESULT: self.result,
            RESULTS: self.results,
            GAMES: self.games_list,
            PAGE: self.page,
        }.get(kind)

    @property
    def largest(self) -> int:
        """The largest payload of any kind."""
        return max(self.state, self.frame, self.result, self.results, self.games_list)


REASONS = ("large", "shape", "unannounced", "games", "fast")
"""Why a table's message was refused (each has its words on the page, "why_*"):
larger than its bound; not the shape a table sends; a result of a game the table did not
announce (or with other seats); more games than an evening holds; more messages a second
than a table sends (`companion.club.intake`)."""


@dataclass
class TableNow:
    """What the board knows of one table."""

    name: str
    online: bool = False
    state: dict[str, Any] | None = None
    frame: bytes = b""
    frame_no: int = 0
    problem: str | None = None
    """Why its last state was refused (one of `REASONS`): the card says so."""
    refused: Counter[str] = field(default_factory=Counter)
    """Its messages refused, by reason, since the board started."""
    last_refused: str | None = None
    announced: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    """Its games of the evening by id: (game, seats)."""
    waiting: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Its results whose announcement has not arrived yet, oldest first."""
    page: str | None = None
    """Where its web page is, "HOST:PORT" (None: it has none the club can open)."""
    results: int = 0
    """Its games of the evening the board counted (each has its replay on its page)."""
    card: bytes | None = None
    """Its JSON on the page (None: to build again)."""


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

    def __init__(
        self,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        bounds: Bounds = Bounds(),
    ) -> None:
        self.clock = clock
        """Now, to tell this evening's results from older ones (`topics.recent`)."""
        self.bounds = bounds
        self.lock = threading.Lock()
        self.tables: dict[str, TableNow] = {}
        self.results: dict[str, dict[str, Any]] = {}
        """By id, in the order they arrived."""
        self.version = 0
        self._standings: list[Standing] | None = None
        self._sheets: dict[str, str] = {}
        """The CSV exports as last made (emptied by a new result)."""
        self._tally: bytes | None = None
        """The results and standings part of the page's JSON (None: to build again)."""
        self._view: tuple[int, bytes] = (-1, b"")
        self.linked: bool | None = None
        """Whether the board reads the club's broker now (`set_linked`); None for a board
        fed otherwise. While it does not, no table's state is news: the page says the
        board is cut off rather than every table offline."""

    def set_linked(self, linked: bool) -> None:
        """The board's own link to the broker came up or went down."""
        with self.lock:
            if self.linked != linked:
                self.linked = linked
                self.version += 1

    # ----------------------------------------------------------------- messages

    def apply(self, table: str, kind: str, payload: bytes) -> list[dict[str, Any]]:
        """One message of ``table``; the result records it made count (new ones, to
        archive). A payload no table sends is refused and counted on its card."""
        limit = self.bounds.size(kind)
        if limit is None:
            return []
        with self.lock:
            now = self._table(table)
            if len(payload) > limit:
                self._refuse(now, "large", state=kind == STATE)
            elif kind == AVAILABILITY:
                self._availability(now, payload)
            elif kind == STATE:
                self._state(now, payload)
            elif kind == FRAME:
                self._frame(now, payload)
            elif kind == PAGE:
                self._page(now, payload)
            elif kind == GAMES:
                return self._announce(now, payload)
            else:
                return self._results(now, kind, payload)
            return []

    def refuse(self, table: str, reason: str, count: int = 1) -> None:
        """``count`` messages of ``table`` refused before they reached the board (one of
        `REASONS`)."""
        with self.lock:
            now = self._table(table)
            now.refused[reason] += count
            now.last_refused = reason
            self._changed(now)

    def add_result(self, record: dict[str, Any]) -> bool:
        """A result read back from the night's archive (the club restarted): the board
        counted it then, so it counts without waiting for its announcement. False when it
        is not one or already counted."""
        with self.lock:
            table = record.get("table")
            if not isinstance(table, str):
                return False
            result = _result(table, record, self.bounds.result)
            if result is None or result["id"] in self.results:
                return False
            now = self._table(table)
            now.announced[result["id"]] = (result["game"], tuple(result["seats"]))
            self._count(result)
            return True

    def _table(self, name: str) -> TableNow:
        now = self.tables.get(name)
        if now is None:
            now = self.tables[name] = TableNow(name)
        return now

    def _changed(self, now: TableNow) -> None:
        now.card = None
        self.version += 1

    def _refuse(self, now: TableNow, reason: str, state: bool = False) -> None:
        """One message of ``now``'s refused; ``state``: it was its state (the card then
        shows no state, and why)."""
        now.refused[reason] += 1
        now.last_refused = reason
        if state:
            now.state = None
            now.problem = reason
        self._changed(now)

    def _availability(self, now: TableNow, payload: bytes) -> None:
        if payload not in (ONLINE, OFFLINE):
            self._refuse(now, "shape")
        elif now.online != (payload == ONLINE):
            now.online = payload == ONLINE
            self._changed(now)

    def _state(self, now: TableNow, payload: bytes) -> None:
        state = _state(_json(payload))
        if state is None:
            self._refuse(now, "shape", state=True)
        elif state != now.state or now.problem is not None:
            now.state = state
            now.problem = None
            self._changed(now)

    def _frame(self, now: TableNow, payload: bytes) -> None:
        if not _png(payload, self.bounds.frame_side):
            self._refuse(now, "shape")
        elif payload != now.frame:
            now.frame = payload
            now.frame_no += 1
            self._changed(now)

    def _page(self, now: TableNow, payload: bytes) -> None:
        address = payload.decode("ascii", "replace")
        if payload and not ADDRESS.fullmatch(address):
            self._refuse(now, "shape")
        elif (address or None) != now.page:
            now.page = address or None
            self._changed(now)

    def _announce(self, now: TableNow, payload: bytes) -> list[dict[str, Any]]:
        """The table's games (``games``): each new one is announced, up to `Bounds.games`;
        the results that waited for theirs count."""
        listed = _json(payload)
        if not isinstance(listed, list):
            self._refuse(now, "shape")
            return []
        new = []
        for item in listed:
            announced = _announcement(item)
            if announced is None:
                self._refuse(now, "shape")
                continue
            game_id, game = announced
            if game_id in now.announced:
                continue
            if len(now.announced) >= self.bounds.games:
                self._refuse(now, "games")
                continue
            now.announced[game_id] = game
            waiting = now.waiting.pop(game_id, None)
            if waiting is not None and self._counts(now, waiting):
                new.append(waiting)
        return new

    def _results(self, now: TableNow, kind: str, payload: bytes) -> list[dict[str, Any]]:
        """The new records of a ``result`` (one) or of a table's retained ``results`` (the
        evening's: those of another evening are left out)."""
        data = _json(payload)
        if kind == RESULTS:
            listed = data if isinstance(data, list) else None
            records = recent([r for r in listed or [] if isinstance(r, dict)], self.clock())
        else:
            listed = [data] if isinstance(data, dict) else None
            records = listed or []
        if listed is None:
            self._refuse(now, "shape")
        new = []
        for record in records:
            result = _result(now.name, record, self.bounds.result)
            if result is None:
                self._refuse(now, "shape")
            elif result["id"] in self.results or result["id"] in now.waiting:
                continue
            elif result["id"] not in now.announced:
                self._wait(now, result)
            elif self._counts(now, result):
                new.append(result)
        return new

    def _wait(self, now: TableNow, result: dict[str, Any]) -> None:
        """A result before its game's announcement: kept for it, the oldest dropped."""
        if len(now.waiting) >= self.bounds.waiting:
            del now.waiting[next(iter(now.waiting))]
            self._refuse(now, "unannounced")
        now.waiting[result["id"]] = result

    def _counts(self, now: TableNow, result: dict[str, Any]) -> bool:
        """Count an announced game's result, if it is the game and seats announced."""
        if now.announced[result["id"]] != (result["game"], tuple(result["seats"])):
            self._refuse(now, "unannounced")
            return False
        self._count(result)
        return True

    def _count(self, result: dict[str, Any]) -> None:
        self.results[result["id"]] = result
        table = self._table(result["table"])
        table.results += 1
        self._changed(table)  # its card links to its replays now
        self._standings = None
        self._sheets.clear()
        self._tally = None
        self.version += 1

    # -------------------------------------------------------------------- reading

    def standings(self) -> list[Standing]:
        """Every player: most wins first, then fewest games, then by name."""
        with self.lock:
            return list(self._standings_now())

    def _standings_now(self) -> list[Standing]:
        if self._standings is None:
            players: dict[str, Standing] = {}
            for record in self.results.values():
                for seat, name in enumerate(record["seats"]):
                    standing = players.setdefault(name, Standing(name))
                    standing.played += 1
                    standing.wins += int(record["winner"] == seat)
                    score = record["scores"][seat] if seat < len(record["scores"]) else None
                    if score is not None:
                        game = record["game"]
                        standing.points[game] = standing.points.get(game, 0) + score
            self._standings = sorted(players.values(), key=lambda s: (-s.wins, s.played, s.name))
        return self._standings

    def view_json(self) -> tuple[int, bytes]:
        """(version, what the club's page draws as JSON): every table's card, the latest
        `Bounds.shown_results` results, the first `Bounds.shown_players` standings, and how
        many there are in all. Built once a version."""
        with self.lock:
            if self._view[0] != self.version:
                tables = sorted(self.tables.values(), key=lambda t: t.name)
                cards = b",".join(self._card(t) for t in tables)
                linked = b"null" if self.linked is None else str(self.linked).lower().encode()
                head = b'{"version":%d,"linked":%s,"tables":[%s],' % (self.version, linked, cards)
                self._view = (self.version, head + self._tally_json() + b"}")
            return self._view

    def _card(self, now: TableNow) -> bytes:
        if now.card is None:
            page = f"http://{now.page}/" if now.page else None
            now.card = compact({
                "name": now.name, "online": now.online, "state": now.state,
                "frame_no": now.frame_no, "problem": now.problem,
                "refused": now.refused.total(), "last_refused": now.last_refused,
                "page": page, "replay": f"{page}replay" if page and now.results else None,
            })  # fmt: skip
        return now.card

    def _tally_json(self) -> bytes:
        if self._tally is None:
            bounds = self.bounds
            results = list(self.results.values())
            standings = self._standings_now()
            self._tally = compact({
                "results": results[-bounds.shown_results :],
                "results_total": len(results),
                "standings": [
                    {"name": s.name, "played": s.played, "wins": s.wins, "points": s.points}
                    for s in standings[: bounds.shown_players]
                ],
                "players_total": len(standings),
            })[1:-1]  # fmt: skip
        return self._tally

    def frame(self, table: str) -> bytes | None:
        with self.lock:
            now = self.tables.get(table)
            return now.frame if now is not None and now.frame else None

    def refusals(self) -> dict[str, Counter[str]]:
        """Each table's refused messages by reason, since the board started."""
        with self.lock:
            return {name: now.refused.copy() for name, now in self.tables.items() if now.refused}

    def results_csv(self) -> str:
        """One line a seat of every result: the evening's sheet."""
        with self.lock:
            if "results" not in self._sheets:
                self._sheets["results"] = self._results_csv()
            return self._sheets["results"]

    def standings_csv(self) -> str:
        """One line a player: games played, wins, the points of each game that scores."""
        with self.lock:
            if "standings" not in self._sheets:
                self._sheets["standings"] = self._standings_csv()
            return self._sheets["standings"]

    def _results_csv(self) -> str:
        rows: list[list[Any]] = [["ended", "table", "game", "result_id", "seat", "player",
                                  "score", "winner", "duration_s"]]  # fmt: skip
        for r in self.results.values():
            for seat, name in enumerate(r["seats"]):
                score = r["scores"][seat] if seat < len(r["scores"]) else ""
                rows.append([r["ended"], r["table"], r["game"], r["id"], seat + 1, name,
                             score, int(r["winner"] == seat), r["duration"]])  # fmt: skip
        return _sheet(rows)

    def _standings_csv(self) -> str:
        standings = self._standings_now()
        scored = sorted({game for s in standings for game in s.points})
        rows: list[list[Any]] = [["player", "played", "wins", *(f"points_{g}" for g in scored)]]
        for s in standings:
            rows.append([s.name, s.played, s.wins,
                         *(_number(s.points.get(g, "")) for g in scored)])  # fmt: skip
        return _sheet(rows)


def _sheet(rows: Iterable[list[Any]]) -> str:
    """CSV of ``rows``, every cell through `_cell`."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([_cell(value) for value in row])
    return out.getvalue()


def _cell(value: Any) -> Any:
    """A value as a spreadsheet cell: a text is never a formula (a name, a game, an id may
    begin with ``=``: OWASP's "CSV injection"), a number stays a number."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r", "\n"):
        return "'" + value
    return value


def _number(value: float | str) -> float | str:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _png(payload: bytes, side: int) -> bool:
    """Is ``payload`` a PNG of at most ``side`` pixels each way (its header says so: a
    small file may claim a huge picture, which a browser would then make room for)?"""
    if not payload.startswith(PNG) or payload[12:16] != b"IHDR" or len(payload) < 24:
        return False
    width, height = int.from_bytes(payload[16:20]), int.from_bytes(payload[20:24])
    return 0 < width <= side and 0 < height <= side


def _json(payload: bytes) -> Any:
    try:
        return json.loads(payload)
    except (ValueError, RecursionError):
        return None


# ------------------------------------------------------------------ the shapes


def _text(value: Any, longest: int = LONGEST_TEXT) -> TypeGuard[str]:
    return isinstance(value, str) and len(value) <= longest


def _texts(value: Any, most: int, longest: int = LONGEST_TEXT) -> bool:
    return isinstance(value, list) and len(value) <= most and all(_text(v, longest) for v in value)


def _names(value: Any) -> TypeGuard[list[str]]:
    """A list of seats' names: 1 to `SEATS` of them, none empty."""
    return _texts(value, SEATS, LONGEST_NAME) and len(value) > 0 and all(value)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _finite(value: Any) -> bool:
    return value is None or (
        isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    )


def _scores_and_winner(data: Mapping[str, Any], seats: list[str]) -> bool:
    scores, winner = data.get("scores"), data.get("winner")
    return (
        isinstance(scores, list)
        and len(scores) <= len(seats)
        and all(_finite(s) for s in scores)
        and (winner is None or (_whole(winner) and 0 <= winner < len(seats)))
    )


def _statuses(value: Any) -> bool:
    """The status line in each language the table speaks: {"fr": ..., "en": ...}."""
    return (
        isinstance(value, dict)
        and len(value) <= 8
        and all(LANGUAGE.fullmatch(k) and _text(t) for k, t in value.items())
    )


STATE_FIELDS: dict[str, Callable[[Any], bool]] = {
    "title": _text,
    "language": lambda v: _text(v, 8),
    "status": _text,
    "statuses": _statuses,
    "finished": lambda v: isinstance(v, bool),
    "board": lambda v: v is None or isinstance(v, dict),
    "history": lambda v: _texts(v, 1000),
    "history_total": lambda v: _whole(v) and v >= 0,
    "controls": lambda v: _texts(v, 32, 32),
    "played_on_page": lambda v: isinstance(v, bool),
    "virtual": lambda v: isinstance(v, bool),
    "page_assets": lambda v: _texts(v, 8, 40) and all(ASSET.fullmatch(f) for f in v),
}
"""The table page's public view (`companion.web.public.Publisher`), besides its game,
seats, scores and winner: each field's check."""
STATE_NEEDS = ("game", "seats", "status", "scores", "winner", "finished")
"""What the card draws: a state without one of these is refused."""


def _state(data: Any) -> dict[str, Any] | None:
    """``data`` as the page's public view, with its known fields only; None when it is not
    one. The game's own ``board`` is its view's to draw (the page keeps a view that fails
    to its card)."""
    if not isinstance(data, dict) or not all(k in data for k in STATE_NEEDS):
        return None
    game, seats = data["game"], data["seats"]
    if not (isinstance(game, str) and NAME.fullmatch(game) and _names(seats)):
        return None
    if not _scores_and_winner(data, seats):
        return None
    if not all(check(data[k]) for k, check in STATE_FIELDS.items() if k in data):
        return None
    kept = ("game", "seats", "scores", "winner", *STATE_FIELDS)
    return {k: data[k] for k in kept if k in data}


def _announcement(data: Any) -> tuple[str, tuple[str, tuple[str, ...]]] | None:
    """(id, (game, seats)) of an announcement (`topics.announcement`), or None."""
    if not isinstance(data, dict):
        return None
    game_id, game, seats = data.get("id"), data.get("game"), data.get("seats")
    if not (_text(game_id, LONGEST_ID) and game_id and isinstance(game, str)):
        return None
    if not (NAME.fullmatch(game) and _names(seats) and _text(data.get("started"), 64)):
        return None
    return game_id, (game, tuple(seats))


RESULT_FIELDS = ("id", "table", "game", "title", "rules", "seats", "scores", "winner",
                 "duration", "ended")  # fmt: skip
"""A result as `topics.result_record` makes it."""


def _result(table: str, record: dict[str, Any], limit: int) -> dict[str, Any] | None:
    """``record`` as a result of ``table`` with its known fields only (``ended``,
    ``duration``, ``title`` and ``rules`` filled in when missing), or None when it is not
    one, of another table, or larger than ``limit`` bytes."""
    if record.get("table") != table:
        return None
    seats = record.get("seats")
    result: dict[str, Any] = {"title": "", "rules": {}, "duration": 0, "ended": ""} | {
        k: record[k] for k in RESULT_FIELDS if k in record
    }
    if not (
        _text(result.get("id"), LONGEST_ID)
        and result["id"]
        and isinstance(result.get("game"), str)
        and NAME.fullmatch(result["game"])
        and _names(seats)
        and _scores_and_winner(result, seats)
        and _text(result["title"])
        and isinstance(result["rules"], dict)
        and _text(result["ended"], 64)
        and _finite(result["duration"])
    ):
        return None
    return result if len(compact(result)) <= limit else None
