"""Reading values out of parsed TOML, each problem one line naming the key and the fix.

A `Checker` never stops at the first problem: it records a line
``<file>: <key> = <value>: <the fix>`` and goes on with the default, so that a table
owner sees every problem of the file at once. The small value checks here (`int_in`,
`float_in`, `choice`, ...) return the value when it is acceptable, else None.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from datetime import date, time
from typing import Any, TypeVar

from companion.cli_words import text_of
from companion.config.model import ConfigError
from companion.config.syntax import NotToml, toml_of
from companion.config.words import say

T = TypeVar("T")

BARE_KEY = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""A TOML key written without quotes (a longer one is shown quoted, and cut)."""

Rule = tuple[Callable[[Any], Any], str]
"""How one key is checked (see `Checker.get`), and the fix a person reads when it fails:
a phrase key (`companion.config.words.fix`), said when a value is refused, or its text."""


class Checker:
    """Reads typed values out of nested TOML tables, collecting problems."""

    def __init__(self, name: str, data: Mapping[str, Any]) -> None:
        self.name = name
        self.data = data
        self.problems: list[str] = []

    def bad(self, key: str, value: Any, fix: str) -> None:
        """Record that ``key = value`` is refused, with ``fix`` (a phrase key, or its text)."""
        self.problems.append(say("bad", name=self.name, key=key, shown=show(value),
                                 fix=text_of(fix)))  # fmt: skip

    def line(self, problem: str) -> None:
        """Record a problem of the file that is not one value's."""
        self.problems.append(say("line", name=self.name, problem=problem))

    def table(self, key: str) -> Mapping[str, Any]:
        value = self.data.get(key, {})
        if not isinstance(value, Mapping):
            self.bad(key, value, say("table", key=key))
            return {}
        return value

    def get(
        self,
        section: Mapping[str, Any],
        key: str,
        default: T,
        check: Callable[[Any], T | None],
        fix: str,
    ) -> T:
        short = key.rsplit(".", 1)[-1]
        if short not in section:
            return default
        value = section[short]
        result = check(value)
        if result is None:
            self.bad(key, value, fix)
            return default
        return result

    def values(
        self, section: Mapping[str, Any], table: str, default: Any, rules: Mapping[str, Rule]
    ) -> dict[str, Any]:
        """Every key of ``rules``, in their order, read out of ``section`` (the TOML table
        ``table``); a key left out or refused takes the field of ``default`` of its name."""
        return {
            key: self.get(section, f"{table}.{key}", getattr(default, key), check, fix)
            for key, (check, fix) in rules.items()
        }

    def unknown(self, prefix: str, section: Mapping[str, Any], known: set[str]) -> None:
        for key in sorted(set(section) - known):
            self.problems.append(
                say("unknown", name=self.name, key=prefix + toml_key(key),
                    known=", ".join(sorted(known)))
            )  # fmt: skip


SHOWN = 60
"""The longest a value is shown in a message (a longer one is cut, ending ``...``)."""


def show(value: Any) -> str:
    """A value as the TOML file would write it (a table as ``{...}``), on one line and at
    most `SHOWN` characters: a message stays one readable line whatever the file holds."""
    if isinstance(value, str):
        shown = '"' + "".join(_escaped(ch) for ch in value[:SHOWN]) + '"'
    elif isinstance(value, bool):
        shown = "true" if value else "false"
    elif isinstance(value, Mapping):
        shown = "{...}"
    elif isinstance(value, date | time):  # datetime is a date
        shown = value.isoformat()
    elif isinstance(value, int) and abs(value) >= 10**30:
        return say("too_large")  # repr() refuses past 4300 digits
    else:
        try:
            shown = repr(value)
        except (ValueError, RecursionError):  # a list holding such a number, or too deep
            shown = "[...]" if isinstance(value, list) else type(value).__name__
    return shown if len(shown) <= SHOWN else shown[: SHOWN - 3] + "..."


def toml_key(key: str) -> str:
    """A key as the TOML file would write it: bare when it may be, else quoted (so a key
    holding a newline or a NUL stays on the message's one line)."""
    return key if BARE_KEY.fullmatch(key) else show(key)


def _escaped(ch: str) -> str:
    """One character of a TOML basic string: quotes, backslashes and control characters
    (a NUL among them) escaped, so that a message is what the file says."""
    if ch in '"\\':
        return "\\" + ch
    if ch < " " or ch == "\x7f":
        return f"\\u{ord(ch):04X}"
    return ch


def int_in(lo: int, hi: int) -> Callable[[Any], int | None]:
    """A whole number from ``lo`` to ``hi`` (a TOML boolean is not one)."""

    def check(v: Any) -> int | None:
        return v if isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi else None

    return check


def float_in(lo: float, hi: float) -> Callable[[Any], float | None]:
    """A finite number from ``lo`` to ``hi``, as a float."""

    def check(v: Any) -> float | None:
        if isinstance(v, bool) or not isinstance(v, int | float):
            return None
        f = float(v)
        return f if math.isfinite(f) and lo <= f <= hi else None

    return check


def choice(options: tuple[Any, ...]) -> Callable[[Any], Any]:
    """One of ``options``."""

    def check(v: Any) -> Any:
        return v if not isinstance(v, bool) and v in options else None

    return check


def boolean(v: Any) -> bool | None:
    """true or false."""
    return v if isinstance(v, bool) else None


def text(v: Any) -> str | None:
    """A string that is not blank and holds no NUL byte (no file name, device or address
    can: the commands that open it would fail)."""
    return v if isinstance(v, str) and v.strip() and "\0" not in v else None


def host_address(v: Any) -> str | None:
    """An IPv4 or IPv6 address to listen on (a host name would depend on the network)."""
    import ipaddress

    if not isinstance(v, str):
        return None
    try:
        return str(ipaddress.ip_address(v))
    except ValueError:
        return None


def choices(options: tuple[Any, ...]) -> str:
    """The options, as a fix lists them."""
    return ", ".join(show(o) for o in options)


MAX_TOML_BYTES = 1 << 20
"""A configuration or a pin map is a few KiB; a bigger file is not one (`parse_toml`)."""


def parse_toml(raw: bytes, name: str) -> dict[str, Any]:
    """The TOML document ``raw`` (the bytes of the file ``name``); `ConfigError` with one
    line saying why it is not one, whatever the bytes: not UTF-8, not TOML (tomllib's
    error in our words, with its line and column), a number too long for Python to read,
    or arrays nested too deep for the parser."""
    if len(raw) > MAX_TOML_BYTES:
        raise ConfigError([say("too_big", name=name, n=MAX_TOML_BYTES)])
    try:
        return toml_of(raw)
    except NotToml as exc:
        raise ConfigError([say("line", name=name, problem=exc)]) from None
