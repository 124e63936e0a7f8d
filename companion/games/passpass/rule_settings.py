"""PassPass's engine rule variants, checked once for a table's setup and the lab: the keys a
``[game.rules]`` table or a lab variant's `rules` may set, each a field of the engine's
`Config`: `window` (the challenge window's mode, PTI-7), `next_starter` (who starts the
next manche, PTI-12) and `turn_limit` (a manche with that many turns is void, PTI-15). A
new variant is a field of `Config` and one line here; the referee and the lab take it.

`wrong_rule` says what is wrong (`companion.rule_checks.Wrong`); the referee raises its
`SetupError` with those words, the lab its `Refusal`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.passpass.rules import Starter, WindowMode
from companion.rule_checks import Wrong, not_one_of, not_whole

CHOICES: dict[str, tuple[str, ...]] = {
    "window": tuple(str(m) for m in WindowMode),
    "next_starter": tuple(str(s) for s in Starter),
}
"""The variants that are one of a few words, as the file writes them (the first: the
book's)."""
WHOLE: dict[str, int] = {"turn_limit": 1}
"""The variants that are a whole number, with their least; unset means no limit."""
RULE_KEYS: tuple[str, ...] = (*CHOICES, *WHOLE)
"""Every engine rule variant, by its `Config` field's name."""
VARIANT_KEYS = (*RULE_KEYS, "layout")
"""What a lab variant and a table's ``[game.rules]`` both take: the engine variants and an
own hat layout (PTI-2, PTI-3: the lines of three change play)."""
CLOCK_KEYS = ("window_seconds", "doublon_min")
"""The settings of a table's clock (`table_settings.TABLE_KEYS`), which the lab, playing
without one, refuses."""


def wrong_rule(rules: Mapping[str, object]) -> Wrong | None:
    """The first engine variant of `rules` whose value the engine cannot take (keys that
    are no variant are not looked at: the caller refuses them with its own known list)."""
    for key, choices in CHOICES.items():
        wrong = not_one_of(key, rules[key], choices) if key in rules else None
        if wrong is not None:
            return wrong
    for key, least in WHOLE.items():
        wrong = not_whole(key, rules[key], least, None) if rules.get(key) is not None else None
        if wrong is not None:
            return wrong
    return None


def engine_rules(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The engine variants of `rules` (checked by `wrong_rule`), as `make_config` takes
    them."""
    return {key: rules[key] for key in RULE_KEYS if key in rules}
