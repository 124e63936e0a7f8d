"""The club's side of the broker: subscribe, keep the `Board`, archive each new result.

A persistent session (its client id names the user and the machine, MQTT 5 with a
session kept `SESSION` seconds) and QoS 1 subscriptions: the results the tables publish
while `companion club` is away wait at the broker. The subscriptions are made again at
each connection (a broker restarted without its sessions forgets them; the tables'
retained evening lists then bring their games again) and every `REFRESH` seconds (which
brings every retained message again: one the broker dropped on its way is not lost). The
club tells the broker the largest packet it takes (`MAX_PACKET`; the broker of
docs/club.md refuses any larger from anyone): a larger message never reaches the club's
memory; a smaller one over its kind's bound is refused by the board, counted on its card.

paho's thread only files each message (`companion.club.intake`, cheap whatever a table
sends); the intake's thread hands them to the board in turn and appends each new result
to the night's archive: a JSON Lines file, opened once at `start` and kept open (a flood
of connections to the page can never leave the club without a file to write it with),
each line fsync'd, read back at start so the board of a restarted club still has the
evening. A line that cannot be written is tried again every second and at each new result.
What a table gets refused, and an archive that cannot be written, are logged at most
once a minute, with counts.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
from collections import Counter
from pathlib import Path
from typing import IO, Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from companion.club.board import Board
from companion.club.intake import Intake, Rates
from companion.club.topics import MAX_PACKET, RECENT, SUBSCRIPTIONS, parse

log = logging.getLogger("companion.club")

SESSION = RECENT
"""Seconds the broker keeps the club's session (and its results) while the club is away."""
IN_FLIGHT = 64
"""QoS 1 messages the broker may send the club before it acknowledges them (MQTT 5's
Receive Maximum; 65,535 unless told): the fewer, the shorter the line of a flooding
table's messages that another table's wait behind (the broker queues the rest, and drops
what its queue cannot hold: the next refresh brings it again)."""
EVERY = 60.0
"""Seconds between two log lines about a table's refused messages, or the archive."""
REFRESH = 60.0
"""Seconds between two subscriptions again, which bring every table's retained messages
again: a message the broker dropped on the way to the club (its queue full while one
table floods) is there again within this time."""


def read_archive(path: Path, board: Board) -> int:
    """The results of an archive already there (the club restarted): how many it had."""
    if not path.exists():
        return 0
    count = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            try:
                record = json.loads(line)
            except ValueError:
                continue  # a line torn by a crash: the table sends it again if unacked
            if isinstance(record, dict) and board.add_result(record):
                count += 1
    return count


class ClubReader:
    """The subscriber: `start` opens the archive and connects in the background, `stop`
    disconnects."""

    def __init__(
        self,
        board: Board,
        archive: Path,
        host: str,
        port: int,
        username: str,
        password: str | None,
        tls_ca: Path | None = None,
        retry: float = 10.0,
        rates: Rates | None = None,
        refresh: float = REFRESH,
    ) -> None:
        self.board = board
        self.archive = archive
        self.host, self.port = host, port
        self.connected = threading.Event()
        self.refused: str | None = None
        """Why the broker refused the club's user (bad password...), once it did."""
        self.intake = Intake(self._hand, self._too_fast, self._tick, board.bounds, rates or Rates())
        self._file: IO[str] | None = None
        self._unarchived: list[str] = []
        """Lines not written yet (the disk refused them): tried again."""
        self._archive_error: str | None = None
        self._logged: dict[str, Counter[str]] = {}
        """Each table's refusals as last logged."""
        self._next_log = 0.0
        self.refresh = refresh
        self._next_refresh = time.monotonic() + refresh
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"companion-club-{username}-{socket.gethostname()}"[:64],
            protocol=mqtt.MQTTv5,
        )
        client.username_pw_set(username, password)
        if tls_ca is not None:
            client.tls_set(ca_certs=str(tls_ca))
        client.reconnect_delay_set(min_delay=1, max_delay=max(1, int(retry)))
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.client = client

    def start(self) -> None:
        """Open the archive (raises OSError), then connect in the background."""
        self._file = open(self.archive, "a", encoding="utf-8")  # noqa: SIM115 (kept open)
        self.board.set_linked(False)  # until the broker answers
        self.intake.start()
        wanted = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        wanted.SessionExpiryInterval = SESSION
        wanted.MaximumPacketSize = MAX_PACKET
        wanted.ReceiveMaximum = IN_FLIGHT
        self.client.connect_async(
            self.host, self.port, keepalive=15, clean_start=False, properties=wanted
        )
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        self.intake.stop()
        if self._file is not None:
            self._file.close()

    # ---------------------------------------------------------------- paho's thread

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:  # fmt: skip
        if reason.is_failure:
            self.refused = str(reason)
            log.warning("club: the broker refused the club's user: %s", reason)
            return
        self.refused = None
        self._subscribe()
        self.connected.set()
        self.board.set_linked(True)
        log.info("club: reading %s:%d", self.host, self.port)

    def _subscribe(self) -> None:
        self.client.subscribe([(s, 1) for s in SUBSCRIPTIONS])
        self._next_refresh = time.monotonic() + self.refresh

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:  # fmt: skip
        if self.connected.is_set():
            log.info("club: the broker is gone (%s); trying again", reason)
        self.connected.clear()
        self.board.set_linked(False)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        where = parse(message.topic)
        if where is not None:
            self.intake.offer(where[0], where[1], bytes(message.payload))

    # ------------------------------------------------------------- the intake's thread

    def _hand(self, table: str, kind: str, payload: bytes) -> None:
        records = self.board.apply(table, kind, payload)
        if records:
            self._unarchived += [json.dumps(r, ensure_ascii=False) + "\n" for r in records]
            self._archive()

    def _too_fast(self, table: str, count: int) -> None:
        self.board.refuse(table, "fast", count)

    def _archive(self) -> None:
        """Write the lines waiting to the archive, each fsync'd; those the disk refuses
        wait for the next try."""
        f = self._file
        assert f is not None
        while self._unarchived:
            try:
                f.write(self._unarchived[0])
                f.flush()
                os.fsync(f.fileno())
            except OSError as exc:
                self._archive_error = exc.strerror or str(exc)
                return
            del self._unarchived[0]
        self._archive_error = None

    def _tick(self) -> None:
        """Every second: the archive tried again; every `refresh` seconds, the retained
        messages again; at most once a minute, a line a table with refused messages and
        one for the archive."""
        if self._unarchived:
            self._archive()
        now = time.monotonic()
        if now >= self._next_refresh and self.connected.is_set():
            self._subscribe()
        if now < self._next_log:
            return
        logged = False
        for table, refused in sorted(self.board.refusals().items()):
            new = refused - self._logged.get(table, Counter())
            if new:
                self._logged[table] = refused
                why = ", ".join(f"{reason} {n:,}" for reason, n in new.most_common())
                log.warning("club: %s: %s messages refused (%s)", table, f"{new.total():,}", why)
                logged = True
        if self._unarchived and self._archive_error is not None:
            log.error("club: %d results not archived yet to %s: %s; tried again every "
                      "second", len(self._unarchived), self.archive,
                      self._archive_error)  # fmt: skip
            logged = True
        if logged:
            self._next_log = now + EVERY
