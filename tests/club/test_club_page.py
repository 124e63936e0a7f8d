"""The club's board and its read-only page: a result counts once, the standings, the CSV
exports, the page's language, each table's frame and game view files; nothing a browser
sends changes anything. The board is fed the messages the tables send (no broker here:
tests/club/test_club_night.py has it)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from companion import games
from companion.club.board import Board
from companion.club.page import ClubServer
from companion.club.topics import state_payload
from companion.web.public import Publisher
from tests.web.table import Client


def result(table: str, rid: str, seats: list[str], scores: list[int], winner: int | None,
           game: str = "flipdone") -> bytes:  # fmt: skip
    return json.dumps({"id": rid, "table": table, "game": game, "title": game, "rules": {},
                       "seats": seats, "scores": scores, "winner": winner, "duration": 600.0,
                       "ended": "2026-11-27T20:00:00+00:00"}).encode()  # fmt: skip


def live_table(board: Board, table: str, game: str) -> dict:
    """A table's first public view and frame on the board, as its link sends them."""
    played = games.get(game)
    referee = played.referee(played.simulated_setup(played.default_seats, 1))
    snapshot = Publisher(referee).snapshot()
    assert snapshot is not None
    board.apply(table, "availability", b"online")
    board.apply(table, "state", state_payload(snapshot.view))
    out = io.BytesIO()
    snapshot.frame.save(out, format="PNG")
    board.apply(table, "frame", out.getvalue())
    return json.loads(state_payload(snapshot.view))


def test_a_result_counts_once_and_only_for_its_own_table() -> None:
    board = Board()
    assert board.apply("t1", "result", result("t1", "r1", ["Ana", "Bob"], [3, 1], 0))
    assert board.apply("t1", "result", result("t1", "r1", ["Ana", "Bob"], [3, 1], 0)) == []
    # Another table's result on t1's topic, and payloads that are no result, change nothing.
    assert board.apply("t1", "result", result("t2", "r2", ["Ana", "Bob"], [3, 1], 0)) == []
    for bad in (b"", b"[]", b"{", b'{"id": 1}', result("t1", "r3", ["Ana"], [1], True),
                result("t1", "r4", ["Ana", 5], [1, 0], 0)):  # fmt: skip
        assert board.apply("t1", "result", bad) == []
    assert list(board.results) == ["r1"]


def test_a_tables_evening_list_brings_its_games_of_the_last_hours_only() -> None:
    now = datetime(2026, 11, 27, 22, 0, tzinfo=UTC)
    board = Board(clock=lambda: now)

    def at(rid: str, hours_ago: float) -> dict:
        record = json.loads(result("t1", rid, ["Ana", "Bob"], [1, 0], 0))
        record["ended"] = (now - timedelta(hours=hours_ago)).isoformat()
        return record

    evening = [at("old", 13), at("r1", 3), at("r2", 0.5)]
    assert [r["id"] for r in board.apply("t1", "results", json.dumps(evening).encode())] == [
        "r1",
        "r2",
    ]
    assert board.apply("t1", "result", json.dumps(at("r2", 0.5)).encode()) == []  # once
    assert board.apply("t2", "results", json.dumps([at("r3", 1)]).encode()) == []  # t1's
    assert list(board.results) == ["r1", "r2"]


def test_standings_count_games_wins_and_each_games_points_across_tables() -> None:
    board = Board()
    board.apply("t1", "result", result("t1", "r1", ["Ana", "Bob", "Cy"], [5, 2, 1], 0))
    board.apply("t2", "result", result("t2", "r2", ["Bob", "Ana"], [1, 0], 0, "swiped"))
    board.apply("t1", "result", result("t1", "r3", ["Cy", "Dee", "Ana"], [0, 0, 0], None))
    rows = {s.name: (s.played, s.wins, s.points) for s in board.standings()}
    assert rows == {
        "Ana": (3, 1, {"flipdone": 5, "swiped": 0}),
        "Bob": (2, 1, {"flipdone": 2, "swiped": 1}),
        "Cy": (2, 0, {"flipdone": 1}),
        "Dee": (1, 0, {"flipdone": 0}),
    }
    assert [s.name for s in board.standings()] == ["Bob", "Ana", "Dee", "Cy"]


@pytest.fixture
def page(request: pytest.FixtureRequest) -> Iterator[tuple[Board, Client]]:
    board = Board()
    server = ClubServer(board, getattr(request, "param", "fr"), "127.0.0.1", 0)
    port = server.start()
    yield board, Client("127.0.0.1", port)
    server.stop()


def test_the_board_is_served_with_each_table_live_and_its_frame(page) -> None:
    board, client = page
    view = live_table(board, "table-a", "ptipasspass")
    answer = client.get("/api/board")
    assert answer.status == 200 and answer.headers["Cache-Control"] == "no-store"
    served = answer.json()
    [table] = served["tables"]
    assert table["name"] == "table-a" and table["online"] and table["state"] == view
    frame = client.get("/frame/table-a.png")
    assert frame.status == 200 and frame.body.startswith(b"\x89PNG")
    assert client.get("/frame/table-z.png").status == 404
    assert served["words"]["standings"] == "Classement"


@pytest.mark.parametrize("page", ["en"], indirect=True)
def test_the_page_speaks_the_clubs_language(page) -> None:
    _, client = page
    html = client.get("/").body.decode()
    assert '<html lang="en">' in html and "<title>Club night</title>" in html
    assert client.get("/api/board").json()["words"]["standings"] == "Standings"


def test_the_games_own_views_are_served_and_nothing_else_of_their_packages(page) -> None:
    _, client = page
    for game in games.names():
        for name in games.get(game).page_assets and ["view.js", "view.css"] or []:
            assert client.get(f"/games/{game}/{name}").status == 200
    assert client.get("/games/vnp/referee.py").status == 404
    assert client.get("/games/vnp/../server.py").status == 404
    assert client.get("/static/gameview.js").status == 200
    assert client.get("/static/app.js").status == 404
    assert client.get("/api/vnp/pieces").status == 200


def test_the_csv_exports_are_the_evenings_sheet_and_names_are_never_formulas(page) -> None:
    board, client = page
    board.apply("t1", "result", result("t1", "r1", ["=cmd()", "Bob"], [1, 4], 1))
    answer = client.get("/results.csv")
    assert answer.status == 200 and answer.headers["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.body.decode())))
    assert [(r["player"], r["score"], r["winner"]) for r in rows] == [
        ("'=cmd()", "1", "0"),
        ("Bob", "4", "1"),
    ]
    standings = list(csv.DictReader(io.StringIO(client.get("/standings.csv").body.decode())))
    assert [(r["player"], r["wins"], r["points_flipdone"]) for r in standings] == [
        ("Bob", "1", "4"),
        ("'=cmd()", "0", "1"),
    ]


def test_the_page_is_read_only(page) -> None:
    board, client = page
    for path in ("/", "/api/board", "/results.csv", "/api/t1/result"):
        for method in ("POST", "PUT", "DELETE"):
            assert client.request(method, path, b"{}").status == 405
    assert board.version == 0 and board.results == {}
