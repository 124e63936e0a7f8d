"""Two scanners, one per SPI bus, run by the RP2040's two cores in lockstep.

A scan cycle is mostly waiting: for the antenna to settle, for frames on the air. One core
visiting 19 readers in turn cannot meet a 30 ms cycle once MicroPython's own time is
counted (bench/README.md), so the readers are wired on two buses (hardware/pins.toml,
``pico.readers.spi1``) and each core scans its own bus. The rp2 port of MicroPython runs a
``_thread`` on core 1 with no global interpreter lock: the two halves really run at once.

``TwoCores`` looks like one ``scanner.Scanner`` over every reader (reader numbers are the
table's), so ``main.Firmware`` needs no change. Each ``cycle()`` starts core 1's half,
scans core 0's half, then waits for core 1: a lockstep barrier on two counters in an
``array`` (a word store each, no lock, no allocation). Between cycles core 1 is parked, so
core 0 may read and configure both halves (``sets``, ``faults``, CONF) without locks:
nothing is ever touched by both cores at once. Each half has its own ``Scanner`` state,
and the driver gives each bus its own transfer buffers (``mfrc522._buffers_of``).

``start_core1()`` starts the thread; without it (tests, or a board with one bus) each
``cycle()`` runs the second half itself after the first, with the same results.

Core 1 may be lost: its thread raised (a bug, a bus error: ``CRASHED``), or it has not
finished its half ``STALL_MS`` after core 0 finished its own (a wedged core: ``STALLED``).
Core 0 never waits longer: it reports every reader of core 1's bus as faulty with that
code (``E <reader> stalled``, ``?`` in the snapshots), and goes on scanning its own bus and
feeding the watchdog, so the Pi names the fault instead of watching a board restart for
ever. A stalled core 1 that finishes its half later is taken back (``E <reader> ok``, or
``absent`` for a reader that was). While core 1 is lost, collection is automatic
throughout: it does not run Python, so a collection cannot pull objects from under it.

Collection. With no global lock, a collection started by one core while the other moves
references about could free an object in use, so automatic collection is off during each
cycle and on between cycles (where core 0 builds the frames, what allocates), with a
threshold (``gc.threshold``) so MicroPython collects long before the heap is full. A
collection marks the whole live heap, 9 to 12 ms on an RP2040 (bench/README.md,
pico_cycle.py): between cycles it delays every reader's next visit, so a tag dropped then
is read that much later. So the collection is made on core 1, once its half is scanned,
when it is due (``_collect_if_due``: ``COLLECT_DUE`` bytes allocated since the last): core
0 scans on meanwhile, and on the worst layouts (the longer half on core 0) it is over
before core 0's half is, so no reader's next visit is any later. (Made at the start of core
1's half, it would push every visit of that half a collection later: the emulated board
showed it.) Core 1 first asks core 0 for a safe point (``Scanner.visit``'s ``safe``), which
core 0 grants between two visits when at least a collection's time is left of its half
(its last half's length, less the time spent; the collection's, the longest core 1 timed),
and refuses otherwise (the collection waits for a cycle with time to spare: one that
outlasted core 0's half would hold up the next cycle, as the emulated board showed in 2
turns of 300): there it holds no object that only its registers reference (what its stack
holds is marked). Core 0's visits allocate nothing, even one that reads a
change (scanner.py), so none waits for the collection; the bookkeeping of its changes
(``Scanner.settle``) is made once core 1 is parked again, after the cycle. Between
cycles the threshold is ``GC_THRESHOLD``, a backstop above ``COLLECT_DUE`` that a turn's
frames never reach. While core 1 is lost (above) it asks for none. The firmware never asks
how much is free: ``gc.mem_free()`` walks the whole heap's allocation table, 8.9 ms on an
RP2040. (Collecting by hand every so many cycles, as this firmware first did, let a table
with slow cycles or frequent snapshots fill the heap between two collections and stop with
a MemoryError: the emulated RP2040's two cores showed it.)
"""

from array import array

import scanner
import utime

_GO = 0  # core 0 counts the cycles it started
_DONE = 1  # core 1 counts the cycles it finished
_STOP = -1
STALL_MS = 1000
"""How long core 0 waits, once its half is done, for core 1's: ten times the longest half a
table can legitimately take (three tags on each of nine readers, settle_us at its 20 ms
limit: 0.3 s on the emulated RP2040), and well under the watchdog's 8 s."""
STALLED = "stalled"
CRASHED = "crashed"
COLLECT_DUE = 32768
"""Bytes allocated since the last collection after which core 1 collects, once its half of
a cycle is scanned. The firmware holds about 100 KB of the RP2040's 240 KB heap: a change and
its ``S`` frame allocate about 1.5 KB, a heartbeat a few KB."""
COLLECTION_GUESS_US = 10000
"""How long core 1's collection may take until it has timed one (9 to 12 ms on the emulated
RP2040): core 0 grants a safe point only with that much of its half left."""
COLLECTED_US = 1000
"""A probe that took longer collected: one that did not takes some 20 us; a collection of
this firmware's heap, 9 to 12 ms on the emulated RP2040."""
GC_THRESHOLD = 2 * COLLECT_DUE
"""The threshold of MicroPython's own collection between cycles (on core 0, in the
frames' building): a backstop only, as core 1 collects at ``COLLECT_DUE``."""


def _collect_if_due(gc):
    """Collect now if ``COLLECT_DUE`` bytes were allocated since the last collection:
    MicroPython keeps that count but does not show it, so one small allocation with
    automatic collection on at that threshold lets it decide (core 0 keeps it off during
    the cycle; it sees the backstop again afterwards)."""
    auto = gc.isenabled()  # off in lockstep; on while core 0 thinks core 1 lost
    gc.threshold(COLLECT_DUE)
    gc.enable()
    bytearray(1)  # collects first when due
    if not auto:
        gc.disable()
    gc.threshold(GC_THRESHOLD)


def _both(name):
    """A setting of both halves: read from the first, written to each (a CONF)."""

    def get(self):
        return getattr(self.parts[0], name)

    def put(self, value):
        for part in self.parts:
            setattr(part, name, value)

    return property(get, put)


class TwoCores:
    """The readers of ``parts[0]`` and ``parts[1]`` (``Scanner`` objects), where reader
    ``i`` of part ``p`` is table reader ``numbers[p][i]``."""

    def __init__(self, parts, numbers):
        self.parts = parts
        self.numbers = numbers
        self.n = len(numbers[0]) + len(numbers[1])
        self.readers = [None] * self.n
        self._where = [None] * self.n  # table reader -> (part, its index there)
        for p in range(2):
            for i in range(len(numbers[p])):
                self.readers[numbers[p][i]] = parts[p].readers[i]
                self._where[numbers[p][i]] = (p, i)
        self.visit_us = [0] * self.n
        self.changed = []  # what ``cycle`` returns, refilled every cycle: no allocation
        self.faults = []
        self.buses = "".join(["1" if r in numbers[1] else "0" for r in range(self.n)])
        """Which bus (and core) scans each reader, for the ``T`` frame."""
        self._counters = array("i", [0, 0])
        # Core 1 asks core 0 for a safe point to collect at (``Scanner.visit``'s ``safe``):
        # the handshake, how long a collection may take (the longest so far), core 0's half.
        self._safe = array("i", [0, COLLECTION_GUESS_US, 0])
        self.collected = array("i", [0, 0])
        """Collections core 1 made, and the longest (us): the ``T`` frame's ``gc=``."""
        self._threaded = False
        self.lost = None  # STALLED or CRASHED while core 1 is lost
        self._gc = None
        self.core1_error = None

    # ---- what main.Firmware sets and reads, forwarded to both halves ---------------------------
    @property
    def cycles(self):
        return self.parts[0].cycles

    debounce = _both("debounce")
    settle_us = _both("settle_us")
    audit = _both("audit")

    def set_timeout(self, timeout_us):
        for part in self.parts:
            part.set_timeout(timeout_us)

    def start(self):
        for part in self.parts:
            part.start()
        self._collect_faults()

    def read(self, r, uid):
        """As ``Scanner.read``, ``r`` a table reader; None while core 1 is lost for its
        readers."""
        p, i = self._where[r]
        if p == 1 and self.lost is not None:
            return None
        return self.parts[p].read(i, uid)

    def forget(self, r, uid):
        p, i = self._where[r]
        self.parts[p].forget(i, uid)

    def seen(self, r):
        p, i = self._where[r]
        return self.parts[p].seen(i)

    def set_of(self, r):
        """As ``Scanner.set_of``, ``r`` a table reader; unknown (None) while core 1 is lost
        for its readers."""
        p, i = self._where[r]
        if p == 1 and self.lost is not None:
            return None
        return self.parts[p].set_of(i)

    def sets(self):
        """As ``Scanner.sets``; core 1's readers are unknown (None) while it is lost."""
        out = [None] * self.n
        for p in range(2 if self.lost is None else 1):
            numbers = self.numbers[p]
            part_sets = self.parts[p].sets()
            for i in range(len(numbers)):
                out[numbers[i]] = part_sets[i]
        return out

    # ---- the cycle -----------------------------------------------------------------------------
    def start_core1(self, start_thread, gc=None):
        """Run the second half on another core from now on: ``start_thread(function, args)``
        is ``_thread.start_new_thread`` (a parameter, so tests can pass CPython's); ``gc``
        is MicroPython's ``gc`` module, off during each cycle from now on (see above)."""
        self._gc = gc
        if gc is not None:
            gc.threshold(GC_THRESHOLD)
        self._counters[_GO] = 0  # a core 1 started again starts counting again
        self._counters[_DONE] = 0
        self._threaded = True
        start_thread(self._core1, ())

    def stop_core1(self):
        """Ask core 1 to leave its loop (it is parked between cycles); collection is
        automatic again."""
        if self._threaded:
            self._counters[_GO] = _STOP
            self._threaded = False
            if self._gc is not None:
                self._gc.enable()

    def _core1(self):
        counters = self._counters
        part = self.parts[1]
        safe = self._safe
        gc = self._gc
        done = 0
        try:
            while True:
                go = counters[_GO]
                if go == _STOP:
                    return
                if go == done:
                    continue  # spin: parked until core 0 starts the next cycle
                self._changed1 = part.cycle()
                if gc is not None and self.lost is None:  # (lost: core 0 collects itself)
                    safe[0] = scanner.ASKED
                    while safe[0] == scanner.ASKED:
                        pass  # until core 0 is at a safe point
                    if safe[0] == scanner.GRANTED:  # core 0 still scans: time to spare
                        start = utime.ticks_us()
                        _collect_if_due(gc)
                        took = utime.ticks_diff(utime.ticks_us(), start)
                        if took > COLLECTED_US:  # it collected: counted for the T frame
                            collected = self.collected
                            collected[0] += 1
                            collected[1] = max(collected[1], took)
                            safe[1] = collected[1]
                    safe[0] = 0
                done = go
                counters[_DONE] = done
        except Exception as exc:  # noqa: BLE001 - reported by core 0, which owns the link
            self.core1_error = exc
            counters[_DONE] = _STOP

    def cycle(self):
        """Scan every reader once (both halves); the table readers whose set changed (the
        same list every cycle, refilled by the next)."""
        counters = self._counters
        changed1 = ()
        if not self._threaded:
            changed0 = self.parts[0].cycle()
            changed1 = self.parts[1].cycle()
        elif self.lost is not None:
            if self.lost == STALLED and counters[_DONE] == counters[_GO]:
                self._found()  # core 1 finished its half at last: lockstep from the next
                changed1 = self._changed1
            changed0 = self.parts[0].cycle(self._safe)  # (core 1 may have asked before)
        else:
            gc = self._gc
            if gc is not None:
                gc.disable()  # core 1 moves references about until its half is done
            target = counters[_GO] + 1
            counters[_GO] = target
            changed0 = self.parts[0].visit(self._safe)  # allocates nothing (see above)
            if self._wait_core1(target):
                changed1 = self._changed1
            if gc is not None:
                gc.enable()
            self.parts[0].settle()  # its changes' bookkeeping allocates: core 1 is parked
        changed = self.changed
        changed.clear()
        for i in changed0:
            changed.append(self.numbers[0][i])
        for i in changed1:
            changed.append(self.numbers[1][i])
        visit = self.visit_us
        for p in range(2):
            numbers = self.numbers[p]
            part_visits = self.parts[p].visit_us
            for i in range(len(numbers)):
                visit[numbers[i]] = part_visits[i] if self.lost is None or p == 0 else 0
        self._collect_faults()
        return changed

    def _wait_core1(self, target):
        """Wait for core 1 to finish cycle ``target``: True once it has, False when it is
        lost (it raised, or ``STALL_MS`` went by)."""
        counters = self._counters
        start = utime.ticks_ms()
        while counters[_DONE] != target:
            if self._safe[0] == scanner.ASKED:
                # Safe, but core 0's half is over: a collection now would hold up the next
                # cycle, so it waits for a cycle where core 0 is still scanning (or for the
                # backstop between cycles, where core 1's half is always the longer).
                self._safe[0] = scanner.NOT_NOW
            if counters[_DONE] == _STOP:
                self._lose(CRASHED)
                return False
            if utime.ticks_diff(utime.ticks_ms(), start) > STALL_MS:
                self._lose(STALLED)
                return False
        return True

    def _lose(self, code):
        """Core 1 is lost: its readers are reported faulty with ``code``."""
        self.lost = code
        for r in self.numbers[1]:
            self.faults.append((r, code))

    def _found(self):
        """A stalled core 1 is back: its readers are what its own scanner says."""
        self.lost = None
        part = self.parts[1]
        for i in range(part.n):
            code = scanner.FAULT_ABSENT if part.faulty[i] else scanner.RECOVERED
            self.faults.append((self.numbers[1][i], code))

    def _collect_faults(self):
        for p in range(2):
            faults = self.parts[p].faults
            while faults:
                reader, code = faults.pop(0)
                self.faults.append((self.numbers[p][reader], code))
