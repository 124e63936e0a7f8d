"""A rule setting's checks, made once for a table's setup and the lab: is a key one the
game has, a value a whole number in its range, one of its words, true or false. Each says
what is wrong (a `Wrong`: the refusal's kind and the fields of its words,
`companion.rule_words.CHECK`) or None; the caller raises its own error with those words
(the referee's `SetupError`, the lab's `Refusal`), so `companion run`, `config check` and
a lab file refuse a setting alike. Values are quoted as the file wrote them (`typed`)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from companion.config.reading import show
from companion.phrasebook import Book
from companion.rule_words import CHECK_BOOK


def typed(value: object) -> str:
    """A value of the file as it wrote it, quoted as typed (`"13"`, `true`)."""
    return f"`{show(value)}`"


def listed(names: Iterable[str]) -> str:
    """Names of the file's settings, each quoted: `a`, `b`."""
    return ", ".join(f"`{name}`" for name in names)


@dataclass(frozen=True)
class Wrong:
    """What is wrong with a setting: the kind of refusal (its words' name in `CHECK_BOOK`,
    which a script or a test reads whatever the language) and the fields of its words."""

    kind: str
    fields: Mapping[str, object]
    book: Book = CHECK_BOOK
    """Where its words are: the core's, or a game's own (a rule only that game has)."""

    def said(self) -> str:
        """The refusal in the command line's language."""
        return self.book.say(self.kind, **self.fields)


def unknown_rules(rules: Iterable[str], known: Sequence[str], title: str) -> Wrong | None:
    """Rules keys the game `title` has not (it has `known`)."""
    unknown = sorted(set(rules) - set(known))
    if not unknown:
        return None
    return Wrong("unknown_rule", {"keys": listed(unknown), "title": title, "known": listed(known)})


def not_whole(key: str, value: object, least: int | None, most: int | None) -> Wrong | None:
    """The rule `key` is not a whole number (from `least`, to `most`)."""
    if (
        isinstance(value, int) and not isinstance(value, bool)
        and (least is None or value >= least) and (most is None or value <= most)
    ):  # fmt: skip
        return None
    kind = "whole" if least is None else "whole_least" if most is None else "whole_between"
    return Wrong(kind, {"key": key, "least": least, "most": most, "value": typed(value)})


def not_one_of(key: str, value: object, choices: Collection[str]) -> Wrong | None:
    """The rule `key` is not one of `choices` (words, as the file writes them)."""
    if isinstance(value, str) and value in choices:
        return None
    said_or = CHECK_BOOK.say("or").join(typed(c) for c in choices)
    return Wrong("one_of", {"key": key, "choices": said_or, "value": typed(value)})


def not_true_or_false(key: str, value: object) -> Wrong | None:
    """The rule `key` is neither true nor false."""
    if isinstance(value, bool):
        return None
    return Wrong("true_or_false", {"key": key, "value": typed(value)})
