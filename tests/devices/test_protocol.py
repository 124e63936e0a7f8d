"""The host protocol (companion/devices/protocol.py) against the firmware's own module."""

from __future__ import annotations

import random
import types
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.devices import protocol as hp

UID = st.sampled_from([8, 14, 20]).flatmap(
    lambda n: st.text(alphabet="0123456789ABCDEF", min_size=n, max_size=n)
)
UIDS = st.lists(UID, max_size=4, unique=True)
NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=16)


def test_crc_known_vector_and_agreement(fwp: types.ModuleType) -> None:
    assert hp.crc16(b"123456789") == 0x29B1 == fwp.crc16(b"123456789")
    rng = random.Random(7)
    for _ in range(500):
        data = rng.randbytes(rng.randrange(0, 60))
        assert hp.crc16(data) == fwp.crc16(data)


@given(st.integers(0, 65535), st.text(st.characters(min_codepoint=32, max_codepoint=126)))
def test_encode_is_byte_identical_to_the_firmware(
    fwp: types.ModuleType, seq: int, body: str
) -> None:
    assert hp.encode(seq, body) == fwp.encode(seq, body)


@settings(max_examples=300)
@given(st.binary(max_size=60) | st.text(max_size=60).map(str.encode))
def test_decode_accepts_exactly_what_the_firmware_accepts(
    fwp: types.ModuleType, data: bytes
) -> None:
    expected = fwp.try_decode(data)
    try:
        got = hp.decode(data)
    except hp.FrameError:
        got = None
    assert got == expected


@pytest.mark.parametrize(
    "line",
    [
        b"",
        b"PING",
        b"1 PING*0000\n",
        b"1 PING*12g4\n",
        b"1 PING*123\n",
        b"01 PING*1234\n",
        b"99999 PING",
        b"\xff\xfe*1234\n",
        b"1*",
        b" PING*1234",
        b"1 PING*+1AB\n",
    ],
)
def test_garbage_is_a_frame_error(line: bytes) -> None:
    with pytest.raises(hp.FrameError):
        hp.decode(line)


def test_bad_crc_is_its_own_error(fwp: types.ModuleType) -> None:
    frame = bytearray(fwp.encode(12, "S 3 04A1B2C3D4E5F6"))
    frame[8] ^= 0x01
    with pytest.raises(hp.CrcError):
        hp.decode(bytes(frame))
    assert hp.decode(fwp.encode(12, "S 3 -").rstrip(b"\n") + b"\r\n") == (12, "S 3 -")


def report(fwp: types.ModuleType, body: str) -> hp.Report:
    seq, text = hp.decode(fwp.encode(5, body))
    assert seq == 5
    return hp.parse_report(text)


def test_every_report_kind_from_the_firmware(fwp: types.ModuleType) -> None:
    assert report(fwp, fwp.hello("0.1.0", 19)) == hp.Hello(1, "0.1.0", 19)
    assert report(fwp, fwp.state(4, [])) == hp.State(4, frozenset())
    assert report(fwp, fwp.state(4, ["8A2C11F0", "04A1B2C3D4E5F6"])) == hp.State(
        4, frozenset({"8A2C11F0", "04A1B2C3D4E5F6"})
    )
    assert report(fwp, fwp.full([[], None, ["04A1B2C3D4E5F6A1B2C3"]])) == hp.Full(
        (frozenset(), None, frozenset({"04A1B2C3D4E5F6A1B2C3"}))
    )
    assert report(fwp, fwp.fault(7, "absent")) == hp.Fault(7, "absent")
    assert report(fwp, fwp.button("reset", True)) == hp.Button("reset", True)
    assert report(fwp, fwp.button("reset", False)) == hp.Button("reset", False)
    assert report(fwp, fwp.pong()) == hp.Pong()
    assert report(fwp, fwp.ok("debounce", 5)) == hp.Ok("debounce", "5")
    assert report(fwp, fwp.bad("conf debounce")) == hp.Bad("conf debounce")


@given(st.integers(0, 999), UIDS)
def test_state_round_trip(fwp: types.ModuleType, reader: int, uids: list[str]) -> None:
    assert report(fwp, fwp.state(reader, uids)) == hp.State(reader, frozenset(uids))
    assert hp.format_uids(frozenset(uids)) == fwp.format_uids(uids)


@given(st.lists(st.none() | UIDS, max_size=19))
def test_full_round_trip(fwp: types.ModuleType, sets: list[list[str] | None]) -> None:
    expected = tuple(None if s is None else frozenset(s) for s in sets)
    assert report(fwp, fwp.full(sets)) == hp.Full(expected)


@given(st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40))
def test_parse_report_agrees_with_the_firmware(fwp: types.ModuleType, body: str) -> None:
    both_parse(fwp, body)


def both_parse(fwp: types.ModuleType, body: str) -> tuple[Any, Any]:
    """``body`` parsed by the host and by the firmware (None: refused); both refuse or both
    accept it."""
    try:
        theirs = fwp.parse_report(body)
    except fwp.FrameError:
        theirs = None
    try:
        ours = hp.parse_report(body)
    except hp.FrameError:
        ours = None
    assert (ours is None) == (theirs is None), (body, ours, theirs)
    return ours, theirs


def test_commands_are_understood_by_the_firmware(fwp: types.ModuleType) -> None:
    for body, parsed in [
        (hp.ping(), ("PING",)),
        (hp.sync(), ("SYNC",)),
        (hp.repl(), ("REPL",)),
        (hp.conf("debounce", 5), ("CONF", "debounce", "5")),
        (hp.conf("heartbeat_ms", "250"), ("CONF", "heartbeat_ms", "250")),
    ]:
        seq, text = fwp.decode(hp.encode(65535, body))
        assert seq == 65535
        assert fwp.parse_command(text) == parsed
    with pytest.raises(hp.FrameError):
        hp.conf("Bad Key", 1)
    with pytest.raises(hp.FrameError):
        hp.conf("debounce", "1 2")
    with pytest.raises(hp.FrameError):
        hp.encode(65536, "PING")


@given(st.integers(0, 65535), NAME, st.booleans())
def test_button_round_trip(fwp: types.ModuleType, seq: int, name: str, down: bool) -> None:
    _, text = hp.decode(fwp.encode(seq, fwp.button(name, down)))
    assert hp.parse_report(text) == hp.Button(name, down)


def test_frame_reader_handles_torn_lines_and_counts_drops(fwp: types.ModuleType) -> None:
    reader = hp.FrameReader()
    a = fwp.encode(1, fwp.state(2, ["8A2C11F0"]))
    b = fwp.encode(2, fwp.pong())
    stream = a + b"\r\n" + b"garbage\n" + a[:-3] + b"00\n" + b
    got = []
    for i in range(0, len(stream), 5):  # torn anywhere
        got += reader.feed(stream[i : i + 5])
    assert got == [(1, hp.State(2, frozenset({"8A2C11F0"}))), (2, hp.Pong())]
    assert (reader.frames, reader.bad_crc, reader.malformed) == (2, 1, 1)
    reader.feed(b"x" * 3000)
    reader.feed(b"y" * 3000 + b"\n" + b)
    assert (reader.frames, reader.malformed) == (3, 2)  # one overlong line, counted once
    reader.feed(a[:10])
    reader.reset()  # cut by a disconnect
    assert reader.malformed == 3 and reader.feed(b) == [(2, hp.Pong())]


T_BODIES = [
    "T cycles=64 cycle_us=25100/25300/30700 visits=256 visit_us=1390/1402/3100",
    "T cycles=3 cycle_us=9/10/12 visits=0 visit_us=-",
    "T cycles=2 spi_us=5/6/7 cycle_us=1/2/3",  # a later firmware's extra figure
    "T cycles=2",
    "T cycles=2 cycle_us=3/2/1",
    "T cycles=2 cycle_us=1/2",
    "T cycles=0 cycle_us=-",
    "T cycles=0 cycle_us=1/2/3",
    "T cycles=2 cycle_us=1/2/3 visits=4 visit_us=-",
    "T cycles=2 cycle_us=1/2/3 visits=0 visit_us=1/1/1",
    "T cycles=02 cycle_us=1/2/3",
    "T cycles=2 cycle_us=1/2/3 cycles",
    "T cycles=2 cycle_us=1/2/3 visits=1 visit_us=4/4/4 visits=0",
    "T cycles=2 cycle_us=1/2/3 buses=0011",
    "T cycles=2 cycle_us=1/2/3 buses=",
    "T cycles=2 cycle_us=1/2/3 buses=0021",
    "T cycles=2 cycle_us=1/2/3 buses=" + "0" * 65,
]


@pytest.mark.parametrize("body", T_BODIES)
def test_timing_parse_agrees_with_the_firmware(fwp: types.ModuleType, body: str) -> None:
    ours, theirs = both_parse(fwp, body)
    if isinstance(ours, hp.Timing):
        assert ("T", ours.cycles, ours.cycle_us, ours.visits, ours.visit_us) == theirs


def test_timing_from_the_firmware(fwp: types.ModuleType) -> None:
    body = fwp.timing(64, (25100, 25300, 30700), 256, (1390, 1402, 3100))
    assert report(fwp, body) == hp.Timing(64, (25100, 25300, 30700), 256, (1390, 1402, 3100))
    assert report(fwp, fwp.timing(5, (1, 2, 3), 0, None)) == hp.Timing(5, (1, 2, 3), 0, None)
    split = report(fwp, fwp.timing(5, (1, 2, 3), 0, None, "0110"))
    assert split == hp.Timing(5, (1, 2, 3), 0, None, (0, 1, 1, 0))
    _, text = fwp.decode(hp.encode(3, hp.conf("stats", 1)))
    assert fwp.parse_command(text) == ("CONF", "stats", "1")
