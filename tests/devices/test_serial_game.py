"""A whole simulated game through the real serial path: every reader report of the virtual
table travels as a protocol 1 frame (made by the firmware's own code) across a real
pseudo-terminal into the host's SerialLink, and what comes out feeds the referee."""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest

from companion.devices.readers import LinkStatus, Observation, SpotContents
from companion.devices.serial_link import SerialLink
from companion.games.passpass.referee import PassPassReferee
from companion.games.passpass.sim import Noise, SimulatedGame, make_setup
from companion.journal import SpotInput
from tests.devices.conftest import FWP, FakePico, wait_for


@pytest.fixture
def link(pico: FakePico) -> Iterator[tuple[SerialLink, queue.Queue[Observation]]]:
    inbox: queue.Queue[Observation] = queue.Queue()
    sl = SerialLink(str(pico.path), hello_wait=0.15, sync_interval=0.1, read_timeout=0.02)
    sl.start(inbox)
    yield sl, inbox
    sl.stop()


def test_a_whole_game_through_the_pico_link_gives_the_same_game(pico, link):
    _, inbox = link
    setup = make_setup("ptipasspass", 3, seed=5)
    direct = SimulatedGame(setup, noise=Noise(flicker=0.3, duplicate=0.3)).run()
    readers = 10  # the pad and 9 hats
    pico.hello(readers=readers)
    wait_for(inbox, lambda o: isinstance(o, LinkStatus) and o.connected)
    pico.send(FWP.full([[] for _ in range(readers)]))  # the SYNC answer: all empty
    for reader in range(readers):
        wait_for(inbox, lambda o, r=reader: isinstance(o, SpotContents) and o.reader == r)

    referee = PassPassReferee(setup)
    known = {reader: frozenset[str]() for reader in range(readers)}
    for record in direct.inputs:
        if not isinstance(record, SpotInput):
            referee.feed(record)
            continue
        pico.send(FWP.state(record.spot, sorted(record.uids)))
        if record.uids == known[record.spot]:
            continue  # a repeated report: the link says nothing new
        seen = wait_for(
            inbox, lambda o, r=record.spot: isinstance(o, SpotContents) and o.reader == r
        )
        assert isinstance(seen, SpotContents) and seen.uids == record.uids
        known[record.spot] = seen.uids
        referee.feed(SpotInput(record.t, seen.reader, seen.uids))

    assert referee.finished
    assert referee.result() == direct.referee.result()
