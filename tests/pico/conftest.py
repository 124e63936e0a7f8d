"""Fixtures of the emulated Pico's tests: one booted board for a whole module.

The board needs Node, the npm package rp2040js (``npm ci``) and littlefs-python; without
them its tests are skipped, except in CI (``COMPANION_CI``, set by .ci/run, which installs
them): there a skip would hide the only run of the firmware on the RP2040's MicroPython,
so they fail. Booting takes about ten seconds of wall time (MicroPython compiles
firmware/ at each power-up, 1.2 s of emulated time), so a module boots one board, its
tests form one xdist group (they run on one worker, which boots it once), and they are
put at the front of the run, so the other worker has the rest of the suite meanwhile.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pico_board  # noqa: E402


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).resolve().parent
    first = [item for item in items if here in Path(str(item.path)).parents]
    if first:
        rest = [item for item in items if here not in Path(str(item.path)).parents]
        items[:] = first + rest


def board_or_skip(ready: bytes = b"HELLO", **kw: object) -> pico_board.EmulatedPico:
    """A booted ``EmulatedPico`` (``ready`` sent: its HELLO, by default), or the skip (the
    failure, in CI) that says what is missing."""
    reason = pico_board.missing()
    if reason:
        if os.environ.get("COMPANION_CI"):
            pytest.fail(f"the emulated Pico cannot run: {reason}")
        pytest.skip(f"the emulated Pico cannot run: {reason}")
    board = pico_board.EmulatedPico(**kw)  # type: ignore[arg-type]
    try:
        board.wait_for(lambda: ready in board.output, 300, f"the board's {ready.decode()}")
    except BaseException:
        board.close()
        raise
    return board


@pytest.fixture(scope="module")
def booted(request: pytest.FixtureRequest) -> Iterator[pico_board.EmulatedPico]:
    """The module's board: ``BOARD`` of the test module gives its ``EmulatedPico`` keywords."""
    board = board_or_skip(**getattr(request.module, "BOARD", {}))
    yield board
    board.close()
