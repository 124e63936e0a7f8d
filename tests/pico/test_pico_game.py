"""A PtiPassPass game on the real firmware, on the RP2040's own MicroPython, in an emulator.

The board (pico_board.EmulatedPico) runs MicroPython v1.28.0 for the Raspberry Pi Pico and
firmware/ from its flash; its tags lie on MFRC522 models behind the chip selects of the
pin map, and its USB CDC is a pseudo-terminal that the real ``companion`` serial link
opens with pyserial. Every token the simulated players move is placed on (or taken off)
an emulated antenna; the firmware must read it over SPI, debounce it and report it in a
protocol 1 frame over USB, and the link's observations feed the referee, which must reach
the very game the simulated players decided.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator

import chip
import pico_board
import pytest

from companion.devices.readers import LinkStatus, Observation, ReaderFault, SpotContents
from companion.devices.serial_link import SerialLink
from companion.games.passpass.referee import PassPassReferee
from companion.games.passpass.sim import SimulatedGame, make_setup
from companion.journal import SpotInput

pytestmark = pytest.mark.xdist_group("emulated-pico")

PLAYERS = 2
SEED = 2
SPOTS = 6  # a two-player PtiPassPass table: the pad and six hats
BOARD = {"readers": SPOTS + 1}
WAIT = 120.0
"""Wall seconds for one report: the emulator runs at about a tenth of real time, slower
on a loaded machine, and a removal waits out three scan cycles of debounce."""


@pytest.fixture(scope="module")
def link(
    booted: pico_board.EmulatedPico,
) -> Iterator[tuple[SerialLink, queue.Queue[Observation]]]:
    """The companion's link on the board's pseudo-terminal, connected (its first snapshot
    taken). Silence and garbage timers are stretched: one emulated second, the
    heartbeat's period, takes about ten of wall time."""
    inbox: queue.Queue[Observation] = queue.Queue()
    sl = SerialLink(
        str(booted.path),
        hello_wait=0.5,
        sync_interval=2.0,
        silence_timeout=600.0,
        garbage_timeout=600.0,
        read_timeout=0.02,
    )
    sl.start(inbox)
    readers = BOARD["readers"]
    seen: set[int] = set()
    _wait(inbox, lambda o: isinstance(o, SpotContents) and _add(seen, o.reader, readers))
    yield sl, inbox
    sl.stop()


def _add(seen: set[int], reader: int, readers: int) -> bool:
    seen.add(reader)
    return len(seen) == readers


def _wait(inbox: queue.Queue[Observation], match: Callable[[Observation], bool]) -> Observation:
    deadline = time.monotonic() + WAIT
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no matching observation in {WAIT} s")
        try:
            obs = inbox.get(timeout=left)
        except queue.Empty:
            continue
        assert not isinstance(obs, ReaderFault), obs
        assert not (isinstance(obs, LinkStatus) and not obs.connected), obs
        if match(obs):
            return obs


def test_a_ptipasspass_game_played_on_emulated_antennas_reaches_the_same_verdicts(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
) -> None:
    sl, inbox = link
    setup = make_setup("ptipasspass", PLAYERS, seed=SEED)
    direct = SimulatedGame(setup).run()
    referee = PassPassReferee(setup)
    on_board: dict[int, dict[str, chip.Tag]] = {s: {} for s in range(SPOTS + 1)}
    moves = 0
    for record in direct.inputs:
        if not isinstance(record, SpotInput):
            referee.feed(record)  # the console's buttons are the Pi's, not the Pico's
            continue
        held = on_board[record.spot]
        if set(held) == record.uids:
            continue  # a repeated report: nothing moves on the table
        with booted.lock:  # the hand moves its tokens at one instant of emulated time
            for uid in set(held) - record.uids:
                booted.remove(held.pop(uid))
            for uid in record.uids - set(held):
                held[uid] = booted.place(record.spot, uid)
        moves += 1
        seen = _wait(
            inbox,
            lambda o, r=record: (
                isinstance(o, SpotContents) and o.reader == r.spot and o.uids == r.uids
            ),
        )
        assert isinstance(seen, SpotContents)
        referee.feed(SpotInput(record.t, seen.reader, seen.uids))

    assert moves >= 30
    assert referee.finished
    assert [e.to_json() for e in referee.log] == [e.to_json() for e in direct.decided]
    assert referee.result() == direct.referee.result()
    stats = sl.stats
    assert (stats.bad_crc, stats.malformed, stats.gaps, stats.disconnects) == (0, 0, 0, 0)
    assert booted.restarts == [] and booted.dropped == 0
    booted.check()
