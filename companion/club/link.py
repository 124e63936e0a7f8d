"""The table's side of a club night: publish to the broker, never wait for it.

After every step the referee loop hands the link the snapshot it published to the web
page (`TableLink.take`; `companion.web.public.Publisher`), or lets it build one when the
table has no page (`TableLink.step`); once the game is over the link adds its result
record, and its worker thread does the rest: nothing there can block the referee. The
worker first announces the game (the retained ``games``, kept in ``club-games.json``:
the board counts a result only for a game its table announced), then writes each result
to the outbox (``club-outbox/`` in the data directory, one file a result, fsync'd) before
handing it to paho-mqtt at QoS 1 over a persistent session; a file is removed once the
broker acknowledged it (PUBACK), so a result survives a lost broker and a restart of the
table, and is sent again until acknowledged. A result's id is made from the game's own
id (`companion.club.outbox.result_id`): a result kept again after a cut is the same one,
and the board counts it once. A cut before the worker kept it loses nothing either: the
journal ends the game with its end-of-game line, and the service keeps the result from it
before archiving it (`companion.club.outbox.keep_finished`).

The link is made whatever the network does: a broker whose name does not resolve, no
network at all, a CA file that cannot be read yet are logged once and tried again every
``retry`` seconds, while the results wait in the outbox. The live state, the OLED frame,
the games and the evening's results (``club-results.json``, the last `RECENT` seconds'
games) and where the table's page is are retained, sent again at each (re)connection; the
availability is "online" while connected, and the broker says "offline" (the last will)
when the table is gone.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.club.outbox import ClubFiles, game_result, now_utc
from companion.club.topics import (
    AVAILABILITY,
    FRAME,
    GAMES,
    OFFLINE,
    ONLINE,
    PAGE,
    RESULT,
    RESULTS,
    STATE,
    page_address,
    state_payload,
    topic,
)
from companion.config.club import ClubConfig
from companion.contract.game import TableReferee
from companion.web.public import Publisher, Snapshot

if TYPE_CHECKING:
    from companion.run.web_port import WebPort

log = logging.getLogger("companion.club")

KEEPALIVE = 15
"""Seconds between pings: the broker says "offline" within 1.5 times it after a table
went silent."""


@dataclass(frozen=True, slots=True)
class _Acked:
    mid: int


@dataclass(frozen=True, slots=True)
class _Connected:
    """A new connection: the worker says "online" and sends its retained lists again."""


@dataclass(frozen=True, slots=True)
class _Result:
    record: dict[str, Any]


def host_problem(host: str) -> str | None:
    """Why ``host`` cannot name a broker (paho's thread would die of it), or None."""
    try:
        if host.encode("idna"):
            return None
    except UnicodeError as exc:
        return f"{host!r} is not a host name ({exc})"
    return "no host name"


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
        page: str | None = None,
    ) -> None:
        """``page``: where the table's web page listens, "HOST:PORT" (None: it has none)."""
        self.config = config
        self.referee = referee
        self.publisher = publisher or Publisher(referee)
        """The table page's, when it has one (`take`), else its own (`step`)."""
        self.files = ClubFiles(data_dir)
        self.outbox = self.files.outbox
        self.retry = retry
        self.reported = False
        """The result of this run's game went to the worker (which keeps it unless the
        outbox or the evening list has it already: a game over before the link started
        was kept by then, `companion.club.outbox.keep_finished`)."""
        self.inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.sent: dict[int, Path] = {}
        """The message id of each result handed to paho, and its outbox file."""
        self.connected = threading.Event()
        self._state: Snapshot | None = None
        self._frame_no: int | None = None
        self._png = b""
        """The last frame published: its number and its PNG."""
        self._page = page_address(page)
        """The retained ``page`` (empty: no page the club can open)."""
        self._tls = not config.tls
        """TLS is set up (or plain MQTT was asked for)."""
        self._offline: str | None = None
        """Why paho's network loop could not start, as last logged."""
        self._keepalive = keepalive
        self._client = self._make_client(config, retry)
        self._thread = threading.Thread(target=self._work, name="club", daemon=True)

    def _make_client(self, config: ClubConfig, retry: float) -> mqtt.Client:
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"companion-table-{config.table}",
            clean_session=False,
        )
        client.username_pw_set(config.username, config.password)
        client.will_set(topic(config.table, AVAILABILITY), OFFLINE, qos=1, retain=True)
        client.reconnect_delay_set(min_delay=1, max_delay=max(1, int(retry)))
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        return client

    # ----------------------------------------------------------- referee thread

    def start(self) -> None:
        """Start the worker, which announces the game, sends the results a previous run
        left in the outbox and connects in the background (never raises, never waits)."""
        self._thread.start()
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
        if self.referee.finished and not self.reported:
            self.reported = True
            self.inbox.put(_Result(game_result(self.config.table, self.referee, now_utc())))

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
        self.connected.clear()  # the table goes, not the broker: nothing to say
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
        self._publish_games(self.files.announce(self.config.table, self.referee))
        for path in self.outbox.waiting():
            self._resend(path)
        looping = self._connect()
        while True:
            try:
                items = [self.inbox.get(timeout=None if looping else self.retry)]
            except queue.Empty:
                looping = self._connect()
                continue
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
            if any(isinstance(i, _Connected) for i in items):  # a new one: "online" first
                self._publish_live(online=True)
            elif snapshots:
                self._publish_live(online=False)
            if None in items:
                self._last_acks(connecting=looping)
                return

    def _connect(self) -> bool:
        """Start paho's network loop, which connects and reconnects by itself; False when
        it cannot start now (a CA file that cannot be read, a broker's name that is no
        host name, no network at all): logged once, tried again after `retry` seconds."""
        config = self.config
        try:
            problem = host_problem(config.host)
            if problem is not None:
                raise ValueError(problem)
            if not self._tls:  # the club's CA, or the system's CAs (ca_certs=None)
                self._client.tls_set(ca_certs=str(config.tls_ca) if config.tls_ca else None)
                self._tls = True
            self._client.connect_async(config.host, config.port, self._keepalive)
            self._client.loop_start()
        except (OSError, ValueError) as exc:
            why = str(exc) or type(exc).__name__
            if why != self._offline:
                log.error("club: cannot reach %s:%d yet (%s); the results wait in %s, tried "
                          "again every %g s", config.host, config.port, why,
                          self.outbox.folder, self.retry)  # fmt: skip
                self._offline = why
            return False
        return True

    def _last_acks(self, connecting: bool, seconds: float = 2.0) -> None:
        """Stopping: the acknowledgements of the results just sent, for a little while, a
        connection still under way (`connecting`: paho sends them once connected) included:
        a game over within a second of the start is sent then too. A result not
        acknowledged by then stays in the outbox: the next run sends it again."""
        deadline = time.monotonic() + seconds
        while self.sent and (self.connected.is_set() or connecting):
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                item = self.inbox.get(timeout=left)
            except queue.Empty:
                return
            if isinstance(item, _Acked):
                self._acked(item.mid)

    def _publish_list(self, kind: str, records: list[dict[str, Any]]) -> None:
        payload = json.dumps(records, ensure_ascii=False).encode()
        self._client.publish(topic(self.config.table, kind), payload, qos=1, retain=True)

    def _publish_games(self, announced: list[dict[str, Any]]) -> None:
        """The retained ``games``: before any result of them, and at each connection."""
        self._publish_list(GAMES, announced)

    def _keep_and_send(self, record: dict[str, Any]) -> None:
        """A new result: to the outbox, then to the broker (nothing when the outbox or
        the evening list has it already). A full or read-only disk is logged and the
        result sent anyway (kept by paho until this run ends)."""
        try:
            path = self.files.keep(record)
        except OSError as exc:
            log.error("club: cannot keep the result in %s: %s; sent without a copy on disk",
                      self.outbox.folder, exc.strerror or exc)  # fmt: skip
            payload = json.dumps(record, ensure_ascii=False).encode()
            self._client.publish(topic(self.config.table, RESULT), payload, qos=1)
        else:
            if path is not None:
                self._send(path)
        self._publish_list(RESULTS, self.files.evening.read())

    def _resend(self, path: Path) -> None:
        """A result a previous run left in the outbox: in the evening list (a cut may have
        come before it was added), then to the broker."""
        try:
            record = json.loads(path.read_bytes())
        except (OSError, ValueError, RecursionError) as exc:  # RecursionError: too deep
            log.error("club: cannot read %s: %s", path, exc)
            return
        if isinstance(record, dict) and isinstance(record.get("id"), str):
            self.files.evening.add(record)
        self._send(path)

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
        """The latest state and frame (retained); with ``online``, the availability, the
        page's address (empty, which clears a page of an earlier run), the games and the
        results too (a new connection: what was published while away was dropped, or the
        broker forgot it)."""
        table = self.config.table
        if online:
            self._client.publish(topic(table, AVAILABILITY), ONLINE, qos=1, retain=True)
            self._client.publish(topic(table, PAGE), self._page, qos=1, retain=True)
            self._publish_games(self.files.games.read())
            self._publish_list(RESULTS, self.files.evening.read())
        state = self._state
        if state is None:
            return
        self._client.publish(topic(table, STATE), state_payload(state.view), retain=True)
        number = int(state.view["frame_no"])
        changed = number != self._frame_no
        if changed:
            out = io.BytesIO()
            state.frame.save(out, format="PNG")
            self._frame_no, self._png = number, out.getvalue()
        if online or changed:
            self._client.publish(topic(table, FRAME), self._png, retain=True)


def open_link(
    config: ClubConfig, data_dir: Path, referee: TableReferee, web: WebPort | None, **kw: Any
) -> TableLink:
    """The started link of `companion run`: with a page, it shares the page's publisher,
    says where the page is and sends the snapshot the page started with; ``kw``:
    `TableLink`'s options."""
    publisher = web.publisher if web is not None else None
    page = web.address if web is not None else None
    link = TableLink(config, data_dir, referee, publisher=publisher, page=page, **kw)
    link.start()
    if web is not None:
        link.take(web.hub.snapshot)
    return link
