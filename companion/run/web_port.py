"""The table's web page as the referee loop sees it: start it, publish after every step,
ask it whether the OLED must show the pairing card, stop it.

Everything the page shows is published from here, in the referee loop's thread, as
public snapshots (`companion.web.public`); the web thread never touches the referee. The
pairings belong to the game of the journal (`game_key`) and end with it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import secrets
import socket
from pathlib import Path

from companion import games
from companion.config.model import WebConfig
from companion.contract.game import TableReferee
from companion.run.items import Inbox
from companion.screens.pairing import PairingScreen
from companion.web.gate import Limits
from companion.web.pairing import Pairings
from companion.web.public import Publisher, Snapshot
from companion.web.replay import Journals
from companion.web.server import Hub, WebServer
from companion.web.virtual import VirtualTable

log = logging.getLogger("companion")

ADMIN_TOKEN = "web-admin.token"
"""In the data directory (0600): what `companion unpair` proves itself with."""


def lan_address() -> str:
    """The Pi's address on its local network (no packet is sent), else 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address: str = probe.getsockname()[0]
            return address
        except OSError:
            return "127.0.0.1"


class WebPort:
    """The page of one game: its hub, its server, its publisher."""

    def __init__(
        self,
        config: WebConfig,
        data_dir: Path,
        referee: TableReferee,
        inbox: Inbox,
        journal_name: str = "game.jsonl",
        limits: Limits | None = None,
        virtual: bool = False,
    ) -> None:
        """`virtual`: the table is played on the page with virtual tokens (`companion run
        --virtual`): the game's kit (`VirtualTable`) is kept here, in the referee loop's
        thread, and each paired phone is sent its own seat's facts."""
        self.config = config
        self.referee = referee
        game = games.get(referee.setup.game)
        self.publisher = Publisher(referee, virtual=virtual)
        hours = config.pairing_hours
        key = game_key(referee, data_dir / journal_name)
        self.pairings = Pairings(
            tuple(referee.names),
            data_dir / "pairings.json",
            game=key,
            lifetime=hours * 3600 if hours > 0 else None,
        )
        self.virtual = (
            VirtualTable(game, referee, data_dir, key)
            if virtual and game.virtual is not None
            else None
        )
        """The game's virtual kit (None: a real table, or a game played on the page)."""
        self.admin_token = secrets.token_urlsafe(24)
        self.hub = Hub(
            game,
            tuple(referee.names),
            inbox,
            self.pairings,
            Journals(data_dir, journal_name),
            admin_token=self.admin_token,
            virtual=virtual,
        )
        self.server = WebServer(self.hub, config.host, config.port, limits)
        self.data_dir = data_dir
        self.address = ""
        self.log_codes = False
        """Log each new pairing code (a simulated table: its user reads the log, not an
        OLED across the table)."""
        self._logged_code = ""
        self._private: dict[int, bytes] = {}

    def start(self) -> str:
        """Listen; the page's address "HOST:PORT" (raises OSError when it cannot)."""
        port = self.server.start()
        host = lan_address() if self.config.host in ("0.0.0.0", "::") else self.config.host
        self.address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        self.hub.address = self.address
        _write_private(self.data_dir / ADMIN_TOKEN, self.admin_token)
        log.info("web page: http://%s/", self.address)
        self.publish()
        return self.address

    def publish(self) -> Snapshot | None:
        """After every step: the new snapshot (returned: the club's link sends the same,
        None when nothing public changed); a game that is over ends its pairings."""
        if self.referee.finished and not self.pairings.over:
            self.pairings.end()
        if self.log_codes and not self.pairings.over and self.pairings.code != self._logged_code:
            self._logged_code = code = self.pairings.code
            log.info("web page pairing code: %s (or open http://%s/P/%s)", code, self.address, code)
        snapshot = self.publisher.snapshot()
        table = self.virtual
        if table is not None and (snapshot is not None or table.moved):
            table.moved = False
            self.hub.private = table.views(len(self.referee.names))  # before the version moves
        if snapshot is not None:
            self.hub.publish(snapshot)
        elif table is not None and self.hub.private is not self._private:
            self.hub.publish_private()
        self._private = self.hub.private
        return snapshot

    @property
    def played_on_page(self) -> bool:
        """The game is played on the page (by its nature, or on the virtual table): it
        cannot go on without it."""
        return self.hub.game.played_on_page or self.hub.virtual

    def overlay(self) -> PairingScreen | None:
        """The pairing card, when the OLED must show it instead of the game's screen: the
        seat to play a game played on the page has no phone yet (the card names it), or a
        page asked to see the code; never once the game is over."""
        if self.pairings.over:
            return None  # the game is over: no phone pairs any more
        snapshot = self.hub.snapshot
        board = (snapshot.view.get("board") if snapshot else None) or {}
        seat = board.get("seat")
        if (
            self.hub.game.played_on_page
            and isinstance(seat, int)
            and seat not in self.pairings.paired_seats()
        ):
            return PairingScreen(self.pairings.code, self.address, self.referee.names[seat])
        if self.hub.code_asked():
            return PairingScreen(self.pairings.code, self.address)
        return None

    def stop(self) -> None:
        self.server.stop()
        with contextlib.suppress(OSError):
            (self.data_dir / ADMIN_TOKEN).unlink()


def game_key(referee: TableReferee, journal: Path) -> str:
    """What names one game for its pairings: its setup line and its journal file (a new
    game is a new file, even with the setup of the last one: a fixed seed, the same
    seats); a random one when the journal cannot be read (pairings then end with the
    service)."""
    try:
        st = os.stat(journal)
    except OSError:
        return secrets.token_hex(16)
    setup = json.dumps(referee.setup.to_json(), sort_keys=True)
    return hashlib.sha256(f"{setup}\n{st.st_dev}:{st.st_ino}".encode()).hexdigest()[:32]


def _write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
