"""One language per table: every event of whole simulated games of every game of the
registry (people's pace, their slips, faults and refusals included) and of the referee's
scenario journals (every fault, refusal and undo a table met), rendered as the
transcript and the page's history in French and in English, and each table's status line
along the way; what a phone reads when its game refuses what it sent; the command line
(every help, argparse's words, refusals, `replay`, the typed table of `play --sim`, every
problem and summary of `config check`, `enroll`, `doctor` with its timings, its search for
the power-up wait and its walk, the kit builder); the seats nobody named; and the club's
board, whatever the language of its tables. A line fails on a word of the other language
(a colour, a suit or a rank of cards included), on a French number written the English
way (1.5), or on an internal id the players never see (a card's code, a line's short
name, a bare list, a placement number, a key with an underscore, a template left
unfilled)."""

from __future__ import annotations

import dataclasses
import io
import re
import shutil
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.cli import COMMANDS, main
from companion.club.board import Board
from companion.club.topics import state_payload
from companion.club.words import WORDS as CLUB_WORDS
from companion.config.words import WORDS as CFG_WORDS
from companion.session import replay
from companion.transcript import describe
from companion.web.public import Publisher
from tests.devices.conftest import FWP, pico  # noqa: F401  (a fixture of the doctor's test)
from tests.devices.test_doctor import NTAG, fast_link, responder  # noqa: F401
from tests.referee import kept_journals
from tests.web.test_refusals_in_table_language import refusals_of

SCENARIOS = kept_journals()
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
        r"purple|spades|hearts|diamonds|clubs|king|queen|jack|seats?)\b|STOP: ",
        re.IGNORECASE,
    ),
    "en": re.compile(
        r"\b(?:le|la|les|et|une?|manche|partie|chapeau|pose|gagne|annonce|tour|"
        r"refusée?|défausse|retourne|révèle|jetons?|jaune|rouge|vert|bleu|noir|blanc|rose|"
        r"violet|pique|cœur|carreau|trèfle|roi|dame|valet|sièges?)\b|STOP : ",
        re.IGNORECASE,
    ),
}
"""A word of the other language, in a line of `lang` (a colour, a suit or a rank of
cards included: "jaune and vert" is no English line)."""
ENGLISH_DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")
"""A number written the English way ("1.5"), in a French line: French writes 1,5."""
TYPED_SPAN = re.compile(r"`[^`]*`")
"""What a line quotes as it is typed (`--spi 0.0`), whatever its language."""


def numbers_mistakes(line: str, lang: str) -> dict[str, str]:
    """A French line's number written the English way (but what it quotes as typed),
    with the line."""
    found = ENGLISH_DECIMAL.search(TYPED_SPAN.sub(" ", line)) if lang == "fr" else None
    return {f"a number written in English {found[0]!r}": line} if found else {}


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
        wrong = numbers_mistakes(line, lang) | wrong
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


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_seats_nobody_named_are_named_in_the_tables_language(lang, tmp_path, monkeypatch):
    """A configuration giving a number of seats, or none: their names, as every line of a
    game played with them says them, are in the table's language ("Siège 1", "Seat 1")."""
    from companion.config import load_config

    other = "en" if lang == "fr" else "fr"
    monkeypatch.setenv("COMPANION_LANG", other)  # the command line's is not the table's
    for seats in ("seats = 3\n", ""):
        path = tmp_path / "companion.toml"
        path.write_text(f'[game]\nname = "ptipasspass"\nlanguage = "{lang}"\n{seats}'
                        "[controls]\nenabled = false\n")  # fmt: skip
        names = load_config(str(path)).game.seats
        game = games.get("ptipasspass")
        setup = dataclasses.replace(game.simulated_setup(len(names), 1), seats=names)
        referee = game.simulate(setup).referee
        assert referee is not None
        lines = [line for e in referee.events if (line := describe(e, names, game.name, lang))]
        assert any(names[0] in line for line in lines)
        wrong = mistakes(lines + [referee.where(lang)], lang)
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
        r"else|round|turns?|refused|wins?|yellow|red|green|blue|cards?)\b",
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
        wrong = numbers_mistakes(line, lang) | wrong
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


# ------------------------------------------------------------------ `companion config check`

CONFIG_WORDS = {f"cli.cfg.{key}" for key in CFG_WORDS}
BEYOND_A_TEST = {
    "cli.cfg.no_home": "~ without a home directory",
    "cli.cfg.unwritable": "a folder this user may not write: the tests run as root",
    "cli.cfg.uncreatable": "a folder this user may not create: the tests run as root",
    "cli.cfg.sum.no_espeak": "espeak-ng missing: it is installed where the tests run",
}
"""The configuration's words no file here can make `config check` say, and why."""
NAMED = re.compile(
    r'"[^"]*"|(?<=connues ici : )[^;]*|(?<=known keys here: )[^;]*|\bSeat \d'
    r"|must be a JSON value, not a date"
)
"""What a line of `config check` names rather than says: a value of the file, the keys a
table knows, a seat's default name; and the words it quotes from elsewhere, in English
whatever the table's: the journal's refusal of a value it cannot record."""


def bad_configs(tmp: Path) -> list[Path]:
    """Configurations and pin maps between them wrong in every way `config check` words."""
    pins_dir = tmp / "pins-folder"
    pins_dir.mkdir()
    (tmp / "a-file").write_text("")
    (tmp / "ca.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    no_controls = "[controls]\nenabled = false\n"
    few = next((name, n) for name in games.names() for n in range(2, 7)
               if n not in games.get(name).seats)  # fmt: skip
    pin_maps = {
        "sections": '[pi]\nseats = 5\nconsole = { announce = [1], back = 99, zzz = 1 }\n'
                    "encoder = {}\n",
        "missing": "[pi.seats]\ndoublon = 5\n",
        "pi": "pi = 5\n",
        "clash": "[pi.seats]\ndoublon = [5, 6]\nmenteur = [2, 13]\n[pi.console]\n"
                 "announce = [16, 19, 20]\nback = 21\n[pi.encoder]\na = 22\nb = 23\npush = 24\n",
    }  # fmt: skip
    files = {
        "values": "schema = 2\nnonsense = 1\n[game]\nname = \"chess\"\nfirst = 9\nsettle = 9\n"
                  "language = \"de\"\nseed = 100000000000000000000000000000000\nseats = 1\n"
                  "rules = 5\nlayout = 5\n[paths]\ndata_dir = \"~nosuchuser-xyz/x\"\n"
                  "pins = \"/tmp/a\\u0000b\"\n[display]\ndriver = \"x\"\ni2c_bus = 99\n"
                  "address = 1\nrotation = 90\ncontrast = 999\n[controls]\nenabled = \"yes\"\n"
                  "bounce_ms = 0\nlong_press_ms = 1\n[readers]\nkind = \"spi\"\nport = \"\"\n"
                  "settle_us = -1\nresume_wait = 99\nspi_rst = 99\nspi_spots = 5\n[web]\n"
                  "enabled = 1\nhost = \"x\"\nport = 0\npairing_hours = -1\n[sound]\n"
                  "backend = \"x\"\nvolume = -1\nrate = 1\nvoice_fr = \"!\"\nvoice_en = \"!\"\n"
                  "interrupt = 2\n[club]\ntls = false\ntls_ca = \"missing.pem\"\n"
                  "username = \"\"\npassword = \"\"\n",
        "seats": f"[game]\nname = \"{few[0]}\"\nseats = {few[1]}\n",
        "rules": "[game]\nname = \"ptipasspass\"\n[game.rules]\nzzz = 1\n",
        "phi": "[game]\nname = \"phipasspass\"\nwindow = 999\ndoublon_min = 99\n",
        "json": "[game]\nrules = { when = 1979-05-27 }\n",
        "table": "display = 5\n[readers]\nkind = \"x\"\n[club]\ntls = 3\nbroker = \"h\"\n"
                 "table = \"t1\"\ntls_ca = \"\"\n",
        "ca": "[club]\nbroker = \"h\"\ntable = \"t1\"\ntls = false\ntls_ca = \"ca.pem\"\n",
        "plain": "[club]\nbroker = \"h:1883\"\ntable = \"t1\"\n",
        "spi": "[readers]\nkind = \"spi\"\n",
        "data-file": f"[paths]\ndata_dir = \"{tmp / 'a-file'}\"\n{no_controls}",
        "data-parent": f"[paths]\ndata_dir = \"{tmp / 'a-file' / 'x'}\"\n{no_controls}",
        "pins-folder": f"[paths]\npins = \"{pins_dir}\"\n",
        "no-pins": "[controls]\nenabled = true\n",
        "not-toml": "x = \n",
        "digits": "x = 1" + "1" * 5000 + "\n",
        "deep": "x = " + "[" * 1000 + "]" * 1000 + "\n",
    }  # fmt: skip
    for name, text in pin_maps.items():
        (tmp / f"map-{name}.toml").write_text(text)
        spi = '[readers]\nkind = "spi"\nspi_spots = [[0, 0]]\nspi_rst = 25\n'
        files[f"pins-{name}"] = f'[paths]\npins = "map-{name}.toml"\n{spi}'
    paths = []
    for name, text in files.items():
        (tmp / f"{name}.toml").write_text(text)
        paths.append(tmp / f"{name}.toml")
    (tmp / "big.toml").write_bytes(b"#" * (2 << 20))
    (tmp / "latin1.toml").write_bytes(b'name = "\xe9"\n')
    return [*paths, tmp / "big.toml", tmp / "latin1.toml", tmp / "missing.toml", pins_dir]


def good_configs(tmp: Path) -> list[Path | None]:
    """Configurations that `config check` summarises in every way it can (None: no file)."""
    (tmp / "ca.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    quiet = '[controls]\nenabled = false\n[display]\ndriver = "dummy"\n'
    files = {
        "alone": f"{quiet}[readers]\nkind = \"none\"\n[web]\nhost = \"127.0.0.1\"\n"
                 "[sound]\nbackend = \"none\"\n[club]\nbroker = \"127.0.0.1:1883\"\n"
                 "table = \"t1\"\ntls = false\n",
        "spi": "[controls]\nenabled = false\n[display]\ndriver = \"sh1106\"\n[readers]\n"
               "kind = \"spi\"\nspi_spots = [[0, 0]]\nspi_rst = 25\n[web]\nenabled = false\n"
               "[sound]\nbackend = \"espeak-ng\"\ninterrupt = true\n",
        "ca": f"{quiet}[club]\nbroker = \"club.local\"\ntable = \"t1\"\ntls_ca = \"ca.pem\"\n",
        "phi": f"{quiet}[game]\nname = \"phipasspass\"\nwindow = 7.5\n",
        "system-ca": f"{quiet}[club]\nbroker = \"club.local\"\ntable = \"t1\"\n",
    }  # fmt: skip
    for name, text in files.items():
        (tmp / f"{name}.toml").write_text(text)
    example = Path(__file__).parents[1] / "docs" / "companion.example.toml"
    return [example, *(tmp / f"{name}.toml" for name in files), None]


def catalogue_mistakes(*tables: dict[str, tuple[str, str]]) -> dict[str, str]:
    """What is wrong in the texts of (French, English) word tables themselves: each
    entry has both, neither with a word of the other language."""
    wrong: dict[str, str] = {}
    for table in tables:
        for key, (fr, en) in table.items():
            assert fr.strip() and en.strip(), key
            for lang, text in (("fr", fr), ("en", en)):
                wrong |= {f"{lang} {key}: {what}": line
                          for what, line in prose_mistakes(text, lang).items()}  # fmt: skip
    return wrong


def test_every_word_of_the_configuration_has_both_languages_each_in_its_own():
    """The catalogue's texts themselves, each in French and English, neither with a word
    of the other language (the words `config check` says are tried end to end below)."""
    wrong = catalogue_mistakes(CFG_WORDS)
    assert not wrong, said(wrong)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_config_check_says_every_problem_and_its_summary_in_one_language(
    lang, tmp_path, capsys, monkeypatch
):
    """`companion config check` of files wrong in every way it words (the problems of a
    configuration, of a pin map, of the data directory) and of files it summarises in
    every way: each line in the command line's language, and every one of the
    configuration's words said (but those no file here can make it say, named)."""
    from companion.config import pins

    monkeypatch.setenv("COMPANION_LANG", lang)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("COMPANION_DATA", raising=False)
    shipped = pins.REPOSITORY_PINS
    used = recording(monkeypatch)
    (tmp_path / "bad").mkdir()
    (tmp_path / "good").mkdir()
    wrong: dict[str, str] = {}
    for path in [*bad_configs(tmp_path / "bad"), *good_configs(tmp_path / "good")]:
        bad = path is not None and path.parent.name == "bad"
        config = [] if path is None else ["--config", str(path)]
        # a bad file finds no pin map when it names none; a good one finds the shipped one
        monkeypatch.setattr(pins, "REPOSITORY_PINS", tmp_path / "none.toml" if bad else shipped)
        assert main(["config", "check", *config]) == (1 if bad else 0), path
        out, err = capsys.readouterr()
        assert (err if bad else out).strip(), path
        wrong |= prose_mistakes(NAMED.sub(" ", out + err), lang)
    from companion.config.data_dir import DataDir

    wrong |= prose_mistakes(str(DataDir(tmp_path / "bad" / "a-file", "--data-dir").problem()),
                            lang)  # fmt: skip
    assert not wrong, said(wrong)
    assert set(BEYOND_A_TEST) <= CONFIG_WORDS
    unsaid = CONFIG_WORDS - used - set(BEYOND_A_TEST)
    assert not unsaid, " ".join(sorted(unsaid))


def test_every_setup_refusal_has_both_languages_each_in_its_own():
    """The words of a setup's refusals themselves: the core's and each game's own."""
    from companion.games.flipdone import words as flipdone
    from companion.games.passpass import words as passpass
    from companion.games.swiped import words as swiped
    from companion.games.vnp import words as vnp
    from companion.rule_words import SETUP_WORDS

    own = [{key: (words["fr"][key], text) for key, text in words["en"].items()}
           for words in (g.SETUP_WORDS for g in (flipdone, passpass, swiped, vnp))]  # fmt: skip
    wrong = catalogue_mistakes(SETUP_WORDS, *own)
    assert not wrong, said(wrong)


BAD_RULES: dict[str, tuple[str, ...]] = {
    "ptipasspass": ("zzz = 1", "layout = 3", "window_seconds = 99",
                    "layout = {positions = [[0, 0], [0, 1]]}",
                    "layout = {positions = [[0, 0], [1, 1], [2, 2]]}",
                    "layout = {positions = [[0, 1], [0, 0], [0, 2]]}",
                    "layout = {positions = [[0, 0], [0, 0], [0, 1]]}", "layout = {name = 1}"),
    "phipasspass": ("next_starter = \"loser\"", "window = \"round\"", "turn_limit = 0",
                    "doublon_min = -1", "layout = 3"),
    "vnp": ("mode = \"pairs\"", "mode = \"four\"", "size = 3", "crossing = \"never\"",
            "starts = [[2, 2]]", "undo_placement = \"yes\"", "colours = 3"),
    "flipdone": ("phases = \"2\"", "manches = 0", "first_element = \"middle\"",
                 "tie_phase_limit = -1", "players = 4"),
    "swiped": ("deck_size = 999", "deck_seed = 1.5", "false_claim = \"x\"",
               "claim_before_first_swap = 1", "claims_per_gap = 0", "claim_mid_swap = 3",
               "zzz = 1"),
}  # fmt: skip
"""For each game, `[game.rules]` its referee refuses: every kind of refusal it words
(an unknown key, a value that is not the setting's, one the rule book does not play)."""


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("name", games.names())
def test_a_games_refusal_of_its_rules_is_one_line_in_the_tables_language(
    name, lang, tmp_path, capsys, monkeypatch
):
    """`companion config check` of a table whose `[game.rules]` its game refuses (the check
    `companion run` and a journal's resume make too): one line a refusal, naming the
    setting, with no word of the other language (issue 43)."""
    assert set(BAD_RULES) == set(games.names()), "every game has its bad rules here"
    monkeypatch.setenv("COMPANION_LANG", lang)
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    seats = min(games.get(name).seats)
    wrong: dict[str, str] = {}
    for rule in BAD_RULES[name]:
        path = tmp_path / "bad.toml"
        path.write_text(f'[game]\nname = "{name}"\nseats = {seats}\n[game.rules]\n{rule}\n')
        assert main(["config", "check", "--config", str(path)]) == 1, rule
        err = capsys.readouterr().err
        refusals = [line for line in err.splitlines() if "game.rules" in line]
        assert len(refusals) == 1, (rule, err)
        assert rule.split(" ")[0] in refusals[0], (rule, err)
        wrong |= prose_mistakes(NAMED.sub(" ", refusals[0]), lang)
    assert not wrong, said(wrong)


# ------------------------------------------------------------------ `companion enroll`


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_enroll_says_everything_in_one_language(lang, tmp_path, capsys, monkeypatch):
    """`companion enroll` as its players read it: each kind of step, a tag recorded, one
    already enrolled, two at once, a reader fault, the link down, both time-outs; and the
    command's refusals (its options, a kind it does not know, a tag it cannot forget)."""
    from companion.devices.enroll import enroll_session, game_steps, kind_steps
    from companion.devices.readers import LinkStatus, ReaderFault, SpotContents
    from companion.devices.registry import TagRegistry
    from tests.devices.test_enroll import Script

    monkeypatch.setenv("COMPANION_LANG", lang)
    a, b, c = "04A1B2C3D4E5F6", "8A2C11F0", "04FFEEDDCCBBAA"
    lines: list[str] = []
    steps = [*kind_steps(["colour:bleu*2"]), *game_steps("ptipasspass", 2, each=2)[:1],
             *game_steps("flipdone", 3)[-1:], *game_steps("swiped", 2)]  # fmt: skip
    lines += [step.prompt for step in steps]
    registry = TagRegistry(tmp_path)

    def pad(*uids: str) -> SpotContents:
        return SpotContents(0, frozenset(uids))

    events = [(0.01, pad()), (0.01, ReaderFault(0, "absent")), (0.2, pad(a)), (0.2, pad()),
              (0.2, pad(a)), (0.2, pad()), (0.2, pad(b, c)), (0.2, pad())]  # fmt: skip
    result = enroll_session(Script(events), registry, steps, say=lines.append, timeout=1.5,
                            settle=0.03)  # fmt: skip
    assert not result.complete and len(result.enrolled) == 1
    down = [(0.01, LinkStatus(False, reason="/dev/x"))]
    enroll_session(Script(down), registry, steps, say=lines.append, timeout=0.3)
    enroll_session(Script([]), registry, steps, say=lines.append, timeout=0.3)
    assert len(lines) >= 12, lines
    for argv in (["--spi", "0.0"], ["--game", "flipdone", "--seats", "2"], ["animal:dragon"],
                 ["--forget", b], ["colour:bleu*0"], ["--list"]):  # fmt: skip
        main(["enroll", "--data-dir", str(tmp_path), *argv])
        out, err = capsys.readouterr()
        lines += (out + err).splitlines()
    wrong = prose_mistakes("\n".join(lines), lang)
    assert not wrong, said(wrong)


# ------------------------------------------------------------------ `companion doctor`


def display_and_sound(lang: str) -> list[str]:
    """The doctor's lines on the display and the voice, each way they go well, a display
    that fails, and a configuration it cannot read."""
    from companion.config.model import ConfigError, DisplayConfig, SoundConfig
    from companion.devices.display import check_display
    from companion.devices.doctor import check_configured_display
    from companion.devices.sound import check_sound

    out = io.StringIO()
    check_configured_display(ConfigError(["x.toml: display.driver"]), out)
    lines = out.getvalue().splitlines()
    lines += [check_display(DisplayConfig(driver=driver))[1] for driver in ("none", "dummy")]
    failed = check_display(DisplayConfig(driver="sh1106", i2c_bus=17))  # no such bus here
    assert not failed[0] and "0x3C" in failed[1]
    lines.append(failed[1])
    # (espeak-ng speaking: its own words on a machine without a sound card, quoted)
    for backend, volume in (("none", 50), ("espeak-ng", 0), ("capture", 50)):
        lines.append(check_sound(SoundConfig(backend=backend, volume=volume), lang)[1])
    return lines


DOCTOR_BEYOND = {
    "settle_none": "a tag read at 5.1 ms and then missed: the fake Pico's tags never flicker",
    "settle_not_taken": "a Pico that does not take CONF heartbeat_ms or debounce",
    "settle_stopped": "a Pico that stops answering in the middle of the search",
    "settle_lost": "the link lost in the middle of the search",
    "settle_lost_why": "the link lost in the middle of the search",
    "settle_no_answer": "a Pico that stops answering in the middle of the search",
}
"""The doctor's words on timings and the power-up wait the test below cannot make it say,
and why (`test_every_word_of_the_devices_has_both_languages_each_in_its_own` reads them)."""


def recording(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """The keys the command line says from now on: its books' and the catalogue's."""
    from companion import cli_words
    from companion.phrasebook import Book

    used: set[str] = set()
    phrase, said_in = cli_words.phrase, Book.said_in

    def recorded(key: str, lang: str = "fr", /, **fields: object) -> str:
        used.add(key)
        return phrase(key, lang, **fields)

    def recorded_in(book: Book, name: str, lang: str, /, **fields: object) -> str:
        used.add(book.prefix + name)
        return said_in(book, name, lang, **fields)

    monkeypatch.setattr(cli_words, "phrase", recorded)
    monkeypatch.setattr(Book, "said_in", recorded_in)
    return used


def timings() -> list[str]:
    """The doctor's lines on the firmware's timings against the bench's model, in every
    way it says them: none received or refused, a firmware that times no visit, within
    and slower than the model, a crowded bus, no time left to the interpreter."""
    from companion.devices import protocol
    from companion.devices.doctor import timing_lines

    def timing(cycle: tuple[int, int, int], visit: bool = True, buses: str = "") -> protocol.Timing:
        visits = (1390, 1402, 3100) if visit else None
        split = tuple(int(b) for b in buses) or None
        return protocol.Timing(64, cycle, 192 if visit else 0, visits, split)

    lines = timing_lines(None, {}, True, 0.5) + timing_lines(None, {}, False, 1.5)
    three = {0: 1, 1: 0, 2: 0}
    lines += timing_lines(timing((4300, 4400, 6100)), three, False, 1.5)
    lines += timing_lines(timing((70000, 80000, 95000), False), three, False, 1.5)
    lines += timing_lines(timing((2400, 2500, 2600), True, "011"), three, False, 1.5)
    twelve = {r: 1 for r in range(12)}
    lines += timing_lines(timing((12000, 12100, 13000)), twelve, False, 1.5)
    lines += timing_lines(timing((12000, 12100, 13000), True, "0" * 11 + "1"), twelve, False, 1.5)
    return lines


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_doctor_says_everything_in_one_language(lang, pico, responder, monkeypatch):  # noqa: F811
    """`companion doctor` watching a fake Pico on a pseudo-terminal: its link, version,
    live reads, a fault, missing readers, an enrolled tag named, the firmware's timings
    against the model, the verdict; its search for the tags' power-up wait, which finds
    one, then none; and with no Pico at all."""
    from companion.devices.doctor import run_doctor
    from companion.devices.words import SEARCH, TIMINGS

    monkeypatch.setenv("COMPANION_LANG", lang)
    used = recording(monkeypatch)
    out = io.StringIO()
    code = run_doctor(None, seconds=0.6, find=lambda: [str(pico.path)], make_link=fast_link,
                      out=out, readers=5, tags={NTAG: "animal:lapin"})  # fmt: skip
    assert code == 1
    responder.timing = FWP.timing(64, (4300, 4400, 6100), 192, (1390, 1402, 3100))
    for sets, needs in (
        ([[NTAG], ["04AABBCCDDEEFF"], []], {0: 700}),
        ([[NTAG], [], []], {0: 9000}),
    ):
        responder.sets, responder.needs = sets, needs
        run_doctor(str(pico.path), seconds=0.3, make_link=fast_link, out=out, find_settle=4,
                   step_timeout=10)  # fmt: skip
    responder.takes_settle = False
    run_doctor(str(pico.path), seconds=0.3, make_link=fast_link, out=out, settle_us=500)
    run_doctor(None, find=lambda: [], out=out)
    lines = out.getvalue().splitlines() + timings() + display_and_sound(lang)
    assert len(lines) >= 50, lines
    wrong = prose_mistakes("\n".join(lines), lang)
    assert not wrong, said(wrong)
    unsaid = {key for key in TIMINGS | SEARCH if f"cli.doctor.say.{key}" not in used}
    assert unsaid == set(DOCTOR_BEYOND), " ".join(sorted(unsaid ^ set(DOCTOR_BEYOND)))


WALK_BEYOND = {
    "lost_link": "the link to the Pico lost during the walk: the scripted mat has no link",
    "lingered": "a reader still reporting the token after the time to take it off: the "
                "scripted mat's readers let go at once",
    "no_read": "a reader that answers and reads nothing: the scripted mat's readers read",
    "scans": "the Pico's timings: the scripted mat has none",
    "cannot_talk": "`doctor --walk` on a real link (tests/pico/test_pico_walk.py)",
    "walking": "`doctor --walk` on a real link (tests/pico/test_pico_walk.py)",
    "written": "`doctor --walk` on a real link (tests/pico/test_pico_walk.py)",
    "phantoms": "a tag nobody placed: the scripted mats report only the tokens laid",
    "no_reader": "a token no reader read is never named: the walk says nothing was read",
    "verdict.no read": "a reader that answers and reads nothing (above)",
}  # fmt: skip
"""The walk's words the scripted mats below cannot make it say, and why."""


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_doctor_walk_says_everything_in_one_language(lang, monkeypatch):
    """`companion doctor --walk` on scripted mats, each fault of a table (swapped, moved,
    dead, reading across, sharing a tag, unreliable), tokens left on the mat, the power-up
    wait's search found, failed and short of tokens: every line on the terminal and every
    prompt on the OLED in the walk's language."""
    from companion.devices.readers import SpotContents
    from companion.devices.walk import Wiring
    from companion.devices.words import WALK
    from tests.devices.test_walk import Mat, Search, _wiring

    monkeypatch.setenv("COMPANION_LANG", lang)
    used = recording(monkeypatch)
    buses = Wiring(bus={0: 0, 1: 0, 2: 1, 3: 1})
    left = Mat(3, lang=lang)
    left.inbox.put(SpotContents(1, frozenset({"DEADBEEF"})))
    walks = [
        (Mat(7, under={3: 4, 4: 3}, lang=lang), _wiring(), None),
        (Mat(7, under={5: 6, 6: 6}, lang=lang), None, None),
        (Mat(7, dead={2}, across={4: 5}, noisy={6}, lang=lang), None, None),
        (Mat(7, shared={4: 5}, lang=lang), None, None),
        (left, None, None),
        (Mat(4, lay=(1, 3), lang=lang), buses, Search((1950, 3900))),
        (Mat(4, lay=(1,), lang=lang), buses, Search((500, 1000))),
        (Mat(3, lang=lang), None, Search((500, 1000))),
        (Mat(3, lay=(2,), lang=lang), None, Search(None)),
    ]
    lines: list[str] = []
    for mat, wiring, search in walks:
        mat.walk(wiring, search)
        lines += mat.said + [screen.text for screen in mat.shown]
    wrong = prose_mistakes("\n".join(lines), lang)
    assert not wrong, said(wrong)
    unsaid = {key for key in WALK if f"cli.walk.say.{key}" not in used}
    assert unsaid == set(WALK_BEYOND), " ".join(sorted(unsaid ^ set(WALK_BEYOND)))


def test_every_word_of_the_devices_has_both_languages_each_in_its_own():
    """What enroll, doctor and its walk say: each entry in French and English, neither with
    a word of the other language (those no test can make them say included)."""
    from companion.devices import words

    wrong = catalogue_mistakes(words.WORDS, words.DOCTOR, words.TIMINGS, words.SEARCH, words.WALK)
    assert not wrong, said(wrong)


# ------------------------------------------------------------------ the kit builder

KIT_BEYOND = {
    "mat_cells": "a game whose mat and spots disagree: the contract suite holds every game to it",
    "erc": "a board failing its electrical rule check (tests/kit/test_board.py breaks one)",
}
"""The kit builder's words no pin map or file here can make it say, and why."""


def kit_pin_maps(tmp: Path) -> list[Path]:
    """Pin maps wrong in every way the kit builder words, and one on a single bus."""
    import tomllib

    from companion.config.pins import REPOSITORY_PINS
    from tests.kit.conftest import dump

    shipped = REPOSITORY_PINS.read_text()
    spi1 = shipped[shipped.index("[pico.spi1]") : shipped.index("[pico.readers]")]
    texts = {
        "one-bus": shipped.replace(spi1, "").replace(
            "spi1 = [10, 11, 12, 13, 14, 15, 16, 17, 18]", ""
        ),
        "not-toml": "pico = \n",
    }

    def changed(name: str, change: Callable[[dict[str, Any]], None]) -> None:
        data = tomllib.loads(shipped)
        change(data)
        texts[name] = dump(data)

    readers = lambda d: d["pico"]["readers"]  # noqa: E731
    changed("few", lambda d: readers(d).update(cs=readers(d)["cs"][:10], spi1=[]))
    changed("twice", lambda d: readers(d)["cs"].__setitem__(3, 18))
    changed("gpio", lambda d: readers(d)["cs"].__setitem__(3, 40))
    changed("no-pico", lambda d: d.pop("pico"))
    changed("no-cs", lambda d: readers(d).update(cs=[]))
    changed("no-spi1", lambda d: d["pico"].pop("spi1"))
    changed("spi1-twice", lambda d: readers(d).update(spi1=[10, 10]))
    changed("kit-value", lambda d: d["kit"].update(pitch_mm=20))
    changed("kit-key", lambda d: d["kit"].update(pich_mm=90))
    changed("kit-table", lambda d: d.update(kit=5))
    paths = []
    for name, text in texts.items():
        (tmp / f"{name}.toml").write_text(text)
        paths.append(tmp / f"{name}.toml")
    return paths


def kit_files(tmp: Path) -> list[tuple[Path, Path]]:
    """Pairs of PNGs and PDFs that differ in every way the kit's check words."""
    from PIL import Image
    from pypdf import PdfWriter

    def png(name: str, size: tuple[int, int], colour: str) -> Path:
        Image.new("RGB", size, colour).save(tmp / name)
        return tmp / name

    def pdf(name: str, *pages: tuple[int, int]) -> Path:
        writer = PdfWriter()
        for width, height in pages:
            writer.add_blank_page(width, height)
        writer.write(tmp / name)
        return tmp / name

    return [
        (png("a.png", (4, 4), "white"), png("b.png", (5, 4), "white")),
        (tmp / "a.png", png("c.png", (4, 4), "black")),
        (pdf("a.pdf", (100, 100)), pdf("b.pdf", (100, 100), (100, 100))),
        (tmp / "a.pdf", pdf("c.pdf", (200, 100))),
    ]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_kit_builder_says_everything_in_one_language(lang, tmp_path, capsys, monkeypatch):
    """`python -m companion.kit`: its help, its refusal of every pin map it cannot draw,
    its warning of a crowded bus, the files it wrote, and its check of a kit changed in
    every way (a file edited, missing, no longer generated; an image and a PDF of another
    size, pixels or pages): each line in the command line's language."""
    from companion.kit import build
    from companion.kit.__main__ import main as kit
    from companion.kit.words import WORDS as KIT_WORDS

    monkeypatch.setenv("COMPANION_LANG", lang)
    used = recording(monkeypatch)
    with pytest.raises(SystemExit):
        kit(["--help"])
    help_out = capsys.readouterr().out
    assert help_out.startswith({"fr": "usage : ", "en": "usage: "}[lang])
    text = [help_out]
    pins = kit_pin_maps(tmp_path)
    for path in pins[1:]:
        assert kit(["--pins", str(path), "--check"]) == 2, path
        text.append(capsys.readouterr().err)
    out = tmp_path / "out"
    only = ["--out", str(out), "--only", "hardware", "--only", "hardware/mats"]
    assert kit(["--pins", str(pins[0]), *only]) == 0
    assert kit([*only, "--check"]) == 1
    (out / "hardware" / "bom.md").write_text("edited")
    (out / "hardware" / "mats.md").unlink()
    (out / "hardware" / "mats" / "stray.pdf").write_text("")
    assert kit([*only, "--check"]) == 1
    shutil.rmtree(out)
    assert kit(only) == 0
    assert kit([*only, "--check"]) == 0
    text += capsys.readouterr()
    text += [str(build._differs(a, b)) for a, b in kit_files(tmp_path)]
    wrong = prose_mistakes("\n".join(text), lang)
    assert not wrong, said(wrong)
    unsaid = {key for key in KIT_WORDS if f"cli.kit.{key}" not in used}
    assert unsaid == set(KIT_BEYOND), " ".join(sorted(unsaid ^ set(KIT_BEYOND)))


def test_every_word_of_the_kit_builder_has_both_languages_each_in_its_own():
    """What the kit builder says, those no pin map here makes it say included."""
    from companion.kit.words import WORDS as KIT_WORDS

    wrong = catalogue_mistakes(KIT_WORDS)
    assert not wrong, said(wrong)


# ------------------------------------------------------------------ the lab's report

LAB_VARIANTS = {
    "fr": ("comme la règle", "manches courtes", "deux joueurs"),
    "en": ("as ruled", "short rounds", "two players"),
}
"""The variants' names in the lab file of each language (a designer names them)."""


def lab_file(tmp: Path, lang: str) -> Path:
    """A lab file of every game, a skill ladder and restricted play, few games each."""
    ruled, short, two = LAB_VARIANTS[lang]
    variants = [
        f'[[variant]]\nname = "{ruled}"\ngame = "ptipasspass"\nplayers = 3\ngames = 30\n',
        f'[[variant]]\nname = "{short}"\ngame = "ptipasspass"\nplayers = 3\ngames = 30\n'
        'bots = ["random", "heuristic", "heuristic"]\nrules = { turn_limit = 12 }\n',
        f'[[variant]]\nname = "{two}"\ngame = "vnp"\nplayers = 2\ngames = 6\n',
        *(f'[[variant]]\nname = "{name}"\ngame = "{name}"\ngames = 6\n'
          for name in ("phipasspass", "flipdone", "swiped")),
    ]  # fmt: skip
    studies = (
        '[ladder]\ngame = "vnp"\nplayers = 2\nrungs = ["random", "largest"]\ngames = 6\n'
        '[restricted]\ngame = "ptipasspass"\nplayers = 2\nagent = "mcts:3"\n'
        'restrictions = ["never-bluff", "always-ok"]\ngames = 4\n'
    )
    path = tmp / "labo.toml"
    path.write_text("".join(variants) + studies, encoding="utf-8")
    return path


def page_lines(page: str) -> list[str]:
    """What a reader of an HTML report reads, a line a piece of text: its words, its
    tables' and its plots' (SVG text), not its style nor the plots' metadata."""
    import html

    page = re.sub(r"<style>.*?</style>|<metadata>.*?</metadata>|<!--.*?-->", " ", page,
                  flags=re.S)  # fmt: skip
    return [text for part in re.split(r"<[^>]*>", page) if (text := html.unescape(part).strip())]


def report_mistakes(lines: Iterable[str], lang: str) -> dict[str, str]:
    """A word of the other language (`OTHER` and `PROSE`) in the report's lines, what
    they name as typed taken out (a rule's key, a bot's kind, a file), or a French number
    written the English way."""
    wrong: dict[str, str] = {}
    for line in lines:
        wrong = numbers_mistakes(line, lang) | wrong
        prose = PLACES.sub(" ", RULE_SET.sub(" ", line))
        for words in (OTHER[lang], PROSE[lang]):
            for found in words.finditer(prose):
                if found[0].lower() not in ALIKE:
                    wrong.setdefault(f"another language's word {found[0]!r}", line)
    return wrong


RULE_SET = re.compile(r"\b\w+ = [^,;)]+")
"""A variant's rule as the lab file sets it (`false_claim = refused`), whatever the
language."""
ALIKE = {"places", "passes"}
"""Words of `OTHER` French writes too ("places pénalisées", "passes par partie")."""


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_labs_report_says_everything_in_one_language(lang, tmp_path, capsys):
    """`companion lab --lang` of every game, a skill ladder and restricted play, and
    `companion report --lang` of journals with their faults and refusals, set against
    the bots: the terminal summary, report.html with its plots' words, ladder.html and
    restricted.html, each line in one language, French numbers written as French does."""
    from tests.lab.test_journals import _tables_of

    out = tmp_path / "lab"
    argv = ["lab", str(lab_file(tmp_path, lang)), "--out", str(out), "--lang", lang]
    assert main([*argv, "--workers", "1", "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    pages = [(out / name).read_text(encoding="utf-8")
             for name in ("report.html", "ladder.html", "restricted.html")]  # fmt: skip
    played = _tables_of(tmp_path, "ptipasspass", 3, range(1, 7))
    bots = tmp_path / "robots.toml"
    bots.write_text(f'game = "ptipasspass"\nplayers = 3\nbots = ["random"]\ngames = 60\n'
                    f'[[variant]]\nname = "{LAB_VARIANTS[lang][0]}"\n'
                    'rules = { window = "timed" }\n', encoding="utf-8")  # fmt: skip
    journals = [str(played), *map(str, SCENARIOS)]
    argv = ["report", *journals, "--against", str(bots), "--out", str(tmp_path / "essai")]
    assert main([*argv, "--lang", lang, "--workers", "1", "--quiet"]) == 0
    lines += capsys.readouterr().out.splitlines()
    pages.append((tmp_path / "essai" / "report.html").read_text(encoding="utf-8"))
    assert all(page.startswith(f"<!doctype html><html lang={lang}>") for page in pages)
    assert sum("<svg" in page for page in pages) == 2  # the plots are read too
    for page in pages:
        lines += page_lines(page)
    wanted = {"fr": ("Règles appliquées", "Échelle d’habileté", "Jeu restreint", "À la table",
                     "Arrêts", "trop peu", "Les joueurs", "parties gagnées (%)", "place 1"),
              "en": ("Rulings applied", "Skill ladder", "Restricted play", "At the table",
                     "Faults", "too few", "People", "games won (%)", "seat 1")}  # fmt: skip
    text = "\n".join(lines)
    assert all(words in text for words in wanted[lang]), [w for w in wanted[lang] if w not in text]
    wrong = report_mistakes(lines, lang)
    assert not wrong, said(wrong)


def lab_names() -> set[str]:
    """Every name the report shows of every game's lab: its figures at every seat count,
    its sections, rulings and restrictions, and what it counts in."""
    from companion.lab.tally import slots
    from companion.lab.variants import load_lab

    names: set[str] = set()
    for name in games.names():
        game, lab = games.get(name), load_lab(name)
        for players in game.seats:
            names |= {part for s in slots(lab, players) for part in (s.section, s.label)}
        names |= {lab.manche, *lab.rulings.values()}
        if lab.thinking is not None:
            names |= set(lab.thinking().restrictions.values())
    return names


def test_every_name_of_the_labs_report_has_both_languages_each_in_its_own():
    """Every name of a figure, section, ruling and restriction of every game's lab has its
    words in both languages, and every sentence of the report has both, neither with a
    word of the other language."""
    from companion import report_words as words
    from companion.cli_words import books, said_in
    from companion.lab.variants import load_lab
    from companion.rule_words import CHECK

    names = lab_names()  # each game's lab loaded, its words added
    keys = phrase_keys_said() | {key for book in books() for key in book.keyed()}
    missing = sorted(name for name in names if f"cli.lab.name.{name}" not in keys)
    assert not missing, missing
    tables = [
        words.REPORT,
        words.LADDER,
        words.RESTRICTED,
        words.FILE,
        words.CLUSTER,
        words.THINKING,
        CHECK,
        words.NAMES,
    ]
    for name in games.names():
        lab_words = load_lab(name).words
        tables += [lab_words.names, lab_words.sentences] if lab_words else []
    wrong = catalogue_mistakes(*tables)
    assert not wrong, said(wrong)
    assert said_in("cli.lab.name.turns per manche", "en") == "turns per round"


def phrase_keys_said() -> set[str]:
    """Every key of the catalogue, those no screen draws included."""
    from companion.screens import text

    return set(text._PHRASES["fr"])


LAB_REFUSED = [
    'gmae = "vnp"\n', 'game = "chess"\n', 'game = "vnp"\nplayers = 3\n',
    'game = "ptipasspass"\nplayers = 3\nbots = ["random", "heuristic"]\n',
    'game = "vnp"\ngames = 0\n', 'game = "vnp"\nseed = "x"\n', 'game = "vnp"\nrules = 3\n',
    'game = "vnp"\n[[variant]]\nname = ""\n', 'variant = 3\n', "[[[\n",
    'game = "vnp"\n[[variant]]\nname = "a"\n[[variant]]\nname = "a"\n',
    'game = "ptipasspass"\nbots = ["mcts:0"]\n', 'game = "ptipasspass"\nbots = ["mcts:3/"]\n',
    'game = "ptipasspass"\nbots = ["mcts:3/sometimes"]\n', 'game = "vnp"\nladder = 3\n',
]  # fmt: skip
"""Lab files the lab refuses, each for another reason (the game's own rule checks aside)."""
GAME_REFUSED = [
    'game = "flipdone"\nbots = ["clever"]\n', 'game = "flipdone"\nrules = {turns = 3}\n',
    'game = "flipdone"\nrules = {phases = 0}\n', 'game = "flipdone"\nrules = {manches = "3"}\n',
    'game = "flipdone"\nrules = {first_element = "corner"}\n',
    'game = "ptipasspass"\nrules = {window = "slow"}\n',
    'game = "phipasspass"\nrules = {turn_limit = 0}\n', 'game = "phipasspass"\nrules = {x = 1}\n',
    'game = "swiped"\nrules = {deck_size = 2}\n', 'game = "swiped"\nrules = {deck_seed = 1.5}\n',
    'game = "swiped"\nrules = {claim_before_first_swap = 1}\n',
    'game = "swiped"\nrules = {false_claim = "forgiven"}\n', 'game = "swiped"\nbots = ["x"]\n',
    'game = "vnp"\nplayers = 2\nrules = {mode = "teams"}\n', 'game = "vnp"\nrules = {size = 4}\n',
    'game = "vnp"\nrules = {starts = [[2, 2]]}\n', 'game = "vnp"\nrules = {undo_placement = 1}\n',
    'game = "vnp"\nrules = {crossing = "over"}\n', 'game = "vnp"\nrules = {colours = 3}\n',
]  # fmt: skip
"""Lab files each game's own rule checks refuse (`companion.lab.checks`), each for another
reason."""


NOT_TOML = [
    "x = \n", "x = 1 2\n", "[a\n", "[[a\n", "a = [1 2]\n", "a = {b = 1\n", "a = 'x\n",
    'a = "x\n', "[a]\n[a]\n", "a = 1\na = 2\n", 'a = "\\q"\n', 'a = "\\uZZZZ"\n',
    'a = "\\uD800"\n', "a = 1979-02-30\n", "= 1\n", "a = {b = 1, b = 2}\n", "a. = 1\n",
    "a = {b = 1}\na.c = 2\n", "[a.b]\nc = 1\n[a]\nb.c = 1\n", 'a = "x\x01"\n',
    "a = '''x\n", 'a = "x', "a b\n", "a = 1" + "1" * 5000 + "\n", "x = " + "[" * 1000,
]  # fmt: skip
"""Files that are no TOML, each in another way tomllib (or Python) says."""


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_file_that_is_no_toml_is_said_in_our_words_with_its_line_and_column(
    lang, tmp_path, capsys, monkeypatch
):
    """tomllib's syntax errors (English whatever the table speaks) said again in the
    command line's language by `companion lab`, `companion config check` and the kit
    builder (a pin map), each with its line and column (or the file's end); every way of
    saying them said by a file."""
    from companion.config.syntax import WORDS
    from companion.kit.__main__ import main as kit

    monkeypatch.setenv("COMPANION_LANG", lang)
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    used = recording(monkeypatch)
    where = {
        "fr": r"\((ligne \d+, colonne \d+|à la fin du fichier)\)|chiffres|profond|UTF-8",
        "en": r"\((line \d+, column \d+|at the end of the file)\)|digits|deep|UTF-8",
    }[lang]
    wrong: dict[str, str] = {}
    files = [text.encode() for text in NOT_TOML] + [b'a = "\xe9"\n']  # not UTF-8
    for number, raw in enumerate(files):
        path = tmp_path / f"bad{number}.toml"
        path.write_bytes(raw)
        for command, argv, code in ((main, ["lab", str(path), "--quiet"], 2),
                                    (main, ["config", "check", "--config", str(path)], 1),
                                    (kit, ["--pins", str(path), "--check"], 2)):  # fmt: skip
            assert command(argv) == code, (argv, raw)
            err = capsys.readouterr().err.strip()
            assert re.search(where, err.splitlines()[0]), err  # then config check's summary
            wrong |= prose_mistakes(err, lang)
    assert not wrong, said(wrong)
    unsaid = {f"cli.toml.{key}" for key in WORDS} - used
    assert unsaid == {"cli.toml.syntax"}  # for tomllib's messages to come


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_labs_refusals_of_a_file_are_in_one_language(lang, tmp_path, capsys):
    """Every refusal of a lab file (its keys, its game, seats, bots, games, seed, rules,
    names, a thinking bot's kind, each game's own rule checks, a file that is no TOML or
    none at all): one line, in the command line's language, with no internal id in its
    prose."""
    wrong: dict[str, str] = {}
    for number, text in enumerate([*LAB_REFUSED, *GAME_REFUSED, None]):
        path = tmp_path / f"refus{number}.toml"
        if text is not None:
            path.write_text(text, encoding="utf-8")
        assert main(["lab", str(path), "--lang", lang, "--quiet"]) == 2, text
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1, err
        wrong |= prose_mistakes(err, lang)
        wrong |= {f"{what}: {found[0]!r}": err for what, pattern in INTERNAL.items()
                  if (found := pattern.search(PLACES.sub(" ", err)))}  # fmt: skip
    assert not wrong, said(wrong)
