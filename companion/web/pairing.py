"""Which phone may act for which seat.

Anyone on the network may watch; acting needs pairing. The OLED shows a six-digit code
(and a QR code of the page's address with it); a phone that sends the code with a seat
becomes that seat and gets two random tokens: one in an HttpOnly cookie that says who it
is, one the page sends back in a header with every action (CSRF: another site's page can
make the browser send the cookie, never the header). The code changes after every
successful pairing, so a code seen once over a shoulder is soon worthless. Pairing a seat
again replaces its phone (a phone lost or a browser changed); the console revokes
pairings (`companion unpair`).

A code that served (a stale QR code, a page left open on an old code) is told so and
never counts as wrong (`FORMER_CODES`). Guessing is slowed, never the person who reads
the code (`Tries`): a wrong code does not change the code the OLED shows; each client (an
address) may send `FREE_TRIES` wrong codes in a row and is still heard at once, whatever
others do. Past them a client waits twice as long after each wrong code (up to
`MAX_WAIT`) and waits its turn: the table hears `TABLE_BURST` such tries at once, then one
every `TABLE_EVERY` seconds, each wrong code booking its client's next turn in the order
they came. A client that must wait is refused without its code being read, so a right
code sent early tells nothing. Once `CLIENTS_KEPT` clients are remembered, a client the
table does not remember waits its turn too: rotating through addresses gains nothing.
So N addresses get at most FREE_TRIES * min(N, CLIENTS_KEPT) + TABLE_BURST tries at
once, then one every TABLE_EVERY seconds (docs/web.md works out what that means).

A page may ask the OLED to show the code (`CodeCard`), which hides the game's screen for
`SHOW_SECONDS`: asking again while it shows extends nothing, the game's screen then stays
at least as long before the next card, and one client starts a card at most once every
`SHOW_EVERY_CLIENT` seconds, so no stranger keeps the table's screen.

Pairings belong to one game: they end when it ends, they are forgotten when another game
starts (even with the same seat names), and, if the config says so, after some hours.
They are kept in the data directory (0600) so a restart mid-game does not unpair the
table. Only a hash of each cookie token is kept.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import logging
import math
import os
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.web.errors import told
from companion.web.quiet import Summary

log = logging.getLogger("companion")

CODE_DIGITS = 6
FREE_TRIES = 3
"""Wrong codes in a row (since it last paired) a client may send and still be heard at
once; an attacker's N addresses get as many each."""
FIRST_WAIT = 2.0
"""Seconds a client waits after its wrong code number `FREE_TRIES`; doubled after each."""
MAX_WAIT = 600.0
"""The longest a client waits between two tries of its own."""
TABLE_BURST = 12
"""Tries the table hears at once from clients past their free tries..."""
TABLE_EVERY = 10.0
"""...then one every this many seconds, whoever sends them, each at its turn."""
CLIENTS_KEPT = 4096
"""Clients remembered (past it, the one wrong the longest ago is forgotten); once that
many are, a client the table does not remember waits its turn as one past its free tries
(rotating through addresses gains nothing)."""
TOKEN_BYTES = 24
"""Random bytes of each token a phone gets (the cookie's, the header's): 192 bits, so
neither is guessed (docs/web.md)."""
FORMER_CODES = 16
"""Codes of this game that served and are recognised as such (never counted as wrong)."""

SHOW_SECONDS = 60.0
"""How long the OLED shows the pairing card when a page asks for it; the game's screen
then stays at least as long before the next card."""
SHOW_EVERY_CLIENT = 300.0
"""Seconds between two cards one client may start."""


@dataclass(frozen=True, slots=True)
class Paired:
    """What a phone learns when it pairs (and what the cookie says it is)."""

    seat: int
    token: str
    csrf: str


@dataclass(slots=True)
class _Pairing:
    seat: int
    csrf: str
    at: float
    """Wall-clock time it was made (`time.time()`, kept across restarts)."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def client_of(address: str | None) -> str:
    """Who tries, for the back-off: an IPv4 address, an IPv6 address's /64 network (one
    device picks any address in it), or "?"."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return "?"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass(slots=True)
class _Client:
    wrong: int = 0
    """Wrong codes since it last paired."""
    free_at: float = -math.inf
    """When it may try again (monotonic seconds)..."""
    told: str = "pair.wait"
    """...and why: its own wait ("pair.wait") or its turn at the table ("pair.table")."""


class Tries:
    """The pace of pairing tries, per client and for the whole table (see the module's
    docstring). Not thread-safe by itself: `Pairings` holds its lock around it."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._clients: OrderedDict[str, _Client] = OrderedDict()
        """Who was wrong, the most recently wrong last."""
        self._next_turn = -math.inf
        """The table's next turn not booked yet (less `TABLE_BURST` turns banked)."""
        self.wrong = Summary("wrong pairing code")
        self.slowed = Summary("pairing try refused: too many wrong codes", level=logging.INFO)

    def _turn(self, now: float) -> float:
        """The table's first turn free from `now` (at most `TABLE_BURST` are banked)."""
        return max(self._next_turn, now - (TABLE_BURST - 1) * TABLE_EVERY)

    def _book(self, now: float) -> float:
        turn = self._turn(now)
        self._next_turn = turn + TABLE_EVERY
        return turn

    def _full(self) -> bool:
        return len(self._clients) >= CLIENTS_KEPT

    def check(self, client: str) -> None:
        """Raise a 429 (with how long to wait) when `client` may not try now; the code
        is then never read. A client the table does not remember once its memory is
        full takes the table's turn, when one is free now."""
        now = self.clock()
        known = self._clients.get(client)
        if known is None:
            if not self._full():
                return
            free_at, told_key = self._turn(now), "pair.table"
            if free_at <= now:
                self._book(now)
                return
        else:
            free_at, told_key = known.free_at, known.told
        if now < free_at:
            self.slowed.note(f" from {client}")
            wait = math.ceil(free_at - now)
            raise told(429, told_key, retry_after=wait, seconds=wait)

    def failed(self, client: str) -> None:
        """`client` sent a wrong code: past its free tries, it waits longer and books its
        next turn at the table."""
        now = self.clock()
        known = self._clients.pop(client, None)
        if known is None:  # unknown: rationed from its first try if the memory is full
            known = _Client(wrong=FREE_TRIES if self._full() else 0)
        self._clients[client] = known  # the most recently wrong last
        while len(self._clients) > CLIENTS_KEPT:
            self._clients.popitem(last=False)
        known.wrong += 1
        late = known.wrong - FREE_TRIES
        if late >= 0:
            own = now + min(MAX_WAIT, FIRST_WAIT * 2.0 ** min(late, 20))
            turn = self._book(now)
            known.free_at, known.told = (own, "pair.wait") if own >= turn else (turn, "pair.table")
        self.wrong.note(f" from {client}")

    def succeeded(self, client: str) -> None:
        self._clients.pop(client, None)


class CodeCard:
    """When the OLED shows the pairing code because a page asked (see the module's
    docstring). Used from the web thread (`ask`) and read from the loop (`showing`)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.until = -math.inf
        self._started: OrderedDict[str, float] = OrderedDict()
        """When each client last started a card, the most recent last."""

    def showing(self) -> bool:
        return self.clock() < self.until

    def ask(self, client: str) -> float:
        """Show the card for `client`; the seconds it will still show, or a 429 saying
        how long to wait."""
        now = self.clock()
        if now < self.until:
            return self.until - now  # already on: read it now, nothing extended
        rested = self.until + SHOW_SECONDS
        last = self._started.get(client, -math.inf)
        free_at = max(rested, last + SHOW_EVERY_CLIENT)
        if now < free_at:
            wait = math.ceil(free_at - now)
            raise told(429, "pair.shown", retry_after=wait, seconds=wait)
        self._started.pop(client, None)
        self._started[client] = now
        while len(self._started) > CLIENTS_KEPT:
            self._started.popitem(last=False)
        self.until = now + SHOW_SECONDS
        return SHOW_SECONDS


class Pairings:
    """The seats' phones of one game (thread-safe: the web thread and the loop use it).

    `game` names the game (its journal): pairings saved for another are forgotten;
    `lifetime`: seconds a pairing lasts (None: as long as the game)."""

    def __init__(
        self,
        seats: tuple[str, ...],
        path: Path | None = None,
        *,
        game: str = "",
        lifetime: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.seats = seats
        self.path = path
        self.game = game
        self.lifetime = lifetime
        self.clock = clock
        """Wall-clock time (pairings outlive a restart, and may expire)."""
        self._lock = threading.Lock()
        self._by_hash: dict[str, _Pairing] = {}
        """hash(cookie token) -> its pairing."""
        self.tries = Tries()
        self.over = False
        """The game ended: every pairing with it, and no new one."""
        self._former: deque[str] = deque(maxlen=FORMER_CODES)
        """The last codes that served, the newest last."""
        self.code = self._new_code()
        self._load()

    def _new_code(self) -> str:
        """A code that has not served in this game (so a stale one is never taken for it)."""
        while True:
            code = f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"
            if code not in self._former:
                return code

    # ---------------------------------------------------------------------- pairing

    def pair(self, code: object, seat: object, client: str = "?") -> Paired:
        """Pair a phone to `seat` (0-based) with the `code` the OLED shows; `client` is
        who tries (`client_of`), for the pace of tries."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise told(400, "pair.seat")
        with self._lock:
            if self.over:
                raise told(409, "pair.over")
            self.tries.check(client)
            well_formed = isinstance(code, str) and code.isascii() and code.isdigit()
            if not (well_formed and len(str(code)) == CODE_DIGITS):
                self.tries.failed(client)  # a try all the same
                raise told(400, "pair.code")
            if not secrets.compare_digest(str(code), self.code):
                if code in self._former:
                    raise told(403, "pair.used")  # a stale QR code: no wrong try
                self.tries.failed(client)
                raise told(403, "pair.wrong")
            self.tries.succeeded(client)
            replaced = [h for h, p in self._by_hash.items() if p.seat == seat]
            for h in replaced:
                del self._by_hash[h]
            token, csrf = secrets.token_urlsafe(TOKEN_BYTES), secrets.token_urlsafe(TOKEN_BYTES)
            paired = Paired(seat, token, csrf)
            self._by_hash[_hash(paired.token)] = _Pairing(seat, paired.csrf, self.clock())
            self._former.append(self.code)
            self.code = self._new_code()
            self._save()
        log.info(
            "web: a phone is paired to %s%s",
            self.seats[seat],
            " (its previous phone is unpaired)" if replaced else "",
        )
        return paired

    def who(self, token: str | None) -> tuple[int, str] | None:
        """(seat, csrf token) of the phone whose cookie holds `token`; None if unpaired
        (or its pairing expired)."""
        if not token:
            return None
        with self._lock:
            key = _hash(token)
            pairing = self._by_hash.get(key)
            if pairing is None:
                return None
            if self._expired(pairing):
                del self._by_hash[key]
                self._save()
                log.info("web: the pairing of %s's phone expired", self.seats[pairing.seat])
                return None
            return pairing.seat, pairing.csrf

    def _expired(self, pairing: _Pairing) -> bool:
        return self.lifetime is not None and self.clock() - pairing.at >= self.lifetime

    def revoke(self, seat: int | None) -> int:
        """Unpair `seat`'s phone (None: every phone); how many were unpaired."""
        with self._lock:
            gone = [h for h, p in self._by_hash.items() if seat is None or p.seat == seat]
            for h in gone:
                del self._by_hash[h]
            if gone:
                self._save()
        if gone:
            log.info("web: unpaired %s", "every phone" if seat is None else self.seats[seat])
        return len(gone)

    def end(self) -> None:
        """The game is over: every phone is unpaired and none pairs any more."""
        with self._lock:
            if self.over:
                return
            self.over = True
            self._by_hash.clear()
            self._save()
        log.info("web: the game is over: every phone is unpaired")

    def forget(self, token: str) -> None:
        """A phone unpairs itself."""
        with self._lock:
            if self._by_hash.pop(_hash(token), None) is not None:
                self._save()

    def paired_seats(self) -> set[int]:
        with self._lock:
            return {p.seat for p in self._by_hash.values() if not self._expired(p)}

    # ------------------------------------------------------------------ persistence

    def _save(self) -> None:
        if self.path is None:
            return
        data = {
            "seats": list(self.seats),
            "game": self.game,
            "over": self.over,
            "paired": [[h, p.seat, p.csrf, p.at] for h, p in sorted(self._by_hash.items())],
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
            if data.get("seats") != list(self.seats) or data.get("game") != self.game:
                return  # another game's: its pairings mean nothing here
            self.over = data.get("over") is True
            for h, seat, csrf, at in data["paired"]:
                if isinstance(h, str) and isinstance(seat, int) and 0 <= seat < len(self.seats):
                    self._by_hash[h] = _Pairing(seat, str(csrf), float(at))
        except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            log.warning("web: %s is unreadable (%s): every phone must pair again", self.path, exc)
            self._by_hash.clear()
