"""The broker of docs/club.md against attacks and cuts, a real Mosquitto on loopback: a
password lets in its own user alone (client ids are user names), a broker killed while
the board is away and the tables are off still gives the board every result, and plain
MQTT is used only when the table's config says so."""

from __future__ import annotations

import re
import threading
import time

import paho.mqtt.client as mqtt
import pytest

from tests.club.conftest import (
    CLUB,
    Club,
    Mosquitto,
    SimTable,
    outbox,
    wait_for,
)
from tests.tools import required

ATTACK_SECONDS = 3.0


def connections_of(broker: Mosquitto, user: str) -> int:
    """How many times ``user`` connected to ``broker``, from the broker's own log."""
    log = (broker.folder / "mosquitto.log").read_text(errors="replace")
    return len(re.findall(rf"New client connected from .* u'{re.escape(user)}'\)", log))


def hammer(broker: Mosquitto, user: str, client_ids: list[str], seconds: float) -> int:
    """Connect as ``user`` with each of ``client_ids`` in turn, again and again for
    ``seconds``; the connections the broker accepted."""
    made = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        made += sum(_connect_once(broker, user, client_id) for client_id in client_ids)
    return made


def _connect_once(broker: Mosquitto, user: str, client_id: str) -> bool:
    """Connect, wait for the broker's CONNACK, disconnect: whether it accepted."""
    client = broker.client(user, client_id)
    accepted = threading.Event()
    client.on_connect = lambda c, u, f, reason, p: reason.is_failure or accepted.set()
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        return accepted.wait(5)
    finally:
        client.disconnect()
        client.loop_stop()


@pytest.mark.parametrize("bound", [True, False], ids=["as-documented", "ids-not-bound"])
def test_another_users_password_with_a_tables_or_the_boards_client_id_knocks_no_one_off(
    broker, tables, tmp_path, bound
):
    """Item 7's attack: table-b's password with table-a's client id, then the board's,
    over and over. With docs/club.md's `use_username_as_clientid` the broker names those
    connections table-b: table-a and the board stay connected throughout (each connected
    once). Without it (the mutant), the same attack drops both."""
    conf = broker.folder / "conf.d" / "club.conf"
    if not bound:
        broker.kill()
        conf.write_text(conf.read_text().replace("use_username_as_clientid true\n", ""))
        broker.start()
    assert ("use_username_as_clientid true" in conf.read_text()) == bound
    club = Club(broker, tmp_path)
    try:
        table = SimTable("table-a", "swiped", broker, tmp_path / "table-a")
        tables.append(table)
        wait_for(table.link.connected.is_set)
        ids = [f"companion-table-{table.name}", club.reader.client._client_id.decode()]
        made = hammer(broker, "table-b", ids, ATTACK_SECONDS)
        assert made >= 4  # the broker let the attacker in, again and again
        time.sleep(1.5)  # a dropped client comes back within its 1 s retry
        drops = connections_of(broker, "table-a") - 1, connections_of(broker, CLUB) - 1
        if bound:
            assert drops == (0, 0)
            assert table.link.connected.is_set() and club.reader.connected.is_set()
            table.play()  # and the table's result still reaches the board
            wait_for(lambda: len(club.board.results) == 1)
        else:
            assert min(drops) >= 1, drops
    finally:
        club.close()


@pytest.mark.parametrize("saved", [True, False], ids=["as-documented", "debian-default"])
def test_a_broker_killed_while_the_board_is_away_and_the_tables_off_keeps_every_result(
    broker, tables, tmp_path, saved
):
    """Item 9: the board connects once (its session), goes away; three tables play their
    games, see each result acknowledged and are switched off; the broker is killed with
    SIGKILL and started again; the board, restarted, gets every result. With Debian's own
    persistence (saved every 30 minutes, the mutant) it gets none."""
    if not saved:
        conf = broker.folder / "conf.d" / "club.conf"
        lines = conf.read_text().splitlines()
        kept = [line for line in lines if not line.startswith("autosave_")]
        assert len(kept) == len(lines) - 2
        conf.write_text("\n".join(kept) + "\n")  # persistence true, as Debian's own file
        broker.kill()
        broker.start()
    Club(broker, tmp_path / "first").close()  # the board's session, then the board away
    for i, (name, game) in enumerate({"table-a": "swiped", "table-b": "vnp",
                                      "table-c": "ptipasspass"}.items()):  # fmt: skip
        tables.append(SimTable(name, game, broker, tmp_path / name, seed=i + 1))
    for table in tables:
        table.play()
    for table in tables:
        wait_for(lambda t=table: t.session.referee.finished and outbox(t.folder) == [])
    played = {t.name: t.session.referee.result()["winner"] for t in tables}
    for table in tables:
        table.close()  # switched off, every result in the broker's hands alone
    tables.clear()
    broker.kill()
    broker.start()
    club = Club(broker, tmp_path / "again")
    try:
        if saved:
            wait_for(lambda: len(club.board.results) == 3)
            got = {r["table"]: r["winner"] for r in club.board.results.values()}
            assert got == played
        else:
            time.sleep(2)  # what the board would have had by then
            assert club.board.results == {}
    finally:
        club.close()


def test_plain_mqtt_only_when_the_table_says_tls_false(tmp_path):
    """docs/club.md's closed-network listener (plain MQTT on port 1883): a table with
    `tls = false` delivers its result; a table left at the default (TLS) never sends it
    in clear (it waits in its outbox) and plays on."""
    binary = required("/usr/sbin/mosquitto", "apt-get install mosquitto")
    passwd = required("mosquitto_passwd", "apt-get install mosquitto")
    (tmp_path / "broker").mkdir()
    broker = Mosquitto(binary, passwd, tmp_path / "broker", plain=True)
    assert broker.tls_ca is None
    broker.start()
    club = Club(broker, tmp_path)
    plain = SimTable("table-a", "swiped", broker, tmp_path / "table-a")
    assert not plain.config.tls
    # the same table with [club] left at its default: TLS, against the system's CAs
    wary = SimTable("table-b", "swiped", broker, tmp_path / "table-b", seed=2, tls=True)
    try:
        for table in (plain, wary):
            table.play()
        wait_for(lambda: len(club.board.results) == 1)
        wait_for(lambda: wary.session.referee.finished)
        assert [r["table"] for r in club.board.results.values()] == ["table-a"]
        assert wait_for(lambda: outbox(wary.folder)) and not wary.link.connected.is_set()
    finally:
        for table in (plain, wary):
            table.close()
        club.close()
        broker.kill()


def test_the_boards_session_is_its_users_whatever_its_client_id(broker):
    """With client ids bound to user names, the broker keeps the board's persistent session
    under `club`: a result published while the board is away (QoS 1, not retained) reaches
    it when it comes back, even from another machine (another client id)."""
    away = _board(broker, "companion-club-club-pi-a", [])
    away.disconnect()
    away.loop_stop()
    table = broker.client("table-a", "companion-table-table-a")
    table.connect("127.0.0.1", broker.port)
    table.loop_start()
    table.publish("companion/tables/table-a/result", b"{}", qos=1).wait_for_publish(5)
    table.disconnect()
    table.loop_stop()
    received: list[str] = []
    back = _board(broker, "companion-club-club-laptop-b", received)
    try:
        wait_for(lambda: received == ["companion/tables/table-a/result"])
    finally:
        back.disconnect()
        back.loop_stop()


def _board(broker: Mosquitto, client_id: str, received: list[str]) -> mqtt.Client:
    """A client of the club's user with a persistent session, as the board's reader,
    subscribed to the tables' results (its SUBACK in)."""
    board = broker.client(CLUB, client_id, clean_session=False)
    subscribed = threading.Event()
    board.on_subscribe = lambda *_: subscribed.set()
    board.on_message = lambda c, u, message: received.append(message.topic)
    board.connect("127.0.0.1", broker.port)
    board.subscribe("companion/tables/+/result", qos=1)
    board.loop_start()
    assert subscribed.wait(10)
    return board


def test_the_board_says_when_it_is_cut_off_from_the_broker(club, broker) -> None:
    """The board's own link is on its page (`linked`): with the broker gone the page says
    the board is cut off, not every table offline; back once the broker is."""
    import json

    def linked() -> object:
        return json.loads(club.board.view_json()[1])["linked"]

    assert linked() is True
    broker.kill()
    wait_for(lambda: linked() is False)
    broker.start()
    wait_for(lambda: linked() is True, 30.0)
