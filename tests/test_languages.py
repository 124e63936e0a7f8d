"""One language per table: every event of whole simulated games of every game of the
registry (people's pace, their slips, faults and refusals included) and of the referee's
scenario journals (every fault, refusal and undo a table met), rendered as the
transcript and the page's history in French and in English, and each table's status line
along the way. A line fails on a word of the other language or on an internal id the
players never see (a card's code, a line's short name, a bare list, a placement number, a
key with an underscore, a template left unfilled)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from companion import games
from companion.session import replay
from companion.transcript import describe
from tests.web.test_refusals_in_table_language import refusals_of

SCENARIOS = sorted((Path(__file__).parent / "referee").rglob("*.jsonl"))
"""The referee's scenario journals: a table's inputs with its faults, refusals, undos."""

INTERNAL = {
    "a card's code": re.compile(r"\b(?:10|[2-9AJQKT])[HDSC]\b"),
    "a line's short name": re.compile(r"\b(?:rang|row|col)\d|\bdiag[/\\]"),
    "a bare list": re.compile(r"\[[^\]]*\d[^\]]*\]"),
    "a placement's number": re.compile(r"placement \d"),
    "a key": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "an unfilled template": re.compile(r"\{[a-z_]*\}"),
}
"""What players never read, by what it is."""

OTHER = {
    "fr": re.compile(
        r"\b(?:the|and|wins?|round|places|passes|calls|reveals|announces|game over|"
        r"builds|flips|discards|refused|takes|turn|yellow|red|green|blue|black|white|pink|"
        r"purple|spades|hearts|diamonds|clubs|king|queen|jack)\b|STOP: ",
        re.IGNORECASE,
    ),
    "en": re.compile(
        r"\b(?:le|la|les|et|une?|manche|partie|chapeau|pose|gagne|annonce|tour|"
        r"refusée?|défausse|retourne|révèle|jetons?|jaune|rouge|vert|bleu|noir|blanc|rose|"
        r"violet|pique|cœur|carreau|trèfle|roi|dame|valet)\b|STOP : ",
        re.IGNORECASE,
    ),
}
"""A word of the other language, in a line of `lang` (a colour, a suit or a rank of
cards included: "jaune and vert" is no English line)."""

SEEDS = range(1, 4)


def played(name: str) -> list[tuple[list[dict[str, object]], tuple[str, ...], list[str]]]:
    """Whole simulated games of `name`: each one's events, seat names and status lines."""
    game = games.get(name)
    out = []
    for seed in SEEDS:
        seats = game.default_seats
        setup = game.simulated_setup(seats, seed)
        referee = game.simulate(setup).referee
        assert referee is not None and referee.finished
        statuses = [referee.where(lang) for lang in ("fr", "en")]
        out.append((list(referee.events), tuple(setup.seats), statuses))
    for path in SCENARIOS:
        session = replay(path)
        if session.referee.setup.game == name:
            referee = session.referee
            statuses = [referee.where(lang) for lang in ("fr", "en")]
            out.append((list(referee.events), tuple(referee.setup.seats), statuses))
    return out


def mistakes(lines: Iterable[str], lang: str, internal: bool = True) -> dict[str, str]:
    """What is wrong in `lines` of `lang`: each mistake (a word of the other language, an
    internal id when `internal`) with the first line that makes it."""
    wrong: dict[str, str] = {}
    for line in lines:
        if internal:
            for what, pattern in INTERNAL.items():
                if found := pattern.search(line):
                    wrong.setdefault(f"{what}: {found[0]!r}", line)
        if found := OTHER[lang].search(line):
            wrong.setdefault(f"another language's word {found[0]!r}", line)
    return wrong


def said(wrong: dict[str, str]) -> str:
    return "\n".join(f"{what}: {line}" for what, line in wrong.items())


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_line_of_every_game_is_in_one_language_with_no_internal_id(name, lang):
    wrong: dict[str, str] = {}
    kinds = set()
    for events, seats, statuses in played(name):
        lines = [line for e in events if (line := describe(e, seats, name, lang))]
        kinds |= {str(e["kind"]) for e in events if describe(e, seats, name, lang)}
        lines.append(statuses[0 if lang == "fr" else 1])
        wrong |= mistakes(lines, lang)
    assert len(kinds) >= 3, f"{name}: too few kinds of lines to tell ({sorted(kinds)})"
    assert not wrong, said(wrong)


@pytest.mark.parametrize("name", [n for n in games.names() if games.get(n).page_value])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_refusal_of_a_games_page_is_in_one_language(name, lang):
    """What a phone reads when its game refuses what it sent ("The colour is one of:
    yellow, ..."), the values a page may send named as the table names them."""
    sentences = [refusal.sentence(lang) for refusal in refusals_of(games.get(name))]
    assert sentences
    wrong = mistakes(sentences, lang, internal=False)  # they show JSON shapes, on purpose
    assert not wrong, said(wrong)
