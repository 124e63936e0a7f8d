"""What a game declares of its table in its descriptor (docs/games.md): the families of its
tagged tokens, the buttons of its seats and its transcript lines. The core knows no family
and no button but these (tests/test_game_boundary.py): `companion enroll` takes a game's
kinds, the logs blank them, the pin map wires its buttons and the OLED shows their labels.
Checked alike on every registered game and the test game, so a new game is covered by
registering it."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion import games
from companion.cli_words import books, said_in, speaking, text_of
from companion.config.pins import EEPROM_PINS, I2C1_PINS, MAX_GPIO
from companion.devices.registry import KIND
from companion.games import Game, TableReferee
from companion.referee.event_log import TableEvent
from companion.screens import text as catalogue
from companion.screens.font import sanitize
from companion.screens.render import frame
from companion.screens.text import LANGUAGES, phrase
from companion.speech import announcement, opening
from companion.transcript import _FRENCH as CORE_ENGINE_WORDS
from companion.transcript import describe, shared_line
from tests.games import TEST_GAME, contract_games, descriptor, playing, registered

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", contract_games())
def test_every_token_is_of_a_family_the_game_declares(name: str) -> None:
    game = descriptor(name)
    for seats in game.seats:
        for _, kind in game.tokens(seats, None):
            assert any(f.holds(kind) for f in game.token_families), (seats, kind)
            assert KIND.fullmatch(kind), kind  # what tags.json holds a kind to
    for family in game.token_families:
        re.compile(family.pattern)
        assert re.fullmatch(r"[a-z][a-z0-9_]*", family.name) and family.shown, family
        for lang in LANGUAGES:  # its kinds written as typed, in the command line's words
            with speaking(lang):
                assert text_of(family.shown).startswith(f"{family.name}:"), family
                assert text_of(family.enrolled_as).strip(), family


@pytest.mark.parametrize("name", contract_games())
def test_every_button_is_a_control_with_a_label_and_a_free_pin_for_every_seat(
    name: str,
) -> None:
    """A seat button is one of the game's controls, labelled in every language of the
    table in letters the OLED draws, with a default BCM pin for as many seats as the
    game allows, none of them taken by the OLED's bus or the HAT EEPROM, nor twice."""
    game = descriptor(name)
    reserved = {*EEPROM_PINS, *I2C1_PINS}
    for button in game.buttons:
        assert button.name in game.controls, button.name
        for lang in LANGUAGES:
            label = button.labels[lang]
            assert label and sanitize(label) == label, (button.name, lang)
        assert len(button.pins) >= max(game.seats), button.name
        assert all(0 <= pin <= MAX_GPIO and pin not in reserved for pin in button.pins)
    pins = [pin for button in game.buttons for pin in button.pins]
    assert len(pins) == len(set(pins)), name


def test_two_games_declaring_a_family_or_a_button_declare_the_same() -> None:
    with registered("tests.games.tally"):
        families = games.token_families()
        buttons = games.buttons()
        assert "tally" in families and "pass_turn" in buttons
        for name in games.names():
            game = games.get(name)
            for family in game.token_families:
                assert families[family.name] == family, (name, family.name)
            for button in game.buttons:
                assert buttons[button.name] == button, (name, button.name)


def in_a_fresh_interpreter(script: str, asked: object, folder: Path | None = None) -> object:
    """What `script` prints (JSON) in an interpreter that loaded nothing of any game, given
    `asked` pickled on its standard input (and `folder` on its path): a game's screens
    unpickled there load its screen module alone, as a replay or a page that never started
    the game's referee would."""
    # The games of this run (a game copied elsewhere, tests/contract/test_new_game.py) too.
    paths = (str(folder) if folder else "", str(ROOT), os.environ.get("PYTHONPATH"))
    path = os.pathsep.join(p for p in paths if p)
    games_asked = os.environ.get("COMPANION_GAMES") or TEST_GAME
    env = dict(os.environ, COMPANION_GAMES=games_asked, PYTHONPATH=path)
    script = "import json, pickle, sys\n" + script
    fresh = subprocess.run([sys.executable, "-c", script], input=pickle.dumps(asked),
                           capture_output=True, check=True, env=env, cwd=ROOT)  # fmt: skip
    return json.loads(fresh.stdout)


def played(game: Game) -> tuple[TableReferee, list[tuple[list[TableEvent], object]]]:
    """A whole simulated game of `game`, fed input by input: its referee at the end, and
    each input's events with the screen after it (the first: none, the opening screen)."""
    setup = game.simulated_setup(game.default_seats, 1)
    referee = game.referee(setup)
    steps: list[tuple[list[TableEvent], object]] = [([], referee.screen)]
    for record in game.simulate(setup).inputs:
        steps.append((referee.feed(record), referee.screen))
    return referee, steps


LINES = """
from companion.transcript import describe
game, names, events = pickle.load(sys.stdin.buffer)
print(json.dumps([describe(e, names, game, lang) for lang in ("en", "fr") for e in events]))
"""
"""A transcript of given events."""


@pytest.mark.parametrize("name", contract_games())
def test_a_games_lines_come_from_its_descriptor_whatever_was_imported(name: str) -> None:
    """A game's own transcript lines are its descriptor's (`Game.describe`), not filled in
    by importing one of its modules: an interpreter that never loaded its referee (a
    replay, the page's history) writes a simulated game's events as the referee's does."""
    with playing(name) as game:  # the test game in the registry for the block
        referee = game.simulate(game.simulated_setup(game.default_seats, 1)).referee
        assert referee is not None and game.describe is not None
        events, names = list(referee.events), list(referee.names)
        here = [describe(e, names, name, lang) for lang in ("en", "fr") for e in events]
        own = [e for e in events if describe(e, names, name) != shared_line(e, names, "en")]
    assert own, "no event of the game has a line of its own"
    assert in_a_fresh_interpreter(LINES, [name, names, events]) == here


SPOKEN = """
from companion.speech import announcement, opening
game, names, steps = pickle.load(sys.stdin.buffer)
said = [opening(steps[0][1], names, game, lang) for lang in ("en", "fr")]
said += [announcement(events, screen, names, game, lang)
         for lang in ("en", "fr") for events, screen in steps[1:]]
print(json.dumps(said))
"""
"""What the table says of given inputs' events and screens."""


@pytest.mark.parametrize("name", contract_games())
def test_a_games_voice_comes_from_its_descriptor_whatever_was_imported(name: str) -> None:
    """What the table says aloud of a game is its descriptor's (`Game.voice`), not filled
    in by importing its voice module: an interpreter that loaded only the game's screens
    (unpickled) says a simulated game's opening and inputs as the referee's process does."""
    with playing(name) as game:
        assert game.voice is not None
        referee, steps = played(game)
        names = list(referee.names)
        here = [opening(steps[0][1], names, name, lang) for lang in ("en", "fr")]
        here += [announcement(events, screen, names, name, lang)
                 for lang in ("en", "fr") for events, screen in steps[1:]]  # fmt: skip
    own = [e for events, s in steps for e in events
           if game.voice.speak(e, s, names, "en") is not None]  # fmt: skip
    assert own, "the game's voice says nothing of its own"
    assert in_a_fresh_interpreter(SPOKEN, [name, names, steps]) == here


DRAWN = """
import hashlib
from companion.screens import text as catalogue
from companion.screens.render import frame
screens = pickle.load(sys.stdin.buffer)
print(json.dumps([hashlib.sha256(frame(s, lang).tobytes()).hexdigest()
                  for lang in ("en", "fr") for s in screens]))
"""
"""The frames of given screens (a digest of each)."""


@pytest.mark.parametrize("name", contract_games())
def test_a_games_screens_are_drawn_from_its_descriptor_whatever_was_imported(name: str) -> None:
    """How a game's screens are drawn is its descriptor's (`Game.screens`): an interpreter
    that loaded none of the game's modules but its screens (unpickled), as a replay does,
    draws a simulated game's screens as the referee's process does, and every kind the
    game draws is one of its own."""
    with playing(name) as game:
        assert game.screens is not None
        _, steps = played(game)
        screens = [screen for _, screen in steps]
        assert {type(s) for s in screens} <= set(game.screens())
        here = [hashlib.sha256(frame(s, lang).tobytes()).hexdigest()
                for lang in ("en", "fr") for s in screens]  # fmt: skip
    assert in_a_fresh_interpreter(DRAWN, screens) == here


@pytest.mark.parametrize("name", [n for n in contract_games() if descriptor(n).say])
def test_a_games_say_says_its_prompts_and_refuses_another_kind(name: str) -> None:
    """A game that says its prompts (`Game.say`) says its own screens' prompts (the first
    instruction, a fault's fix), and names the type of a prompt that is not its own."""
    with playing(name) as game:
        referee, steps = played(game)
    names = list(referee.names)
    prompts = [(s.prompt, s) for _, s in steps if getattr(s, "prompt", None) is not None]
    assert prompts and game.say is not None
    for lang in LANGUAGES:
        assert all(game.say(prompt, names, lang, screen).strip() for prompt, screen in prompts)
    with pytest.raises(TypeError, match="says no tuple"):
        game.say((), names, "fr", steps[0][1])


IMPORTED = """
import importlib, importlib.util, os
from pathlib import Path
os.environ.pop("COMPANION_GAMES")  # no game is registered but by what an import does
package = pickle.load(sys.stdin.buffer)
folder = Path(importlib.util.find_spec(package).submodule_search_locations[0])
found = [".".join((package, *p.relative_to(folder).with_suffix("").parts))
         for p in sorted(folder.rglob("*.py"))]
modules = [m.removesuffix(".__init__") for m in found if not m.endswith("__main__")]
from companion.screens import text
TABLES = {  # each table a registry fills, by its module, and what it holds before it loads
    "companion.screens.text": (lambda m: (
        sorted(m._PHRASES["fr"]), sorted(m._OWNERS)),
        None),  # None: declared as the module loads, compared once it is loaded
    "companion.games": (lambda m: (sorted(m._REGISTRY), sorted(m._BUILT_IN_GAMES)), ([], [])),
    "companion.screens.render": (lambda m: (sorted(map(repr, m.RENDERERS)),
                                            sorted(map(repr, m._GAMES_KINDS))), None),
    "companion.transcript": (lambda m: repr(m._FRENCH), None),
}
def seen():
    return {name: repr(read(sys.modules[name]) if name in sys.modules else empty)
            for name, (read, empty) in TABLES.items() if name in sys.modules or empty}
filled = {}
for module in modules:
    before = seen()
    importlib.import_module(module)
    after = seen()
    changed = sorted(name for name in before if after.get(name) != before[name])
    if changed:
        filled[module] = changed
print(json.dumps(filled))
"""
"""The modules of a package, each imported in turn in a fresh interpreter (the package
first), whose import changed a table some registry fills: the catalogue's phrases and
their owners, the games' registry, the renderers, the engine words (a table is compared
once its module is loaded). None is left out: the lab's own words are phrase books too,
and a game's words in the lab join the catalogue only as the lab loads it."""


@pytest.mark.parametrize("name", contract_games())
def test_importing_a_games_modules_fills_no_table(name: str) -> None:
    """A game gives the core its parts through its descriptor's typed fields, never by
    filling a table as a side effect of importing one of its modules (which a replay, a
    page or a speech path that never imported that module would miss), and never
    registers itself: the registry takes its descriptor, and adds its words, as it loads
    it. An interpreter that imports the game's package, then each of its modules, leaves
    every table as it found it. A game's engine words are its own and say no name the core
    says otherwise."""
    game = descriptor(name)
    package = game.referee.__module__.rpartition(".")[0]
    assert in_a_fresh_interpreter(IMPORTED, package) == {}
    for group, words in game.engine_words.items():
        assert not set(words) & set(CORE_ENGINE_WORDS.get(group, {})), group


def test_importing_any_module_of_the_companion_fills_no_table() -> None:
    """The core's own screens and words, which belong to no game (the menu, the pairing
    card, a damaged journal, the command line's messages), are tables declared once, not
    filled by importing the module that draws or says them: importing every module of
    `companion` in turn, in a fresh interpreter, leaves every table as it found it."""
    assert in_a_fresh_interpreter(IMPORTED, "companion") == {}


def test_a_game_that_registers_itself_on_import_fails_the_import_check(tmp_path: Path) -> None:
    """The check above sees a game whose module registers it as it is imported (as every
    game did before the registry took them): the test game, copied, whose `game` module
    registers its descriptor."""
    package = tmp_path / "selfmade"
    shutil.copytree(ROOT / "tests" / "games" / "tally", package,
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    module = package / "game.py"
    source = module.read_text(encoding="utf-8")
    assert source.count("\nTALLY = Game(") == 1 and source.endswith("\n)\n")
    mutant = source.replace("\nTALLY = Game(", "\nTALLY = games.register(Game(") + ")\n"
    mutant = mutant.replace(
        "\nfrom __future__ import annotations\n",
        "\nfrom __future__ import annotations\nfrom companion import games\n",
    )
    module.write_text(mutant, encoding="utf-8")
    filled = in_a_fresh_interpreter(IMPORTED, "selfmade", tmp_path)
    assert filled == {"selfmade": ["companion.games", "companion.screens.text"]}, filled


LOADED_WORDS = """
from companion import games
from companion.screens.text import _PHRASES, phrase, registered_words
name = pickle.load(sys.stdin.buffer)
facts = games.facts(name)
menu = {lang: {key: phrase(key, lang) for key in (facts.first_question, facts.ready_prompt)}
        for lang in ("en", "fr")}
menu_modules = sorted(m for m in sys.modules if ".games." in m and m.endswith(".words"))
if name not in games.BUILT_IN:  # a game added from outside has no facts module: loaded whole
    menu_modules = []
game = games.get(name)
tables = (game.menu_words, game.words, game.console_words)
said = [{lang: {key: _PHRASES[lang][key] for key in t.get(lang, ())} for lang in ("en", "fr")}
        for t in tables]
print(json.dumps([menu, menu_modules, said, sorted(registered_words().get(name, ()))]))
"""
"""What a fresh interpreter says of a game's menu once the registry gave its facts (and
which words modules that loaded), then of its descriptor's words once it gave that."""


@pytest.mark.parametrize("name", contract_games())
def test_a_games_words_are_said_once_the_registry_gave_its_facts_or_descriptor(
    name: str,
) -> None:
    """The power-on menu, which loads a game's facts only, says the game's question and
    prompt with none of its words modules loaded; once the registry gave its descriptor,
    every phrase of `words`, `console_words` and `menu_words` is said as written, and a
    screen's (`words`) is among those checked against the OLED's font."""
    with playing(name) as game:
        facts = games.facts(name)
        menu = {lang: {key: phrase(key, lang) for key in (facts.first_question,
                                                           facts.ready_prompt)}
                for lang in ("en", "fr")}  # fmt: skip
        tables = [game.menu_words, game.words, game.console_words]
    assert game.words, "the game has no words of its own"
    expected = [{lang: dict(t.get(lang, {})) for lang in ("en", "fr")} for t in tables]
    drawn = sorted({*game.menu_words.get("fr", ()), *game.words["fr"]})
    assert in_a_fresh_interpreter(LOADED_WORDS, name) == [menu, [], expected, drawn]


def test_no_two_games_say_one_key_otherwise() -> None:
    """Two games may share a phrase (PassPass's editions share all theirs) only when they
    say it alike, and none says one of the core's otherwise: the registry, which adds every
    game's words to one catalogue, would refuse the second."""
    said: dict[tuple[str, str], tuple[str, str]] = {}
    for name in contract_games():
        game = descriptor(name)
        for table in (game.menu_words, game.words, game.console_words):
            for lang, words in table.items():
                for key, text in words.items():
                    first = said.setdefault((lang, key), (name, text))
                    assert first[1] == text, (key, lang, first[0], name)
    for (lang, key), (name, text) in said.items():
        assert catalogue._PHRASES[lang][key] == text, (name, key)


def test_a_game_never_says_a_word_of_the_command_line_otherwise() -> None:
    """The command line's books (`companion.cli_words.books`) share no key, and a game whose
    words say one of their keys otherwise is refused as it is registered."""
    keys = [key for book in books() for key in book.keyed()]
    assert len(keys) == len(set(keys))
    with registered(TEST_GAME) as found:
        words = {"fr": {"cli.none": "rien du tout"}, "en": {"cli.none": "nothing at all"}}
        talkative = dataclasses.replace(found["tally"], name="talkative", console_words=words)
        with pytest.raises(ValueError, match="'cli.none' is already said otherwise"):
            games.register(talkative)
        same = {lang: {"cli.none": said_in("cli.none", lang)} for lang in LANGUAGES}
        games.register(dataclasses.replace(talkative, console_words=same))


@pytest.mark.parametrize("name", contract_games())
def test_the_menus_facts_are_the_games_own_and_its_seats_those_its_rules_start(
    name: str,
) -> None:
    """The power-on menu lists every game from its facts without loading it (a built-in
    game's `facts` module, companion/menu.py): they are its descriptor's, and its numbers
    of players exactly those its rules start a game with."""
    with playing(name) as game:
        assert games.facts(name) == game.facts
    for seats in range(1, 9):
        try:
            game.check(seats, 0, None)
        except ValueError:
            assert seats not in game.facts.seats, seats
        else:
            assert seats in game.facts.seats, seats
