"""Protocol 1 framing and bodies (firmware/protocol.py)."""

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

UIDS = st.lists(
    st.sampled_from([8, 14, 20]).flatmap(
        lambda n: st.text(alphabet="0123456789ABCDEF", min_size=n, max_size=n)
    ),
    max_size=4,
    unique=True,
)
BODY = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), min_size=1).filter(
    lambda b: "*" not in b
)


def test_crc16_ccitt_false_known_vector(fw):
    assert fw.protocol.crc16(b"123456789") == 0x29B1
    assert fw.protocol.crc16(b"") == 0xFFFF


def test_frame_layout(fw):
    frame = fw.protocol.encode(7, "S 4 -")
    head = b"7 S 4 -"
    assert frame == head + b"*%04X\n" % fw.protocol.crc16(head)
    assert fw.protocol.decode(frame) == (7, "S 4 -")
    assert fw.protocol.decode(frame.rstrip(b"\n") + b"\r\n") == (7, "S 4 -")


@given(st.integers(0, 65535), BODY)
def test_encode_decode_round_trip(fw, seq, body):
    if body.strip(" ") != body or not body:
        return  # a body never starts or ends with a space
    assert fw.protocol.decode(fw.protocol.encode(seq, body)) == (seq, body)


def test_sequence_wraps(fw):
    assert fw.protocol.next_seq(65535) == 0
    with pytest.raises(fw.protocol.FrameError):
        fw.protocol.encode(65536, "PING")


@pytest.mark.parametrize(
    "line",
    [
        b"",
        b"PING",
        b"1 PING*0000\n",  # bad CRC
        b"1 PING*12G4\n",
        b"1 PING*123\n",
        b"01 PING*1234\n",
        b"99999 PING",
        b"\xff\xfe*1234\n",
        b"1*",
        b" PING*1234",
    ],
)
def test_garbage_is_rejected(fw, line):
    with pytest.raises(fw.protocol.FrameError):
        fw.protocol.decode(line)
    assert fw.protocol.try_decode(line) is None


def test_a_flipped_bit_is_caught(fw):
    frame = bytearray(fw.protocol.encode(12, "S 3 04A1B2C3D4E5F6"))
    frame[8] ^= 0x01
    assert fw.protocol.try_decode(bytes(frame)) is None


@given(st.binary(max_size=80))
def test_decode_never_fails_otherwise(fw, data):
    with contextlib.suppress(fw.protocol.FrameError):
        fw.protocol.decode(data)


def test_oversized_uid_set_is_a_frame_error_when_parsing(fw):
    with pytest.raises(fw.protocol.FrameError):
        fw.protocol.parse_report("S 1 04A1B2")


@given(st.integers(0, 18), UIDS)
def test_state_round_trip(fw, reader, uids):
    body = fw.protocol.state(reader, uids)
    assert fw.protocol.parse_report(body) == ("S", reader, tuple(sorted(uids)))


def test_empty_state_uses_a_dash(fw):
    assert fw.protocol.state(4, []) == "S 4 -"


@given(st.lists(st.one_of(st.none(), UIDS), max_size=19))
def test_full_snapshot_round_trip(fw, sets):
    body = fw.protocol.full(sets)
    expected = [None if s is None else tuple(sorted(s)) for s in sets]
    assert fw.protocol.parse_report(body) == ("F", expected)


def test_full_snapshot_format(fw):
    body = fw.protocol.full([[], ["04A1B2C3D4E5F6", "8A2C11F0"], None])
    assert body == "F 0=- 1=04A1B2C3D4E5F6,8A2C11F0 2=?"


def test_other_reports_round_trip(fw):
    p = fw.protocol
    assert p.parse_report(p.hello("0.1.0", 19)) == ("HELLO", 1, "0.1.0", 19)
    assert p.hello("0.1.0", 19) == "HELLO proto=1 fw=0.1.0 readers=19"
    assert p.parse_report(p.fault(3, "absent")) == ("E", 3, "absent")
    assert p.parse_report(p.button("reset", True)) == ("B", "reset", True)
    assert p.parse_report(p.button("reset", False)) == ("B", "reset", False)
    assert p.parse_report(p.pong()) == ("PONG",)
    assert p.parse_report(p.ok("debounce", 4)) == ("OK", "debounce", "4")
    assert p.parse_report(p.bad("conf x")) == ("BAD", "conf x")


def test_commands(fw):
    p = fw.protocol
    assert p.parse_command(p.ping()) == ("PING",)
    assert p.parse_command(p.sync()) == ("SYNC",)
    assert p.parse_command(p.conf("settle_us", 400)) == ("CONF", "settle_us", "400")
    for body in ("PONG", "PING now", "CONF", "CONF x", "CONF =1", "conf a=1"):
        with pytest.raises(p.FrameError):
            p.parse_command(body)


def test_timing_report_format_and_round_trip(fw):
    p = fw.protocol
    body = p.timing(64, (25100, 25300, 30700), 256, (1390, 1402, 3100))
    assert body == "T cycles=64 cycle_us=25100/25300/30700 visits=256 visit_us=1390/1402/3100"
    assert p.parse_report(body) == ("T", 64, (25100, 25300, 30700), 256, (1390, 1402, 3100))
    without_visits = p.timing(3, (9, 10, 12), 0, None)
    assert without_visits.endswith(" visits=0 visit_us=-")
    assert p.parse_report(without_visits) == ("T", 3, (9, 10, 12), 0, None)
    two = p.timing(3, (9, 10, 12), 0, None, "01", (2, 9100))
    assert two.endswith(" buses=01 gc=2/9100")  # core 1's collections, the longest's us
    assert p.parse_report(two) == ("T", 3, (9, 10, 12), 0, None)


@given(
    st.integers(1, 10**6),
    st.lists(st.integers(0, 10**8), min_size=3, max_size=3),
    st.integers(0, 10**6),
    st.lists(st.integers(0, 10**8), min_size=3, max_size=3),
)
def test_timing_round_trip(fw, cycles, cycle, visits, visit):
    triple = tuple(sorted(visit)) if visits else None
    body = fw.protocol.timing(cycles, tuple(sorted(cycle)), visits, triple)
    assert fw.protocol.parse_report(body) == ("T", cycles, tuple(sorted(cycle)), visits, triple)


def test_timing_ignores_unknown_figures_and_rejects_bad_ones(fw):
    p = fw.protocol
    later = "T cycles=2 spi_us=5/6/7 cycle_us=1/2/3"  # a later firmware, an extra figure
    assert p.parse_report(later) == ("T", 2, (1, 2, 3), 0, None)
    for body in (
        "T cycles=2",
        "T cycles=2 cycle_us=3/2/1",
        "T cycles=2 cycle_us=1/2",
        "T cycles=0 cycle_us=1/2/3",
        "T cycles=2 cycle_us=-",
        "T cycles=0 cycle_us=-",
        "T cycles=2 cycle_us=1/2/3 visits=4 visit_us=-",
        "T cycles=2 cycle_us=1/2/x",
        "T cycles=02 cycle_us=1/2/3",
    ):
        with pytest.raises(p.FrameError):
            p.parse_report(body)
