"""The firmware main loop (firmware/main.py): frames out, commands in."""

import io
import os

import fake_micropython
import harness
import pytest

NTAG = "04A1B2C3D4E5F6"


@pytest.fixture
def board(fw):
    """The full 19-reader board of pins.py, emulated, its readers on the two buses."""
    return harness.Rig(None, cs=fw.pins.CS, rst=fw.pins.RST, spi1=fw.pins.ON_SPI1)


def reports(fw, frames):
    out = []
    for frame in frames:
        seq, body = fw.protocol.decode(frame)
        out.append((seq, fw.protocol.parse_report(body)))
    return out


def make_firmware(fw, board, **kw):
    scan = fw.scanner.Scanner(fw.main.build_readers())
    scan.start()
    frames = []
    return fw.main.Firmware(scan, frames.append, **kw), frames


def cmd(fw, seq, body):
    return fw.protocol.encode(seq, body)


def test_hello_then_ping_sync_and_conf(fw, board):
    firmware, frames = make_firmware(fw, board)
    firmware.hello()
    firmware.feed(cmd(fw, 1, "PING") + cmd(fw, 2, "SYNC"))
    firmware.step()
    firmware.feed(cmd(fw, 3, "CONF debounce=5") + cmd(fw, 4, "CONF debounce=0"))
    firmware.feed(b"1 PING*0000\n" + cmd(fw, 5, "DANCE"))
    got = [r for _, r in reports(fw, frames)]
    assert got[0] == ("HELLO", 1, fw.main.VERSION, 19)
    assert got[1] == ("PONG",)
    assert got[2] == ("F", [()] * 19)
    assert got[3:] == [
        ("OK", "debounce", "5"),
        ("BAD", "conf debounce"),
        ("BAD", "crc"),
        ("BAD", "cmd"),
    ]
    assert firmware.scan.debounce == 5
    assert [seq for seq, _ in reports(fw, frames)] == list(range(len(frames)))


def test_commands_split_across_reads_and_noise_lines(fw, board):
    firmware, frames = make_firmware(fw, board)
    data = b"\r\n" + b"x" * 5000 + b"\n" + cmd(fw, 9, "PING")
    for i in range(len(data)):
        firmware.feed(data[i : i + 1])
    assert [r for _, r in reports(fw, frames)] == [("BAD", "frame"), ("PONG",)]


def test_changes_become_s_frames_and_heartbeat_is_at_least_once_a_second(fw, board):
    firmware, frames = make_firmware(fw, board)
    start_ms = board.clock.ns // 1_000_000
    board.place(5, NTAG)
    firmware.step()
    got = reports(fw, frames)
    assert ("S", 5, (NTAG,)) in [r for _, r in got]
    full_times = []
    while board.clock.ns // 1_000_000 - start_ms < 3500:
        before = len(frames)
        firmware.step()
        if any(f.split(b" ")[1] == b"F" for f in frames[before:]):
            full_times.append(board.clock.ns // 1_000_000)
    gaps = [b - a for a, b in zip(full_times, full_times[1:], strict=False)]
    assert len(full_times) >= 3
    assert max(gaps) <= 1100  # one second plus at most one scan cycle


def test_a_stray_ctrl_c_is_garbage_and_the_loop_goes_on(fw, board):
    """0x03 on the link is a stray byte like any other: its line is refused, no more."""
    firmware, frames = make_firmware(fw, board)
    assert firmware.feed(b"12") is True
    assert firmware.feed(b"\x03") is True
    assert firmware.feed(b"\n\x03\x03" + cmd(fw, 1, "PING")) is True
    assert firmware.feed(cmd(fw, 2, "PING")) is True
    got = [r for _, r in reports(fw, frames)]
    assert got == [("BAD", "frame"), ("BAD", "frame"), ("PONG",)]


def test_only_a_framed_repl_command_leaves_the_loop(fw, board):
    firmware, frames = make_firmware(fw, board)
    assert firmware.feed(b"1 REPL*0000\n") is True  # a bad CRC hands nothing over
    assert firmware.feed(cmd(fw, 2, "REPL") + cmd(fw, 3, "PING")) is False
    got = [r for _, r in reports(fw, frames)]
    assert got == [("BAD", "crc"), ("OK", "repl", "1")]  # nothing after the hand-over


def test_run_answers_ping_and_sync_over_a_pipe(fw, board):
    read_fd, write_fd = os.pipe()
    os.write(write_fd, cmd(fw, 0, "PING") + cmd(fw, 1, "SYNC"))
    out = io.BytesIO()
    board.place(2, NTAG)
    with os.fdopen(read_fd, "rb", buffering=0) as stdin:
        fw.main.run(stdin=stdin, stdout=out, max_cycles=3)
        got = [r for _, r in reports(fw, out.getvalue().splitlines(keepends=True))]
        assert got[0][0] == "HELLO"
        assert got[1:3] == [("PONG",), ("S", 2, (NTAG,))]
        assert got[3][0] == "F" and got[3][1][2] == (NTAG,)
        assert fake_micropython.kbd_intr_char == 3  # restored on the way out
        os.write(write_fd, b"\x03" + cmd(fw, 2, "PING"))
        os.close(write_fd)
        firmware = fw.main.run(stdin=stdin, stdout=out, max_cycles=10)
    assert firmware.scan.cycles == 10  # a stray Ctrl-C does not end the loop
    assert fake_micropython.kbd_intr_char == 3


def test_run_hands_over_to_the_repl_on_the_framed_command(fw, board):
    read_fd, write_fd = os.pipe()
    os.write(write_fd, cmd(fw, 0, "REPL") + cmd(fw, 1, "PING"))
    out = io.BytesIO()
    with os.fdopen(read_fd, "rb", buffering=0) as stdin:
        firmware = fw.main.run(stdin=stdin, stdout=out, max_cycles=10)
    os.close(write_fd)
    assert firmware.scan.cycles == 0  # left at once, so mpremote can reach the REPL
    assert fake_micropython.kbd_intr_char == 3  # Ctrl-C is a keyboard interrupt again
    got = [r for _, r in reports(fw, out.getvalue().splitlines(keepends=True))]
    assert [r[0] for r in got] == ["HELLO", "OK"]
    # The watchdog cannot be stopped on the RP2040: a timer keeps feeding it at the REPL.
    wdt = fw.machine.WDT.made[-1]
    timer = fw.machine.Timer.made[-1]
    fed = wdt.feeds
    timer.fire()
    assert wdt.feeds == fed + 1 and timer.period_ms < wdt.timeout_ms


# ---- the watchdog ------------------------------------------------------------------------------
def test_run_feeds_the_watchdog_once_per_cycle(fw, board):
    read_fd, write_fd = os.pipe()
    os.close(write_fd)
    with os.fdopen(read_fd, "rb", buffering=0) as stdin:
        fw.main.run(stdin=stdin, stdout=io.BytesIO(), max_cycles=7)
    wdt = fw.machine.WDT.made[-1]
    assert wdt.timeout_ms == fw.main.WATCHDOG_MS
    assert wdt.feeds == 7 and not wdt.starved()


def test_a_stalled_loop_does_not_feed_the_watchdog(fw, board, monkeypatch):
    """A scan cycle that hangs (here: the emulated clock runs on past the timeout inside
    it) gets no feed: the RP2040 would restart the firmware."""
    cycle = fw.scanner.Scanner.cycle
    calls = []

    def stalling(self, *safe):
        calls.append(1)
        if len(calls) == 3:
            fw.machine.clock.ns += (fw.main.WATCHDOG_MS + 1) * 1_000_000
        return cycle(self, *safe)

    monkeypatch.setattr(fw.scanner.Scanner, "cycle", stalling)
    read_fd, write_fd = os.pipe()
    os.close(write_fd)
    with os.fdopen(read_fd, "rb", buffering=0) as stdin:
        fw.main.run(stdin=stdin, stdout=io.BytesIO(), max_cycles=5)
    assert fw.machine.WDT.made[-1].starved()


def test_the_watchdog_timeout_is_far_above_the_slowest_cycle_and_within_the_rp2040(fw):
    """bench/README.md's slowest modelled cycle (3 tags on each of 18 readers, charged
    x200) is 411 ms; the RP2040's watchdog counts at most 8388 ms."""
    assert 10 * 411 <= fw.main.WATCHDOG_MS <= 8388


def test_run_keeps_scanning_when_input_ends(fw, board):
    read_fd, write_fd = os.pipe()
    os.close(write_fd)
    out = io.BytesIO()
    with os.fdopen(read_fd, "rb", buffering=0) as stdin:
        firmware = fw.main.run(stdin=stdin, stdout=out, max_cycles=5)
    assert firmware.scan.cycles == 5


# ---- the firmware's own timings (T frames) ------------------------------------------------------
def figures(samples):
    """min/median/max as the firmware computes them (median of an even count: the mean of
    the two middle samples, rounded down)."""
    held = sorted(samples)
    n = len(held)
    mid = n // 2
    median = held[mid] if n % 2 else (held[mid - 1] + held[mid]) // 2
    return (held[0], median, held[-1])


def timed_steps(firmware, board, count):
    """Run ``count`` steps; the emulated duration (us, as ``ticks_us`` sees it) of each."""
    spans = []
    for _ in range(count):
        start = board.clock.ns // 1000
        firmware.step()
        spans.append(board.clock.ns // 1000 - start)
    return spans


def test_no_timing_frame_unless_the_pi_asks(fw, board):
    """A host that predates T never gets one: the heartbeat stays as it was."""
    firmware, frames = make_firmware(fw, board)
    firmware.feed(cmd(fw, 0, "SYNC"))
    timed_steps(firmware, board, 40)
    kinds = [r[0] for _, r in reports(fw, frames)]
    assert "F" in kinds and "T" not in kinds


def test_timing_frame_follows_every_snapshot_with_the_cycle_figures(fw, board):
    firmware, frames = make_firmware(fw, board)
    board.place(3, NTAG)
    board.place(7, "DEADBEEF")
    firmware.feed(cmd(fw, 0, "CONF stats=1"))
    spans = timed_steps(firmware, board, 12)  # no heartbeat falls due in 12 cycles
    firmware.feed(cmd(fw, 1, "SYNC"))
    spans += timed_steps(firmware, board, 1)
    got = [r for _, r in reports(fw, frames)]
    assert got[0] == ("OK", "stats", "1")
    kinds = [r[0] for r in got]
    assert kinds[-2:] == ["F", "T"] and kinds.count("T") == kinds.count("F") == 1
    timing = got[-1]
    # The cycle that sends the snapshot is timed before it is sent: all 13 are in.
    assert timing[1:3] == (13, figures(spans))
    # The first cycle reads the two new tags in full: it is the slowest.
    assert timing[2][2] == spans[0] > timing[2][1]
    # Every reader is visited every cycle, when the Scanner times its visits.
    timed = getattr(firmware.scan, "visit_us", None) is not None
    assert timing[3] == (min(13 * 19, fw.main.VISIT_WINDOW) if timed else 0)


def test_timing_window_is_bounded_and_slides(fw, board):
    firmware, frames = make_firmware(fw, board)
    firmware.feed(cmd(fw, 0, "CONF stats=1"))
    board.place(4, NTAG)
    spans = timed_steps(firmware, board, fw.main.CYCLE_WINDOW + 30)
    ring = firmware.cycle_us.ring
    firmware.feed(cmd(fw, 1, "SYNC"))
    spans += timed_steps(firmware, board, 1)
    timing = [r for _, r in reports(fw, frames)][-1]
    assert timing[0] == "T"
    assert timing[1:3] == (fw.main.CYCLE_WINDOW, figures(spans[-fw.main.CYCLE_WINDOW :]))
    assert firmware.cycle_us.ring is ring and len(ring) == fw.main.CYCLE_WINDOW


def test_visits_timed_by_the_scanner_are_reported(fw, board):
    """With a Scanner that keeps ``visit_us`` (the agreed interface), T carries visits."""

    class TimedScanner(fw.scanner.Scanner):
        def cycle(self):
            self.visit_us = [0] * self.n
            return super().cycle()

        def scan_reader(self, r):
            start = fw.utime.ticks_us()
            changed = super().scan_reader(r)
            self.visit_us[r] = fw.utime.ticks_diff(fw.utime.ticks_us(), start)
            return changed

    scan = TimedScanner(fw.main.build_readers())
    scan.start()
    frames = []
    firmware = fw.main.Firmware(scan, frames.append)
    board.place(0, NTAG)
    firmware.feed(cmd(fw, 0, "CONF stats=1"))
    visits = []
    for _ in range(20):
        firmware.step()
        visits += [us for us in scan.visit_us if us]
    firmware.feed(cmd(fw, 1, "SYNC"))
    firmware.step()
    visits += [us for us in scan.visit_us if us]
    timing = [r for _, r in reports(fw, frames)][-1]
    window = fw.main.VISIT_WINDOW
    assert len(visits) == 21 * 19 > window
    assert timing[3:] == (window, figures(visits[-window:]))
    empty_visit, tag_visit = timing[4][0], timing[4][2]
    assert tag_visit > empty_visit  # the reader with a tag costs more than an empty one


def test_a_scan_setting_empties_the_window_and_stats_0_stops_the_frames(fw, board):
    firmware, frames = make_firmware(fw, board)
    firmware.feed(cmd(fw, 0, "CONF stats=1"))
    timed_steps(firmware, board, 5)
    firmware.feed(cmd(fw, 1, "CONF settle_us=1000"))
    assert firmware.cycle_us.count == 0
    spans = timed_steps(firmware, board, 3)
    firmware.feed(cmd(fw, 2, "SYNC"))
    spans += timed_steps(firmware, board, 1)
    timing = [r for _, r in reports(fw, frames)][-1]
    assert timing[1:3] == (4, figures(spans))
    assert timing[2][0] > 19 * 1000  # 19 readers, each settling 1 ms now
    firmware.feed(cmd(fw, 3, "CONF stats=0") + cmd(fw, 4, "SYNC"))
    before = len(frames)
    firmware.step()
    assert [r[0] for _, r in reports(fw, frames[before:])] == ["F"]


@pytest.mark.parametrize(
    ("samples", "want"),
    [([5], (5, 5, 5)), ([9, 1, 4, 6], (1, 5, 9)), ([3, 3, 8], (3, 3, 8))],
)
def test_window_figures(fw, samples, want):
    window = fw.main.Window(8)
    assert window.figures() is None
    for us in samples:
        window.add(us)
    assert window.figures() == want
    for us in range(100, 110):  # ten more: only the last eight are held
        window.add(us)
    assert (window.count, window.figures()) == (8, (102, 105, 109))


def test_window_add_all_skips_unvisited_readers_and_wraps(fw):
    window = fw.main.Window(4)
    window.add_all([0, 500, None, 700])
    assert (window.count, window.figures()) == (2, (500, 600, 700))
    window.add_all([100, 0, 200, 300, 0])  # wraps: 300 takes the place of 500
    assert (window.count, window.figures()) == (4, (100, 250, 700))
    window.add_all([900])  # and 900 that of 700
    assert window.figures() == (100, 250, 900)


def across_frames(fw, board, firmware, frames, steps):
    """Run ``steps`` (cycle number -> action on the board) for 10 cycles; the reports."""
    for cycle in range(10):
        if cycle in steps:
            steps[cycle]()
        firmware.step()
    return [r for _, r in reports(fw, frames)]


def test_a_tag_across_two_spots_is_one_fault_naming_both_never_two_tokens(fw, board):
    """A tag lying across spots 3 and 4 is read by both readers, visit after visit: the
    firmware reports both faulty, each naming the other, and never the tag on spot 4
    while spot 3 holds it; once it lies on spot 4 alone, both are back, it on spot 4."""
    firmware, frames = make_firmware(fw, board)
    tags = {}

    def put():
        tags["it"] = board.place(3, NTAG)

    def straddle():
        board.remove(tags["it"])
        tags["it"] = board.place(3, NTAG, across=4)

    def settle_on_4():
        board.remove(tags["it"])
        board.place(4, NTAG)

    got = across_frames(fw, board, firmware, frames, {0: put, 2: straddle, 5: settle_on_4})
    assert got[0] == ("S", 3, (NTAG,))
    back = got.index(("E", 3, "ok"))
    assert set(got[1:back]) == {("E", 3, "shared_4"), ("E", 4, "shared_3")}
    assert got[back:] == [("E", 3, "ok"), ("E", 4, "ok"), ("S", 3, ()), ("S", 4, (NTAG,))]
    firmware.send_full()
    assert reports(fw, frames)[-1][1] == ("F", [()] * 4 + [(NTAG,)] + [()] * 14)


def never_on_two_spots(got):
    """Each S frame against the sets reported so far: no tag on two readers at once."""
    held = {}
    for report in got:
        if report[0] == "S":
            held[report[1]] = set(report[2])
            others = [r for r in held if r != report[1] and held[r] & held[report[1]]]
            assert not others, (report, got)


@pytest.mark.parametrize("back_on", [None, 4, 3])
def test_a_tag_across_two_spots_lifted_mid_visit_is_never_on_both(fw, board, back_on):
    """The tag across spots 3 and 4 is lifted: for a visit or more neither reader reads it
    while both still hold it (debounced). The fault stands until it is read on one spot
    alone (laid back on 4, or on 3) or both let it go (lifted for good): never two
    tokens, and the spot it lies on holds it."""
    firmware, frames = make_firmware(fw, board)
    tags = {}

    def straddle():
        tags["it"] = board.place(3, NTAG, across=4)

    def lift():
        board.remove(tags["it"])

    def lay():
        if back_on is not None:
            board.place(back_on, NTAG)

    got = across_frames(fw, board, firmware, frames, {0: straddle, 3: lift, 5: lay})
    assert set(got[:2]) == {("E", 3, "shared_4"), ("E", 4, "shared_3")}
    never_on_two_spots(got)
    assert got[2:4] == [("E", 3, "ok"), ("E", 4, "ok")]
    want = {3: (), 4: ()} if back_on is None else {3: (), 4: (), back_on: (NTAG,)}
    assert {r[1]: r[2] for r in got[4:] if r[0] == "S"} == want, got


def test_a_tag_held_back_for_a_cycle_then_missed_by_both_is_never_on_both(fw, board):
    """Spot 4 reads spot 3's tag in the cycle spot 3 last read it, then neither reads it
    for a visit (a hand moving it), then spot 4 alone: spot 4's frame waits until then."""
    firmware, frames = make_firmware(fw, board)
    tags = {"it": board.place(3, NTAG)}
    firmware.step()
    board.remove(tags["it"])
    tags["it"] = board.place(3, NTAG, across=4)
    firmware.step()  # both read it: spot 4's frame held

    def lift():
        board.remove(tags["it"])

    got = across_frames(fw, board, firmware, frames, {0: lift, 1: lambda: board.place(4, NTAG)})
    never_on_two_spots(got)
    assert ("S", 4, (NTAG,)) in got and got[-1] != ("S", 3, (NTAG,))
    assert not [r for r in got if r[0] == "E"], got


def test_a_tag_moved_from_spot_to_spot_is_no_fault(fw, board):
    """A hand moves a tag from spot 3 to spot 4 between two cycles: spot 3 misses it
    before spot 4 reads it, so nothing is held back and no fault is raised."""
    firmware, frames = make_firmware(fw, board)
    tags = {}

    def put():
        tags["it"] = board.place(3, NTAG)

    def move():
        board.remove(tags["it"])
        board.place(4, NTAG)

    got = across_frames(fw, board, firmware, frames, {0: put, 3: move})
    assert got == [("S", 3, (NTAG,)), ("S", 3, ()), ("S", 4, (NTAG,))]  # in the same turn


def test_a_tag_seen_on_two_readers_for_one_cycle_only_is_held_back_not_a_fault(fw, board):
    """Spot 4 reads a tag in the very cycle spot 3 last read it (a hand quick between the
    two visits): its frame waits a cycle, then goes out as a move; no fault."""
    firmware, frames = make_firmware(fw, board)
    tags = {"it": board.place(3, NTAG)}
    firmware.step()
    firmware.step()
    tags["it"].home.table.remove(tags["it"])
    board.place(3, NTAG, across=4)  # both read it this cycle...
    firmware.step()
    assert [r for _, r in reports(fw, frames)][-1] == ("S", 3, (NTAG,))  # nothing new yet
    for tag in list(board.table.tags):
        board.remove(tag)
    board.place(4, NTAG)  # ...then only spot 4
    for _ in range(4):
        firmware.step()
    got = [r for _, r in reports(fw, frames)]
    assert got == [("S", 3, (NTAG,)), ("S", 3, ()), ("S", 4, (NTAG,))]


def test_an_s_frame_carries_how_long_ago_its_visit_read_it_once_asked(fw, board):
    """``CONF age=1``: each ``S`` says how many ms before it was sent the visit that saw
    the change sent its first frame (the tag lay there by then), so the Pi counts the
    settle from the reading. Reader 1 is visited early, reader 18 last: reader 1's
    change waited every later visit of the cycle."""
    firmware, frames = make_firmware(fw, board)
    board.place(0, NTAG)
    firmware.step()  # not asked: as before ages, three words
    assert ("S", 0, (NTAG,)) in [r for _, r in reports(fw, frames)]
    firmware.feed(cmd(fw, 0, "CONF age=1"))
    assert reports(fw, frames)[-1][1] == ("OK", "age", "1")
    del frames[:]
    board.place(1, "04A1B2C3D4E5F7")
    board.place(18, "04A1B2C3D4E5F8")
    firmware.step()
    visits = firmware.scan.visit_us
    ages = {r[1]: r[3] for _, r in reports(fw, frames) if r[0] == "S"}
    assert set(ages) == {1, 18}
    settle = firmware.scan.settle_us
    own = (visits[18] - settle) / 1000  # sent at once after the last visit: its own length
    assert own - 1 <= ages[18] <= own + 1
    assert own >= 2  # a new tag read whole: dated by its visit's end, it would be 0
    between = sum(visits[1:18]) / 1000  # from reader 1's visit to reader 18's
    assert between - 1 <= ages[1] - ages[18] <= between + 1
    assert ages[1] >= 10  # 17 visits of at least 0.6 ms each: no age from the wrong end


def test_a_heartbeat_waits_for_a_turn_without_changes_at_most_a_second(fw, board):
    """A snapshot falling due in a turn that sends ``S`` frames goes in the next quiet
    turn, after them; while every turn has changes, it is at most
    ``HEARTBEAT_POSTPONE_MS`` late."""
    firmware, frames = make_firmware(fw, board)
    firmware.step()  # the first heartbeat is not due yet
    board.clock.ns += 1_000_000_000  # now it is
    del frames[:]
    board.place(4, NTAG)
    firmware.step()
    kinds = [r[0] for _, r in reports(fw, frames)]
    assert kinds == ["S"]  # the change alone: the heartbeat waits
    firmware.step()
    assert [r[0] for _, r in reports(fw, frames)] == ["S", "F"]
    # Every turn with a change: a tag on a new reader each turn, for 4.5 seconds.
    start_ms = board.clock.ns // 1_000_000
    full_times = [start_ms]
    turn = 0
    lying = {}
    while board.clock.ns // 1_000_000 - start_ms < 4500:
        turn += 1
        reader = turn % 18 + 1
        if reader in lying:
            board.remove(lying[reader])
        lying[reader] = board.place(reader, f"04{turn:04X}C3D4E5F6")
        before = len(frames)
        firmware.step()
        sent = [r[0] for _, r in reports(fw, frames[before:])]
        assert sent[0] == "S"
        if "F" in sent:
            full_times.append(board.clock.ns // 1_000_000)
    gaps = [b - a for a, b in zip(full_times, full_times[1:], strict=False)]
    assert len(full_times) >= 3
    limit = 1000 + fw.main.HEARTBEAT_POSTPONE_MS + 100  # and a scan cycle
    assert max(gaps) <= limit
    assert min(gaps) >= 1000 + fw.main.HEARTBEAT_POSTPONE_MS  # it did wait


def test_a_snapshot_while_a_frame_is_held_shows_what_the_pi_was_told(fw, board):
    """Spot 4 reads spot 3's tag in the cycle spot 3 still reads it: spot 4's ``S`` frame
    waits a cycle. A snapshot sent meanwhile (a SYNC, a heartbeat) gives spot 4 as the Pi
    knows it, not its waiting set: the snapshot never puts the tag on both spots."""
    firmware, frames = make_firmware(fw, board)
    tag = board.place(3, NTAG)
    firmware.step()
    board.remove(tag)
    board.place(3, NTAG, across=4)
    firmware.step()  # both read it: spot 4's frame held
    firmware.send_full()
    snapshot = [r for _, r in reports(fw, frames)][-1]
    assert snapshot == ("F", [()] * 3 + [(NTAG,)] + [()] * 15)


def test_frames_built_in_place_are_the_protocols_own(fw, board):
    """``S`` and ``F`` frames are built from each reader's remembered text in a buffer the
    firmware keeps: byte for byte what protocol.encode makes of protocol.state and
    protocol.full, ages included, and a set that changed is formatted again (a snapshot
    after a change shows it, never the text of before)."""
    firmware, frames = make_firmware(fw, board)
    p = fw.protocol
    firmware.ages = True
    firmware.step()
    firmware.send_full()
    seq, _ = p.decode(frames[-1])
    assert frames[-1] == p.encode(seq, p.full([[]] * 19))
    board.place(3, NTAG)
    board.place(7, "DEADBEEF")
    board.place(7, "04B2C3D4E5F607")
    firmware.step()
    states = [f for f in frames if b" S " in f]
    assert len(states) == 2
    for frame, reader, uids in (
        (states[0], 3, [NTAG]),
        (states[1], 7, ["04B2C3D4E5F607", "DEADBEEF"]),
    ):
        seq, body = p.decode(frame)
        age = int(body.rsplit("=", 1)[1])
        assert frame == p.encode(seq, p.state(reader, uids, age))
    firmware.send_full()
    seq, _ = p.decode(frames[-1])
    sets = [[]] * 19
    sets[3], sets[7] = [NTAG], ["04B2C3D4E5F607", "DEADBEEF"]
    assert frames[-1] == p.encode(seq, p.full(sets))
    firmware.send_full()  # unchanged: the same body again, the next sequence number
    assert frames[-1] == p.encode(seq + 1, p.full(sets))
