"""Vous ne passerez pas !'s history lines and status line in the table's language: French on
the web page (in the page's, the OLED's and the rule book's words), and in English, every
colour named in English ("yellow", never "jaune").

Real games are played through the real referee (`games.get("vnp")`) and their events are
described as the page does (`companion.transcript.describe`); the facts in a sentence (a
piece, a score) come from the game, the words from the French rule book and the page.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from companion import games
from companion.games.vnp.referee import VnpReferee
from companion.games.vnp.referee import describe as vnp_describe
from companion.games.vnp.rules import PIECES
from companion.games.vnp.words import LINES as _LINES
from companion.transcript import describe
from tests.games.vnp.referee.scenario_scripts import SCENARIOS
from tests.games.vnp.referee.script import FOUR, TWO, VnpScript
from tests.games.vnp.referee.test_scenarios import book_scores

PAGE_VIEW = Path(__file__).parents[4] / "companion" / "games" / "vnp" / "static" / "view.js"
FULL = sum(piece.size for piece in PIECES)
"""VNP-6: a colour's score before it places anything (the segments of its 24 pieces)."""
OWN_KINDS = {"placed", "passed", "all_placed", "game_over", "hint", "undo", "ignored"}
"""The VNP event kinds that get a line of VNP's own (an ignored press only with a ruling)."""
EN = {"jaune": "yellow", "bleu": "blue", "rouge": "red", "vert": "green"}
"""Each colour in an English line."""


def play(script: VnpScript) -> VnpReferee:
    """The script's presses fed, in order, to the referee the table runs for VNP."""
    referee = games.get("vnp").referee(script.setup)
    assert isinstance(referee, VnpReferee)
    for record in script.inputs:
        referee.feed(record)
    return referee


def lines(referee: VnpReferee, lang: str, *kinds: str) -> list[str]:
    """The history lines of the referee's events of those kinds, as the page shows them."""
    names = referee.setup.seats
    events = [e for e in referee.events if e["kind"] in kinds]
    return [line for e in events if (line := describe(e, names, "vnp", lang)) is not None]


def opening() -> VnpScript:
    """Four players: Ana (jaune) places; Bob (bleu) passes while he can place (VNP-5) and
    places off bleu's start (VNP-3), both refused; he asks for a hint, the console too;
    he places and takes it back."""
    s = VnpScript(FOUR)
    s.place(s.pid("4a", 2, 0))
    s.pass_(counts=False)
    s.place(s.pid("4a", 6, 6), counts=False)
    s.press("hint", 1)
    s.press("hint")
    s.place(s.pid("4a", 10, 0))
    return s.undo(1)


@pytest.fixture(scope="module")
def games_played() -> dict[str, VnpReferee]:
    return {
        "opening": play(opening()),
        "two_players": play(SCENARIOS["two_players"]()),
        "teams_bonus": play(SCENARIOS["teams_bonus"]()),
    }


# ------------------------------------------------------------------- every kind is French


def page_colours() -> dict[str, str]:
    """The French name the page shows for each engine colour (the game's page view's
    `words`, `colour.*`)."""
    french = PAGE_VIEW.read_text(encoding="utf-8").split("  en: {")[0]
    return dict(re.findall(r'"colour\.(\w+)": "([^"]+)"', french))


def test_every_kind_with_a_line_has_a_french_one(games_played: dict[str, VnpReferee]) -> None:
    seen = set()
    for referee in games_played.values():
        names = referee.setup.seats
        for event in referee.events:
            english = describe(event, names, "vnp", "en")
            french = describe(event, names, "vnp", "fr")
            if event["kind"] not in OWN_KINDS or english is None:
                continue
            if event["kind"] == "ignored" and not event.get("ruling"):
                continue  # the refusals every game shares: not VNP's lines
            seen.add(event["kind"])
            assert french is not None and french != english, event
            # French typography: a space before ":", ";", "!" and "?".
            assert not re.search(r"\S[:;!?]", french), french
    assert seen == OWN_KINDS


def test_colours_are_named_as_the_page_names_them(games_played: dict[str, VnpReferee]) -> None:
    colours = page_colours()
    assert set(colours) == {"jaune", "bleu", "rouge", "vert"}
    referee = games_played["opening"]
    for event, line in zip(
        [e for e in referee.events if e["kind"] == "placed"],
        lines(referee, "fr", "placed"),
        strict=True,
    ):
        assert f"({colours[event['colour']]})" in line


# ------------------------------------------------------------------- the sentences, fr and en


def test_a_placement_a_refusal_a_hint_and_an_undo(games_played: dict[str, VnpReferee]) -> None:
    referee = games_played["opening"]
    hint, console_hint = [e for e in referee.events if e["kind"] == "hint"]
    piece = hint["piece"]
    assert console_hint["piece"] == piece  # the same position, so the same hint
    assert lines(referee, "fr", "placed", "ignored", "hint", "undo") == [
        "Ana (jaune) pose la pièce 4a",
        "passe refusée pour Bob : VNP-5 : bleu ne peut pas passer : une pièce se pose",
        "pose refusée pour Bob : VNP-3 : la première pièce bleue doit toucher son point de départ",
        f"indice pour bleu (Bob) : pièce {piece}",
        f"indice pour bleu : pièce {piece}",
        "Bob (bleu) pose la pièce 4a",
        "retour : coup annulé, la pièce 4a revient à bleu (Bob)",
    ]
    assert lines(referee, "en", "placed", "ignored", "hint", "undo") == [
        "Ana (yellow) places 4a",
        "Bob's pass refused: VNP-5: blue may not pass: it can place a piece",
        "Bob's place refused: VNP-3: blue's first piece must touch its start intersection",
        f"hint for blue (Bob): piece {piece}",
        f"hint for blue: piece {piece}",
        "Bob (blue) places 4a",
        "back: Bob's 4a (blue) is taken back",
    ]


def test_a_pass_and_the_end_of_a_two_player_game(games_played: dict[str, VnpReferee]) -> None:
    """VNP-5, VNP-6, VNP-7: Ana plays bleu and vert, Bob jaune and rouge; the book's scores
    of what they placed, each side's the sum of its two colours."""
    referee = games_played["two_players"]
    jaune, bleu, rouge, vert = book_scores(SCENARIOS["two_players"]())
    ana, bob = bleu + vert, jaune + rouge
    winner = TWO[(ana, bob).index(min(ana, bob))]
    assert ana != bob
    first_pass = next(e for e in referee.events if e["kind"] == "passed")
    who = TWO[first_pass["seat"]]
    colour = first_pass["colour"]
    scores = f"jaune {jaune}, bleu {bleu}, rouge {rouge}, vert {vert}"
    scores_en = f"yellow {jaune}, blue {bleu}, red {rouge}, green {vert}"
    assert lines(referee, "fr", "passed")[0] == (
        f"{who} ({colour}) passe : aucune pièce ne peut être posée (VNP-5)"
    )
    assert lines(referee, "fr", "game_over") == [
        f"partie terminée : {winner} gagne (VNP-6) ; scores {scores} ; "
        f"camps Ana {ana}, Bob {bob} (VNP-7)"
    ]
    assert lines(referee, "en", "passed")[0] == (
        f"{who} ({EN[colour]}) passes: no legal placement (VNP-5)"
    )
    assert lines(referee, "en", "game_over") == [
        f"game over: {winner} wins (VNP-6); scores {scores_en}; sides Ana {ana}, Bob {bob} (VNP-7)"
    ]
    # Before each pass the seat asked for a hint: there is none (VNP-5).
    hint = next(e for e in referee.events if e["kind"] == "hint")
    whose = f"{hint['colour']} ({TWO[hint['seat']]})"
    assert lines(referee, "fr", "hint")[0] == (
        f"indice pour {whose} : aucune pièce ne peut être posée, passez (VNP-5)"
    )
    whose = f"{EN[hint['colour']]} ({TWO[hint['seat']]})"
    assert lines(referee, "en", "hint")[0] == (
        f"hint for {whose}: no placement is left, pass (VNP-5)"
    )


def test_all_placed_and_a_team_wins(games_played: dict[str, VnpReferee]) -> None:
    """VNP-6: vert (Dan) placed all its pieces, -10; VNP-7: bleu + vert win as a team."""
    referee = games_played["teams_bonus"]
    jaune, bleu, rouge, vert = book_scores(SCENARIOS["teams_bonus"]())
    assert vert == -10
    blue_green, yellow_red = bleu + vert, jaune + rouge
    assert blue_green < yellow_red
    scores = f"jaune {jaune}, bleu {bleu}, rouge {rouge}, vert {vert}"
    sides = f"bleu + vert {blue_green}, jaune + rouge {yellow_red}"
    assert lines(referee, "fr", "all_placed", "game_over") == [
        "Dan (vert) a posé toutes ses pièces : -10 points (VNP-6)",
        f"partie terminée : bleu + vert gagne (VNP-6) ; scores {scores} ; camps {sides} (VNP-7)",
    ]
    scores = f"yellow {jaune}, blue {bleu}, red {rouge}, green {vert}"
    sides = f"blue + green {blue_green}, yellow + red {yellow_red}"
    assert lines(referee, "en", "all_placed", "game_over") == [
        "Dan (green) has placed every piece: -10 points (VNP-6)",
        f"game over: blue + green wins (VNP-6); scores {scores}; sides {sides} (VNP-7)",
    ]


def test_a_tie_names_every_winner() -> None:
    """VNP-6: sides with the same lowest score all win (a made-up event: a tie is hard to
    reach by play)."""
    event = {"kind": "game_over", "scores": [10, 10, 10, 10], "side_scores": [20, 20],
             "winners": [0, 1], "sides": ["Ana", "Bob"]}  # fmt: skip
    scores = "jaune 10, bleu 10, rouge 10, vert 10"
    assert describe(event, TWO, "vnp", "fr") == (
        f"partie terminée : Ana et Bob gagnent (VNP-6) ; scores {scores} ; "
        "camps Ana 20, Bob 20 (VNP-7)"
    )
    scores = "yellow 10, blue 10, red 10, green 10"
    assert describe(event, TWO, "vnp", "en") == (
        f"game over: Ana and Bob win (VNP-6); scores {scores}; sides Ana 20, Bob 20 (VNP-7)"
    )


def test_shared_events_are_left_to_the_shared_lines(games_played: dict[str, VnpReferee]) -> None:
    """A refusal with no ruling (the game is over) is every game's, not VNP's."""
    referee = games_played["two_players"]
    refused = [e for e in referee.events if e["kind"] == "ignored" and not e.get("ruling")]
    assert refused
    for event in refused:
        assert vnp_describe(event, TWO, "fr") is None and vnp_describe(event, TWO) is None


# ------------------------------------------------------------------------ the status line


def test_the_status_line_in_play_and_at_the_end(games_played: dict[str, VnpReferee]) -> None:
    four = games_played["opening"]  # Bob's placement was taken back: bleu to play
    scores = f"jaune {FULL - 4}, bleu {FULL}, rouge {FULL}, vert {FULL}"
    assert four.where(lang="fr") == f"au tour de bleu (Bob) ; scores {scores}"
    scores = f"yellow {FULL - 4}, blue {FULL}, red {FULL}, green {FULL}"
    assert four.where() == f"blue (Bob) to play; scores {scores}"

    two = games_played["two_players"]
    jaune, bleu, rouge, vert = book_scores(SCENARIOS["two_players"]())
    ana, bob = bleu + vert, jaune + rouge
    winner = TWO[(ana, bob).index(min(ana, bob))]
    scores = f"jaune {jaune}, bleu {bleu}, rouge {rouge}, vert {vert}"
    assert two.where(lang="fr") == (
        f"partie terminée : {winner} gagne ; scores {scores} ; Ana {ana}, Bob {bob}"
    )
    scores = f"yellow {jaune}, blue {bleu}, red {rouge}, green {vert}"
    assert two.where() == f"game over: {winner} wins; scores {scores}; Ana {ana}, Bob {bob}"


# ------------------------------------------------------------------------- the templates


def test_both_languages_have_every_sentence_with_the_same_blanks() -> None:
    def blanks(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    assert set(_LINES) == {"en", "fr"}
    assert _LINES["fr"].keys() == _LINES["en"].keys()
    for key, english in _LINES["en"].items():
        assert blanks(_LINES["fr"][key]) == blanks(english), key
