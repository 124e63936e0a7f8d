"""The builder's kit's tests: the repository's own description, and pin maps changed from it."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.config.pins import REPOSITORY_PINS
from companion.kit.table import Table, load_table


def dump(data: dict[str, Any]) -> str:
    """A small TOML writer for the pin maps of these tests (tables of scalars and lists)."""
    lines: list[str] = []

    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, str):
            return '"' + v + '"'
        return repr(v)

    def table(prefix: str, data: dict[str, Any]) -> None:
        scalars = {k: v for k, v in data.items() if not isinstance(v, dict)}
        if prefix:
            lines.append(f"[{prefix}]")
        lines.extend(f"{k} = {value(v)}" for k, v in scalars.items())
        for k, v in data.items():
            if isinstance(v, dict):
                table(f"{prefix}.{k}" if prefix else k, v)

    table("", data)
    return "\n".join(lines) + "\n"


@pytest.fixture
def table() -> Table:
    return load_table()


@pytest.fixture
def pins_with(tmp_path: Path) -> Callable[[Callable[[dict[str, Any]], None]], Path]:
    """The repository's pin map changed by a function of its parsed tables, as a file."""

    def make(change: Callable[[dict[str, Any]], None]) -> Path:
        data = tomllib.loads(REPOSITORY_PINS.read_text())
        change(data)
        path = tmp_path / "pins.toml"
        path.write_text(dump(data))
        return path

    return make
