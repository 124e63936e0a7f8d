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

from companion.cli_words import text_of
from companion.config.bounds import Seconds
from companion.games import TableSetting
from companion.games.passpass.rules.layouts import Layout, LayoutError
from companion.journal import Setup
from companion.referee.pace import SetupError, refused, typed
from companion.screens.text import number

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

WINDOW = Seconds(1.0, 60.0, "passpass.cli.window_fix", WINDOW_SECONDS)
DOUBLON_MIN = Seconds(0.0, 10.0, "passpass.cli.doublon_min_fix", DOUBLON_MIN_SECONDS)
WINDOW_HELP = "passpass.cli.window"
"""`companion play --window`'s help, in the command line's language."""
_FR = {"low": number(WINDOW.low, "g", "fr"), "high": number(WINDOW.high, "g", "fr"),
       "book": number(WINDOW.default, "g", "fr")}  # fmt: skip
_FR_DOUBLON = {"low": number(DOUBLON_MIN.low, "g", "fr"),
               "high": number(DOUBLON_MIN.high, "g", "fr"),
               "default": number(DOUBLON_MIN.default, "g", "fr")}  # fmt: skip
_EN = {"low": f"{WINDOW.low:g}", "high": f"{WINDOW.high:g}", "book": f"{WINDOW.default:g}"}
_EN_DOUBLON = {"low": f"{DOUBLON_MIN.low:g}", "high": f"{DOUBLON_MIN.high:g}",
               "default": f"{DOUBLON_MIN.default:g}"}  # fmt: skip
WORDS = {
    "fr": {
        WINDOW_HELP: "fenêtre de défi, en secondes : {low} à {high}".format(**_FR),
        WINDOW.fix: "secondes pendant lesquelles la fenêtre de défi reste ouverte : un nombre "
                    "de {low} à {high} (règle : {book})".format(**_FR),
        DOUBLON_MIN.fix: "PhiPassPass (PHI-2) : secondes après la pose avant qu’une annonce "
                         "soit prise, pour que chaque place puisse appeler Doublon : {low} à "
                         "{high} ({default} par défaut)".format(**_FR_DOUBLON),
        "passpass.cli.window_shown": "fenêtre de défi {value:g} s",
        "passpass.cli.doublon_min_shown": "doublon_min {value:g} s (PhiPassPass)",
    },
    "en": {
        WINDOW_HELP: "challenge window, seconds: {low} to {high}".format(**_EN),
        WINDOW.fix: "seconds the challenge window stays open: a number from {low} to {high} "
                    "(book: {book})".format(**_EN),
        DOUBLON_MIN.fix: "PhiPassPass (PHI-2): seconds after the drop before an announcement "
                         "is taken, so every seat may call Doublon: {low} to {high} (default "
                         "{default})".format(**_EN_DOUBLON),
        "passpass.cli.window_shown": "window {value:g} s",
        "passpass.cli.doublon_min_shown": "doublon_min {value:g} s (PhiPassPass)",
    },
}  # fmt: skip
"""Its options' and settings' words, drawn by no screen (its descriptors' `console_words`)."""
TABLE_SETTINGS = (
    TableSetting(
        "window",
        WINDOW.check,
        WINDOW.fix,
        WINDOW.default,
        "passpass.cli.window_shown",
        option_help=WINDOW_HELP,
        legacy=True,
    ),
    TableSetting(
        "doublon_min",
        DOUBLON_MIN.check,
        DOUBLON_MIN.fix,
        DOUBLON_MIN.default,
        "passpass.cli.doublon_min_shown",
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
    `SetupError` naming the setting."""
    rules = setup.rules or {}
    return TableSettings(
        _seconds(rules, "window_seconds", WINDOW, WINDOW_SECONDS),
        _seconds(rules, "doublon_min", DOUBLON_MIN, DOUBLON_MIN_SECONDS),
        read_layout(rules.get("layout")),
    )


def read_layout(layout: object) -> Layout | None:
    """An own hat layout as a file writes it (PTI-2, PTI-3), for a table and the lab alike;
    None (or an empty table): the book's grid. `SetupError` in the table's words."""
    if layout is not None and not isinstance(layout, Mapping):
        raise refused("passpass.setup.layout", value=typed(layout))
    try:
        return Layout.from_json(layout) if layout else None
    except LayoutError as exc:
        raise layout_refused(exc) from None


def layout_refused(exc: LayoutError, fix: bool = False) -> SetupError:
    """Why an own hat layout cannot be played (PTI-2, PTI-3), in the table's language;
    with `fix`, how to write [game.layout] too (`config check`)."""
    why = refused(f"passpass.setup.layout_{exc.kind}", **exc.fields)
    return refused("passpass.setup.layout_fix", why=why) if fix else why


def _seconds(rules: Mapping[str, Any], key: str, bounds: Seconds, default: float) -> float:
    if key not in rules:
        return default
    value = bounds.check(rules[key])
    if value is None:
        raise refused("passpass.setup.seconds", key=key, value=typed(rules[key]),
                      fix=text_of(bounds.fix))  # fmt: skip
    return value
