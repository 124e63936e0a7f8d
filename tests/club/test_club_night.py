"""A club night against a real Mosquitto: tables publish, the club's board follows.

Three simulated tables of different games publish through the broker; the board shows
each live and the standings after each result; a broker killed mid-game and a broker
gone for a whole game lose no result and count none twice; the ACL keeps every table to
its own topics and the club's user to reading; and nothing hidden reaches the broker.
"""

from __future__ import annotations

import json
import threading

import paho.mqtt.client as mqtt

from companion import games
from companion.club.link import TableLink
from companion.club.topics import announcement, page_address, state_payload
from companion.web.public import Publisher
from tests.club.conftest import CLUB, SimTable, outbox, wait_for
from tests.web.table import Client

GAMES = {"table-a": "ptipasspass", "table-b": "flipdone", "table-c": "swiped"}


def page_view_now(table: SimTable) -> dict:
    """The public view the table's page has now, as the club's state carries it."""
    snapshot = Publisher(table.session.referee).snapshot()
    assert snapshot is not None
    return json.loads(state_payload(snapshot.view))


def expected_standings(tables: list[SimTable]) -> dict[str, tuple[int, int]]:
    """(games played, wins) per player of the finished games, from the referees."""
    out: dict[str, tuple[int, int]] = {}
    for t in tables:
        referee = t.session.referee
        if not referee.finished:
            continue
        winner = referee.result()["winner"]
        for seat, name in enumerate(referee.names):
            played, wins = out.get(name, (0, 0))
            out[name] = (played + 1, wins + int(winner == seat))
    return out


def standings_of(club) -> dict[str, tuple[int, int]]:
    return {s.name: (s.played, s.wins) for s in club.board.standings()}


def test_three_tables_are_live_on_the_board_and_the_standings_follow_each_result(
    broker, club, tables, tmp_path
):
    for name, game in GAMES.items():
        tables.append(SimTable(name, game, broker, tmp_path / name))
    for table in tables:
        table.play(0.5)
    for table in tables:  # each table live: the board has the page's own view of it
        wait_for(lambda t=table: _state(club, t.name) == page_view_now(t))
        wait_for(lambda t=table: club.board.frame(t.name))  # the OLED, sent after the state
        # "online" goes at QoS 1, the state at QoS 0: MQTT orders each QoS on its own
        wait_for(lambda t=table: club.board.tables[t.name].online)
        assert club.board.frame(table.name).startswith(b"\x89PNG")
    for done, table in enumerate(tables, 1):
        table.play()
        wait_for(lambda n=done: len(club.board.results) == n)
        record = list(club.board.results.values())[-1]
        referee = table.session.referee
        assert record["table"] == table.name and record["game"] == GAMES[table.name]
        assert record["seats"] == list(referee.names)
        assert record["scores"] == referee.result()["scores"]
        assert record["winner"] == referee.result()["winner"]
        assert record["duration"] == round(_ended_at(table) - referee.setup.t, 1)
        assert standings_of(club) == expected_standings(tables)
        wait_for(lambda t=table: _state(club, t.name) == page_view_now(t))
        assert _state(club, table.name)["finished"] is True
    archived = [json.loads(line) for line in club.archive.read_text().splitlines()]
    assert [r["id"] for r in archived] == list(club.board.results)
    for table in tables:  # every result acknowledged, none left waiting
        wait_for(lambda t=table: outbox(t.folder) == [])


HUB_OWN = ("version", "frame", "pairing", "you")
"""What the table's page server adds for its own clients (its frame's address, its
pairing), not the table's public view."""


def test_a_table_with_its_page_sends_the_pages_own_view_from_its_first(broker, club, tables,
                                                                         tmp_path):  # fmt: skip
    table = SimTable("table-a", "vnp", broker, tmp_path / "table-a", page=True)
    tables.append(table)
    assert table.web is not None
    client = Client("127.0.0.1", int(table.web.address.rsplit(":", 1)[1]))

    def page_now() -> dict:
        state = client.get("/api/state").json()
        return {k: v for k, v in state.items() if k not in HUB_OWN}

    wait_for(lambda: _state(club, "table-a") == page_now())  # before any act
    table.play(0.5)
    wait_for(lambda: _state(club, "table-a") == page_now() == page_view_now(table))
    # The same bytes as the page's, up to what its server adds for its own clients (its
    # version first, then the rest after; once the table has taken every act: the page
    # and the hub then stand still).
    hub = table.web.hub

    def same_bytes() -> bool:
        version, _, rest = client.get("/api/state").body.partition(b",")
        own = state_payload(hub.snapshot.view)[:-1] + b","
        return version.startswith(b'{"version":') and (b"{" + rest).startswith(own)

    wait_for(same_bytes)


def test_a_tables_card_links_to_its_page_and_once_a_game_ended_to_its_replays(
    broker, club, tables, tmp_path
):
    """A table whose page listens on its network says where (the retained ``page``): the
    board's card links to it, and to its replays once it finished a game. A page on the
    table itself only (127.0.0.1) is no link for the club's screen."""
    shown = SimTable("table-a", "swiped", broker, tmp_path / "a", page=True, page_host="0.0.0.0")
    private = SimTable("table-b", "swiped", broker, tmp_path / "b", page=True)
    tables.extend([shown, private])
    assert shown.web is not None and private.web is not None
    address = shown.web.address  # the table's address on its network, as its log says it
    page = f"http://{address}/" if page_address(address) else None  # none on a loopback-only box
    wait_for(lambda: _card(club, "table-a").get("online") and _card(club, "table-b").get("online"))
    wait_for(lambda: _card(club, "table-a")["page"] == page)
    assert _card(club, "table-a")["replay"] is None  # no game over yet
    assert _card(club, "table-b")["page"] is None and private.web.address.startswith("127.0.0.1:")
    shown.play()
    wait_for(lambda: len(club.board.results) == 1)
    wait_for(lambda: _card(club, "table-a")["replay"] == (page and page + "replay"))


def _card(club, name: str) -> dict:
    """The table's card as the club's page gets it (`/api/board`)."""
    cards = json.loads(club.board.view_json()[1])["tables"]
    return next((card for card in cards if card["name"] == name), {})


def _ended_at(table: SimTable) -> float:
    """The table's time when its game ended (the script goes on a little after)."""
    referee = games.get(table.setup.game).referee(table.setup)
    for record in table.inputs:
        referee.feed(record)
        if referee.finished:
            return referee.now
    raise AssertionError("the simulated game never ends")


def _state(club, name):
    now = club.board.tables.get(name)
    return None if now is None else now.state


def test_a_broker_killed_mid_game_loses_no_result_and_counts_none_twice(
    broker, club, tables, tmp_path
):
    for name, game in GAMES.items():
        tables.append(SimTable(name, game, broker, tmp_path / name))
    for table in tables:
        table.play(0.5)
    for table in tables:
        wait_for(lambda t=table: _state(club, t.name) == page_view_now(t))
    broker.kill()
    broker.forget()  # and its disk: the board's session and the retained lists are gone
    for table in tables:
        table.play()
    for table in tables:  # the games end while the broker is away: the results wait on disk
        wait_for(lambda t=table: outbox(t.folder))
    assert club.board.results == {}
    broker.start()
    wait_for(lambda: len(club.board.results) == 3)
    for table in tables:
        wait_for(lambda t=table: outbox(t.folder) == [])
        wait_for(lambda t=table: _state(club, t.name) == page_view_now(t))
    assert sorted(r["table"] for r in club.board.results.values()) == sorted(GAMES)
    assert len(club.archive.read_text().splitlines()) == 3
    assert standings_of(club) == expected_standings(tables)


def test_a_table_whose_broker_is_gone_all_game_delivers_its_result_after_a_restart(
    broker, tables, tmp_path
):
    from tests.club.conftest import Club

    broker.kill()
    table = SimTable("table-b", "swiped", broker, tmp_path / "table-b")
    tables.append(table)
    table.play()
    wait_for(lambda: table.session.referee.finished and outbox(table.folder))
    table.close()  # the table is switched off with its result unsent
    tables.clear()
    [waiting] = outbox(table.folder)
    broker.start()
    club = Club(broker, tmp_path)
    try:
        # The table starts again (its next game): the outbox goes first.
        again = SimTable("table-b", "swiped", broker, tmp_path / "table-b-next", seed=2)
        tables.append(again)
        restarted = TableLink(table.config, table.folder, again.session.referee, retry=1)
        restarted.start()
        try:
            wait_for(lambda: len(club.board.results) == 1)
            wait_for(lambda: outbox(table.folder) == [])
        finally:
            restarted.stop()
        [record] = club.board.results.values()
        assert f"{record['id']}.json" == waiting
        assert record["winner"] == table.session.referee.result()["winner"]
    finally:
        club.close()


def test_a_board_started_late_has_every_game_of_the_evening(broker, tables, tmp_path):
    from tests.club.conftest import Club

    for name, game in GAMES.items():
        tables.append(SimTable(name, game, broker, tmp_path / name))
    for table in tables:
        table.play()
    for table in tables:
        wait_for(lambda t=table: t.session.referee.finished and outbox(t.folder) == [])
    club = Club(broker, tmp_path)  # no session of its own yet: the tables' evening lists
    try:
        wait_for(lambda: len(club.board.results) == 3)
        assert standings_of(club) == expected_standings(tables)
        for table in tables:
            wait_for(lambda t=table: _state(club, t.name) == page_view_now(t))
    finally:
        club.close()


def _client(broker, user: str, client_id: str) -> mqtt.Client:
    """A client of ``user``'s, connected (its broker's CONNACK in)."""
    client = broker.client(user, client_id)
    connected = threading.Event()
    client.on_connect = lambda *_: connected.set()
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    assert connected.wait(10)
    return client


def _forged(table: str, result_id: str) -> bytes:
    return json.dumps({"id": result_id, "table": table, "game": "swiped", "seats": ["X", "Y"],
                       "scores": [1, 0], "winner": 0}).encode()  # fmt: skip


def test_only_a_table_publishes_under_its_own_name_and_the_club_only_reads(broker, club):
    intruder = _client(broker, "table-a", "intruder")
    reader = club.reader.client  # the club's user: its one connection is the board's
    try:
        for client in (intruder, reader):  # another table's topics, the club's own name
            for table in ("table-b", CLUB):
                for kind in ("result", "state", "availability"):
                    payload = _forged(table, f"{table}-forged") if kind == "result" else b"{}"
                    client.publish(
                        f"companion/tables/{table}/{kind}", payload, qos=1
                    ).wait_for_publish(5)
        # The intruder's own table is its to publish: this one arrives, after the forged ones
        # (a client's messages reach a subscriber in order), once its game is announced.
        games = [announcement("a-1", "swiped", ["X", "Y"], "2026-11-27T20:00:00+00:00")]
        intruder.publish("companion/tables/table-a/games", json.dumps(games), qos=1)
        intruder.publish("companion/tables/table-a/result", _forged("table-a", "a-1"), qos=1)
        reader.publish("companion/tables/table-c/result", _forged("table-c", "c-1"), qos=1)
        wait_for(lambda: "a-1" in club.board.results)
        intruder.publish("companion/tables/table-a/availability", b"online", qos=1)
        wait_for(lambda: "table-a" in club.board.tables)
        assert list(club.board.results) == ["a-1"]
        assert set(club.board.tables) == {"table-a"}
    finally:
        intruder.disconnect()
        intruder.loop_stop()


def test_nothing_hidden_reaches_the_broker(broker, tables, tmp_path):
    """Every payload on the broker, read by a client of the club's: no tag UID anywhere, a
    state is always a view the table's page had at some step, a result only names what the
    club shows."""
    received: list[tuple[str, bytes]] = []
    spy = broker.client(CLUB, "spy")
    spy.on_message = lambda c, u, m: received.append((m.topic, bytes(m.payload)))
    subscribed = threading.Event()
    spy.on_subscribe = lambda *_: subscribed.set()
    spy.connect("127.0.0.1", broker.port)
    spy.subscribe("#", qos=1)
    spy.loop_start()
    assert subscribed.wait(10)  # before the first table publishes
    try:
        for name, game in GAMES.items():
            tables.append(SimTable(name, game, broker, tmp_path / name, lang="en"))
        for table in tables:
            table.play()
        wait_for(lambda: sum(t.endswith("/result") for t, _ in received) == 3)
        for table in tables:
            wait_for(lambda t=table: outbox(t.folder) == [])
        # Each table closes and says "offline" last: what it published before has reached
        # the spy (a table that connected late sends its state and frame after its result).
        played = list(tables)
        while tables:
            tables.pop().close()
        wait_for(
            lambda: sum(p == b"offline" for t, p in received if t.endswith("/availability")) == 3
        )
    finally:
        spy.disconnect()
        spy.loop_stop()
    for table in played:
        prefix = f"companion/tables/{table.name}/"
        mine = [(t.removeprefix(prefix), p) for t, p in received if t.startswith(prefix)]
        for uid in table.setup.tags:
            for _, payload in mine:
                assert uid.encode() not in payload and uid.lower().encode() not in payload
        views = _page_views(table)
        states = [json.loads(p) for kind, p in mine if kind == "state"]
        assert states and all(state in views for state in states)
        [result] = [json.loads(p) for kind, p in mine if kind == "result"]
        assert set(result) == {"id", "table", "game", "title", "rules", "seats", "scores",
                               "winner", "duration", "ended"}  # fmt: skip
        evenings = [json.loads(p) for kind, p in mine if kind == "results"]
        assert evenings[-1] == [result] and all(e in ([], [result]) for e in evenings)
        assert {p for kind, p in mine if kind == "availability"} <= {b"online", b"offline"}
        assert {p for kind, p in mine if kind == "page"} == {b""}  # no page: nothing to open
        assert {kind for kind, _ in mine} == {"state", "frame", "availability", "page",
                                              "result", "results", "games"}  # fmt: skip


def _page_views(table: SimTable) -> list[dict]:
    """Every view the page gets along the table's game, replayed step by step."""
    referee = games.get(table.setup.game).referee(table.setup)
    publisher = Publisher(referee)
    views = []
    for record in [None, *table.inputs]:
        if record is not None:
            referee.feed(record)
        snapshot = publisher.snapshot()
        if snapshot is not None:
            views.append(json.loads(state_payload(snapshot.view)))
    return views


def test_over_tls_a_table_delivers_only_to_the_broker_its_ca_vouches_for(broker, tmp_path):
    """docs/club.md's TLS listener (cafile, certfile, keyfile): a table trusting the club's
    CA delivers its result to the board over TLS; a table given another CA never connects
    (its result stays in its outbox) and the table plays on all the same."""
    from tests.club.conftest import Club, certificates

    (tmp_path / "other").mkdir()
    stranger_ca, _, _ = certificates(tmp_path / "other")  # another club's
    club = Club(broker, tmp_path)
    trusting = SimTable("table-a", "swiped", broker, tmp_path / "table-a")
    wary = SimTable("table-b", "vnp", broker, tmp_path / "table-b", tls_ca=stranger_ca)
    try:
        for table in (trusting, wary):
            table.play()
        wait_for(lambda: outbox(trusting.folder) == [] and trusting.session.referee.finished)
        wait_for(lambda: len(outbox(wary.folder)) == 1)  # its link's thread wrote it
        wait_for(lambda: len(club.board.results) == 1)
        assert [r["table"] for r in club.board.results.values()] == ["table-a"]
        assert len(outbox(wary.folder)) == 1  # still waiting: no broker it trusts
    finally:
        for table in (trusting, wary):
            table.close()
        club.close()
