"""``[club]`` of the file checked into a `ClubConfig` (companion/config/club.py)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.config.club import MQTT_PORT, MQTTS_PORT, TABLE_NAME, ClubConfig
from companion.config.reading import Checker, boolean, text

CLUB_KEYS = ("broker", "table", "username", "password", "tls_ca", "tls")
_BROKER_FIX = (
    'the broker\'s address, "HOST" or "HOST:PORT" (e.g. "club-pi.local"; '
    f"default port {MQTTS_PORT}, {MQTT_PORT} with tls = false)"
)
_TABLE_FIX = (
    'the table\'s name on the club\'s board: lower-case letters, digits, "-" and "_", '
    'up to 32 (e.g. "table-3")'
)


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
    tls = c.get(s, "club.tls", True, boolean, "true (the default: TLS) or false (plain MQTT, "
                "for a broker on a closed network only: docs/club.md)")  # fmt: skip
    tls_ca = _tls_ca(c, s, base)
    if tls_ca is not None and not tls:
        c.bad("club.tls_ca", s["tls_ca"], "a CA is for TLS, and tls = false: remove one")
    if "broker" not in s:
        c.problems.append(f"{c.name}: club.broker: missing ({_BROKER_FIX})")
    address = c.get(s, "club.broker", None, lambda v: broker_address(v, tls),
                    _BROKER_FIX)  # fmt: skip
    if "table" not in s:
        c.problems.append(f"{c.name}: club.table: missing ({_TABLE_FIX})")
    table = c.get(s, "club.table", "", _name, _TABLE_FIX)
    username = c.get(s, "club.username", table, text, "the table's user on the broker "
                     "(default: the table's name, which the club's ACL expects)")  # fmt: skip
    password = c.get(s, "club.password", None, text, "the user's password on the broker "
                     "(mosquitto_passwd sets it), in quotes")  # fmt: skip
    if address is not None and address[1] == MQTT_PORT and tls and "tls" not in s:
        # A configuration written before TLS was the default: it would never connect.
        fix = (
            f"port {MQTT_PORT} is plain MQTT's, and a table speaks TLS unless told: give the "
            f"broker's TLS port ({MQTTS_PORT}, the default), or add tls = false for a broker "
            "on a closed network (docs/club.md)"
        )
        c.bad("club.broker", s["broker"], fix)
    if len(c.problems) > before or address is None:
        return None
    return ClubConfig(address[0], address[1], table, username, password, tls_ca, tls)


def _tls_ca(c: Checker, s: Mapping[str, Any], base: Path) -> Path | None:
    """The CA file of ``tls_ca``, relative to the config's folder; it must exist."""
    given = c.get(s, "club.tls_ca", None, text, "the broker's CA certificate file (PEM)")
    if given is None:
        return None
    path = Path(given).expanduser()
    path = path if path.is_absolute() else base / path
    if not path.is_file():
        c.bad("club.tls_ca", given, f"no such file ({path}): the broker's CA certificate (PEM)")
        return None
    return path
