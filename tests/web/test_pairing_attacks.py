"""Attacks on pairing over a real socket, from many loopback addresses (the page sees
each as a device of its own; it trusts no header for that): guessers never lock a player
out, guessing stays as slow as docs/web.md says, and the table's memory of devices is
bounded. The figures asserted are the documented ones (3 free wrong codes a device, 12
turns at once then one every 10 s, 4,096 devices remembered), so moving a constant
fails here as well as in the docs. The pace runs on a clock moved by hand."""

from __future__ import annotations

import heapq
import math

import pytest

from companion.web.errors import Refused, said
from companion.web.pairing import CodeCard, Tries, client_of

from .guessing import Clock, address, guess, paced_table, wrong
from .table import Client, LiveTable

FREE = 3
"""Wrong codes in a row a device may send and still be heard at once."""
BURST, EVERY = 12, 10
"""Tries the table hears at once from devices past their free tries, then one every EVERY s."""
KEPT = 4096
"""Devices the table remembers."""
SHOW = 60
"""Seconds the pairing card shows; the game's screen then stays as long."""


@pytest.fixture
def paced(tmp_path):
    table, clock = paced_table(tmp_path)
    yield table, clock
    table.close()


def many_devices_bound(devices: int, seconds: float) -> int:
    """The codes `devices` devices together get read in `seconds` (docs/web.md)."""
    return FREE * min(devices, KEPT) + BURST + math.floor(seconds / EVERY)


def one_device_bound(seconds: float) -> int:
    """The codes one device gets read in `seconds` (over 1,022) (docs/web.md): 3 at once,
    9 more after waits of 2, 4, ... 512 s (the last at 1,022 s), then one every 10 minutes."""
    return FREE + 9 + math.floor((seconds - 1022) / 600)


def test_a_player_who_mistyped_once_pairs_at_once_while_twenty_addresses_guess(paced):
    """The issue's attack: 20 addresses guess as fast as the table lets them for 180 s;
    every 10 s a player sends a stale QR code (the code before the last pairing), then a
    mistyped one, then the real one: paired at once every time (before: 429 on 18 of 18)."""
    table, clock = paced
    guessers = [table.client(f"127.0.2.{i}") for i in range(1, 21)]
    player = table.client("127.0.0.2")
    start, read, stale = clock.now, 0, None
    for _ in range(18):
        for g in guessers:
            while (answer := guess(g, wrong(table))).status == 403:
                read += 1
            assert answer.status == 429
        if stale is not None:
            assert guess(player, stale, seat=1).json()["error"] == said("pair.used", "fr")
        assert guess(player, wrong(table), seat=1).json()["error"] == said("pair.wrong", "fr")
        stale = table.web.pairings.code
        assert player.pair(table, 1).status == 200
        clock.now += 10
    assert read <= many_devices_bound(20, clock.now - start)


def fill(table: LiveTable, devices: range) -> None:
    """Each device sends one wrong code (heard: the first of its free ones)."""
    for i in devices:
        assert guess(table.client(address(i)), wrong(table)).status == 403


def test_after_4096_addresses_were_wrong_once_a_player_pairs_at_once(paced):
    """The issue's second attack: once 4,096 addresses sent a wrong code each (the whole
    memory of the table), a device never seen pairs at once (before: 429), and so does
    one of them that only mistyped."""
    table, _ = paced
    fill(table, range(KEPT))
    assert table.client("127.0.0.2").pair(table, 1).status == 200
    assert table.client(address(0)).pair(table, 2).status == 200


def test_the_table_remembers_4096_devices_and_rations_those_it_does_not(paced):
    """Past 4,096 remembered devices, the one wrong the longest ago is forgotten, and a
    device the table does not remember waits its turn as one past its free tries: an
    attacker rotating through addresses gains nothing, and the memory stays bounded."""
    table, clock = paced
    oldest = table.client(address(0))
    assert guess(oldest, wrong(table)).status == 403
    for i in range(BURST):  # 12 devices past their free tries take the table's turns
        late = table.client(f"127.0.3.{i}")
        assert [guess(late, wrong(table)).status for _ in range(FREE)] == [403] * FREE
    fill(table, range(1, KEPT - 1 - BURST))  # 4,095 remembered
    assert guess(table.client(address(KEPT)), wrong(table)).status == 403  # the 4,096th
    newcomer = table.client(address(KEPT + 1))
    refused = guess(newcomer, table.web.pairings.code)  # right, but not read: no turn
    assert refused.status == 429 and refused.headers["Retry-After"] == str(EVERY)
    assert refused.json()["error"] == said("pair.table", "fr", seconds=EVERY)
    clock.now += EVERY
    assert guess(newcomer, wrong(table)).status == 403  # its turn; the oldest is forgotten
    assert guess(newcomer, wrong(table)).status == 429  # and it is one past its free tries
    forgotten = guess(oldest, wrong(table))  # wrong once: heard at once while remembered
    assert forgotten.status == 429
    assert forgotten.json()["error"] == said("pair.table", "fr", seconds=2 * EVERY)


def attack(table: LiveTable, clock: Clock, clients: list[Client], seconds: float) -> int:
    """Each client guesses again as soon as the table lets it (`Retry-After`), for
    `seconds` of the pace's clock: how many of their codes the table read."""
    start = clock.now
    due = [(start, i) for i in range(len(clients))]
    read = 0
    while (at_i := heapq.heappop(due))[0] < start + seconds:
        at, i = at_i
        clock.now = max(clock.now, at)
        answer = guess(clients[i], wrong(table))
        if answer.status == 403:
            read += 1
            heapq.heappush(due, (clock.now, i))
        else:
            assert answer.status == 429, answer.body
            heapq.heappush(due, (clock.now + int(answer.headers["Retry-After"]), i))
    return read


def test_one_device_gets_a_code_read_every_ten_minutes(paced):
    """3 at once, 9 more in its first 17 minutes, then 6 an hour: 28 in 3 hours."""
    table, clock = paced
    guesser = table.client("127.0.2.1")
    read = attack(table, clock, [guesser], 3 * 3600)
    assert read == one_device_bound(3 * 3600) == 28
    clock.now += 600
    assert guess(guesser, wrong(table)).status == 403
    assert guess(guesser, table.web.pairings.code).headers["Retry-After"] == "600"


def test_many_devices_get_a_code_read_every_ten_seconds_all_together(paced):
    """3 a device at once and 12 turns, then one every 10 s however many devices: 64
    devices (more than the 60 whose own 10 minutes' waits fill the table's turns) get
    what docs/web.md says in an hour, no more."""
    table, clock = paced
    clients = [table.client(f"127.0.2.{i}") for i in range(1, 65)]
    read = attack(table, clock, clients, 3600)
    assert many_devices_bound(64, 3600) - 1 <= read <= many_devices_bound(64, 3600)


def test_rotating_through_more_addresses_than_the_table_remembers_gains_nothing():
    """The pace itself (no socket): 10,000 addresses in turn, each guessing until refused,
    for a day; an address comes back once 9,999 others did, long forgotten. The codes
    read stay within the documented bound for 4,096 devices."""
    clock = Clock()
    tries = Tries(clock)
    start, read, i = clock.now, 0, 0
    while clock.now < start + 86400:
        client = address(i % 10_000)
        try:
            while True:
                tries.check(client)
                tries.failed(client)
                read += 1
        except Refused as refused:  # the next address, a second later
            assert refused.status == 429
            clock.now += 1
        i += 1
    bound = many_devices_bound(10_000, 86400)
    assert 0.95 * bound <= read <= bound  # a real attack: a few turns lapse while it rotates


def test_the_card_remembers_4096_devices_and_forgets_the_one_that_started_longest_ago():
    """The pairing card's memory of who started one (each device at most one card every
    5 minutes) is bounded as the tries' is: once 4,096 devices are remembered, the one
    that started a card the longest ago is forgotten, never the newest."""
    clock = Clock()
    card = CodeCard(clock)
    for i in range(KEPT + 1):
        assert card.ask(address(i)) == SHOW
        clock.now += 2 * SHOW  # the card shown, then the game's screen as long
    with pytest.raises(Refused) as newest:  # 2 minutes after its card: 3 more to wait
        card.ask(address(KEPT))
    assert newest.value.status == 429 and newest.value.retry_after == 5 * 60 - 2 * SHOW
    assert len(card._started) == KEPT  # bounded (the oldest, address 0, forgotten)


@pytest.mark.parametrize(
    ("address_", "client"),
    [
        ("192.168.1.20", "192.168.1.20"),
        ("::ffff:192.168.1.20", "192.168.1.20"),  # an IPv4 phone on a dual-stack socket
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:bbbb::7", "2001:db8:1:2::/64"),  # the same device's other address
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("not an address", "?"),
        (None, "?"),
    ],
)
def test_a_device_is_its_ipv4_address_or_its_ipv6_network(address_, client):
    """Who is slowed: an IPv6 device picks any address of its /64 network (one client),
    and an IPv4 phone seen through a dual-stack socket is its IPv4 address (the same
    client as when seen directly)."""
    assert client_of(address_) == client
