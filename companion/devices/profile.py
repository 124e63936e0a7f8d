"""The table profile: what `companion doctor --walk` found, read back by the service.

The walk writes ``table-profile.json`` in the data directory: when it walked, how many
readers it walked, whether the table passed, what it found (one sentence each), each
reader's figures, and ``spot_of``: for readers found swapped (their chip selects crossed),
the spot each one actually sits under; and, when the walk measured it, the tags'
power-up wait: the lowest that read every token (``settle_lowest_us``) and the one
recommended (``settle_us``, twice it). The service reads the profile at start
(`table_profile`): it logs the verdict, gives the Pico the profile's ``settle_us`` unless
the config sets one by hand (`ReadersConfig.settle`), and plays a table with swapped
readers as if they were wired right, by renumbering their observations (`played_as`),
until the wires are fixed and the walk run again. A profile it cannot read is logged and
ignored: the table then plays as wired, at the config's wait or 300 µs.

Fields are added, never renamed: a profile without one still loads (the field is None),
and older code ignores the fields it does not know.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.devices.readers import (
    ReaderFault,
    ReaderOk,
    Readers,
    Reported,
    Sink,
    SpotContents,
)

log = logging.getLogger("companion")

PROFILE = "table-profile.json"
MAX_BYTES = 1 << 20
SETTLE_RANGE = (0, 20000)
"""The power-up waits a profile may hold: those ``[readers] settle_us`` accepts."""


class ProfileError(ValueError):
    """A profile file that is not one."""


@dataclass(frozen=True)
class TableProfile:
    walked: str
    """When, ISO 8601 (UTC)."""
    readers: int
    healthy: bool
    findings: tuple[str, ...] = ()
    spot_of: dict[int, int] = field(default_factory=dict)
    """Reader as the Pico numbers it -> the spot it sits under, where the two differ."""
    details: tuple[dict[str, Any], ...] = ()
    """Per reader: its verdict and figures (drops, reports, who else read its token)."""
    settle_us: int | None = None
    """The power-up wait the service gives the Pico (µs; None: not measured)."""
    settle_lowest_us: int | None = None
    """The lowest power-up wait at which every token read (µs), for the record."""

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["spot_of"] = {str(k): v for k, v in sorted(self.spot_of.items())}
        data["profile"] = 1
        return data


def write_profile(folder: Path, profile: TableProfile) -> Path:
    """Write ``profile`` into ``folder`` atomically; its path."""
    path = folder / PROFILE
    temp = path.with_suffix(".tmp")
    temp.write_text(json.dumps(profile.to_json(), indent=1, sort_keys=True) + "\n")
    os.replace(temp, path)
    return path


def load_profile(folder: Path) -> TableProfile | None:
    """The profile in ``folder``, None when there is none; `ProfileError` naming what is
    wrong with a file that is not one."""
    path = folder / PROFILE
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ProfileError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    if len(raw) > MAX_BYTES:
        raise ProfileError(f"{path}: larger than any table profile")
    try:
        data = json.loads(raw)
        if data.get("profile") != 1:
            raise ValueError("not a table profile of this version")
        readers = int(data["readers"])
        spot_of = {int(k): int(v) for k, v in dict(data.get("spot_of", {})).items()}
        if sorted(spot_of) != sorted(spot_of.values()) or not all(
            0 <= r < readers for r in spot_of
        ):
            raise ValueError("spot_of must swap readers among themselves")
        return TableProfile(
            walked=str(data["walked"]),
            readers=readers,
            healthy=bool(data["healthy"]),
            findings=tuple(str(f) for f in data.get("findings", ())),
            spot_of=spot_of,
            details=tuple(dict(d) for d in data.get("details", ())),
            settle_us=_settle(data, "settle_us"),
            settle_lowest_us=_settle(data, "settle_lowest_us"),
        )
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise ProfileError(
            f"{path}: {exc}; run companion doctor --walk again to rewrite it"
        ) from exc


def _settle(data: dict[str, Any], key: str) -> int | None:
    """A power-up wait of the profile: None when absent (a profile from before the walk
    measured it, or a walk that did not)."""
    value = data.get(key)
    if value is None:
        return None
    low, high = SETTLE_RANGE
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(
            f"{key} = {json.dumps(value)[:40]}: must be a whole number of microseconds "
            f"from {low} to {high}"
        )
    return value


class _RemapSink:
    def __init__(self, sink: Sink, spot_of: dict[int, int]) -> None:
        self.sink = sink
        self.spot_of = spot_of

    def put_nowait(self, item: Reported, /) -> None:
        if isinstance(item, SpotContents | ReaderFault | ReaderOk):
            item = dataclasses.replace(item, reader=self.spot_of.get(item.reader, item.reader))
        self.sink.put_nowait(item)


class Remapped:
    """A readers back end whose readers are renumbered (``spot_of``) on their way out."""

    def __init__(self, inner: Readers, spot_of: dict[int, int]) -> None:
        self.inner = inner
        self.spot_of = dict(spot_of)

    def start(self, sink: Sink) -> None:
        self.inner.start(_RemapSink(sink, self.spot_of))

    def stop(self) -> None:
        self.inner.stop()

    @property
    def thread(self) -> object:
        return getattr(self.inner, "thread", None)


def table_profile(folder: Path | None) -> TableProfile | None:
    """The table profile in ``folder`` as the service takes it, its verdict logged; None
    (logged) when there is none or it cannot be read."""
    if folder is None:
        return None
    try:
        profile = load_profile(folder)
    except ProfileError as exc:
        log.warning("table profile ignored: %s", exc)
        return None
    if profile is None:
        return None
    if profile.healthy:
        log.info("table profile of %s: every reader passed the walk", profile.walked)
    else:
        # The findings are in the builder's language; the log names each reader's verdict.
        verdicts = [f"reader {d.get('reader')} {d.get('verdict')}" for d in profile.details
                    if d.get("verdict") != "ok"]  # fmt: skip
        log.warning("table profile of %s: %s", profile.walked,
                    "; ".join(verdicts) or "no power-up wait read every token")  # fmt: skip
    return profile


def played_as(readers: Readers, profile: TableProfile | None) -> Readers:
    """``readers`` as ``profile`` says to play them: renumbered when the last walk found
    swapped readers."""
    if profile is None or not profile.spot_of:
        return readers
    pairs = ", ".join(f"reader {r} is spot {s}" for r, s in sorted(profile.spot_of.items()))
    log.warning("swapped readers played as wired right (table profile): %s", pairs)
    return Remapped(readers, profile.spot_of)
