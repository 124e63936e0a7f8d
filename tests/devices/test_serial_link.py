"""SerialLink across a real pseudo-terminal, against frames made by firmware/protocol.py."""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Iterator

import pytest

from companion.devices.readers import (
    ButtonEvent,
    LinkStatus,
    Observation,
    ReaderFault,
    ReaderOk,
    SpotContents,
)
from companion.devices.serial_link import SerialLink, find_pico
from tests.devices.conftest import FWP, FakePico, drain, wait_for

NTAG = "04A1B2C3D4E5F6"
MIFARE = "8A2C11F0"


def spot(reader: int, *uids: str) -> SpotContents:
    return SpotContents(reader, frozenset(uids))


def connected(obs: Observation) -> bool:
    return isinstance(obs, LinkStatus) and obs.connected


def disconnected(obs: Observation) -> bool:
    return isinstance(obs, LinkStatus) and not obs.connected


@pytest.fixture
def inbox() -> queue.Queue[Observation]:
    return queue.Queue()


@pytest.fixture
def link(pico: FakePico, inbox: queue.Queue[Observation]) -> Iterator[SerialLink]:
    sl = SerialLink(
        str(pico.path),
        hello_wait=0.15,
        silence_timeout=1.0,
        sync_interval=0.1,
        backoff=(0.02, 0.1),
        read_timeout=0.02,
    )
    sl.start(inbox)
    yield sl
    started = time.monotonic()
    sl.stop()
    assert time.monotonic() - started < 1.0  # close() joins promptly


def test_hello_handshake_then_observations(
    pico: FakePico, link: SerialLink, inbox: queue.Queue[Observation]
) -> None:
    pico.hello(readers=3)
    status = wait_for(inbox, connected)
    assert status == LinkStatus(True, str(pico.path), "0.1.0", 3, 1, "HELLO")
    pico.wait_command("SYNC")  # asks for the first snapshot at once
    pico.send(FWP.full([[], [MIFARE], None]))
    pico.send(FWP.state(0, [NTAG]))
    pico.send(FWP.fault(2, "ok"))
    pico.send(FWP.state(2, []))
    pico.send(FWP.button("reset", True))
    pico.send(FWP.full([[NTAG], [MIFARE], []]))  # unchanged: emits nothing
    got = drain(inbox)
    assert got == [
        spot(0),
        spot(1, MIFARE),
        ReaderFault(2, "unknown"),
        spot(0, NTAG),
        ReaderOk(2),
        spot(2),
        ButtonEvent("reset", True),
    ]
    assert link.stats.gaps == 0 and link.stats.bad_crc == 0


def test_a_tag_across_two_readers_is_a_fault_naming_the_other_even_after_a_snapshot(
    pico: FakePico, link: SerialLink, inbox: queue.Queue[Observation]
) -> None:
    """The firmware's ``E r shared_n``: a fault whose ``across`` is the other reader; a
    snapshot's ``?`` seen first (the link connected while the tag lay across) does not
    hide it, and a repeated one is not reported twice."""
    pico.hello(readers=3)
    wait_for(inbox, connected)
    pico.wait_command("SYNC")
    pico.send(FWP.full([[], None, None]))  # the snapshot came before the E frames
    pico.send(FWP.fault(1, "shared_2"))
    pico.send(FWP.fault(2, "shared_1"))
    pico.send(FWP.fault(2, "shared_1"))
    pico.send(FWP.fault(1, "ok"))
    pico.send(FWP.state(1, [NTAG]))
    got = drain(inbox)
    assert got == [
        spot(0),
        ReaderFault(1, "unknown"),
        ReaderFault(2, "unknown"),
        ReaderFault(1, "shared_2"),
        ReaderFault(2, "shared_1"),
        ReaderOk(1),
        spot(1, NTAG),
    ]
    assert [o.across for o in got if isinstance(o, ReaderFault)] == [None, None, 2, 1]


def test_settings_are_sent_at_each_connection_since_a_reset_forgets_them(
    pico: FakePico, inbox: queue.Queue[Observation], caplog: pytest.LogCaptureFixture
) -> None:
    settings = {"settle_us": 200}
    link = SerialLink(str(pico.path), hello_wait=0.15, read_timeout=0.02, settings=settings)
    link.start(inbox)
    try:
        pico.hello(readers=3)
        pico.wait_command("CONF", count=2)  # the S frames' age, then the settings
        assert [c for c in pico.commands() if c[0] == "CONF"] == [
            ("CONF", "age", "1"),
            ("CONF", "settle_us", "200"),
        ]
        pico.send(FWP.bad("conf settle_us"))
        pico.seq = 0
        pico.send(FWP.hello("0.1.0", 3))  # the Pico reset: back to its defaults
        pico.wait_command("CONF", count=4)
    finally:
        link.stop()
    assert link.stats.rejected_by_pico == 1
    assert "the Pico refused the setting settle_us" in caplog.text


def test_a_change_carries_its_age_and_an_old_firmware_s_frames_still_count(
    pico: FakePico,
    link: SerialLink,
    inbox: queue.Queue[Observation],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``S`` frames with ``age=`` (ms since the reading) become SpotContents aged in
    seconds; a firmware that refuses ``CONF age`` and sends bare ``S`` frames still moves
    the table (age 0); an age that is not a number or is absurd never stops the change:
    ignored or clamped, and logged."""
    pico.hello(readers=4)
    wait_for(inbox, connected)
    pico.wait_command("CONF")
    assert ("CONF", "age", "1") in pico.commands()
    pico.send(FWP.bad("conf age"))  # an older firmware: no age ever
    pico.send(FWP.full([[], [], [], []]))
    pico.send(FWP.state(0, [NTAG]))  # bare, as before ages
    pico.send(FWP.state(1, [NTAG], 31))
    pico.send(FWP.state(2, [MIFARE], 999_999_999))  # absurd: clamped
    pico.send(f"S 3 {MIFARE} age=3x")  # garbled but framed: the change counts
    got = [o for o in drain(inbox) if isinstance(o, SpotContents) and o.uids]
    assert got == [
        spot(0, NTAG),
        SpotContents(1, frozenset([NTAG]), 0.031),
        SpotContents(2, frozenset([MIFARE]), 0.25),
        spot(3, MIFARE),
    ]
    assert link.stats.malformed == 0 and link.stats.gaps == 0
    assert "an age of 999999999 ms, over 0.25 s: taken as 0.25 s" in caplog.text
    assert "reader 3: an age that is not a number ('3x'): ignored" in caplog.text
    assert "refused the setting" not in caplog.text  # an old firmware is no fault


def test_no_hello_sends_sync_and_a_snapshot_connects(
    pico: FakePico, link: SerialLink, inbox: queue.Queue[Observation]
) -> None:
    pico.seq = 4242  # a Pico that has been running for a while
    pico.wait_command("SYNC", timeout=1.0)
    pico.send(FWP.full([[], [NTAG]]))
    status = wait_for(inbox, connected)
    assert isinstance(status, LinkStatus) and status.firmware is None and status.readers == 2
    assert drain(inbox) == [spot(0), spot(1, NTAG)]


def test_garbled_bytes_are_dropped_and_counted(
    pico: FakePico, link: SerialLink, inbox: queue.Queue[Observation]
) -> None:
    pico.hello(readers=2)
    wait_for(inbox, connected)
    pico.write(b"\x00\xff\xfe noise\n")
    frame = bytearray(FWP.encode(pico.seq, FWP.state(1, [NTAG])))
    frame[6] ^= 0x04  # a flipped bit on the cable
    pico.write(bytes(frame))
    pico.send(FWP.state(0, [MIFARE]))  # its seq is the garbled frame's: a gap is not seen
    pico.send(FWP.state(1, [NTAG]))
    got = [o for o in drain(inbox) if isinstance(o, SpotContents)]
    assert got == [spot(0, MIFARE), spot(1, NTAG)]
    assert link.stats.bad_crc == 1 and link.stats.malformed == 1


def test_sequence_gap_asks_for_sync(
    pico: FakePico, link: SerialLink, inbox: queue.Queue[Observation]
) -> None:
    pico.hello(readers=3)
    wait_for(inbox, connected)
    pico.wait_command("SYNC")  # the one after HELLO
    pico.send(FWP.full([[], [], []]))
    pico.send(FWP.state(1, [NTAG]))
    pico.skip(2)  # two frames lost, e.g. S 2 ... among them
    pico.send(FWP.state(0, [MIFARE]))
    pico.wait_command("SYNC", count=2)
    assert link.stats.gaps == 1
    pico.send(FWP.full([[MIFARE], [NTAG], [NTAG]]))
    got = [o for o in drain(inbox) if isinstance(o, SpotContents)]
    assert got[-2:] == [spot(0, MIFARE), spot(2, NTAG)]  # the snapshot fills the hole


def test_torn_line_across_writes(
    pico: FakePico, link: SerialLink, inbox: queue.Queue[Observation]
) -> None:
    pico.hello(readers=1)
    wait_for(inbox, connected)
    frame = FWP.encode(pico.seq, FWP.state(0, [NTAG, MIFARE]))
    pico.skip(0)
    pico.seq += 1
    for i in range(0, len(frame), 3):
        pico.write(frame[i : i + 3])
        time.sleep(0.01)
    assert wait_for(inbox, lambda o: isinstance(o, SpotContents)) == spot(0, NTAG, MIFARE)
    assert link.stats.malformed == 0


def test_unplug_and_replug(
    pico: FakePico, link: SerialLink, inbox: queue.Queue[Observation]
) -> None:
    pico.hello(readers=2)
    wait_for(inbox, connected)
    pico.send(FWP.full([[NTAG], []]))
    assert drain(inbox) == [spot(0, NTAG), spot(1)]
    pico.write(b"17 S 1 8A2C")  # half a frame, then the cable goes
    time.sleep(0.1)
    pico.unplug()
    lost = wait_for(inbox, disconnected)
    assert isinstance(lost, LinkStatus) and "vanished" in lost.reason
    time.sleep(0.15)  # a few reopen attempts fail meanwhile
    pico.replug()
    pico.hello(readers=2, fw="0.1.1")
    back = wait_for(inbox, connected, timeout=2.0)
    assert isinstance(back, LinkStatus) and back.firmware == "0.1.1"
    pico.send(FWP.full([[NTAG], [MIFARE]]))
    assert [o for o in drain(inbox) if isinstance(o, SpotContents)] == [spot(1, MIFARE)]
    stats = link.stats
    assert stats.disconnects == 1 and stats.connects == 2 and stats.malformed == 1


def test_silent_pico_is_reported_and_pinged(
    pico: FakePico, link: SerialLink, inbox: queue.Queue[Observation]
) -> None:
    pico.hello(readers=1)
    wait_for(inbox, connected)
    pico.send(FWP.full([[]]))
    pico.wait_command("PING", timeout=1.5)
    silent = wait_for(inbox, disconnected, timeout=2.0)
    assert isinstance(silent, LinkStatus) and "silent" in silent.reason
    syncs = sum(1 for c in pico.commands() if c[0] == "SYNC")
    pico.wait_command("SYNC", count=syncs + 1)  # reopened, no HELLO: asks for a snapshot
    pico.send(FWP.full([[NTAG]]))
    assert wait_for(inbox, connected, timeout=2.0)


def test_full_bounded_queue_never_blocks_and_heals(pico: FakePico) -> None:
    small: queue.Queue[Observation] = queue.Queue(maxsize=2)
    sl = SerialLink(str(pico.path), hello_wait=0.1, sync_interval=0.05, read_timeout=0.02)
    sl.start(small)
    table = [[NTAG], [MIFARE], [], []]
    try:
        pico.hello(readers=4)
        pico.send(FWP.full(table))
        deadline = time.monotonic() + 2
        while sl.stats.dropped_observations == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sl.stats.dropped_observations > 0  # the thread went on: it did not block
        # A slow consumer; the Pico answers every SYNC with a snapshot, as the firmware does.
        seen: set[Observation] = set()
        answered = 0
        want = {spot(0, NTAG), spot(1, MIFARE), spot(2), spot(3)}
        while not want <= seen and time.monotonic() < deadline + 2:
            syncs = sum(1 for c in pico.commands() if c[0] == "SYNC")
            if syncs > answered:
                answered = syncs
                pico.send(FWP.full(table))
            with contextlib.suppress(queue.Empty):
                seen.add(small.get(timeout=0.05))
        assert want <= seen  # everything lost was said again
    finally:
        sl.stop()


def test_stop_without_a_device_is_prompt(tmp_path: object) -> None:
    sl = SerialLink("/nonexistent/ttyACM9", backoff=(0.05, 0.05))
    inbox: queue.Queue[Observation] = queue.Queue()
    sl.start(inbox)
    status = wait_for(inbox, disconnected)
    assert isinstance(status, LinkStatus) and "cannot open" in status.reason
    started = time.monotonic()
    sl.stop()
    assert time.monotonic() - started < 0.5


def test_find_pico_by_usb_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    class Info:
        def __init__(self, device: str, vid: int | None, pid: int | None) -> None:
            self.device, self.vid, self.pid = device, vid, pid

    ports = [
        Info("/dev/ttyUSB0", 0x0403, 0x6001),
        Info("/dev/ttyACM1", 0x2E8A, 0x000A),
        Info("/dev/ttyACM0", 0x2E8A, 0x0005),
        Info("/dev/ttyS0", None, None),
    ]
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: ports)
    assert find_pico() == ["/dev/ttyACM0", "/dev/ttyACM1"]
    assert find_pico(pid=None) == ["/dev/ttyACM0", "/dev/ttyACM1"]


def test_discovery_when_no_port_is_given(pico: FakePico) -> None:
    found = threading.Event()

    def discover() -> list[str]:
        found.set()
        return [str(pico.path)]

    sl = SerialLink(None, discover=discover, hello_wait=0.1, read_timeout=0.02)
    inbox: queue.Queue[Observation] = queue.Queue()
    sl.start(inbox)
    try:
        pico.hello(readers=1)
        assert wait_for(inbox, connected) and found.is_set()
    finally:
        sl.stop()


def test_timings_are_kept_not_emitted_and_forgotten_on_hello(
    pico: FakePico, link: SerialLink, inbox: queue.Queue[Observation]
) -> None:
    from companion.devices.protocol import Timing

    pico.hello(readers=2)
    wait_for(inbox, connected)
    pico.send(FWP.full([[NTAG], []]))
    pico.send(FWP.timing(10, (3000, 3100, 3900), 0, None))
    pico.send(FWP.full([[NTAG], []]))
    pico.send(FWP.timing(64, (2900, 3000, 4100), 128, (1400, 1500, 2600)))
    assert drain(inbox) == [spot(0, NTAG), spot(1)]  # the game hears nothing of timings
    assert link.timing == Timing(64, (2900, 3000, 4100), 128, (1400, 1500, 2600))
    assert link.stats.malformed == 0 and link.stats.gaps == 0
    assert not link.replies  # not an answer to a command either
    pico.hello(readers=2)  # the Pico restarted: those figures were of its last run
    deadline = time.monotonic() + 1.0
    while link.timing is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert link.timing is None


def test_a_pico_speaking_only_garbage_is_a_link_fault_until_valid_frames_return(
    pico: FakePico, inbox: queue.Queue[Observation]
) -> None:
    """Bytes that never make a valid frame are no sign of life: after 2 s of them (the
    default ``garbage_timeout``) the link is reported lost, as a silent Pico is (the loop
    turns that into the referee's Stop naming the cable); valid frames bring it back."""
    skew = [0.0]  # seconds the link's clock is ahead of the real one
    sl = SerialLink(
        str(pico.path),
        hello_wait=0.15,
        silence_timeout=10.0,  # the Pico never falls silent here: only the garbage counts
        sync_interval=0.1,
        backoff=(0.02, 0.1),
        read_timeout=0.02,
        clock=lambda: time.monotonic() + skew[0],
    )
    sl.start(inbox)
    try:
        pico.hello(readers=1)
        wait_for(inbox, connected)
        pico.send(FWP.full([[]]))
        drain(inbox)
        frame = bytearray(FWP.encode(pico.seq, FWP.full([[NTAG]])))
        frame[-3] ^= 0x01  # a bad CRC

        def garbage_until_lost(rounds: int) -> Observation | None:
            for _ in range(rounds):
                pico.write(bytes(frame) + b"12 S 0 -\n\x00\xff")  # bad CRC, malformed, noise
                time.sleep(0.03)
                lost = next((o for o in drain(inbox, quiet=0.001) if disconnected(o)), None)
                if lost is not None:
                    return lost
            return None

        # Well within the 2 s on the link's clock: garbage alone is no loss yet.
        assert garbage_until_lost(5) is None
        skew[0] = sl.garbage_timeout  # the link's clock passes the timeout
        lost = garbage_until_lost(20)
        assert isinstance(lost, LinkStatus) and "corrupt" in lost.reason and "cable" in lost.reason
        assert sl.stats.bad_crc > 0 and sl.stats.malformed > 0
        syncs = sum(1 for c in pico.commands() if c[0] == "SYNC")
        pico.wait_command("SYNC", count=syncs + 1)  # it keeps asking for a snapshot
        pico.send(FWP.full([[NTAG]]))
        assert wait_for(inbox, connected, timeout=2.0)
        assert drain(inbox) == [spot(0, NTAG)]
    finally:
        sl.stop()
