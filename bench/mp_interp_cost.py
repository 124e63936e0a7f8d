"""Interpreter time of the firmware's reader visits, measured under the real MicroPython.

    .venv/bin/micropython bench/mp_interp_cost.py .

A relative measure, on this machine's unix port: it tells whether a firmware change makes
a visit cheaper, not how long a visit takes on a Pico (the scan model charges the RP2040's
own costs, fitted on the emulated chip by bench/pico_cycle.py).

Runs firmware/scanner.py and mfrc522.py, unchanged, on the MicroPython unix port. Each
scenario (one reader: empty, one tag, a hat of several) is first brought to its steady
state against the emulated chip of tests/firmware/chip.py, and one visit (one
``Scanner.cycle()`` of a one-reader scanner) is recorded: every byte the chip answered.
The visit is then replayed thousands of times with the chip out of the loop: the bus
answers from the recording, chip selects and ``utime`` are C builtins (as they are on the
Pico), so the time measured is the firmware's own. The replayed ``write_readinto`` is the
one Python stand-in left; its cost, less that of a C call, is measured alone and taken
off.

Prints one line per scenario (microseconds per visit on this machine, SPI transactions,
radio frames, of them ANTICOLLISION frames, bytes allocated per visit), a line ``MERGE <us
per cycle>``: what the two-core scanner (firmware/cores.py) adds to each cycle of 19 readers
on core 0 (starting core 1, gathering its changes, visit times and faults; its halves
stubbed out), and a last line ``FIT <us per transaction> <us per frame> <us per visit> <us
per anticollision frame>``: the first is one register write timed alone (the SPI
transaction as the driver makes it), the others the least-squares fit of visit time - that
* transactions = frame * frames + anticollision * anticollision frames + visit
(transactions and frames move together too closely to fit both). An anticollision frame
costs about twice another: the UID is resolved bit by bit, then copied and checked.
"""

import gc
import sys
import time

import micropython

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
sys.path.insert(0, ROOT + "/firmware")
sys.path.insert(0, ROOT + "/tests/firmware/shims")
sys.path.insert(0, ROOT + "/tests/firmware")

import harness  # noqa: E402
from spi_replay import Clock, Recorder, Replay  # noqa: E402

harness.install()

import cores  # noqa: E402
import fake_machine  # noqa: E402
import mfrc522  # noqa: E402
import scanner  # noqa: E402

REPEAT = 5000
ROUNDS = 5  # the fastest round: another process only ever adds time

# (name, UIDs on the reader, whether the visit is the reader's audit: one tag of a hat read
# from scratch, a single long UID selected whole)
SCENARIOS = (
    ("empty", (), False),
    ("1 tag, 4-byte", ("DEADBEEF",), False),
    ("1 tag, 7-byte", ("04A1B2C3D4E5F6",), False),
    ("hat of 2, 7-byte", ("04A1B2C3D4E5F6", "04B2C3D4E5F607"), False),
    ("hat of 3, 7-byte", ("04A1B2C3D4E5F6", "04B2C3D4E5F607", "04C3D4E5F60718"), False),
    ("hat of 3, 4-byte", ("DEADBEEF", "12345678", "CAFEF00D"), False),
    ("audit, 1 tag, 7-byte", ("04A1B2C3D4E5F6",), True),
    ("check, hat of 2, 7-byte", ("04A1B2C3D4E5F6", "04B2C3D4E5F607"), True),
    ("check, hat of 3, 7-byte", ("04A1B2C3D4E5F6", "04B2C3D4E5F607", "04C3D4E5F60718"), True),
)


class NullPin:
    def __init__(self):
        self.value = abs


def per_call_us(func, args, n):
    start = time.ticks_us()
    for _ in range(n):
        func(*args)
    return time.ticks_diff(time.ticks_us(), start) / n


def measure(tags, audit):
    rig = harness.Rig(mfrc522, n=1, overhead_us=0)
    for uid in tags:
        rig.place(0, uid)
    scan = scanner.Scanner(rig.readers, audit=1 if audit else 0)  # 1: every visit audits
    scan.start()
    for _ in range(4):
        scan.cycle()
    reader = rig.readers[0]
    rec = Recorder(rig.spi)
    reader.spi = rec
    rig.reset_stats()
    turn = scan.cycles  # an audit's tag read from scratch turns with the cycle: replay this one
    checked_r, checked_k = scan.check[2], scan.check[3]  # so does the hat tag checked
    scan.cycle()
    txns = fake_machine.stats["transactions"]
    frames = rig.chips[0].frames
    anticollisions = rig.chips[0].anticollisions
    log = rec.log
    replay = Replay(log)
    reader.spi = replay
    reader.cs = NullPin()
    mfrc522.utime = Clock
    scanner.utime = Clock
    try:
        scan.cycles = turn
        scan.check[2] = checked_r
        scan.check[3] = checked_k
        scan.cycle()  # warm up
        replay.i = 0
        total = None
        for _ in range(ROUNDS):
            gc.collect()
            free = gc.mem_free()
            start = time.ticks_us()
            for _ in range(REPEAT):
                replay.i = 0
                scan.cycles = turn
                scan.check[2] = checked_r
                scan.check[3] = checked_k
                scan.cycle()
            took = time.ticks_diff(time.ticks_us(), start)
            total = took if total is None else min(total, took)
            allocated = (free - gc.mem_free()) / REPEAT
    finally:
        mfrc522.utime = harness.fake_utime
        scanner.utime = harness.fake_utime
    # What the stand-in write_readinto cost beyond a C call with two arguments.
    into = [bytearray(len(answer)) for answer in log]
    stub = 0.0
    for k in range(len(log)):
        replay.i = k
        start = time.ticks_us()
        for _ in range(REPEAT):
            replay.i = k
            replay.write_readinto(None, into[k])
        stub += time.ticks_diff(time.ticks_us(), start) / REPEAT
    builtin = per_call_us(min, (1, 2), REPEAT * 10)
    visit = total / REPEAT - stub + builtin * len(log)
    return visit, txns, frames, anticollisions, allocated


@micropython.native
def transaction(cs, spi, data):
    cs.value(0)
    spi.write(data)
    cs.value(1)


@micropython.native
def no_transaction(cs, spi, data):
    pass


class StubHalf:
    """A half that scans nothing: what is left of ``TwoCores.cycle`` is its own work."""

    def __init__(self, n):
        self.readers = [None] * n
        self.visit_us = [1000] * n
        self.faults = []

    def cycle(self):
        return []


def merge_us():
    """Core 0's own time per ``TwoCores.cycle`` of 10 + 9 readers (us, this machine)."""
    numbers = (list(range(10)), list(range(10, 19)))
    two = cores.TwoCores([StubHalf(10), StubHalf(9)], numbers)
    empty = per_call_us(StubHalf(0).cycle, (), REPEAT)
    return per_call_us(two.cycle, (), REPEAT) - 2 * empty


def centred_sum(xs, ys):
    """Sum of (x - mean x) * (y - mean y): one entry of the normal equations."""
    mx = sum(xs) / len(xs)
    my = sum(ys) / len(ys)
    return sum((xs[i] - mx) * (ys[i] - my) for i in range(len(xs)))  # no zip(strict=)


def main():
    rows = []
    for name, tags, audit in SCENARIOS:
        visit, txns, frames, anticollisions, allocated = measure(tags, audit)
        rows.append((visit, txns, frames, anticollisions))
        print(f"VISIT {name:24} {visit:7.2f} us {txns:3d} txns {frames:3d} frames", end="")
        print(f" {anticollisions:2d} anticollisions {allocated:6.1f} B")
    # Per transaction: a register write as the driver makes it, timed alone (builtin bus
    # and pin), less the call that times it.
    args = (NullPin(), Replay([]), b"\x02\x00")
    a = per_call_us(transaction, args, REPEAT * 10) - per_call_us(no_transaction, args, REPEAT * 10)
    # The rest of each visit, least squares for a per-frame, a per-anticollision-frame and a
    # per-visit cost.
    ys = [v - a * t for v, t, _, _ in rows]
    fs = [f for _, _, f, _ in rows]
    gs = [g for _, _, _, g in rows]
    sff, sgg, sfg = centred_sum(fs, fs), centred_sum(gs, gs), centred_sum(fs, gs)
    sfy, sgy = centred_sum(fs, ys), centred_sum(gs, ys)
    det = sff * sgg - sfg * sfg
    b = (sfy * sgg - sgy * sfg) / det
    d = (sgy * sff - sfy * sfg) / det
    n = len(rows)
    c = sum(ys) / n - b * sum(fs) / n - d * sum(gs) / n
    print(f"MERGE {merge_us():.4f}")
    print(f"FIT {a:.4f} {b:.4f} {c:.4f} {d:.4f}")


main()
