"""Dataclasses as JSON-ready values, for engine states, actions and events."""

from __future__ import annotations

from dataclasses import fields
from enum import StrEnum
from typing import Any


def plain(obj: Any) -> dict[str, Any]:
    """A dataclass's fields as JSON-ready values (tuples become lists)."""

    def convert(value: Any) -> Any:
        if isinstance(value, tuple):
            return [convert(v) for v in value]
        if isinstance(value, StrEnum):
            return str(value)
        return value

    return {f.name: convert(getattr(obj, f.name)) for f in fields(obj) if f.name != "config"}
