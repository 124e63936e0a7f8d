"""Engine values as JSON: states, and the tagged records every engine's actions and events
are (`{"action": name, ...}`, `{"kind": kind, ...}`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar, TypeVar

from companion.rules.errors import BadInput


def plain(obj: Any) -> dict[str, Any]:
    """A dataclass's fields as JSON-ready values (tuples become lists)."""

    def convert(value: Any) -> Any:
        if isinstance(value, tuple):
            return [convert(v) for v in value]
        if isinstance(value, StrEnum):
            return str(value)
        return value

    return {f.name: convert(getattr(obj, f.name)) for f in fields(obj) if f.name != "config"}


@dataclass(frozen=True, slots=True)
class TaggedAction:
    """Base of each engine's actions; `name` is the JSON tag. A field that must be of one
    spelling (an enum, a sorted tuple) normalises itself in `__post_init__`, so an action
    read back from JSON equals the one written."""

    name: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        return {"action": self.name, **plain(self)}


@dataclass(frozen=True, slots=True)
class TaggedEvent:
    """Base of each engine's events; `kind` is the JSON tag. Events hold public facts only."""

    kind: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **plain(self)}


A = TypeVar("A", bound=TaggedAction)


def action_from(actions: Mapping[str, type[A]], data: Mapping[str, Any], game: str) -> A:
    """Read back an action of `game` written by `to_json`. Anything else, even with the
    right keys (a journal or a phone can send a hat as null or text), is `BadInput`: an
    action's own normalising (`__post_init__`) must not raise from the referee."""
    try:
        cls = actions[data["action"]]
        return cls(**{f.name: data[f.name] for f in fields(cls)})
    except (KeyError, TypeError, ValueError) as exc:
        raise BadInput(f"not a {game} action: {data!r}") from exc
