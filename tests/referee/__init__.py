"""The referee's tests, and where the suite keeps the journals it feeds the referee."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).parent.parent


def kept_journals() -> list[Path]:
    """Every journal the suite keeps: the core's (tests/referee/: regressions) and each
    game's (tests/games/<game>/referee/: its scenarios)."""
    core = (TESTS / "referee").rglob("*.jsonl")
    return sorted([*core, *(TESTS / "games").glob("*/referee/**/*.jsonl")])
