"""The table's link to the club whatever the network does (docs/club.md): made with no
network at all, with a broker's name that does not resolve or is no host name, keeping
each result in its outbox and sending it once it can; each game announced (the retained
``games``, kept in ``club-games.json``) before its result and again at each connection;
a result kept again from the journal after a cut counted once."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import queue
import signal
import socket
import subprocess
import threading
import time
from datetime import datetime

import paho.mqtt.client as mqtt
import pytest

from companion import games
from companion.club.link import TableLink
from companion.club.outbox import (
    ClubFiles,
    game_announcement,
    game_result,
    keep_finished,
    now_utc,
    result_id,
)
from companion.club.topics import (
    AVAILABILITY,
    GAMES,
    OFFLINE,
    RESULT,
    RESULTS,
    STATE,
    state_payload,
    topic,
)
from companion.config.club import ClubConfig
from tests.club.conftest import CLUB, SimTable, outbox, wait_for
from tests.club.live import start_table, stop_table
from tests.club.test_club_night import _client
from tests.pi.conftest import replay, service_command, service_env, simulated_game, write_script
from tests.tools import required


def finished_referee(name: str = "swiped", seed: int = 1):  # noqa: ANN201 (a TableReferee)
    played = games.get(name)
    setup = played.simulated_setup(played.default_seats, seed)
    referee = played.referee(setup)
    for record in played.simulate(setup).inputs:
        referee.feed(record)
    assert referee.finished
    return referee


def test_a_broker_that_is_no_host_name_leaves_the_result_in_the_outbox(tmp_path, caplog):
    """paho's thread would die of such a name (and take the service with it): the link
    says once why it cannot connect and keeps the result."""
    referee = finished_referee()
    config = ClubConfig("bad..host", 1883, "table-a", "table-a", "pw")
    link = TableLink(config, tmp_path, referee, retry=0.2)
    with caplog.at_level("ERROR", logger="companion.club"):
        link.start()
        link.step()
        wait_for(lambda: outbox(tmp_path))
        threading.Event().wait(0.6)  # a few retries
        assert link._thread.is_alive()
        link.stop()
    said = [r.getMessage() for r in caplog.records if "cannot reach" in r.getMessage()]
    assert len(said) == 1 and "'bad..host' is not a host name" in said[0]
    [waiting] = outbox(tmp_path)
    record = json.loads((tmp_path / "club-outbox" / waiting).read_text())
    assert record["id"] == result_id("table-a", referee.setup)
    assert record["winner"] == referee.result()["winner"]


def test_a_broker_whose_name_does_not_resolve_keeps_the_result(tmp_path, caplog):
    referee = finished_referee()
    config = ClubConfig("no-such-broker.invalid", 1883, "table-a", "table-a", "pw")
    link = TableLink(config, tmp_path, referee, retry=0.2)
    link.start()
    link.step()
    wait_for(lambda: outbox(tmp_path))
    link.stop()
    assert len(outbox(tmp_path)) == 1


def test_a_game_over_before_the_link_connected_is_delivered_as_the_table_stops(
    broker, club, tmp_path
):
    """A game over within a second of the start (a short game, a slow TLS handshake): the
    table stops before its first connection is made. Stopping waits a moment for that
    connection, as for the acknowledgements, so the result is delivered, not left in the
    outbox until the next run."""
    referee = finished_referee()
    slow = socket.create_server(("127.0.0.1", 0))

    def forward(source: socket.socket, to: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                to.sendall(data)
        with contextlib.suppress(OSError):
            to.shutdown(socket.SHUT_WR)

    def slow_broker() -> None:  # the broker's first answer half a second late
        table, _ = slow.accept()
        mosquitto = socket.create_connection(("127.0.0.1", broker.port))
        time.sleep(0.5)
        threading.Thread(target=forward, args=(mosquitto, table), daemon=True).start()
        forward(table, mosquitto)

    threading.Thread(target=slow_broker, daemon=True).start()
    config = dataclasses.replace(broker.table_config("table-a"), port=slow.getsockname()[1])
    link = TableLink(config, tmp_path, referee, retry=0.2)
    link.start()
    link.step()
    link.stop()  # at once: the connection is still under way
    slow.close()
    assert outbox(tmp_path) == []
    [record] = wait_for(lambda: list(club.board.results.values()))
    assert record["id"] == result_id("table-a", referee.setup)


def test_a_table_started_with_no_network_delivers_its_result_once_it_has_one(
    broker, club, tmp_path
):
    """`companion run` in a network namespace of its own (no interface up, not even
    loopback: paho cannot even make its wake-up socket pair), its game played to the
    end: the result waits in the outbox; started again with the network, it reaches the
    board."""
    unshare = required("unshare", "apt-get install util-linux")
    if subprocess.run([unshare, "--net", "true"], capture_output=True).returncode != 0:
        pytest.fail("unshare --net needs CAP_SYS_ADMIN (root, as in CI)")
    setup, inputs = simulated_game()
    expected = replay(setup, inputs).result()
    config = tmp_path / "companion.toml"
    config.write_text("[web]\nenabled = false\n" + broker.club_toml("table-a"))
    data = tmp_path / "data"
    script = write_script(tmp_path / "game.jsonl", setup, inputs)
    command = service_command("run", "--sim", "--sim-clock", "script", "--exit-when-finished",
                              "--data-dir", str(data), "--config", str(config),
                              "--sim-input", str(script))  # fmt: skip
    done = subprocess.run([unshare, "--net", *command], env=service_env(), capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("club: cannot reach 127.0.0.1") == 1, done.stderr
    assert len(outbox(data)) == 1 and club.board.results == {}
    # With the network: resumed (the game is over: a new one starts), the outbox goes first.
    proc, fifo = start_table(tmp_path, "again", "--resume", "--sim", "--data-dir", str(data),
                             "--config", str(config))  # fmt: skip
    try:
        wait_for(lambda: len(club.board.results) == 1)
        wait_for(lambda: outbox(data) == [])
    finally:
        stop_table(proc, fifo)
    [record] = club.board.results.values()
    assert (record["scores"], record["winner"]) == (expected["scores"], expected["winner"])


def _games_spy(broker, seen: list[tuple[str, object]]) -> mqtt.Client:
    """A client of the club's, recording every ``games`` and ``result`` in order (it
    subscribes again at each connection: a broker restarted forgot it)."""
    spy = broker.client(CLUB, "games-spy")
    spy.on_message = lambda c, u, m: seen.append((m.topic.rsplit("/", 1)[1], json.loads(m.payload)))
    spy.on_connect = lambda client, *_: client.subscribe(
        [("companion/tables/+/games", 1), ("companion/tables/+/result", 1)]
    )
    subscribed = threading.Event()
    spy.on_subscribe = lambda *_: subscribed.set()
    spy.reconnect_delay_set(1, 1)
    spy.connect("127.0.0.1", broker.port)
    spy.loop_start()
    assert subscribed.wait(10)
    return spy


def test_each_game_is_announced_before_its_result_and_again_at_each_connection(
    broker, tables, tmp_path
):
    seen: list[tuple[str, object]] = []
    spy = _games_spy(broker, seen)
    try:
        table = SimTable("table-a", "swiped", broker, tmp_path / "table-a")
        tables.append(table)
        table.play()
        wait_for(lambda: any(kind == "result" for kind, _ in seen))
        game_id = result_id("table-a", table.setup)
        first_games = next(i for i, (kind, _) in enumerate(seen) if kind == "games")
        first_result = next(i for i, (kind, _) in enumerate(seen) if kind == "result")
        assert first_games < first_result  # announced before its result
        [announced] = seen[first_games][1]
        assert announced["id"] == game_id == seen[first_result][1]["id"]
        assert (announced["game"], announced["seats"]) == ("swiped", list(table.setup.seats))
        assert datetime.fromisoformat(announced["started"]).tzinfo is not None
        on_disk = json.loads((table.folder / "club-games.json").read_text())
        assert on_disk == [announced]
        # The broker forgets everything (its disk wiped): at the next connection the table
        # announces its games again.
        seen.clear()
        broker.kill()
        broker.forget()
        broker.start()
        wait_for(lambda: ("games", [announced]) in seen, 30)
        # Its next game (a restart of the table): both announced, the first one unchanged.
        table.close()
        tables.clear()
        (table.folder / "game.jsonl").rename(table.folder / "archived.jsonl")
        again = SimTable("table-a", "swiped", broker, table.folder, seed=2)
        tables.append(again)
        second = result_id("table-a", again.setup)
        wait_for(lambda: any(kind == "games" and len(p) == 2 for kind, p in seen))
        listed = [p for kind, p in seen if kind == "games"][-1]
        assert [a["id"] for a in listed] == [game_id, second] and listed[0] == announced
    finally:
        spy.disconnect()
        spy.loop_stop()


def test_a_result_kept_again_from_the_journal_is_sent_once_and_counted_once(broker, club, tmp_path):
    """The service keeps a finished game's result from its journal before archiving it
    (`keep_finished`): after a cut just before the link kept it, or just after. Kept
    twice, it is one outbox file; once sent and acknowledged, it is not kept again."""
    referee = finished_referee()
    config = broker.table_config("table-a")
    keep_finished(config, tmp_path, referee)
    keep_finished(config, tmp_path, referee)
    assert len(outbox(tmp_path)) == 1
    files = ClubFiles(tmp_path)
    assert [a["id"] for a in files.games.read()] == [result_id("table-a", referee.setup)]
    link = TableLink(config, tmp_path, referee, retry=1)  # the next run, its game over too
    link.start()
    link.step()
    wait_for(lambda: outbox(tmp_path) == [])
    link.stop()
    keep_finished(config, tmp_path, referee)  # a cut before the journal was archived
    assert outbox(tmp_path) == []
    wait_for(lambda: len(club.board.results) == 1)
    assert list(club.board.results) == [result_id("table-a", referee.setup)]


def test_a_result_sent_before_its_games_list_counts_once_the_list_comes(broker, club):
    """At a reconnection paho may send again a result the broker had not acknowledged
    before the link's games list: the board keeps it until its announcement comes, then
    counts it and archives it once; the evening list that follows adds nothing."""
    referee = finished_referee()
    record = game_result("table-a", referee, now_utc())
    table = _client(broker, "table-a", "table-a-link")
    try:
        table.publish(topic("table-a", RESULT), json.dumps(record), qos=1).wait_for_publish(10)
        tables = club.board.tables
        wait_for(lambda: "table-a" in tables and record["id"] in tables["table-a"].waiting)
        assert club.board.results == {}
        games_list = [game_announcement("table-a", referee, now_utc())]
        table.publish(topic("table-a", GAMES), json.dumps(games_list), qos=1, retain=True)
        wait_for(lambda: record["id"] in club.board.results)
        evening = table.publish(topic("table-a", RESULTS), json.dumps([record]), qos=1, retain=True)
        evening.wait_for_publish(10)
        time.sleep(0.5)  # the evening list read too
    finally:
        table.disconnect()
        table.loop_stop()
    assert club.board.results == {record["id"]: record}
    archived = [json.loads(line) for line in club.archive.read_text().splitlines()]
    assert archived == [record]
    assert club.board.tables["table-a"].refused == {}


def test_a_table_stopped_as_its_game_ends_waits_for_the_brokers_acknowledgement(
    broker, club, tmp_path
):
    """The service stops right after the input that ended the game: the link sends the
    result it was just handed and waits a moment for the broker's PUBACK, so the outbox is
    empty once it stopped (nothing sent again by the next run), then says "offline"
    itself (a clean disconnect sends no last will), retained for a board started later."""
    referee = finished_referee()
    link = TableLink(broker.table_config("table-a"), tmp_path, referee, retry=1)
    link.start()
    wait_for(lambda: "table-a" in club.board.tables and club.board.tables["table-a"].online)
    link.step()  # the game is over: its result to the worker...
    link.stop()  # ...and the stop right behind it
    assert outbox(tmp_path) == []
    wait_for(lambda: not club.board.tables["table-a"].online)
    wait_for(lambda: list(club.board.results) == [result_id("table-a", referee.setup)])
    assert retained(broker, topic("table-a", AVAILABILITY)) == OFFLINE


def retained(broker, name: str) -> bytes:
    """What the broker retains on the topic ``name``, as a client of the club's that
    subscribes now reads it."""
    got: queue.SimpleQueue[bytes] = queue.SimpleQueue()
    spy = broker.client(CLUB, "retained-spy")
    spy.on_message = lambda c, u, m: got.put(m.payload)
    spy.on_connect = lambda client, *_: client.subscribe(name, 1)
    spy.connect("127.0.0.1", broker.port)
    spy.loop_start()
    try:
        return got.get(timeout=10)
    finally:
        spy.disconnect()
        spy.loop_stop()


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b'{"id": "table-a-1"}', "valid JSON, but not a list"),
        (b"null", "valid JSON, but not a list"),
        (b"[{", "Expecting property name"),
        (b"[" * 100_000, "maximum recursion depth"),
    ],
)
def test_an_evening_list_that_is_no_json_list_is_said_once_read_as_none_and_replaced(
    tmp_path, caplog, content, why
):
    """club-results.json is the table's own file; one that is not a JSON list (edited by
    hand, another program's) is read as no result, said once in the log, and replaced by
    the next result kept (the service never stops on it)."""
    (tmp_path / "club-results.json").write_bytes(content)
    files = ClubFiles(tmp_path)
    with caplog.at_level("ERROR", logger="companion.club"):
        assert files.evening.read() == [] and files.evening.ids() == set()
    [said] = [r.getMessage() for r in caplog.records]
    assert "club-results.json cannot be read as a list of games" in said and why in said
    record = game_result("table-a", finished_referee(), now_utc())
    files.keep(record)
    assert files.evening.read() == [record]


def test_an_outbox_file_that_is_no_result_is_said_and_the_others_are_sent(
    broker, club, tmp_path, caplog
):
    """A file of the outbox nested too deep for Python's JSON reader (another program's):
    logged, left there, and the worker goes on to connect and send the result after it."""
    box = tmp_path / "club-outbox"
    box.mkdir()
    (box / "deep.json").write_bytes(b"[" * 100_000)
    referee = finished_referee()
    keep_finished(broker.table_config("table-a"), tmp_path, referee)
    link = TableLink(broker.table_config("table-a"), tmp_path, referee, retry=1)
    with caplog.at_level("ERROR", logger="companion.club"):
        link.start()
        wait_for(lambda: list(club.board.results) == [result_id("table-a", referee.setup)])
        link.stop()
    assert outbox(tmp_path) == ["deep.json"]
    assert any("deep.json" in r.getMessage() for r in caplog.records)


def test_a_ca_file_copied_after_the_table_started_is_read_at_the_next_try(
    broker, club, tmp_path, caplog
):
    """The builder copies the club's CA after the table started (docs/club.md, each
    table): the link says once that it cannot connect yet, keeps the result, reads the CA
    at a later try every ``retry`` seconds and delivers the result with no restart."""
    assert broker.tls_ca is not None
    later = tmp_path / "club-ca.crt"
    config = dataclasses.replace(broker.table_config("table-a"), tls_ca=later)
    referee = finished_referee()
    link = TableLink(config, tmp_path, referee, retry=0.2)
    with caplog.at_level("ERROR", logger="companion.club"):
        link.start()
        link.step()
        wait_for(lambda: outbox(tmp_path))
        wait_for(lambda: caplog.records)
        later.write_bytes(broker.tls_ca.read_bytes())
        wait_for(lambda: list(club.board.results) == [result_id("table-a", referee.setup)])
        wait_for(lambda: outbox(tmp_path) == [])
        link.stop()
    [said] = [r.getMessage() for r in caplog.records]
    assert said.startswith(f"club: cannot reach 127.0.0.1:{broker.port} yet (")


def test_a_table_connects_once_with_a_persistent_session_and_says_so(
    broker, club, tmp_path, caplog
):
    """As docs/club.md has it: a persistent session (QoS 1 results survive a reconnection),
    a keepalive of 15 s (a table switched off is "offline" within about 20 s), both as the
    broker itself logs the connection; the table's log says it is connected."""
    link = TableLink(broker.table_config("table-a"), tmp_path, finished_referee())
    with caplog.at_level("INFO", logger="companion.club"):
        link.start()
        wait_for(lambda: "table-a" in club.board.tables and club.board.tables["table-a"].online)
        link.stop()
    said = [r.getMessage() for r in caplog.records]
    assert said.count(f"club: connected to 127.0.0.1:{broker.port}") == 1
    log = (broker.folder / "mosquitto.log").read_text()
    assert "as table-a (p2, c0, k15, u'table-a')" in log  # its user names it


def test_a_wrong_password_is_refused_by_the_broker_and_said_in_the_tables_log(
    broker, tmp_path, caplog
):
    config = dataclasses.replace(broker.table_config("table-a"), password="not-its-password")
    link = TableLink(config, tmp_path, finished_referee(), retry=1)
    with caplog.at_level("WARNING", logger="companion.club"):
        link.start()
        link.step()
        wait_for(lambda: any("broker refused" in r.getMessage() for r in caplog.records))
        link.stop()
    said = next(r.getMessage() for r in caplog.records if "broker refused" in r.getMessage())
    assert said.startswith("club: the broker refused table table-a: ")
    assert len(outbox(tmp_path)) == 1  # the result waits for a password that works


def test_a_table_that_cannot_reach_its_broker_says_it_tries_again_every_10_s(tmp_path, caplog):
    link = TableLink(ClubConfig("bad..host", 1883, "table-a", "table-a", "pw"), tmp_path,
                     finished_referee())  # fmt: skip
    with caplog.at_level("ERROR", logger="companion.club"):
        link.start()
        wait_for(lambda: caplog.records)
        link.stop()
    [said] = [r.getMessage() for r in caplog.records]
    assert said.endswith("club-outbox, tried again every 10 s")


def test_a_finished_game_sends_its_result_and_the_evening_list_once(broker, club, tmp_path):
    """The referee loop steps the link after every input, the game over or not: a finished
    game's result goes to the worker once, so the retained evening list is sent once for
    it, however many steps follow."""
    seen: list[tuple[str, bytes]] = []
    spy = broker.client(CLUB, "table-a-spy")
    spy.on_message = lambda c, u, m: seen.append((m.topic.rsplit("/", 1)[1], m.payload))
    spy.on_connect = lambda client, *_: client.subscribe("companion/tables/table-a/#", 1)
    spy.connect("127.0.0.1", broker.port)
    spy.loop_start()
    try:
        link = TableLink(broker.table_config("table-a"), tmp_path, finished_referee(), retry=1)
        link.start()
        wait_for(lambda: ("availability", b"online") in seen)
        for _ in range(5):
            link.step()
        wait_for(lambda: outbox(tmp_path) == [])
        link.stop()
        wait_for(lambda: ("availability", b"offline") in seen)
    finally:
        spy.disconnect()
        spy.loop_stop()
    online = seen.index(("availability", b"online"))
    after = [json.loads(p) for kind, p in seen[online:] if kind == "results"]
    assert [len(results) for results in after] == [0, 1]  # at the connection, then its own
    assert [kind for kind, _ in seen].count("result") == 1


def test_a_result_the_outbox_cannot_keep_is_sent_all_the_same(broker, club, tmp_path, caplog):
    """A data directory where the outbox cannot be written (here club-outbox is a file):
    the table's log says so, and the result goes to the broker without a copy on disk."""
    (tmp_path / "club-outbox").write_text("not a folder")
    referee = finished_referee()
    link = TableLink(broker.table_config("table-a"), tmp_path, referee, retry=1)
    with caplog.at_level("ERROR", logger="companion.club"):
        link.start()
        link.step()
        wait_for(lambda: list(club.board.results) == [result_id("table-a", referee.setup)])
        link.stop()
    # The link's own errors (the club's reader may say "reading" at INFO before the block,
    # when it connects late); on a loaded machine the link's first connection may fail and
    # be retried ("cannot reach ... yet"), which is said too.
    said = [
        r.getMessage()
        for r in caplog.records
        if r.name == "companion.club" and r.levelno >= logging.ERROR
    ]
    [kept] = [m for m in said if m.startswith("club: cannot keep the result in ")]
    # The folder named once, then why in the system's words (no errno, no path again).
    folder = str(tmp_path / "club-outbox")
    why = kept.removeprefix(f"club: cannot keep the result in {folder}: ")
    assert why.endswith("; sent without a copy on disk") and why[0].isupper()
    assert folder not in why and "Errno" not in why
    assert all(m == kept or m.startswith("club: cannot reach ") for m in said), said


def test_a_result_no_file_can_keep_waits_in_memory_for_the_broker_to_return(
    broker, club, tmp_path, caplog
):
    """A data directory that takes no result (an SD card gone read-only: here the outbox
    and the evening list are not what they should be) while the broker is away: the
    result, sent all the same, waits in paho's memory for the broker to come back."""
    (tmp_path / "club-outbox").write_text("not a folder")
    (tmp_path / "club-results.json").mkdir()
    referee = finished_referee()
    link = TableLink(broker.table_config("table-a"), tmp_path, referee, retry=1)
    link.start()
    wait_for(lambda: "table-a" in club.board.tables and club.board.tables["table-a"].online)
    with caplog.at_level("INFO", logger="companion.club"):
        broker.kill()
        wait_for(lambda: not link.connected.is_set())
        link.step()  # the game ends while the broker is away
        broker.start()
        wait_for(lambda: list(club.board.results) == [result_id("table-a", referee.setup)], 30)
        link.stop()
    said = [r.getMessage() for r in caplog.records if r.name == "companion.club"]
    gone = [line for line in said if line.endswith("; the table goes on")]
    assert len(gone) == 1 and gone[0].startswith("club: the broker is gone (")  # not at stop


def test_of_the_states_waiting_together_the_table_publishes_the_latest(broker, tmp_path):
    """The worker sends the snapshots it finds waiting as one, the latest (here a whole
    game stepped before the link starts)."""
    played = games.get("swiped")
    setup = played.simulated_setup(played.default_seats, 1)
    referee = played.referee(setup)
    link = TableLink(broker.table_config("table-a"), tmp_path, referee, retry=1)
    views = []
    for record in played.simulate(setup).inputs:
        referee.feed(record)
        snapshot = link.publisher.snapshot()
        if snapshot is not None:
            views.append(snapshot.view)
            link.take(snapshot)
    assert len(views) > 2 and state_payload(views[0]) != state_payload(views[-1])
    link.start()
    try:
        assert retained(broker, topic("table-a", STATE)) == state_payload(views[-1])
    finally:
        link.stop()


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_broker_that_stops_answering_never_holds_the_tables_stop(broker, club, tmp_path):
    """The broker frozen (SIGSTOP: the connection open, nothing answered): the link's stop
    waits its moment for the acknowledgement, then goes; the result stays in the outbox
    and the next run sends it."""
    referee = finished_referee()
    link = TableLink(broker.table_config("table-a"), tmp_path, referee, retry=1)
    link.start()
    wait_for(lambda: "table-a" in club.board.tables and club.board.tables["table-a"].online)
    assert broker.process is not None
    broker.process.send_signal(signal.SIGSTOP)
    try:
        link.step()
        link.stop()
        assert len(outbox(tmp_path)) == 1
    finally:
        broker.process.send_signal(signal.SIGCONT)
    again = TableLink(broker.table_config("table-a"), tmp_path, referee, retry=1)
    again.start()
    wait_for(lambda: outbox(tmp_path) == [])
    again.stop()
    wait_for(lambda: list(club.board.results) == [result_id("table-a", referee.setup)])


def test_a_frame_is_sent_when_it_changed_and_a_state_at_each_step(broker, tmp_path):
    """The OLED frame (a PNG of a few kilobytes) goes to the broker when it changed, not at
    every state: a PtiPassPass game has states that change under the same frame."""
    seen: list[tuple[str, bytes]] = []
    spy = broker.client(CLUB, "table-a-spy")
    spy.on_message = lambda c, u, m: seen.append((m.topic.rsplit("/", 1)[1], m.payload))
    spy.on_connect = lambda client, *_: client.subscribe("companion/tables/table-a/#", 1)
    spy.connect("127.0.0.1", broker.port)
    spy.loop_start()
    played = games.get("ptipasspass")
    setup = played.simulated_setup(played.default_seats, 1)
    referee = played.referee(setup)
    link = TableLink(broker.table_config("table-a"), tmp_path, referee, retry=1)
    frames = []
    try:
        link.start()
        wait_for(lambda: ("availability", b"online") in seen)
        for record in played.simulate(setup).inputs:
            referee.feed(record)
            snapshot = link.publisher.snapshot()
            if snapshot is not None:
                states = [kind for kind, _ in seen].count("state")
                link.take(snapshot)  # one at a time: each its own state
                wait_for(lambda: [kind for kind, _ in seen].count("state") > states)  # noqa: B023
                frames.append(snapshot.view["frame_no"])
        link.stop()
        wait_for(lambda: ("availability", b"offline") in seen)  # the last frame came before
    finally:
        spy.disconnect()
        spy.loop_stop()
    sent = [payload for kind, payload in seen if kind == "frame"]
    assert len(frames) > len(set(frames))  # states under the same frame...
    assert len(sent) == len(set(frames))  # ...sent no frame again
    assert all(a != b for a, b in zip(sent, sent[1:], strict=False))


def test_a_table_gone_without_a_word_is_said_offline_by_the_broker_retained(broker, club, tmp_path):
    """Its last will: for a table gone without a word (a power cut, a crash: here its
    process killed), the broker says "offline", retained, so a board started later reads
    it too (docs/club.md: its card turns grey)."""
    link = TableLink(broker.table_config("table-a"), tmp_path, finished_referee(), retry=1)
    pid = os.fork()
    if pid == 0:  # the table's process: started here, killed by the test
        try:
            link.start()
            time.sleep(60)
        finally:
            os._exit(0)
    try:
        wait_for(lambda: "table-a" in club.board.tables and club.board.tables["table-a"].online)
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    wait_for(lambda: not club.board.tables["table-a"].online)
    assert retained(broker, topic("table-a", AVAILABILITY)) == OFFLINE
