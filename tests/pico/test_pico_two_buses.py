"""The unmodified firmware of a real table on both cores of the emulated RP2040: 19 readers
on hardware/pins.toml's two SPI buses, core 0 scanning SPI0 (the pad and spots 1..9) and
core 1, MicroPython's ``_thread``, SPI1 (spots 10..18). One board for the module, each
test on a clear table with a link of its own (``link``), so any runs alone or in any
order: the two cores scan at once, a four-player PtiPassPass game (its hats 10..12 on SPI1)
played through the real host link, every reader changing at once, core 1 wedged, a tag
lying across two spots of two buses, the watchdog, and ``companion doctor`` finding the
power-up wait a slow tag needs.
"""

from __future__ import annotations

import io
import queue
import re
from collections.abc import Iterator
from itertools import pairwise

import pico_board
import pytest
from conftest import (
    WAIT,
    clear_table,
    connect,
    every_reader_at_once,
    game_reaches_the_same_verdicts,
    stretched_link,
    wait_for_observation,
    watchdog_restarts_once_unfed,
)

from companion.devices import protocol
from companion.devices.doctor import run_doctor
from companion.devices.readers import Observation, ReaderFault, ReaderOk, SpotContents
from companion.devices.serial_link import SerialLink
from companion.games.passpass.referee import PassPassReferee
from companion.games.passpass.sim import make_setup
from companion.journal import ReaderInput, TickInput
from tests.screens import texts_of

pytestmark = pytest.mark.xdist_group("emulated-pico-two-buses")

READERS = 19
SPI1 = pico_board.DEFAULT_SPI1
BOARD = {"spi1": SPI1, "keep_antennas": True}
PLAYERS = 4  # PtiPassPass on a 3 x 4 grid: hats 1..12, 10..12 on SPI1
SEED = 6  # a game of 81 moves, 21 of them on SPI1


def overlap(first: list[tuple[int, int]], second: list[tuple[int, int]]) -> int:
    """How long (ns) a span of ``first`` and one of ``second`` are both open (each list
    sorted, its spans disjoint)."""
    total = i = j = 0
    while i < len(first) and j < len(second):
        (a, b), (c, d) = first[i], second[j]
        total += max(0, min(b, d) - max(a, c))
        if b < d:
            i += 1
        else:
            j += 1
    return total


@pytest.fixture
def link(
    booted: pico_board.EmulatedPico,
) -> Iterator[tuple[SerialLink, queue.Queue[Observation]]]:
    """The test's own link on a table of its own, so that it holds alone and after any
    other of the module (the doctor opens the port itself, the watchdog restarts the
    board, a test may leave tags or core 1 stalled): core 1 let go, every tag taken off
    and read gone, then the companion's link connected afresh (its first snapshot read)."""
    booted.stall(1, False)
    clear_table(booted)
    sl, inbox = connect(booted, READERS)
    yield sl, inbox
    sl.stop()


def test_each_core_scans_its_own_bus_at_the_same_time(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
) -> None:
    """One antenna at a time on each bus, in reader order, and the two buses' antennas on
    together: core 1 runs its half while core 0 runs its own."""
    sl, _ = link
    assert set(SPI1) == set(range(10, READERS))
    sl.send(protocol.conf("stats", 1))
    booted.wait_for(lambda: sl.timing is not None, WAIT, "a T frame")
    booted.wait_for(
        lambda: sum(a.on and a.reader == 0 for a in booted.antennas) >= 6, WAIT, "6 cycles"
    )
    assert sl.timing is not None and sl.timing.buses == (0,) * 10 + (1,) * 9
    on: dict[int, int] = {}  # bus -> since when its antenna has been on
    order: dict[int, list[int]] = {0: [], 1: []}
    spans: dict[int, list[tuple[int, int]]] = {0: [], 1: []}
    with booted.lock:
        antennas = list(booted.antennas)
    for a in antennas:
        bus = booted.buses[a.reader]
        if a.on:
            assert bus not in on, f"two antennas on SPI{bus}"
            on[bus] = a.ns
            order[bus].append(a.reader)
        else:
            spans[bus].append((on.pop(bus), a.ns))
    assert overlap(spans[0], spans[1]) > 0.8 * sum(end - start for start, end in spans[1])
    for bus, readers in order.items():
        mine = [r for r in range(READERS) if booted.buses[r] == bus]
        start = readers.index(mine[0], len(mine))  # past the first cycles' full reads
        cycles = (len(readers) - start) // len(mine)
        assert cycles >= 3
        assert readers[start : start + cycles * len(mine)] == mine * cycles


def test_a_ptipasspass_game_on_both_buses_reaches_the_same_verdicts(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
) -> None:
    game_reaches_the_same_verdicts(booted, link, PLAYERS, SEED, 80)


def test_every_reader_of_both_buses_changes_at_once(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
) -> None:
    every_reader_at_once(booted, *link, READERS)


def test_a_drop_is_reported_with_its_age_before_a_heartbeat_due(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
) -> None:
    """Drops on readers of both buses, one at a time, with a snapshot due every 100 ms:
    each ``S`` frame says how long before it was sent the visit that read the tag sent its
    first frame (emulated time: at most as long as since its antenna came on, within the
    rest of the cycle, the frame's building and its USB packet), the
    link hands that age on, and a snapshot never follows a change in its turn: when one
    was due, it came after the next scan cycle."""
    sl, inbox = link
    sl.replies.clear()
    sl.send(protocol.conf("heartbeat_ms", 100))
    booted.wait_for(
        lambda: protocol.Ok("heartbeat_ms", "100") in list(sl.replies), WAIT, "OK heartbeat_ms"
    )
    due = drops = 0
    lying: list[pico_board.chip.Tag] = []
    with booted.lock:
        after = booted.now_ns
    while due < 2 and drops < 30:
        reader = (drops * 7 + 3) % READERS
        uid = f"04AD{drops:02X}C0FFEE{reader:02X}"
        # Dropped 40 to 99 ms after the last snapshot, so some are read in the turn in
        # which the next one falls due.
        delay = (40 + drops * 13 % 60) * 1_000_000

        def drop(reader: int = reader, uid: str = uid) -> None:
            lying.append(booted.place(reader, uid))

        booted.at(after + delay, drop)

        def dropped(o: Observation, reader: int = reader, uid: str = uid) -> bool:
            return isinstance(o, SpotContents) and o.reader == reader and uid in o.uids

        obs = wait_for_observation(inbox, dropped)
        report = re.compile(
            rb"\d+ S %d [0-9A-F,]*%s[0-9A-F,]* age=(\d+)\*" % (reader, uid.encode())
        )
        with booted.lock:
            found = report.search(bytes(booted.output))
        assert found is not None, bytes(booted.output[-2000:])
        end = found.end()
        booted.wait_for(lambda end=end: booted.sent_at(b" F ", end) is not None, WAIT, "an F")
        with booted.lock:
            out = bytes(booted.output)
            antennas = list(booted.antennas)
        age_ms = int(found[1])
        assert isinstance(obs, SpotContents) and obs.age == age_ms / 1000
        sent = booted.sent_at(found[0], found.start())
        after = booted.sent_at(b" F ", end)
        assert sent is not None and after is not None
        read = max(a.ns for a in antennas if a.reader == reader and a.on and a.ns <= sent)
        # Later than the age says: the settle (the first frame goes out after it), the
        # frame's building, its USB packet, the age's milliseconds rounded down (the host
        # counts the settle that late).
        late = (sent - read) / 1e6 - age_ms
        assert 0 <= late <= 8, (sent - read, age_ms)
        before = [m.start() for m in re.finditer(rb"\d+ F ", out[: found.start()])]
        assert before
        last_full = booted.sent_at(out[before[-1] : before[-1] + 8], before[-1])
        assert last_full is not None
        assert any(a.on and sent < a.ns < after for a in antennas), "F in the S frame's turn"
        due += (sent - last_full) / 1e6 >= 100
        drops += 1
    assert due >= 2, f"no snapshot fell due with a change in {drops} drops"
    sl.replies.clear()
    sl.send(protocol.conf("heartbeat_ms", 1000))
    booted.wait_for(
        lambda: protocol.Ok("heartbeat_ms", "1000") in list(sl.replies), WAIT, "OK heartbeat_ms"
    )
    for tag in lying:
        booted.remove(tag)
    gone = {t.uid.hex().upper() for t in lying}
    seen: dict[int, frozenset[str]] = {}

    def cleared(o: Observation) -> bool:
        if isinstance(o, SpotContents):
            seen[o.reader] = o.uids
        return not any(gone & uids for uids in seen.values()) and len(seen) >= len(
            {(d * 7 + 3) % READERS for d in range(drops)}
        )

    wait_for_observation(inbox, cleared)
    booted.check()


def conf(booted: pico_board.EmulatedPico, sl: SerialLink, key: str, value: int) -> None:
    """``CONF key=value`` over the link, once the board said OK."""
    sl.replies.clear()
    sl.send(protocol.conf(key, value))
    ok = protocol.Ok(key, str(value))
    booted.wait_for(lambda: ok in list(sl.replies), WAIT, f"OK {key}")


COLLECTION_MS = 6.0
"""Shorter than any collection of this firmware's heap on the emulated RP2040 (9 to 12 ms),
longer than the building of any ``S`` or ``F`` frame here (at most 4 ms). The turns
measured carry no ``T`` frame (it took 8 ms when it sorted its windows of timings; about
1 ms now that it selects their medians)."""
HATS_ON_SPI0 = (1, 2, 3, 4, 5)
"""Hats of three on spots 1..5 (SPI0): core 0's half is then longer than core 1's by more
than a collection, as on the default wiring's worst layout."""


def collections_after(booted: pico_board.EmulatedPico, sl: SerialLink) -> tuple[int, int]:
    """Core 1's collections so far and the longest's us: ``gc=<n>/<us>`` of the first ``T``
    frame sent after ``CONF stats=1`` (the ``T`` frames then stop again)."""
    with booted.lock:
        start = len(booted.output)
    conf(booted, sl, "stats", 1)
    word = re.compile(rb" T [^\n]* gc=(\d+)/(\d+)\*")
    booted.wait_for(lambda: word.search(booted.output, start), WAIT, "a T frame")
    conf(booted, sl, "stats", 0)
    with booted.lock:
        found = word.search(booted.output, start)
    assert found is not None
    return int(found[1]), int(found[2])


def test_the_heap_is_collected_by_core1_while_core0_scans(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
) -> None:
    """Snapshots every 100 ms and three tags dropped or lifted on SPI1 every 70 ms allocate
    a few KB a turn: the heap's collections, once 32 KB are due, are made by core 1 once its
    half is scanned (the ``T`` frame counts them and times the longest), while core 0 scans
    its longer half, never between two cycles, where a collection would hold up every
    reader's next visit by its 9 ms: no turn pauses as long as a collection (each such
    collection did, before). The test sets what it relies on (heartbeat, ``stats``), so it
    holds after any other test, and leaves the board's defaults."""
    sl, _ = link
    hats = [booted.place(r, f"04C2{r:02X}{k:02X}C0FFEE") for r in HATS_ON_SPI0 for k in range(3)]
    conf(booted, sl, "heartbeat_ms", 100)
    before, _ = collections_after(booted, sl)  # and no T frame in the turns measured
    with booted.lock:
        begin = len(booted.antennas)
        first = booted.now_ns
    lying: dict[int, pico_board.chip.Tag] = {}
    serial = [0]

    def drop() -> None:
        for _ in range(3):
            serial[0] += 1
            reader = SPI1[serial[0] * 4 % len(SPI1)]
            if reader in lying:
                booted.remove(lying.pop(reader))
            else:
                lying[reader] = booted.place(reader, f"04C1{serial[0]:04X}C0FF{reader:02X}")
        if booted.now_ns < first + 1_500_000_000:
            booted.at(booted.now_ns + 70_000_000, drop)

    booted.at(first + 70_000_000, drop)
    booted.wait_for(lambda: booted.now_ns > first + 1_600_000_000, WAIT * 4, "1.6 s emulated")
    with booted.lock:
        antennas = booted.antennas[begin:]
        sent = list(booted._sent_at)
    count, longest_us = collections_after(booted, sl)  # (its CONFs after the turns measured)
    for tag in [*lying.values(), *hats]:
        booted.remove(tag)
    conf(booted, sl, "heartbeat_ms", 1000)
    assert count - before >= 2  # 32 KB were due twice or more
    assert COLLECTION_MS * 1000 < longest_us < 20_000
    starts = [a.ns for a in antennas if a.on and a.reader == 0]
    core0 = [a.ns for a in antennas if not a.on and a.reader not in SPI1]
    ends = [max(n for n in core0 if n < start) for start in starts[1:]]  # core 0's halves

    paused = []  # (turn, ms) of each turn that paused as long as a collection
    for k in range(len(ends) - 1):
        # From core 0's half to the next: the wait for core 1, then the turn's frames built
        # and sent one USB packet at a time. A collection anywhere in it is one long pause.
        times = [ends[k], *(at for at, _ in sent if ends[k] < at < starts[k + 1]), starts[k + 1]]
        pause = max(b - a for a, b in pairwise(times)) / 1e6
        if pause > COLLECTION_MS:
            paused.append((k, round(pause, 1)))
    assert len(starts) > 12
    assert paused == [], paused
    booted.check()


def test_a_wedged_core1_is_named_and_core0_scans_on(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
) -> None:
    """Core 1 stops where it is: within a second core 0 reports each of its readers
    ``stalled`` (the host's link names the fault), keeps scanning SPI0 and feeding the
    watchdog (no restart); when core 1 goes on, its readers are back."""
    sl, inbox = link
    restarts = len(booted.restarts)
    booted.stall(1)
    faults: set[int] = set()

    def named(o: Observation) -> bool:
        if isinstance(o, ReaderFault) and o.code == "stalled":
            faults.add(o.reader)
        return faults == set(SPI1)

    wait_for_observation(inbox, named, faults=True)
    stalled_at = booted.now_ns
    with booted.lock:
        booted.place(3, "04ABCDEF010203")
        booted.place(12, "04ABCDEF040506")  # core 1's bus: nobody reads it now

    def read(o: Observation) -> bool:
        assert not (isinstance(o, SpotContents) and o.reader in SPI1), o
        return isinstance(o, SpotContents) and o.reader == 3 and "04ABCDEF010203" in o.uids

    wait_for_observation(inbox, read, faults=True)
    booted.wait_for(lambda: booted.now_ns > stalled_at + 2_000_000_000, WAIT, "2 s more")
    frames = protocol.FrameReader().feed(bytes(booted.output))
    snapshots = [r for _, r in frames if isinstance(r, protocol.Full)]
    assert all(snapshots[-1].sets[r] is None for r in SPI1)
    assert len(booted.restarts) == restarts
    booted.stall(1, False)
    back: set[int] = set()

    def recovered(o: Observation) -> bool:
        if isinstance(o, ReaderOk):
            back.add(o.reader)
        return back == set(SPI1) and isinstance(o, SpotContents) and o.reader == 12

    wait_for_observation(inbox, recovered, faults=True)
    assert len(booted.restarts) == restarts
    booted.check()


HATS_OF_TWO = {5: ("04A1B2C3D4E5F6", "04B2C3D4E5F607"), 14: ("04A1B3C3D4E5F6", "04B3C3D4E5F607")}
"""A hat of two long UIDs on a spot of each bus (5 on SPI0, 14 on SPI1)."""
TWINS = {5: "04A1B2C3D4E5F7", 14: "04A1B3C3D4E5F7"}
"""A tag sharing its first three UID bytes with each hat's first: its first anticollision
answer is that tag's, so the hat's walk cannot hear it."""


def test_a_twin_dropped_into_a_hat_is_read_within_two_cycles(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
) -> None:
    """Each bus checks one of its hats' long UIDs a cycle, in turn (the rest of the UID
    read after the walk): with one hat of two on each bus, a twin dropped into either is
    read by the first or second visit of its reader after the drop, on both cores, where
    the hat's audit found it within 32 cycles (about a second)."""
    _, inbox = link
    for reader, uids in HATS_OF_TWO.items():
        for uid in uids:
            booted.place(reader, uid)
    for reader, uids in HATS_OF_TWO.items():
        wait_for_observation(
            inbox,
            lambda o, r=reader, u=uids: (
                isinstance(o, SpotContents) and o.reader == r and set(u) <= o.uids
            ),
        )
    booted.wait_for(  # the hats stable for a few cycles: both checked at least once
        lambda: sum(a.on and a.reader == 0 for a in booted.antennas) >= 6, WAIT, "6 cycles"
    )
    for reader, twin in TWINS.items():
        with booted.lock:
            booted.place(reader, twin)
            dropped = booted.now_ns
            start = len(booted.output)
        wait_for_observation(
            inbox,
            lambda o, r=reader, t=twin: (
                isinstance(o, SpotContents) and o.reader == r and t in o.uids
            ),
        )
        report = re.compile(rb"\d+ S %d [0-9A-F,]*%s" % (reader, twin.encode()))
        with booted.lock:
            found = report.search(bytes(booted.output), start)
            antennas = list(booted.antennas)
        assert found is not None
        sent = booted.sent_at(found[0], found.start())
        assert sent is not None
        starts = [a.ns for a in antennas if a.reader == 0 and a.on]  # each cycle's start
        cycles = {  # the cycles in which the reader's antenna came on (twice in a visit
            # whose check collided: the field powered up again, read by whole UIDs)
            sum(1 for ns in starts if ns <= a.ns)
            for a in antennas
            if a.reader == reader and a.on and dropped < a.ns < sent
        }
        assert 1 <= len(cycles) <= 2, (reader, sorted(cycles))
    booted.check()


def test_a_tag_across_two_spots_of_two_buses_is_one_fault_naming_both(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
) -> None:
    """A tag lies across spot 9 (SPI0, core 0) and spot 10 (SPI1, core 1): each antenna
    alone powers it. The host's link gets both readers faulty, each naming the other,
    and never the tag on both spots at once; a PtiPassPass referee fed those
    faults as the service journals them stops play naming both hats. Set on spot 10
    alone, the tag is there, and spot 9 is empty at once."""
    sl, inbox = link
    setup = make_setup("ptipasspass", PLAYERS, seed=SEED)
    referee = PassPassReferee(setup)
    events: list[dict[str, object]] = []
    uid = "04ACE5C0FFEE09"
    with booted.lock:
        tag = booted.place(9, uid)
    wait_for_observation(inbox, lambda o: isinstance(o, SpotContents) and uid in o.uids)
    with booted.lock:
        booted.remove(tag)
        tag = booted.place(9, uid, across=10)
    faults: dict[int, str] = {}
    # Laid again across both, the tag powers up anew: reader 9 may miss it once and let it
    # go (a moved tag leaves its old spot first), so spot 10 may hold it for a cycle, but
    # the host never sees it on both spots at once.
    held: dict[int, frozenset[str]] = {9: frozenset({uid})}

    def named(o: Observation) -> bool:
        if isinstance(o, SpotContents):
            held[o.reader] = o.uids
            assert not all(uid in held.get(r, frozenset()) for r in (9, 10)), o
        if isinstance(o, ReaderFault):
            faults[o.reader] = o.code
            events.extend(referee.feed(ReaderInput(setup.t + 1, o.reader, False, o.across)))
        return faults == {9: "shared_10", 10: "shared_9"}

    wait_for_observation(inbox, named, faults=True)
    events.extend(referee.feed(TickInput(setup.t + 2)))
    stops = [e for e in events if e["kind"] == "fault"]
    assert stops == [{"t": setup.t + 1, "kind": "fault", "spot": 9, "reason": "across_spots"}]
    shown = " ".join(texts_of(referee.screen, "fr"))
    assert "Chapeaux 9 et 10 : un animal à cheval sur les deux." in shown, shown
    with booted.lock:
        booted.remove(tag)
        booted.place(10, uid)
    seen: dict[int, frozenset[str]] = {}

    def moved(o: Observation) -> bool:
        if isinstance(o, SpotContents):
            seen[o.reader] = o.uids
            assert not (uid in seen.get(9, frozenset()) and uid in seen.get(10, frozenset()))
        return uid not in seen.get(9, {uid}) and uid in seen.get(10, frozenset())

    wait_for_observation(inbox, moved)
    booted.check()


def test_the_watchdog_restarts_both_cores(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
) -> None:
    """The REPL hand-over stops core 1's thread, MicroPython's soft reset resets core 1
    (PSM), the unfed watchdog restarts the board; then core 1 is launched again and
    scans SPI1."""
    sl, inbox = link
    watchdog_restarts_once_unfed(booted, sl, READERS)
    while not inbox.empty():  # the port lost and found again
        inbox.get_nowait()
    with booted.lock:
        booted.place(15, "04ABCDEF070809")
    wait_for_observation(
        inbox,
        lambda o: isinstance(o, SpotContents) and o.reader == 15 and "04ABCDEF070809" in o.uids,
    )
    booted.check()


SLOW_TAG_US = 2000  # a tag that takes 2 ms to power up (the chip model's take 250 us)


def test_the_doctor_finds_the_power_up_wait_a_slow_tag_needs(
    booted: pico_board.EmulatedPico,
    link: tuple[SerialLink, queue.Queue[Observation]],
) -> None:
    """One tag on every reader, the one on spot 14 (SPI1) slow to power up: the doctor's
    search finds the lowest ``settle_us`` at which every tag reads in every cycle, just
    under the slow tag's power-up (the firmware's own time between the antenna coming on
    and its first frame's end makes up the rest), recommends twice it, and gives the
    firmware its settings back."""
    link[0].stop()  # the doctor opens the port itself
    with booted.lock:
        for tag in list(booted.table.tags):
            booted.remove(tag)
        for reader in range(READERS):
            boot = SLOW_TAG_US if reader == 14 else pico_board.chip.TAG_BOOT_US
            booted.place(reader, f"04{reader:02X}5107AA{reader:02X}01", boot_us=boot)
    out = io.StringIO()
    code = run_doctor(
        str(booted.path),
        seconds=1.0,
        restart=False,
        connect_timeout=WAIT,
        out=out,
        make_link=stretched_link,
        find_settle=3,
        step_timeout=WAIT * 5,
    )
    text = out.getvalue()
    assert code == 0, text + booted.output[-3000:].decode(errors="replace")
    found = re.search(r"read every tag: (\d+) µs; recommended: (\d+) µs", text)
    assert found is not None, text
    lowest, recommended = int(found[1]), int(found[2])
    assert SLOW_TAG_US - 500 <= lowest <= SLOW_TAG_US and recommended == 2 * lowest, text
    missed = [int(m) for m in re.findall(r"settle_us (\d+): missed on spot 14\n", text)]
    assert missed and 0 < lowest - max(missed) <= 50, text  # the search's resolution
    assert text.count("missed on") == len(missed), text  # no fast tag ever missed
    frames = protocol.FrameReader().feed(bytes(booted.output))
    oks = [(r.key, r.value) for _, r in frames if isinstance(r, protocol.Ok)]
    assert oks[-3:] == [("debounce", "3"), ("settle_us", "300"), ("heartbeat_ms", "1000")]
    booted.check()
