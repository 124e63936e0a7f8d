"""The simulated table's input: journal lines from a file, a FIFO or stdin.

The simulated table (``--sim``, or a config without hardware). The display is luma's
emulator or dummy device (the last frame is also saved as ``oled.png`` in the data
directory), there are no GPIO buttons and no readers; inputs come from ``--sim-input PATH``
(a file, a FIFO, or ``-`` for stdin): journal lines, exactly as docs/journal.md
says (``spot``, ``press``, ``reader``, ``tick``; blank lines,
lines starting with ``#`` and a journal's end-of-game lines, which the table writes itself,
are skipped). A first ``setup`` line sets up a new game (it is
ignored when resuming, and on a live input (a FIFO, ``-``) on the real clock, whose game
starts at once, before its first line, with the config's game). With ``--sim-clock
real`` (the default) each line happens when it is read and its ``t`` is ignored; with
``--sim-clock script`` the lines' own ``t`` are the game's clock (no clock thread): the
same script always gives the same game, and the service stops when the script ends.

On the real clock a FIFO is read again after each writer closes it (``echo LINE >
table.in`` as often as one likes: the service waits for the next writer), and a file is
played at its recorded pace: each line comes the seconds its ``t`` says after the first
input line's, so a journal given as input plays as it was played (the settle time, a
challenge window and the presses held meanwhile as they were).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from companion.cli_words import os_error, said
from companion.doc_paths import JOURNAL_DOC
from companion.journal import (
    JournalError,
    bounded_lines,
    checked,
    parse_end,
    parse_input,
    parse_setup,
)
from companion.journal_fields import json_error
from companion.run.items import Inbox, Scripted, ScriptEnd, ScriptSetup

log = logging.getLogger("companion")


def script_items(lines: IO[str], name: str) -> Iterator[ScriptSetup | Scripted]:
    """The queue items of a simulated-table script: journal lines (blank lines and ``#``
    comments skipped), each parsed as a setup or an input. Raises `JournalError` naming
    the line for a line that is not one (or longer than any journal line: `bounded_lines`),
    or for text that is not UTF-8."""
    number = 0
    try:
        for number, line in enumerate(bounded_lines(lines, name), start=1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            try:
                item = _item(text)
            except ValueError as exc:  # JournalError is a ValueError
                raise JournalError(f"{name}:{number}: {exc}") from exc
            if item is not None:
                yield item
    except UnicodeDecodeError as exc:
        raise JournalError(
            f"{name}: not UTF-8 text (byte 0x{exc.object[exc.start]:02X}"
            f"{f' after line {number}' if number else ''}): save it as UTF-8"
        ) from exc


def _item(text: str) -> ScriptSetup | Scripted | None:
    """One script line as a queue item (its ``t`` is 0 when it has none), None for an
    end-of-game line (checked, then skipped). A line of a journal the table wrote ends in
    its number and checksum: checked, then set aside."""
    body = checked(text.encode("utf-8")).body  # a ChecksumError is a ValueError
    try:
        data = json.loads(body)
    except RecursionError as exc:  # `[` 100,000 times: one line's problem, like bad JSON
        raise ValueError(json_error(exc)) from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    data.setdefault("t", 0.0)
    if data.get("type") == "setup":
        return ScriptSetup(parse_setup(data))
    if data.get("type") == "end":
        parse_end(data)
        return None
    return Scripted(parse_input(data))


class ScriptSource:
    """The simulated table's input: journal lines from a file, a FIFO or stdin.

    ``real_clock``: the lines happen when they come (`companion run`'s default clock), so
    a FIFO is opened again for its next writer once one closes it, and a file's inputs come
    at the pace their ``t`` records (`Pacer`). Otherwise (the script clock) each line is
    put at once and the input ends with its first end of file."""

    def __init__(self, path: str, sink: Inbox, real_clock: bool = False) -> None:
        self.path = path
        self.sink = sink
        self.real_clock = real_clock
        self.stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sim-input", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop pacing a file (a FIFO waiting for its writer is left to the process's end:
        the thread is a daemon)."""
        self.stopped.set()

    def _run(self) -> None:
        try:
            if self.path == "-":
                self._read(sys.stdin, "stdin")
            elif self.real_clock and live_input(self.path):
                self._read_fifo()
            else:
                pacer = Pacer(self.stopped) if self.real_clock else None
                with open(self.path, encoding="utf-8") as f:
                    self._read(f, self.path, pacer)
        except OSError as exc:
            self.sink.put_nowait(ScriptEnd(f"cannot read {self.path}: {exc.strerror or exc}"))
            return
        except ValueError as exc:  # JournalError, or a decoding error it did not wrap
            self.sink.put_nowait(ScriptEnd(str(exc)))
            return
        except Exception as exc:  # never a silent death: the loop stops, saying so
            # Its type only: the message of an error not foreseen could quote a UID.
            self.sink.put_nowait(ScriptEnd(f"{self.path}: reading stopped: {type(exc).__name__}"))
            return
        self.sink.put_nowait(ScriptEnd())

    def _read(self, lines: IO[str], name: str, pacer: Pacer | None = None) -> None:
        for item in script_items(lines, name):
            due = pacer is None or not isinstance(item, Scripted) or pacer.wait_for(item.record.t)
            if not due:
                return  # stopped
            self.sink.put_nowait(item)

    def _read_fifo(self) -> None:
        """A FIFO on the real clock: each writer's lines as they come, then the next
        writer's (opening a FIFO waits for one), until the service stops."""
        writers = 0
        while not self.stopped.is_set():
            with open(self.path, encoding="utf-8") as f:
                writers += 1
                self._read(f, self.path)
            if self.stopped.is_set():
                return
            say = log.info if writers == 1 else log.debug
            say("simulated input %s: its writer closed it; waiting for the next one", self.path)


class Pacer:
    """Waits, in the input thread, until a script's line is due: ``t`` seconds after the
    first input line's ``t``, counted from when that line was put (journal lines are in
    time order; a line whose ``t`` went back is due at once)."""

    def __init__(self, stopped: threading.Event, clock: Callable[[], float] = time.monotonic):
        self.stopped = stopped
        self.clock = clock
        self.origin: tuple[float, float] | None = None
        """(the first input line's t, the clock when it was put)."""

    def wait_for(self, t: float) -> bool:
        """Return when the line of time ``t`` is due; False when stopped meanwhile."""
        now = self.clock()
        if self.origin is None:
            self.origin = (t, now)
            return not self.stopped.is_set()
        first, started = self.origin
        left = started + (t - first) - now
        if left > 0:
            return not self.stopped.wait(left)
        return not self.stopped.is_set()


def live_input(path: str) -> bool:
    """Is ``--sim-input`` read live (``-``, a FIFO) rather than a file read through?"""
    return path == "-" or not Path(path).is_file()


def sim_input_problem(path: str) -> str | None:
    """Why ``--sim-input`` cannot be read, found before the service starts (so a wrong
    path stops it at once instead of leaving it running on nothing), or None. A regular
    file is read through: every line must be a journal line. A FIFO or ``-`` (stdin) can
    only be read live; it is checked for existence and permission only."""
    if path == "-":
        return None
    where = Path(path)
    if not where.exists():
        return said("cli.run.input_missing", path=path, doc=JOURNAL_DOC)
    if where.is_dir():
        return said("cli.run.input_folder", path=path)
    if not os.access(where, os.R_OK):
        return said("cli.run.input_unreadable", path=path)
    if not where.is_file():
        return None  # a FIFO: opening it would wait for its writer
    try:
        with open(where, encoding="utf-8") as f:
            for _ in script_items(f, path):
                pass
    except OSError as exc:
        return said("cli.run.input_cannot", path=path, why=os_error(exc))
    except JournalError as exc:
        return said("cli.run.input_format", error=exc, doc=JOURNAL_DOC)
    return None
