"""A game's words in the lab are its `LabGame.words`: the catalogue gets them when the lab
loads the game (`load_lab`), as the registry adds a game's words for the table, never as a
side effect of importing a module; a key the core or another game says differently is
refused."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion import games
from companion.lab.model import LabWords
from companion.lab.variants import add_lab_words

FRESH = """
import importlib, json, sys
from companion.screens import text

game, modules = sys.argv[1], sys.argv[2:]
for module in modules:
    importlib.import_module(module)
imported = set(text._PHRASES["fr"])
from companion import report_words as words
from companion.lab.variants import load_lab

lab_words = load_lab(game).words
own = {f"cli.lab.name.{name}" for name in lab_words.names if name not in words.NAMES}
own |= {f"cli.lab.{lab_words.owner}.{key}" for key in lab_words.sentences}
print(json.dumps({"own": sorted(own), "imported": sorted(own & imported),
                  "loaded": sorted(own & set(text._PHRASES["en"]))}))
"""
"""In a fresh interpreter: import a game's lab modules, then load its lab; the game's own
keys, those the imports added, and those the lab's loading did."""


@pytest.mark.parametrize("name", games.BUILT_IN)
def test_importing_a_games_lab_fills_no_table_and_loading_it_says_every_word(name):
    package = games.BUILT_IN[name]
    modules = [f"{package}.lab_words", f"{package}.lab", f"{package}.game"]
    done = subprocess.run([sys.executable, "-c", FRESH, name, *modules], capture_output=True,
                          text=True, check=True, timeout=120)  # fmt: skip
    found = json.loads(done.stdout)
    assert len(found["own"]) > 10
    assert found["imported"] == []
    assert found["loaded"] == found["own"]


def test_a_lab_word_another_game_says_differently_is_refused():
    from companion.lab.variants import load_lab
    from companion.report_words import NAMES

    said = load_lab("flipdone").words
    assert said is not None
    name, (french, english) = next(iter(said.names.items()))
    add_lab_words(LabWords("elsewhere", {name: (french, english)}))  # the same words: shared
    with pytest.raises(ValueError, match="already said otherwise"):
        add_lab_words(LabWords("elsewhere", {name: (french + " !", english)}))
    key = next(iter(said.sentences))
    with pytest.raises(ValueError, match="already said otherwise"):
        add_lab_words(LabWords(said.owner, {}, {key: ("autre", "other")}))
    core, (french, english) = next(iter(NAMES.items()))  # a name the core's book says
    add_lab_words(LabWords("elsewhere", {core: (french, english)}))
    with pytest.raises(ValueError, match="already said otherwise"):
        add_lab_words(LabWords("elsewhere", {core: (french + " !", english)}))
