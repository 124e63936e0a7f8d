"""The French and English catalogue: every prompt in both languages, drawable by the font."""

from __future__ import annotations

import re
import string

import pytest

from companion.games.passpass.prompt import Prompt, Say
from companion.games.passpass.rules import Challenge, Verdict
from companion.games.passpass.words import (
    Label,
    label,
    place,
    say,
    token_name,
    verdict_facts,
    verdict_outcome,
    verdict_sentence,
    verdict_title,
    words,
)
from companion.screens.font import LARGE, SMALL
from companion.screens.model import Reason, Refusal
from companion.screens.text import (
    LANGUAGES,
    phrase,
    phrase_keys,
    register_words,
    registered_words,
    seat_name,
)
from tests.games import contract_games
from tests.screens.samples import NAMES, PROMPT_PARAMS, prompts, view

KINDS = ("colombe", "lapin", "souris", "bleu", "vert", "orange")
GAMES = ("ptipasspass", "phipasspass")


def test_every_say_key_has_sample_parameters() -> None:
    assert set(PROMPT_PARAMS) == set(Say)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("key", list(Say))
def test_every_prompt_speaks_both_languages_with_drawable_text(
    key: Say, game: str, lang: str
) -> None:
    window_views = [
        view(game, 4, open_challenges=opens)
        for opens in ((), (Challenge.DOUBLON,), (Challenge.MENTEUR,),
                      (Challenge.DOUBLON, Challenge.MENTEUR))
    ]  # fmt: skip
    for prompt in prompts(key):
        for v in window_views if key is Say.WINDOW else window_views[:1]:
            text = say(prompt, NAMES, lang, view=v)
            assert text and "{" not in text and "}" not in text
            SMALL.check(text)
            params = dict(prompt.params)
            for param in ("seat", "to", "from"):
                seat = params.get(param)
                if isinstance(seat, int):  # seats are shown by name, never by number
                    assert NAMES[seat] in text


def test_window_prompt_names_only_the_open_challenges() -> None:
    prompt = Prompt.of(Say.WINDOW, seat=1)
    assert "Menteur" not in say(
        prompt, NAMES, "fr", view=view(open_challenges=(Challenge.DOUBLON,))
    )
    both = say(
        prompt, NAMES, "fr", view=view(open_challenges=(Challenge.DOUBLON, Challenge.MENTEUR))
    )
    assert "Doublon ?" in both and "Menteur ?" in both


def test_prompts_use_the_games_words() -> None:
    prompt = Prompt.of(Say.PLACE, seat=0)
    assert "animal" in say(prompt, NAMES, "fr", view=view("ptipasspass", 3))
    assert "jeton" in say(prompt, NAMES, "fr", view=view("phipasspass", 3))
    assert "token" in say(prompt, NAMES, "en", view=view("phipasspass", 3))


def test_pad_is_named_as_a_place() -> None:
    assert place(0, "fr") == "Pad"
    assert place(5, "fr") == "Chapeau 5"
    assert place(5, "en") == "Hat 5"
    assert say(Prompt.of(Say.UNKNOWN_TAG, spot=0), NAMES, "fr").startswith("Pad :")


def test_phrases_are_the_same_in_both_languages_and_drawable() -> None:
    fr, en = phrase_keys("fr"), phrase_keys("en")
    assert fr == en

    def fields(text: str) -> set[str]:
        return set(re.findall(r"{(\w+)}", text))

    from companion.screens import text as catalogue

    table = catalogue._PHRASES
    game_words = set(words("ptipasspass", "fr"))  # each language picks its own
    for key in fr:
        facts_fr = fields(table["fr"][key]) - game_words
        facts_en = fields(table["en"][key]) - game_words
        assert facts_fr == facts_en, key
        sample = {name: "Dominique" for name in facts_fr | game_words}
        for lang in LANGUAGES:
            SMALL.check(phrase(key, lang, **sample))
    for lang in LANGUAGES:
        for game in GAMES:
            for word in words(game, lang).values():
                SMALL.check(word)
        for key in ("verdict.doublon", "verdict.menteur", "fault.stop"):
            LARGE.check(phrase(key, lang))
        for key in ("challenge.doublon", "challenge.menteur"):
            assert LARGE.width(phrase(key, lang)) <= 128


@pytest.mark.parametrize("lang", LANGUAGES)
def test_token_names_and_labels(lang: str) -> None:
    for kind in KINDS:
        SMALL.check(token_name(kind, lang))
    for key in Label:
        SMALL.check(label(key, lang))
    with pytest.raises(ValueError, match="licorne"):
        token_name("licorne", lang)


def test_token_names_read_as_the_books_and_their_translation() -> None:
    assert [token_name(k, "fr") for k in KINDS] == [
        "Colombe", "Lapin", "Souris", "Bleu", "Vert", "Orange"
    ]  # fmt: skip
    assert [token_name(k, "en") for k in KINDS] == [
        "Dove", "Rabbit", "Mouse", "Blue", "Green", "Orange"
    ]  # fmt: skip
    assert label(Label.MASQUE, "fr") == "Masqué"
    assert label(Label.MAGICIAN, "fr") == "Magicien"


DOUBLON_WON = Verdict(Challenge.DOUBLON, 1, 0, True, 5, ("lapin", "souris"), None)
DOUBLON_LOST = Verdict(Challenge.DOUBLON, 1, 0, False, 5, (), None)
MENTEUR_WON = Verdict(Challenge.MENTEUR, 2, 0, True, 3, None, "colombe")
MENTEUR_LOST = Verdict(Challenge.MENTEUR, 2, 0, False, 3, None, "lapin")


def test_doublon_verdicts_tell_the_lifted_hat() -> None:
    assert verdict_facts(DOUBLON_WON, NAMES, "fr") == "Le chapeau 5 contenait : Lapin, Souris."
    assert verdict_facts(DOUBLON_LOST, NAMES, "fr") == "Le chapeau 5 était vide."
    assert verdict_facts(DOUBLON_WON, NAMES, "en") == "Hat 5 held: Rabbit, Mouse."
    assert verdict_facts(DOUBLON_LOST, NAMES, "en") == "Hat 5 was empty."
    assert verdict_title(DOUBLON_WON, "fr") == "Doublon !"
    assert verdict_outcome(DOUBLON_WON, NAMES, "fr") == "Bob a raison !"
    assert verdict_outcome(DOUBLON_LOST, NAMES, "en") == "Bob is wrong!"


def test_menteur_verdicts_show_the_real_animal() -> None:
    assert verdict_facts(MENTEUR_WON, NAMES, "fr") == "Ana montre : Colombe."
    assert verdict_facts(MENTEUR_LOST, NAMES, "en") == "Ana shows: Rabbit."
    assert verdict_sentence(MENTEUR_WON, NAMES, "fr") == "Cyrille a raison ! Ana montre : Colombe."
    assert verdict_title(MENTEUR_LOST, "en") == "Menteur!"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_all_verdict_text_is_drawable(lang: str) -> None:
    for v in (DOUBLON_WON, DOUBLON_LOST, MENTEUR_WON, MENTEUR_LOST):
        SMALL.check(verdict_sentence(v, NAMES, lang))
        LARGE.check(verdict_title(v, lang))


def test_seat_names_fall_back_and_are_mapped_onto_the_font() -> None:
    assert seat_name(("Ana",), 0) == "Ana"
    assert seat_name(("Ana",), 2, "fr") == "Joueur 3"
    assert seat_name(("Ana", "  "), 1, "en") == "Seat 2"
    assert seat_name(("Łucja",), 0) == "Lucja"


@pytest.mark.parametrize("call", [
    lambda: say(Prompt.of(Say.CLEAR_TABLE), NAMES, "de"),
    lambda: token_name("lapin", "es"),
    lambda: label(Label.MANCHE, "FR"),
    lambda: phrase("fault.stop", ""),
])  # fmt: skip
def test_unknown_language_is_a_clear_error(call: object) -> None:
    assert callable(call)
    with pytest.raises(ValueError, match='"fr", "en"'):
        call()


def test_missing_or_mistyped_parameter_is_named() -> None:
    with pytest.raises(ValueError, match="'spot'"):
        say(Prompt.of(Say.TAKE_BACK_HAT, seat=0), NAMES)
    with pytest.raises(ValueError, match="'seat'.*int"):
        say(Prompt.of(Say.PLACE, seat="Ana"), NAMES)
    with pytest.raises(ValueError, match="'tokens'.*bool"):
        say(Prompt.of(Say.GIVE_TOKEN, seat=0, to=1, spot=2, tokens=1), NAMES)


def test_catalogue_never_needs_a_glyph_outside_ascii_and_french() -> None:
    from companion.screens import text as catalogue

    allowed = set(string.printable) | set("éèêëàâçùûôîïÉÈÀÇ«»’…—°·●★")
    for lang in LANGUAGES:
        for key in phrase_keys(lang):  # what a screen draws (not the command line's words)
            template = catalogue._PHRASES[lang][key]
            assert set(template) <= allowed, template


# ------------------------------------------------------------------- every game's words


def _fields(text: str) -> set[str]:
    return set(re.findall(r"{(\w+)}", text))


def test_every_game_registers_its_words_when_the_registry_loads_it() -> None:
    from companion import games

    for name in games.names():
        games.get(name)
    assert set(games.names()) <= set(registered_words())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_registered_games_phrases_fit_the_font(lang: str) -> None:
    """Each game's own tests check its fields; here every phrase of every game, filled in
    with a long name, is one the OLED's font can draw."""
    from companion import games

    for name in games.names():  # loads every game, so every game's words are registered
        games.get(name)
    for keys in registered_words().values():
        for key in sorted(keys):
            sample = dict.fromkeys(_fields(phrase_template(key, lang)), "Dominique")
            SMALL.check(phrase(key, lang, **sample))


def _vocabularies(kind: type[Reason] = Reason) -> list[type[Reason]]:
    """`kind` and every vocabulary of refusals declared under it, the games' included."""
    return [kind, *(v for child in kind.__subclasses__() for v in _vocabularies(child))]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_of_the_core_and_of_every_game_is_said(lang: str) -> None:
    """A refused press is said by its phrase ``notice.<reason>`` (the OLED's notice, the
    transcript, the web page): the core's `Refusal` by its own, a game's own reasons (a
    `Reason` its package declares) by the phrases its words register. No two vocabularies
    share a value, so an `ignored` event's reason has one meaning."""
    contract_games()  # imports every registered game and the test game
    vocabularies = _vocabularies()
    assert Refusal in vocabularies
    values = [reason.value for vocabulary in vocabularies for reason in vocabulary]
    assert len(values) == len(set(values))
    for vocabulary in vocabularies:
        for reason in vocabulary:
            SMALL.check(phrase(f"notice.{reason}", lang))


def phrase_template(key: str, lang: str) -> str:
    from companion.screens import text as catalogue

    return catalogue._PHRASES[lang][key]


def test_a_game_cannot_take_a_phrase_already_said_otherwise() -> None:
    with pytest.raises(ValueError, match="'seat' is already said otherwise"):
        register_words("intruder", {"fr": {"seat": "Place {n}"}, "en": {"seat": "Seat {n}"}})
    with pytest.raises(ValueError, match="'en' differ"):
        register_words("intruder", {"fr": {"intruder.hello": "Bonjour"}, "en": {}})
    assert "intruder" not in registered_words()
    with pytest.raises(KeyError):
        phrase("intruder.hello", "fr")


def test_passpass_reuses_the_shared_fix_keys() -> None:
    from companion.referee.table import Fix

    assert all(Say(fix.value) == fix for fix in Fix)


# ------------------------------------------------------------------- the phrase-fit test

LONGEST_BOX = 6
"""Lines of the largest box any phrase is drawn in on the 128 x 64 OLED (a notice's or an
instruction's body under its header, VNP's panel: `wrap(..., max_lines=6)`); a phrase that
takes more is cut with an ellipsis wherever it is drawn."""

NUMBERS = {"a", "b", "c", "n", "spot", "card", "of", "line", "left", "places", "p", "r"}
"""Fields that are numbers (hats, squares, cards, counts): sampled with two digits."""

SAMPLES = {
    "fr": {"Spot": "Chapeau 12", "Spots": "Cases 12 et 13", "Where": "Case 12",
           "where": "case 12", "items": "2 Violet, 1 Orange", "colour": "Violet",
           "control": "Menteur", "slant": "\\", "announced": "Colombe",
           "why": "une pièce touche sa couleur par un coin (VNP-3)"},
    "en": {"Spot": "Hat 12", "Spots": "Squares 12 and 13", "Where": "Square 12",
           "where": "square 12", "items": "2 Purple, 1 Orange", "colour": "Purple",
           "control": "Menteur", "slant": "\\", "announced": "Dove",
           "why": "a piece touches its colour at a corner (VNP-3)"},
}  # fmt: skip
"""A plausible value of each other field; a seat's name is a long one, "Dominique"."""


def _filled(key: str, lang: str, game: str) -> str:
    template = phrase_template(key, lang)
    sample = SAMPLES[lang] | words(game, lang)
    return phrase(key, lang, **{
        name: "12" if name in NUMBERS else sample.get(name, "Dominique")
        for name in _fields(template)
    })  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_phrase_of_every_game_fits_its_box_on_the_oled(lang: str) -> None:
    """The phrase-fit test: every phrase of the core and of every registered game, in both
    languages, filled in with long names and each game's words, wraps at the OLED's width
    into no more lines than the largest box holds, and no word is cut at a line's end."""
    from companion import games
    from companion.screens.font import wrap
    from companion.screens.render import WIDTH

    for name in games.names():  # loads every game, so every game's words are registered
        games.get(name)
    too_long = []
    for key in phrase_keys(lang):
        for game in GAMES:  # PassPass's phrases take each of its games' words
            text = _filled(key, lang, game)
            lines = wrap(text, WIDTH)
            if len(lines) > LONGEST_BOX or any(SMALL.width(w) > WIDTH for w in text.split()):
                too_long.append((key, len(lines), text))
    assert too_long == []


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("prefix", ["sw.short.", "vnp.short."])
def test_each_colours_short_name_is_its_own_and_fits_its_square(lang: str, prefix: str) -> None:
    """Swiped's grid shows each big cube by a short name inside a 19-pixel square, VNP's
    scores by one: unique within the game, so blanc and bleu never read the same."""
    from companion import games

    for name in games.names():
        games.get(name)
    shorts = [phrase(k, lang) for k in phrase_keys(lang) if k.startswith(prefix)]
    assert len(shorts) >= 4
    assert len(set(shorts)) == len(shorts), shorts
    assert all(SMALL.width(short) <= 19 - 2 for short in shorts), shorts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_swipeds_short_colours_are_read_as_their_colour(lang: str) -> None:
    """Each short name is its colour's letters in order (Blc is blanc, Blu bleu): a reader
    recognises it, where a cut to three letters read Bla and Ble."""
    from companion.games.swiped import words

    table = words.SCREEN_PHRASES[lang]
    colours = [k.removeprefix("short.") for k in table if k.startswith("short.")]
    for colour in colours:
        short, whole = table[f"short.{colour}"].lower(), table[f"colour.{colour}"].lower()
        rest = iter(whole)
        assert all(letter in rest for letter in short), (short, whole)
