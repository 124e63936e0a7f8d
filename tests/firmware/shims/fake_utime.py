"""A fake MicroPython ``utime`` on the emulated clock shared with the chips and the SPI bus.

Ticks wrap like MicroPython's (period 2**30), so firmware that forgets ``ticks_diff``
shows up in tests that start the clock near the wrap.
"""

import fake_machine

_PERIOD = 1 << 30
_MASK = _PERIOD - 1
_HALF = _PERIOD >> 1


def _ns():
    return fake_machine.clock.ns


def ticks_us():
    return (_ns() // 1000) & _MASK


def ticks_ms():
    return (_ns() // 1000000) & _MASK


def ticks_cpu():
    return ticks_us()


def ticks_diff(end, start):
    diff = (end - start) & _MASK
    return diff - _PERIOD if diff >= _HALF else diff


def ticks_add(ticks, delta):
    return (ticks + delta) & _MASK


def sleep_us(us):
    if us > 0:
        fake_machine.clock.ns += us * 1000


def sleep_ms(ms):
    if ms > 0:
        fake_machine.clock.ns += ms * 1000000


def sleep(seconds):
    fake_machine.clock.ns += int(seconds * 1000000000)


def time():
    return _ns() // 1000000000
