"""An emulated Pico board for the firmware tests: fake ``machine``/``utime`` plus MFRC522 chips.

``install()`` puts the fakes of shims/ into ``sys.modules`` under the MicroPython names, so
the firmware files import them unchanged. ``Rig`` wires one emulated chip behind each
chip-select pin, the shared RST line to all of them, and builds the firmware's own driver
objects on the fake SPI bus. Runs under CPython and under the MicroPython unix port.
"""

import sys

import chip
import fake_machine
import fake_micropython
import fake_utime


def install():
    """Make ``import machine`` / ``import utime`` (and, on CPython, ``micropython``) fakes."""
    sys.modules["machine"] = fake_machine
    sys.modules["utime"] = fake_utime
    if sys.implementation.name != "micropython":
        sys.modules["micropython"] = fake_micropython


def uid_bytes(uid):
    if isinstance(uid, str):
        return bytes([int(uid[i : i + 2], 16) for i in range(0, len(uid), 2)])
    return bytes(uid)


class Rig:
    """``n`` readers (or one per pin of ``cs``) on one fake SPI bus, with a table of tags.

    ``overhead_us`` is the emulated cost of one SPI transaction beyond its bytes (call
    overhead of MicroPython on a Pico); 0 gives the pure SPI-at-``baudrate`` model.
    ``frame_overhead_us`` is charged on top at each frame a chip starts sending (the
    interpreter's work between frames: parsing the answer, building the next frame).
    ``timeout_us`` None keeps the driver's own default. ``spi1``: the readers (indices) on
    the second SPI bus, as pins.ON_SPI1 wires them; the others are on bus 0.
    """

    def __init__(
        self,
        mfrc522,
        n=3,
        cs=None,
        rst=22,
        baudrate=10000000,
        overhead_us=10,
        timeout_us=None,
        init=True,
        frame_overhead_us=0,
        spi1=(),
    ):
        fake_machine.reset()
        self.clock = chip.Clock()
        fake_machine.clock = self.clock
        fake_machine.txn_overhead_ns = int(overhead_us * 1000)
        if cs is None:
            cs = list(range(n))
        self.cs = list(cs)
        self.rst = rst
        self.table = chip.Table(self.clock)
        self.chips = []
        for i in range(len(self.cs)):
            c = chip.MFRC522Chip(self.clock, self.table, f"reader{i}")
            c.frame_overhead_ns = int(frame_overhead_us * 1000)
            fake_machine.attach(self.cs[i], c, 1 if i in spi1 else 0)
            self.chips.append(c)
        fake_machine.watch(rst, self._rst_changed)
        self.spi = fake_machine.SPI(0, baudrate=baudrate, polarity=0, phase=0)
        second = fake_machine.SPI(1, baudrate=baudrate, polarity=0, phase=0)
        self.readers = []
        if mfrc522 is not None:
            for i, pin in enumerate(self.cs):
                cs_pin = fake_machine.Pin(pin, fake_machine.Pin.OUT, value=1)
                bus = second if i in spi1 else self.spi
                if timeout_us is None:
                    self.readers.append(mfrc522.MFRC522(bus, cs_pin))  # its default
                else:
                    self.readers.append(mfrc522.MFRC522(bus, cs_pin, timeout_us))
            if init:
                for reader in self.readers:
                    reader.init()

    def _rst_changed(self, level):
        for c in self.chips:
            c.hard_reset(level)

    def place(self, reader, uid, near=(), across=None, **kw):
        """Put a new tag with ``uid`` (hex or bytes) on ``reader`` (and ``across`` onto a
        second reader's spot, if given); return the Tag."""
        tag = chip.Tag(uid_bytes(uid), **kw)
        second = None if across is None else self.chips[across]
        self.table.place(tag, self.chips[reader], [self.chips[i] for i in near], second)
        return tag

    def remove(self, tag):
        self.table.remove(tag)

    def now_us(self):
        return self.clock.ns // 1000

    def stats(self):
        return dict(fake_machine.stats)

    def reset_stats(self):
        fake_machine.reset_stats()
        for c in self.chips:
            c.frames = 0
            c.anticollisions = 0
            c.busy_ns = 0
            c.timeouts = 0
