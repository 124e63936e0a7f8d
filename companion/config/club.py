"""``[club]``: the broker a table publishes to on a club night (docs/club.md).

Left out, the table is an island as before: nothing of MQTT is imported. Given, the
table publishes its public snapshots, its availability and its finished games to the
broker (`companion.club.link`). This module holds what a valid table becomes and imports
nothing of the companion (`model` imports it, and the reading of the file imports
`model`); ``club_table`` checks the file's keys.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

TABLE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
"""A table's name: its topic level and, by default, its broker user (lower-case letters,
digits, ``-`` and ``_``, up to 32: no MQTT wildcard, no ``/``)."""
MQTT_PORT = 1883
MQTTS_PORT = 8883


@dataclass(frozen=True, slots=True)
class ClubConfig:
    host: str
    port: int
    table: str
    """The table's name on the club's board and in its topics (companion/tables/NAME/...)."""
    username: str
    """The broker user; the ACL lets it publish under its own table's topics only."""
    password: str | None = None
    tls_ca: Path | None = None
    """The CA the broker's certificate is checked against; None: the system's CAs."""
    tls: bool = True
    """False: plain MQTT, an explicit choice for a closed network (``tls = false``)."""

    def summary(self) -> str:
        """One line for `companion config check` (never the password)."""
        from companion.config.words import say

        if not self.tls:
            tls = say("sum.plain")
        elif self.tls_ca is not None:
            tls = say("sum.ca", ca=self.tls_ca)
        else:
            tls = say("sum.system_ca")
        return say("sum.club", table=self.table, host=self.host, port=self.port,
                   username=self.username, tls=tls)  # fmt: skip
