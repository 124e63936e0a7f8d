"""The MFRC522 driver (firmware/mfrc522.py) against emulated chips and tags."""

import chip
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

NTAG = "04A1B2C3D4E5F6"
NTAG_TWIN = "04A1B2C3D4E5F7"  # same first three UID bytes: no collision before CL2
MIFARE = "DEADBEEF"
LONG = "04112233445566778899"


def read(fw, rig, reader=0, settle_us=300):
    """One identification with the antenna on, as the scanner does it."""
    r = rig.readers[reader]
    r.antenna(True)
    fw.utime.sleep_us(settle_us)
    status, uids = r.identify()
    r.antenna(False)
    return status, sorted(u.hex().upper() for u in uids)


def test_init_configures_a_300_us_timer_and_100_percent_ask(fw, rig_factory):
    rig = rig_factory(1)
    c = rig.chips[0]
    assert rig.readers[0].version() == 0x92
    assert c.timeout_ns() == 300_000
    assert c.regs[chip.T_MODE] & 0x80  # TAuto
    assert c.regs[chip.TX_ASK] == 0x40
    assert c.regs[chip.COLL] & 0x80 == 0  # ValuesAfterColl cleared
    assert not c.field_on


def test_empty_field_costs_about_one_timer_period(fw, rig_factory):
    rig = rig_factory(1, overhead_us=0)
    reader = rig.readers[0]
    reader.antenna(True)
    start = rig.clock.ns
    assert reader.identify() == (fw.mfrc522.OK, [])
    elapsed_us = (rig.clock.ns - start) / 1000
    # WUPA (7 bits, 85 us) then the 300 us timer, and a poll or two around its end.
    assert 385 < elapsed_us < 450
    assert rig.chips[0].timeouts == 1


def test_an_answer_still_arrives_within_the_300_us_timer(fw, rig_factory):
    """ISO/IEC 14443-3 FDT is 86-91 us: every kind of answer beats a 300 us timer."""
    rig = rig_factory(1)
    rig.place(0, NTAG)
    assert read(fw, rig) == (fw.mfrc522.OK, [NTAG])
    assert rig.chips[0].timeouts == 1  # only the final REQA, after the HALT


@pytest.mark.parametrize("uid", [MIFARE, NTAG, LONG])
def test_one_tag_of_each_uid_size(fw, rig_factory, uid):
    rig = rig_factory(1)
    rig.place(0, uid)
    assert read(fw, rig) == (fw.mfrc522.OK, [uid])


def test_uids_never_include_cascade_tag_or_bcc(fw, rig_factory):
    rig = rig_factory(1)
    rig.place(0, "88A1B2C3D4E5F6")  # a 7-byte UID may itself start with 0x88
    status, uids = read(fw, rig)
    assert uids == ["88A1B2C3D4E5F6"]


@pytest.mark.parametrize(
    "uids",
    [
        [],
        [NTAG],
        [NTAG, MIFARE, LONG],
        [NTAG, NTAG_TWIN, MIFARE],
        ["00000001", "00000000", "80000000"],  # collisions on the first and the last bit
    ],
)
def test_enumerates_every_tag_in_one_field(fw, rig_factory, uids):
    rig = rig_factory(1)
    for uid in uids:
        rig.place(0, uid)
    assert read(fw, rig) == (fw.mfrc522.OK, sorted(uids))
    if len(uids) > 1:
        assert rig.chips[0].collisions > 0  # the tags really collided on the air


uid_st = st.one_of(
    st.binary(min_size=4, max_size=4).filter(lambda b: b[0] != 0x88),
    st.binary(min_size=7, max_size=7),
    st.binary(min_size=10, max_size=10),
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(uid_st, min_size=1, max_size=6, unique=True))
def test_collision_resolution_finds_any_set_of_tags(fw, rig_factory, uids):
    rig = rig_factory(1)
    for uid in uids:
        rig.place(0, uid)
    status, got = read(fw, rig)
    assert status == fw.mfrc522.OK
    assert got == sorted(u.hex().upper() for u in uids)


def test_a_tag_leaving_mid_scan_gives_a_partial_read_not_a_crash(fw, rig_factory):
    rig = rig_factory(1)
    leaving = rig.place(0, NTAG)
    rig.place(0, MIFARE)

    def hook(c, data, nbits):
        if nbits == 72 and data[0] == 0x95:  # SELECT at cascade level 2: only the NTAG
            rig.remove(leaving)

    rig.table.hooks.append(hook)
    status, uids = read(fw, rig)
    assert status in (fw.mfrc522.OK, fw.mfrc522.PARTIAL)
    assert NTAG not in uids
    rig.table.hooks.clear()
    assert read(fw, rig) == (fw.mfrc522.OK, [MIFARE])


def test_antenna_off_means_silence_and_a_neighbours_tag_is_not_seen(fw, rig_factory):
    rig = rig_factory(2)
    rig.place(0, NTAG, near=[1])  # under reader 0, close enough to hear reader 1
    r1 = rig.readers[1]
    r1.antenna(True)
    fw.utime.sleep_us(300)
    assert r1.identify() == (fw.mfrc522.OK, [])  # reader 0's field is off: tag unpowered
    # Only if reader 0 radiated at the same time would reader 1 see it (cross-talk).
    rig.readers[0].antenna(True)
    fw.utime.sleep_us(300)
    status, uids = r1.identify()
    assert [u.hex().upper() for u in uids] == [NTAG]
    rig.readers[0].antenna(False)
    r1.antenna(False)
    rig.place(0, MIFARE)
    r0 = rig.readers[0]
    assert r0.identify() == (fw.mfrc522.OK, [])  # antenna off: nobody answers


def test_halted_tags_ignore_reqa_but_wake_on_wupa(fw, rig_factory):
    rig = rig_factory(1)
    rig.place(0, NTAG)
    r = rig.readers[0]
    r.antenna(True)
    fw.utime.sleep_us(300)
    assert r.identify()[0] == fw.mfrc522.OK  # ends with the tag halted
    assert r.request(False) == fw.mfrc522.TIMEOUT
    assert r.request(True) == fw.mfrc522.OK


def test_crc_a_matches_the_chip_coprocessor_and_the_hlta_vector(fw, rig_factory):
    rig = rig_factory(1)
    assert fw.mfrc522.crc_a(b"\x50\x00", 2) == 0xCD57  # HLTA is 50 00 57 CD
    for data in (b"\x93\x70\x88\x04\xa1\xb2\x9f", b"\x00", bytes(range(20))):
        assert rig.readers[0].chip_crc(data, len(data)) == fw.mfrc522.crc_a(data, len(data))


def test_missing_reader_is_stuck_within_a_bounded_time(fw, rig_factory):
    rig = rig_factory(1, init=False)
    from fake_machine import Pin

    ghost = fw.mfrc522.MFRC522(rig.spi, Pin(40, Pin.OUT, value=1))  # nothing on CS 40
    assert ghost.version() == 0
    start = rig.clock.ns
    assert ghost.identify() == (fw.mfrc522.STUCK, [])
    assert (rig.clock.ns - start) / 1000 < 6000


def test_chip_without_timer_cannot_hang_the_wait_loop(fw, rig_factory):
    rig = rig_factory(1)
    rig.chips[0].regs[chip.T_MODE] = 0  # no TAuto: no TimerIRq will ever come
    r = rig.readers[0]
    r.antenna(True)
    start = rig.clock.ns
    assert r.request(True) == fw.mfrc522.STUCK
    assert (rig.clock.ns - start) / 1000 < r.timeout_us + 5000


def walk(fw, rig, known, settle_us=300):
    """One ``walk`` over the tags of ``known`` (hex UIDs), antenna on as the scanner has it:
    its status, which of them answered, and the tags it found beyond them."""
    r = rig.readers[0]
    expect = [fw.mfrc522.cl1_of(bytes.fromhex(uid)) for uid in known]
    present = [None] * fw.mfrc522.MAX_TAGS
    r.antenna(True)
    fw.utime.sleep_us(settle_us)
    status = r.walk(expect, present)
    r.antenna(False)
    return status, present[: len(known)], sorted(u.hex().upper() for u in r.found)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(uid_st, min_size=2, max_size=6, unique_by=lambda u: bytes(u[:3])), st.data())
def test_a_walk_hears_every_known_tag_in_the_field_and_no_more(fw, rig_factory, uids, data):
    """Any set of tags whose first answers differ: each one in the field answers, each one
    taken away is missed, in 2n - 1 anticollision frames, none selected or halted."""
    known = [u.hex().upper() for u in uids]  # no 4-byte UID starts with 0x88 (the CT)
    there = data.draw(st.lists(st.booleans(), min_size=len(known), max_size=len(known)))
    rig = rig_factory(1)
    for uid, placed in zip(known, there, strict=True):
        if placed:
            rig.place(0, uid)
    rig.chips[0].keep_log = True
    status = fw.mfrc522.SAME if all(there) else fw.mfrc522.OK  # OK: read, some missing
    assert walk(fw, rig, known) == (status, there, [])
    sent = [entry[2] for entry in rig.chips[0].log if entry[0] == "tx"]
    # No SELECT (NVB 0x70) and no HALT (50 00): an anticollision frame asking 16 known bits
    # is as long as a HALT, so frames are told apart by their bytes, not their length.
    assert not [frame for frame in sent if frame[:2] == b"\x50\x00" or frame[1:2] == b"\x70"]
    assert len(sent) == 1 + max(0, 2 * sum(there) - 1)  # the WUPA, then the walk


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(uid_st, min_size=1, max_size=6, unique_by=lambda u: bytes(u[:3])), st.data())
def test_a_walk_reads_every_tag_it_does_not_know_whole(fw, rig_factory, uids, data):
    """Whichever tags are known, those in the field but not known are read whole, alone,
    and the known ones still answer."""
    every = [u.hex().upper() for u in uids]
    known = data.draw(st.lists(st.sampled_from(every), unique=True))
    rig = rig_factory(1)
    for uid in every:
        rig.place(0, uid)
    status, present, found = walk(fw, rig, known)
    new = sorted(set(every) - set(known))
    assert (status, present, found) == (fw.mfrc522.SAME if not new else fw.mfrc522.OK,
                                        [True] * len(known), new)  # fmt: skip


def test_a_single_tag_is_confirmed_by_its_one_answer(fw, rig_factory):
    rig = rig_factory(1)
    rig.place(0, MIFARE)
    frames = rig.chips[0].frames
    assert walk(fw, rig, [MIFARE]) == (fw.mfrc522.SAME, [True], [])
    assert rig.chips[0].frames - frames == 2  # WUPA and one anticollision
    rig.place(0, "DEADBEEE")  # a second tag: the answers collide, the new one is read
    assert walk(fw, rig, [MIFARE]) == (fw.mfrc522.OK, [True], ["DEADBEEE"])


def test_a_twin_answers_a_walk_as_its_known_tag_does(fw, rig_factory):
    """Why the scanner audits a walked reader now and then: a tag whose first answer equals
    a known one's (its first three UID bytes) is not heard."""
    rig = rig_factory(1)
    for uid in (NTAG, MIFARE, NTAG_TWIN):
        rig.place(0, uid)
    assert walk(fw, rig, [NTAG, MIFARE]) == (fw.mfrc522.SAME, [True, True], [])


def test_of_two_unknown_twins_a_walk_reads_one(fw, rig_factory):
    """Two new tags behind one first answer: the walk reads one of them, selected by it;
    the other waits for the reader's audit, as any twin does."""
    rig = rig_factory(1)
    for uid in (NTAG, NTAG_TWIN, MIFARE):
        rig.place(0, uid)
    status, present, found = walk(fw, rig, [MIFARE])
    assert (status, present) == (fw.mfrc522.OK, [True])
    assert found in ([NTAG], [NTAG_TWIN])


def test_a_tag_leaving_mid_walk_is_missed_not_a_crash(fw, rig_factory):
    """The first answers collide at their second bit: NTAG's and LONG's (0x88, the CT)
    against MIFARE's (0xDE). MIFARE leaves after that, before its side is asked."""
    rig = rig_factory(1)
    rig.place(0, NTAG)
    leaving = rig.place(0, MIFARE)
    rig.place(0, LONG)
    frames = []

    def hook(c, data, nbits):
        frames.append(nbits)
        if len(frames) == 3:  # the WUPA, the walk's first frame, then the CT's side
            rig.remove(leaving)

    rig.table.hooks.append(hook)
    timeouts = rig.chips[0].timeouts
    assert walk(fw, rig, [NTAG, MIFARE, LONG]) == (fw.mfrc522.OK, [True, False, True], [])
    assert rig.chips[0].timeouts == timeouts + 1  # MIFARE's side: nobody answers


MAP_SIZES = (0, 2, 4, 6, 8, 10, 12, 17, 23, 29, 37, 47, 59, 73, 97, 127)
"""The sizes MicroPython's hash maps grow through (py/map.c, v1.28), only once full."""


def test_the_objects_of_a_visit_leave_their_attribute_maps_room(fw, rig_factory):
    """Each ``self.x`` on the RP2040 is a hash lookup in the instance's map, and each method
    call a lookup that misses there first: a miss probes to an empty slot, and a map grows
    only once full, so an object whose attributes nearly fill its map pays on every call
    (four attributes more on the driver cost 1 ms a cycle of 19 empty readers on the
    emulated RP2040). The driver and the scanner keep a fifth of their maps free."""
    rig = rig_factory(1)
    for obj in (rig.readers[0], fw.scanner.Scanner(rig.readers)):
        count = len(vars(obj))
        size = min(s for s in MAP_SIZES if s >= count)
        assert size - count >= size // 5, (type(obj).__name__, count, size)
