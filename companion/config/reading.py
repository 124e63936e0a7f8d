"""Reading values out of parsed TOML, each problem one line naming the key and the fix.

A `Checker` never stops at the first problem: it records a line
``<file>: <key> = <value>: <the fix>`` and goes on with the default, so that a table
owner sees every problem of the file at once. The small value checks here (`int_in`,
`float_in`, `choice`, ...) return the value when it is acceptable, else None.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")

Rule = tuple[Callable[[Any], Any], str]
"""How one key is checked (see `Checker.get`), and the fix a person reads when it fails."""


class Checker:
    """Reads typed values out of nested TOML tables, collecting problems."""

    def __init__(self, name: str, data: Mapping[str, Any]) -> None:
        self.name = name
        self.data = data
        self.problems: list[str] = []

    def bad(self, key: str, value: Any, fix: str) -> None:
        shown = show(value)
        self.problems.append(f"{self.name}: {key} = {shown}: {fix}")

    def table(self, key: str) -> Mapping[str, Any]:
        value = self.data.get(key, {})
        if not isinstance(value, Mapping):
            self.bad(key, value, f"must be a table: write [{key}] on a line of its own")
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
            hint = ", ".join(sorted(known))
            self.problems.append(
                f"{self.name}: {prefix}{key}: unknown key (known keys here: {hint}; check the "
                "spelling against docs/companion.example.toml)"
            )


def show(value: Any) -> str:
    """A value as the TOML file would write it (a table as ``{...}``)."""
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "{...}"
    return repr(value)


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
    """A string that is not blank."""
    return v if isinstance(v, str) and v.strip() else None


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


def undecodable(exc: UnicodeDecodeError) -> str:
    """Where a file stops being UTF-8, in words (the byte and its offset)."""
    return f"byte 0x{exc.object[exc.start]:02X} at offset {exc.start}"
