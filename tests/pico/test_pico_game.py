"""The real firmware on the RP2040's own MicroPython, in an emulator: its bus, a PtiPassPass
game, the link at full rate, the watchdog. One board for the module, each test on a clear
table with a link of its own (``link``), so any runs alone or in any order.

The board (pico_board.EmulatedPico) runs MicroPython v1.28.0 for the Raspberry Pi Pico and
firmware/ from its flash; its tags lie on MFRC522 models behind the chip selects of the
pin map (the last with no reader behind it: a fault the link must report), and its USB
CDC is a pseudo-terminal that the real ``companion`` serial link opens with pyserial.
Every token the simulated players move is placed on (or taken off) an emulated antenna;
the firmware must read it over SPI, debounce it and report it in a protocol 1 frame over
USB, and the link's observations feed the referee, which must reach the very game the
simulated players decided. Every reader changes at once under a burst of PINGs, and the
board is handed to the REPL and left there unfed, and its watchdog must restart it
(firmware/README.md, "The watchdog").
"""

from __future__ import annotations

import queue
from collections.abc import Iterator

import fwload
import harness
import pico_board
import pytest
from conftest import (
    WAIT,
    clear_table,
    connect,
    every_reader_at_once,
    game_reaches_the_same_verdicts,
    watchdog_restarts_once_unfed,
)

from companion.devices.readers import Observation
from companion.devices.serial_link import SerialLink

pytestmark = pytest.mark.xdist_group("emulated-pico")

PLAYERS = 2
SEED = 2
SPOTS = 6  # a two-player PtiPassPass table: the pad and six hats
FITTED = SPOTS + 1
BOARD = {"readers": FITTED + 1, "fitted": tuple(range(FITTED)), "keep_antennas": True}
"""The pin map's first eight chip selects, the last with no reader behind it."""


@pytest.fixture
def table(booted: pico_board.EmulatedPico) -> pico_board.EmulatedPico:
    """The module's board with no tag on it, whatever the tests before left (tags, a
    restart by the watchdog)."""
    clear_table(booted)
    return booted


@pytest.fixture
def link(
    table: pico_board.EmulatedPico,
) -> Iterator[tuple[SerialLink, queue.Queue[Observation]]]:
    """The test's own link on a clear table, connected afresh (its first snapshot read);
    the reader with no chip behind its chip select faulty."""
    sl, inbox = connect(table, FITTED, faulty=(FITTED,))
    yield sl, inbox
    sl.stop()


def test_the_emulated_bus_carries_what_the_fake_bus_carries(
    table: pico_board.EmulatedPico,
) -> None:
    """The firmware drives the emulated board's SPI bus (rp2040js's SPI block, chip selects
    on its GPIOs, the chips answering through the bridge) as tests/firmware's fake one: a
    scan of the same empty table makes the same transactions, but for the polls of
    ComIrqReg (6 bytes each), whose number follows time. The fake bus charges nothing for
    the interpreter, so its first poll comes before the 300 µs timer has run out and a
    second one sees it; on the RP2040 the interpreter's own time makes the first poll the
    last: an empty reader is 8 transactions, not 9."""
    readers = FITTED
    booted = table
    with booted.lock:
        since = len(booted.antennas)  # the scans of this clear table only

    def visits_of_reader_0() -> list[pico_board.Antenna]:
        return [a for a in booted.antennas[since:] if a.reader == 0 and a.on]

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
    game_reaches_the_same_verdicts(booted, link, PLAYERS, SEED, 30)


def test_the_link_at_full_rate_loses_nothing(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
) -> None:
    """A token lands on every reader at once while the host sends a burst of PINGs: the
    firmware reports every reader in the same loop turn and answers every PING, through
    MicroPython's USB CDC stack and the real link, none lost, corrupt or out of order."""
    every_reader_at_once(booted, *link, FITTED)


def test_the_watchdog_restarts_the_board_only_once_nothing_feeds_it(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
) -> None:
    """After the framed REPL command a timer feeds the RP2040's watchdog: the board stays
    in the REPL well past the watchdog's 8 s. A soft reset into the raw REPL (mpremote
    without ``resume``) ends that timer; the board restarts about 8 s later and says HELLO
    again: the link loses the port, opens it again and reads that HELLO."""
    watchdog_restarts_once_unfed(booted, link[0], BOARD["readers"])
    booted.check()
