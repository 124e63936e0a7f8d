"""The bounds of the durations a table configures, each with the fix a person reads.

A value that both the file and a command line option set (``game.settle`` and
``play --settle``) is checked against one `Seconds` object, so `config check` and the
option refuse the same values with the same words. A game's own durations (its
`companion.games.TableSetting`s) may use the same class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.config.reading import float_in
from companion.config.words import fix


@dataclass(frozen=True, slots=True)
class Seconds:
    """The allowed range of a duration in seconds, with the fix a person reads when a
    value is outside it. One object per key, shared by `config check` and the command
    line options that set the same value (``play --settle``), so the bounds exist once."""

    low: float
    high: float
    fix: str
    """The fix a person reads: a phrase key (`companion.cli_words.text_of` says it), or
    its text for a game that speaks one language."""
    default: float
    """The value when neither the file nor the option gives one."""

    def check(self, value: Any) -> float | None:
        """The value as a float when it is a finite number within the bounds, else None."""
        return float_in(self.low, self.high)(value)


SETTLE = Seconds(
    0.05,
    5.0,
    fix("settle"),
    0.5,
)
