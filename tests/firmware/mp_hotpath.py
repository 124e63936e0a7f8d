"""The driver's hot path under the MicroPython unix port (run by test_fw_mp_hotpath.py).

    micropython tests/firmware/mp_hotpath.py <repo root>

Checks, on a real MicroPython, what CPython cannot show: that the steady-state visits of
firmware/mfrc522.py (one tag or a hat confirmed by its first answers, walked; a hat by
WUPA + SELECT + HALT; an empty field), a steady scanner cycle and a hat's audit (one
tag read from scratch) allocate nothing on the heap, that a still table's snapshot
allocates only its frame's bytes, and that the register functions and the frames' CRC
really are compiled to machine code. The visits are recorded
once against the emulated chip, then replayed with the chip out of the loop (the replay
itself allocates nothing). Prints ``MP-HOTPATH ok <n>`` or the failures, and exits 1 on
failure.
"""

import gc
import sys

import micropython

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
sys.path.insert(0, ROOT + "/tests/firmware")

import mp_checks  # noqa: E402

mp_checks.install(ROOT)

import harness  # noqa: E402
import mfrc522  # noqa: E402
import scanner  # noqa: E402
from spi_replay import Clock, Recorder, Replay  # noqa: E402

check = mp_checks.check


def visit_empty(reader):
    reader.begin(300)
    st = reader.scan()
    reader.end()
    return st


def visit_walk(reader, expect, present):
    reader.begin(300)
    st = reader.walk(expect, present)
    reader.end()
    return st


def visit_hat(reader, frames, present):
    reader.begin(300)
    st = reader.confirm(frames, present)
    reader.end()
    return st


def allocated(reader, visit, args, want):
    """Bytes the replayed visit allocates, after checking it gives ``want``."""
    rec = Recorder(reader.spi)
    reader.spi = rec
    check("recorded visit gives " + str(want), visit(reader, *args) == want)
    replay = Replay(rec.log)
    reader.spi = replay
    mfrc522.utime = Clock
    try:
        visit(reader, *args)
        replay.i = 0
        check("replay gives " + str(want), visit(reader, *args) == want)
        gc.collect()
        free = gc.mem_free()
        for _ in range(50):
            replay.i = 0
            visit(reader, *args)
        return free - gc.mem_free()
    finally:
        mfrc522.utime = harness.fake_utime


def test_single_tag_visit_allocates_nothing():
    rig = harness.Rig(mfrc522, n=1)
    tag = rig.place(0, "04A1B2C3D4E5F6")
    reader = rig.readers[0]
    present = [False] * mfrc522.MAX_TAGS
    got = allocated(reader, visit_walk, ([mfrc522.cl1_of(tag.uid)], present), mfrc522.SAME)
    check("the tag heard", present[0])
    check(f"single-tag visit allocates nothing: {got} B", got == 0)


def test_hat_visit_allocates_nothing():
    rig = harness.Rig(mfrc522, n=1)
    uids = ["04A1B2C3D4E5F6", "04B2C3D4E5F607", "DEADBEEF"]
    tags = [rig.place(0, uid) for uid in uids]
    reader = rig.readers[0]
    frames = [mfrc522.select_frames(t.uid) for t in tags]
    present = [False] * mfrc522.MAX_TAGS
    got = allocated(reader, visit_hat, (frames, present), mfrc522.OK)
    check("every tag present", present[:3] == [True, True, True] and not reader.found)
    check(f"hat visit allocates nothing: {got} B", got == 0)


def test_walked_hat_visit_allocates_nothing():
    rig = harness.Rig(mfrc522, n=1)
    uids = ["04A1B2C3D4E5F6", "04B2C3D4E5F607", "DEADBEEF"]
    tags = [rig.place(0, uid) for uid in uids]
    reader = rig.readers[0]
    expect = [mfrc522.cl1_of(t.uid) for t in tags]
    present = [False] * mfrc522.MAX_TAGS
    got = allocated(reader, visit_walk, (expect, present), mfrc522.SAME)
    check("every tag heard", present[:3] == [True, True, True])
    check(f"walked hat visit allocates nothing: {got} B", got == 0)


def test_empty_visit_allocates_nothing():
    rig = harness.Rig(mfrc522, n=1)
    reader = rig.readers[0]
    got = allocated(reader, visit_empty, (), mfrc522.OK)
    check(f"empty visit allocates nothing: {got} B", got == 0)


def steady_hat(uids, audit):
    """A one-reader rig holding ``uids`` and its scanner (``audit``), four cycles on."""
    rig = harness.Rig(mfrc522, n=1)
    for uid in uids:
        rig.place(0, uid)
    scan = scanner.Scanner(rig.readers, audit=audit)
    scan.start()
    for _ in range(4):
        scan.cycle()
    return rig, scan


def test_steady_scanner_cycle_allocates_nothing():
    rig, scan = steady_hat(("04A1B2C3D4E5F6", "04B2C3D4E5F607", "04C3D4E5F60718"), 0)
    scanner.utime = Clock
    try:
        got = allocated(rig.readers[0], lambda reader: len(scan.cycle()), (), 0)
    finally:
        scanner.utime = harness.fake_utime
    check("the hat is stable", len(scan.sets()[0]) == 3)
    check(f"steady cycle allocates nothing: {got} B", got == 0)


def test_a_hats_check_allocates_nothing():
    # a walk, then one tag's check
    rig, scan = steady_hat(("04A1B2C3D4E5F6", "04B2C3D4E5F607", "04C3D4E5F60718"), 32)

    def walk_and_check(reader):
        scan.check[2] = 0  # the same tag's turn at every replay: the recording's
        scan.check[3] = -1
        return len(scan.cycle())

    scanner.utime = Clock
    try:
        got = allocated(rig.readers[0], walk_and_check, (), 0)
    finally:
        scanner.utime = harness.fake_utime
    check("the first tag was checked", scan.check[0] == 0 and scan.check[1] == 0)
    check("the hat is stable", len(scan.sets()[0]) == 3)
    check(f"a hat's walk and check allocate nothing: {got} B", got == 0)


def test_an_audit_of_twins_allocates_nothing():
    # every visit an audit
    rig, scan = steady_hat(("04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "04C3D4E5F60718"), 1)

    def audit(reader):
        scan.cycles = 4  # the same tag's turn at every replay: the recording's
        return len(scan.cycle())

    scanner.utime = Clock
    full_reads = scan.full_reads
    try:
        got = allocated(rig.readers[0], audit, (), 0)
    finally:
        scanner.utime = harness.fake_utime
    # 50 replayed audits, and the 3 visits of recording, warming up and checking the replay
    check("a tag was read from scratch at each audit", scan.full_reads == full_reads + 53)
    check("the hat is stable", len(scan.sets()[0]) == 3)
    check(f"an audit of a hat of twins allocates nothing: {got} B", got == 0)


def with_heap_locked(reader, run, want):
    """Record ``run()``, a visit of ``reader`` that reads a change, against the emulated
    chip, then replay it with the chip out of the loop: the bytes 50 replays leave
    allocated, and what a replay gives with MicroPython's heap locked (any allocation
    raises MemoryError, even one freed again at once)."""
    rec = Recorder(reader.spi)
    reader.spi = rec
    check("recorded visit gives " + str(want), run() == want)
    replay = Replay(rec.log)
    reader.spi = replay
    mfrc522.utime = scanner.utime = Clock
    try:
        run()
        replay.i = 0
        check("replay gives " + str(want), run() == want)
        gc.collect()
        before = gc.mem_alloc()
        for _ in range(50):
            replay.i = 0
            run()
        grew = gc.mem_alloc() - before
        replay.i = 0
        micropython.heap_lock()
        try:
            got = run()
        except MemoryError:
            got = "MemoryError"
        micropython.heap_unlock()
        return grew, got
    finally:
        mfrc522.utime = scanner.utime = harness.fake_utime


HAT = ("04A1B2C3D4E5F6", "04B2C3D4E5F607")
DROPPED = "04C3D4E5F60718"


def test_a_walk_that_reads_a_dropped_tag_allocates_nothing():
    """A tag dropped into a hat: its first answer nobody knows, read whole (anticollision,
    SELECT through its cascade levels) into the bus's own buffer."""
    rig = harness.Rig(mfrc522, n=1)
    expect = [mfrc522.cl1_of(rig.place(0, uid).uid) for uid in HAT]
    rig.place(0, DROPPED)
    reader = rig.readers[0]
    present = [False] * mfrc522.MAX_TAGS
    grew, got = with_heap_locked(reader, lambda: visit_walk(reader, expect, present), mfrc522.OK)
    check("the dropped tag read", [bytes(u) for u in reader.found] == [harness.uid_bytes(DROPPED)])
    check(f"a walk reading a drop allocates nothing: {grew} B", grew == 0)
    check(f"... with the heap locked too: {got}", got == mfrc522.OK)


def test_an_empty_readers_visit_that_reads_a_tag_allocates_nothing():
    rig = harness.Rig(mfrc522, n=1)
    rig.place(0, DROPPED)
    reader = rig.readers[0]
    grew, got = with_heap_locked(reader, lambda: visit_empty(reader), mfrc522.OK)
    check("the tag read", [bytes(u) for u in reader.uids] == [harness.uid_bytes(DROPPED)])
    check(f"an empty reader reading a tag allocates nothing: {grew} B", grew == 0)
    check(f"... with the heap locked too: {got}", got == mfrc522.OK)


def settled_hat(debounce=3):
    rig = harness.Rig(mfrc522, n=1)
    tags = [rig.place(0, uid) for uid in HAT]
    scan = scanner.Scanner(rig.readers, debounce=debounce, audit=0)
    scan.start()
    for _ in range(4):
        scan.cycle()
    check("the hat is stable", scan.set_of(0) == list(HAT))
    return rig, scan, tags


def test_a_scanner_visit_that_reads_a_drop_allocates_nothing():
    """The visit counts the new tag (copied out of the bus's buffer into the scanner's
    own, made once); ``settle``, after the half, makes the new set."""
    rig, scan, _ = settled_hat()
    rig.place(0, DROPPED)
    grew, got = with_heap_locked(rig.readers[0], lambda: len(scan.visit()), 1)
    check(f"a visit reading a drop allocates nothing: {grew} B", grew == 0)
    check(f"... with the heap locked too: {got}", got == 1)
    scan.settle()
    check("settled, the drop is in the set", scan.set_of(0) == sorted(list(HAT) + [DROPPED]))


def test_a_scanner_visit_that_reads_a_lift_allocates_nothing():
    rig, scan, tags = settled_hat(debounce=1)
    rig.remove(tags[0])
    grew, got = with_heap_locked(rig.readers[0], lambda: len(scan.visit()), 1)
    check(f"a visit reading a lift allocates nothing: {grew} B", grew == 0)
    check(f"... with the heap locked too: {got}", got == 1)
    scan.settle()
    check("settled, the lifted tag left the set", scan.set_of(0) == [HAT[1]])


def test_a_still_tables_snapshot_allocates_only_its_frame():
    import main
    import protocol

    rig = harness.Rig(mfrc522, n=3)
    rig.place(0, "04A1B2C3D4E5F6")
    rig.place(2, "DEADBEEF")
    scan = scanner.Scanner(rig.readers, audit=0)
    scan.start()
    for _ in range(4):
        scan.cycle()
    last = [None]

    def keep(frame):
        last[0] = frame

    fw = main.Firmware(scan, keep)
    fw.send_full()
    gc.collect()
    free = gc.mem_free()
    for _ in range(20):
        fw.send_full()
    got = (free - gc.mem_free()) // 20
    frame = last[0]
    check("the snapshot is protocol's", frame == protocol.encode(20, protocol.full(scan.sets())))
    # The frame and the list of sets: 288 B on this 64-bit port, where formatting every
    # reader's set again at each snapshot allocated 1,657 B
    check(f"a snapshot allocates {got} B, its frame {len(frame)} B", got <= 320)


def test_the_frames_crc_is_machine_code():
    import main
    import protocol

    for data in (b"", b"123456789", bytes(range(256)) * 3):
        check("viper crc16 is protocol's", main._crc16(data, len(data)) == protocol.crc16(data))
    check("crc16 is viper", type(main._crc16) is not type(protocol.crc16))


def test_register_functions_are_native():
    plain = type(mfrc522.select_frames)
    check("crc_a is native", type(mfrc522.crc_a) is not plain)
    check("write is native", type(mfrc522.MFRC522.write) is not plain)


mp_checks.run(
    "MP-HOTPATH",
    (
        test_single_tag_visit_allocates_nothing,
        test_hat_visit_allocates_nothing,
        test_walked_hat_visit_allocates_nothing,
        test_empty_visit_allocates_nothing,
        test_steady_scanner_cycle_allocates_nothing,
        test_a_hats_check_allocates_nothing,
        test_an_audit_of_twins_allocates_nothing,
        test_a_walk_that_reads_a_dropped_tag_allocates_nothing,
        test_an_empty_readers_visit_that_reads_a_tag_allocates_nothing,
        test_a_scanner_visit_that_reads_a_drop_allocates_nothing,
        test_a_scanner_visit_that_reads_a_lift_allocates_nothing,
        test_register_functions_are_native,
        test_a_still_tables_snapshot_allocates_only_its_frame,
        test_the_frames_crc_is_machine_code,
    ),
)
