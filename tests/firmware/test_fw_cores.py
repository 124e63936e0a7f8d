"""The two-core scanner (firmware/cores.py): the same table as one scanner, reader for reader,
with each half on its own SPI bus, in step or on a real second thread."""

import _thread
import threading
from array import array

import fake_machine
import harness

NTAG = "04A1B2C3D4E5F6"
MIFARE = "DEADBEEF"
N = 6
ON_SPI1 = (3, 4, 5)


def two_cores(fw, rig, on_spi1=ON_SPI1):
    scan = fw.main.build_scan(rig.readers, on_spi1)
    scan.start()
    return scan


def play(rig, scan, cycles=8):
    """Tags arrive on both buses, one leaves a hat on bus 1: every cycle's changes and sets."""
    out = []
    tags = {}
    for cycle in range(cycles):
        if cycle == 1:
            tags["pad"] = rig.place(0, NTAG)
            tags["far"] = rig.place(4, MIFARE)
        if cycle == 2:
            for k in range(3):
                tags[k] = rig.place(5, f"04{k:02X}B2C3D4E5F6")
        if cycle == 4:
            rig.remove(tags[1])
        out.append((list(scan.cycle()), scan.sets()))  # the next cycle refills the list
    return out


def one_scanner_plays(fw):
    """What one ``Scanner`` over all N readers on one bus reports, cycle by cycle."""
    one = harness.Rig(fw.mfrc522, n=N)
    alone = fw.scanner.Scanner(one.readers)
    alone.start()
    return play(one, alone)


def test_two_halves_report_what_one_scanner_reports(fw):
    expected = one_scanner_plays(fw)
    split = harness.Rig(fw.mfrc522, n=N, spi1=ON_SPI1)
    scan = two_cores(fw, split)
    assert scan.buses == "000111"
    assert play(split, scan) == expected
    assert expected[1][0] == [0, 4] and expected[2][0] == [5]
    assert len(expected[-1][1][5]) == 2  # the removed tag left after the debounce


def test_each_half_only_ever_uses_its_own_bus(fw):
    """The fake board raises when two chips are selected on one bus; a reader of the
    second half on bus 0 would be found by the first frame."""
    rig = harness.Rig(fw.mfrc522, n=N, spi1=ON_SPI1)
    scan = two_cores(fw, rig)
    assert [r.spi.id for r in scan.readers] == [0, 0, 0, 1, 1, 1]
    assert all(r.spi is rig.readers[3].spi for r in scan.parts[1].readers)
    # the two cores fill and read transfer buffers at the same time: one set per bus
    first, second = scan.parts[0].readers[0], scan.parts[1].readers[0]
    assert first._frame.obj is not second._frame.obj and first.rx.obj is not second.rx.obj
    assert first._qbuf is not second._qbuf
    assert first.rx.obj is scan.parts[0].readers[2].rx.obj


def test_faults_and_visit_times_carry_the_table_reader_numbers(fw):
    rig = harness.Rig(fw.mfrc522, n=N, spi1=ON_SPI1)
    del fake_machine.devices[rig.cs[4]]  # unplugged: its VersionReg reads 0x00
    scan = two_cores(fw, rig)
    assert scan.faults == [(4, "absent")]
    rig.place(3, NTAG)
    scan.cycle()
    assert scan.sets()[4] is None and scan.sets()[3] == [NTAG]
    assert scan.visit_us[4] == 0 and all(scan.visit_us[r] > 0 for r in (0, 1, 2, 3, 5))


def test_conf_reaches_both_halves(fw):
    rig = harness.Rig(fw.mfrc522, n=N, spi1=ON_SPI1)
    scan = two_cores(fw, rig)
    frames = []
    firmware = fw.main.Firmware(scan, frames.append)
    for key, value in (("debounce", 5), ("settle_us", 400), ("audit", 7), ("timeout_us", 500)):
        firmware.feed(fw.protocol.encode(1, f"CONF {key}={value}"))
    assert [p.debounce for p in scan.parts] == [5, 5]
    assert [p.settle_us for p in scan.parts] == [400, 400]
    assert [p.audit for p in scan.parts] == [7, 7]
    assert {r.timeout_us for r in scan.readers} == {500}


class Core1:
    """CPython's ``_thread`` as the second core, joinable."""

    def __init__(self):
        self.thread = None

    def __call__(self, function, args):
        self.thread = threading.Thread(target=function, args=args, daemon=True)
        self.thread.start()


def test_core1_on_a_real_thread_gives_the_same_cycles_and_stops(fw):
    expected = one_scanner_plays(fw)
    rig = harness.Rig(fw.mfrc522, n=N, spi1=ON_SPI1)
    scan = two_cores(fw, rig)
    core1 = Core1()
    scan.start_core1(core1)
    try:
        assert play(rig, scan) == expected
    finally:
        scan.stop_core1()
    core1.thread.join(timeout=10)
    assert not core1.thread.is_alive()


def test_a_core1_that_raises_is_reported_and_core0_scans_on(fw):
    """Core 1's thread raising ends its half for good: its readers are reported faulty
    (``crashed``, unknown in the snapshots), core 0's go on being scanned, and no exception
    leaves the loop (it would restart the board, and the next run would raise again)."""
    rig = harness.Rig(fw.mfrc522, n=N, spi1=ON_SPI1)
    scan = two_cores(fw, rig)

    def broken():
        raise OSError(5, "SPI bus fault")

    scan.parts[1].cycle = broken
    scan.start_core1(_thread.start_new_thread)
    assert scan.cycle() == []
    assert scan.lost == fw.cores.CRASHED and "SPI bus fault" in repr(scan.core1_error)
    assert scan.faults == [(r, "crashed") for r in ON_SPI1]
    scan.faults.clear()
    rig.place(1, NTAG)
    rig.place(4, MIFARE)
    assert scan.cycle() == [1]
    assert scan.sets() == [[], [NTAG], [], None, None, None]
    assert scan.faults == [] and scan.visit_us[4] == 0


class Stuck:
    """Core 1's half that hangs (``STALL_MS`` and more go by) until ``go`` is set."""

    def __init__(self, fw, part):
        self.fw = fw
        self.cycle = part.cycle
        self.go = threading.Event()
        self.stuck = True

    def __call__(self):
        if self.stuck:
            self.stuck = False
            self.fw.utime.sleep_ms(self.fw.cores.STALL_MS + 1)
            self.go.wait(timeout=10)
        return self.cycle()


def test_a_stalled_core1_is_reported_and_taken_back_when_it_finishes(fw):
    rig = harness.Rig(fw.mfrc522, n=N, spi1=ON_SPI1)
    scan = two_cores(fw, rig)
    rig.place(4, MIFARE)
    stuck = Stuck(fw, scan.parts[1])
    scan.parts[1].cycle = stuck
    gc = WatchedGc(scan)
    core1 = Core1()
    scan.start_core1(core1, gc)
    try:
        assert scan.cycle() == []  # core 0 stops waiting once STALL_MS went by
        assert scan.lost == fw.cores.STALLED and gc.auto  # core 1 runs no Python now
        assert scan.faults == [(r, "stalled") for r in ON_SPI1]
        scan.faults.clear()
        rig.place(0, NTAG)
        assert scan.cycle() == [0]  # core 0's bus goes on
        assert scan.sets()[3:] == [None, None, None]
        assert gc.during[-1]  # core 1 runs no Python: collection is automatic throughout
        stuck.go.set()
        core1.thread.join(timeout=0.5)  # it finishes the cycle it hung in, then parks
        while scan._counters[1] != scan._counters[0]:
            pass
        changed = scan.cycle()
        assert scan.lost is None and gc.auto
        assert scan.faults == [(r, "ok") for r in ON_SPI1]
        assert changed == [4] and scan.sets()[4] == [MIFARE]
        scan.cycle()
        assert not gc.during[-1]  # lockstep again: off while the halves are scanned
    finally:
        scan.stop_core1()
    core1.thread.join(timeout=10)


def test_the_timing_frame_says_which_bus_scans_each_reader(fw):
    rig = harness.Rig(fw.mfrc522, n=N, spi1=ON_SPI1)
    scan = two_cores(fw, rig)
    frames = []
    firmware = fw.main.Firmware(scan, frames.append)
    firmware.feed(fw.protocol.encode(1, "CONF stats=1"))
    firmware.step()
    firmware.send_full()
    body = fw.protocol.decode(frames[-1])[1]
    assert body.startswith("T cycles=1 ") and body.endswith(" buses=000111 gc=0/0")


class WatchedGc:
    """MicroPython's ``gc`` as the two cores use it: automatic collection must be off
    whenever a half is being scanned (core 1 runs then), and on between cycles, with a
    threshold. No ``mem_free``: asking walks the whole heap (8.9 ms on an RP2040)."""

    def __init__(self, scan):
        self.auto = True
        self.threshold_bytes = -1
        self.during = []  # ``auto`` whenever a half's scan started
        self.probes = []  # (threshold, core 0 at a safe point) whenever collection was turned on
        self.flags = scan._safe  # 2: scanner.GRANTED
        for part in scan.parts:
            part.visit = self.watched(part.visit)

    def watched(self, visit):
        def run(*safe):
            self.during.append(self.auto)
            return visit(*safe)

        return run

    def disable(self):
        self.auto = False

    def enable(self):
        self.auto = True
        self.probes.append((self.threshold_bytes, self.flags[0] == 2))

    def isenabled(self):
        return self.auto

    def threshold(self, amount):
        self.threshold_bytes = amount

    def collect(self):
        raise AssertionError("the cores never collect by hand")


def test_collection_is_automatic_between_cycles_and_off_inside_them(fw):
    """MicroPython collects by itself once enough was allocated, but never while a half
    is scanned: between cycles, where core 0 builds the frames and core 1 is parked, at a
    backstop threshold; and on core 1 once its half is scanned, for one allocation, at the
    lower threshold at which a collection is due, core 0 at a safe point."""
    rig = harness.Rig(fw.mfrc522, n=N, spi1=ON_SPI1)
    scan = two_cores(fw, rig)
    gc = WatchedGc(scan)
    core1 = Core1()
    scan.start_core1(core1, gc)
    due = fw.cores.COLLECT_DUE
    assert gc.threshold_bytes == fw.cores.GC_THRESHOLD > due
    try:
        for cycle in range(6):
            if cycle == 2:
                rig.place(4, MIFARE)
            scan.cycle()
            assert gc.auto  # between cycles: the frames may collect
            assert gc.threshold_bytes == fw.cores.GC_THRESHOLD
        assert len(gc.during) == 12 and not any(gc.during)
        # after core 1's half, only while core 0 still scans (a safe point between visits)
        assert all(granted for threshold, granted in gc.probes if threshold == due)
    finally:
        scan.stop_core1()
    core1.thread.join(timeout=10)
    assert gc.auto


def test_core0_grants_a_safe_point_only_with_a_collections_time_left(fw):
    """Core 1 asks for a safe point once its half is scanned; core 0 grants it before its
    next visit only if what is left of its half (its last half's length, which it writes
    in ``safe[2]``, less the time spent) covers a collection (``safe[1]``, the longest
    core 1 timed): one that outlasted core 0's half would hold up the next cycle."""
    rig = harness.Rig(fw.mfrc522, n=4)
    for r in range(4):
        rig.place(r, f"04A1B2C3D4E5{r:02X}")
    part = fw.scanner.Scanner(rig.readers)
    part.start()
    safe = array("i", [0, 0, 0])
    part.visit(safe)
    half = safe[2]
    assert half > 1000  # four readers' visits, on the rig's clock (us)
    for needed, answer in ((half // 2, fw.scanner.GRANTED), (half * 2, fw.scanner.NOT_NOW)):
        safe[0], safe[1] = fw.scanner.ASKED, needed
        part.visit(safe)
        assert safe[0] == answer, (needed, half)
