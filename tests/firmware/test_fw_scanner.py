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


def test_the_audit_of_one_long_uid_selects_it_instead_of_reading_it_whole(fw, rig_factory):
    """WUPA, SELECT CL1, SELECT CL2, HLTA, REQA: five frames, where a full read takes seven
    (two anticollision frames more); the cheap visits between take two."""
    rig, scan = make(fw, rig_factory, n=1, audit=8)
    rig.place(0, NTAG)
    frames = []
    for _ in range(16):
        before = rig.chips[0].frames
        scan.cycle()
        frames.append(rig.chips[0].frames - before)
    assert frames == [7] + [2] * 7 + [5] + [2] * 7  # the first read, then audit 8 cycles apart


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


HAT = ["04A1B2C3D4E5F6", "04B2C3D4E5F607", "DEADBEEF"]


def hat(fw, rig_factory, **kw):
    rig, scan = make(fw, rig_factory, n=1, **kw)
    tags = [rig.place(0, uid) for uid in HAT]
    assert scan.cycle() == [0]
    assert scan.sets()[0] == sorted(HAT)
    return rig, scan, tags


def test_a_stable_hat_is_confirmed_by_its_first_answers_not_selected(fw, rig_factory):
    rig, scan, _ = hat(fw, rig_factory, audit=0)
    rig.chips[0].keep_log = True
    reads = scan.full_reads
    assert scan.cycle() == []
    sent = [(e[2][0], e[3]) for e in rig.chips[0].log if e[0] == "tx"]
    # A WUPA, then the level-1 anticollision tree walked: 2 x 3 - 1 frames, each a SEL
    # code and a few known bits; no SELECT (72 bits), no HALT (32), no REQA.
    assert sent[0] == (0x52, 7)
    assert [code for code, _ in sent[1:]] == [0x93] * 5
    assert all(16 <= n < 56 for _, n in sent[1:])
    assert scan.full_reads == reads
    assert scan.sets()[0] == sorted(HAT)


def test_a_hat_holding_twins_is_confirmed_by_select_and_halt(fw, rig_factory):
    """Two tags with one first answer cannot be told apart by it: such a hat is checked
    tag by tag, so one of the twins taken away goes after the debounce."""
    rig, scan = make(fw, rig_factory, n=1, audit=0, debounce=2)
    rig.place(0, NTAG)
    twin = rig.place(0, NTAG_TWIN)
    rig.place(0, MIFARE)
    scan.cycle()
    rig.chips[0].keep_log = True
    assert scan.cycle() == []
    sent = [e[3] for e in rig.chips[0].log if e[0] == "tx"]
    assert sent == [7, 72, 72, 32, 7, 72, 72, 32, 7, 72, 32, 7]  # WUPA, SELECTs, HALT a tag
    rig.remove(twin)
    assert history(scan, 2, 0) == [tuple(sorted([NTAG, NTAG_TWIN, MIFARE])), (NTAG, MIFARE)]


def test_a_tag_taken_from_a_stable_hat_goes_after_the_debounce(fw, rig_factory):
    rig, scan, tags = hat(fw, rig_factory, audit=0, debounce=3)
    rig.remove(tags[1])
    seen = history(scan, 4, 0)
    rest = tuple(sorted([HAT[0], HAT[2]]))
    assert seen == [tuple(sorted(HAT))] * 2 + [rest] * 2


def test_a_tag_dropped_into_a_stable_hat_is_seen_in_the_same_cycle(fw, rig_factory):
    rig, scan, _ = hat(fw, rig_factory, audit=0)
    scan.cycle()
    reads = scan.full_reads
    rig.place(0, "04C3D4E5F60718")
    assert scan.cycle() == [0]
    assert scan.sets()[0] == sorted([*HAT, "04C3D4E5F60718"])
    assert scan.full_reads == reads + 1
    assert scan.cycle() == []


def is_anticollision(frame):
    return frame[2][0] in (0x93, 0x95, 0x97) and frame[2][1] != 0x70  # NVB 0x70: a SELECT


def read_from_scratch(log):
    """The UIDs a visit resolved by anticollision: the SELECTs (72 bits) right after an
    anticollision frame, cascade tags dropped."""
    sent = [entry for entry in log if entry[0] == "tx"]
    uids, parts = [], []
    for before, frame in zip(sent, sent[1:], strict=False):
        if is_anticollision(before) and frame[3] == 72:
            cl = frame[2][2:6]
            parts.append(cl[1:] if cl[0] == 0x88 else cl)
            if cl[0] != 0x88:
                uids.append(b"".join(parts).hex().upper())
                parts = []
    return uids


def checked(log):
    """The UIDs whose rest a visit read after its walk (``MFRC522.check``): a level-1
    SELECT (72 bits) right after a level-1 anticollision frame, then a level-2
    anticollision frame; each as the CL1 bytes of its SELECT."""
    sent = [entry for entry in log if entry[0] == "tx"]
    out = []
    for before, select, after in zip(sent, sent[1:], sent[2:], strict=False):
        if (
            is_anticollision(before)
            and before[2][0] == 0x93
            and select[3] == 72
            and select[2][0] == 0x93
            and is_anticollision(after)
            and after[2][0] == 0x95
        ):
            out.append(bytes(select[2][3:6]).hex().upper())
    return out


def test_a_hats_long_uids_are_read_whole_one_a_cycle_in_turn(fw, rig_factory):
    """After its walk a hat's reader reads the rest of one long UID a cycle (SELECT by its
    first answer, the next level's anticollision), in turn; a 4-byte UID, whole in its
    first answer, never; nothing is selected by its whole UID, nothing halted."""
    rig, scan, _ = hat(fw, rig_factory, audit=4)
    rig.chips[0].keep_log = True
    turns = []
    for _ in range(4):
        rig.chips[0].log = []
        assert scan.cycle() == []
        turns.append(checked(rig.chips[0].log))
        sent = [e[3] for e in rig.chips[0].log if e[0] == "tx"]
        assert 32 not in sent  # no HALT
        assert sent.count(72) == 1  # one SELECT, the check's
    assert turns == [["04A1B2"], ["04B2C3"], ["04A1B2"], ["04B2C3"]]
    assert scan.sets()[0] == sorted(HAT)


def test_a_twin_dropped_into_a_hat_is_found_when_its_tag_is_checked(fw, rig_factory):
    """A tag whose first answer is a known tag's goes unheard by the walk; the check of
    that tag collides with it, and the reader is read by whole UIDs in the same visit."""
    rig, scan = make(fw, rig_factory, n=1, audit=32)
    rig.place(0, NTAG)
    rig.place(0, MIFARE)
    scan.cycle()
    assert scan.cycle() == []
    rig.place(0, NTAG_TWIN)  # answers the CL1 anticollision exactly as NTAG does
    reads = scan.full_reads
    assert scan.cycle() == [0]  # NTAG, the hat's one long UID, is checked every cycle
    assert scan.full_reads == reads + 1
    assert scan.sets()[0] == sorted([NTAG, NTAG_TWIN, MIFARE])


def test_a_twin_in_a_hat_of_two_long_uids_is_found_within_two_cycles(fw, rig_factory):
    """Each long UID is checked every other cycle: a twin of either is found within two;
    with audits off (``audit`` 0), never."""
    for audit, found in ((32, True), (0, False)):
        rig, scan = make(fw, rig_factory, n=1, audit=audit)
        rig.place(0, NTAG)
        rig.place(0, "04B2C3D4E5F607")
        scan.cycle()
        rig.place(0, NTAG_TWIN)  # same first answer as NTAG
        changes = [list(scan.cycle()) for _ in range(2)]
        assert ([0] in changes) is found
        assert (NTAG_TWIN in scan.sets()[0]) is found


def test_no_hat_is_checked_in_a_cycle_holding_an_audit(fw, rig_factory):
    """At most one extra a bus a cycle, so the worst cycle holds one: a long UID's audit
    (five frames where its walk takes two) or a hat tag's check (two frames more), never
    both."""
    rig, scan = make(fw, rig_factory, n=2, audit=4)
    rig.place(0, NTAG)
    rig.place(1, "04B2C3D4E5F607")
    rig.place(1, "04C3D4E5F60718")
    scan.cycle()
    for _ in range(8):
        before = [chip.frames for chip in rig.chips]
        audit = scan.cycles % 4 == 0  # reader 0's turn
        scan.cycle()
        frames = [chip.frames - b for chip, b in zip(rig.chips, before, strict=True)]
        assert frames == ([5, 4] if audit else [2, 6]), (scan.cycles, frames)
    assert scan.sets() == [[NTAG], ["04B2C3D4E5F607", "04C3D4E5F60718"]]


def test_visit_times_are_kept_per_reader_without_a_new_list(fw, rig_factory):
    rig, scan = make(fw, rig_factory, n=3)
    rig.place(1, NTAG)
    visits = scan.visit_us
    scan.cycle()
    start = rig.now_us()
    scan.cycle()
    assert scan.visit_us is visits
    assert all(v > 300 for v in visits)  # each at least the antenna settle
    assert sum(visits) <= rig.now_us() - start
    assert visits[1] > visits[0]  # the tag's anticollision frame
    del fake_machine.devices[rig.cs[2]]
    scan.cycle()
    scan.cycle()
    assert scan.faulty[2] and visits[2] == 0
