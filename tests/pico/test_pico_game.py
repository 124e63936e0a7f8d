"""The real firmware on the RP2040's own MicroPython, in an emulator: its bus, a PtiPassPass
game, the link at full rate, the watchdog. One board for the module, in this order.

The board (pico_board.EmulatedPico) runs MicroPython v1.28.0 for the Raspberry Pi Pico and
firmware/ from its flash; its tags lie on MFRC522 models behind the chip selects of the
pin map (the last with no reader behind it: a fault the link must report), and its USB
CDC is a pseudo-terminal that the real ``companion`` serial link opens with pyserial.
Every token the simulated players move is placed on (or taken off) an emulated antenna;
the firmware must read it over SPI, debounce it and report it in a protocol 1 frame over
USB, and the link's observations feed the referee, which must reach the very game the
simulated players decided. Then every reader changes at once under a burst of PINGs, and
last the board is handed to the REPL and left there unfed, and its watchdog must restart
it (firmware/README.md, "The watchdog").
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator

import chip
import fwload
import harness
import pico_board
import pytest

from companion.devices import protocol
from companion.devices.readers import LinkStatus, Observation, ReaderFault, SpotContents
from companion.devices.serial_link import SerialLink
from companion.games.passpass.referee import PassPassReferee
from companion.games.passpass.sim import SimulatedGame, make_setup
from companion.journal import SpotInput

pytestmark = pytest.mark.xdist_group("emulated-pico")

PLAYERS = 2
SEED = 2
SPOTS = 6  # a two-player PtiPassPass table: the pad and six hats
FITTED = SPOTS + 1
BOARD = {"readers": FITTED + 1, "fitted": tuple(range(FITTED)), "keep_antennas": True}
"""The pin map's first eight chip selects, the last with no reader behind it."""
WAIT = 120.0
"""Wall seconds for one report: the emulator runs at about a tenth of real time, slower
on a loaded machine, and a removal waits out three scan cycles of debounce."""


@pytest.fixture(scope="module")
def link(
    booted: pico_board.EmulatedPico,
) -> Iterator[tuple[SerialLink, queue.Queue[Observation]]]:
    """The companion's link on the board's pseudo-terminal, connected: its first snapshot
    taken, the reader with no chip behind its chip select faulty. Silence and garbage
    timers are stretched: one emulated second, the heartbeat's period, takes about ten of
    wall time."""
    inbox: queue.Queue[Observation] = queue.Queue()
    sl = SerialLink(
        str(booted.path),
        hello_wait=0.5,
        sync_interval=2.0,
        silence_timeout=600.0,
        garbage_timeout=600.0,
        read_timeout=0.02,
        backoff=(0.1, 0.5),
    )
    sl.start(inbox)
    seen: set[int] = set()
    faults: list[int] = []
    deadline = time.monotonic() + WAIT
    while len(seen) < FITTED or not faults:
        obs = inbox.get(timeout=max(0.0, deadline - time.monotonic()))
        if isinstance(obs, SpotContents):
            seen.add(obs.reader)
        elif isinstance(obs, ReaderFault):
            faults.append(obs.reader)
    assert seen == set(range(FITTED)) and faults == [FITTED]
    yield sl, inbox
    sl.stop()


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


def test_the_emulated_bus_carries_what_the_fake_bus_carries(
    booted: pico_board.EmulatedPico,
) -> None:
    """The firmware drives the emulated board's SPI bus (rp2040js's SPI block, chip selects
    on its GPIOs, the chips answering through the bridge) as tests/firmware's fake one: a
    scan of the same empty table makes the same transactions, but for the polls of
    ComIrqReg (6 bytes each), whose number follows time. The fake bus charges nothing for
    the interpreter, so its first poll comes before the 300 µs timer has run out and a
    second one sees it; on the RP2040 the interpreter's own time makes the first poll the
    last: an empty reader is 8 transactions, not 9."""
    readers = FITTED

    def visits_of_reader_0() -> list[pico_board.Antenna]:
        return [a for a in booted.antennas if a.reader == 0 and a.on]

    booted.wait_for(lambda: len(visits_of_reader_0()) >= 4, WAIT, "four scan cycles")
    first, second = visits_of_reader_0()[2:4]
    emulated = (second.transactions - first.transactions, second.spi_bytes - first.spi_bytes)

    fw = fwload.load_firmware()
    rig = harness.Rig(fw.mfrc522, n=readers, init=False)
    scan = fw.scanner.Scanner(rig.readers)
    scan.start()
    scan.cycle()
    rig.reset_stats()
    scan.cycle()
    fake = rig.stats()
    polls = fake["transactions"] - emulated[0]
    assert fake["bytes"] - emulated[1] == 6 * polls
    assert (emulated[0], polls) == (8 * readers, readers)


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


def test_the_link_at_full_rate_loses_nothing(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
) -> None:
    """A token lands on every reader at once while the host sends a burst of PINGs: the
    firmware reports every reader in the same loop turn and answers every PING, through
    MicroPython's USB CDC stack and the real link, none lost, corrupt or out of order."""
    sl, inbox = link
    readers = FITTED
    before = sl.stats
    sl.replies.clear()
    with booted.lock:
        for reader in range(readers):
            booted.place(reader, f"04{reader:02X}C0FFEE{reader:02X}00")
    pings = 30
    for _ in range(pings):
        sl.send(protocol.ping())
    seen: set[int] = set()

    def landed(o: Observation) -> bool:
        if isinstance(o, SpotContents) and f"04{o.reader:02X}C0FFEE{o.reader:02X}00" in o.uids:
            seen.add(o.reader)
        return len(seen) == readers

    _wait(inbox, landed)
    booted.wait_for(
        lambda: sum(isinstance(r, protocol.Pong) for r in sl.replies) == pings, WAIT, "PONGs"
    )
    after = sl.stats
    assert (after.bad_crc, after.malformed, after.gaps) == (
        before.bad_crc,
        before.malformed,
        before.gaps,
    )
    assert not any(isinstance(r, protocol.Bad) for r in sl.replies)


SECOND = 1_000_000_000


def test_the_watchdog_restarts_the_board_only_once_nothing_feeds_it(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
) -> None:
    """After the framed REPL command a timer feeds the RP2040's watchdog: the board stays
    in the REPL well past the watchdog's 8 s. A soft reset into the raw REPL (mpremote
    without ``resume``) ends that timer; the board restarts about 8 s later and says HELLO
    again: the link loses the port, opens it again and reads that HELLO."""
    sl, _ = link
    start = len(booted.output)
    sl.send(protocol.repl())
    booted.wait_for(lambda: booted.sent_at(b"OK repl=1", start) is not None, WAIT, "OK repl=1")
    handed = booted.sent_at(b"OK repl=1", start)
    assert handed is not None
    booted.wait_for(lambda: booted.now_ns > handed + 10 * SECOND, WAIT, "10 s in the REPL")
    assert booted.restarts == []  # fed by the timer all along
    mark = len(booted.output)
    sl.send_raw(b"\r\x01")  # the raw REPL
    booted.wait_for(lambda: b"raw REPL" in booted.output[mark:], WAIT, "the raw REPL")
    sl.send_raw(b"\x04")  # its soft reset: main.py does not run, the timer is gone
    booted.wait_for(lambda: booted.sent_at(b"soft reboot", mark) is not None, WAIT, "reboot")
    reset = booted.sent_at(b"soft reboot", mark)
    assert reset is not None
    booted.wait_for(lambda: booted.restarts != [], WAIT, "the watchdog's restart")
    unfed = booted.restarts[0] - reset
    assert 7 * SECOND < unfed < 8.4 * SECOND  # fed at most a second before the reset
    after = len(booted.output)
    booted.wait_for(lambda: b"HELLO" in booted.output[after:], WAIT, "a HELLO after it")
    booted.wait_for(lambda: sl.hello is not None, WAIT, "the link's HELLO")
    assert sl.hello is not None and sl.hello.readers == BOARD["readers"]
    booted.check()
