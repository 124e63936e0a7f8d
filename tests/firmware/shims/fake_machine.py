"""A fake MicroPython ``machine`` module: GPIO levels, and an SPI bus wired to emulated chips.

Installed as ``machine`` in ``sys.modules`` by tests/firmware/harness.py (and fwload.py on
CPython), so the real firmware runs unchanged. Each ``attach(cs_pin, device, bus)`` wires a
device behind a chip-select GPIO on SPI bus ``bus``; while that pin is low, every byte of
that bus goes to it. Two chips selected at once on one bus is a fault of the firmware and
raises; the two buses of a board are independent (firmware/cores.py drives them at once).

The bus counts transactions (chip-select low periods) and bytes, and advances the emulated
clock by each byte's time at the bus's real rate plus an optional fixed cost per
transaction (the MicroPython call overhead of a real Pico, 0 for the pure SPI model). The
real rate is the one MicroPython's rp2 port sets for the rate asked (``rp2_baudrate``):
asked for 10 MHz, a Pico's bus runs at 8 MHz, as the port itself reports (tests/pico).

``WDT`` and ``Timer`` are there for the firmware's watchdog: the watchdog records its feeds
on the emulated clock, and a timer fires only when a test says so.
"""


class _Clock:
    def __init__(self):
        self.ns = 0


clock = _Clock()
levels = {}
devices = {}
watchers = {}
txn_overhead_ns = 0
stats = {"transactions": 0, "bytes": 0}
_selected = {}  # bus -> the device selected on it
_bus_of = {}  # chip-select pin -> its device's bus


def reset():
    """Forget every pin, device and counter (a fresh board for the next test)."""
    levels.clear()
    devices.clear()
    watchers.clear()
    del WDT.made[:]
    del Timer.made[:]
    _selected.clear()
    _bus_of.clear()
    reset_stats()


def reset_stats():
    stats["transactions"] = 0
    stats["bytes"] = 0


def attach(cs_pin, device, bus=0):
    """Wire ``device`` (select(), deselect(), xfer(byte) -> byte) behind GPIO ``cs_pin`` on
    SPI bus ``bus``."""
    devices[cs_pin] = device
    _bus_of[cs_pin] = bus
    levels.setdefault(cs_pin, 1)


def watch(pin, callback):
    """Call ``callback(level)`` whenever GPIO ``pin`` changes level."""
    watchers.setdefault(pin, []).append(callback)


def _changed(pin, level):
    device = devices.get(pin)
    if device is not None:
        bus = _bus_of[pin]
        if level == 0:
            if bus in _selected:
                raise RuntimeError(f"two chips selected on SPI bus {bus} (CS {pin})")
            _selected[bus] = device
            stats["transactions"] += 1
            clock.ns += txn_overhead_ns
            device.select()
        elif _selected.get(bus) is device:
            del _selected[bus]
            device.deselect()
    for callback in watchers.get(pin, ()):
        callback(level)


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, pin_id, mode=-1, pull=-1, value=None):
        self.id = pin_id
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        if mode != -1:
            self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self.value(value)
        elif self.id not in levels:
            levels[self.id] = 1 if pull == Pin.PULL_UP else 0

    def value(self, level=None):
        if level is None:
            return levels.get(self.id, 0)
        level = 1 if level else 0
        if levels.get(self.id) != level:
            levels[self.id] = level
            _changed(self.id, level)
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def low(self):
        self.value(0)

    def high(self):
        self.value(1)

    def irq(self, handler=None, trigger=0):
        return None


PERI_HZ = 48000000
"""clk_peri of MicroPython's rp2 port (v1.28): the SPI blocks divide this, not the CPU's
125 MHz."""


def rp2_baudrate(asked):
    """The SPI rate the RP2040 runs at when ``asked`` is requested: pico-sdk's
    ``spi_set_baudrate``, the fastest of clk_peri / (prescale * postdiv) not above it
    (prescale even, 2..254; postdiv 1..256)."""
    prescale = 2
    while prescale <= 254 and (prescale + 2) * 256 * asked <= PERI_HZ:
        prescale += 2
    postdiv = 256
    while postdiv > 1 and PERI_HZ // (prescale * (postdiv - 1)) <= asked:
        postdiv -= 1
    return PERI_HZ // (prescale * postdiv)


class SPI:
    MSB = 0
    LSB = 1

    def __init__(
        self,
        bus_id,
        baudrate=1000000,
        polarity=0,
        phase=0,
        bits=8,
        firstbit=0,
        sck=None,
        mosi=None,
        miso=None,
    ):
        self.id = bus_id
        self.init(baudrate, polarity, phase, bits, firstbit, sck, mosi, miso)

    def init(
        self,
        baudrate=1000000,
        polarity=0,
        phase=0,
        bits=8,
        firstbit=0,
        sck=None,
        mosi=None,
        miso=None,
    ):
        self.baudrate = rp2_baudrate(baudrate)
        self.polarity = polarity
        self.phase = phase
        self.byte_ns = 8000000000 // self.baudrate

    def deinit(self):
        pass

    def _xfer(self, byte):
        clock.ns += self.byte_ns
        stats["bytes"] += 1
        device = _selected.get(self.id)
        if device is not None:
            return device.xfer(byte)
        return 0  # nobody drives MISO: the pull-down reads as zeros

    def write(self, buf):
        for byte in buf:
            self._xfer(byte)

    def read(self, nbytes, write=0):
        return bytes([self._xfer(write) for _ in range(nbytes)])

    def readinto(self, buf, write=0):
        for i in range(len(buf)):
            buf[i] = self._xfer(write)

    def write_readinto(self, write_buf, read_buf):
        for i in range(len(write_buf)):
            read_buf[i] = self._xfer(write_buf[i])


class WDT:
    """The watchdog on the emulated clock: it records every feed, and ``starved`` says
    whether it went hungrier than its timeout at some point (the RP2040 would have reset).

    ``WDT.made`` holds every watchdog made, newest last."""

    made = []

    def __init__(self, id=0, timeout=5000):
        self.timeout_ms = timeout
        self.fed_at = [clock.ns]
        self.feeds = 0
        WDT.made.append(self)

    def feed(self):
        self.feeds += 1
        self.fed_at.append(clock.ns)

    def starved(self):
        limit = self.timeout_ms * 1000000
        times = self.fed_at
        for i in range(1, len(times)):
            if times[i] - times[i - 1] > limit:
                return True
        return clock.ns - times[-1] > limit


class Timer:
    """A periodic timer that fires only when a test calls ``fire`` (``Timer.made``)."""

    ONE_SHOT = 0
    PERIODIC = 1
    made = []

    def __init__(self, id=-1, mode=1, period=-1, callback=None, freq=-1):
        self.mode = mode
        self.period_ms = period
        self.callback = callback
        Timer.made.append(self)

    def fire(self):
        if self.callback is not None:
            self.callback(self)

    def deinit(self):
        self.callback = None


def idle():
    clock.ns += 1000


def freq(hz=None):
    return 125000000


def unique_id():
    return b"\xe6\x60\x58\x38\x83\x4a\x2b\x2c"
