"""One language per table: every event of whole simulated games of every game of the
registry (people's pace, their slips, faults and refusals included) and of the referee's
scenario journals (every fault, refusal and undo a table met), rendered as the
transcript and the page's history in French and in English, and each table's status line
along the way; what a phone reads when its game refuses what it sent; the command line
(every help, argparse's words, refusals, `replay`, the typed table of `play --sim`, every
problem and summary of `config check`); and
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
from companion.config.words import WORDS as CFG_WORDS
from companion.session import replay
from companion.transcript import describe
from companion.web.public import Publisher
from tests.devices.conftest import pico  # noqa: F401  (a fixture of the doctor's test)
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


# ------------------------------------------------------------------ `companion config check`

CONFIG_WORDS = {f"cli.cfg.{key}" for key in CFG_WORDS}
BEYOND_A_TEST = {
    "cli.cfg.not_toml_other": "a ValueError of tomllib other than a number's digits",
    "cli.cfg.no_home": "~ without a home directory",
    "cli.cfg.unwritable": "a folder this user may not write: the tests run as root",
    "cli.cfg.uncreatable": "a folder this user may not create: the tests run as root",
    "cli.cfg.sum.no_espeak": "espeak-ng missing: it is installed where the tests run",
}
"""The configuration's words no file here can make `config check` say, and why."""
NAMED = re.compile(
    r'"[^"]*"|(?<=connues ici : )[^;]*|(?<=known keys here: )[^;]*|\bSeat \d'
    r"|(?<=TOML valide : )[^(]*\(at [^)]*\)|(?<=valid TOML: )[^(]*\(at [^)]*\)"
    r"|unknown ptipasspass rules zzz: ptipasspass has no rule settings"
    r"|must be a JSON value, not a date"
)
"""What a line of `config check` names rather than says: a value of the file, the keys a
table knows, a seat's default name; and the words it quotes from elsewhere, in English
whatever the table's: tomllib's syntax errors, a game's refusal of its rule settings, the
journal's refusal of a value it cannot record."""


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
        "system-ca": f"{quiet}[club]\nbroker = \"club.local\"\ntable = \"t1\"\n",
    }  # fmt: skip
    for name, text in files.items():
        (tmp / f"{name}.toml").write_text(text)
    example = Path(__file__).parents[1] / "docs" / "companion.example.toml"
    return [example, *(tmp / f"{name}.toml" for name in files), None]


def test_every_word_of_the_configuration_has_both_languages_each_in_its_own():
    """The catalogue's texts themselves, each in French and English, neither with a word
    of the other language (the words `config check` says are tried end to end below)."""
    wrong: dict[str, str] = {}
    for key, (fr, en) in CFG_WORDS.items():
        assert fr.strip() and en.strip(), key
        for lang, text in (("fr", fr), ("en", en)):
            wrong |= {f"{lang} {key}: {what}": line
                      for what, line in prose_mistakes(text, lang).items()}  # fmt: skip
    assert not wrong, said(wrong)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_config_check_says_every_problem_and_its_summary_in_one_language(
    lang, tmp_path, capsys, monkeypatch
):
    """`companion config check` of files wrong in every way it words (the problems of a
    configuration, of a pin map, of the data directory) and of files it summarises in
    every way: each line in the command line's language, and every one of the
    configuration's words said (but those no file here can make it say, named)."""
    from companion import cli_words
    from companion.config import pins

    monkeypatch.setenv("COMPANION_LANG", lang)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("COMPANION_DATA", raising=False)
    shipped = pins.REPOSITORY_PINS
    used: set[str] = set()
    phrase = cli_words.phrase

    def recorded(key: str, lang: str = "fr", /, **fields: object) -> str:
        used.add(key)
        return phrase(key, lang, **fields)

    monkeypatch.setattr(cli_words, "phrase", recorded)
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
             *game_steps("flipdone", 3)[-1:]]  # fmt: skip
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

UNTRANSLATED_DOCTOR = re.compile(r"^(?:scan cycle|reader visit|model|within its model|"
                                 r"slower than its model|interpreter|scan timings)\b")  # fmt: skip
"""The doctor's lines on the firmware's timings against the bench's model, English still
(numbers for the builder who reads bench/): the rest of what it says is translated."""


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_doctor_says_everything_in_one_language(lang, pico, responder, monkeypatch):  # noqa: F811
    """`companion doctor` watching a fake Pico on a pseudo-terminal: its link, version,
    live reads, a fault, missing readers, an enrolled tag named, the verdict; and with no
    Pico at all."""
    from companion.devices.doctor import run_doctor

    monkeypatch.setenv("COMPANION_LANG", lang)
    out = io.StringIO()
    code = run_doctor(None, seconds=0.6, find=lambda: [str(pico.path)], make_link=fast_link,
                      out=out, readers=5, tags={NTAG: "animal:lapin"})  # fmt: skip
    assert code == 1
    run_doctor(None, find=lambda: [], out=out)
    lines = [line for line in out.getvalue().splitlines()
             if not UNTRANSLATED_DOCTOR.search(line)]  # fmt: skip
    assert len(lines) >= 8, lines
    wrong = prose_mistakes("\n".join(lines), lang)
    assert not wrong, said(wrong)
