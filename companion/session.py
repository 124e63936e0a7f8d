"""A live game: every input is journaled (and fsync'd) before the referee takes it.

So killing the process at any moment loses no input, and `resume` rebuilds the game by
replaying the journal through the same referee, then goes on live. The replay is one
pass (`replay`): each line is read, verified and fed to the referee as it comes, and the
referee keeps only its last `EVENTS_KEPT` events, so resuming costs no more memory for a
long game than for a short one.

A torn last line (a power cut mid-write) is dropped with a note (`Replayed.notes`: the
service logs it, ``play`` prints it) and cut from the file before appending. A journal
whose only line is a torn setup (a cut during a new game's first write) holds no game: it
is moved aside to ``archive/`` (`set_aside_torn_setup`) and a new game may start. A
damaged line (a changed byte, a bad field, a line removed, repeated or moved) is an error
for `Session.resume` (``play --resume``: nothing is rewritten); the service replays with
``repair``: the lines before it are the game, the file as it was goes to ``archive/``
with a note saying why (`set_aside_damaged`), and the session keeps it for the OLED
(`show_damage`; the loop draws `companion.run.loop.damage_card`). A line the referee
raised on (`NotApplied`: a fault of the referee, not of the file) is handled the same way:
an error naming it, or with ``repair`` the game as the lines before it left it, on a
referee built again from them. The journal stays 0600 through every rewrite, whose rename
is fsync'd in its folder.

The input that ends the game is followed at once by the end-of-game line (`EndLine`, with
the result), fsync'd too: a replay checks it (`end_problem`), so a finished game whose
last input was removed is damage, not a shorter game. A cut between the two lines leaves
a finished game without it: the next resume writes it (`Session.go_live`, `complete`), so
the journal that is archived always ends its game with it.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import shutil
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from companion.contract.game import TableReferee
from companion.games import make_referee
from companion.journal import (
    MAX_LINE,
    PRIVATE_FILE,
    Damage,
    EndLine,
    Input,
    JournalError,
    JournalReader,
    JournalWriter,
    ResumeInput,
    Setup,
    TornSetup,
    UnreadableSetup,
    file_lines,
    fsync_dir,
    make_private_dirs,
    open_journal,
    open_private,
    read_lines,
)
from companion.referee.event_log import TableEvent
from companion.rules.errors import RuleError

log = logging.getLogger("companion")

TORN_SETUP_HEAD = MAX_LINE
"""How much of a journal `set_aside_torn_setup` reads: no line is longer, so a file
longer than this holds more than a setup."""

EVENTS_KEPT = 1000
"""The events a session's referee keeps (`EventLog`): the web page shows the last 200
lines of history (`companion.web.public.HISTORY_LINES`) and many events have no line
(ticks that fired a deadline, held presses, resumes), so 1000 covers a page drawn afresh
after a resume; the screens and undo need none (undo keeps states, `UndoHistory`)."""

DAMAGE_CARD_SECONDS = 8.0
"""How long (game time) the OLED shows that the journal was damaged, before the game's
own screen guides the table back."""


class NoGameStarted(JournalError):
    """`resume` of a journal whose only line was a torn setup: it was moved aside."""


class NotApplied(JournalError):
    """A journal input the game's referee raised on: a fault of the referee, never of the
    file. `line` names it, `inputs` were applied before it, `kept` is the length of the
    lines before it; the message names the exception's type only (its text may quote a
    tag's UID, a secret of the game)."""

    def __init__(self, name: str, line: int, inputs: int, kept: int, error: Exception) -> None:
        self.line = line
        self.inputs = inputs
        self.kept = kept
        self.error = error
        self.reason = f"the referee could not apply this input ({type(error).__name__})"
        super().__init__(f"{name}:{line}: {self.reason}")


def end_line(referee: TableReferee) -> EndLine:
    """The end-of-game line of a finished game: its result as the replay document has it."""
    result = referee.result()
    return EndLine(referee.now, tuple(result["scores"]), result["winner"])


def end_problem(referee: TableReferee, end: EndLine) -> str | None:
    """What is wrong with an end-of-game line read after the inputs ``referee`` took (the
    game not over there, or over with another result), or None."""
    if not referee.finished:
        return (
            "an end-of-game line where the game is not over: an input before it is "
            "missing or changed"
        )
    made = end_line(referee)
    if (list(made.scores), made.winner) != (list(end.scores), end.winner):
        return (
            f"the end-of-game line says scores {list(end.scores)} and winner {end.winner}, "
            f"its inputs give {list(made.scores)} and {made.winner}"
        )
    return None


def feed_journal(
    reader: JournalReader, referee: TableReferee, each: Callable[[], None] | None = None
) -> None:
    """Feed the referee every input `reader` reads, in one pass, the end-of-game line
    checked against it (`end_problem`); `NotApplied` for an input the referee raised on.
    `each` is called after every input (`companion replay` prints its new events)."""
    reader.check_end = lambda end: end_problem(referee, end)
    kept = reader.kept_bytes
    for record in reader:
        try:
            referee.feed(record)
        except Exception as exc:
            raise NotApplied(reader.name, reader.line, reader.inputs - 1, kept, exc) from exc
        kept = reader.kept_bytes
        if each is not None:
            each()


@dataclass
class Replayed:
    """A journal read and fed to its referee in one pass, before the game goes live."""

    path: Path
    referee: TableReferee
    inputs: int
    """How many inputs were replayed (the valid prefix, when the journal is damaged)."""
    last_t: float
    """The time of the last input replayed (the setup's, with none)."""
    checksummed: bool
    """The journal's lines carry checksums (the companion's), so appends do too."""
    ended: bool = False
    """The journal has its end-of-game line."""
    damage: Damage | None = None
    archived: Path | None = None
    """Where the damaged journal was kept as it was."""
    notes: list[str] = field(default_factory=list)
    """What the reader dropped or could not check, one line each, to be said by whoever
    resumes (a torn last line dropped, an older journal without line numbers)."""


def replay(path: str | os.PathLike[str], *, repair: bool = False) -> Replayed:
    """Read the journal at ``path`` and feed its referee, one line at a time.

    A torn last line is dropped with a note (`Replayed.notes`) and cut from the file. A
    damaged line (a changed byte, a line removed, repeated or moved), or one the referee
    raised on (`NotApplied`), is a `JournalError` naming it, unless ``repair``: then the
    inputs before it are the game and the journal becomes them (`set_aside_damaged`). A
    lone torn setup raises `TornSetup`; a setup line that cannot be read,
    `UnreadableSetup`; a setup no referee can start, the referee's error; a file that is
    not a regular one, a `JournalError`."""
    path = Path(path)
    try:
        with open_journal(path) as f:
            reader = JournalReader(file_lines(f), str(path), lenient=repair)
            referee = make_referee(reader.setup)
            referee.events.bound(EVENTS_KEPT)
            feed_journal(reader, referee)
    except NotApplied as failed:
        if not repair:
            raise
        return _not_applied(path, failed)
    damage = reader.damage
    archived = None
    if damage is not None:
        archived = set_aside_damaged(path, reader.kept_bytes, damage)
    elif reader.cut:
        _keep_prefix(path, reader.kept_bytes)
    return Replayed(
        path,
        referee,
        reader.inputs,
        reader.last_t,
        reader.checksummed,
        reader.end is not None,
        damage,
        archived,
        reader.warnings,
    )


def _not_applied(path: Path, failed: NotApplied) -> Replayed:
    """The service's resume of a journal with a line its referee raised on: as for a
    damaged line, the file as it was goes to ``archive/`` with a note and the journal
    becomes the lines before it; the game is those lines replayed on a new referee (the
    one that raised may be half-changed). Where it raised goes to the log, never what."""
    frames = traceback.format_list(traceback.extract_tb(failed.error.__traceback__))
    log.error("%s; where it raised:\n%s", failed, "".join(frames).rstrip())
    damage = Damage(failed.line, failed.reason, failed.inputs)
    archived = set_aside_damaged(path, failed.kept, damage)
    return dataclasses.replace(replay(path, repair=True), damage=damage, archived=archived)


class Session:
    """A referee with its journal. Use `start` for a new game, `resume` after a cut."""

    def __init__(self, referee: TableReferee, writer: JournalWriter, ended: bool = False) -> None:
        self.referee = referee
        self.writer = writer
        self.ended = ended
        """The journal has its end-of-game line."""
        self.damage: Damage | None = None
        """The damage found in the journal at start, if any (`show_damage`)."""
        self.damage_until = 0.0
        self.notes: list[str] = []
        """What the resume's replay noted (`Replayed.notes`), for the caller to say."""
        self.after_feed: list[Callable[[], object]] = []
        """Called after each input `feed` judged (the voice of `play --sim --speak`)."""

    @classmethod
    def start(cls, path: str | os.PathLike[str], setup: Setup) -> Session:
        if Path(path).is_file() and Path(path).stat().st_size:  # a folder: the open says
            raise FileExistsError(f"{path} already holds a game: resume it or choose another")
        referee = make_referee(setup)
        referee.events.bound(EVENTS_KEPT)
        writer = JournalWriter(path, checksum=True)
        writer.write(setup)
        return cls(referee, writer)

    @classmethod
    def resume(
        cls, path: str | os.PathLike[str], live_table: Mapping[int, frozenset[str]] | None = None
    ) -> Session:
        """Replay the journal (a damaged line is an error, nothing is rewritten), then
        record where it resumed with what the readers see now (`live_table`; None means:
        as last journaled). A journal whose only line is a torn setup is moved aside and
        `NoGameStarted` says where."""
        try:
            replayed = replay(path)
        except TornSetup as exc:
            moved = set_aside(Path(path), "torn-setup")
            raise NoGameStarted(
                f"{exc}; moved to {moved}: start a new game (leave out --resume)"
            ) from exc
        return cls.go_live(replayed, live_table)

    @classmethod
    def go_live(
        cls, replayed: Replayed, live_table: Mapping[int, frozenset[str]] | None = None
    ) -> Session:
        """The replayed game, live: a ``resume`` input records what the readers see now
        (None: as last journaled), so the referee guides back any hat that changed while
        the companion was off, or since the last input kept from a damaged journal. A
        game over without its end-of-game line (a cut between the two) gets it first."""
        referee = replayed.referee
        writer = JournalWriter(replayed.path, checksum=replayed.checksummed)
        session = cls(referee, writer, replayed.ended)
        session.write_end()
        table = dict(referee.observed.uids) if live_table is None else dict(live_table)
        session.feed(ResumeInput(replayed.last_t, table))
        session.notes = replayed.notes
        if replayed.damage is not None:
            session.show_damage(replayed.damage)
        return session

    def feed(self, record: Input) -> list[TableEvent]:
        """Journal first, then judge: an input the referee saw is always on disk; the
        input that ends the game is followed by the end-of-game line."""
        self.writer.write(record)
        events = self.referee.feed(record)
        self.write_end()
        for listener in self.after_feed:
            listener()
        return events

    def journal(self, record: Input) -> None:
        """Journal an input the referee already took (a tick, journaled only when it
        changed something: `companion.run.loop`), and the end-of-game line if it ended
        the game."""
        self.writer.write(record)
        self.write_end()

    def write_end(self) -> None:
        """The end-of-game line, once the game is over and the journal lacks it."""
        if self.referee.finished and not self.ended:
            self.writer.write(end_line(self.referee))
            self.ended = True

    def show_damage(self, damage: Damage) -> None:
        """Show on the OLED, for `DAMAGE_CARD_SECONDS`, that the journal was damaged."""
        self.damage = damage
        self.damage_until = self.referee.now + DAMAGE_CARD_SECONDS

    def close(self) -> None:
        self.writer.close()


def complete(replayed: Replayed) -> None:
    """A finished game's journal, replayed, given the end-of-game line a cut kept from it
    (before it is archived: an archived game ends with it)."""
    if replayed.referee.finished and not replayed.ended:
        with JournalWriter(replayed.path, checksum=replayed.checksummed) as writer:
            writer.write(end_line(replayed.referee))
        replayed.ended = True


def _keep_prefix(path: Path, size: int) -> None:
    """Cut the journal to its first ``size`` bytes (its valid lines), atomically."""
    tmp = _prefix_copy(path, size)
    os.replace(tmp, path)
    fsync_dir(path.parent)


def _prefix_copy(path: Path, size: int) -> Path:
    """A 0600 temporary copy of the journal's first ``size`` bytes, ending with a newline
    and fsync'd, beside it (so that a rename puts it in place)."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
    with os.fdopen(fd, "wb") as out, open(path, "rb") as src:
        os.fchmod(fd, PRIVATE_FILE)
        left = size
        last = b"\n"
        while left > 0:
            chunk = src.read(min(left, 1 << 20))
            if not chunk:
                break
            out.write(chunk)
            last = chunk[-1:]
            left -= len(chunk)
        if last != b"\n":
            out.write(b"\n")
        out.flush()
        os.fsync(fd)
    return tmp


def set_aside_damaged(path: Path, kept: int, damage: Damage) -> Path:
    """Keep a damaged journal as it was in ``archive/`` (``<stem>-damaged-<time>``, with a
    ``.txt`` beside it saying which line and why) and make the journal its first ``kept``
    bytes, the lines before the damage. Where it was kept.

    The order survives a cut at any point: the prefix is written to a temporary file
    first, then the journal is linked (or copied) into the archive, then the prefix is
    renamed over it; a cut before the rename leaves the damaged journal in place, to be
    set aside again at the next start."""
    tmp = None if damage.setup else _prefix_copy(path, kept)
    target = _archive_target(path, "damaged")
    try:
        os.link(path, target)
    except OSError:  # a file system without hard links
        shutil.copyfile(path, target)
        os.chmod(target, PRIVATE_FILE)
    _write_note(target, path, damage)
    fsync_dir(target.parent)
    if tmp is None:
        path.unlink()
    else:
        os.replace(tmp, path)
    fsync_dir(path.parent)
    return target


def _write_note(target: Path, path: Path, damage: Damage) -> None:
    """The short note beside a damaged journal kept in the archive (never a line's
    content: the journal's UIDs are secrets)."""
    if not damage.setup:
        then = f"the game resumed from the {damage.inputs} inputs before it"
    else:
        then = "no game could be resumed from it; a new game started"
    with open_private(target.with_suffix(".txt"), append=False) as f:
        f.write(
            f"{path.name}:{damage.line}: {damage.reason}\n"
            f"{then}; {target.name} is the journal as it was.\n"
        )
        f.flush()
        os.fsync(f.fileno())


def setup_problem(path: Path) -> Damage | None:
    """The damage of a journal whose setup line cannot be read (a changed byte, a line
    longer than any, not a setup), or starts no game (a referee refuses it): no game can
    be resumed from it. None when its setup starts a game, when it is a lone torn setup
    (`set_aside_torn_setup`), or when it is no regular file (`replay` says then). Reads
    the setup line and, to tell a lone torn setup, the next one: at most `MAX_LINE` bytes
    each."""
    try:
        with open_journal(path) as f:
            make_referee(JournalReader(file_lines(f), str(path)).setup)
    except TornSetup:
        return None
    except UnreadableSetup as exc:
        return Damage(exc.line, exc.reason, 0, setup=True)
    except JournalError:
        return None  # empty, or not a regular file: nothing to set aside
    except (ValueError, RuleError) as exc:  # SetupError, UnknownGame, BadInput
        return Damage(1, f"its game cannot be started: {exc}", 0, setup=True)
    return None


def torn_setup(path: Path) -> bool:
    """Is the journal at ``path`` only a torn setup line (no game was started)? Reads at
    most `TORN_SETUP_HEAD` bytes, so a long journal costs nothing."""
    with open(path, "rb") as f:
        head = f.read(TORN_SETUP_HEAD + 1)
    lines = [line for line in head.split(b"\n") if line.strip()]
    if len(head) > TORN_SETUP_HEAD or len(lines) != 1:
        return False
    try:
        read_lines(lines, str(path))
    except TornSetup:
        return True
    except JournalError:
        return False
    return False


def set_aside_torn_setup(path: Path) -> Path | None:
    """Move a journal that is only a torn setup line to ``archive/`` (named
    ``<stem>-torn-setup-<time>``) so a new game can start; where it went, or None when
    ``path`` is not one (or does not exist)."""
    if not path.is_file() or not torn_setup(path):
        return None
    return set_aside(path, "torn-setup")


def set_aside(path: Path, reason: str | None = None) -> Path:
    """Move a journal to the ``archive/`` folder beside it (0700), as
    ``<stem>[-<reason>]-<time><suffix>`` (never over another file); both folders'
    entries are fsync'd."""
    target = _archive_target(path, reason)
    os.replace(path, target)
    fsync_dir(target.parent)
    fsync_dir(path.parent)
    return target


def _archive_target(path: Path, reason: str | None) -> Path:
    """A free name in the ``archive/`` folder beside ``path`` (made 0700 if missing):
    ``<stem>[-<reason>]-<time><suffix>``, with ``-2``, ``-3``... when taken (a name
    whose note, ``.txt``, is taken counts as taken)."""
    folder = path.parent / "archive"
    make_private_dirs(folder)
    stem = path.stem if reason is None else f"{path.stem}-{reason}"
    base = f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}"
    target = folder / f"{base}{path.suffix}"
    count = 1
    while target.exists() or target.with_suffix(".txt").exists():
        count += 1
        target = folder / f"{base}-{count}{path.suffix}"
    return target
