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
import queue
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pico_board  # noqa: E402
from pico_board import chip  # noqa: E402  (tests/firmware's, on the path pico_board sets)

from companion.devices import protocol  # noqa: E402
from companion.devices.readers import (  # noqa: E402
    LinkStatus,
    Observation,
    ReaderFault,
    SpotContents,
)
from companion.devices.serial_link import SerialLink  # noqa: E402
from companion.games.passpass.referee import PassPassReferee  # noqa: E402
from companion.games.passpass.sim import SimulatedGame, make_setup  # noqa: E402
from companion.journal import SpotInput  # noqa: E402

WAIT = 120.0
"""Wall seconds for one report: the emulator runs at a tenth to a twentieth of real time,
slower on a loaded machine, and a removal waits out three scan cycles of debounce."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).resolve().parent
    first = [item for item in items if here in Path(str(item.path)).parents]
    if first:
        rest = [item for item in items if here not in Path(str(item.path)).parents]
        items[:] = first + rest


def need_emulator() -> None:
    """Skip (fail, in CI) a test that needs the emulated Pico where it cannot run."""
    reason = pico_board.missing()
    if reason:
        if os.environ.get("COMPANION_CI"):
            pytest.fail(f"the emulated Pico cannot run: {reason}")
        pytest.skip(f"the emulated Pico cannot run: {reason}")


def board_or_skip(ready: bytes = b"HELLO", **kw: object) -> pico_board.EmulatedPico:
    """A booted ``EmulatedPico`` (``ready`` sent: its HELLO, by default), or the skip (the
    failure, in CI) that says what is missing."""
    need_emulator()
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


def stretched_link(path: str) -> SerialLink:
    """The companion's link on an emulated board's pseudo-terminal, its silence and
    garbage timers stretched: one emulated second, the heartbeat's period, takes ten to
    twenty of wall time."""
    return SerialLink(
        path,
        hello_wait=0.5,
        sync_interval=2.0,
        silence_timeout=600.0,
        garbage_timeout=600.0,
        read_timeout=0.02,
        backoff=(0.1, 0.5),
    )


CLEARED_NS = 300_000_000
"""Emulated time for the board to read every tag gone: a debounce of three cycles, twice."""


def clear_table(booted: pico_board.EmulatedPico) -> None:
    """Every tag taken off the board's antennas and, once the board has had the time to
    read them gone, a table a test can start from whatever the module's earlier tests
    left (tags, a board restarted by its watchdog)."""
    with booted.lock:
        for tag in list(booted.table.tags):
            booted.remove(tag)
        cleared = booted.now_ns + CLEARED_NS
    booted.wait_for(lambda: booted.now_ns > cleared, WAIT, "the tags read gone")


def connect(
    booted: pico_board.EmulatedPico, fitted: int, faulty: tuple[int, ...] = ()
) -> tuple[SerialLink, queue.Queue[Observation]]:
    """The companion's link on the board's pseudo-terminal (``stretched_link``), connected:
    its first snapshot taken (readers ``0..fitted-1`` read, ``faulty`` reported faulty)."""
    inbox: queue.Queue[Observation] = queue.Queue()
    link = stretched_link(str(booted.path))
    link.start(inbox)
    seen: set[int] = set()
    faults: list[int] = []
    deadline = time.monotonic() + WAIT
    while len(seen) < fitted or len(faults) < len(faulty):
        obs = inbox.get(timeout=max(0.0, deadline - time.monotonic()))
        if isinstance(obs, SpotContents):
            seen.add(obs.reader)
        elif isinstance(obs, ReaderFault):
            faults.append(obs.reader)
    assert seen == set(range(fitted)) and tuple(faults) == faulty
    return link, inbox


def wait_for_observation(
    inbox: queue.Queue[Observation], match: Callable[[Observation], bool], faults: bool = False
) -> Observation:
    """The first observation ``match`` accepts; a reader fault or a lost link on the way
    fails the test (unless ``faults``: a reader fault is then an observation too)."""
    deadline = time.monotonic() + WAIT
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no matching observation in {WAIT} s")
        try:
            obs = inbox.get(timeout=left)
        except queue.Empty:
            continue
        assert faults or not isinstance(obs, ReaderFault), obs
        assert not (isinstance(obs, LinkStatus) and not obs.connected), obs
        if match(obs):
            return obs


def play_ptipasspass(
    booted: pico_board.EmulatedPico,
    inbox: queue.Queue[Observation],
    players: int,
    seed: int,
) -> tuple[PassPassReferee, SimulatedGame, int]:
    """A PtiPassPass game the simulated players decide, played again on the board's
    antennas: each token they move is placed on (or taken off) its spot's reader, and
    what the link reports of it is fed to a referee. The referee, the simulated game and
    the number of moves on the table."""
    setup = make_setup("ptipasspass", players, seed=seed)
    direct = SimulatedGame(setup).run()
    referee = PassPassReferee(setup)
    on_board: dict[int, dict[str, chip.Tag]] = {}
    moves = 0
    for record in direct.inputs:
        if not isinstance(record, SpotInput):
            referee.feed(record)  # the console's buttons are the Pi's, not the Pico's
            continue
        held = on_board.setdefault(record.spot, {})
        if set(held) == record.uids:
            continue  # a repeated report: nothing moves on the table
        with booted.lock:  # the hand moves its tokens at one instant of emulated time
            for uid in set(held) - record.uids:
                booted.remove(held.pop(uid))
            for uid in record.uids - set(held):
                held[uid] = booted.place(record.spot, uid)
        moves += 1
        seen = wait_for_observation(
            inbox,
            lambda o, r=record: (
                isinstance(o, SpotContents) and o.reader == r.spot and o.uids == r.uids
            ),
        )
        assert isinstance(seen, SpotContents)
        referee.feed(SpotInput(record.t, seen.reader, seen.uids))
    return referee, direct, moves


def every_reader_at_once(
    booted: pico_board.EmulatedPico,
    sl: SerialLink,
    inbox: queue.Queue[Observation],
    readers: int,
) -> None:
    """A token lands on each of ``readers`` at once while the host sends a burst of
    PINGs: the firmware must report every reader and answer every PING, through
    MicroPython's USB CDC stack and the real link, none lost, corrupt or out of order."""
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

    wait_for_observation(inbox, landed)
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


def watchdog_restarts_once_unfed(
    booted: pico_board.EmulatedPico, sl: SerialLink, readers: int
) -> int:
    """After the framed REPL command a timer feeds the RP2040's watchdog: the board must
    stay in the REPL well past the watchdog's 8 s. A soft reset into the raw REPL
    (mpremote without ``resume``) ends that timer; the board must restart about 8 s later
    and say HELLO again (``readers``), and the link must lose the port, open it again and
    read that HELLO. The output's length at the restart."""
    start = len(booted.output)
    restarts = len(booted.restarts)  # (the board's earlier ones, if any)
    sl.send(protocol.repl())
    booted.wait_for(lambda: booted.sent_at(b"OK repl=1", start) is not None, WAIT, "OK repl=1")
    handed = booted.sent_at(b"OK repl=1", start)
    assert handed is not None
    booted.wait_for(lambda: booted.now_ns > handed + 10 * SECOND, WAIT, "10 s in the REPL")
    assert len(booted.restarts) == restarts  # fed by the timer all along
    mark = len(booted.output)
    sl.send_raw(b"\r\x01")  # the raw REPL
    booted.wait_for(lambda: b"raw REPL" in booted.output[mark:], WAIT, "the raw REPL")
    sl.send_raw(b"\x04")  # its soft reset: main.py does not run, the timer is gone
    booted.wait_for(lambda: booted.sent_at(b"soft reboot", mark) is not None, WAIT, "reboot")
    reset = booted.sent_at(b"soft reboot", mark)
    assert reset is not None
    booted.wait_for(lambda: len(booted.restarts) > restarts, WAIT, "the watchdog's restart")
    unfed = booted.restarts[restarts] - reset
    assert 7 * SECOND < unfed < 8.4 * SECOND  # fed at most a second before the reset
    after = len(booted.output)
    booted.wait_for(lambda: b"HELLO" in booted.output[after:], WAIT, "a HELLO after it")
    booted.wait_for(lambda: sl.hello is not None, WAIT, "the link's HELLO")
    assert sl.hello is not None and sl.hello.readers == readers
    return after


def game_reaches_the_same_verdicts(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
    players: int,
    seed: int,
    least_moves: int,
) -> None:
    """``play_ptipasspass`` on the board: the referee fed from the link must reach the very
    game the simulated players decided, over a link that lost or garbled nothing."""
    sl, inbox = link
    restarts, dropped = len(booted.restarts), booted.dropped
    referee, direct, moves = play_ptipasspass(booted, inbox, players, seed)
    assert moves >= least_moves
    assert referee.finished
    assert [e.to_json() for e in referee.log] == [e.to_json() for e in direct.decided]
    assert referee.result() == direct.referee.result()
    stats = sl.stats
    assert (stats.bad_crc, stats.malformed, stats.gaps, stats.disconnects) == (0, 0, 0, 0)
    assert (len(booted.restarts), booted.dropped) == (restarts, dropped)
    booted.check()
