"""A reader visit recorded against the emulated chip, then replayed with the chip out of
the loop (MicroPython scripts: tests/firmware/mp_hotpath.py, bench/mp_interp_cost.py): the
bus answers from the recording and ``utime`` is C builtins, so what remains is the
firmware's own work."""


class Recorder:
    """The rig's SPI bus, keeping a copy of every answer of ``write_readinto``."""

    def __init__(self, spi):
        self.spi = spi
        self.log = []

    def write(self, buf):
        self.spi.write(buf)

    def write_readinto(self, out, into):
        self.spi.write_readinto(out, into)
        self.log.append(bytes(into))


class Replay:
    """Answers from a recording; ``write`` is a C builtin, as on the Pico."""

    def __init__(self, log):
        self.log = log
        self.i = 0
        self.write = len

    def write_readinto(self, out, into):
        into[:] = self.log[self.i]
        self.i += 1


class Clock:
    """C builtins with the signatures of ``utime``: the replay never waits."""

    ticks_us = int  # always 0
    ticks_diff = min  # 0 or below: no deadline passes, no guard waits
    ticks_add = max
    sleep_us = abs
