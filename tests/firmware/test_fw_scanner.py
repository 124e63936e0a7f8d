"""The scanner (firmware/scanner.py): change detection, debounce, faults."""

import fake_machine

NTAG = "04A1B2C3D4E5F6"
NTAG_TWIN = "04A1B2C3D4E5F7"
MIFARE = "DEADBEEF"


def make(fw, rig_factory, n=3, **kw):
    rig = rig_factory(n)
    scan = fw.scanner.Scanner(rig.readers, **kw)
    scan.start()
    return rig, scan


def history(scan, cycles, reader):
    """The reader's debounced set after each of ``cycles`` cycles."""
    out = []
    for _ in range(cycles):
        scan.cycle()
        out.append(tuple(scan.sets()[reader]))
    return out


def test_new_tags_are_reported_in_the_cycle_they_appear(fw, rig_factory):
    rig, scan = make(fw, rig_factory)
    assert scan.cycle() == []
    rig.place(1, NTAG)
    rig.place(2, MIFARE)
    rig.place(2, NTAG_TWIN)
    assert scan.cycle() == [1, 2]
    assert scan.sets() == [[], [NTAG], [NTAG_TWIN, MIFARE]]  # sorted as strings
    assert scan.cycle() == []


def test_steady_state_skips_empty_readers_and_confirms_single_tags_cheaply(fw, rig_factory):
    rig, scan = make(fw, rig_factory)
    rig.place(1, MIFARE)
    scan.cycle()
    frames = [c.frames for c in rig.chips]
    scan.cycle()
    assert [c.frames - f for c, f in zip(rig.chips, frames, strict=True)] == [1, 2, 1]


def test_removal_waits_for_debounce_and_is_configurable(fw, rig_factory):
    for debounce in (3, 5):
        rig, scan = make(fw, rig_factory, debounce=debounce)
        tag = rig.place(0, NTAG)
        scan.cycle()
        rig.remove(tag)
        seen = history(scan, debounce + 1, 0)
        assert seen == [(NTAG,)] * (debounce - 1) + [()] * 2


def test_a_flickering_tag_never_flickers_in_the_output(fw, rig_factory):
    rig, scan = make(fw, rig_factory)
    tag = rig.place(0, NTAG)
    scan.cycle()
    changes = []
    for missing in (1, 2, 1, 2, 2):
        rig.remove(tag)
        for _ in range(missing):
            changes += scan.cycle()
        rig.place(0, NTAG)  # same UID back (a new Tag object: it was unpowered)
        tag = rig.table.tags[-1]
        changes += scan.cycle()
    assert changes == []
    assert scan.sets()[0] == [NTAG]


def test_a_tag_leaving_mid_scan_is_dropped_after_debounce_without_flicker(fw, rig_factory):
    rig, scan = make(fw, rig_factory, n=1)
    leaving = rig.place(0, NTAG)
    staying = rig.place(0, MIFARE)
    scan.cycle()
    assert scan.sets()[0] == [NTAG, MIFARE]

    def hook(c, data, nbits):
        if data[0] == 0x93 and leaving in rig.table.tags and nbits > 16:
            rig.remove(leaving)  # during the anticollision of level 1

    rig.table.hooks.append(hook)
    seen = history(scan, 6, 0)
    assert seen == [(NTAG, MIFARE)] * 2 + [(MIFARE,)] * 4
    assert staying in rig.table.tags


def test_a_neighbours_tag_is_only_seen_by_its_own_reader(fw, rig_factory):
    rig, scan = make(fw, rig_factory)
    rig.place(1, NTAG, near=[0, 2])
    for _ in range(3):
        scan.cycle()
    assert scan.sets() == [[], [NTAG], []]


def test_audit_finds_a_second_tag_hidden_behind_the_same_first_answer(fw, rig_factory):
    rig, scan = make(fw, rig_factory, n=1, audit=8)
    rig.place(0, NTAG)
    scan.cycle()
    rig.place(0, NTAG_TWIN)  # same CT + first three bytes: CL1 answers do not collide
    seen = history(scan, 8, 0)
    assert seen[-1] == (NTAG, NTAG_TWIN)
    assert seen[0] == (NTAG,)  # found by the audit, not by the cheap check


def test_a_missing_reader_is_reported_and_recovers(fw, rig_factory):
    rig = rig_factory(2)
    unplugged = rig.chips[1]
    del fake_machine.devices[rig.cs[1]]
    scan = fw.scanner.Scanner(rig.readers)
    scan.start()
    assert scan.faults == [(1, "absent")]
    assert scan.sets() == [[], None]
    fake_machine.attach(rig.cs[1], unplugged)
    rig.place(1, MIFARE)
    for _ in range(fw.scanner.RECHECK_CYCLES + 1):
        scan.cycle()
    assert scan.faults == [(1, "absent"), (1, "ok")]
    assert scan.sets() == [[], [MIFARE]]


def test_a_reader_unplugged_while_running_becomes_faulty(fw, rig_factory):
    rig, scan = make(fw, rig_factory, n=2)
    rig.place(1, MIFARE)
    scan.cycle()
    del fake_machine.devices[rig.cs[1]]
    scan.cycle()
    assert scan.faults == [(1, "absent")]
    assert scan.sets() == [[], None]
