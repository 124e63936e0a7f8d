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
(a twin) answers the walk as that one does, so every ``audit`` cycles a reader holding
one long UID is checked by its whole UID (selected, then a REQA that only another tag
answers). A hat's tags are checked one at a time instead, in turn over every hat of the
bus, one a cycle: the walk of its reader goes on to read the rest of that tag's UID
(``MFRC522.check``: two frames, where selecting a hat of three and asking who else is
there took nine more), and a twin collides there, so the reader is then checked by whole
UIDs (``confirm``) in the same visit. A twin dropped into a hat is found within as many
cycles as the bus's hats hold long UIDs, and every hat tag's whole UID is read as often.
Audits are staggered across readers, so at most one happens per cycle when there are
fewer readers than ``audit``, and no hat's tag is checked in a cycle holding an audit: the
worst cycle holds one of the two, never both (``audit`` 0: neither).

Tags appear as soon as they are read; a tag disappears only after ``debounce`` consecutive
scans without it, so a tag that flickers in a sliding cup or a failed frame is not a move.
UIDs are reported as upper-case hex strings.

A visit allocates nothing, even one that reads a change: the driver reads a new tag's UID
into its bus's buffers, the visit counts what it read against the known tags by index
(``misses``) and copies new UIDs into ``_new``, a buffer made once; ``settle``, once the
half is scanned, makes the changed readers' new sets. So a visit never waits for a
collection of the heap that the other core makes meanwhile (cores.py), and a collection
is never due in the middle of one.
"""

import binascii

import mfrc522
import micropython
import utime

FAULT_ABSENT = "absent"
RECOVERED = "ok"
RECHECK_CYCLES = 64  # a faulty reader is re-initialised every this many cycles
_NEW_TAG = 11  # a tag read anew, until ``settle``: its UID's length, then its UID
_NEW = 1 + mfrc522.MAX_TAGS * _NEW_TAG  # a reader's tags read anew: their count, then them
ASKED = 1  # another core asks for a safe point (``visit``'s ``safe``)...
GRANTED = 2  # ... and this scanner's core is at one
NOT_NOW = 3  # ... refused: this scanner's core has (nearly) finished its half (cores.py)


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
        self.faulty = [False] * self.n
        self.faults = []  # (reader, code) to report, oldest first
        self.visit_us = [0] * self.n
        self.seen_us = [0] * self.n  # ticks_us of the first frame of the visit that changed it
        self.changed = mfrc522.room_for(self.n)  # what ``visit`` returns, every cycle's
        # Each reader's stable set (``_set``, remade only when it changes): its tags' hex
        # names, sorted, and in that order their UIDs, how many visits in a row missed
        # each, their SELECT frames and first anticollision answers (None: two the same).
        self.known = [[] for _ in range(self.n)]
        self.raw = [[] for _ in range(self.n)]
        self.misses = [bytearray(mfrc522.MAX_TAGS) for _ in range(self.n)]
        self.frames = [[] for _ in range(self.n)]
        self.firsts = [None] * self.n
        self.present = [False] * mfrc522.MAX_TAGS
        # The tags a visit read anew, copied out of the bus's buffers until ``settle``:
        # reader r's block at r * _NEW, their count, then each one's length and UID.
        self._new = bytearray(_NEW * self.n)
        # The hat tag whose whole UID this cycle's walk checks (``_plan_check``): reader
        # and tag index (reader -1: none), then the last one checked, where the turn goes
        # on; then the visits that read a tag whole (``full_reads``). One list: each
        # attribute more makes every lookup of this object slower (test_fw_driver.py).
        self.check = [-1, -1, 0, -1, 0]

    @property
    def full_reads(self):
        """How many visits read a tag whole."""
        return self.check[4]

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
        known = self.known[r]
        if uid in known and self.misses[r][known.index(uid)]:
            return 0
        return 1

    def forget(self, r, uid):
        """Drop ``uid`` from reader ``r``'s stable set now, without waiting out the
        debounce: another reader reads it, so it has left."""
        kept = self._kept(r)
        self._set(r, [tag for tag in kept if tag[0] != uid])
        self.seen_us[r] = utime.ticks_us()

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

    def cycle(self, safe=None):
        """Scan every reader once (``visit``), then ``settle``: the readers whose debounced
        set changed (the same list every cycle, refilled by the next)."""
        changed = self.visit(safe)
        self.settle()
        return changed

    @micropython.native
    def visit(self, safe=None):
        """Visit every reader once, allocating nothing; return the readers whose debounced
        set changed, their new sets made by ``settle``. ``safe``: an array whose first item
        the other core sets to ``ASKED`` for a safe point to collect the heap at, granted
        (``GRANTED``) before a visit, where this core holds no object that only its
        registers reference, when what is left of this half (its last length, ``safe[2]``,
        written here, less the time spent) is at least as long as the collection may take
        (``safe[1]``): else refused (``NOT_NOW``), as a collection that outlasts this half
        would hold up the next cycle (cores.py)."""
        changed = self.changed
        del changed[mfrc522.EVERY]  # (keeps its room: see ``room_for``)
        visit = self.visit_us
        ticks_us = utime.ticks_us
        begun = ticks_us()
        self._plan_check()
        for r in range(self.n):
            if safe is not None and safe[0] == ASKED:
                left = safe[2] - utime.ticks_diff(ticks_us(), begun)
                safe[0] = GRANTED if left >= safe[1] else NOT_NOW
            if self.faulty[r]:
                visit[r] = 0
                if (self.cycles + r) % RECHECK_CYCLES == 0:
                    self._init_reader(r)
                continue
            start = ticks_us()
            if self.scan_reader(r):
                changed.append(r)
                # Dated when its first frame went out (the field on, settle_us waited):
                # not at the visit's end, which a new tag's reading makes later.
                self.seen_us[r] = utime.ticks_add(start, self.settle_us)
            visit[r] = utime.ticks_diff(ticks_us(), start)
        if safe is not None:
            safe[2] = utime.ticks_diff(ticks_us(), begun)
        self.cycles += 1
        return changed

    def settle(self):
        """Make the new sets of the readers ``visit`` found changed: the tags it counted
        gone leave, those it read anew join (their UIDs copied out at last)."""
        for r in self.changed:  # (no comprehension: its cells would allocate every call)
            tags = []
            for tag in self._kept(r):
                if tag[2] < self.debounce:
                    tags.append(tag)
            new, at = self._new, r * _NEW
            for k in range(at + 1, at + 1 + new[at] * _NEW_TAG, _NEW_TAG):
                uid = bytes(new[k + 1 : k + 1 + new[k]])
                tags.append((uid_hex(uid), uid, 0, mfrc522.select_frames(uid), mfrc522.cl1_of(uid)))
            new[at] = 0
            self._set(r, tags)

    def _kept(self, r):
        """Reader ``r``'s stable tags as ``_set`` takes them: (hex name, UID, visits that
        missed it, SELECT frames, first anticollision answer), made once for each tag."""
        known, raw, misses, frames = self.known[r], self.raw[r], self.misses[r], self.frames[r]
        firsts = self.firsts[r]
        tags = []
        for i in range(len(known)):
            first = firsts[i] if firsts is not None else mfrc522.cl1_of(raw[i])
            tags.append((known[i], raw[i], misses[i], frames[i], first))
        return tags

    @micropython.native
    def _audit_due(self, r):
        return self.audit and (self.cycles + r) % self.audit == 0

    @micropython.native
    def _audited(self, r):
        """Whether reader ``r``'s audit does anything: it holds one long UID, or a hat of
        twins (a hat its walk can tell apart is checked tag by tag instead)."""
        count = len(self.raw[r])
        if count == 1:
            return len(self.frames[r][0]) > 1
        return count > 1 and self.firsts[r] is None

    @micropython.native
    def _plan_check(self):
        """Choose the hat tag this cycle checks (``check``): the next long
        UID, in turn, of the hats this bus walks; none in a cycle with an audit."""
        check = self.check
        check[0] = -1
        n = self.n
        audit = self.audit
        if not n or not audit:
            return
        r = (audit - self.cycles % audit) % audit
        while r < n:
            if self._audited(r):
                return
            r += audit
        r = check[2]
        k = check[3]
        for _ in range(n + 1):
            frames = self.frames[r]
            if len(frames) > 1 and self.firsts[r] is not None and not self.faulty[r]:
                k += 1
                while k < len(frames) and len(frames[k]) < 2:
                    k += 1  # a 4-byte UID: its first answer is all of it
                if k < len(frames):
                    check[0] = check[2] = r
                    check[1] = check[3] = k
                    return
            r = r + 1 if r + 1 < n else 0
            k = -1

    @micropython.native
    def scan_reader(self, r):
        """Read reader ``r`` once and count what it read (``_checked``); True if its stable
        set changed."""
        reader = self.readers[r]
        count = len(self.raw[r])
        audit = count and self._audit_due(r) and self._audited(r)
        reader.begin(self.settle_us)
        if self.firsts[r] is not None and not audit:
            check = self.check
            return self._walk(r, reader, check[1] if r == check[0] else -1)
        if count > 1:
            # A hat of twins (at its audit, the tag whose turn it is read from scratch).
            fresh = (self.cycles + r) // self.audit % count if audit else -1
            return self._confirm(r, reader, fresh)
        if count:
            # A long UID at its audit: its first answer alone is not conclusive, but
            # selecting it by its whole UID, halting it and asking who else is there is.
            return self._confirm(r, reader, -1)
        status = reader.scan()
        reader.end()
        return self._checked(r, status, reader.uids, -1)

    @micropython.native
    def _walk(self, r, reader, check):
        """The steady visit of a reader holding tags (``MFRC522.walk``): their first
        answers alone, then, when every one answered, the rest of tag ``check``'s UID
        (``MFRC522.check``; -1: none). A walk or a check that failed (a twin of that tag
        collides in its check) has the field powered up again and read by whole UIDs."""
        status = reader.walk(self.firsts[r], self.present)
        if status == mfrc522.SAME and check >= 0:
            status = reader.check(self.frames[r][check])
        reader.end()
        if status == mfrc522.SAME:
            misses = self.misses[r]
            for i in range(len(self.raw[r])):
                misses[i] = 0
            return False
        if status == mfrc522.PARTIAL:
            reader.begin(self.settle_us)
            return self._confirm(r, reader, -1)
        return self._checked(r, status, reader.found, -1)

    @micropython.native
    def _confirm(self, r, reader, fresh):
        """The visit of a reader holding tags checked by their whole UIDs
        (``MFRC522.confirm``), tag ``fresh`` read from scratch (-1: none)."""
        again = self.raw[r][fresh] if fresh >= 0 else None
        status = reader.confirm(self.frames[r], self.present, fresh, again)
        reader.end()
        return self._checked(r, status, reader.found, fresh)

    @micropython.native
    def _checked(self, r, status, found, fresh):
        """Count one reading of reader ``r``: which of its known tags answered
        (``self.present``, but for tag ``fresh``, read from scratch), and ``found``, the
        UIDs read beyond them (the bus's buffers, ``MFRC522.found``); a reader stuck is
        initialised again and counts as reading nothing. A tag missed ``debounce`` visits
        in a row leaves, a tag read anew joins (copied into ``_new`` until ``settle``):
        True when either happened. Nothing is allocated."""
        present = self.present
        count = len(self.raw[r])
        if status == mfrc522.STUCK:
            if not self._init_reader(r):
                return False
            found = ()  # a glitch: counts as a miss
            for i in range(count):
                present[i] = False
        if fresh >= 0:
            present[fresh] = False
        self.check[4] += len(found) > 0
        raw = self.raw[r]
        new = self._new
        block = r * _NEW
        at = block + 1
        for uid in found:
            i = 0
            while i < count and raw[i] != uid:
                i += 1
            if i < count:
                present[i] = True  # a known tag among those read whole (``fresh``'s, say)
                continue
            new[at] = len(uid)
            for j in range(len(uid)):
                new[at + 1 + j] = uid[j]
            at += _NEW_TAG
        new[block] = (at - block - 1) // _NEW_TAG
        changed = new[block] > 0
        misses = self.misses[r]
        debounce = self.debounce
        for i in range(count):
            if present[i]:
                misses[i] = 0
            else:
                misses[i] += 1
                if misses[i] >= debounce:
                    changed = True
        return changed

    def _set(self, r, tags):
        """Reader ``r``'s stable set from now: ``tags`` (as ``_kept`` gives them), at most
        ``MAX_TAGS`` (the most missed go first), in the order of their hex names, and what
        the visits need of them: their UIDs, misses, SELECT frames and first answers
        (None when two are the same: twins that only SELECTs tell apart)."""
        if len(tags) > mfrc522.MAX_TAGS:
            tags.sort(key=lambda tag: tag[2])
            del tags[mfrc522.MAX_TAGS :]
        tags.sort(key=lambda tag: tag[0])
        self.known[r] = [tag[0] for tag in tags]
        self.raw[r] = [tag[1] for tag in tags]
        misses = self.misses[r]
        for i in range(len(tags)):
            misses[i] = tags[i][2]
        self.frames[r] = [tag[3] for tag in tags]
        firsts = [tag[4] for tag in tags]
        if not firsts or len(set(firsts)) < len(firsts):
            firsts = None  # nothing to walk, or twins
        self.firsts[r] = firsts
