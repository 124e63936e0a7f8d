"""PassPass's table settings, kept in its setup's `rules` (docs/journal.md): the seconds of a
challenge window (PTI-7 timed mode), PhiPassPass's `doublon_min` (PHI-2) and a table's own
hat layout (PTI-2). The config writes them from its ``[game]`` keys; an old journal's setup
line had them at top level, and the journal reader moves them here (`SETUP_FIELDS`).

Not to be mixed with the engine's `window` setting, the lab's window MODE ("round" or
"timed"): a table always plays timed windows, hence `window_seconds` here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.config.bounds import Seconds
from companion.games import TableSetting
from companion.games.passpass.rules.layouts import Layout
from companion.journal import Setup
from companion.referee.pace import SetupError
from companion.screens.text import register_words

SETUP_FIELDS: Mapping[str, str] = {
    "window": "window_seconds",
    "doublon_min": "doublon_min",
    "layout": "layout",
}
"""The config's ``[game]`` key (and an old setup line's top-level key) -> its `rules` key."""
TABLE_KEYS = tuple(SETUP_FIELDS.values())
WINDOW_SECONDS = 6.0
"""The book's challenge window (PTI-7)."""
DOUBLON_MIN_SECONDS = 2.0
"""PHI-2: an announcement sooner than this after the drop is held until then."""

WINDOW = Seconds(
    1.0,
    60.0,
    "seconds the challenge window stays open: a number from 1 to 60 (book: 6)",
    WINDOW_SECONDS,
)
DOUBLON_MIN = Seconds(
    0.0,
    10.0,
    "PhiPassPass (PHI-2): seconds after the drop before an announcement is taken, so every "
    "seat may call Doublon: 0 to 10 (default 2)",
    DOUBLON_MIN_SECONDS,
)
WINDOW_HELP = "passpass.cli.window"
"""`companion play --window`'s help, in the command line's language."""
register_words("passpass", {
    "fr": {WINDOW_HELP: f"fenêtre de défi, en secondes : {WINDOW.low:g} à {WINDOW.high:g}"},
    "en": {WINDOW_HELP: f"challenge window, seconds: {WINDOW.low:g} to {WINDOW.high:g}"},
}, drawn=False)  # fmt: skip
TABLE_SETTINGS = (
    TableSetting(
        "window",
        WINDOW.check,
        WINDOW.fix,
        WINDOW.default,
        "window {value:g} s",
        option_help=WINDOW_HELP,
        legacy=True,
    ),
    TableSetting(
        "doublon_min",
        DOUBLON_MIN.check,
        DOUBLON_MIN.fix,
        DOUBLON_MIN.default,
        "doublon_min {value:g} s (PhiPassPass)",
        legacy=True,
    ),
)
"""The ``[game]`` keys of both editions (`Game.table_settings`): the config, `config check`,
`play --window` and an old journal's setup line check them with these bounds and words."""


@dataclass(frozen=True, slots=True)
class TableSettings:
    window: float = WINDOW_SECONDS
    """Seconds a challenge window stays open."""
    doublon_min: float = DOUBLON_MIN_SECONDS
    layout: Layout | None = None
    """The table's own hat positions; None: the book's grid."""


def table_settings(setup: Setup) -> TableSettings:
    """The setup's table settings, checked against the bounds `config check` uses; raises
    `SetupError` naming the setting (`LayoutError` for a layout that cannot be played)."""
    rules = setup.rules or {}
    layout = rules.get("layout")
    if layout is not None and not isinstance(layout, Mapping):
        raise SetupError("rules layout must be an object (positions = [[row, col], ...])")
    own = Layout.from_json(layout) if layout else None  # raises LayoutError, a ValueError
    return TableSettings(
        _seconds(rules, "window_seconds", WINDOW, WINDOW_SECONDS),
        _seconds(rules, "doublon_min", DOUBLON_MIN, DOUBLON_MIN_SECONDS),
        own,
    )


def _seconds(rules: Mapping[str, Any], key: str, bounds: Seconds, default: float) -> float:
    if key not in rules:
        return default
    value = bounds.check(rules[key])
    if value is None:
        raise SetupError(f"rules {key} = {rules[key]!r}: {bounds.fix}")
    return value
