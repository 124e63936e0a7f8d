"""The firmware main loop (firmware/main.py): frames out, commands in."""

import io
import os

import fake_micropython
import harness
import pytest

NTAG = "04A1B2C3D4E5F6"


@pytest.fixture
def board(fw):
    """The full 19-reader board of pins.py, emulated."""
    return harness.Rig(None, cs=fw.pins.CS, rst=fw.pins.RST)


def reports(fw, frames):
    out = []
    for frame in frames:
        seq, body = fw.protocol.decode(frame)
        out.append((seq, fw.protocol.parse_report(body)))
    return out


def make_firmware(fw, board, **kw):
    scan = fw.scanner.Scanner(fw.main.build_readers())
    scan.start()
    frames = []
    return fw.main.Firmware(scan, frames.append, **kw), frames


def cmd(fw, seq, body):
    return fw.protocol.encode(seq, body)


def test_hello_then_ping_sync_and_conf(fw, board):
    firmware, frames = make_firmware(fw, board)
    firmware.hello()
    firmware.feed(cmd(fw, 1, "PING") + cmd(fw, 2, "SYNC"))
    firmware.step()
    firmware.feed(cmd(fw, 3, "CONF debounce=5") + cmd(fw, 4, "CONF debounce=0"))
    firmware.feed(b"1 PING*0000\n" + cmd(fw, 5, "DANCE"))
    got = [r for _, r in reports(fw, frames)]
    assert got[0] == ("HELLO", 1, fw.main.VERSION, 19)
    assert got[1] == ("PONG",)
    assert got[2] == ("F", [()] * 19)
    assert got[3:] == [
        ("OK", "debounce", "5"),
        ("BAD", "conf debounce"),
        ("BAD", "crc"),
        ("BAD", "cmd"),
    ]
    assert firmware.scan.debounce == 5
    assert [seq for seq, _ in reports(fw, frames)] == list(range(len(frames)))


def test_commands_split_across_reads_and_noise_lines(fw, board):
    firmware, frames = make_firmware(fw, board)
    data = b"\r\n" + b"x" * 5000 + b"\n" + cmd(fw, 9, "PING")
    for i in range(len(data)):
        firmware.feed(data[i : i + 1])
    assert [r for _, r in reports(fw, frames)] == [("BAD", "frame"), ("PONG",)]


def test_changes_become_s_frames_and_heartbeat_is_at_least_once_a_second(fw, board):
    firmware, frames = make_firmware(fw, board)
    start_ms = board.clock.ns // 1_000_000
    board.place(5, NTAG)
    firmware.step()
    got = reports(fw, frames)
    assert ("S", 5, (NTAG,)) in [r for _, r in got]
    full_times = []
    while board.clock.ns // 1_000_000 - start_ms < 3500:
        before = len(frames)
        firmware.step()
        if any(f.split(b" ")[1] == b"F" for f in frames[before:]):
            full_times.append(board.clock.ns // 1_000_000)
    gaps = [b - a for a, b in zip(full_times, full_times[1:], strict=False)]
    assert len(full_times) >= 3
    assert max(gaps) <= 1100  # one second plus at most one scan cycle


def test_ctrl_c_leaves_the_loop(fw, board):
    firmware, frames = make_firmware(fw, board)
    assert firmware.feed(b"12") is True
    assert firmware.feed(b"\x03") is False


def test_run_answers_ping_and_sync_over_a_pipe(fw, board):
    read_fd, write_fd = os.pipe()
    os.write(write_fd, cmd(fw, 0, "PING") + cmd(fw, 1, "SYNC"))
    out = io.BytesIO()
    board.place(2, NTAG)
    with os.fdopen(read_fd, "rb", buffering=0) as stdin:
        fw.main.run(stdin=stdin, stdout=out, max_cycles=3)
        got = [r for _, r in reports(fw, out.getvalue().splitlines(keepends=True))]
        assert got[0][0] == "HELLO"
        assert got[1:3] == [("PONG",), ("S", 2, (NTAG,))]
        assert got[3][0] == "F" and got[3][1][2] == (NTAG,)
        assert fake_micropython.kbd_intr_char == 3  # restored on the way out
        os.write(write_fd, b"\x03" + cmd(fw, 2, "PING"))
        os.close(write_fd)
        firmware = fw.main.run(stdin=stdin, stdout=out, max_cycles=10)
    assert firmware.scan.cycles == 0  # left at once, so mpremote can reach the REPL
    assert fake_micropython.kbd_intr_char == 3


def test_run_keeps_scanning_when_input_ends(fw, board):
    read_fd, write_fd = os.pipe()
    os.close(write_fd)
    out = io.BytesIO()
    with os.fdopen(read_fd, "rb", buffering=0) as stdin:
        firmware = fw.main.run(stdin=stdin, stdout=out, max_cycles=5)
    assert firmware.scan.cycles == 5
