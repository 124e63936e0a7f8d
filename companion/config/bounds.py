"""The bounds of the durations a table configures, each with the fix a person reads.

A value that both the file and a command line option set (``game.window`` and
``play --window``) is checked against one `Seconds` object, so `config check` and the
option refuse the same values with the same words. ``DOUBLON_MIN`` (PHI-2) uses the same
mechanism.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.config.reading import float_in


@dataclass(frozen=True, slots=True)
class Seconds:
    """The allowed range of a duration in seconds, with the fix a person reads when a
    value is outside it. One object per key, shared by `config check` and the command
    line options that set the same value (``play --window``), so the bounds exist once."""

    low: float
    high: float
    fix: str
    default: float
    """The value when neither the file nor the option gives one."""

    def check(self, value: Any) -> float | None:
        """The value as a float when it is a finite number within the bounds, else None."""
        return float_in(self.low, self.high)(value)


WINDOW = Seconds(
    1.0, 60.0, "seconds the challenge window stays open: a number from 1 to 60 (book: 6)", 6.0
)
SETTLE = Seconds(
    0.05,
    5.0,
    "seconds the table must be still before a change is judged: 0.05 to 5 (default 0.5)",
    0.5,
)
DOUBLON_MIN = Seconds(
    0.0,
    10.0,
    "PhiPassPass (PHI-2): seconds after the drop before an announcement is taken, so every "
    "seat may call Doublon: 0 to 10 (default 2)",
    2.0,
)
