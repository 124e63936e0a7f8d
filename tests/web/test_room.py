"""A room of phones served (issue 41), over real sockets: phones each from its own
loopback address all get every change, live or, refused a stream, by polling the state as
the page does; one address asking for many streams stays bounded and gives way to them.
At a smaller scale than a club's 200 phones over 256 streams (bench/web_watchers.py):
32 phones over 24 streams, so that some of them poll."""

from __future__ import annotations

import time

from companion import games
from companion.web.gate import Limits

from .attackers import StreamHogs, addresses
from .room import Room
from .table import LiveTable

PHONES = 32
LIMITS = Limits(connections=96, streams=24)


def stable_version(table: LiveTable, quiet: float = 0.3) -> int:
    """The page's version once it has not moved for `quiet` seconds (a change may bump it
    more than once: the pairing, then the OLED's card)."""
    version = table.web.hub.version
    since = time.monotonic()
    while time.monotonic() - since < quiet:
        time.sleep(0.02)
        if table.web.hub.version != version:
            version, since = table.web.hub.version, time.monotonic()
    return version


def test_a_room_of_phones_each_from_its_own_address_gets_every_change(tmp_path):
    table = LiveTable(tmp_path, games.get("ptipasspass").simulated_setup(4, 3), limits=LIMITS)
    hog_cap = LIMITS.streams_per_client
    try:
        with StreamHogs(table.host, table.port, ["127.0.0.250"], 20) as hog:
            deadline = time.monotonic() + 10
            while hog.streaming() < hog_cap and time.monotonic() < deadline:
                time.sleep(0.05)
            assert hog.streaming() == hog_cap  # 20 asked from one address: 8 given
            room = Room(table.host, table.port, addresses(PHONES), poll_seconds=0.2)
            try:
                changes = [stable_version(table)]
                room.wait_for(changes[0])
                streaming, polling = room.counts()
                assert streaming + polling == PHONES
                assert polling == PHONES - (LIMITS.streams - 1)  # the hog kept one stream
                assert hog.streaming() == 1  # it gave way to the phones, one at a time
                phones = []
                for seat in range(4):  # each pairing changes every page's open seats
                    phone = table.client()
                    assert phone.pair(table, seat).status == 200
                    phones.append(phone)
                    changes.append(stable_version(table))
                    room.wait_for(changes[-1])
                for phone in phones:
                    assert phone.post("/api/unpair").status == 200
                    changes.append(stable_version(table))
                    room.wait_for(changes[-1])
                assert len(set(changes)) == 9
                assert room.missed(changes) == {}
                assert all(p.latest["pairing"]["open_seats"] == [0, 1, 2, 3] for p in room.phones)
                # Live phones were sent deltas after their first state: none missed one,
                # and each made the very state a page asking now is sent.
                assert room.gaps() == 0
                now = table.client().get("/api/state").json()
                assert all(p.latest == now for p in room.phones)
                assert hog.streaming() <= 1
            finally:
                room.close()
    finally:
        table.close()


def test_the_room_fits_under_systemds_limit_of_open_files_and_shrinks_with_a_lower_one():
    """systemd gives the service 1,024 open files: the page keeps its 256 live streams (a
    room of 200 phones all live) and 384 connections; with 512 both shrink, the streams
    leaving a third of the connections to requests."""
    assert Limits().within(1024) == Limits()
    lower = Limits().within(512)
    assert (lower.connections, lower.streams) == (128, 85)
