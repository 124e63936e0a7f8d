"""Fuzzing the host frame parser: nothing escapes, every bad line is counted and dropped.

Hypothesis explores shapes; a plain seeded loop supplies the volume (well over 100,000
inputs in all, in a few seconds), with random bytes, frames with flipped bits and bytes,
and valid frames torn at random places.
"""

from __future__ import annotations

import random
import types

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.devices import protocol as hp
from companion.devices.readers import Observation
from companion.devices.serial_link import SerialLink

RANDOM_INPUTS = 80_000
MUTATED_FRAMES = 40_000


class ListSink:
    def __init__(self) -> None:
        self.items: list[Observation] = []

    def put_nowait(self, item: Observation, /) -> None:
        self.items.append(item)


def nonempty_lines(data: bytes) -> int:
    return sum(1 for line in data.split(b"\n")[:-1] if line not in (b"", b"\r"))


def check_accounting(data: bytes) -> hp.FrameReader:
    reader = hp.FrameReader()
    reader.feed(data)
    lines = nonempty_lines(data)
    assert reader.frames + reader.bad_crc + reader.malformed == lines
    return reader


@settings(max_examples=400, deadline=None)
@given(st.lists(st.binary(max_size=40) | st.sampled_from([b"\n", b"\r\n", b"*", b" "])))
def test_hypothesis_streams(chunks: list[bytes]) -> None:
    data = b"".join(chunks) + b"\n"
    check_accounting(data)
    link = SerialLink("unused")
    link.bind(ListSink())
    link.feed(data)  # the full dispatch path as well


def test_random_bytes(fwp: types.ModuleType) -> None:
    rng = random.Random(20240601)
    alphabet = b"0123456789ABCDEF SFEBHLOPNGK=-?,*\n\r\x00\xff"
    total_frames = 0
    for i in range(RANDOM_INPUTS):
        n = rng.randrange(0, 64)
        if i % 2:
            data = bytes(rng.choice(alphabet) for _ in range(n)) + b"\n"
        else:
            data = rng.randbytes(n) + b"\n"
        total_frames += check_accounting(data).frames
    assert total_frames < RANDOM_INPUTS // 1000  # random bytes are (almost) never frames


def test_mutated_and_torn_frames(fwp: types.ModuleType) -> None:
    rng = random.Random(99)
    bodies = [
        fwp.hello("0.1.0", 19),
        fwp.state(4, ["04A1B2C3D4E5F6", "8A2C11F0"]),
        fwp.full([[], None, ["04A1B2C3D4E5F6"], []] * 4),
        fwp.fault(3, "absent"),
        fwp.button("reset", True),
        fwp.pong(),
        fwp.ok("debounce", 3),
    ]
    sink = ListSink()
    link = SerialLink("unused")
    link.bind(sink)
    for i in range(MUTATED_FRAMES):
        frame = bytearray(fwp.encode(rng.randrange(65536), rng.choice(bodies)))
        kind = i % 3
        if kind == 0:  # one flipped bit: CRC-16 catches every single-bit error
            pos = rng.randrange(len(frame) - 1)
            frame[pos] ^= 1 << rng.randrange(8)
            if frame[pos] == 10:
                continue  # the flip made a line end: two lines, checked elsewhere
            reader = check_accounting(bytes(frame))
            assert reader.frames == 0
        elif kind == 1:  # a replaced byte
            frame[rng.randrange(len(frame) - 1)] = rng.randrange(256)
            check_accounting(bytes(frame))
        else:  # a frame torn by a lost chunk, followed by an intact one
            cut = rng.randrange(1, len(frame) - 1)
            good = fwp.encode(1, fwp.pong())
            data = bytes(frame[:cut]) + good
            reader = check_accounting(data)
            assert reader.frames <= 1
        link.feed(bytes(frame))
    assert link.stats.frames + link.stats.bad_crc + link.stats.malformed > 0
