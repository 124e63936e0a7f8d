"""Flip Done's history lines and status line in French (the table's language, on the web
page) and, from the same events, in English (`companion replay`, `demo`, the logs): the cards
written as the table writes them (R♠ in French, K♠ in English), the lines in words.

Real games through the real referee: the scenario journals of scenarios/ (a table's inputs,
as test_scenarios.py replays them), short journals written with the scenario builder, and
whole games played by the simulated table.
"""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

import pytest

from companion import games, transcript
from companion.games.flipdone import words
from companion.games.flipdone.referee import FlipDoneReferee, describe
from companion.games.flipdone.rules import Config, make_config
from companion.games.flipdone.sim import FlipDoneSim, make_setup
from companion.journal import read_journal
from tests.games.flipdone.referee.scenario_scripts import KEEP, SCENARIOS
from tests.games.flipdone.referee.script import FdScript
from tests.games.flipdone.referee.test_scenarios import replay

SHORT = make_config(phases=1, manches=1)
"""One phase a game: seed 2 ties the manche, plays one more phase and Ana wins (FD-10)."""
STANDS = make_config(phases=1, manches=1, tie_phase_limit=0)
"""No phase to break a tie: seed 2's tie stands, for the manche and then the game."""
CHOSEN = make_config(phases=1, manches=1, first_element="chosen")
"""FD-2 variant: the phase's first player lays the face-up card where they choose."""

FRENCH_MARKS = re.compile(r"(?<! )[:;!?]")
"""A ":", ";", "!" or "?" without the space French typography puts before it."""


def simulated(config: Config, seed: int = 2) -> FlipDoneReferee:
    """A whole game played at people's pace by the simulated table."""
    referee = FlipDoneSim(make_setup(seed), config=config).run().referee
    assert referee is not None and referee.finished
    return referee


def statuses(script: FdScript, tmp_path: Path) -> list[tuple[str, str]]:
    """The status line after each input of a table, (English by default, French)."""
    path = tmp_path / "table.jsonl"
    path.write_text(script.text())
    journal = read_journal(path)
    referee = games.make_referee(journal.setup)
    seen: list[tuple[str, str]] = []
    for record in journal.inputs:
        referee.feed(record)
        seen.append((referee.where(), referee.where(lang="fr")))
    return seen


def described(referee: FlipDoneReferee) -> list[tuple[dict[str, Any], str | None, str | None]]:
    """Each event with its English line (the default language) and its French one."""
    names = referee.names
    return [(e, describe(e, names), describe(e, names, lang="fr")) for e in referee.events]


def lines_of(referee: FlipDoneReferee, kind: str) -> list[tuple[str | None, str | None]]:
    """The (English, French) lines of the events of one kind that get a line."""
    return [(en, fr) for e, en, fr in described(referee) if e["kind"] == kind and en]


# -------------------------------------------------------------- exact sentences

EXACT = [
    ("build_line", "phase_start", 0,
     "round 1, phase 1: Ana starts; the face-up card is the K♥",
     "manche 1, phase 1 : Ana commence ; la carte visible est R♥"),
    ("build_line", "first_element", 0,
     "the K♥ is the first element, on the centre",
     "R♥ est le premier élément, au centre"),
    ("build_line", "build", 0,
     "Ana builds the A♥ on square 4",
     "Ana pose A♥ sur la case 4"),
    ("build_line", "line_made", 0,
     "Cy aligns row 2: +2",
     "Cy aligne la rangée 2 : +2"),
    ("flip_breaks_line", "flip", 0,
     "Ana discards a card and flips square 4: 4♠ up, A♥ down",
     "Ana défausse une carte et retourne la case 4 : 4♠ face visible, A♥ face cachée"),
    ("flip_breaks_line", "line_broken", 0,
     "Ana breaks Cy's row 2 and takes 2 (2 from Cy, 0 from the bank)",
     "Ana casse la rangée 2 de Cy et prend 2 (2 de Cy, 0 de la pioche)"),
    ("flip_keeps_line", "line_held", 0,
     "row 2 stays aligned: Cy takes 1 from the bank",
     "la rangée 2 reste de la même couleur : Cy prend 1 dans la pioche"),
    ("own_line", "discard", 0,
     "Ana discards a card",
     "Ana défausse une carte"),
    ("own_line", "line_lost", 0,
     "Cy loses row 2 (FD-7)",
     "Cy perd la rangée 2 (FD-7)"),
    ("third_flip", "line_lost", 0,
     "Cy loses row 2 (FD-8)",
     "Cy perd la rangée 2 (FD-8)"),
    ("phase_end", "phase_end", 0,
     "the phase is over: cards left Ana 0, Bob 0, Cy 0, 0 tokens paid",
     "fin de la phase : cartes restantes Ana 0, Bob 0, Cy 0, jetons payés 0"),
    ("phase_end", "phase_start", 1,
     "round 1, phase 2: Bob starts; the face-up card is the Q♥",
     "manche 1, phase 2 : Bob commence ; la carte visible est D♥"),
    ("fault_flipped_twice", "fault", 0,
     "STOP: flipped twice at spot 5",
     "STOP : élément déjà retourné (case 5)"),
    ("fault_stacked", "fault", 0,
     "STOP: stacked at spot 4",
     "STOP : pas d’empilement (case 4)"),
    ("fault_deal_first", "fault", 0,
     "STOP: deal first at the pad",
     "STOP : la donne n’est pas finie (pad)"),
]  # fmt: skip
"""(scenario, kind, which of its lines, English, French)."""

EXACT_GAMES = [
    (SHORT, "tie", 0,
     "Bob and Cy tie for the round: one more phase",
     "Bob et Cy à égalité pour la manche : une phase de plus"),
    (SHORT, "phase_start", 1,
     "round 1, phase 2 (to break a tie): Ana starts; the face-up card is the 6♦",
     "manche 1, phase 2 (pour départager l’égalité) : Ana commence ; "
     "la carte visible est 6♦"),
    (SHORT, "manche_won", 0,
     "Ana wins round 1 (gains Ana 8, Bob 4, Cy 3) and takes 2 more tokens",
     "Ana remporte la manche 1 (gains Ana 8, Bob 4, Cy 3) et prend 2 jetons supplémentaires"),
    (SHORT, "game_over", 0,
     "Ana wins the game! (Ana 10, Bob 4, Cy 3)",
     "partie gagnée par Ana ! (Ana 10, Bob 4, Cy 3)"),
    (STANDS, "tie_stands", 0,
     "Bob and Cy tie for the round, and the tie stands",
     "Bob et Cy restent à égalité pour la manche : pas de phase de plus"),
    (STANDS, "tie_stands", 1,
     "Bob and Cy tie for the game, and the tie stands",
     "Bob et Cy restent à égalité pour la partie : pas de phase de plus"),
    (STANDS, "game_over", 0,
     "Bob and Cy wins the game! (Ana 2, Bob 3, Cy 3)",
     "partie gagnée par Bob et Cy ! (Ana 2, Bob 3, Cy 3)"),
    (CHOSEN, "first_element", 0,
     "Cy lays the 10♣, the first element, on square 8",
     "Cy pose 10♣, le premier élément, sur la case 8"),
]  # fmt: skip
"""(the game's rules, kind, which of its lines, English, French): seed 2's whole game."""


@pytest.mark.parametrize(("name", "kind", "index", "en", "fr"), EXACT)
def test_a_scenarios_line_in_french_and_in_english(
    name: str, kind: str, index: int, en: str, fr: str
) -> None:
    assert lines_of(replay(name), kind)[index] == (en, fr)


@pytest.mark.parametrize(("config", "kind", "index", "en", "fr"), EXACT_GAMES)
def test_a_whole_games_line_in_french_and_in_english(
    config: Config, kind: str, index: int, en: str, fr: str
) -> None:
    assert lines_of(simulated(config), kind)[index] == (en, fr)


def test_the_web_pages_path_gives_the_french_line() -> None:
    """`companion.transcript.describe` asks Flip Done's describer first, in the page's
    language."""
    referee = replay("build_line")
    made = next(e for e in referee.events if e["kind"] == "line_made")
    french = transcript.describe(made, referee.names, "flipdone", "fr")
    assert french == "Cy aligne la rangée 2 : +2"
    assert transcript.describe(made, referee.names, "flipdone") == "Cy aligns row 2: +2"


# --------------------------------------------------------------------- coverage

OWN_KINDS = {
    "phase_start", "first_element", "build", "flip", "discard", "line_made", "line_broken",
    "line_held", "line_lost", "phase_end", "manche_won", "tie", "tie_stands", "game_over",
    "fault",
}  # fmt: skip
"""Every Flip Done event kind that gets a line of its own."""
OWN_FAULTS = {
    "stacked", "flipped_twice", "not_element", "one_flip", "in_play", "out_of_turn",
    "deal_first", "discard_first",
}  # fmt: skip
"""Flip Done's own stops (the others, a tag too many or a silent reader, are every game's)."""


def every_game() -> list[FlipDoneReferee]:
    """Every scenario, and three whole games: a tie broken, a tie that stands, the first
    element laid where the first player chose."""
    return [replay(name) for name in sorted(SCENARIOS)] + [
        simulated(config) for config in (SHORT, STANDS, CHOSEN)
    ]


def test_every_kind_with_an_english_line_has_a_french_one_and_no_other() -> None:
    kinds: set[str] = set()
    faults: set[str] = set()
    for referee in every_game():
        for event, en, fr in described(referee):
            assert (en is None) == (fr is None), event
            if en is None or fr is None:
                continue
            kinds.add(event["kind"])
            if event["kind"] == "fault":
                faults.add(event["reason"])
            assert fr != en, event
            assert not FRENCH_MARKS.search(fr), fr
            assert "_" not in fr and " the " not in fr and "square" not in fr, fr
    assert kinds == OWN_KINDS
    assert faults == OWN_FAULTS


def test_a_face_down_card_gets_no_line_in_either_language() -> None:
    """FD-2: which card lies face down is hidden; the events do not even hold it."""
    referee = replay("deal")
    dealt = [e for e in referee.events if e["kind"] == "dealt_down"]
    assert len(dealt) == 9
    for event in dealt:
        assert describe(event, referee.names) is None
        assert describe(event, referee.names, lang="fr") is None


# ------------------------------------------------------------------- the status


def test_the_status_in_french_and_in_english(tmp_path: Path) -> None:
    """Dealing, a seat to play, a stop, waiting after back, gathering at a phase's end: a
    stop's reason in the OLED's words in either language (an English page once read
    "stopped: flipped_twice")."""
    seen: set[tuple[str, str]] = set()
    for name in ("fault_flipped_twice", "undo", "phase_end"):
        seen |= set(statuses(SCENARIOS[name](), tmp_path))
    assert {
        ("round 1, phase 1, dealing (Ana 0, Bob 0, Cy 0)",
         "manche 1, phase 1, donne en cours (Ana 0, Bob 0, Cy 0)"),
        ("round 1, phase 1, Ana to play (Ana 0, Bob 0, Cy 0)",
         "manche 1, phase 1, à Ana de jouer (Ana 0, Bob 0, Cy 0)"),
        ("round 1, phase 1, stopped: element already flipped (Ana 0, Bob 0, Cy 0)",
         "manche 1, phase 1, STOP : élément déjà retourné (Ana 0, Bob 0, Cy 0)"),
        ("round 1, phase 1, waiting: put it back as it was (Ana 0, Bob 0, Cy 0)",
         "manche 1, phase 1, en attente : remettez comme avant (Ana 0, Bob 0, Cy 0)"),
        ("round 1, phase 2, gathering the cards (Ana 0, Bob 0, Cy 2)",
         "manche 1, phase 2, ramassage des cartes (Ana 0, Bob 0, Cy 2)"),
    } <= seen  # fmt: skip


def test_the_status_of_a_game_over_in_french_and_in_english() -> None:
    one = simulated(SHORT)
    assert one.where() == "game over: Ana won (Ana 10, Bob 4, Cy 3)"
    assert one.where(lang="fr") == "partie gagnée par Ana (Ana 10, Bob 4, Cy 3)"
    two = simulated(STANDS)
    assert two.where() == "game over: Bob & Cy won (Ana 2, Bob 3, Cy 3)"
    assert two.where(lang="fr") == "partie gagnée par Bob & Cy (Ana 2, Bob 3, Cy 3)"


def a_card_too_many() -> FdScript:
    """The nine face-down cards, then a tenth on square 1, not on the centre."""
    script = FdScript()
    for square, card in enumerate(KEEP, start=1):
        script.put(square, card)
    return script.put(1, "KH")


def two_cards_gone() -> FdScript:
    """The nine face-down cards, then two of them taken off at once."""
    script = FdScript()
    for square, card in enumerate(KEEP, start=1):
        script.put(square, card)
    return script.take(1, KEEP[0], dt=0.1).take(2, KEEP[1], dt=0.1)


def test_every_stop_the_status_shows_is_in_french(tmp_path: Path) -> None:
    """Whatever stops the table, the status names it in words in either language, never
    by its key."""
    stops: set[str] = set()
    scripts = [SCENARIOS[name]() for name in sorted(SCENARIOS)]
    for script in [*scripts, a_card_too_many(), two_cards_gone()]:
        for en, fr in statuses(script, tmp_path):
            assert not FRENCH_MARKS.search(fr), fr
            assert "_" not in fr and " to play" not in fr, fr
            assert "_" not in en, en
            if "stopped: " in en:
                stops.add(en.split("stopped: ")[1].split(" (")[0])
                assert ", STOP : " in fr, fr
    keys = OWN_FAULTS | {"extra_tag", "missing_tag", "restore", "two_tags"}
    assert stops >= {words.REASONS["en"][key] for key in keys}


# ------------------------------------------------------------------ the templates


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def test_every_template_exists_in_both_languages_with_the_same_placeholders() -> None:
    texts = words.TEXTS
    assert set(texts) == {"en", "fr"}
    assert set(texts["en"]) == set(texts["fr"])
    for key, template in texts["en"].items():
        assert placeholders(template) == placeholders(texts["fr"][key]), key
    for template in texts["fr"].values():
        assert not FRENCH_MARKS.search(template), template
