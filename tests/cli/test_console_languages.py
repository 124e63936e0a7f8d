"""`companion play --sim`: the console takes the animals and colours a player reads on the
OLED, in the table's language or the other one: at an English table "Rabbit" and "lapin"
drop the same token, "red" and "rouge" put the same cube, "blue" and "bleu" place the
same colour; a word that names nothing is refused with the names in the table's words."""

from __future__ import annotations

import dataclasses
import io

import pytest

from companion import games
from companion.games.passpass.console import Console
from companion.games.swiped.console import SwipedConsole
from companion.games.swiped.sim import make_setup as swiped_setup
from companion.games.vnp.console import VnpConsole
from companion.games.vnp.sim import make_setup as vnp_setup
from companion.journal import read_journal
from companion.screens.text import typed_kind
from companion.session import Session


def journaled(tmp_path, name, setup, make, commands):
    """The inputs journaled by a console of `make` fed `commands`, and what it printed."""
    session = Session.start(tmp_path / f"{name}.jsonl", setup)
    out = io.StringIO()
    console = make(session, out, setup.language)
    for command in commands:
        console.handle(command)
    session.close()
    return [r.to_json() for r in read_journal(tmp_path / f"{name}.jsonl").inputs], out.getvalue()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_passpass_takes_its_animals_in_either_language(tmp_path, lang):
    setup = dataclasses.replace(games.get("ptipasspass").simulated_setup(3, 2), language=lang)
    french, _ = journaled(tmp_path, "fr", setup, Console, ["drop 1 lapin", "announce souris"])
    english, _ = journaled(tmp_path, "en", setup, Console, ["drop 1 Rabbit", "announce MOUSE"])
    assert english == french
    assert any(r.get("value") == "souris" for r in french)  # the engine's name, journaled


def test_passpass_refuses_an_unknown_animal_in_the_tables_words(tmp_path):
    setup = dataclasses.replace(games.get("ptipasspass").simulated_setup(3, 2), language="en")
    made, out = journaled(tmp_path, "x", setup, Console, ["drop 1 cat"])
    assert made == []
    assert "? tokens are dove, rabbit, mouse" in out


@pytest.mark.parametrize(
    ("lang", "answers"),
    [
        ("en", ["? a word is missing (type help)", "? unknown command 'juggle' (type help)",
                "? no closing quotation (type help)"]),
        ("fr", ["? il manque un mot (tapez help)", "? commande inconnue 'juggle' (tapez help)",
                "? guillemet non fermé (tapez help)"]),
    ],
)  # fmt: skip
def test_passpass_answers_any_typed_line_without_stopping(tmp_path, lang, answers):
    """A missing word, an unknown verb, an unclosed quote: each answered with "?" in the
    table's language, nothing journaled, the table goes on."""
    setup = dataclasses.replace(games.get("ptipasspass").simulated_setup(3, 2), language=lang)
    made, out = journaled(tmp_path, "x", setup, Console, ["drop", "juggle", "drop 1 'lapin"])
    assert made == []
    assert out.splitlines()[-3:] == answers


def test_swiped_takes_its_colours_in_either_language(tmp_path):
    setup = swiped_setup(1, first=1)
    opening = ["tap 5", "place", "tap 9", "tap 14"]
    french, _ = journaled(tmp_path, "fr", setup, SwipedConsole, [*opening, "put 4 rouge"])
    english, _ = journaled(tmp_path, "en", setup, SwipedConsole, [*opening, "put 4 Red"])
    assert english == french and len(french) > 4


def test_vnp_takes_its_colours_in_either_language(tmp_path):
    setup = vnp_setup(1, 4, language="en")
    french, _ = journaled(tmp_path, "fr", setup, VnpConsole, ["place 9 bleu"])
    english, _ = journaled(tmp_path, "en", setup, VnpConsole, ["place 9 Blue"])
    assert english == french and french[0]["value"]["colour"] == "bleu"


def test_the_tables_language_is_read_first():
    """A word that is one kind's name in one language and another's in the other reads as
    the table's language says it."""
    names = {("a", "fr"): "x", ("a", "en"): "y", ("b", "fr"): "y", ("b", "en"): "z"}

    def name(kind: str, lang: str) -> str:
        return names[kind, lang]

    assert typed_kind("Y", ["a", "b"], name, "en") == "a"
    assert typed_kind("y", ["a", "b"], name, "fr") == "b"
    assert typed_kind("b", ["a", "b"], name, "en") == "b"  # the engine's own spelling
    assert typed_kind("w", ["a", "b"], name, "fr") is None


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "? slide two different hats"), ("fr", "? faites glisser deux chapeaux différents")],
)
def test_a_slide_of_one_hat_onto_itself_is_answered(tmp_path, lang, said):
    """`slide 2 2` lifts a hat and puts it back: the console says so, journals nothing."""
    setup = dataclasses.replace(games.get("ptipasspass").simulated_setup(3, 2), language=lang)
    inputs, printed = journaled(tmp_path, "same", setup, Console, ["slide 2 2"])
    assert said in printed
    assert inputs == []


def test_the_vnp_helps_example_is_a_first_move_it_takes(tmp_path):
    """The help's own example places the first piece (VNP-3: it touches the start)."""
    from companion.games.vnp.console import help_text

    example = help_text("en").split("e.g. ", 1)[1].splitlines()[0].strip()
    assert example in help_text("fr")
    setup = vnp_setup(1, 2, first=0)
    session = Session.start(tmp_path / "vnp.jsonl", setup)
    console = VnpConsole(session, io.StringIO(), setup.language)
    console.handle(example)
    placed = [e for e in session.referee.events if e["kind"] == "placed"]
    session.close()
    assert [e["piece"] for e in placed] == [example.split()[1]]
