"""Which phone may act for which seat.

Anyone on the network may watch; acting needs pairing. The OLED shows a six-digit code
(and a QR code of the page's address with it); a phone that sends the code with a seat
becomes that seat and gets two random tokens: one in an HttpOnly cookie that says who it
is, one the page sends back in a header with every action (CSRF: another site's page can
make the browser send the cookie, never the header). The code changes after every
successful pairing and after `MAX_TRIES` wrong ones, so a code seen once over a shoulder
or guessed at is soon worthless. Pairing a seat again replaces its phone (a phone lost or
a browser changed); the console revokes pairings (`companion unpair`).

Pairings are kept in the data directory (0600) so a restart mid-game does not unpair the
table; they belong to one list of seat names and are forgotten when it changes. Only a
hash of each cookie token is kept.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.web.errors import Refused

log = logging.getLogger("companion")

CODE_DIGITS = 6
MAX_TRIES = 5
"""Wrong codes before the code changes."""


@dataclass(frozen=True, slots=True)
class Paired:
    """What a phone learns when it pairs (and what the cookie says it is)."""

    seat: int
    token: str
    csrf: str


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Pairings:
    """The seats' phones of one game (thread-safe: the web thread and the loop use it)."""

    def __init__(self, seats: tuple[str, ...], path: Path | None = None) -> None:
        self.seats = seats
        self.path = path
        self._lock = threading.Lock()
        self._by_hash: dict[str, tuple[int, str]] = {}
        """hash(cookie token) -> (seat, csrf token)."""
        self._wrong = 0
        self.code = self._new_code()
        self.generation = 0
        """Changes whenever who is paired changes (pages then update their seat lists)."""
        self._load()

    @staticmethod
    def _new_code() -> str:
        return f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"

    # ---------------------------------------------------------------------- pairing

    def pair(self, code: object, seat: object) -> Paired:
        """Pair a phone to `seat` (0-based) with the `code` the OLED shows."""
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise Refused(400, "seat must be a seat number (0 for the first seat)")
        if not 0 <= seat < len(self.seats):
            raise Refused(400, f"no seat {seat}: the seats are 0 to {len(self.seats) - 1}")
        if not isinstance(code, str) or not code.isdigit() or len(code) != CODE_DIGITS:
            raise Refused(400, f"the code is the {CODE_DIGITS} digits the table's screen shows")
        with self._lock:
            if not secrets.compare_digest(code, self.code):
                self._wrong += 1
                if self._wrong >= MAX_TRIES:
                    self._wrong = 0
                    self.code = self._new_code()
                    log.warning("web: %d wrong pairing codes: the code changed", MAX_TRIES)
                raise Refused(403, "wrong code: read it again on the table's screen")
            replaced = [h for h, (s, _) in self._by_hash.items() if s == seat]
            for h in replaced:
                del self._by_hash[h]
            paired = Paired(seat, secrets.token_urlsafe(24), secrets.token_urlsafe(24))
            self._by_hash[_hash(paired.token)] = (seat, paired.csrf)
            self._wrong = 0
            self.code = self._new_code()
            self.generation += 1
            self._save()
        log.info(
            "web: a phone is paired to %s%s",
            self.seats[seat],
            " (its previous phone is unpaired)" if replaced else "",
        )
        return paired

    def who(self, token: str | None) -> tuple[int, str] | None:
        """(seat, csrf token) of the phone whose cookie holds `token`; None if unpaired."""
        if not token:
            return None
        with self._lock:
            return self._by_hash.get(_hash(token))

    def revoke(self, seat: int | None) -> int:
        """Unpair `seat`'s phone (None: every phone); how many were unpaired."""
        with self._lock:
            gone = [h for h, (s, _) in self._by_hash.items() if seat is None or s == seat]
            for h in gone:
                del self._by_hash[h]
            if gone:
                self.generation += 1
                self._save()
        if gone:
            log.info("web: unpaired %s", "every phone" if seat is None else self.seats[seat])
        return len(gone)

    def forget(self, token: str) -> bool:
        """A phone unpairs itself."""
        with self._lock:
            gone = self._by_hash.pop(_hash(token), None)
            if gone is not None:
                self.generation += 1
                self._save()
        return gone is not None

    def paired_seats(self) -> set[int]:
        with self._lock:
            return {seat for seat, _ in self._by_hash.values()}

    # ------------------------------------------------------------------ persistence

    def _save(self) -> None:
        if self.path is None:
            return
        data = {
            "seats": list(self.seats),
            "paired": [[h, s, c] for h, (s, c) in sorted(self._by_hash.items())],
        }
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def _load(self) -> None:
        if self.path is None or not self.path.exists():
            return
        try:
            data: Any = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("seats") != list(self.seats):
                return  # another game's seats: its pairings mean nothing here
            for h, seat, csrf in data["paired"]:
                if isinstance(h, str) and isinstance(seat, int) and 0 <= seat < len(self.seats):
                    self._by_hash[h] = (seat, str(csrf))
        except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            log.warning("web: %s is unreadable (%s): every phone must pair again", self.path, exc)
            self._by_hash.clear()
