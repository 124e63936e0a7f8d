"""Strict reading of one journal line's fields: exact types, finite numbers, ranges, and
unknown keys named.

A journal, a scenario or a simulated table's script is written by a person or a device,
so a value of the wrong type is refused, never coerced: ``"seats": "Ana"`` is not the
three seats A, n, a, ``"ok": "false"`` is not true, ``"spot": 5.7`` is not spot 5, and
``"t": Infinity`` is no time. A boolean is not a number; a whole number is accepted where
a number with a fraction is. Each check raises `FieldError` naming the key and what it
expects; `companion.journal`'s parsers turn it into a `JournalError`, and the journal's
reader adds the file and line.

A message never quotes a string of the line (a UID or a token kind is a secret of the game,
and these messages reach the logs): numbers, booleans and null are shown as they are, any
other value only by its type.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

UID = re.compile(r"[0-9A-Fa-f]{8}|[0-9A-Fa-f]{14}|[0-9A-Fa-f]{20}")
"""A tag's UID: 4, 7 or 10 bytes as hex digits, as `companion enroll` records them."""
SPOT_KEY = re.compile(r"[0-9]{1,6}")
"""A spot number written as a JSON object's key (`resume`'s `table`)."""


class FieldError(ValueError):
    """One field of a line that cannot be read; the message names the key."""


def shown(value: Any) -> str:
    """A value as a message may show it: numbers, booleans and null as JSON writes them,
    anything else by its type only (it may be a UID or a token kind)."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int):
        return str(value) if abs(value) < 10**15 else "a number too large"
    if isinstance(value, float):
        return (
            "NaN"
            if math.isnan(value)
            else {math.inf: "Infinity", -math.inf: "-Infinity"}.get(value, repr(value))
        )
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    return "an object" if isinstance(value, Mapping) else f"a {type(value).__name__}"


def key_name(key: Any) -> str:
    """A key as a message names it (an unknown key is shown, cut to 40 characters)."""
    return repr(key if len(str(key)) <= 40 else str(key)[:40] + "...")


def only_keys(data: Mapping[str, Any], known: Collection[str], what: str) -> None:
    """Refuse a key the line's type does not have, naming it and the keys it has."""
    unknown = [key for key in data if key not in known]
    if unknown:
        keys = ", ".join(known)
        raise FieldError(f"unknown key {key_name(unknown[0])} in a {what} line (its keys: {keys})")


def required(data: Mapping[str, Any], key: str, expected: str) -> Any:
    """The value of a key the line must have."""
    if key not in data:
        raise FieldError(f"{key!r} is missing: {expected}")
    return data[key]


def refuse(key: str, value: Any, expected: str) -> FieldError:
    """The error for `value` at `key`: what was expected, and what was found."""
    return FieldError(f"{key!r} must be {expected}, not {shown(value)}")


def number(key: str, value: Any, low: float = 0.0, high: float = math.inf) -> float:
    """A finite number from `low` to `high`, as a float (an int is one; a bool is not)."""
    expected = f"a finite number from {low:g}" + ("" if high == math.inf else f" to {high:g}")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise refuse(key, value, expected)
    if isinstance(value, int) and abs(value) > 2**53:
        raise refuse(key, value, expected)
    result = float(value)
    if not (math.isfinite(result) and low <= result <= high):
        raise refuse(key, value, expected)
    return result


def whole(key: str, value: Any, low: int | None = 0, what: str = "") -> int:
    """A whole number (JSON without a fraction or exponent), at least `low` when given."""
    expected = "a whole number" + ("" if low is None else f" from {low}") + what
    if isinstance(value, bool) or not isinstance(value, int):
        raise refuse(key, value, expected)
    if low is not None and value < low:
        raise refuse(key, value, expected)
    return value


def boolean(key: str, value: Any) -> bool:
    """true or false, exactly (the string "false" is not false)."""
    if not isinstance(value, bool):
        raise refuse(key, value, "true or false")
    return value


def text(key: str, value: Any, expected: str = "a string that is not empty") -> str:
    """A string that is not blank."""
    if not isinstance(value, str) or not value.strip():
        raise refuse(key, value, expected)
    return value


def texts(key: str, value: Any, expected: str) -> list[str]:
    """A list of strings that are not blank (a string is not a list of its letters)."""
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise refuse(key, value, expected)
    return list(value)


def uids(key: str, value: Any) -> frozenset[str]:
    """A list of tag UIDs, upper-cased."""
    expected = "a list of tag UIDs (8, 14 or 20 hex digits each)"
    if not isinstance(value, list) or not all(
        isinstance(u, str) and UID.fullmatch(u) for u in value
    ):
        raise refuse(key, value, expected)
    return frozenset(u.upper() for u in value)


def tags(key: str, value: Any) -> dict[str, str]:
    """The setup's tags: UID -> token kind, UIDs upper-cased, no UID twice."""
    expected = "an object of tag UID (8, 14 or 20 hex digits) -> token kind (a string)"
    if not isinstance(value, Mapping):
        raise refuse(key, value, expected)
    result: dict[str, str] = {}
    for number_, (uid, kind) in enumerate(value.items(), start=1):
        if not (isinstance(uid, str) and UID.fullmatch(uid) and isinstance(kind, str) and kind):
            raise FieldError(f"{key!r}: entry {number_} must be {expected}")
        if uid.upper() in result:
            raise FieldError(f"{key!r}: entry {number_} repeats a UID (in another case)")
        result[uid.upper()] = kind
    return result


def spot_table(key: str, value: Any) -> dict[int, frozenset[str]]:
    """`resume`'s table: spot number (a string of digits) -> a list of UIDs."""
    expected = 'an object of spot number (a string such as "5") -> list of tag UIDs'
    if not isinstance(value, Mapping):
        raise refuse(key, value, expected)
    table: dict[int, frozenset[str]] = {}
    for spot, contents in value.items():
        if not (isinstance(spot, str) and SPOT_KEY.fullmatch(spot)) or int(spot) in table:
            raise refuse(key, value, expected)
        try:
            table[int(spot)] = uids(key, contents)
        except FieldError as exc:
            raise FieldError(f"spot {spot} of {exc}") from None
    return table


MAX_DEPTH = 32
"""How deep lists and objects may nest in a line's value (`json_value`)."""


def json_error(exc: ValueError | RecursionError) -> str:
    """Why ``json.loads`` refused a line, in words: its own message, or for a line nested
    so deep that the parser ran out of stack (``[`` 100,000 times), that it is."""
    if isinstance(exc, RecursionError):
        return f"nested too deep (lists and objects at most {MAX_DEPTH} levels deep)"
    return str(exc)


def json_value(key: str, value: Any, depth: int = 0) -> Any:
    """A JSON value whose numbers are all finite, nested at most `MAX_DEPTH` deep (a
    press's `value`, a setup's `rules`: each game's referee reads them)."""
    if depth > MAX_DEPTH:
        raise FieldError(f"{key!r} is nested too deep (at most {MAX_DEPTH} levels)")
    if isinstance(value, float) and not math.isfinite(value):
        raise refuse(key, value, "a JSON value whose numbers are finite")
    if isinstance(value, list):
        return [json_value(key, v, depth + 1) for v in value]
    if isinstance(value, Mapping):
        if not all(isinstance(k, str) for k in value):
            raise refuse(key, value, "a JSON object (its keys strings)")
        return {k: json_value(key, v, depth + 1) for k, v in value.items()}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise refuse(key, value, "a JSON value")


def optional(
    data: Mapping[str, Any], key: str, read: Callable[[str, Any], Any], default: Any
) -> Any:
    """`read` applied to the key's value, or `default` when the key is absent."""
    return read(key, data[key]) if key in data else default
