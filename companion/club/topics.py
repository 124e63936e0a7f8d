"""What a table publishes and the club reads: topics and payloads (docs/club.md).

Home Assistant's conventions are the model: a retained ``state`` (the live view), a
retained ``availability`` ("online", and the last will "offline"), plus the table's
finished games on ``result`` at QoS 1, and the evening's finished games of the table
again in the retained ``results`` (a board started late, or whose broker forgot its
session, still has every game: it counts each id once), and the retained ``page``, where
the table's web page is. Every payload is built from public facts only: the state is the
web page's own public view (`companion.web.public.Snapshot.view`), a result the seats'
names, the game, its rules and the replay document's scores and winner, never the setup's
tags.
"""

from __future__ import annotations

import ipaddress
import json
from datetime import datetime
from typing import Any

ROOT = "companion/tables"
STATE = "state"
FRAME = "frame"
AVAILABILITY = "availability"
RESULT = "result"
RESULTS = "results"
GAMES = "games"
"""The table's games of the evening as each starts (a retained list of announcements, each
`announcement`): the board counts a result only for a game its table announced, with the
same game and seats."""
PAGE = "page"
"""Where the table's web page is, "HOST:PORT" (`page_address`): retained, empty when the
table has no page on its network (the board then links to none)."""
MAX_PACKET = 1 << 20
"""Bytes of the largest MQTT packet on the club's broker (docs/club.md's
``max_packet_size``, which the club asks for too): twice the largest payload a table sends
(`companion.club.board.Bounds.largest`)."""
RECENT = 12 * 3600
"""Seconds a result stays in its table's retained ``results`` (an evening, not the next)."""
EVENING_GAMES = 200
"""Games of one table an evening the club takes (one every 3 minutes for 10 hours): a
table's retained ``games`` and ``results`` hold its latest so many."""
ONLINE = b"online"
OFFLINE = b"offline"
SUBSCRIPTIONS = (f"{ROOT}/+/{STATE}", f"{ROOT}/+/{FRAME}", f"{ROOT}/+/{AVAILABILITY}",
                 f"{ROOT}/+/{RESULT}", f"{ROOT}/+/{RESULTS}", f"{ROOT}/+/{GAMES}",
                 f"{ROOT}/+/{PAGE}")  # fmt: skip
"""What the club reads (the ACL lets its user read nothing else)."""


def topic(table: str, kind: str) -> str:
    """The topic of one kind of a table's messages."""
    return f"{ROOT}/{table}/{kind}"


def parse(topic_name: str) -> tuple[str, str] | None:
    """(table, kind) of a topic under `ROOT`, else None."""
    parts = topic_name.split("/")
    if len(parts) != 4 or "/".join(parts[:2]) != ROOT or not parts[2]:
        return None
    return parts[2], parts[3]


def compact(data: Any) -> bytes:
    """JSON as the page's server writes it (no spaces, ASCII)."""
    return json.dumps(data, separators=(",", ":")).encode()


def state_payload(view: dict[str, Any]) -> bytes:
    """The live state of a table: the page's public view as its server serialises it,
    without the frame counter (the frame has its own topic): the very bytes of the page's
    state up to what its server adds for its own clients (version, frame, pairing, you)."""
    return compact({k: v for k, v in view.items() if k != "frame_no"})


def recent(
    records: list[dict[str, Any]], now: datetime, field: str = "ended"
) -> list[dict[str, Any]]:
    """The records that ended (or, with ``field``, started) less than `RECENT` seconds
    before ``now`` (an ISO time with its zone); one without a readable time is left out."""
    kept = []
    for record in records:
        try:
            ended = datetime.fromisoformat(str(record.get(field, "")))
        except ValueError:
            continue
        if ended.tzinfo is not None and 0 <= (now - ended).total_seconds() < RECENT:
            kept.append(record)
    return kept


def result_record(
    result_id: str,
    table: str,
    game: str,
    title: str,
    rules: dict[str, Any] | None,
    seats: list[str],
    result: dict[str, Any],
    duration: float,
    ended: str,
) -> dict[str, Any]:
    """One finished game as the club records it (no events: they are the table's own
    archive; the scores and winner as the replay document gives them)."""
    return {
        "id": result_id,
        "table": table,
        "game": game,
        "title": title,
        "rules": rules or {},
        "seats": seats,
        "scores": list(result["scores"]),
        "winner": result["winner"],
        "duration": round(duration, 1),
        "ended": ended,
    }


def announcement(game_id: str, game: str, seats: list[str], started: str) -> dict[str, Any]:
    """A game as its table announces it when it starts (``games``): its ``id`` is the id
    its result will carry, ``started`` an ISO UTC time."""
    return {"id": game_id, "game": game, "seats": seats, "started": started}


def page_address(address: str | None) -> bytes:
    """The ``page`` payload of a table whose web page listens at ``address`` ("HOST:PORT",
    `companion.run.web_port.WebPort.address`; None: no page): empty when there is none, or
    when it listens on the table itself only (a loopback address is no address for the
    club's screen)."""
    if not address:
        return b""
    host = address.rsplit(":", 1)[0].strip("[]")
    try:
        if ipaddress.ip_address(host).is_loopback:
            return b""
    except ValueError:
        if host == "localhost":
            return b""
    return address.encode()
