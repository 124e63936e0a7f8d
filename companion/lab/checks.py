"""The checks every game's lab makes of a variant (`LabGame.check`): its game, seats,
bots, rules keys and a rule's value, each a `Refusal` with one sentence in the command
line's language naming the setting as the variants file writes it. A rule's value is
checked as a table's setup checks it (`companion.rule_checks`). A game's own refusals (a
rule's meaning only it knows) are its `LabWords.refusal`."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any, cast, overload

from companion import games
from companion.cli_words import language
from companion.lab.model import Refusal, Variant
from companion.rule_checks import Wrong, not_one_of, not_true_or_false, not_whole, unknown_rules
from companion.rule_checks import listed as listed  # the lab games quote names with it
from companion.rule_checks import typed as typed  # the lab games quote values with it


def refusal(kind: str, /, **fields: object) -> Refusal:
    """The core's refusal `kind` (``cli.lab.check.<kind>``), to raise."""
    return Refusal(kind, Wrong(kind, fields).said())


def raise_wrong(wrong: Wrong | None) -> None:
    """Raise what is wrong, if anything, as the lab's `Refusal`."""
    if wrong is not None:
        raise Refusal(wrong.kind, wrong.said())


def game(variant: Variant, name: str) -> None:
    """A variant of another game than `name`, this lab's."""
    if variant.game != name:
        raise refusal("other_game", title=games.get(name).title, game=typed(variant.game))


def seats(name: str, players: object) -> None:
    """A number of players the game `name`'s rule book does not play."""
    descriptor = games.get(name)
    if players not in descriptor.seats:
        raise refusal("players", title=descriptor.title, n=typed(players),
                      players=games.players_said(descriptor, language()))  # fmt: skip


def bots(variant: Variant, kinds: Collection[str]) -> None:
    """Not one bot a seat, or a kind of bot the game has not (`kinds`)."""
    if len(variant.bots) != variant.players:
        raise refusal("bots_count", n=variant.players, given=len(variant.bots))
    for kind in variant.bots:
        if kind not in kinds:
            raise refusal("unknown_bot", kind=typed(kind), title=games.get(variant.game).title,
                          kinds=listed(kinds))  # fmt: skip


def rule_keys(variant: Variant, known: Iterable[str]) -> None:
    """A rules key the game has not."""
    raise_wrong(unknown_rules(variant.rules, tuple(known), games.get(variant.game).title))


@overload
def whole(
    rules: Mapping[str, Any], key: str, default: int, least: int | None = None,
    most: int | None = None,
) -> int: ...  # fmt: skip
@overload
def whole(
    rules: Mapping[str, Any], key: str, default: None, least: int | None = None,
    most: int | None = None,
) -> int | None: ...  # fmt: skip
def whole(
    rules: Mapping[str, Any], key: str, default: int | None, least: int | None = None,
    most: int | None = None,
) -> int | None:  # fmt: skip
    """The rule `key`: a whole number (from `least`, to `most`), or None where its
    `default` is None (no limit) and the rules leave it so."""
    value = rules.get(key, default)
    if value is None and default is None:
        return None
    raise_wrong(not_whole(key, value, least, most))
    return cast(int, value)


def one_of(rules: Mapping[str, Any], key: str, choices: Collection[str], default: str) -> str:
    """The rule `key`: one of `choices` (words, as the file writes them)."""
    value = rules.get(key, default)
    raise_wrong(not_one_of(key, value, choices))
    return cast(str, value)


def true_or_false(rules: Mapping[str, Any], key: str, default: bool) -> bool:
    """The rule `key`: true or false."""
    value = rules.get(key, default)
    raise_wrong(not_true_or_false(key, value))
    return cast(bool, value)
