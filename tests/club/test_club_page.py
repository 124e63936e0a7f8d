"""The club's board and its read-only page: a result counts once and only for a game its
table announced, the standings, the CSV exports, the page's language, each table's frame
and game view files; one table's bad or oversized messages touch its own card only; the
page's JSON is built once a version and capped; nothing a browser sends changes anything.
The board is fed the messages the tables send (no broker here: tests/club/test_club_night.py
and test_club_bounds.py have it)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from companion import games
from companion.club.board import REASONS, Board, Bounds
from companion.club.page import ClubServer
from companion.club.topics import announcement, page_address, state_payload
from companion.club.words import WORDS
from companion.web.public import Publisher
from tests.web.table import Client

STARTED = "2026-11-27T19:30:00+00:00"


def result(table: str, rid: str, seats: list[str], scores: list[int], winner: int | None,
           game: str = "flipdone") -> bytes:  # fmt: skip
    return json.dumps({"id": rid, "table": table, "game": game, "title": game, "rules": {},
                       "seats": seats, "scores": scores, "winner": winner, "duration": 600.0,
                       "ended": "2026-11-27T20:00:00+00:00"}).encode()  # fmt: skip


def games_of(*results: bytes) -> bytes:
    """The ``games`` list a table publishes announcing the games of these results."""
    records = [json.loads(r) for r in results]
    return json.dumps(
        [announcement(r["id"], r["game"], r["seats"], STARTED) for r in records]
    ).encode()


def counted(board: Board, table: str, *results: bytes) -> list[dict]:
    """The table announces these results' games, then sends them: the records counted."""
    board.apply(table, "games", games_of(*results))
    return [r for payload in results for r in board.apply(table, "result", payload)]


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
    assert counted(board, "t1", result("t1", "r1", ["Ana", "Bob"], [3, 1], 0))
    assert board.apply("t1", "result", result("t1", "r1", ["Ana", "Bob"], [3, 1], 0)) == []
    # Another table's result on t1's topic, and payloads that are no result, change nothing.
    assert counted(board, "t1", result("t2", "r2", ["Ana", "Bob"], [3, 1], 0)) == []
    for bad in (b"", b"[]", b"{", b'{"id": 1}', result("t1", "r3", ["Ana"], [1], True),
                result("t1", "r4", ["Ana", 5], [1, 0], 0),
                result("t1", "r5", ["Ana", "Bob"], [1, 0], 2)):  # fmt: skip
        assert board.apply("t1", "result", bad) == []
    assert list(board.results) == ["r1"]


def test_a_result_counts_only_for_a_game_its_table_announced_with_its_game_and_seats():
    board = Board()
    early = result("t1", "r1", ["Ana", "Bob"], [3, 1], 0)
    assert board.apply("t1", "result", early) == []  # before its announcement: it waits
    assert board.standings() == []
    [record] = board.apply("t1", "games", games_of(early))
    assert record["id"] == "r1" and list(board.results) == ["r1"]
    # Made-up games: the seats or the game are not the announced ones, another table's game.
    announced = result("t1", "r2", ["Ana", "Bob"], [3, 1], 0)
    board.apply("t1", "games", games_of(early, announced))
    assert board.apply("t1", "result", result("t1", "r2", ["Ana", "Eve"], [0, 9], 1)) == []
    assert board.apply("t1", "result", result("t1", "r2", ["Ana", "Bob"], [3, 1], 0,
                                              "swiped")) == []  # fmt: skip
    board.apply("t2", "games", games_of(result("t2", "r3", ["Eve", "Bob"], [5, 0], 0)))
    assert board.apply("t1", "result", result("t1", "r3", ["Eve", "Bob"], [5, 0], 0)) == []
    assert list(board.results) == ["r1"]
    assert board.tables["t1"].refused["unannounced"] == 2
    assert [s.name for s in board.standings()] == ["Ana", "Bob"]
    assert board.apply("t1", "result", announced)  # the announced one counts


def test_a_table_announces_so_many_games_an_evening_and_keeps_so_many_waiting():
    board = Board(bounds=Bounds(games=3, waiting=2))
    evening = [result("t1", f"r{i}", ["Ana", "Bob"], [1, 0], 0) for i in range(5)]
    assert len(counted(board, "t1", *evening)) == 3
    assert board.tables["t1"].refused["games"] >= 2
    assert len(board.results) == 3
    # Results that never get an announcement: the oldest are dropped past `waiting`.
    other = Board(bounds=Bounds(waiting=2))
    for payload in evening[:3]:
        other.apply("t1", "result", payload)
    assert [r["id"] for r in other.apply("t1", "games", games_of(*evening))] == ["r1", "r2"]
    assert other.tables["t1"].refused["unannounced"] == 1


def test_a_tables_evening_list_brings_its_games_of_the_last_hours_only() -> None:
    now = datetime(2026, 11, 27, 22, 0, tzinfo=UTC)
    board = Board(clock=lambda: now)

    def at(rid: str, hours_ago: float) -> dict:
        record = json.loads(result("t1", rid, ["Ana", "Bob"], [1, 0], 0))
        record["ended"] = (now - timedelta(hours=hours_ago)).isoformat()
        return record

    evening = [at("old", 13), at("r1", 3), at("r2", 0.5)]
    board.apply("t1", "games", games_of(*(json.dumps(r).encode() for r in evening)))
    assert [r["id"] for r in board.apply("t1", "results", json.dumps(evening).encode())] == [
        "r1",
        "r2",
    ]
    assert board.apply("t1", "result", json.dumps(at("r2", 0.5)).encode()) == []  # once
    assert board.apply("t2", "results", json.dumps([at("r3", 1)]).encode()) == []  # t1's
    assert list(board.results) == ["r1", "r2"]


def test_standings_count_games_wins_and_each_games_points_across_tables() -> None:
    board = Board()
    counted(board, "t1", result("t1", "r1", ["Ana", "Bob", "Cy"], [5, 2, 1], 0))
    counted(board, "t2", result("t2", "r2", ["Bob", "Ana"], [1, 0], 0, "swiped"))
    counted(board, "t1", result("t1", "r3", ["Cy", "Dee", "Ana"], [0, 0, 0], None))
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


def test_the_csv_exports_are_the_evenings_sheet_and_no_text_cell_is_a_formula(page) -> None:
    board, client = page
    formulas = {"id": "=HYPERLINK(\"http://evil\")", "ended": "+cmd|' /C calc'!A0",
                "seats": ["=cmd()", "@SUM(1)", "-2+3", "Bob"]}  # fmt: skip
    table = "=t1"  # a topic's level is any text: the broker's users name them
    record = json.loads(result(table, "r1", ["x"], [1, -4, 0, 2], 1)) | formulas
    counted(board, table, json.dumps(record).encode())
    game = json.loads(result(table, "r2", ["Ana", "Bob"], [1, 0], 0)) | {"game": "=HYPERLINK(1)"}
    assert counted(board, table, json.dumps(game).encode()) == []  # no game's name
    answer = client.get("/results.csv")
    assert answer.status == 200 and answer.headers["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.body.decode())))
    assert [(r["player"], r["score"], r["winner"]) for r in rows] == [
        ("'=cmd()", "1", "0"),
        ("'@SUM(1)", "-4", "1"),  # a negative score is a number, not a formula
        ("'-2+3", "0", "0"),
        ("Bob", "2", "0"),
    ]
    for row in rows:  # every text column, whatever the table wrote in it
        assert row["result_id"] == "'" + formulas["id"]
        assert row["ended"] == "'" + formulas["ended"]
        assert row["table"] == "'=t1" and row["game"] == "flipdone"
    standings = list(csv.DictReader(io.StringIO(client.get("/standings.csv").body.decode())))
    assert [(r["player"], r["wins"], r["points_flipdone"]) for r in standings] == [
        ("'@SUM(1)", "1", "-4"),
        ("'-2+3", "0", "0"),
        ("'=cmd()", "0", "1"),
        ("Bob", "0", "2"),
    ]


def test_one_tables_bad_or_oversized_state_blanks_its_own_card_alone(page) -> None:
    board, client = page
    views = {name: live_table(board, name, game)
             for name, game in (("table-a", "ptipasspass"), ("table-c", "vnp"))}  # fmt: skip
    counted(board, "table-a", result("table-a", "r1", ["Ana", "Bob"], [3, 1], 0))
    good = json.loads(state_payload(_first_view("flipdone")))
    before = client.get("/api/board").json()
    bad_states = [
        b'{"seats":"abc"}', b"[]", b'"abc"', b"{", b"null", {"game": "vnp"},
        good | {"seats": []}, good | {"seats": ["Ana", 5]}, good | {"scores": "abc"},
        good | {"scores": [1, 2, 3, 4]}, good | {"winner": 9}, good | {"winner": True},
        good | {"status": None}, good | {"history": "abc"}, good | {"board": [1, 2]},
        good | {"page_assets": ["../../x.js"]}, good | {"game": "../vnp"},
        good | {"finished": "yes"}, good | {"title": "x" * 5000},
        good | {"statuses": "fin"}, good | {"statuses": {"fr": 3}},
        good | {"statuses": {"<b>": "x"}}, good | {"statuses": {f"l{i}": "x" for i in range(9)}},
    ]  # fmt: skip
    good_bytes = state_bytes(good)
    for bad in bad_states:
        payload = bad if isinstance(bad, bytes) else state_bytes(bad)
        board.apply("table-b", "state", good_bytes)
        assert board.tables["table-b"].state is not None
        board.apply("table-b", "state", payload)
        served = client.get("/api/board").json()
        cards = {t["name"]: t for t in served["tables"]}
        assert sorted(cards) == ["table-a", "table-b", "table-c"], bad
        assert cards["table-b"]["state"] is None and cards["table-b"]["problem"] == "shape", bad
        for name, view in views.items():
            assert cards[name]["state"] == view
        assert served["standings"] == before["standings"]
        assert served["results"] == before["results"]
    board.apply("table-b", "state", b"{" + b" " * Bounds().state + b"}")
    card = client.get("/api/board").json()["tables"][1]
    assert card["state"] is None and card["problem"] == "large"
    board.apply("table-b", "state", good_bytes)
    card = client.get("/api/board").json()["tables"][1]
    assert card["state"] == good and card["problem"] is None
    assert card["refused"] == len(bad_states) + 1 and card["last_refused"] == "large"
    # What the page's view has no field for is not served.
    board.apply("table-b", "state", state_bytes(good | {"secret": "under the hat"}))
    assert "secret" not in client.get("/api/board").json()["tables"][1]["state"]


def _first_view(game: str) -> dict:
    played = games.get(game)
    snapshot = Publisher(played.referee(played.simulated_setup(played.default_seats, 1))).snapshot()
    assert snapshot is not None
    return snapshot.view


def state_bytes(state: dict) -> bytes:
    return json.dumps(state).encode()


def test_a_tables_oversized_or_malformed_frames_and_lists_are_refused(page) -> None:
    board, client = page
    live_table(board, "table-a", "swiped")
    frame = client.get("/frame/table-a.png").body
    bounds = Bounds()
    huge = frame[:16] + (100_000).to_bytes(4) + (100_000).to_bytes(4) + frame[24:]
    for bad in (frame + b"\0" * bounds.frame, huge, b"GIF89a", b""):
        board.apply("table-a", "frame", bad)
        assert client.get("/frame/table-a.png").body == frame
    assert board.tables["table-a"].refused == {"large": 1, "shape": 3}
    assert board.apply("table-a", "results", b"[" + b" " * bounds.results + b"]") == []
    assert board.apply("table-a", "games", b"[" + b" " * bounds.games_list + b"]") == []
    assert board.apply("table-a", "availability", b"maybe") == []
    # A result of the table's evening list larger than a result may be.
    record = json.loads(result("table-a", "r1", ["Ana", "Bob"], [1, 0], 0))
    record |= {"rules": {"note": "x" * bounds.result}, "ended": datetime.now(UTC).isoformat()}
    board.apply("table-a", "games", games_of(result("table-a", "r1", ["Ana", "Bob"], [1, 0], 0)))
    assert board.apply("table-a", "results", json.dumps([record]).encode()) == []
    assert board.tables["table-a"].refused == {"large": 3, "shape": 5}
    assert board.results == {}


def test_the_boards_json_is_built_once_a_version_capped_and_not_sent_again(page) -> None:
    board, client = page
    live_table(board, "table-a", "swiped")
    evening = [result("table-a", f"r{i:03}", ["Ana", f"P{i}"], [i, 0], 0) for i in range(150)]
    counted(board, "table-a", *evening)
    first = client.get("/api/board")
    assert first.status == 200 and board.view_json()[1] is board.view_json()[1]
    served = first.json()
    assert served["results_total"] == 150 and served["players_total"] == 151
    assert [r["id"] for r in served["results"]] == [f"r{i:03}" for i in range(50, 150)]
    assert len(served["standings"]) == 151
    capped = Board(bounds=Bounds(shown_players=10))
    counted(capped, "table-a", *evening)
    capped_view = json.loads(capped.view_json()[1])
    assert len(capped_view["standings"]) == 10 and capped_view["players_total"] == 151
    again = client.request("GET", "/api/board", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status == 304 and again.body == b""
    board.apply("table-a", "availability", b"offline")
    changed = client.request("GET", "/api/board", headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status == 200 and changed.headers["ETag"] != first.headers["ETag"]
    rows = list(csv.DictReader(io.StringIO(client.get("/results.csv").body.decode())))
    assert len(rows) == 300  # the CSV has every result


def test_every_refusal_has_its_words() -> None:
    for words in WORDS.values():
        for reason in REASONS:
            assert words[f"why_{reason}"]
        for problem in ("large", "shape"):
            assert words[f"state_{problem}"]


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_a_connection_the_page_has_no_room_for_is_told_so_in_the_boards_words(lang) -> None:
    """The gate answers it with its server's sentence (tests/web/test_connections.py
    refuses one over a socket): the club's board, never "the table"."""
    server = ClubServer(Board(), lang, "127.0.0.1", 0)
    assert server.gate.refusal() == WORDS[lang]["full"]
    assert {"fr": "club", "en": "club"}[lang] in WORDS[lang]["full"]


def test_the_page_is_read_only(page) -> None:
    board, client = page
    for path in ("/", "/api/board", "/results.csv", "/api/t1/result"):
        for method in ("POST", "PUT", "DELETE"):
            assert client.request(method, path, b"{}").status == 405
    assert board.version == 0 and board.results == {}


def test_a_cards_links_are_made_by_the_board_from_a_tables_address_only() -> None:
    """A table says where its page is ("HOST:PORT", the retained ``page``); the board makes
    the card's links of it, its replays' once it finished a game. A payload that is no
    address (a scheme, a path, a script) is refused and counted; an empty one: no link."""
    board = Board()
    live_table(board, "t1", "flipdone")

    def card() -> dict:
        return json.loads(board.view_json()[1])["tables"][0]

    assert card()["page"] is None and card()["replay"] is None
    for address in ("192.168.1.21:8080", "[fe80::1]:8080", "table-1.local:80"):
        board.apply("t1", "page", address.encode())
        assert card()["page"] == f"http://{address}/" and card()["replay"] is None
    refused = [b"javascript:alert(1)//:1", b"http://evil.example:80", b"evil.example:80/x",
               b"a b:80", b"evil.example", b"host:80#x", b"x" * 301]  # fmt: skip
    for payload in refused:
        board.apply("t1", "page", payload)
        assert card()["page"] == "http://table-1.local:80/", payload
    assert board.tables["t1"].refused["shape"] == len(refused) - 1
    assert board.tables["t1"].refused["large"] == 1
    counted(board, "t1", result("t1", "r1", ["Ana", "Bob", "Cy"], [1, 4, 0], 1))
    assert card()["replay"] == "http://table-1.local:80/replay"
    board.apply("t1", "page", b"")  # its page turned off
    assert card()["page"] is None and card()["replay"] is None


def test_a_table_says_its_page_to_the_club_only_when_the_club_can_open_it() -> None:
    assert page_address("192.168.1.21:8080") == b"192.168.1.21:8080"
    assert page_address("[fe80::1]:8080") == b"[fe80::1]:8080"
    for private in (None, "", "127.0.0.1:8080", "[::1]:8080", "localhost:8080"):
        assert page_address(private) == b""  # no page, or one on the table itself only


def test_a_tables_status_is_shown_in_the_boards_language() -> None:
    """A table says its status line in each language (the card shows the board's): never
    the table's French sentence on an English board."""
    state = live_table(Board(), "t1", "vnp")
    assert state["language"] == "fr"
    assert state["statuses"]["fr"] == state["status"]
    assert state["statuses"]["en"].startswith("yellow (Ana) to play")
