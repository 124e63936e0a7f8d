"""SpiReaders and FastMFRC522: the REAL ``mfrc522`` package against emulated chips.

Only ``spidev`` and ``RPi.GPIO`` are faked (tests/devices/fakepi.py); the ``mfrc522``
package itself runs unchanged on top of them.
"""

from __future__ import annotations

import contextlib
import importlib.util
import queue
import sys
import time
from typing import Any

import pytest

from companion.devices import spi_readers as sr
from companion.devices.readers import LinkStatus, Observation, ReaderFault, SpotContents
from tests.devices import fakepi

NTAG = "04A1B2C3D4E5F6"  # 7-byte UID
MIFARE = "8A2C11F0"  # 4-byte UID
LONG = "04A1B2C3D4E5F6A1B2C3"  # 10-byte UID
RST = 25


@pytest.fixture
def board(monkeypatch: pytest.MonkeyPatch) -> fakepi.Board:
    # The dev extra installs the real mfrc522 package: its absence is a failure, not a skip.
    assert importlib.util.find_spec("mfrc522") is not None, "pip install -e '.[dev]'"
    b = fakepi.Board([(0, 0), (0, 1)], rst=RST, absent=((0, 1),))
    fakepi.install(monkeypatch, b)
    return b


def make_driver(board: fakepi.Board, spot: tuple[int, int] = (0, 0)) -> Any:
    cls = sr.driver_class()
    return cls(*spot, pin_rst=RST, sleep=board.sleep, clock=board.now)


def test_the_driver_is_the_real_package_subclassed(board: fakepi.Board) -> None:
    import mfrc522

    driver = make_driver(board)
    assert isinstance(driver, mfrc522.MFRC522)
    assert driver.present and driver.version == 0x92
    assert board.levels[RST] == 1 and board.mode == fakepi.BCM


def test_upstream_wait_loop_costs_2000_transfers_on_an_empty_field(board: fakepi.Board) -> None:
    import mfrc522

    upstream = mfrc522.MFRC522(bus=0, device=0, pin_rst=RST, pin_mode=fakepi.BCM)
    board.transfers.clear()
    status, _ = upstream.MFRC522_Request(upstream.PICC_REQIDL)
    upstream_cost = board.total_transfers()
    assert status == upstream.MI_ERR
    assert upstream_cost > 2000  # 2,000 polls of ComIrqReg, TimerIRq never looked at

    ours = make_driver(board)
    ours.antenna(True)
    board.transfers.clear()
    start = board.clock.ns
    assert ours.request(wake=True) == sr.Status.TIMEOUT
    our_cost = board.total_transfers()
    assert our_cost < 30
    assert (board.clock.ns - start) / 1e6 < 2.0  # about the 1 ms timer
    print(f"empty field: upstream {upstream_cost} SPI transfers, ours {our_cost}")


def test_enumerates_a_7_byte_and_a_4_byte_tag_in_one_field(board: fakepi.Board) -> None:
    driver = make_driver(board)
    board.place((0, 0), NTAG)
    board.place((0, 0), MIFARE)
    driver.antenna(True)
    board.sleep(0.0005)
    status, uids = driver.read_all()
    assert status == sr.Status.OK
    assert sorted(map(sr.uid_hex, uids)) == sorted([NTAG, MIFARE])


def test_enumerates_tags_that_collide_deep_in_the_uid(board: fakepi.Board) -> None:
    driver = make_driver(board)
    for uid in (NTAG, NTAG[:-1] + "7", LONG, "8A2C11F1"):
        board.place((0, 0), uid)
    driver.antenna(True)
    board.sleep(0.0005)
    status, uids = driver.read_all()
    assert status == sr.Status.OK
    assert sorted(map(sr.uid_hex, uids)) == sorted([NTAG, NTAG[:-1] + "7", LONG, "8A2C11F1"])


def test_absent_reader_is_not_present(board: fakepi.Board) -> None:
    driver = make_driver(board, (0, 1))
    assert not driver.present


def test_close_leaves_other_pins_alone(board: fakepi.Board) -> None:
    driver = make_driver(board)
    driver.close()
    assert board.cleanups == []  # upstream's Close_MFRC522 would GPIO.cleanup() everything


def test_debouncer() -> None:
    d = sr.Debouncer(misses=3)
    assert d.fold([NTAG]) and d.stable == {NTAG}
    assert not d.fold([]) and not d.fold([])
    assert not d.fold([NTAG])  # came back: the misses start over
    assert not d.fold([]) and not d.fold([], complete=False) and not d.fold([])
    assert d.fold([]) and d.stable == set()


class ListSink:
    def __init__(self) -> None:
        self.items: list[Observation] = []

    def put_nowait(self, item: Observation, /) -> None:
        self.items.append(item)


def test_spi_readers_cycle_reports_changes_with_removal_debounce(board: fakepi.Board) -> None:
    readers = sr.SpiReaders(
        [(0, 0), (0, 1)],
        pin_rst=RST,
        debounce=3,
        driver_options={"sleep": board.sleep, "clock": board.now},
    )
    sink = ListSink()
    readers.open(sink)  # no thread: cycle() is driven by hand, on emulated time
    assert sink.items[:2] == [
        LinkStatus(True, "spi", readers=2, reason="SPI"),
        ReaderFault(1, "absent"),
    ]
    sink.items.clear()
    readers.cycle()
    assert sink.items == [SpotContents(0, frozenset())]  # first cycle: the initial state
    tag = board.place((0, 0), NTAG)
    board.place((0, 0), MIFARE)
    readers.cycle()
    assert sink.items[-1] == SpotContents(0, frozenset({NTAG, MIFARE}))
    board.remove(tag)
    count = len(sink.items)
    readers.cycle()
    readers.cycle()
    assert len(sink.items) == count  # two misses: still there
    readers.cycle()
    assert sink.items[-1] == SpotContents(0, frozenset({MIFARE}))
    readers.stop()


def test_spi_readers_thread_start_stop(board: fakepi.Board) -> None:
    board.place((0, 0), MIFARE)
    readers = sr.SpiReaders(
        [(0, 0)],
        pin_rst=RST,
        interval=0.001,
        driver_options={"sleep": board.sleep, "clock": board.now},
    )
    inbox: queue.Queue[Observation] = queue.Queue()
    readers.start(inbox)
    try:
        deadline = time.monotonic() + 2
        got: list[Observation] = []
        while SpotContents(0, frozenset({MIFARE})) not in got and time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                got.append(inbox.get(timeout=0.1))
        assert SpotContents(0, frozenset({MIFARE})) in got
    finally:
        readers.stop()
    assert readers.drivers == []


def test_a_clear_error_off_a_pi(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mfrc522", None)  # as when the import fails
    readers = sr.SpiReaders([(0, 0)], pin_rst=RST)
    with pytest.raises(RuntimeError, match="pi' extra"):
        readers.start(ListSink())
