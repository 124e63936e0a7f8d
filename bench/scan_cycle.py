"""Scan-cycle model of the Pico firmware: how long one pass over 18 readers takes.

    .venv/bin/python bench/scan_cycle.py

The real firmware (firmware/scanner.py and mfrc522.py) runs against the emulated MFRC522
chips of tests/firmware/chip.py. Emulated time advances by every SPI byte at 10 MHz (each
byte counted by the fake bus), by the firmware's own sleeps (antenna settle), and by what
the chips make the firmware wait for: air time of frames and answers at 106 kbit/s, the
frame delay time, and the chip's timer when nobody answers. A cycle's time is the emulated
clock's advance over one ``Scanner.cycle()``. The pure model charges nothing for running
MicroPython between SPI transfers; the sensitivity table adds a fixed cost per SPI
transaction to show what that overhead does.

The naive scan for comparison is modelled on the defaults of common MicroPython MFRC522
drivers: every antenna always on, timer 15.5 ms (TPrescaler 0xD3E, TReload 30), a REQA
and a level-1 anticollision on every reader every cycle, one register per SPI transaction
(read-modify-write for bit masks, one transaction per FIFO byte), and a busy poll of
ComIrqReg. An unanswered REQA therefore waits the full 15.5 ms. The naive scan is given
fresh tags on every visit (its best case; in reality a tag left READY ignores the next
REQA and is only seen every other cycle), and it cannot enumerate several tags at all.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "firmware"))

import fwload  # noqa: E402

FW = fwload.load_firmware()

import fake_machine  # noqa: E402
import fake_utime  # noqa: E402
import harness  # noqa: E402

READERS = 18
CYCLES = 64  # two audit rounds: every long-UID reader gets its periodic full read twice
BAUD = 10_000_000


def uids_for(reader: int, count: int) -> list[str]:
    """Distinct NTAG-like 7-byte UIDs; the first three bytes differ between tags."""
    return [f"04{reader:02X}{k:02X}5A1C{0x80 + reader:02X}{k:02X}" for k in range(count)]


def make_rig(tags: int, overhead_us: float, long_uids: bool = True) -> harness.Rig:
    rig = harness.Rig(FW.mfrc522, n=READERS, baudrate=BAUD, overhead_us=overhead_us)
    for r in range(READERS):
        for uid in uids_for(r, tags):
            rig.place(r, uid if long_uids else uid[6:14])
    return rig


def firmware_cycle(tags: int, overhead_us: float = 0, settle_us: int = 300, long_uids=True):
    """Mean and worst steady-state cycle (ms), first cycle (ms), SPI bytes and transactions."""
    rig = make_rig(tags, overhead_us, long_uids)
    scan = FW.scanner.Scanner(rig.readers, settle_us=settle_us)
    scan.start()
    start = rig.clock.ns
    scan.cycle()
    first_ms = (rig.clock.ns - start) / 1e6
    scan.cycle()
    rig.reset_stats()
    times = []
    for _ in range(CYCLES):
        start = rig.clock.ns
        scan.cycle()
        times.append((rig.clock.ns - start) / 1e6)
    stats = rig.stats()
    busy_ms = sum(c.busy_ns for c in rig.chips) / 1e6 / CYCLES
    return {
        "mean": sum(times) / len(times),
        "max": max(times),
        "first": first_ms,
        "bytes": stats["bytes"] / CYCLES,
        "txns": stats["transactions"] / CYCLES,
        "spi_ms": stats["bytes"] * 8 / BAUD * 1e3 / CYCLES,
        "busy_ms": busy_ms,
        "seen": all(len(s) == tags for s in scan.sets()),
    }


class NaiveReader:
    """A reader driven the way common hobby drivers do it (see the module docstring)."""

    def __init__(self, spi, cs_pin, max_polls=2000):
        self.max_polls = max_polls
        self.spi = spi
        self.cs = fake_machine.Pin(cs_pin, fake_machine.Pin.OUT, value=1)

    def _w(self, reg, value):
        self.cs(0)
        self.spi.write(bytes([reg << 1, value]))
        self.cs(1)

    def _r(self, reg):
        buf = bytearray(2)
        self.cs(0)
        self.spi.write_readinto(bytes([0x80 | (reg << 1), 0]), buf)
        self.cs(1)
        return buf[1]

    def _set(self, reg, mask):
        self._w(reg, self._r(reg) | mask)

    def _clear(self, reg, mask):
        self._w(reg, self._r(reg) & ~mask & 0xFF)

    def init(self):
        self._w(0x01, 0x0F)
        fake_utime.sleep_ms(50)
        self._w(0x2A, 0x8D)
        self._w(0x2B, 0x3E)
        self._w(0x2D, 30)
        self._w(0x2C, 0)
        self._w(0x15, 0x40)
        self._w(0x11, 0x3D)
        self._set(0x14, 0x03)  # antenna on, for good

    def _transceive(self, data, last_bits=0):
        self._w(0x01, 0x00)
        self._w(0x04, 0x7F)
        self._set(0x0A, 0x80)
        for byte in data:
            self._w(0x09, byte)
        self._w(0x0D, last_bits)
        self._w(0x01, 0x0C)
        self._set(0x0D, 0x80)
        for _ in range(self.max_polls):
            irq = self._r(0x04)
            if irq & 0x31:
                break
        self._clear(0x0D, 0x80)
        if not irq & 0x20 or self._r(0x06) & 0x1B:
            return None
        n = self._r(0x0A)
        return [self._r(0x09) for _ in range(n)]

    def scan(self):
        if self._transceive([0x26], 7) is None:
            return None
        answer = self._transceive([0x93, 0x20])
        if answer is None or len(answer) != 5:
            return None
        return bytes(answer[:4])


def naive_cycle(tags: int, fresh: bool, overhead_us: float = 0):
    """Mean naive cycle (ms). ``fresh``: every tag starts IDLE at each visit (best case).

    The poll cap is lifted so that, as on a real Pico where one poll takes tens of
    microseconds, an unanswered frame waits for the 15.5 ms timer.
    """
    rig = make_rig(tags, overhead_us)
    readers = [NaiveReader(rig.spi, cs, max_polls=1_000_000) for cs in rig.cs]
    for reader in readers:
        reader.init()
    times = []
    for _ in range(4):
        start = rig.clock.ns
        for r, reader in enumerate(readers):
            if fresh:
                for tag in rig.table.tags:
                    if tag.home is rig.chips[r]:
                        tag.power_on(0)
            reader.scan()
        times.append((rig.clock.ns - start) / 1e6)
    return sum(times) / len(times)


def main() -> None:
    print(f"Scan cycle over {READERS} readers, SPI at {BAUD // 1_000_000} MHz, steady state")
    print(f"over {CYCLES} cycles (pure model: no per-transaction overhead, settle 300 us).")
    print()
    header = (
        f"{'tags/reader':>11} {'mean ms':>8} {'max ms':>7} {'first ms':>9} "
        f"{'SPI B':>7} {'txns':>6} {'SPI ms':>7} {'RF ms':>6} {'naive ms':>9} {'ratio':>6} "
        f"{'naive best':>10} {'ratio':>6}"
    )
    print(header)
    for tags in (0, 1, 3):
        f = firmware_cycle(tags)
        naive = naive_cycle(tags, fresh=False)
        best = naive_cycle(tags, fresh=True)
        print(
            f"{tags:>11} {f['mean']:8.1f} {f['max']:7.1f} {f['first']:9.1f} "
            f"{f['bytes']:7.0f} {f['txns']:6.0f} {f['spi_ms']:7.2f} {f['busy_ms']:6.1f} "
            f"{naive:9.1f} {naive / f['mean']:6.1f} {best:10.1f} {best / f['mean']:6.1f}"
        )
    f = firmware_cycle(1, long_uids=False)
    print(f"{'1 (4-byte)':>11} {f['mean']:8.1f} {f['max']:7.1f} {f['first']:9.1f}")
    print()
    print("Sensitivity, 1 tag per reader (7-byte UIDs): mean / max cycle in ms")
    overheads = (0, 10, 25)
    print(f"{'settle us':>10} " + " ".join(f"{f'+{o} us/txn':>15}" for o in overheads))
    for settle in (0, 300, 500, 1000, 5000):
        cells = []
        for overhead in overheads:
            f = firmware_cycle(1, overhead_us=overhead, settle_us=settle)
            mark = " " if f["seen"] else "!"
            cells.append(f"{f['mean']:6.1f} /{f['max']:6.1f}{mark}")
        print(f"{settle:>10} " + " ".join(f"{c:>15}" for c in cells))
    print("(! = the tags were not seen: the settle time is shorter than the emulated")
    print(f"tags' power-up time of {harness.chip.TAG_BOOT_US} us, an assumption of the model)")
    one = firmware_cycle(1)
    print()
    print("Naive with 3 tags per reader: its anticollision gives up on the collision, so it")
    print("reads no UID at all; its times there are not comparable.")
    print("Target <= 30 ms per cycle, 18 readers with one tag each (pure model): mean")
    print(
        f"{one['mean']:.1f} ms ({'met' if one['mean'] <= 30 else 'missed'}), worst "
        f"{one['max']:.1f} ms in the cycles that audit one long-UID reader "
        f"({'met' if one['max'] <= 30 else 'missed'})."
    )


if __name__ == "__main__":
    main()
