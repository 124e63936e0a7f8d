"""The game journal: every input of a live game, one JSON object a line, fsync'd.

The format is a public interface (ARCHITECTURE.md, "Journal and replay format"): scenario
files for tests are written in it, and replaying a journal through the referee rebuilds
the same game. `t` is seconds since the game started; seats are 0-based, clockwise; spots
are 1..N in reading order and 0 is the pad.

    {"t":0,"type":"setup","game":"ptipasspass","seats":["Ana","Bob","Cy"],"first":0,...}
    {"t":3.1,"type":"spot","spot":5,"uids":["04A1B2C3"]}
    {"t":3.4,"type":"press","control":"announce","value":"lapin"}
    {"t":4.0,"type":"press","control":"doublon","seat":2}
    {"t":12.0,"type":"tick"}

Two input types are ours beyond the architecture's four: `{"type":"reader","spot":7,
"ok":false}` when a reader stops (or starts again) answering, and `{"type":"resume",
"table":{"5":["04A1B2C3"]}}` where `companion run --resume` restarted, with what the
readers saw at that moment.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

RECORD_TYPES = ("setup", "spot", "press", "tick", "reader", "resume")
CONTROL_NAME = re.compile(r"[a-z][a-z_]{0,31}")
"""A control's name: each game uses its own (PassPass: announce, doublon, menteur, choose,
aim, back); a referee refuses, and shows, a control its game does not use."""


class JournalError(ValueError):
    """A journal or scenario line that cannot be read; the message names the line."""


@dataclass(frozen=True, slots=True)
class Setup:
    """The first line: everything needed to start the same game again."""

    game: str
    seats: tuple[str, ...]
    tags: Mapping[str, str]
    """UID (upper-case hex) -> token kind, e.g. "animal:lapin" or "colour:bleu"."""
    first: int = 0
    seed: int = 0
    window: float = 6.0
    """Seconds a challenge window stays open (TABLE.md, PTI-7 timed mode)."""
    settle: float = 0.5
    """Seconds the table must be still before a change is judged (TABLE.md)."""
    doublon_min: float = 2.0
    """PHI-2: an announcement sooner than this after the drop is held until then."""
    language: str = "fr"
    layout: Mapping[str, Any] | None = None
    t: float = 0.0
    rules: Mapping[str, Any] | None = None
    """The game's own rule settings (Flip Done: phases, manches, first_element...): the
    engine Config's fields by name; None for the book's rules. Each game's referee checks
    them."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "t": self.t,
            "type": "setup",
            "game": self.game,
            "seats": list(self.seats),
            "first": self.first,
            "seed": self.seed,
            "window": self.window,
            "settle": self.settle,
            "doublon_min": self.doublon_min,
            "language": self.language,
            "tags": dict(self.tags),
        }
        if self.layout is not None:
            data["layout"] = dict(self.layout)
        if self.rules is not None:
            data["rules"] = dict(self.rules)
        return data


@dataclass(frozen=True, slots=True)
class SpotInput:
    """The debounced contents of one reader: what lies in that hat (or on the pad)."""

    t: float
    spot: int
    uids: frozenset[str]

    def to_json(self) -> dict[str, Any]:
        return {"t": self.t, "type": "spot", "spot": self.spot, "uids": sorted(self.uids)}


@dataclass(frozen=True, slots=True)
class PressInput:
    """A control: announce (value: a token kind), doublon / menteur (seat), choose (value:
    a line as a list of spots), aim (the line under the encoder), back (undo)."""

    t: float
    control: str
    seat: int | None = None
    value: Any = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"t": self.t, "type": "press", "control": self.control}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.value is not None:
            data["value"] = self.value
        return data


@dataclass(frozen=True, slots=True)
class TickInput:
    """Time passes, nothing else: the referee reads time only from inputs."""

    t: float

    def to_json(self) -> dict[str, Any]:
        return {"t": self.t, "type": "tick"}


@dataclass(frozen=True, slots=True)
class ReaderInput:
    """A reader stopped (ok=False) or started again (ok=True) answering."""

    t: float
    spot: int
    ok: bool

    def to_json(self) -> dict[str, Any]:
        return {"t": self.t, "type": "reader", "spot": self.spot, "ok": self.ok}


@dataclass(frozen=True, slots=True)
class ResumeInput:
    """`companion run --resume` restarted here; `table` is what the readers saw then."""

    t: float
    table: Mapping[int, frozenset[str]]

    def to_json(self) -> dict[str, Any]:
        table = {str(spot): sorted(uids) for spot, uids in sorted(self.table.items())}
        return {"t": self.t, "type": "resume", "table": table}


Input = SpotInput | PressInput | TickInput | ReaderInput | ResumeInput


def parse_setup(data: Mapping[str, Any]) -> Setup:
    try:
        seats = tuple(str(s) for s in data["seats"])
        tags = {str(uid).upper(): str(kind) for uid, kind in data.get("tags", {}).items()}
        return Setup(
            game=str(data["game"]),
            seats=seats,
            tags=tags,
            first=int(data.get("first", 0)),
            seed=int(data.get("seed", 0)),
            window=float(data.get("window", 6.0)),
            settle=float(data.get("settle", 0.5)),
            doublon_min=float(data.get("doublon_min", 2.0)),
            language=str(data.get("language", "fr")),
            layout=data.get("layout"),
            t=float(data.get("t", 0.0)),
            rules=_rules(data.get("rules")),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise JournalError(f"setup needs 'game' and 'seats' (and valid options): {exc}") from exc


def _rules(value: Any) -> dict[str, Any] | None:
    """The setup's `rules`: a JSON object of setting names, or absent."""
    if value is None:
        return None
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise ValueError(f"'rules' must be an object of settings, not {value!r}")
    return dict(value)


def parse_input(data: Mapping[str, Any]) -> Input:
    kind = data.get("type")
    try:
        t = float(data["t"])
        if kind == "spot":
            return SpotInput(t, int(data["spot"]), frozenset(str(u).upper() for u in data["uids"]))
        if kind == "press":
            control = str(data["control"])
            if not CONTROL_NAME.fullmatch(control):
                raise JournalError(f"bad control {control!r}: a lower-case name such as 'back'")
            seat = data.get("seat")
            return PressInput(t, control, None if seat is None else int(seat), data.get("value"))
        if kind == "tick":
            return TickInput(t)
        if kind == "reader":
            return ReaderInput(t, int(data["spot"]), bool(data["ok"]))
        if kind == "resume":
            table = {int(s): frozenset(str(u).upper() for u in v) for s, v in data["table"].items()}
            return ResumeInput(t, table)
    except (KeyError, TypeError, ValueError) as exc:
        raise JournalError(f"bad {kind} record {dict(data)!r}: {exc}") from exc
    raise JournalError(
        f"unknown record type {kind!r}; types are setup, spot, press, tick, reader, resume"
    )


@dataclass
class Journal:
    """A journal read back: its setup, its inputs, and what had to be dropped."""

    setup: Setup
    inputs: list[Input]
    warnings: list[str] = field(default_factory=list)


def read_lines(lines: Iterable[str], name: str = "journal") -> Journal:
    """Parse a journal. A torn last line (a power cut mid-write) is dropped with a warning;
    a bad line anywhere else is an error naming it."""
    rows = [(i, line) for i, line in enumerate(lines, start=1) if line.strip()]
    if not rows:
        raise JournalError(f"{name} is empty: it needs a setup line first")
    records: list[Mapping[str, Any]] = []
    warnings = []
    for index, (number, line) in enumerate(rows):
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            if index == len(rows) - 1:
                warnings.append(f"{name}:{number}: torn last line dropped ({exc})")
                break
            raise JournalError(f"{name}:{number}: not a JSON object: {exc}") from exc
        records.append(record)
    if not records or records[0].get("type") != "setup":
        raise JournalError(f"{name}:1: the first line must be the setup")
    setup = parse_setup(records[0])
    inputs = []
    for number, record in zip((n for n, _ in rows[1:]), records[1:], strict=False):
        try:
            inputs.append(parse_input(record))
        except JournalError as exc:
            raise JournalError(f"{name}:{number}: {exc}") from exc
    return Journal(setup, inputs, warnings)


def read_journal(path: str | os.PathLike[str]) -> Journal:
    try:
        with open(path, encoding="utf-8") as f:
            return read_lines(f, str(path))
    except UnicodeDecodeError as exc:
        raise JournalError(
            f"{path} is not UTF-8 text (byte 0x{exc.object[exc.start]:02X} at offset "
            f"{exc.start}): a journal is UTF-8 JSON Lines"
        ) from exc


class JournalWriter:
    """Appends inputs as they happen; each line is flushed and fsync'd before it counts."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] = open(self.path, "a", encoding="utf-8")  # noqa: SIM115

    def write(self, record: Setup | Input) -> None:
        self._file.write(json.dumps(record.to_json(), separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def dump_lines(setup: Setup, inputs: Iterable[Input]) -> Iterator[str]:
    """A whole journal as lines (for scenario files and tests)."""
    yield json.dumps(setup.to_json(), separators=(",", ":"))
    for record in inputs:
        yield json.dumps(record.to_json(), separators=(",", ":"))
