"""Which language the command line speaks: ``--lang`` where a command has it, else
``$COMPANION_LANG``, else the configuration's table language, else the locale, else French
as a table; and that it says everything in it: argparse's own words, the commands' help,
refusals and messages, the system's refusals (tests/test_languages.py checks every help
and refusal for words of the other language)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.cli_language import command_language, table_language
from companion.cli_words import locale_language

NO_ENV: dict[str, str] = {}


def config(folder: Path, text: str) -> str:
    path = folder / "companion.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_lang_then_the_variable_then_the_config_then_the_locale_then_french(tmp_path):
    english = config(tmp_path, '[game]\nlanguage = "en"\n')
    with_config = ["run", "--config", english]
    assert command_language([*with_config, "--lang", "fr"], {"COMPANION_LANG": "en"}) == "fr"
    assert command_language([*with_config, "--lang=fr"], NO_ENV) == "fr"
    assert command_language(with_config, {"COMPANION_LANG": "fr", "LANG": "fr_FR"}) == "fr"
    assert command_language(with_config, {"LANG": "fr_FR.UTF-8"}) == "en"  # the table's
    assert command_language(["--help"], {"COMPANION_CONFIG": english}) == "en"
    missing = str(tmp_path / "missing.toml")
    assert command_language(["run", "--config", missing], {"LANG": "en_GB.UTF-8"}) == "en"
    assert command_language(["run", "--config", missing], {"LANG": "C.UTF-8"}) == "fr"
    # A --lang or a variable of no language the catalogue speaks is no choice at all.
    assert command_language(["demo", "--lang", "de"], {"COMPANION_LANG": "it"}) == "fr"


def test_a_config_says_the_tables_language_french_unless_it_says_otherwise(tmp_path):
    assert table_language(config(tmp_path, '[game]\nlanguage = "en"\n')) == "en"
    assert table_language(config(tmp_path, '[game]\nname = "vnp"\n')) == "fr"
    assert table_language(config(tmp_path, "")) == "fr"
    assert table_language(config(tmp_path, '[game]\nlanguage = "de"\n')) is None
    assert table_language(config(tmp_path, "[game\n")) is None  # unreadable: its command says
    assert table_language(str(tmp_path / "missing.toml")) is None


def test_the_locale_strongest_variable_first():
    assert locale_language({"LC_ALL": "en_US.UTF-8", "LANG": "fr_FR.UTF-8"}) == "en"
    assert locale_language({"LC_MESSAGES": "fr_CA", "LANG": "en_US"}) == "fr"
    assert locale_language({"LC_ALL": "", "LANG": "en_US"}) == "en"
    assert locale_language({"LANG": "de_DE.UTF-8"}) is None
    assert locale_language({"LANG": "C"}) is None
    assert locale_language(NO_ENV) is None


@pytest.fixture
def no_language(monkeypatch, tmp_path):
    """A command line told no language: no variable, no config, a C locale."""
    for name in ("COMPANION_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.chdir(tmp_path)


def test_told_no_language_the_command_line_speaks_french(no_language, capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage : companion") and "affiche cette aide et s’arrête" in out
    assert "Un Raspberry Pi arbitre de jeux de table physiques." in out
    with pytest.raises(SystemExit) as refused:
        main(["demo", "--players", "x"])
    assert refused.value.code == 2
    err = capsys.readouterr().err.splitlines()[-1]
    assert err == "companion demo : erreur : --players : 'x' n’est pas un nombre entier >= 1"


def test_a_french_table_says_its_messages_in_french_and_an_english_one_in_english(
    no_language, tmp_path, capsys, monkeypatch
):
    out = tmp_path / "nowhere" / "deeper"
    assert main(["demo", "--out", str(out), "--quiet"]) == 2
    assert capsys.readouterr().err == (
        f"companion demo : --out {out} : il n’y a pas de dossier {out.parent} où le créer : "
        "créez-le d’abord (il reçoit journal.jsonl et oled.gif)\n"
    )
    monkeypatch.setenv("COMPANION_CONFIG", config(tmp_path, '[game]\nlanguage = "en"\n'))
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    assert capsys.readouterr().err == (
        f"companion replay: cannot read {tmp_path / 'missing.jsonl'}: no such file or folder\n"
    )


def test_lang_makes_a_new_games_table_speak_it_and_everything_the_command_says(
    no_language, tmp_path, capsys
):
    assert main(["demo", "--lang", "en", "--quiet", "--out", str(tmp_path / "d")]) == 0
    said = capsys.readouterr().out
    assert said.startswith("winner: ") and "replay it: companion replay " in said
    setup = (tmp_path / "d" / "journal.jsonl").read_text().splitlines()[0]
    assert '"language":"en"' in setup
    assert main(["replay", str(tmp_path / "d" / "journal.jsonl")]) == 0  # the table's: en
    assert capsys.readouterr().out.splitlines()[-1].startswith("game finished; scores: ")
    assert main(["replay", str(tmp_path / "d" / "journal.jsonl"), "--lang", "fr"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("partie finie ; scores : ")
