"""The checks every game's lab makes of a variant (`LabGame.check`): its game, seats,
bots, rules keys and a rule's value, each a `Refusal` with one sentence in the command
line's language naming the setting as the variants file writes it. A game's own
refusals (a rule's meaning only it knows) are its `LabWords.refusal`."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any, overload

from companion import games
from companion.cli_words import language, said
from companion.lab.model import Refusal, Variant
from companion.referee.pace import listed as _listed
from companion.referee.pace import typed as typed  # the lab games quote values with it


def refusal(kind: str, /, **fields: object) -> Refusal:
    """The core's refusal `kind` (``cli.lab.check.<kind>``), to raise."""
    return Refusal(kind, said(f"cli.lab.check.{kind}", **fields))


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
                          kinds=_listed(kinds))  # fmt: skip


def rule_keys(variant: Variant, known: Iterable[str]) -> None:
    """A rules key the game has not."""
    known = tuple(known)
    unknown = sorted(set(variant.rules) - set(known))
    if unknown:
        raise refusal("unknown_rule", keys=_listed(unknown), title=games.get(variant.game).title,
                      known=_listed(known))  # fmt: skip


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
    if (
        not isinstance(value, int) or isinstance(value, bool)
        or (least is not None and value < least) or (most is not None and value > most)
    ):  # fmt: skip
        kind = "whole" if least is None else "whole_least" if most is None else "whole_between"
        raise refusal(kind, key=key, least=least, most=most, value=typed(value))
    return value


def one_of(rules: Mapping[str, Any], key: str, choices: Collection[str], default: str) -> str:
    """The rule `key`: one of `choices` (words, as the file writes them)."""
    value = rules.get(key, default)
    if not isinstance(value, str) or value not in choices:
        listed = said("cli.lab.check.or").join(typed(c) for c in choices)
        raise refusal("one_of", key=key, choices=listed, value=typed(value))
    return value


def true_or_false(rules: Mapping[str, Any], key: str, default: bool) -> bool:
    """The rule `key`: true or false."""
    value = rules.get(key, default)
    if not isinstance(value, bool):
        raise refusal("true_or_false", key=key, value=typed(value))
    return value
