"""The heartbeat's timings under a real MicroPython interpreter (see mp_timing.py)."""

from test_fw_micropython import _crc, run_script


def frame(seq: int, body: str) -> bytes:
    head = f"{seq} {body}".encode()
    return head + b"*%04X\n" % _crc(head)


def test_heartbeat_carries_timings_under_micropython():
    commands = frame(0, "CONF stats=1") + frame(1, "SYNC")
    output = run_script("mp_timing.py", commands)
    assert "MP-TIMING ok" in output, output
