"""A game's lab refusing a variant, heard in both languages of the table."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from companion.cli_words import speaking
from companion.lab.model import Refusal, Variant


def refused(check: Callable[[Variant], None], variant: Variant, named: Iterable[str] = ()) -> str:
    """The kind of `check`'s refusal of `variant`: the same in French and in English, each
    one line naming what it quotes as typed (`named`: `` `turn_limit` ``, `` `"30"` ``)."""
    kinds = set()
    for lang in ("fr", "en"):
        with speaking(lang), pytest.raises(Refusal) as caught:
            check(variant)
        sentence = str(caught.value)
        assert "\n" not in sentence and sentence.count(". ") == 0, sentence
        for word in named:
            assert word in sentence, (lang, sentence)
        kinds.add(caught.value.kind)
    assert len(kinds) == 1, kinds
    return kinds.pop()
