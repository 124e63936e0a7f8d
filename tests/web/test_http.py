"""The page's HTTP side over a real socket, on a live table: what anyone may see, and every
refused request (unpaired, wrong CSRF, another site, malformed, oversized...), each with
its status and a sentence, never a traceback; and what a paired seat's action does."""

from __future__ import annotations

import base64
import json
import logging
import os
import socket
import stat
from importlib import resources

import pytest

from companion import games
from companion.games.vnp.page import segments_of
from companion.journal import PressInput, read_journal
from companion.transcript import describe
from companion.web.pairing import FREE_TRIES, Pairings
from companion.web.public import patch
from companion.web.server import MAX_BODY

from .table import LiveTable, archive_game


@pytest.fixture
def table(tmp_path):
    setup = games.get("ptipasspass").simulated_setup(4, 3)
    live = LiveTable(tmp_path, setup)
    yield live
    live.close()


def refused(answer, status):
    assert answer.status == status, answer.body
    error = answer.json()["error"]
    assert isinstance(error, str) and error and "Traceback" not in error
    return error


# ------------------------------------------------------------------------- watching


def test_anyone_may_watch_the_public_view(table):
    state = table.client().get("/api/state")
    assert state.status == 200
    view = state.json()
    assert view["game"] == "ptipasspass"
    assert view["seats"] == list(table.session.referee.names)
    assert view["you"] is None
    assert view["pairing"] == {"open_seats": [0, 1, 2, 3]}
    # The hats as the table sees them (PTI-2: 3 x 4 for four seats), none filled yet, and
    # the page view that draws them.
    assert view["board"]["hats"] == [0] * 12 and view["board"]["hands"] == [3] * 4
    assert view["page_assets"] == ["hands.js", "view.css", "view.js"]
    assert view["virtual"] is False  # a real table: its tokens are on the table
    frame = table.client().get(view["frame"])
    assert frame.status == 200 and frame.body.startswith(b"\x89PNG")
    assert "default-src 'self'" in state.headers["Content-Security-Policy"]
    assert state.headers["Cache-Control"] == "no-store"


def test_pages_and_static_files_are_served_and_nothing_else(table):
    client = table.client()
    assert client.get("/").status == 200
    for path in ("/static/../server.py", "/static/%2e%2e%2fserver.py", "/static/.hidden.js",
                 "/static/nothing.js", "/static/index.py"):  # fmt: skip
        assert client.get(path).status == 404, path


def test_the_qr_code_address_opens_the_page_with_the_code(table):
    answer = table.client().get("/P/123456")
    assert answer.status == 302 and answer.headers["Location"] == "/?pair=123456"
    assert table.client().get("/P/../etc").status == 404


# -------------------------------------------------------------------------- pairing


def test_pairing_with_the_code_makes_a_phone_a_seat(table):
    phone = table.client()
    answer = phone.pair(table, 2)
    assert answer.status == 200
    assert answer.json()["name"] == table.session.referee.names[2]
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    you = phone.get("/api/state").json()["you"]
    assert you["seat"] == 2 and you["csrf"] == phone.csrf
    assert table.client().get("/api/state").json()["you"] is None
    # Each token is 192 random bits (docs/web.md), base64url without padding.
    for token in (phone.cookies["companion_seat"], phone.csrf):
        assert len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8 == 192


def test_the_code_changes_after_each_pairing(table):
    code = table.web.pairings.code
    assert table.client().pair(table, 0).status == 200
    assert table.web.pairings.code != code
    late = table.client().post("/api/pair", {"code": code, "seat": 1})
    refused(late, 403)


def test_wrong_codes_leave_the_code_the_oled_shows(table):
    """Guesses must not change the code under the feet of whoever reads it on the OLED."""
    code = table.web.pairings.code
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for _ in range(FREE_TRIES):
        refused(table.client().post("/api/pair", {"code": wrong, "seat": 0}), 403)
    assert table.web.pairings.code == code


@pytest.mark.parametrize(
    "body",
    [
        {"code": "12345", "seat": 0},
        {"code": 123456, "seat": 0},
        {"code": "abcdef", "seat": 0},
        {"code": "123456", "seat": 4},  # one past the last of the 4 seats
        {"code": "123456", "seat": 9},
        {"code": "123456", "seat": -1},
        {"code": "123456", "seat": "Ana"},
        {"code": "123456", "seat": True},
        {"code": "123456"},
        {"code": "123456", "seat": 0, "admin": True},
    ],
)
def test_malformed_pairings_are_refused(table, body):
    refused(table.client().post("/api/pair", body), 400)


def test_pairing_a_seat_again_replaces_its_phone(table, caplog):
    old, new = table.client(), table.client()
    name = table.session.referee.names[1]
    with caplog.at_level(logging.INFO, logger="companion"):
        old.pair(table, 1)
        new.pair(table, 1)
    assert old.get("/api/state").json()["you"] is None
    refused(old.act("doublon"), 401)
    said = [r.getMessage() for r in caplog.records if "paired to" in r.getMessage()]
    assert said == [
        f"web: a phone is paired to {name}",
        f"web: a phone is paired to {name} (its previous phone is unpaired)",
    ]


def test_a_table_without_pairings_saved_yet_starts_without_a_warning(tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="companion"):
        for path in (tmp_path / "pairings.json", None):
            assert Pairings(("Ana", "Bob"), path).paired_seats() == set()
    assert caplog.records == []


def test_pairings_survive_a_restart_of_the_same_game_only(table, tmp_path):
    phone = table.client()
    phone.pair(table, 1)
    path = tmp_path / "pairings.json"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert json.dumps(phone.cookies["companion_seat"]) not in path.read_text()
    names = tuple(table.session.referee.names)
    game = table.web.pairings.game
    restarted = Pairings(names, path, game=game)
    assert restarted.who(phone.cookies["companion_seat"])[0] == 1
    assert restarted.pair(restarted.code, 2).seat == 2  # the game goes on: phones pair
    assert Pairings(("X", "Y"), path, game=game).who(phone.cookies["companion_seat"]) is None
    # Another game with the same seats (a new journal): its phones must pair again.
    assert Pairings(names, path, game="another").who(phone.cookies["companion_seat"]) is None


def test_a_saved_pairing_for_no_seat_of_the_game_is_not_taken(table, tmp_path):
    """pairings.json edited or damaged: an entry whose seat is no seat of the game (past
    the last, negative, not a number) or whose hash is no string is left out, the others
    kept."""
    table.client().pair(table, 1)
    path = tmp_path / "pairings.json"
    data = json.loads(path.read_text())
    [[digest, _, csrf, at]] = data["paired"]
    data["paired"] += [
        ["a" * 64, 4, csrf, at],
        ["b" * 64, -1, csrf, at],
        ["c" * 64, "2", csrf, at],
        [7, 2, csrf, at],
    ]
    path.write_text(json.dumps(data))
    loaded = Pairings(tuple(table.session.referee.names), path, game=table.web.pairings.game)
    assert loaded.paired_seats() == {1}


# ------------------------------------------------------------------------- refusals


def test_an_unpaired_phone_cannot_act(table):
    refused(table.client().act("doublon"), 401)


def test_an_action_needs_the_pairings_csrf_token(table):
    phone = table.client()
    phone.pair(table, 1)
    token = phone.csrf
    phone.csrf = None
    refused(phone.act("doublon"), 403)
    phone.csrf = "x" + token
    refused(phone.act("doublon"), 403)
    other = table.client()
    other.pair(table, 2)
    phone.csrf = other.csrf  # another seat's token with this seat's cookie
    refused(phone.act("doublon"), 403)


def test_requests_from_another_sites_page_are_refused(table):
    phone = table.client()
    phone.pair(table, 1)
    answer = phone.post("/api/act", {"control": "doublon"}, Origin="http://evil.example")
    refused(answer, 403)
    answer = table.client().post(
        "/api/pair", {"code": table.web.pairings.code, "seat": 0}, Origin="http://evil.example"
    )
    refused(answer, 403)


@pytest.mark.parametrize(
    ("body", "content_type", "status"),
    [
        (b"{not json", "application/json", 400),
        (b"[1, 2]", "application/json", 400),
        (b'"doublon"', "application/json", 400),
        (b"[" * 4000 + b"]" * 4000, "application/json", 400),
        (b'{"control": "doublon"}', "text/plain", 415),
        (b"control=doublon", "application/x-www-form-urlencoded", 415),
        (b'{"control": 7}', "application/json", 400),
        (b'{"control": "fly"}', "application/json", 400),
        (b'{"control": "doublon", "seat": 0}', "application/json", 400),
        (b'{"value": 1}', "application/json", 400),
        (b'{"control": "doublon", "value": "' + b"x" * MAX_BODY + b'"}', "application/json", 413),
    ],
)
def test_malformed_and_oversized_actions_are_refused(table, body, content_type, status):
    phone = table.client()
    phone.pair(table, 1)
    answer = phone.request(
        "POST", "/api/act", body, {"Content-Type": content_type, "X-CSRF-Token": phone.csrf}
    )
    refused(answer, status)


def test_a_seats_action_goes_through_the_journal_as_that_seats_press(table):
    """The seat comes from the pairing, never from the page; the referee judges it like a
    button: Doublon before any drop is refused (shown), and the page is told why."""
    phone = table.client()
    phone.pair(table, 2)
    answer = phone.act("doublon")
    assert answer.status == 409
    assert answer.json()["error"]
    table.settle()
    presses = [r for r in read_journal(table.data_dir / "game.jsonl").inputs
               if isinstance(r, PressInput)]  # fmt: skip
    assert [(p.control, p.seat) for p in presses] == [("doublon", 2)]
    events = table.session.referee.events
    assert events[-1]["kind"] == "ignored" and events[-1]["seat"] == 2


def test_a_phone_unpairs_itself(table):
    phone = table.client()
    phone.pair(table, 1)
    assert phone.post("/api/unpair").status == 200
    refused(phone.act("doublon"), 401)
    assert table.client().get("/api/state").json()["pairing"]["open_seats"] == [0, 1, 2, 3]


def test_the_console_unpairs_from_the_pi_itself_with_its_token(table, caplog):
    phone = table.client()
    phone.pair(table, 1)
    name = table.session.referee.names[1]
    console = table.client()
    refused(console.post("/api/admin/unpair", {"seat": name}), 403)
    refused(console.post("/api/admin/unpair", {"seat": name}, **{"X-Admin-Token": "x"}), 403)
    token = (table.data_dir / "web-admin.token").read_text()
    assert stat.S_IMODE(os.stat(table.data_dir / "web-admin.token").st_mode) == 0o600
    nobody = console.post("/api/admin/unpair", {"seat": "Nobody"}, **{"X-Admin-Token": token})
    refused(nobody, 400)
    with caplog.at_level(logging.INFO, logger="companion"):
        answer = console.post("/api/admin/unpair", {"seat": name}, **{"X-Admin-Token": token})
    # Refused or done, the console reads it in the table's language (French here).
    assert answer.json() == {"ok": True, "unpaired": 1, "said": "Téléphones dissociés : 1."}
    assert nobody.json()["error"].startswith("Nommez une place")
    refused(phone.act("doublon"), 401)
    # Said in the log, and saved: a restart of the table does not pair that phone again.
    said = [r.getMessage() for r in caplog.records if "unpaired" in r.getMessage()]
    assert said == [f"web: unpaired {name}"]
    names, game = tuple(table.session.referee.names), table.web.pairings.game
    again = Pairings(names, table.data_dir / "pairings.json", game=game)
    assert again.who(phone.cookies["companion_seat"]) is None
    # Unpairing a seat with no phone unpairs nothing, and says nothing.
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion"):
        none_left = console.post("/api/admin/unpair", {"seat": name}, **{"X-Admin-Token": token})
    assert none_left.json()["unpaired"] == 0
    assert not [r for r in caplog.records if "unpaired" in r.getMessage()]


def test_asking_for_the_code_shows_the_pairing_card_on_the_oled(table):
    from companion.screens.pairing import PairingScreen

    assert table.web.overlay() is None  # PassPass is played with buttons: no card
    assert table.client().post("/api/pair/show").status == 200
    table.settle()
    card = table.web.overlay()
    assert isinstance(card, PairingScreen) and card.code == table.web.pairings.code
    assert table.display._last_screen == card
    assert table.web.pairings.code not in table.client().get("/api/state").body.decode()


# ------------------------------------------------------------------------- journals


def test_journals_are_listed_and_replayed_as_public_steps(table):
    phone = table.client()
    phone.pair(table, 2)
    phone.act("doublon")
    table.settle()
    listing = table.client().get("/api/journals").json()["journals"]
    assert [(j["name"], j["current"]) for j in listing] == [("game.jsonl", True)]
    replay = table.client().get("/api/journals/game.jsonl").json()
    assert replay["seats"] == list(table.session.referee.names)
    assert any("doublon" in line.lower() for step in replay["steps"] for line in step["lines"])
    frame = table.client().get(replay["steps"][-1]["frame"])
    assert frame.status == 200 and frame.body.startswith(b"\x89PNG")
    text = json.dumps(replay)
    for uid in table.session.referee.setup.tags:
        assert uid not in text  # a journal's tags never leave the server


def archived(table, name: str, game: str, seats: int, seed: int):
    return archive_game(table.data_dir, name, game, seats, seed)


def test_the_list_tells_each_games_date_title_seats_steps_and_winner(table):
    referee = archived(table, "game-20260101-101500.jsonl", "swiped", 2, 3)
    os.utime(table.data_dir / "archive" / "game-20260101-101500.jsonl", (1767262500, 1767262500))
    listing = table.client().get("/api/journals").json()["journals"]
    assert [j["name"] for j in listing] == ["game.jsonl", "game-20260101-101500.jsonl"]
    live, done = listing
    assert (live["current"], live["finished"], live["winner"]) == (True, False, None)
    assert done["title"] == "Swiped" and done["seats"] == list(referee.names)
    assert done["date"] == "2026-01-01T10:15:00+00:00"
    assert done["finished"] and done["winner"] == referee.names[referee.result()["winner"]]
    assert done["steps"] == len(table.client().get(f"/api/journals/{done['name']}").json()["steps"])
    assert done["record"] == "/api/journals/game-20260101-101500.jsonl/record.txt"


def test_each_step_of_a_replay_has_the_table_as_the_live_page_had_it(table):
    """The step's public table: the game's own (`page_view`), the scores and, only at the
    end, the result."""
    referee = archived(table, "game-1.jsonl", "flipdone", 3, 1)
    document = table.client().get("/api/journals/game-1.jsonl").json()
    assert "view.js" in document["page_assets"]
    steps = document["steps"]
    first = table.client().get(steps[0]["table"]).json()
    last = table.client().get(steps[-1]["table"]).json()
    assert not first["finished"] and first["winner"] is None
    assert first["board"]["faces"] == [None] * 9 and first["board"]["tokens"] == [0, 0, 0]
    assert last["finished"] and last["winner"] == referee.result()["winner"]
    assert last["scores"] == referee.result()["scores"]
    assert last["board"] == games.get("flipdone").page_view(referee)


def test_the_record_to_download_is_the_public_story_never_the_journal(table):
    referee = archived(table, "game-2.jsonl", "ptipasspass", 3, 4)
    answer = table.client().get("/api/journals/game-2.jsonl/record.txt")
    assert answer.status == 200
    assert answer.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert answer.headers["Content-Disposition"] == 'attachment; filename="game-2.txt"'
    text = answer.body.decode()
    told = [line for e in referee.events
            if (line := describe(e, referee.names, "ptipasspass", "fr")) is not None]  # fmt: skip
    assert [line.split(" s  ", 1)[1] for line in text.splitlines() if " s  " in line] == told
    assert text.startswith("PtiPassPass\n") and f"Joueurs : {', '.join(referee.names)}" in text
    winner = referee.names[referee.result()["winner"]]
    assert text.endswith(f"Gagnant : {winner}\n")
    for uid in referee.setup.tags:
        assert uid not in text  # which tag is which token never leaves the table


@pytest.mark.parametrize(
    "path",
    [
        "/api/journals/..%2Fgame.jsonl",
        "/api/journals/pairings.json",
        "/api/journals/nothing.jsonl",
        "/api/journals/game.jsonl/frames/999.png",
        "/api/journals/game.jsonl/frames/x.png",
        "/api/journals/game.jsonl/steps/999.json",
        "/api/journals/game.jsonl/steps/-1.json",
        "/api/journals/..%2Fgame.jsonl/steps/0.json",
        "/api/journals/nothing.jsonl/record.txt",
        "/api/journals/..%2Fgame.jsonl/record.txt",
        "/api/journals/pairings.json/record.txt",
    ],
)
def test_unknown_journals_and_steps_are_not_found(table, path):
    refused(table.client().get(path), 404)


# ----------------------------------------------------------------------- live events


def read_event(response):
    """The next server-sent event: (its name, its data), keep-alive comments skipped."""
    name, data = "message", []
    while True:
        line = response.fp.readline().decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])
        elif line == "" and data:
            return name, json.loads("".join(data))


class Follower:
    """A live stream read as the page's script reads it: the whole state, then each
    delta applied to it (`companion.web.public.patch`)."""

    def __init__(self, response):
        self.response = response
        self.state = None
        self.events = []

    def next(self):
        name, data = read_event(self.response)
        self.events.append(name)
        if name == "state":
            self.state = data
        else:
            assert name == "delta" and data["from"] == self.state["version"], (name, data)
            self.state = {**patch(self.state, data["ops"]), "version": data["version"]}
        return self.state


def test_the_live_stream_sends_the_state_then_every_change(table):
    import http.client

    connection = http.client.HTTPConnection(table.host, table.port, timeout=10)
    connection.request("GET", "/api/live")
    response = connection.getresponse()
    assert response.getheader("Content-Type") == "text/event-stream"
    stream = Follower(response)
    first = stream.next()
    assert first["you"] is None
    table.client().pair(table, 3)  # the seats open change for every page
    second = stream.next()
    assert second["version"] > first["version"]
    assert second["pairing"]["open_seats"] == [0, 1, 2]
    # Only what changed was sent: the whole state once, then deltas; they make the state
    # a page asking now is sent.
    assert stream.events[0] == "state" and set(stream.events[1:]) == {"delta"}
    while second["version"] < table.web.hub.version:
        second = stream.next()
    assert second == table.client().get("/api/state").json()
    connection.close()


def test_an_http_1_0_stream_is_sent_the_same_changes_without_chunks(table):
    """A client of HTTP/1.0 has no chunked bodies: the changes the hub writes to its
    stream come as they are, and make the state a page asking now is sent."""
    with socket.create_connection((table.host, table.port), timeout=10) as sock:
        sock.sendall(f"GET /api/live HTTP/1.0\r\nHost: {table.host}:{table.port}\r\n\r\n".encode())
        got = bytearray()
        while b"event: state" not in got:
            got += sock.recv(1 << 16)
        phones = [table.client() for _ in range(2)]
        for seat, phone in enumerate(phones):  # each pairing changes every page's seats
            assert phone.pair(table, seat).status == 200
        for phone in phones:
            assert phone.post("/api/unpair").status == 200
        now = table.stable_version()
        state: dict = {"version": -1}
        while state["version"] < now:
            got += sock.recv(1 << 16)
            head, body = bytes(got).split(b"\r\n\r\n", 1)
            for event in body.decode().split("\n\n")[:-1]:
                kind, _, data = event.partition("\ndata: ")
                if kind == "event: state":
                    state = json.loads(data)
                elif kind == "event: delta":
                    change = json.loads(data)
                    assert change["from"] == state["version"]
                    state = {**patch(state, change["ops"]), "version": change["version"]}
    assert head.startswith(b"HTTP/1.0 200") and b"chunked" not in head.lower()
    assert body.count(b"event: state") == 1 and body.count(b"event: delta") >= 4
    assert state == table.client().get("/api/state").json()


def open_stream(client):
    import http.client

    connection = http.client.HTTPConnection(client.host, client.port, timeout=10)
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in client.cookies.items())}
    connection.request("GET", "/api/live", headers=headers)
    return connection, connection.getresponse()


def test_every_watcher_gets_the_same_state_and_a_paired_phone_only_adds_who_it_is(table):
    """A room of phones costs one serialization per change: the watchers' events are the
    very same bytes, and a paired phone's differs only by its `you`."""
    phone = table.client()
    phone.pair(table, 1)
    streams = [open_stream(table.client()) for _ in range(2)] + [open_stream(phone)]
    states = [read_event(response)[1] for _, response in streams]
    assert states[0] == states[1] and states[0]["you"] is None
    assert states[2]["you"] == {"seat": 1, "name": table.web.hub.seats[1], "csrf": phone.csrf}
    assert {**states[2], "you": None} == states[0]
    hub = table.web.hub
    assert hub.event_bytes(None) is hub.event_bytes("not a pairing")
    for connection, _ in streams:
        connection.close()


# ------------------------------------------------------------ a game played on the page


@pytest.fixture
def vnp(tmp_path):
    live = LiveTable(tmp_path, games.get("vnp").simulated_setup(2, 1))
    yield live
    live.close()


def test_a_seat_acts_only_for_its_own_colours(vnp):
    """VNP-7, two players: seat 0 plays bleu and vert, seat 1 jaune and rouge; jaune starts."""
    ana = vnp.client()
    ana.pair(vnp, 0)
    board = ana.get("/api/state").json()["board"]
    assert board["turn"] == "jaune" and board["colour_seats"] == [1, 0, 1, 0]
    segments = segments_of(board["size"], board["legal"][0])
    refused(ana.act("place", {"colour": "jaune", "segments": segments}), 403)
    refused(ana.act("pass", {"colour": "rouge"}), 403)
    # Her own colour, out of turn: the referee refuses it (VNP-2), and says so.
    answer = ana.act("place", {"colour": "bleu", "segments": segments})
    assert answer.status == 409 and answer.json()["error"]
    bob = vnp.client()
    bob.pair(vnp, 1)
    assert bob.act("place", {"colour": "jaune", "segments": segments}).status == 200


@pytest.mark.parametrize(
    "value",
    [
        None,
        "jaune",
        {"colour": "noir", "segments": [[2, 2, 3, 2]]},
        {"colour": "jaune"},
        {"colour": "jaune", "segments": []},
        {"colour": "jaune", "segments": [[2, 2, 4, 2]]},
        {"colour": "jaune", "segments": [[2, 2, 3, 2], [5, 5, 6, 5]]},
        {"colour": "jaune", "segments": [[2, 2, 3, 2]], "placement": 3},
        {"colour": "jaune", "segments": [["2", 2, 3, 2]]},
    ],
)
def test_placements_that_are_no_piece_are_refused(vnp, value):
    bob = vnp.client()
    bob.pair(vnp, 1)
    refused(bob.act("place", value), 400)


def test_a_games_page_view_is_served_and_nothing_else_of_its_package(vnp):
    client = vnp.client()
    assert client.get("/api/state").json()["page_assets"] == ["view.css", "view.js"]
    page = client.get("/static/app.js")
    folder = resources.files("companion.games.vnp") / "static"
    for name, kind in (("view.js", "text/javascript"), ("view.css", "text/css")):
        answer = client.get(f"/games/vnp/{name}")
        assert answer.status == 200 and answer.headers["Content-Type"].startswith(kind), name
        assert answer.body == (folder / name).read_bytes()
        for header in ("Content-Security-Policy", "X-Content-Type-Options", "Cache-Control"):
            assert answer.headers[header] == page.headers[header], header
    for path in ("/games/nosuch/view.js", "/games/ptipasspass/page.py", "/games/vnp/nothing.js",
                 "/games/vnp/game.py", "/games/vnp/static/view.js", "/games/vnp/static%2fview.js",
                 "/games/vnp/..%2fgame.py", "/games/vnp/%2e%2e%2fgame.py",
                 "/games/vnp/../vnp/game.py", "/games/%2e%2e/web/static/app.js",
                 "/games/vnp/.view.js", "/games/vnp/VIEW.JS", "/games/vnp/"):  # fmt: skip
        refused(client.get(path), 404)


def test_a_games_fixed_data_is_served_for_its_page_view_whatever_the_table_plays(table):
    client = table.client()  # the table plays PtiPassPass; a replay may show another game
    pieces = client.get("/api/vnp/pieces")
    assert pieces.status == 200 and pieces.headers["Cache-Control"] == "no-store"
    assert pieces.json() == games.get("vnp").page_data["pieces"]()
    for path in ("/api/nosuch/pieces", "/api/vnp/nothing", "/api/ptipasspass/pieces"):
        refused(client.get(path), 404)


# ------------------------------------------------------------------------- lab reports


def test_lab_reports_are_listed_and_served_with_nothing_else_of_the_folder(table):
    folder = table.data_dir / "reports" / "pti"
    folder.mkdir(parents=True)
    (folder / "report.html").write_text("<!doctype html><title>r</title>", encoding="utf-8")
    figures = {"title": "Lab: pti", "variants": [{"variant": "as ruled"}]}
    (folder / "figures.json").write_text(json.dumps(figures), encoding="utf-8")
    (folder / "figures.csv").write_text("variant\n", encoding="utf-8")
    (folder / "secret.txt").write_text("no", encoding="utf-8")
    client = table.client()
    listing = client.get("/api/reports").json()["reports"]
    assert [(r["name"], r["title"], r["variants"]) for r in listing] == [
        ("pti", "Lab: pti", ["as ruled"])]  # fmt: skip
    page = client.get("/reports/pti/")
    assert page.status == 200 and page.headers["Content-Type"].startswith("text/html")
    assert page.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert client.get("/reports/pti/figures.json").json()["title"] == "Lab: pti"
    assert "attachment" in client.get("/reports/pti/figures.csv").headers["Content-Disposition"]
    for path in ("/reports/pti/secret.txt", "/reports/../game.jsonl", "/reports/.x/",
                 "/reports/%2e%2e/report.html", "/reports/none/"):  # fmt: skip
        assert client.get(path).status == 404, path
