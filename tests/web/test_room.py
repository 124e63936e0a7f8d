"""A room of phones served (issue 41), over real sockets: phones each from its own
loopback address all get every change, live or, refused a stream, by polling the state as
the page does; one address asking for many streams stays bounded and gives way to them.
At a smaller scale than a club's 200 phones over 256 streams (bench/web_watchers.py):
32 phones over 24 streams, so that some of them poll."""

from __future__ import annotations

import dataclasses
import re
import socket
import time
from typing import Any

from companion import games
from companion.run.items import Scripted
from companion.web.gate import Limits
from companion.web.server import STREAM_BUFFER

from .attackers import StreamHogs, addresses
from .room import Room
from .table import LiveTable

PHONES = 32
LIMITS = Limits(connections=96, streams=24)


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
                changes = [table.stable_version()]
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
                    changes.append(table.stable_version())
                    room.wait_for(changes[-1])
                for phone in phones:
                    assert phone.post("/api/unpair").status == 200
                    changes.append(table.stable_version())
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


def test_a_phone_that_stops_reading_holds_no_more_than_its_bound_and_catches_up_whole(
    tmp_path,
):
    """The hub writes each change to the streams itself: a phone that takes nothing (its
    connection's buffers kept small, so they fill soon) is no longer written to once its
    connection holds `STREAM_BUFFER` unsent, while the room still gets every change; when
    it reads again it catches up, whole (it fell behind the changes kept), then by deltas."""
    game = games.get("vnp")
    setup = game.simulated_setup(2, 1)
    setup = dataclasses.replace(setup, rules={**(setup.rules or {}), "size": 13})
    inputs = list(game.simulate(setup).inputs)
    table = LiveTable(tmp_path, setup, script_clock=True)
    hub = table.web.hub
    slow = socket.socket()
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    slow.bind(("127.0.0.9", 0))
    try:
        slow.connect((table.host, table.port))
        slow.sendall(f"GET /api/live HTTP/1.1\r\nHost: {table.host}:{table.port}\r\n\r\n".encode())
        room = Room(table.host, table.port, addresses(4))
        try:
            deadline = time.monotonic() + 10
            followers: list[Any] = []
            while len(followers) < 5 and time.monotonic() < deadline:
                time.sleep(0.05)
                followers = table.in_page_loop(lambda: list(hub._followers))
            (transport,) = [
                f.transport for f in followers
                if f.transport.get_extra_info("peername") and
                f.transport.get_extra_info("peername")[0] == "127.0.0.9"
            ]  # fmt: skip
            transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            held, changes = [], []
            while inputs and len(changes) < 100:
                shown = hub.snapshot
                while inputs and hub.snapshot is shown:
                    table.put(Scripted(inputs.pop(0)))
                    table.settle()
                changes.append(table.stable_version())
                room.wait_for(changes[-1])
                held.append(table.in_page_loop(transport.get_write_buffer_size))
            assert room.missed(changes) == {} and room.gaps() == 0
            # It filled: the hub stopped at its bound (plus the one write that crossed it).
            assert max(held) > STREAM_BUFFER
            assert max(held) < STREAM_BUFFER + 16_384
            assert held[-1] == held[-20]  # nothing more written for many changes
            # It reads again: the whole state, then a delta a change, the room's state.
            slow.settimeout(10)
            got, events = bytearray(), []
            last = room.phones[0]
            while not events or events[-1] != changes[-1]:
                got += slow.recv(1 << 16)
                events = [int(v) for v in re.findall(rb'"version":(\d+)', got)]
            kinds = re.findall(rb"event: (\w+)", got)
            assert b"state" in kinds[1:]  # caught up whole, after the deltas it had
            assert last.versions[-1] == changes[-1]
        finally:
            room.close()
    finally:
        slow.close()
        table.close()
