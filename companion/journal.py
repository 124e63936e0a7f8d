"""The game journal: every input of a live game, one JSON object a line, fsync'd.

The format is a public interface (docs/journal.md gives every field, with examples):
scenario files for tests are written in it, and replaying a journal through the referee
rebuilds the same game. `t` is seconds since the game started; seats are 0-based,
clockwise; spots are 1..N in reading order and 0 is the pad. The first line is the
`setup` (the game's registry name, its seats, first seat, tags and own `rules`); then come
inputs: `spot` (a reader's debounced UIDs), `press` (a control, with a seat or a value),
`tick`, `reader` (a reader stops or starts again answering) and `resume` (where
`companion run --resume` restarted, with what the readers saw at that moment). One more
line is no input: `end`, written after the input that ended the game, with its result
(`EndLine`), so a replay checks that the same inputs end the same game there.

The companion's `JournalWriter` ends every line with two members, `"seq":<n>` (the line's
number: the setup is 1) and `"crc":"<8 hex>"` (the CRC-32 of the line's bytes without
it), so a changed byte, or a line removed, repeated or moved, is found, never read as
another game; scenario files written by hand carry neither, and say so on their setup
line (`"scenario":true`): a journal with neither that does not say it is refused
(`JournalReader` holds a journal to its setup line's convention).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
import uuid
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, AnyStr, BinaryIO, NamedTuple

from companion import journal_fields as fields
from companion.contract.inputs import CONTROL_NAME as CONTROL_NAME
from companion.contract.inputs import Input as Input
from companion.contract.inputs import PressInput as PressInput
from companion.contract.inputs import ReaderInput as ReaderInput
from companion.contract.inputs import ResumeInput as ResumeInput
from companion.contract.inputs import Setup as Setup
from companion.contract.inputs import SpotInput as SpotInput
from companion.contract.inputs import TickInput as TickInput

if TYPE_CHECKING:
    from companion.contract.game import TableSetting

RECORD_TYPES = ("setup", "spot", "press", "tick", "reader", "resume", "end")
GAME_ID = re.compile(r"[0-9a-f]{8,32}")
"""A game's id on its setup line (`Setup.id`): lower-case hex digits, 16 when the companion
writes it."""
SCENARIO = "scenario"
"""The setup line's member that makes a journal without line numbers and checksums a
scenario written by hand (`"scenario":true`); any other such journal is refused."""


class JournalError(ValueError):
    """A journal or scenario line that cannot be read; the message names the line."""


@dataclass(frozen=True, slots=True)
class EndLine:
    """Not an input: the line written right after the input that ended the game (never
    fed to the referee), with the game's result, so that a replay checks the same inputs
    end the same game at the same line (a finished game's last input removed is then
    found, never read as a shorter game)."""

    t: float
    scores: tuple[Any, ...]
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        return {"t": self.t, "type": "end", "scores": list(self.scores), "winner": self.winner}


Record = Setup | Input | EndLine
"""Whatever a journal line holds."""


def new_game_id() -> str:
    """A new game's id (`Setup.id`): 16 random hex digits."""
    return uuid.uuid4().hex[:16]


def game_id(setup: Setup) -> str:
    """The game's id: its setup line's own (`Setup.id`), else one derived from the setup
    (a journal written before ids, or by another command), the same at every replay."""
    if setup.id is not None:
        return setup.id
    line = json.dumps(setup.to_json(), separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(line.encode("utf-8")).hexdigest()[:16]


SETUP_KEYS = (
    "t", "type", "game", "seats", "first", "seed", "settle", "language", "tags", "rules", "bots",
    "id", "virtual", SCENARIO,
)  # fmt: skip
LEGACY_LAYOUT = "layout"
"""A top-level key of the setup lines written before a game's own settings moved under its
`rules`, with the games' table settings marked `legacy` (`companion.games.TableSetting`):
read as strictly as then, then moved into `rules` for a game that takes them (its
descriptor's `setup_fields`), so an old journal replays to the same events. Every old line
carried those settings, whatever the game: a game not taking one drops it. The layout,
written only when a table set one, goes into `rules` under its own name, where a game that
takes none refuses it, as it did before."""
INPUT_KEYS = {
    "spot": ("t", "type", "spot", "uids", "age"),
    "press": ("t", "type", "control", "seat", "value"),
    "tick": ("t", "type"),
    "reader": ("t", "type", "spot", "ok", "across"),
    "resume": ("t", "type", "table"),
}
"""The keys of each input line; any other key is refused, named (docs/journal.md)."""
END_KEYS = ("t", "type", "scores", "winner")
MAX_AGE = 0.25
"""The oldest reading a `spot` input may say it is (`SpotInput.age`, seconds): a Pico
reports a change within a cycle or two of reading it (well under 0.1 s on a default
table); an older age from the link is clamped to this, and logged."""
MAX_SEATS = 64
"""More scores than any game has seats: no end line's."""


def parse_setup(data: Mapping[str, Any]) -> Setup:
    """The setup line, read strictly (`companion.journal_fields`): one `JournalError`
    naming the key and what it expects for a missing key, a value of the wrong type or out
    of its bounds (those of `config check` for the durations), or an unknown key."""
    try:
        return _setup(data)
    except fields.FieldError as exc:
        raise JournalError(f"setup line: {exc}") from exc


def _setup(data: Mapping[str, Any]) -> Setup:
    from companion.config.bounds import SETTLE
    from companion.config.model import LANGUAGES

    legacy = _legacy_settings() if not set(data) <= set(SETUP_KEYS) else {}
    fields.only_keys(data, (*SETUP_KEYS, *legacy, LEGACY_LAYOUT), "setup")
    seats = "a list of the players' names (strings), clockwise from seat 0"
    languages = " or ".join(f'"{code}"' for code in LANGUAGES)
    game = fields.text("game", fields.required(data, "game", "the game's name"))
    names = tuple(fields.texts("seats", fields.required(data, "seats", seats), seats))
    bots = fields.optional(data, "bots", _bots, None)
    if bots is not None and len(bots) != len(names):
        raise fields.refuse("bots", data["bots"], f"{len(names)} bot kinds, one a seat")
    fields.optional(data, SCENARIO, fields.boolean, False)  # the reader's (`JournalReader`)
    return Setup(
        game=game,
        seats=names,
        tags=fields.optional(data, "tags", fields.tags, {}),
        first=fields.optional(data, "first", fields.whole, 0),
        seed=fields.optional(data, "seed", lambda k, v: fields.whole(k, v, None), 0),
        settle=fields.optional(data, "settle", _checked(SETTLE.check, SETTLE.fix), 0.5),
        language=fields.optional(data, "language", _choice(LANGUAGES, languages), "fr"),
        t=fields.optional(data, "t", fields.number, 0.0),
        rules=_with_legacy(game, _rules(data.get("rules")), _legacy(data, legacy), legacy),
        bots=bots,
        id=fields.optional(data, "id", _game_id, None),
        virtual=fields.optional(data, "virtual", fields.boolean, False),
    )


def _game_id(key: str, value: Any) -> str:
    if not isinstance(value, str) or not GAME_ID.fullmatch(value):
        raise fields.refuse(key, value, "8 to 32 lower-case hexadecimal digits")
    return value


def _bots(key: str, value: Any) -> tuple[str, ...]:
    """The `bots` of a setup: one bot kind a seat (the seats' count is the game's check)."""
    return tuple(fields.texts(key, value, "a list of bot kinds, one a seat"))


def _legacy_settings() -> dict[str, TableSetting]:
    """The games' settings that old setup lines carried at top level, by name."""
    from companion import games

    return {name: s for name, s in games.table_settings().items() if s.legacy}


def _legacy(data: Mapping[str, Any], settings: Mapping[str, TableSetting]) -> dict[str, Any]:
    """The old top-level keys of the line, checked as they were (`LEGACY_LAYOUT`)."""
    readers: dict[str, Callable[[str, Any], Any]] = {
        name: _checked(setting.check, setting.fix) for name, setting in settings.items()
    }
    readers[LEGACY_LAYOUT] = _object
    found = {key: read(key, data[key]) for key, read in readers.items() if key in data}
    return {key: value for key, value in found.items() if value is not None}


def _with_legacy(
    game: str,
    rules: dict[str, Any] | None,
    legacy: Mapping[str, Any],
    settings: Mapping[str, TableSetting],
) -> dict[str, Any] | None:
    """`rules` with an old line's top-level keys moved in: under the name the game's
    descriptor gives (`Game.setup_fields`); a game's setting dropped when this game never
    took it (`settings`: those every old line carried)."""
    if not legacy:
        return rules
    from companion import games

    try:
        taken = games.get(game).setup_fields
    except games.UnknownGame:
        taken = {}
    moved = {
        taken.get(key, key): value
        for key, value in legacy.items()
        if key in taken or key not in settings
    }
    if not moved and rules is None:
        return None
    return moved | (rules or {})


def _checked(check: Callable[[Any], Any], fix: str) -> Callable[[str, Any], Any]:
    """A value read as `config check` reads the same key (its check and its fix)."""

    def read(key: str, value: Any) -> Any:
        checked = check(value)
        if checked is None:
            from companion.cli_words import text_of

            raise fields.FieldError(f"{key!r} = {fields.shown(value)}: {text_of(fix)}")
        return checked

    return read


def _choice(options: tuple[str, ...], expected: str) -> Callable[[str, Any], str]:
    def read(key: str, value: Any) -> str:
        if value not in options or not isinstance(value, str):
            raise fields.refuse(key, value, expected)
        return value

    return read


def _object(key: str, value: Any) -> dict[str, Any] | None:
    """A JSON object (of finite numbers), or null for none."""
    if value is not None and not isinstance(value, Mapping):
        raise fields.refuse(key, value, "an object")
    return None if value is None else dict(fields.json_value(key, value))


def _rules(value: Any) -> dict[str, Any] | None:
    """The setup's `rules`: a JSON object of setting names, or absent."""
    if value is None:
        return None
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise fields.FieldError(f"'rules' must be an object of settings, not {fields.shown(value)}")
    return dict(fields.json_value("rules", value))


def parse_input(data: Mapping[str, Any]) -> Input:
    """One input line, read strictly (`companion.journal_fields`): one `JournalError`
    naming the line's type and the key for a missing key, a value of the wrong type or out
    of its range, or an unknown key. The message never quotes the line (its UIDs)."""
    kind = data.get("type")
    read = _INPUT_READERS.get(kind) if isinstance(kind, str) else None
    if read is None or not isinstance(kind, str):
        name = repr(kind[:20]) if isinstance(kind, str) else fields.shown(kind)
        raise JournalError(
            f"unknown record type {name}; types are setup, spot, press, tick, reader, resume"
        )
    try:
        fields.only_keys(data, INPUT_KEYS[kind], kind)
        t = fields.number("t", fields.required(data, "t", "seconds since the game started"))
        return read(t, data)
    except fields.FieldError as exc:
        raise JournalError(f"{kind} line: {exc}") from exc


def _spot_number(key: str, value: Any) -> int:
    return fields.whole(key, value, 0, " (a spot; 0 is the pad)")


def _spot(t: float, data: Mapping[str, Any]) -> SpotInput:
    spot = _spot_number("spot", fields.required(data, "spot", "the spot's number"))
    uids = fields.uids("uids", fields.required(data, "uids", "a list"))
    age = fields.optional(data, "age", lambda key, v: fields.number(key, v, 0.0, MAX_AGE), 0.0)
    return SpotInput(t, spot, uids, age)


def _press(t: float, data: Mapping[str, Any]) -> PressInput:
    control = fields.required(data, "control", "the control's name, such as 'back'")
    if not isinstance(control, str) or not CONTROL_NAME.fullmatch(control):
        raise fields.refuse("control", control, "a lower-case name such as 'back'")
    seat = data.get("seat")
    seat = None if seat is None else fields.whole("seat", seat, 0, " (a seat, 0-based)")
    return PressInput(t, control, seat, fields.json_value("value", data.get("value")))


def _tick(t: float, data: Mapping[str, Any]) -> TickInput:
    return TickInput(t)


def _reader(t: float, data: Mapping[str, Any]) -> ReaderInput:
    spot = _spot_number("spot", fields.required(data, "spot", "the spot's number"))
    ok = fields.boolean("ok", fields.required(data, "ok", "true or false"))
    across = fields.optional(data, "across", _spot_number, None)
    if across is not None and (ok or across == spot):
        raise fields.refuse("across", across, "another spot, with ok false")
    return ReaderInput(t, spot, ok, across)


def _resume(t: float, data: Mapping[str, Any]) -> ResumeInput:
    table = fields.required(data, "table", "what the readers saw")
    return ResumeInput(t, fields.spot_table("table", table))


def parse_end(data: Mapping[str, Any]) -> EndLine:
    """An end-of-game line, read strictly (one `JournalError` naming the key)."""
    try:
        fields.only_keys(data, END_KEYS, "end")
        t = fields.number("t", fields.required(data, "t", "seconds since the game started"))
        scores = fields.required(data, "scores", "a list of the seats' scores")
        if not (isinstance(scores, list) and len(scores) <= MAX_SEATS and all(map(_score, scores))):
            raise fields.refuse("scores", scores, "a list of numbers (or null), one a seat")
        winner = fields.required(data, "winner", "the winning seat, or null")
        winner = None if winner is None else fields.whole("winner", winner, 0, " (a seat)")
    except fields.FieldError as exc:
        raise JournalError(f"end line: {exc}") from exc
    return EndLine(t, tuple(scores), winner)


def _score(value: Any) -> bool:
    """Is ``value`` a seat's score (a finite number, or null)?"""
    if value is None:
        return True
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


_INPUT_READERS: dict[str, Callable[[float, Mapping[str, Any]], Input]] = {
    "spot": _spot,
    "press": _press,
    "tick": _tick,
    "reader": _reader,
    "resume": _resume,
}


@dataclass
class Journal:
    """A journal read back: its setup, its inputs, and what had to be dropped."""

    setup: Setup
    inputs: list[Input]
    warnings: list[str] = field(default_factory=list)
    end: EndLine | None = None
    """The end-of-game line, when the game ended in it."""


class TornSetup(JournalError):
    """A journal whose only line is a torn setup: a power cut during a new game's first
    write. No game was started; the file is set aside (`session.set_aside_torn_setup`)."""


class UnreadableSetup(JournalError):
    """A setup line that cannot be read although it is not a lone torn line (a changed
    byte, a bad field, not a setup): no game can be resumed from the journal. `line` is
    its number, `reason` why (the message without the file and line)."""

    def __init__(self, name: str, line: int, reason: str) -> None:
        super().__init__(f"{name}:{line}: {reason}")
        self.line = line
        self.reason = reason


class ChecksumError(ValueError):
    """A line whose checksum or number is wrong or missing: changed, removed, repeated or
    moved after it was written."""


CRC_KEY = b',"crc":"'
"""How a line's checksum member starts: the writer puts it last, `,"crc":"<8 hex>"}`."""
_CRC_TAIL = len(CRC_KEY) + 8 + 2
_HEX8 = re.compile(rb"[0-9a-f]{8}")
_SEQ_TAIL = re.compile(rb',"seq":([1-9][0-9]{0,15})\}$')
"""A line's number, the member just before its checksum: `,"seq":<n>` (1 is the setup)."""

MAX_LINE = 1 << 20
"""The most bytes one journal line may have, its newline included. The longest line the
companion writes is a setup, which carries every enrolled tag of its game at some 40 bytes
a tag: 1.5 kB for a deck of 52 cards. A mebibyte is room for 25,000 tags (as much as the
configuration files may hold); anything longer was not written by the companion, and is
refused without being read whole (`companion replay /dev/zero`)."""
TOO_LONG = f"it is longer than any journal line (more than {MAX_LINE} bytes)"
NOT_A_SCENARIO = (
    'its lines carry no number and no checksum ("seq", "crc"), as every line the companion '
    'writes does, and it does not say "scenario": true, as a journal written by hand does: '
    "a journal stripped of them is not read"
)
MAX_JOURNAL = 16 << 20
"""The most bytes a file `read_journal` reads (`companion replay`, `companion report`, the
web page's replays) may have. A journal is some 70 bytes an input: an evening at a
restless table is well under a megabyte, `bench/resume_speed.py`'s 100,000 inputs are
7 MB. A larger file is no journal, and reading it into memory could exhaust the Pi."""


def with_checksum(body: str, seq: int | None = None) -> str:
    """A record's compact JSON (an object) with its checksum as a last member: the CRC-32
    (zlib) of the UTF-8 bytes of the line without it, as 8 lower-case hex digits. With
    ``seq``, the line's number in its journal comes first, `,"seq":<n>` before the
    checksum (which covers it)."""
    if seq is not None:
        body = f'{body[:-1]},"seq":{seq}}}'
    crc = zlib.crc32(body.encode("utf-8"))
    return f'{body[:-1]},"crc":"{crc:08x}"}}'


class Checked(NamedTuple):
    """A line as `checked` reads it."""

    body: bytes
    """The line without its `seq` and `crc` members."""
    checksummed: bool
    seq: int | None
    """The line's number in its journal, None when it carries none."""


def checked(line: bytes) -> Checked:
    """The line without its checksum member (and its number, when it has one), whether it
    had a checksum, and its number. A `ChecksumError` when it has a checksum that does not
    match: some byte of the line changed. A line number is only read inside a checksum."""
    text = line.rstrip()
    tail = text[-_CRC_TAIL:]
    if not (tail.startswith(CRC_KEY) and tail.endswith(b'"}') and _HEX8.fullmatch(tail[8:16])):
        return Checked(line, False, None)
    body = text[:-_CRC_TAIL] + b"}"
    if zlib.crc32(body) != int(tail[8:16], 16):
        raise ChecksumError("its checksum does not match: the line was changed or damaged")
    numbered = _SEQ_TAIL.search(body, max(0, len(body) - 26))
    if numbered is None:
        return Checked(body, True, None)
    return Checked(body[: numbered.start()] + b"}", True, int(numbered[1]))


def _out_of_place(seq: int, due: int) -> str:
    """Why a line numbered ``seq`` where line ``due`` was due cannot be taken."""
    why = "a line before it is missing" if seq > due else "a line is repeated"
    return f"it is numbered {seq} where {due} was due: {why}, or lines were moved"


@dataclass(frozen=True, slots=True)
class Damage:
    """Where a journal stops being readable: the first bad line that is not a torn last
    line, why (never its content: UIDs are secrets), and how many inputs come before it
    (the valid prefix). `setup`: that line is the setup's, so there is no game at all."""

    line: int
    reason: str
    inputs: int
    setup: bool = False


class JournalReader:
    """Reads a journal one line at a time: the setup at once, then the inputs as they are
    iterated (verified, parsed strictly, never all held in memory).

    A journal whose setup line carries a checksum (the companion's) must have a matching
    one on every line, and, when the setup is numbered (`"seq":1`), every line must carry
    its own number, so a line removed, repeated or moved is found like a changed one. A
    checksummed setup without a number is a journal of an older companion: read as before,
    with a warning saying a removed line would go unnoticed. One whose setup has no
    checksum must say it is a scenario written by hand (`SCENARIO`), else it is refused
    (a journal stripped of its numbers and checksums), and must have none anywhere. The
    end-of-game line (`EndLine`) is not yielded: it is kept in `end`, once, after
    ``check_end`` (set by whoever feeds a referee: what is wrong with it, or None) found
    it the game's end. A torn last line (cut
    mid-write: not a whole JSON object, or a byte that is not UTF-8) ends the inputs with
    a warning. Any other bad line, or one longer than `MAX_LINE`, is damage: an error
    naming it, or, with ``lenient``, the end of the inputs with `damage` set (the lines
    before it are the valid prefix). A lone torn setup raises `TornSetup`, any other setup
    line that cannot be read `UnreadableSetup`.

    After the iteration: `inputs` read, `last_t`, `warnings`, `damage`, and `kept_bytes`,
    the length of the valid prefix when the lines are a file's bytes; `cut` says whether
    anything but blank lines follows it (a torn line, or damage). During it, `line` is the
    number of the line of the input last read.
    """

    def __init__(
        self,
        lines: Iterable[str] | Iterable[bytes],
        name: str = "journal",
        *,
        lenient: bool = False,
    ) -> None:
        self.name = name
        self.lenient = lenient
        self._lines: Iterator[str | bytes] = iter(lines)
        self._number = 0
        self._offset = 0
        self.kept_bytes = 0
        self.inputs = 0
        self.records = 0
        """Lines read after the setup: the inputs and the end line."""
        self.line = 0
        self.end: EndLine | None = None
        self.check_end: Callable[[EndLine], str | None] | None = None
        self.warnings: list[str] = []
        self.damage: Damage | None = None
        self.cut = False
        number, raw = self._next_line()
        if not raw:
            raise JournalError(f"{name} is empty: it needs a setup line first")
        self.setup, self.checksummed, self.numbered = self._setup(number, raw)
        if self.checksummed and not self.numbered:
            self.warnings.append(
                f"{name}: its lines carry no numbers (written by an older companion): "
                "a line removed or repeated in it cannot be noticed"
            )
        self.last_t = self.setup.t
        self.kept_bytes = self._offset

    def _next_line(self) -> tuple[int, bytes]:
        """The next line that is not blank (its number and bytes), or (0, b"") at the end.
        A line longer than `MAX_LINE` counts as not blank, whatever it holds."""
        for line in self._lines:
            raw = line.encode("utf-8") if isinstance(line, str) else line
            self._number += 1
            self._offset += len(raw)
            if len(raw) > MAX_LINE or raw.strip():
                return self._number, raw
        return 0, b""

    def _another_line(self) -> bool:
        """After a line that is no JSON object: does a line that is not blank follow (it
        is then damage, not a torn last line)? Reads that line."""
        _, raw = self._next_line()
        return bool(raw)

    def _setup(self, number: int, raw: bytes) -> tuple[Setup, bool, bool]:
        """The setup, whether it has a checksum, and whether it is numbered."""
        if len(raw) > MAX_LINE:
            raise UnreadableSetup(self.name, number, TOO_LONG)
        try:
            line = checked(raw)
        except ChecksumError as exc:
            raise UnreadableSetup(self.name, number, str(exc)) from exc
        try:
            record = _record(line.body)
        except ValueError as exc:
            if not self._another_line():
                raise TornSetup(
                    f"{self.name}:{number}: its only line is a torn setup ({exc}): "
                    "no game was started"
                ) from exc
            raise UnreadableSetup(self.name, number, str(exc)) from exc
        if record.get("type") != "setup":
            raise UnreadableSetup(self.name, number, "the first line must be the setup")
        if line.seq not in (None, 1):
            raise UnreadableSetup(self.name, number, _out_of_place(line.seq, 1))
        try:
            setup = parse_setup(record)
        except JournalError as exc:
            raise UnreadableSetup(self.name, number, str(exc)) from exc
        if not line.checksummed and record.get(SCENARIO) is not True:
            raise UnreadableSetup(self.name, number, NOT_A_SCENARIO)
        return setup, line.checksummed, line.seq == 1

    def __iter__(self) -> Iterator[Input]:
        while True:
            number, raw = self._next_line()
            if not raw:
                return
            if len(raw) > MAX_LINE:
                self._damaged(number, ValueError(TOO_LONG))
                return
            try:
                line = checked(raw)
            except ChecksumError as exc:
                self._damaged(number, exc)
                return
            try:
                record = _record(line.body)
            except ValueError as exc:
                if self._another_line():
                    self._damaged(number, exc)
                else:
                    self.cut = True
                    self.warnings.append(f"{self.name}:{number}: torn last line dropped ({exc})")
                return
            try:
                self._in_place(line)
                made = None if record.get("type") == "end" else parse_input(record)
                if made is None:
                    self._end(record)
            except ValueError as exc:  # a ChecksumError or a JournalError
                self._damaged(number, exc)
                return
            self.records += 1
            self.kept_bytes = self._offset
            if made is None:
                continue
            self.inputs += 1
            self.last_t = made.t
            self.line = number
            yield made

    def _end(self, record: Mapping[str, Any]) -> None:
        """The end-of-game line, kept in `end` once ``check_end`` found nothing wrong."""
        end = parse_end(record)
        if self.end is not None:
            raise JournalError("a second end-of-game line: lines were repeated or moved")
        problem = None if self.check_end is None else self.check_end(end)
        if problem is not None:
            raise JournalError(problem)
        self.end = end

    def _in_place(self, line: Checked) -> None:
        """A `ChecksumError` when the line does not follow the journal's convention (a
        checksum, a number) or is not the line due here (the setup is line 1)."""
        if line.checksummed != self.checksummed:
            raise ChecksumError(
                "it has no checksum, as every line of this journal must"
                if self.checksummed
                else "it has a checksum although the setup line has none"
            )
        if not self.numbered:
            if line.seq is not None:
                raise ChecksumError("it has a number although the setup line has none")
            return
        due = self.records + 2
        if line.seq is None:
            raise ChecksumError("it has no number, as every line of this journal must")
        if line.seq != due:
            raise ChecksumError(_out_of_place(line.seq, due))

    def unended(self) -> list[str]:
        """After the iteration: the warning for a journal the companion wrote that has no
        end-of-game line (its game not over, or its last lines lost or removed)."""
        if self.end is not None or not self.checksummed or self.damage is not None:
            return []
        return [f"{self.name}: no end-of-game line: the game may be cut short (not over, or "
                "its last lines lost or removed)"]  # fmt: skip

    def _damaged(self, number: int, exc: Exception) -> None:
        """A bad line that is not a torn last line: an error, or (lenient) the end."""
        self.cut = True
        if not self.lenient:
            raise JournalError(f"{self.name}:{number}: {exc}") from exc
        self.damage = Damage(number, str(exc), self.inputs)


def read_lines(lines: Iterable[str] | Iterable[bytes], name: str = "journal") -> Journal:
    """Parse a whole journal (`JournalReader`): a torn last line is dropped with a warning,
    any other bad line is an error naming it; a journal whose only line is a torn setup
    raises `TornSetup`: no game was started."""
    reader = JournalReader(lines, name)
    inputs = list(reader)
    return Journal(reader.setup, inputs, reader.warnings, reader.end)


def _record(line: str | bytes) -> Mapping[str, Any]:
    """One line as a JSON object; a ValueError saying why it is not one (a line read as
    bytes that is not UTF-8 names the byte and its column)."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            byte = exc.object[exc.start]
            raise ValueError(
                f"not UTF-8 text (byte 0x{byte:02X} at column {exc.start + 1}): "
                "a journal is UTF-8 JSON Lines"
            ) from exc
    try:
        record = json.loads(line)
    except (ValueError, RecursionError) as exc:  # RecursionError: nested too deep
        raise ValueError(f"not a JSON object: {fields.json_error(exc)}") from exc
    if not isinstance(record, dict):
        raise ValueError("not a JSON object")
    return record


def read_journal(path: str | os.PathLike[str]) -> Journal:
    """Read the journal file at ``path`` (as bytes, so that a byte that is not UTF-8 is
    one line's problem: a torn last line, or an error naming its line). A file that is not
    a regular one, or larger than `MAX_JOURNAL`, is a `JournalError` before any read."""
    with open_journal(path, MAX_JOURNAL) as f:
        return read_lines(file_lines(f), str(path))


def open_journal(path: str | os.PathLike[str], max_bytes: int | None = None) -> BinaryIO:
    """The journal file at ``path`` open for reading bytes; a `JournalError` when it is
    not a regular file (a device such as /dev/zero, a FIFO, a folder: opened without
    waiting for a writer) or, with ``max_bytes``, when it is larger."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise JournalError(f"{path}: not a regular file, so not a journal")
        if max_bytes is not None and st.st_size > max_bytes:
            raise JournalError(
                f"{path}: {st.st_size} bytes, larger than any journal (at most {max_bytes})"
            )
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def file_lines(file: IO[AnyStr]) -> Iterator[AnyStr]:
    """A file's lines for `JournalReader`, none read whole when longer than `MAX_LINE`:
    such a line is yielded as its first ``MAX_LINE + 1`` bytes (damage, for the reader)
    and ends the lines."""
    while line := file.readline(MAX_LINE + 1):
        yield line
        if len(line) > MAX_LINE:
            return


def bounded_lines(file: IO[AnyStr], name: str) -> Iterator[AnyStr]:
    """The lines of ``file`` (`file_lines`); a line longer than `MAX_LINE` is a
    `JournalError` naming it, raised before it fills the memory (not all of /dev/zero)."""
    for number, line in enumerate(file_lines(file), start=1):
        if len(line) > MAX_LINE:
            raise JournalError(f"{name}:{number}: {TOO_LONG}: is it the right file?")
        yield line


class JournalWriter:
    """Appends inputs as they happen; each line is flushed and fsync'd before it counts.

    Each line ends with its number and its checksum (`with_checksum`), unless the journal
    it appends to has none (a scenario written by hand, resumed: its lines stay as its
    setup's) or only checksums (an older companion's). Appending to a numbered journal
    goes on from its last line's number, so the journal must end with a whole line: a
    torn or damaged end is cut first (`companion.session.replay` does). The file is 0600
    whatever the umask (it holds every secret of the game), a new one has its directory
    entry fsync'd, and the first append starts on a fresh line: a last line whose newline
    was lost in a cut is ended first, so it never swallows the next record.
    """

    def __init__(self, path: str | os.PathLike[str], checksum: bool | None = None) -> None:
        """``checksum``: end every line with one; None: as the file's first line does (a
        new or empty file: yes). Numbers go with checksums, as the first line has them
        (a new or empty file: yes)."""
        self.path = Path(path)
        make_private_dirs(self.path.parent)
        self._file: IO[str] = open_private(self.path, append=True)
        try:
            self.checksum, self.seq = _continuation(self._file, checksum, self.path)
            _end_last_line(self._file)
        except BaseException:
            self._file.close()
            raise

    def write(self, record: Record) -> None:
        line = line_of(record, self.checksum, self.seq)
        self._file.write(line + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())
        if self.seq is not None:
            self.seq += 1

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700
"""A journal holds every secret of a game: its files and the folders created for it are
for the service's user alone, whatever the umask."""


def open_private(path: Path, append: bool) -> IO[str]:
    """``path`` opened for writing text (appending, or truncated), mode 0600 whatever the
    umask; a file it creates has its directory entry fsync'd."""
    flags = os.O_CREAT | (os.O_RDWR | os.O_APPEND if append else os.O_WRONLY | os.O_TRUNC)
    created = not path.exists()
    fd = os.open(path, flags, PRIVATE_FILE)
    try:
        os.fchmod(fd, PRIVATE_FILE)
    except BaseException:
        os.close(fd)
        raise
    if created:
        fsync_dir(path.parent)
    return open(fd, "a" if append else "w", encoding="utf-8")


def make_private_dirs(folder: Path) -> None:
    """Create ``folder`` and its missing parents, each 0700 whatever the umask (a folder
    that exists is left as it is); each new entry is fsync'd in its parent."""
    missing = [f for f in (folder, *folder.parents) if not f.exists()]
    for new in reversed(missing):
        try:
            new.mkdir(mode=PRIVATE_DIR)
        except FileExistsError:
            continue  # made meanwhile by someone else: theirs to set
        new.chmod(PRIVATE_DIR)
        fsync_dir(new.parent)


def fsync_dir(folder: Path) -> None:
    """Make a file's creation, rename or removal in ``folder`` durable: fsync the folder
    itself (the file's own fsync does not cover its directory entry)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _continuation(file: IO[str], checksum: bool | None, path: Path) -> tuple[bool, int | None]:
    """How appends go on in this file: with checksums or not (``checksum``, else as its
    first line), and the number of the next line, None when its lines are not numbered
    (as its first line). Reads its first line and its last one, not the lines between."""
    fd = file.fileno()
    first = _first_line(fd)
    if first is None:
        return (True if checksum is None else checksum), (None if checksum is False else 1)
    try:
        head = checked(first)
    except ChecksumError:  # a damaged setup: nothing can be resumed; checksums, no numbers
        head = Checked(first, True, None)
    checksum = head.checksummed if checksum is None else checksum
    if not (checksum and head.seq == 1):
        return checksum, None
    try:
        seq = checked(_last_line(fd)).seq
    except ChecksumError:
        seq = None
    if seq is None:
        raise JournalError(
            f"{path}: its last line has no number to go on from (torn or damaged): "
            "replay it first, which cuts it"
        )
    return checksum, seq + 1


def _first_line(fd: int) -> bytes | None:
    """The file's first line that is not blank (None when there is none in its first
    `MAX_LINE` bytes, the longest journal line), cut there when longer."""
    head = os.pread(fd, MAX_LINE, 0)
    return next((line for line in head.split(b"\n") if line.strip()), None)


def _last_line(fd: int) -> bytes:
    """The file's last line that is not blank (b"" when there is none), without its
    newline: whole when it is a journal line (at most `MAX_LINE` bytes with it), cut to its
    last `MAX_LINE` bytes when longer. The blank lines after it are skipped first, a block
    at a time, so they never cut it."""
    end = os.fstat(fd).st_size
    while end > 0:
        start = max(0, end - MAX_LINE)
        kept = os.pread(fd, end - start, start).rstrip()
        if kept:
            end = start + len(kept)
            break
        end = start
    start = max(0, end - MAX_LINE)  # the line and the newline before it
    line = os.pread(fd, end - start, start)
    return line[line.rfind(b"\n") + 1 :]


def _end_last_line(file: IO[str]) -> None:
    """End the file's last line if its newline was lost (a cut after the bytes but before
    the ``\\n``), so the next record starts on a fresh line. The newline is written and
    fsync'd with that record: a cut before leaves the file as it was, ended again then."""
    fd = file.fileno()
    size = os.fstat(fd).st_size
    if size > 0 and os.pread(fd, 1, size - 1) != b"\n":
        file.write("\n")


def dump_lines(
    setup: Setup,
    inputs: Iterable[Input],
    checksum: bool = False,
    end: tuple[int, EndLine] | None = None,
) -> Iterator[str]:
    """A whole journal as lines: as the table writes it (``checksum``: numbered and
    checksummed), or as a scenario file for tests is written (without); ``end``: the
    end-of-game line, after that many inputs."""
    records: list[Record] = [setup, *inputs]
    if end is not None:
        records.insert(end[0] + 1, end[1])
    for seq, record in enumerate(records, start=1):
        yield line_of(record, checksum, seq)


def line_of(record: Record, checksum: bool, seq: int | None = None) -> str:
    """A record's line: its compact JSON, ending with its number (``seq``, when given) and
    its checksum when ``checksum``; without, a setup says it is a scenario (`SCENARIO`)."""
    data = record.to_json()
    if not checksum and isinstance(record, Setup):
        data = {"t": data.pop("t"), "type": data.pop("type"), SCENARIO: True} | data
    line = json.dumps(data, separators=(",", ":"))
    return with_checksum(line, seq) if checksum else line
