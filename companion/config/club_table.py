"""``[club]`` of the file checked into a `ClubConfig` (companion/config/club.py)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.config.club import MQTT_PORT, MQTTS_PORT, TABLE_NAME, ClubConfig
from companion.config.reading import Checker, boolean, text
from companion.config.words import fix, say

CLUB_KEYS = ("broker", "table", "username", "password", "tls_ca", "tls")


def broker_address(value: Any, tls: bool = True) -> tuple[str, int] | None:
    """(host, port) of ``"HOST"``, ``"HOST:PORT"`` or ``"[IPv6]:PORT"``, else None."""
    if not isinstance(value, str) or not value or any(ch.isspace() for ch in value):
        return None
    host, port = value, MQTTS_PORT if tls else MQTT_PORT
    if value.startswith("["):
        inside, _, rest = value[1:].partition("]")
        if not inside or (rest and not rest.startswith(":")):
            return None
        host, rest = inside, rest[1:]
        if rest:
            port = _port(rest)
    elif value.count(":") == 1:
        host, given = value.split(":")
        port = _port(given)
    if not host or "/" in host or port == 0:
        return None
    return host, port


def _port(given: str) -> int:
    """The port of ``given``, 0 when it is none."""
    return int(given) if given.isdigit() and 1 <= int(given) <= 65535 else 0


def _name(value: Any) -> str | None:
    return value if isinstance(value, str) and TABLE_NAME.fullmatch(value) else None


def parse_club(c: Checker, base: Path) -> ClubConfig | None:
    """[club]: the broker, the table's name and credentials; None when the table is not
    in a club (no [club], or a problem recorded in ``c``)."""
    if "club" not in c.data:
        return None
    s = c.table("club")
    c.unknown("club.", s, set(CLUB_KEYS))
    before = len(c.problems)
    tls = c.get(s, "club.tls", True, boolean, fix("tls"))
    broker_fix = say("broker", tls_port=MQTTS_PORT, plain_port=MQTT_PORT)
    table_fix = say("fix.club_table")
    tls_ca = _tls_ca(c, s, base)
    if tls_ca is not None and not tls:
        c.bad("club.tls_ca", s["tls_ca"], say("ca_without_tls"))
    if "broker" not in s:
        c.problems.append(say("missing", name=c.name, key="club.broker", fix=broker_fix))
    address = c.get(s, "club.broker", None, lambda v: broker_address(v, tls), broker_fix)
    if "table" not in s:
        c.problems.append(say("missing", name=c.name, key="club.table", fix=table_fix))
    table = c.get(s, "club.table", "", _name, table_fix)
    username = c.get(s, "club.username", table, text, fix("username"))
    password = c.get(s, "club.password", None, text, fix("password"))
    if address is not None and address[1] == MQTT_PORT and tls and "tls" not in s:
        # A configuration written before TLS was the default: it would never connect.
        plain = say("plain_port", plain_port=MQTT_PORT, tls_port=MQTTS_PORT)
        c.bad("club.broker", s["broker"], plain)
    if len(c.problems) > before or address is None:
        return None
    return ClubConfig(address[0], address[1], table, username, password, tls_ca, tls)


def _tls_ca(c: Checker, s: Mapping[str, Any], base: Path) -> Path | None:
    """The CA file of ``tls_ca``, relative to the config's folder; it must exist."""
    given = c.get(s, "club.tls_ca", None, text, fix("tls_ca"))
    if given is None:
        return None
    path = Path(given).expanduser()
    path = path if path.is_absolute() else base / path
    if not path.is_file():
        c.bad("club.tls_ca", given, say("no_ca", path=path))
        return None
    return path
