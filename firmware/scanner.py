"""Scan every reader in turn and keep a debounced set of tag UIDs per reader.

One ``cycle()`` visits each reader once: antenna on, wait ``settle_us`` for the tags to
power up (the driver stages the first WUPA meanwhile), read, antenna off. The 300 us
default is a guess to measure on the real tags and mat (``CONF settle_us=...``): ISO/IEC
14443-3 lets a tag take up to 5 ms to be ready, and every 100 us here costs 1.9 ms per
cycle of 19 readers. ``visit_us[r]`` holds how long reader ``r``'s visit took in the last
cycle (``utime.ticks_us``; 0 for a reader not visited), for the heartbeat's timings;
``seen(r)``, when the visit that last changed its set sent its first frame, for the ``S``
frame's age: a tag that answered it lay there by then, and one that did not was gone.

The work per reader is as small as the previous state allows:

- an empty reader whose WUPA gets no answer costs one timer period and nothing else;
- a reader holding tags is confirmed by their first anticollision answers alone, the tree
  of them walked bit by bit (``MFRC522.walk``: one frame for one tag, 2n - 1 short frames
  for a hat of n, about 1.5 ms of air a tag where selecting and halting each took 3 ms):
  a tag missing is missed, a first answer nobody knows is read whole and alone;
- a reader at its audit (see below), a hat whose tags cannot be told apart by their first
  answers (two long UIDs sharing their first three bytes) and a walk that failed midway
  are checked tag by tag, WUPA + SELECT of each known UID + HALT, then one REQA that only
  a tag not in the set answers (``MFRC522.confirm``), a new tag enumerated alone;
- an empty reader that answers gets a full enumeration.

A 4-byte UID is fully contained in the first anticollision answer, so its check is
conclusive. A second 7-byte tag that shares the first three UID bytes with a known one
answers the walk as that one does, so every ``audit`` cycles a reader holding one long UID
is checked by its whole UID (selected, then a REQA that only another tag answers), and a
hat by SELECTs: at its audit, one of its tags, in turn, is left out of the SELECTs and
read from scratch with whatever else answers the REQA, so every tag of a hat of n is read
whole again every n * ``audit`` cycles. A full enumeration of the hat at once would cost
about 5 ms more air time in that one cycle, on top of the other readers'. Audits are
staggered across readers, so at most one happens per cycle when there are fewer readers
than ``audit``.

Tags appear as soon as they are read; a tag disappears only after ``debounce`` consecutive
scans without it, so a tag that flickers in a sliding cup or a failed frame is not a move.
UIDs are reported as upper-case hex strings.
"""

import binascii

import mfrc522
import micropython
import utime

FAULT_ABSENT = "absent"
RECOVERED = "ok"
RECHECK_CYCLES = 64  # a faulty reader is re-initialised every this many cycles
ASKED = 1  # another core asks for a safe point (``cycle``'s ``safe``)...
GRANTED = 2  # ... and this scanner's core is at one
NOT_NOW = 3  # ... refused: this scanner's core has finished its half (cores.py)
_NOTHING = {}  # an observation of an empty field (``_fold`` only reads it)


def uid_hex(uid):
    return binascii.hexlify(uid).decode().upper()


class Scanner:
    """Debounced tag sets of ``readers`` (``mfrc522.MFRC522`` objects, index = reader)."""

    def __init__(self, readers, debounce=3, settle_us=300, audit=32):
        self.readers = readers
        self.n = len(readers)
        self.debounce = debounce
        self.settle_us = settle_us
        self.audit = audit
        self.cycles = 0
        self.stable = [set() for _ in range(self.n)]
        self.raw = [{} for _ in range(self.n)]  # hex -> uid bytes of the stable tags
        self.misses = [{} for _ in range(self.n)]
        self.faulty = [False] * self.n
        self.faults = []  # (reader, code) to report, oldest first
        self.full_reads = 0
        self.visit_us = [0] * self.n
        self.seen_us = [0] * self.n  # ticks_us of the first frame of the visit that changed it
        self.changed = []  # what ``cycle`` returns, one list for every cycle: no allocation
        # What a visit needs about the stable set, rebuilt only when it changes: the tags'
        # hex names, their SELECT frames and their first anticollision answers (None when
        # two are the same), in one fixed order.
        self.known = [[] for _ in range(self.n)]
        self.frames = [[] for _ in range(self.n)]
        self.firsts = [None] * self.n
        self.present = [False] * mfrc522.MAX_TAGS

    def start(self):
        """Initialise every reader; the ones that do not answer are marked faulty."""
        for r in range(self.n):
            self._init_reader(r)

    def _init_reader(self, r):
        try:
            version = self.readers[r].init()
        except OSError:
            version = 0
        ok = version in mfrc522.KNOWN_VERSIONS
        if ok and self.faulty[r]:
            self.faults.append((r, RECOVERED))
        elif not ok and not self.faulty[r]:
            self.faults.append((r, FAULT_ABSENT))
        self.faulty[r] = not ok
        return ok

    def set_timeout(self, timeout_us):
        for r in range(self.n):
            if not self.faulty[r]:
                self.readers[r].set_timeout(timeout_us)

    def read(self, r, uid):
        """Whether reader ``r``, which holds ``uid``, read it in its last visit: 1 it did,
        0 it missed it (a tag gone stays ``debounce`` visits in the stable set, unread),
        None when the reader is faulty (it read nothing)."""
        if self.faulty[r]:
            return None
        return 0 if uid in self.misses[r] else 1

    def forget(self, r, uid):
        """Drop ``uid`` from reader ``r``'s stable set now, without waiting out the
        debounce: another reader reads it, so it has left."""
        self.stable[r].discard(uid)
        self.raw[r].pop(uid, None)
        self.misses[r].pop(uid, None)
        self.seen_us[r] = utime.ticks_us()
        self._known_changed(r)

    def seen(self, r):
        """``utime.ticks_us`` when reader ``r``'s set last changed: the first frame of the
        visit that saw it (or the end of the cycle in which another reader read its
        tag)."""
        return self.seen_us[r]

    def set_of(self, r):
        """Reader ``r``'s sorted UID list, or None when it is faulty. The scanner's own
        list, not a copy (none is allocated): a change replaces it, never alters it, so
        the caller must not alter it either, and may keep it."""
        return None if self.faulty[r] else self.known[r]

    def sets(self):
        """``set_of`` every reader (inlined: a call costs the Pico 7 us; no comprehension,
        which MicroPython makes a closure of, allocated at each call)."""
        out = [None] * self.n
        known = self.known
        faulty = self.faulty
        for r in range(self.n):
            if not faulty[r]:
                out[r] = known[r]
        return out

    @micropython.native
    def cycle(self, safe=None):
        """Scan every reader once; return the readers whose debounced set changed (the
        same list every cycle, refilled by the next). ``safe``: an array whose first item
        the other core sets to ``ASKED`` for a safe point to collect the heap at, granted
        (``GRANTED``) before a visit, where this core holds no object that only its
        registers reference (cores.py)."""
        changed = self.changed
        changed.clear()
        visit = self.visit_us
        ticks_us = utime.ticks_us
        for r in range(self.n):
            if safe is not None and safe[0] == ASKED:
                safe[0] = GRANTED
            if self.faulty[r]:
                visit[r] = 0
                if (self.cycles + r) % RECHECK_CYCLES == 0:
                    self._init_reader(r)
                continue
            start = ticks_us()
            if self.scan_reader(r):
                changed.append(r)
                # Dated when its first frame went out (the field on, settle_us waited):
                # not at the visit's end, which a new tag's reading and the bookkeeping
                # of a change make later by some milliseconds.
                self.seen_us[r] = utime.ticks_add(start, self.settle_us)
            visit[r] = utime.ticks_diff(ticks_us(), start)
        self.cycles += 1
        return changed

    @micropython.native
    def _audit_due(self, r):
        return self.audit and (self.cycles + r) % self.audit == 0

    @micropython.native
    def scan_reader(self, r):
        """Read reader ``r`` once and fold the result in; True if its stable set changed."""
        reader = self.readers[r]
        count = len(self.stable[r])
        audit = self._audit_due(r) and (count > 1 or count and len(self.frames[r][0]) > 1)
        reader.begin(self.settle_us)
        if self.firsts[r] is not None and not audit:
            return self._walk(r, reader)
        if count > 1:
            # A hat at its audit (or of twins): the tag whose turn it is read from scratch.
            fresh = (self.cycles + r) // self.audit % count if audit else -1
            return self._confirm(r, reader, fresh)
        if count:
            # A long UID at its audit: its first answer alone is not conclusive, but
            # selecting it by its whole UID, halting it and asking who else is there is.
            return self._confirm(r, reader, -1)
        status = reader.scan()
        uids = reader.uids
        reader.end()
        if status == mfrc522.STUCK:
            if self._init_reader(r):
                return self._fold(r, {})  # a glitch: counts as a miss
            return False
        if not uids:
            return self._fold(r, _NOTHING)
        self.full_reads += 1
        seen = {}
        for uid in uids:
            seen[uid_hex(uid)] = uid
        return self._fold(r, seen)

    @micropython.native
    def _walk(self, r, reader):
        """The steady visit of a reader holding tags (``MFRC522.walk``): their first
        answers alone. A walk that failed midway has the field powered up again and read
        as a hat's check reads it."""
        status = reader.walk(self.firsts[r], self.present)
        reader.end()
        if status == mfrc522.SAME:
            return self._fold(r, None)
        if status == mfrc522.PARTIAL:
            reader.begin(self.settle_us)
            return self._confirm(r, reader, -1)
        return self._checked(r, status, -1, None)

    @micropython.native
    def _confirm(self, r, reader, fresh):
        """The visit of a reader holding tags checked by their whole UIDs
        (``MFRC522.confirm``), tag ``fresh`` read from scratch (-1: none)."""
        known = self.known[r]
        again = self.raw[r][known[fresh]] if fresh >= 0 else None
        status = reader.confirm(self.frames[r], self.present, fresh, again)
        reader.end()
        return self._checked(r, status, fresh, again)

    @micropython.native
    def _checked(self, r, status, fresh, again):
        """Fold in a check of reader ``r``'s known tags: which answered (``self.present``,
        but for tag ``fresh``, read from scratch as ``again``), and the tags found beyond
        them (the reader's ``found``)."""
        if status == mfrc522.STUCK:
            if self._init_reader(r):
                return self._fold(r, {})
            return False
        present = self.present
        known = self.known[r]
        raw = self.raw[r]
        found = self.readers[r].found
        self.full_reads += len(found) > 0
        whole = True
        for i in range(len(known)):
            if i != fresh and not present[i]:
                whole = False
        if whole:
            if fresh < 0 and not found:
                return self._fold(r, None)
            if len(found) == 1 and found[0] is again:
                return self._fold(r, None)
        seen = {}
        for i in range(len(known)):
            if present[i]:
                seen[known[i]] = raw[known[i]]
        for uid in found:
            seen[uid_hex(uid)] = uid
        return self._fold(r, seen)

    def _known_changed(self, r):
        """Rebuild what the visits of reader ``r`` need from its new stable set."""
        raw = self.raw[r]
        known = sorted(raw)
        self.known[r] = known
        self.frames[r] = [mfrc522.select_frames(raw[h]) for h in known]
        firsts = [mfrc522.cl1_of(raw[h]) for h in known]
        if not firsts or len(set(firsts)) < len(firsts):
            firsts = None  # nothing to walk, or twins that only SELECTs tell apart
        self.firsts[r] = firsts

    @micropython.native
    def _fold(self, r, seen):
        """Debounce one observation (``None``: the stable set seen again, unchanged)."""
        stable = self.stable[r]
        misses = self.misses[r]
        if seen is None:
            misses.clear()
            return False
        if not seen and not stable:
            return False
        changed = False
        for h in seen:
            misses.pop(h, None)
            if h not in stable:
                stable.add(h)
                self.raw[r][h] = seen[h]
                changed = True
        for h in list(stable):
            if h in seen:
                continue
            count = misses.get(h, 0) + 1
            if count >= self.debounce:
                stable.discard(h)
                self.raw[r].pop(h, None)
                misses.pop(h, None)
                changed = True
            else:
                misses[h] = count
        if changed:
            self._known_changed(r)
        return changed
