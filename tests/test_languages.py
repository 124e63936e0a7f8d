"""One language per table: every event of whole simulated games of every game of the
registry (people's pace, their slips, faults and refusals included) and of the referee's
scenario journals (every fault, refusal and undo a table met), rendered as the
transcript and the page's history in French and in English, and each table's status line
along the way; what a phone reads when its game refuses what it sent; the command line
(every help, argparse's words, refusals, `replay`, the typed table of `play --sim`); and
the club's board, whatever the language of its tables. A line fails on a word of the other
language (a colour, a suit or a rank of cards included) or on an internal id the players
never see (a card's code, a line's short name, a bare list, a placement number, a key
with an underscore, a template left unfilled)."""

from __future__ import annotations

import dataclasses
import io
import re
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from companion import games
from companion.cli import COMMANDS, main
from companion.club.board import Board
from companion.club.topics import state_payload
from companion.club.words import WORDS as CLUB_WORDS
from companion.session import replay
from companion.transcript import describe
from companion.web.public import Publisher
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


# ------------------------------------------------------------------ the command line

PLACES = re.compile(
    r"--?[\w-]+|\$\w+|`[^`]*`|\{[^}]*\}|\[[\w.]+\](?: \w+)?|<[^>]*>|\S*\.(?:md|toml|jsonl?|"
    r"html|csv|py|png|pdf|txt|crt|gif|local)\b|\b\w+[._:*/=]\S*|\b[A-Z][A-Z0-9_.*=:\[\]-]+\b"
)
"""What a help or a message names as it is typed, whatever its language: an option, a
variable, a command, a choice, a config key, a file, a token kind, a metavar."""
PROSE = {
    "fr": re.compile(
        r"\b(?:the|and|of|to|with|from|for|is|are|this|that|default|folder|number|seconds|"
        r"print|write|show|error|when|each|every|its|their|games?|players?|seats?|not|no|"
        r"else|round|turns?|refused|wins?|yellow|red|green|blue)\b",
        re.IGNORECASE,
    ),
    "en": re.compile(
        r"\b(?:le|la|les|et|une?|de|du|des|pour|avec|sans|fichier|dossier|sinon|défaut|"
        r"joueurs?|secondes|erreur|chaque|manche|partie|jaune|rouge|vert|bleu)\b",
        re.IGNORECASE,
    ),
}
"""Words of the other language that a line of prose of `lang` (a help, a message) never
needs; the words both languages spell alike ("places", "options") are no sign."""


def prose_mistakes(text: str, lang: str) -> dict[str, str]:
    """What is wrong in the prose of `text` (what it names as typed taken out), line by
    line: a word of the other language, with the first line that has it."""
    wrong: dict[str, str] = {}
    for line in text.splitlines():
        found = PROSE[lang].search(PLACES.sub(" ", line))
        if found:
            wrong.setdefault(f"another language's word {found[0]!r}", line)
    return wrong


def help_text(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def every_command() -> list[list[str]]:
    """Every command line with a help of its own: `companion`, each command, and the
    commands of a command (`config check`, `deck GAME`, `selfplay GAME`)."""
    nested = [["config", "check"]]
    nested += [["deck", name] for name in games.names()]
    nested += [["selfplay", name] for name in games.names()]
    return [[], *([command] for command in COMMANDS), *nested]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_help_of_the_command_line_is_in_one_language(lang, capsys, monkeypatch):
    """`companion --help` and every command's, argparse's own words (usage, options...)
    included, in the command line's language."""
    monkeypatch.setenv("COMPANION_LANG", lang)
    wrong: dict[str, str] = {}
    for argv in every_command():
        text = help_text(argv, capsys)
        assert text.startswith({"fr": "usage : ", "en": "usage: "}[lang]), argv
        wrong |= {f"{' '.join(argv)}: {what}": line
                  for what, line in prose_mistakes(text, lang).items()}  # fmt: skip
    assert not wrong, said(wrong)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_command_lines_refusals_are_in_one_language(lang, tmp_path, capsys, monkeypatch):
    """argparse's refusals and the commands' own, in the command line's language."""
    monkeypatch.setenv("COMPANION_LANG", lang)
    refused = [
        ["demo", "--players", "x"], ["demo", "--players", "9"], ["demo", "--game", "chess"],
        ["play", "--sim", "--first", "7"], ["play", "--journal", ""], [],
        ["replay", str(tmp_path / "missing.jsonl")], ["deck", "vnp", "--out", str(tmp_path)],
        ["club", "--plain", "--broker", "a b"], ["selfplay", "vnp", "--rule", "x"],
        ["demo", "--nonsense"],
    ]  # fmt: skip
    wrong: dict[str, str] = {}
    for argv in refused:
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
        err = capsys.readouterr().err
        assert code == 2 and err.splitlines()[-1].startswith("companion"), (argv, err)
        wrong |= prose_mistakes(err, lang)
    assert not wrong, said(wrong)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_replay_says_every_line_in_one_language(lang, capsys):
    """`companion replay --lang` of every scenario journal of the referee (faults,
    refusals, undos) and of a whole game of every game: each line in one language."""
    wrong: dict[str, str] = {}
    for path in SCENARIOS:
        assert main(["replay", str(path), "--lang", lang]) == 0, path
        wrong |= mistakes(capsys.readouterr().out.splitlines(), lang)
    assert not wrong, said(wrong)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_club_board_shows_every_table_in_its_own_language(lang):
    """A table of each game publishes its state along a whole game, in the other language
    than the board's: every status the board's card shows, and the board's own words, are
    in the board's language."""
    other = "en" if lang == "fr" else "fr"
    wrong: dict[str, str] = {}
    for name in games.names():
        game = games.get(name)
        setup = dataclasses.replace(game.simulated_setup(game.default_seats, 1), language=other)
        referee = game.referee(setup)
        publisher = Publisher(referee)
        board = Board()
        for record in [None, *game.simulate(setup).inputs]:
            if record is not None:
                referee.feed(record)
            snapshot = publisher.snapshot()
            if snapshot is not None:
                board.apply("t1", "state", state_payload(snapshot.view))
                wrong |= mistakes([board.tables["t1"].state["statuses"][lang]], lang)
    wrong |= mistakes(CLUB_WORDS[lang].values(), lang, internal=False)  # templates
    assert not wrong, said(wrong)


TYPED = ["help", "hands", "table", "juggle", "drop", "wait x", "wait -1", "doublon Zed",
         "drop 5 chat", "build 1 ZZ", "tap turquoise", "swap 2 2", "place 9z 2,1",
         "place 4a 99,0", "pieces", "legal 4a", "slide 2 2", "ok", "'unclosed", "quit"]  # fmt: skip
"""Lines for every game's typed table: looks, mistakes of every kind (each game refuses the
other games' commands too)."""
DRAWN = re.compile(r"[\u2500-\u259f\u2800-\u28ff]|^> |^\s*[.|\- ]*$|^\s*\d+ [.| \-A-Za-z]*$")
"""The OLED drawn, a typed line echoed, a board or a shape drawn in text."""


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("name", [n for n in games.names() if games.get(n).console])
def test_the_typed_table_says_everything_in_its_language(name, lang, tmp_path, monkeypatch,
                                                         capsys):  # fmt: skip
    """`companion play --sim`: its help, its answers to looks and to every kind of
    mistake, and its transcript, in the table's language."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(TYPED) + "\n"))
    argv = ["play", "--sim", "--game", name, "--lang", lang, "--journal", str(tmp_path / "j")]
    assert main(argv) == 0
    said_lines = [line for line in capsys.readouterr().out.splitlines()
                  if not DRAWN.search(line)]  # fmt: skip
    assert len(said_lines) > 15
    wrong = prose_mistakes("\n".join(said_lines), lang)
    assert not wrong, said(wrong)
