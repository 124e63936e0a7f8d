"""A visit allocates nothing, even one that reads a change, on both cores of the emulated
RP2040 (issue 38): so a collection of the heap, which core 1 makes once its half is
scanned while core 0 still scans, never holds up one of core 0's visits, which would wait
for it to allocate.

``heap_script.py`` runs the firmware's own scan of the default wiring's 19 readers (core 0
SPI0, core 1 SPI1, MicroPython 1.28's ``_thread``) with each core's visits under
``micropython.heap_lock()`` (per thread on rp2: any allocation of that core raises), while
tags are dropped and lifted on readers of both buses, hats of three lie still on spots 1..5
(core 0's half then outlasts core 1's by more than a collection, as on the worst layouts,
so core 0 grants core 1 its safe point), and garbage left between cycles makes core 1
collect. Every change is read, by locked visits, while core 1 collected.
"""

from __future__ import annotations

from pathlib import Path

import pico_board
import pytest
from conftest import board_or_skip

pytestmark = pytest.mark.xdist_group("emulated-pico-heap")

SCRIPT = Path(__file__).with_name("heap_script.py")
FIRMWARE_MAIN = pico_board.FIRMWARE / "main.py"
WAIT = 900.0
EVERY_MS = 23  # a tag dropped or lifted this often (emulated), readers of both buses in turn
READERS = 19
HATS_ON_SPI0 = (1, 2, 3, 4, 5)
"""Hats of three on spots 1..5 (SPI0), never moved: core 0's half is then longer than core
1's by more than a collection, so core 0 grants core 1 a safe point to make it."""
MOVED = [r for r in range(READERS) if r not in HATS_ON_SPI0]


def test_visits_that_read_drops_and_lifts_allocate_nothing_on_either_core() -> None:
    board = board_or_skip(
        b"READY",
        spi1=pico_board.DEFAULT_SPI1,
        pty=False,
        extra={"fwmain.py": FIRMWARE_MAIN.read_text(), "main.py": SCRIPT.read_text()},
    )
    lying: dict[int, pico_board.chip.Tag] = {}
    moves: list[tuple[int, str, bool]] = []  # (reader, uid, dropped)
    try:
        with board.lock:
            for r in HATS_ON_SPI0:
                for k in range(3):
                    board.place(r, f"04C2{r:02X}{k:02X}C0FFEE")
        first = board.now_ns

        def move() -> None:
            k = len(moves)
            reader = MOVED[k * 5 % len(MOVED)]
            if reader in lying:
                tag = lying.pop(reader)
                board.remove(tag)
                moves.append((reader, tag.uid.hex().upper(), False))
            else:
                uid = f"04E1{k:04X}C0FF{reader:02X}"
                lying[reader] = board.place(reader, uid)
                moves.append((reader, uid, True))
            if board.now_ns < first + 1_200_000_000:
                board.at(board.now_ns + EVERY_MS * 1_000_000, move)

        board.at(first + 50_000_000, move)
        board.wait_for(lambda: b"END" in board.output or b"Error" in board.output, WAIT, "END")
        board.check()
    finally:
        board.close()
    text = board.output.decode(errors="replace")
    assert "Error" not in text, text[-3000:]
    results: dict[str, int] = {}
    reported: dict[int, list[set[str]]] = {}  # reader -> its sets, change after change
    for line in text.splitlines():
        words = line.split()
        if words[:1] == ["R"]:
            results[words[1]] = int(words[2])
        elif words[:1] == ["C"]:
            uids = set(words[2].split(",")) if len(words) > 2 else set()
            reported.setdefault(int(words[1]), []).append(uids)
    assert results["refused0"] == results["refused1"] == 0
    assert results["lost"] == 0  # core 1 never raised (nor stalled)
    assert results["visits0"] == results["visits1"] == results["cycles"]
    for r in HATS_ON_SPI0:  # read whole at once, then still
        assert reported.pop(r) == [{f"04C2{r:02X}{k:02X}C0FFEE" for k in range(3)}]
    expected: dict[int, list[tuple[str, bool]]] = {}
    for reader, uid, dropped in moves:
        expected.setdefault(reader, []).append((uid, dropped))
    for reader, wanted in expected.items():  # each drop, then its lift, read on its reader
        got = reported.get(reader, [])
        assert len(got) == len(wanted), (reader, got, wanted)
        assert [(uid, uid in uids) for (uid, _), uids in zip(wanted, got, strict=True)] == wanted
    assert reported.keys() <= expected.keys()
    buses = pico_board.board_pins(READERS, pico_board.DEFAULT_SPI1).buses
    dropped_on = [sum(1 for r, _, d in moves if d and buses[r] == bus) for bus in (0, 1)]
    assert min(dropped_on) >= 5, dropped_on
    assert results["changes0"] + results["changes1"] == len(moves) + len(HATS_ON_SPI0)
    assert results["collections"] >= 2  # core 1 collected while core 0 visited, locked
