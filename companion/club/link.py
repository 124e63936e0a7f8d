"""The table's side of a club night: publish to the broker, never wait for it.

After every step the referee loop hands the link the snapshot it published to the web
page (`TableLink.take`; `companion.web.public.Publisher`), or lets it build one when the
table has no page (`TableLink.step`); once the game is over the link adds its result
record, and its worker thread does the rest: nothing there can block the referee. The
worker writes each result to the outbox (``club-outbox/`` in the data directory, one file
a result, fsync'd) before handing it to paho-mqtt at QoS 1 over a persistent session; a
file is removed once the broker acknowledged it (PUBACK), so a result survives a lost
broker and a restart of the table, and is sent again until acknowledged (the board
counts a result id once). The live state, the OLED frame and the evening's results
(``club-results.json``, the last `RECENT` seconds' games) are retained, sent again at
each (re)connection; the availability is "online" while connected, and the broker says
"offline" (the last will) when the table is gone.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import queue
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion import games
from companion.club.topics import (
    AVAILABILITY,
    FRAME,
    OFFLINE,
    ONLINE,
    RESULT,
    RESULTS,
    STATE,
    recent,
    result_record,
    state_payload,
    topic,
)
from companion.config.club import ClubConfig
from companion.games import TableReferee
from companion.web.public import Publisher, Snapshot

if TYPE_CHECKING:
    from companion.run.web_port import WebPort

log = logging.getLogger("companion.club")

OUTBOX = "club-outbox"
"""The folder of the data directory where results wait for the broker's PUBACK."""
EVENING = "club-results.json"
"""In the data directory: the table's recent results, its retained ``results``."""
KEEPALIVE = 15
"""Seconds between pings: the broker says "offline" within 1.5 times it after a table
went silent."""


@dataclass(frozen=True, slots=True)
class _Acked:
    mid: int


@dataclass(frozen=True, slots=True)
class _Connected:
    pass


@dataclass(frozen=True, slots=True)
class _Result:
    record: dict[str, Any]


class Outbox:
    """Results waiting for the broker: one JSON file each, written whole (a temporary
    file fsync'd, then renamed) and removed once acknowledged."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def put(self, record: dict[str, Any]) -> Path:
        self.folder.mkdir(exist_ok=True)
        path = self.folder / f"{record['id']}.json"
        write_whole(path, json.dumps(record, ensure_ascii=False).encode())
        return path

    def waiting(self) -> list[Path]:
        """The results not acknowledged yet, oldest first."""
        if not self.folder.is_dir():
            return []
        return sorted(self.folder.glob("*.json"), key=lambda p: (p.stat().st_mtime, p.name))


def write_whole(path: Path, data: bytes) -> None:
    """``data`` in ``path``, whole or not at all (a temporary file fsync'd, renamed)."""
    temporary = path.with_suffix(".tmp")
    with open(temporary, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, path)
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class TableLink:
    """One table's publisher to the club's broker (`start`, `step` after every referee
    step, `stop`)."""

    def __init__(
        self,
        config: ClubConfig,
        data_dir: Path,
        referee: TableReferee,
        *,
        retry: float = 10.0,
        keepalive: int = KEEPALIVE,
        publisher: Publisher | None = None,
    ) -> None:
        self.config = config
        self.referee = referee
        self.publisher = publisher or Publisher(referee)
        """The table page's, when it has one (`take`), else its own (`step`)."""
        self.outbox = Outbox(data_dir / OUTBOX)
        self.evening = data_dir / EVENING
        self.reported = referee.finished
        """A game already over when the link starts was reported by the run that ended
        it (its result waits in the outbox if the broker has not acknowledged it)."""
        self.inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.sent: dict[int, Path] = {}
        """The message id of each result handed to paho, and its outbox file."""
        self.connected = threading.Event()
        self._state: Snapshot | None = None
        self._frame: tuple[int, bytes] = (-1, b"")
        self._client = self._make_client(config, retry, keepalive)
        self._thread = threading.Thread(target=self._work, name="club", daemon=True)

    def _make_client(self, config: ClubConfig, retry: float, keepalive: int) -> mqtt.Client:
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"companion-table-{config.table}",
            clean_session=False,
        )
        client.username_pw_set(config.username, config.password)
        if config.tls:  # against the club's CA, or the system's CAs (ca_certs=None)
            client.tls_set(ca_certs=str(config.tls_ca) if config.tls_ca else None)
        client.will_set(topic(config.table, AVAILABILITY), OFFLINE, qos=1, retain=True)
        client.reconnect_delay_set(min_delay=1, max_delay=max(1, int(retry)))
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        self._keepalive = keepalive
        return client

    # ----------------------------------------------------------- referee thread

    def start(self) -> None:
        """Connect in the background (a broker that is not there yet is tried again), and
        send the results a previous run left in the outbox."""
        self._thread.start()
        self._client.connect_async(self.config.host, self.config.port, self._keepalive)
        self._client.loop_start()
        log.info("club: table %s publishes to %s:%d", self.config.table, self.config.host,
                 self.config.port)  # fmt: skip

    def step(self) -> None:
        """After a referee step: the new public snapshot, and the result once the game is
        over, handed to the worker (never waits)."""
        self.take(self.publisher.snapshot())

    def take(self, snapshot: Snapshot | None) -> None:
        """`step` with the snapshot the table's page built (its `publisher`, shared: when
        the page stops, `step` goes on from the same history)."""
        if snapshot is not None:
            self.inbox.put(snapshot)
        referee = self.referee
        if referee.finished and not self.reported:
            self.reported = True
            self.inbox.put(_Result(self._record()))

    def _record(self) -> dict[str, Any]:
        referee = self.referee
        setup = referee.setup
        game = games.get(setup.game)
        return result_record(
            f"{self.config.table}-{uuid.uuid4().hex[:16]}",
            self.config.table,
            setup.game,
            game.title,
            dict(setup.rules) if setup.rules else None,
            list(referee.names),
            referee.result(),
            referee.now - setup.t,
            datetime.now(UTC).isoformat(timespec="seconds"),
        )

    def stop(self, timeout: float = 2.0) -> None:
        """Say "offline" (when connected) and close; the results sent last get a moment
        for their acknowledgement, the others stay in the outbox for the next run."""
        self.inbox.put(None)
        self._thread.join(2 * timeout)
        if self.connected.is_set():
            info = self._client.publish(
                topic(self.config.table, AVAILABILITY), OFFLINE, qos=1, retain=True
            )
            # The connection may go meanwhile: then the last will says it.
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout)
        self._client.disconnect()
        self._client.loop_stop()

    # ------------------------------------------------------------- paho thread

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:  # fmt: skip
        if reason.is_failure:
            log.warning("club: the broker refused table %s: %s", self.config.table, reason)
            return
        self.connected.set()
        log.info("club: connected to %s:%d", self.config.host, self.config.port)
        self.inbox.put(_Connected())

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:  # fmt: skip
        if self.connected.is_set():
            log.info("club: the broker is gone (%s); the table goes on", reason)
        self.connected.clear()

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any,
                    properties: Any) -> None:  # fmt: skip
        self.inbox.put(_Acked(mid))

    # ------------------------------------------------------------ worker thread

    def _work(self) -> None:
        for path in self.outbox.waiting():
            self._send(path)
        while True:
            items = [self.inbox.get()]
            while not self.inbox.empty():
                items.append(self.inbox.get())
            snapshots = [i for i in items if isinstance(i, Snapshot)]
            if snapshots:
                self._state = snapshots[-1]
            for item in items:
                if isinstance(item, _Result):
                    self._keep_and_send(item.record)
                elif isinstance(item, _Acked):
                    self._acked(item.mid)
            if any(isinstance(i, _Connected) for i in items):
                self._publish_live(online=True)
            elif snapshots:
                self._publish_live(online=False)
            if None in items:
                self._last_acks()
                return

    def _last_acks(self, seconds: float = 2.0) -> None:
        """Stopping: the acknowledgements of the results just sent, for a little while
        (a result not acknowledged stays in the outbox: the next run sends it again)."""
        deadline = time.monotonic() + seconds
        while self.sent and self.connected.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                item = self.inbox.get(timeout=left)
            except queue.Empty:
                return
            if isinstance(item, _Acked):
                self._acked(item.mid)

    def _evening(self) -> list[dict[str, Any]]:
        """The table's results of the last `RECENT` seconds (none when unreadable)."""
        try:
            records = json.loads(self.evening.read_bytes())
        except (OSError, ValueError):
            return []
        if not isinstance(records, list):
            return []
        return recent([r for r in records if isinstance(r, dict)], datetime.now(UTC))

    def _publish_evening(self, new: dict[str, Any] | None = None) -> None:
        """The retained ``results``, with ``new`` added (and kept on disk)."""
        records = self._evening()
        if new is not None:
            records.append(new)
            try:
                write_whole(self.evening, json.dumps(records, ensure_ascii=False).encode())
            except OSError as exc:
                log.error("club: cannot write %s: %s", self.evening, exc.strerror or exc)
        payload = json.dumps(records, ensure_ascii=False).encode()
        self._client.publish(topic(self.config.table, RESULTS), payload, qos=1, retain=True)

    def _keep_and_send(self, record: dict[str, Any]) -> None:
        """A new result: to the outbox, then to the broker. A full or read-only disk is
        logged and the result sent anyway (kept by paho until this run ends)."""
        try:
            path = self.outbox.put(record)
        except OSError as exc:
            log.error("club: cannot keep the result in %s: %s; sent without a copy on disk",
                      self.outbox.folder, exc.strerror or exc)  # fmt: skip
            payload = json.dumps(record, ensure_ascii=False).encode()
            self._client.publish(topic(self.config.table, RESULT), payload, qos=1)
        else:
            self._send(path)
        self._publish_evening(record)

    def _send(self, path: Path) -> None:
        try:
            payload = path.read_bytes()
        except OSError as exc:
            log.error("club: cannot read %s: %s", path, exc.strerror or exc)
            return
        info = self._client.publish(topic(self.config.table, RESULT), payload, qos=1)
        self.sent[info.mid] = path

    def _acked(self, mid: int) -> None:
        path = self.sent.pop(mid, None)
        if path is not None:
            path.unlink(missing_ok=True)
            log.info("club: the broker has the result %s", path.stem)

    def _publish_live(self, online: bool) -> None:
        """The latest state and frame (retained); with ``online``, the availability too
        (a new connection: what was published while away was dropped)."""
        table = self.config.table
        if online:
            self._client.publish(topic(table, AVAILABILITY), ONLINE, qos=1, retain=True)
            self._publish_evening()
        state = self._state
        if state is None:
            return
        self._client.publish(topic(table, STATE), state_payload(state.view), retain=True)
        number = int(state.view.get("frame_no", 0))
        if online or number != self._frame[0]:
            if number != self._frame[0]:
                out = io.BytesIO()
                state.frame.save(out, format="PNG")
                self._frame = (number, out.getvalue())
            self._client.publish(topic(table, FRAME), self._frame[1], retain=True)


def open_link(
    config: ClubConfig, data_dir: Path, referee: TableReferee, web: WebPort | None, **kw: Any
) -> TableLink:
    """The started link of `companion run`: with a page, it shares the page's publisher
    and sends the snapshot the page started with; ``kw``: `TableLink`'s options."""
    publisher = web.publisher if web is not None else None
    link = TableLink(config, data_dir, referee, publisher=publisher, **kw)
    link.start()
    if web is not None:
        link.take(web.hub.snapshot)
    return link
