"""`companion config check`: every kind of bad value has its own message naming the key,
the value and the fix, and a non-zero exit; the documented example is valid."""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from companion.config import load_config
from companion.config.check import add_config_parser
from companion.config.model import ConfigError
from tests.pi.conftest import PINS, ROOT

EXAMPLE = ROOT / "docs" / "companion.example.toml"


def check(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser()
    add_config_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["config", "check", "--config", str(path)])
    code = args.func(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path: Path, text: str, pins: str | None = None) -> Path:
    (tmp_path / "pins.toml").write_text(pins if pins is not None else PINS.read_text())
    config = tmp_path / "companion.toml"
    config.write_text(text + '\n[paths]\npins = "pins.toml"\n')
    return config


def test_the_example_is_valid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(EXAMPLE, tmp_path / "companion.toml")
    shutil.copy(PINS, tmp_path / "pins.toml")
    code, out, err = check(tmp_path / "companion.toml", capsys)
    assert code == 0, err
    assert "configuration OK" in out
    config = load_config(tmp_path / "companion.toml")
    assert config.game.seats == ("Ana", "Bob", "Cy", "Dee") and config.hardware
    assert config.pins is not None and config.pins.seats["doublon"][:4] == (4, 17, 27, 22)


def test_the_summary_shows_every_games_own_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`config check` shows the games' own [game] keys, as the game declaring each words
    it, whatever the game played at power-on (the menu may switch to one taking them); the
    seats nobody named are named in the table's language, as its menu names them."""
    code, out, err = check(
        write(tmp_path, '[game]\nname = "flipdone"\nseats = 3\nwindow = 8\n'), capsys
    )
    assert code == 0, err
    assert out.splitlines()[1] == (
        "game: flipdone, 3 seats (Siège 1, Siège 2, Siège 3), first player 1, settle 0.5 s, "
        "window 8 s, doublon_min 2 s (PhiPassPass), language fr"
    )


BAD_VALUES = [
    ('[game]\nname = "chess"\n', 'game.name = "chess"', "choose one of"),
    ('[game]\nseats = ["Ana"]\n', "game.seats = ['Ana']", "2 to 6 different names"),
    ('[game]\nseats = ["Ana", "Ana"]\n', "game.seats = ['Ana', 'Ana']", "different names"),
    (f'[game]\nseats = ["Ana", "{"x" * 65}"]\n', "game.seats = ['Ana', 'x", "up to 64 characters"),
    ("[game]\nseats = 3\nfirst = 4\n", "first = 4", "seat number from 1 to 3"),
    ("[game]\nwindow = 0.5\n", "window = 0.5", "a number from 1 to 60"),
    ('[game]\nwindow = "6"\n', 'window = "6"', "a number from 1 to 60"),
    ("[game]\nsettle = 9\n", "settle = 9", "0.05 to 5"),
    ("[game]\ndoublon_min = -0.5\n", "game.doublon_min = -0.5", "PHI-2"),
    ("[game]\ndoublon_min = 10.5\n", "game.doublon_min = 10.5", "0 to 10 (default 2)"),
    ('[game]\ndoublon_min = "2"\n', 'game.doublon_min = "2"', "0 to 10 (default 2)"),
    ('[game]\nlanguage = "de"\n', 'language = "de"', '"fr", "en"'),
    ("[game]\nseed = -1\n", "seed = -1", "whole number >= 0"),
    ("[game]\nplayers = 3\n", "game.players: unknown key", "known keys here"),
    ("[game.layout]\npositions = [[0, 0], [0, 1]]\n", "game.layout", "takes 3 at least"),
    ('[display]\ndriver = "ssd1309"\n', 'driver = "ssd1309"', "sh1106"),
    ("[display]\naddress = 0x80\n", "address = 128", "i2cdetect"),
    ("[display]\nrotation = 90\n", "rotation = 90", "0 or 180"),
    ("[display]\ncontrast = 300\n", "contrast = 300", "0 (dim) to 255"),
    ("[controls]\nbounce_ms = 0\n", "bounce_ms = 0", "from 1 to 200"),
    ('[controls]\nenabled = "yes"\n', 'enabled = "yes"', "true or false"),
    ("[controls]\nlong_press_ms = 100\n", "long_press_ms = 100", "200 to 5000"),
    ('[readers]\nkind = "usb"\n', 'kind = "usb"', '"pico", "spi", "none"'),
    ('[readers]\nkind = "spi"\n', 'readers.kind = "spi" needs', "spi_spots"),
    ("[readers]\nspi_spots = [0, 1]\nspi_rst = 25\n", "spi_spots = [0, 1]", "[bus, device]"),
    ("[readers]\nresume_wait = 100\n", "resume_wait = 100", "0 to 30"),
    ("[readers]\nsettle_us = 30000\n", "settle_us = 30000", "(default: what companion doctor"),
    ('[sound]\nbackend = "festival"\n', 'sound.backend = "festival"', "apt-get install espeak-ng"),
    ("[sound]\nvolume = 101\n", "sound.volume = 101", "0 (silent) to 100"),
    ("[sound]\nrate = 20\n", "sound.rate = 20", "from 80 to 400"),
    ('[sound]\nvoice_fr = "fr fr"\n', 'sound.voice_fr = "fr fr"', "espeak-ng --voices=fr"),
    ("[sound]\ninterrupt = 1\n", "sound.interrupt = 1", "true cuts the sentence"),
    ("[sound]\nloud = true\n", "sound.loud: unknown key", "known keys here: backend"),
    ("schema = 2\n", "schema = 2", "must be 1"),
    ("display = 3\n", "display = 3", "must be a table"),
]


@pytest.mark.parametrize(("text", "names", "fix"), BAD_VALUES)
def test_each_bad_value_names_key_value_and_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, names: str, fix: str
) -> None:
    code, out, err = check(write(tmp_path, text), capsys)
    assert code == 1
    assert "configuration OK" not in out
    problems = [line for line in err.splitlines() if line.startswith("error: ")]
    assert len(problems) == 1, err
    assert names in problems[0] and fix in problems[0], problems[0]
    assert str(tmp_path / "companion.toml") in problems[0]


def test_the_messages_are_all_different(tmp_path: Path) -> None:
    messages = set()
    for i, (text, _, _) in enumerate(BAD_VALUES):
        folder = tmp_path / str(i)
        folder.mkdir()
        with pytest.raises(ConfigError) as caught:
            load_config(write(folder, text))
        messages.add(caught.value.problems[0].split(": ", 1)[1])
    assert len(messages) == len(BAD_VALUES)


def test_all_problems_are_reported_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = check(write(tmp_path, '[game]\nname = "go"\n[display]\ncontrast = -1\n'), capsys)
    assert code == 1 and "2 problem(s)" in err


def test_unreadable_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = check(tmp_path / "nowhere.toml", capsys)
    assert code == 1 and "no such file" in err and "companion.example.toml" in err
    broken = tmp_path / "broken.toml"
    broken.write_text("[game\nname = chess\n")
    code, _, err = check(broken, capsys)
    assert code == 1 and "not valid TOML" in err
    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes('[game]\nseats = ["Zoé", "Bob"]\n'.encode("latin-1"))
    code, _, err = check(latin1, capsys)
    assert code == 1 and "not UTF-8 text (byte 0xE9" in err and "Traceback" not in err
    pins = tmp_path / "pins.toml"
    pins.write_bytes(b"[pi.seats]\n# caf\xe9\n")
    code, _, err = check(_with_pins(tmp_path), capsys)
    assert code == 1 and "pins.toml: not UTF-8 text" in err


def _with_pins(tmp_path: Path) -> Path:
    """A config naming the (already written) pins.toml of ``tmp_path``."""
    config = tmp_path / "companion.toml"
    config.write_text('[paths]\npins = "pins.toml"\n')
    return config


def test_window_and_settle_bounds_are_the_options_bounds() -> None:
    """`play --window/--settle` refuse exactly what `config check` refuses."""
    import argparse

    from companion import games
    from companion.cli_words import text_of
    from companion.config.bounds import SETTLE
    from companion.options import checked_option, seconds_option

    window = games.table_settings()["window"]  # PassPass's, declared in its package
    options = [
        (checked_option(window.check, window.fix), text_of(window.fix), ["1", "60", "6.5"],
         ["0.99", "61", "inf"]),
        (seconds_option(SETTLE), text_of(SETTLE.fix), ["0.05", "5"], ["0.04", "5.1", "x"]),
    ]  # fmt: skip
    for parse, fix, inside, outside in options:
        assert [parse(v) for v in inside] == [float(v) for v in inside]
        for value in outside:
            with pytest.raises(argparse.ArgumentTypeError, match=fix.split(":")[0]):
                parse(value)


def test_doublon_min_bounds_are_0_to_10_seconds() -> None:
    from companion.games.passpass.table_settings import DOUBLON_MIN

    assert [DOUBLON_MIN.check(v) for v in (0, 2, 2.5, 10)] == [0.0, 2.0, 2.5, 10.0]
    assert [DOUBLON_MIN.check(v) for v in (-0.01, 10.01, float("nan"), True, "2")] == [None] * 5


@pytest.mark.parametrize("game", ["phipasspass", "ptipasspass"])
def test_doublon_min_reaches_the_games_setup(tmp_path: Path, game: str) -> None:
    """`game.doublon_min` of the file is the `doublon_min` of the Setup `run` starts a game
    with, under the game's `rules`, and so of its journal's setup line (PHI-2)."""
    from companion.journal import parse_setup
    from companion.run.game_start import new_setup

    seats = '["Ana", "Bob", "Cy"]'
    config = load_config(
        write(tmp_path, f'[game]\nname = "{game}"\nseats = {seats}\ndoublon_min = 3.5\n')
    )
    assert config.game.settings["doublon_min"] == 3.5
    setup = new_setup(config, {"04A1B2C3D4E580": "colour:bleu"}, seed=1)
    assert setup.rules == {"window_seconds": 6.0, "doublon_min": 3.5}
    assert parse_setup(setup.to_json()).rules == setup.rules
    default = load_config(write(tmp_path, f'[game]\nname = "{game}"\nseats = {seats}\n'))
    assert (new_setup(default, {}, seed=1).rules or {})["doublon_min"] == 2.0


def test_the_passpass_keys_of_game_stay_out_of_another_games_setup(tmp_path: Path) -> None:
    """`game.window` and `game.doublon_min` are PassPass's: a Flip Done table's setup (and
    journal) carries neither, while the menu's PassPass game still gets them."""
    import dataclasses

    from companion.run.game_start import new_setup

    text = '[game]\nname = "flipdone"\nseats = 3\nwindow = 8\ndoublon_min = 3\n'
    config = load_config(write(tmp_path, text))
    assert new_setup(config, {}, seed=1).rules is None
    passpass = dataclasses.replace(config.game, name="ptipasspass")
    setup = new_setup(dataclasses.replace(config, game=passpass), {}, seed=1)
    assert setup.rules == {"window_seconds": 8.0, "doublon_min": 3.0}


PIN_CLASHES = [
    (
        "doublon = [4, 17,",
        "doublon = [2, 17,",
        "pi.seats.doublon[0] (seat 1 Doublon) = 2",
        "GPIO 2 is already the OLED's I2C SDA",
    ),
    (
        "menteur = [14, 15,",
        "menteur = [14, 4,",
        "pi.seats.menteur[1] (seat 2 Menteur) = 4",
        "GPIO 4 is already pi.seats.doublon[0] (seat 1 Doublon)",
    ),
    ("back = 26", "back = 0", "pi.console.back (back button) = 0", "HAT EEPROM ID_SD"),
    ("push = 21", "push = 16", "pi.encoder.push = 16", "GPIO 16 is already pi.encoder.a"),
    ("back = 26", 'back = "GPIO26"', 'pi.console.back = "GPIO26"', "BCM GPIO number"),
    ("a = 16", "a = 40", "pi.encoder.a = 40", "from 0 to 27"),
]


@pytest.mark.parametrize(("old", "new", "names", "fix"), PIN_CLASHES)
def test_clashing_pins_are_refused_naming_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, names: str, fix: str
) -> None:
    pins = PINS.read_text()
    assert old in pins
    code, _, err = check(write(tmp_path, "", pins=pins.replace(old, new, 1)), capsys)
    assert code == 1
    assert names in err and fix in err, err


def test_spi_pins_clash_only_with_readers_on_spi(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pins = PINS.read_text().replace("back = 26", "back = 10")
    code, _, _ = check(write(tmp_path, "", pins=pins), capsys)
    assert code == 0
    spi = '[readers]\nkind = "spi"\nspi_spots = [[0, 0], [0, 1]]\nspi_rst = 25\n'
    code, _, err = check(write(tmp_path, spi, pins=pins), capsys)
    assert code == 1
    assert "GPIO 10 is already SPI0 MOSI" in err
    assert "pi.seats.menteur[5]" not in err  # 25 is seat 6's Menteur: 4 seats by default


def test_i2c_pins_are_free_without_an_oled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pins = PINS.read_text().replace("back = 26", "back = 3")
    code, _, _ = check(write(tmp_path, '[display]\ndriver = "none"\n', pins=pins), capsys)
    assert code == 0


def test_no_file_means_a_simulated_table(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setattr("companion.config.SYSTEM_CONFIG", tmp_path / "none.toml")
    config = load_config(None)
    assert config.source is None and not config.hardware


def test_game_rules_and_web_are_checked_by_the_game_and_the_web_section() -> None:
    """[game.rules] goes to the game's referee (VNP-7 teams need four seats); [web] keys
    have types and ranges; each problem names its key."""
    from companion.config.tables import parse_config

    vnp = {"name": "vnp", "seats": ["A", "B", "C", "D"]}
    config = parse_config({"game": {**vnp, "rules": {"mode": "teams"}}})
    assert config.game.rules == {"mode": "teams"} and config.web.port == 8080
    bad = {
        "game": {**vnp, "rules": {"mode": "two"}},
        "web": {"port": 0, "host": "pi.local", "enabled": "yes", "tls": True, "pairing_hours": -1},
    }
    with pytest.raises(ConfigError) as caught:
        parse_config(bad)
    problems = "\n".join(caught.value.problems)
    for key in (
        "game.rules",
        "web.port",
        "web.host",
        "web.enabled",
        "web.tls",
        "web.pairing_hours",
    ):
        assert key in problems
    assert "VNP-7" in problems


def test_a_swiped_deck_larger_than_the_books_keeps_its_cards_enrolled(tmp_path: Path) -> None:
    """`game.rules.deck_size` = 30 (SW-1 lets a table play a bigger deck): the new game's
    setup keeps the enrolled tags of cards 25 to 30, so they are not unknown tags."""
    from companion.run.game_start import new_setup

    config = load_config(
        write(
            tmp_path,
            '[game]\nname = "swiped"\nseats = ["Ana", "Bob"]\n[game.rules]\ndeck_size = 30\n',
        )
    )
    tags = {"04A1B2C3D4E580": "layout:30", "04A1B2C3D4E581": "layout:24", "B1000009": "cube:noir"}
    setup = new_setup(config, tags, seed=1)
    assert set(setup.tags.values()) == {"layout:30", "layout:24", "cube:noir"}


def test_the_power_up_wait_goes_to_the_pico_link(tmp_path: Path) -> None:
    from companion.devices.serial_link import SerialLink
    from companion.run.devices import _readers

    link = _readers(load_config(write(tmp_path, "[readers]\nsettle_us = 200\n")))
    assert isinstance(link, SerialLink) and link.settings == {"settle_us": 200}
    default = _readers(load_config(write(tmp_path, "[readers]\n")))
    assert default.settings == {"settle_us": 300}


def test_a_tables_own_layout_is_checked_by_its_game(tmp_path: Path) -> None:
    """[game.layout] goes to the game's `own_layout` (config knows no game's layout); a
    game without one refuses any layout in its `check`."""
    import dataclasses

    from companion import games
    from tests.games import registered

    def own_layout(layout: Mapping[str, Any]) -> None:
        if layout.get("hats") != 1:
            raise ValueError("tally has one hat: hats = 1")

    text = '[game]\nname = "{}"\nseats = 3\n[game.layout]\nhats = {}\n'
    with registered("tests.games.tally") as found:
        games.register(dataclasses.replace(found["tally"], name="hats", own_layout=own_layout))
        config = load_config(write(tmp_path, text.format("hats", 1)))
        assert config.game.settings["layout"] == {"hats": 1}
        with pytest.raises(ConfigError) as caught:
            load_config(write(tmp_path, text.format("hats", 2)))
        assert caught.value.problems == [
            f"{tmp_path / 'companion.toml'}: game.layout = {{...}}: tally has one hat: hats = 1"
        ]
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text.format("swiped", 1).replace("3", "2")))
    assert "no [game.layout]" in caught.value.problems[0]
