"""The club's side of the broker: subscribe, keep the `Board`, archive each new result.

A persistent session (its client id names the user and the machine, clean_session off)
and QoS 1 subscriptions: the results the tables publish while `companion club` is away
wait at the broker. The subscriptions are made again at each connection (a broker
restarted without its sessions forgets them; the tables' retained evening lists then
bring their games again). Each new result is appended to the night's archive, a JSON
Lines file read back at start, so the board of a restarted club still has the evening.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.club.board import Board
from companion.club.topics import SUBSCRIPTIONS, parse

log = logging.getLogger("companion.club")


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
    """The subscriber: `start` connects in the background, `stop` disconnects."""

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
    ) -> None:
        self.board = board
        self.archive = archive
        self.host, self.port = host, port
        self.connected = threading.Event()
        self.refused: str | None = None
        """Why the broker refused the club's user (bad password...), once it did."""
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"companion-club-{username}-{socket.gethostname()}"[:64],
            clean_session=False,
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
        self.client.connect_async(self.host, self.port, keepalive=15)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:  # fmt: skip
        if reason.is_failure:
            self.refused = str(reason)
            log.warning("club: the broker refused the club's user: %s", reason)
            return
        self.refused = None
        client.subscribe([(s, 1) for s in SUBSCRIPTIONS])
        self.connected.set()
        log.info("club: reading %s:%d", self.host, self.port)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:  # fmt: skip
        if self.connected.is_set():
            log.info("club: the broker is gone (%s); trying again", reason)
        self.connected.clear()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        where = parse(message.topic)
        if where is None:
            return
        for record in self.board.apply(where[0], where[1], bytes(message.payload)):
            self._archive(record)

    def _archive(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False) + "\n"
        try:
            with open(self.archive, "a", encoding="utf-8") as f:
                f.write(line)
                f.flush()
                os.fsync(f.fileno())
        except OSError as exc:
            log.error("club: cannot archive to %s: %s", self.archive, exc.strerror or exc)
