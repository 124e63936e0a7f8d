"""Reliability item 8: the configuration and the pin map read whatever a file holds.

Property tests (hypothesis) feed `load_config` and `load_pins` arbitrary TOML documents
(arbitrary keys and values, and the files' own key names with arbitrary or nearly right
values, written by the small TOML writer below) and arbitrary bytes: each gives a `Config`
or a `PinMap`, or our `ConfigError` whose every problem is one line naming the file, and
nothing else (no other exception, no traceback).
"""

from __future__ import annotations

import math
import tempfile
import tomllib
from collections.abc import Callable, Iterator, Mapping
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import games
from companion.config import load_config
from companion.config.model import (
    DISPLAY_DRIVERS,
    LANGUAGES,
    READER_KINDS,
    Config,
    ConfigError,
    PinMap,
)
from companion.config.pins import load_pins
from companion.config.tables import (
    CONTROLS_RULES,
    DISPLAY_RULES,
    GAME_KEYS,
    READERS_KEYS,
    WEB_RULES,
)
from companion.games.flipdone import referee as flipdone
from companion.games.swiped import referee as swiped
from companion.games.vnp import referee as vnp
from tests.pi.conftest import PINS

# ------------------------------------------------------------------ a tiny TOML writer


def toml_key(key: str) -> str:
    """A key, always quoted (so any string is one)."""
    return toml_string(key)


def toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch < " " or ch == "\x7f":
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value: Any) -> str:
    """One value on one line (a table as an inline table)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return {math.inf: "inf", -math.inf: "-inf"}.get(value, repr(value))
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        items = ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items())
        return "{" + items + "}"
    raise TypeError(type(value))


def toml_document(data: Mapping[str, Any]) -> str:
    """A document: the top-level values first, then each table as ``[name]``."""
    lines = [f"{toml_key(k)} = {toml_value(v)}" for k, v in data.items() if not is_table(v)]
    for name, table in data.items():
        if is_table(table):
            lines.append(f"[{toml_key(name)}]")
            lines.extend(f"{toml_key(k)} = {toml_value(v)}" for k, v in table.items())
    return "\n".join(lines) + "\n"


def is_table(value: Any) -> bool:
    return isinstance(value, Mapping)


def same(a: Any, b: Any) -> bool:
    """Equal, NaN being equal to NaN (for the writer's round trip)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(a == b) and type(a) is type(b)


# ------------------------------------------------------------------ strategies

OFFSETS = st.integers(-23 * 60 - 59, 23 * 60 + 59).map(lambda m: timezone(timedelta(minutes=m)))
SCALARS = st.one_of(
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**200), max_value=2**200),
    st.floats(),
    st.text(max_size=12),
    st.dates(),
    st.times(),
    st.datetimes(),
    st.datetimes(timezones=OFFSETS),
)
KEYS = st.text(max_size=8)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=8,
)

NAMES = st.sampled_from(["Ana", "Bob", "Cy", "Dee", "Eve", "Fay", " ", ""])
RULE_KEYS = sorted(
    {*vnp.RULE_KEYS, *vnp.TABLE_KEYS, *flipdone.RULE_KEYS, *swiped.RULE_KEYS, *swiped.TABLE_KEYS}
)
NEARLY_RIGHT: dict[str, st.SearchStrategy[Any]] = {
    "name": st.sampled_from([*games.names(), "chess"]),
    "seats": st.one_of(st.integers(0, 8), st.lists(NAMES, max_size=7)),
    "first": st.integers(-1, 7),
    "window": st.floats(-1, 70),
    "settle": st.floats(-1, 6),
    "doublon_min": st.floats(-1, 11),
    "language": st.sampled_from([*LANGUAGES, "de"]),
    "seed": st.integers(-1, 2**64),
    "layout": st.fixed_dictionaries(
        {"positions": st.lists(st.lists(st.integers(-1, 6), max_size=3), max_size=20)}
    ),
    "rules": st.dictionaries(st.sampled_from(RULE_KEYS), VALUES, max_size=3),
    "data_dir": st.sampled_from(["data", "~", "~companion-no-such-user/x", "a\0b", " "]),
    "pins": st.sampled_from(["pins.toml", "nowhere.toml", "~companion-no-such-user", "."]),
    "driver": st.sampled_from([*DISPLAY_DRIVERS, "ssd1309"]),
    "kind": st.sampled_from([*READER_KINDS, "usb"]),
    "enabled": st.booleans(),
    "spi_spots": st.lists(st.lists(st.integers(-1, 7), max_size=3), max_size=4),
    "spi_rst": st.integers(-1, 30),
    "host": st.sampled_from(["0.0.0.0", "::1", "pi.local"]),
    "port": st.integers(0, 70000),
    "pairing_hours": st.one_of(st.integers(-1, 800), st.floats(-1, 800)),
}
TABLE_KEYS: dict[str, list[str]] = {
    "game": sorted(GAME_KEYS),
    "paths": ["data_dir", "pins"],
    "display": sorted(DISPLAY_RULES),
    "controls": sorted(CONTROLS_RULES),
    "readers": sorted(READERS_KEYS),
    "web": sorted(WEB_RULES),
}


def known_value(key: str) -> st.SearchStrategy[Any]:
    """A value for the file's own key: nearly right (often accepted) or anything."""
    right = NEARLY_RIGHT.get(key)
    return VALUES if right is None else st.one_of(right, right, VALUES)


def table(keys: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """A table of some of ``keys`` (and maybe an unknown key), or anything at all."""
    known = st.lists(st.sampled_from(keys), unique=True, max_size=len(keys)).flatmap(
        lambda chosen: st.fixed_dictionaries({k: known_value(k) for k in chosen})
    )
    extra = st.dictionaries(KEYS, VALUES, max_size=1)
    return st.builds(lambda a, b: {**b, **a}, known, extra)


ANY_CONFIGS = st.builds(
    lambda tables, extra: {**extra, **tables},
    st.lists(st.sampled_from(sorted(TABLE_KEYS)), unique=True).flatmap(
        lambda names: st.fixed_dictionaries(
            {n: st.one_of(table(TABLE_KEYS[n]), table(TABLE_KEYS[n]), VALUES) for n in names}
        )
    ),
    st.dictionaries(st.sampled_from(["schema", "", "pi"]), st.one_of(st.just(1), VALUES)),
)
VALID: dict[str, Any] = {
    "schema": 1,
    "game": {"name": "ptipasspass", "seats": 4},
    "display": {"driver": "dummy"},
    "controls": {"enabled": True},
    "readers": {"kind": "none"},
    "paths": {"data_dir": "data", "pins": "pins.toml"},
}
NEAR_CONFIGS = st.lists(
    st.sampled_from(sorted(TABLE_KEYS)).flatmap(
        lambda name: st.tuples(
            st.just(name),
            st.sampled_from(TABLE_KEYS[name]).flatmap(
                lambda k: st.tuples(st.just(k), known_value(k))
            ),
        )
    ),
    max_size=2,
).map(
    lambda changes: {
        **VALID,
        **{name: {**VALID.get(name, {}), key: value} for name, (key, value) in changes},
    }
)
"""A valid table with controls on (so the pin map is read) and a key or two changed."""
CONFIGS = st.one_of(NEAR_CONFIGS, ANY_CONFIGS)
PI_SECTIONS = {"seats": ["doublon", "menteur"], "console": ["announce", "back"],
               "encoder": ["a", "b", "push"], "oled": ["sda", "scl"]}  # fmt: skip
PIN = st.one_of(st.integers(-1, 30), VALUES)
REAL_PI: dict[str, Any] = tomllib.loads(PINS.read_text(encoding="utf-8"))["pi"]
GONE = object()
"""An edit that removes the key."""


def edited(changes: list[tuple[str, str, Any]]) -> dict[str, Any]:
    """The repository's pin map with ``changes`` (section, key, value or GONE) made."""
    pi = {name: dict(section) for name, section in REAL_PI.items()}
    for section, key, value in changes:
        table = pi.setdefault(section, {})
        if value is GONE:
            table.pop(key, None)
        else:
            table[key] = value
    return {"schema": 1, "pi": pi}


NEAR_PIN_MAPS = st.lists(
    st.tuples(
        st.sampled_from(sorted(PI_SECTIONS)),
        st.sampled_from(sorted({k for keys in PI_SECTIONS.values() for k in keys} | {"x"})),
        st.one_of(st.just(GONE), st.lists(st.integers(-1, 30), max_size=7), PIN),
    ),
    max_size=3,
).map(edited)
ANY_PIN_MAPS = st.fixed_dictionaries(
    {},
    optional={
        "pi": st.one_of(
            st.fixed_dictionaries(
                {},
                optional={
                    section: st.one_of(
                        st.fixed_dictionaries(
                            {},
                            optional={
                                k: st.one_of(st.lists(PIN, min_size=1, max_size=7), PIN)
                                for k in keys
                            },
                        ),
                        VALUES,
                    )
                    for section, keys in PI_SECTIONS.items()
                },
            ),
            VALUES,
        ),
        "schema": VALUES,
    },
)
PIN_MAPS = st.one_of(NEAR_PIN_MAPS, ANY_PIN_MAPS)


# ------------------------------------------------------------------ the properties


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    """One folder for every example (hypothesis and function-scoped tmp_path do not mix)."""
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


def our_error(exc: ConfigError, folder: Path) -> None:
    """Each problem is one line naming a file of ``folder`` (the config, the pin map it
    names, or the folder itself when it names that)."""
    assert exc.problems
    for problem in exc.problems:
        assert "\n" not in problem, problem
        assert problem.startswith(str(folder)) and ": " in problem, problem


def loaded_or_error(load: Callable[[Path], object], path: Path, expected: type) -> None:
    """``load(path)`` gives an ``expected`` or raises our ConfigError, nothing else."""
    try:
        loaded = load(path)
    except ConfigError as exc:
        our_error(exc, path.parent)
        return
    assert isinstance(loaded, expected)


def config_or_error(path: Path) -> None:
    loaded_or_error(load_config, path, Config)


def pins_or_error(path: Path) -> None:
    loaded_or_error(load_pins, path, PinMap)


def test_the_writer_writes_what_tomllib_reads() -> None:
    data = {"a": [1, 2.5, 'x\0"\\'], "t": {"k": {"n": math.inf}, "d": date(1, 2, 3)}}
    assert same(tomllib.loads(toml_document(data)), data)


CHECKS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@CHECKS
@given(data=CONFIGS, pin_map=PIN_MAPS)
def test_any_toml_config_gives_a_config_or_our_error(
    folder: Path, data: dict[str, Any], pin_map: dict[str, Any]
) -> None:
    text = toml_document(data)
    assert same(tomllib.loads(text), data)  # the writer wrote what was drawn
    path = folder / "companion.toml"
    path.write_text(text, encoding="utf-8")
    pins = folder / "pins.toml"
    pins.write_text(toml_document(pin_map), encoding="utf-8")
    config_or_error(path)


@CHECKS
@given(pin_map=PIN_MAPS)
def test_any_toml_pin_map_gives_a_pin_map_or_our_error(
    folder: Path, pin_map: dict[str, Any]
) -> None:
    text = toml_document(pin_map)
    assert same(tomllib.loads(text), pin_map)
    path = folder / "pins.toml"
    path.write_text(text, encoding="utf-8")
    pins_or_error(path)


def mangled(original: bytes) -> st.SearchStrategy[bytes]:
    """``original`` with a few bytes replaced, inserted or deleted; or any bytes."""

    def edit(data: bytes, at: int, cut: int, insert: bytes) -> bytes:
        at %= len(data) + 1
        return data[:at] + insert + data[at + cut :]

    edits = st.tuples(st.integers(0, 10**6), st.integers(0, 3), st.binary(max_size=4))
    many = st.lists(edits, min_size=1, max_size=4).map(
        lambda changes: _apply(original, changes, edit)
    )
    return st.one_of(st.binary(max_size=200), many)


def _apply(data: bytes, changes: list[tuple[int, int, bytes]], edit: Any) -> bytes:
    for at, cut, insert in changes:
        data = edit(data, at, cut, insert)
    return bytes(data)


EXAMPLE = (Path(__file__).resolve().parents[2] / "docs" / "companion.example.toml").read_bytes()


@CHECKS
@given(raw=mangled(EXAMPLE), pin_bytes=mangled(PINS.read_bytes()))
def test_any_bytes_give_a_config_or_our_error(folder: Path, raw: bytes, pin_bytes: bytes) -> None:
    path = folder / "companion.toml"
    path.write_bytes(raw)
    pins = folder / "pins.toml"
    pins.write_bytes(pin_bytes)
    # The example names no pin map: with controls on, the one beside it is used.
    config_or_error(path)
    pins_or_error(pins)
