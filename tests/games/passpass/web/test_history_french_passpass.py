"""A French table's page tells PtiPassPass and PhiPassPass in French: the history (one line
per event, `companion.transcript.describe`) and the status line (`PassPassReferee.where`),
in the OLED's words (`companion/screens/text.py`). English, the command line's and the
logs', speaks the English OLED's words (Magician, round, Rabbit).

The games are real: the scenario journals of tests/games/passpass/referee/scenarios/ and
simulated games, fed through the referee as a table would feed it.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from string import Formatter
from typing import Any

import pytest

from companion import games
from companion.games.passpass.referee import PassPassReferee
from companion.games.passpass.rules import MancheVoid
from companion.games.passpass.transcript import LINES
from companion.games.passpass.words import token_name
from companion.journal import ResumeInput, read_journal
from companion.screens.text import phrase
from companion.transcript import _LINES, describe
from companion.web.public import Publisher

SCENARIOS = Path(__file__).parent.parent / "referee" / "scenarios"

ENGLISH = re.compile(
    r"\b(the|is|hats?|drops|calls|announces|refused|token|nothing|wins|takes|swaps|reveals"
    r"|back|seat|nobody|stays|held|so|right|wrong|places|must|starts|void|matches|resumed"
    r"|call|together|announced|before|waiting|stopped|over)\b"
)
"""Words only an English line has."""


def replay(name: str, until: str | None = None) -> PassPassReferee:
    """The scenario journal fed through a referee, to its end or to its first event of
    kind `until`."""
    journal = read_journal(SCENARIOS / f"{name}.jsonl")
    referee = PassPassReferee(journal.setup)
    for record in journal.inputs:
        referee.feed(record)
        if until and any(e["kind"] == until for e in referee.events):
            break
    return referee


def lines(referee: PassPassReferee, lang: str = "en") -> list[str]:
    """The referee's history in `lang`, the way the page and `companion replay` tell it."""
    told = (describe(e, referee.names, referee.setup.game, lang) for e in referee.events)
    return [line for line in told if line is not None]


def both(referee: PassPassReferee, kind: str) -> list[tuple[str | None, str | None]]:
    """Each event of `kind`, told in English and in French."""
    names, game = referee.names, referee.setup.game
    return [
        (describe(e, names, game), describe(e, names, game, "fr"))
        for e in referee.events
        if e["kind"] == kind
    ]


def played(game: str, seats: int, seed: int) -> PassPassReferee:
    """A simulated game of `game`, played to its end through a referee."""
    setup = games.get(game).simulated_setup(seats, seed)
    referee = PassPassReferee(setup)
    for record in games.get(game).simulate(setup).inputs:
        referee.feed(record)
    return referee


@pytest.fixture(scope="module")
def tables() -> list[PassPassReferee]:
    """Every scenario journal, and simulated PtiPassPass and PhiPassPass games."""
    scenarios = [replay(path.stem) for path in sorted(SCENARIOS.glob("*.jsonl"))]
    simulated = [played("ptipasspass", 3, 2), played("phipasspass", 4, 1)]
    return scenarios + simulated


# ------------------------------------------------------------------------ the history


FRENCH_ONLY = re.compile(r"\b(Magicien|manche|tour|Masqué|Lapin|Colombe|Souris|Bleu|Vert)\b")
"""Words an English line must not borrow from the French (the calls "Doublon !" and
"Menteur !" are the books' names in both)."""


def test_an_english_table_reads_english_words_in_every_line(tables):
    """The English history names the Magician, the round, the turn and the tokens as the
    English OLED does; no line prints a Python list; every line of a seat's act names the
    seat (a held announcement is the Magicien's; "nobody challenges" is the hat's)."""
    for referee in tables:
        for event in referee.events:
            english = describe(event, referee.names, referee.setup.game, "en")
            french = describe(event, referee.names, referee.setup.game, "fr")
            if english is None:
                continue
            assert not FRENCH_ONLY.search(english), english
            for line in (english, french or ""):
                assert "[" not in line and "]" not in line, line
                seat = event.get("seat")
                if isinstance(seat, int) and event["kind"] not in ("ignored", "place"):
                    assert referee.names[seat] in line, line


def test_every_event_told_in_english_is_told_in_french(tables):
    kinds = set()
    for referee in tables:
        for event in referee.events:
            english = describe(event, referee.names, referee.setup.game)
            french = describe(event, referee.names, referee.setup.game, "fr")
            assert (english is None) == (french is None), event
            if french is not None:
                kinds.add(event["kind"])
                assert french != english, event
                assert not ENGLISH.search(french), french
    assert kinds >= {
        "turn", "designate", "announce", "place", "verdict", "reward", "swap", "reveal",
        "manche_won", "game_won", "manche_start", "fault", "fixed", "undo", "calls_together",
        "held", "ignored",
    }  # fmt: skip


def test_a_designation_masked_and_visible():
    r = replay("game_won_with_swap")
    designations = both(r, "designate")
    assert [designations[0], designations[2]] == [
        ("Ana drops a token into hat 1", "Ana glisse un animal dans le chapeau 1"),
        ("Ana drops a Rabbit into hat 2", "Ana glisse Lapin dans le chapeau 2, à la vue de tous"),
    ]
    assert both(r, "place")[0] == (
        "nobody challenges: the token stays in hat 1",
        "personne ne défie : le chapeau 1 garde son animal",
    )
    assert both(r, "turn")[0] == (
        "Bob is the Magician (turn 1, Masked) and places",
        "Bob est le Magicien (tour 1, Masqué) et doit placer",
    )


def test_phipasspass_says_jeton_and_its_colours():
    r = replay("phipasspass_two_windows")
    assert both(r, "designate")[0] == (
        "Ana drops a token into hat 1",
        "Ana glisse un jeton dans le chapeau 1",
    )
    assert both(r, "verdict")[0] == (
        "Bob calls Menteur ! on Ana: it was a Blue, so Bob is right",
        f"Bob dit « Menteur ! » à Ana : c’était {token_name('bleu', 'fr')} ; Bob a raison",
    )
    assert both(r, "announce")[0][1] == f"Ana annonce {token_name('vert', 'fr')}"


@pytest.mark.parametrize(
    ("scenario", "english", "french"),
    [
        (
            "doublon_success_reward_drop",
            "Ana calls Doublon ! on Bob: hat 1 held Rabbit, so Ana is right",
            "Ana dit « Doublon ! » à Bob : le chapeau 1 contenait Lapin ; Ana a raison",
        ),
        (
            "doublon_failure",
            "Bob calls Doublon ! on Ana: hat 2 held nothing, so Bob is wrong",
            "Bob dit « Doublon ! » à Ana : le chapeau 2 était vide ; Bob a tort",
        ),
        (
            "menteur_success_reward_token",
            "Bob calls Menteur ! on Ana: it was a Mouse, so Bob is right",
            "Bob dit « Menteur ! » à Ana : c’était Souris ; Bob a raison",
        ),
        (
            "menteur_failure",
            "Bob calls Menteur ! on Ana: it was a Dove, so Bob is wrong",
            "Bob dit « Menteur ! » à Ana : c’était Colombe ; Bob a tort",
        ),
    ],
)
def test_each_verdict(scenario, english, french):
    assert both(replay(scenario), "verdict") == [(english, french)]


def test_the_rewards():
    assert both(replay("doublon_success_reward_drop"), "reward") == [
        ("Ana drops a Dove into hat 2", "Ana glisse Colombe dans le chapeau 2, à la vue de tous")
    ]
    assert both(replay("menteur_success_reward_token"), "reward") == [
        (
            "Bob takes a Challenge token from the Magician",
            "Bob prend un jeton Challenge au Magicien",
        )
    ]
    assert both(replay("reward_none"), "reward") == [
        ("Bob can take no reward", "Bob ne peut prendre aucune récompense")
    ]


def test_a_reveal_a_swap_and_the_end_of_the_game():
    r = replay("game_won_with_swap")
    assert both(r, "reveal") == [
        (
            "Ana reveals the line 1-2-3: Dove; Rabbit; Mouse - wins the round",
            "Ana révèle la ligne 1-2-3 : Colombe ; Lapin ; Souris — manche gagnée",
        ),
        (
            "Bob reveals the line 4-5-6: Dove; Rabbit; nothing - fails",
            "Bob révèle la ligne 4-5-6 : Colombe ; Lapin ; vide — raté",
        ),
        (
            "Ana reveals the line 4-5-6: Dove; Rabbit; Mouse - wins the round",
            "Ana révèle la ligne 4-5-6 : Colombe ; Lapin ; Souris — manche gagnée",
        ),
    ]
    assert both(r, "swap") == [("Ana swaps hats 3 and 6", "Ana échange les chapeaux 3 et 6")]
    assert both(r, "manche_won")[-1] == (
        "Ana takes victory token 2",
        "Ana remporte un jeton de victoire (victoires : 2)",
    )
    assert both(r, "manche_start") == [("round 2 starts with Bob", "la manche 2 commence avec Bob")]
    assert both(r, "game_won") == [("Ana wins the game!", "Ana gagne la partie !")]


def test_several_tokens_in_a_lifted_hat():
    (reveal,) = both(replay("reveal_multi_animal"), "reveal")
    assert (
        reveal[1] == "Ana révèle la ligne 1-2-3 : Colombe, Lapin ; Souris ; Lapin — manche gagnée"
    )


def test_faults_in_the_oleds_words():
    r = replay("faults")
    assert both(r, "fault") == [
        ("STOP: unknown tag at hat 3", "STOP : Chapeau 3 : jeton inconnu"),
        ("STOP: two tags at hat 2", "STOP : Chapeau 2 : deux animaux à la fois"),
        ("STOP: extra tag at hat 6", "STOP : Chapeau 6 : un animal en trop"),
        ("STOP: missing tag at hat 2", "STOP : Chapeau 2 : un animal a disparu"),
        ("STOP: reader silent at hat 3", "STOP : Chapeau 3 : lecteur muet"),
        ("STOP: not yours at hat 5", "STOP : Chapeau 5 : un animal que le joueur n’a pas"),
    ]
    assert set(both(r, "fixed")) == {
        (
            "the table matches again: play goes on",
            "la table est de nouveau comme attendu : le jeu reprend",
        )
    }
    gone = both(replay("designated_gone"), "fault")[0]
    assert gone == (
        "STOP: designated gone at hat 2",
        "STOP : Chapeau 2 : le chapeau désigné a perdu son animal",
    )
    assert both(replay("swap_not_contiguous"), "fault")[0][1] == (
        "STOP : Chapeau 1 : les chapeaux échangés ne sont pas voisins"
    )
    assert both(replay("undo_swap_then_one_swap_only"), "fault")[0][1] == (
        "STOP : Chapeau 2 : un seul échange par tour"
    )


def test_undo_and_a_refused_undo():
    r = replay("undo")
    assert both(r, "undo") == [
        ("back: the designate is taken back", "retour : on annule le placement"),
        ("back: the announce is taken back", "retour : on annule l’annonce"),
    ]
    refused = phrase("notice.public_fact", "fr")
    assert both(r, "ignored") == [
        (
            "back refused: Cannot undo: what the table has seen stays seen.",
            f"bouton {phrase('control.back', 'fr')} refusé : {refused}",
        )
    ]


def test_ignored_presses_name_the_seat_and_the_button_as_the_oled_does():
    assert both(replay("refused_presses"), "ignored") == [
        (
            "announce refused: Visible turn: the animal is shown, no announcement, no Menteur.",
            "bouton Annonce refusé : "
            "Tour Visible : l’animal est montré, pas d’annonce ni de Menteur.",
        ),
        (
            "Bob's menteur refused: Visible turn: the animal is shown, no announcement, "
            "no Menteur.",
            "bouton Menteur refusé pour Bob : "
            "Tour Visible : l’animal est montré, pas d’annonce ni de Menteur.",
        ),
        (
            "Ana's doublon refused: The Magician cannot challenge their own placement.",
            "bouton Doublon refusé pour Ana : Le Magicien ne défie pas son propre placement.",
        ),
        (
            "seat 6's doublon refused: Nobody sits at that seat.",
            "bouton Doublon refusé pour le joueur 6 : Personne n’est assis à cette place.",
        ),
    ]


def test_calls_together_and_an_announcement_held_for_the_drop():
    assert both(replay("calls_during_settle"), "calls_together")[0] == (
        "Bob, Cy call together: Bob's call counts (first clockwise)",
        "Bob, Cy appellent ensemble : Bob l’emporte, en premier dans le sens horaire",
    )
    assert both(replay("announce_before_drop"), "held")[0] == (
        "Ana announces Rabbit before the drop: it counts from the drop",
        "Ana annonce Lapin avant le placement : elle compte dès le placement",
    )


def test_a_resume_and_a_void_manche():
    r = replay("doublon_failure")
    r.feed(ResumeInput(r.now + 1, dict(r.observed.uids)))
    assert both(r, "resume") == [("resumed after a cut", "reprise après une coupure")]
    dead = MancheVoid("no three hats can ever win").to_json()
    limit = MancheVoid("turn limit of 40 reached").to_json()
    assert describe(dead, r.names, "ptipasspass", "fr") == (
        "manche nulle : plus personne ne peut gagner"
    )
    assert describe(limit, r.names, "ptipasspass", "fr") == (
        "manche nulle : limite de 40 tours atteinte"
    )
    assert describe(limit, r.names, "ptipasspass") == "the round is void: turn limit of 40 reached"


def test_other_games_shared_lines_are_french_too():
    """Flip Done and Swiped leave their common faults, undo and the like to these lines."""
    names = ("Ana", "Bob")
    fault: dict[str, Any] = {"kind": "fault", "spot": 4, "reason": "extra_tag"}
    assert describe(fault, names, "flipdone", "fr") == "STOP : Case 4 : un tag en trop"
    assert describe(fault, names, "flipdone") == "STOP: extra tag at hat 4"
    unknown = {"kind": "fault", "spot": 0, "reason": "unknown_tag"}
    assert describe(unknown, names, "swiped", "fr") == "STOP : Pad : jeton inconnu"
    undo = {"kind": "undo", "step": "discard"}
    assert describe(undo, names, "flipdone", "fr") == "retour : on annule la défausse"
    for kind in ("fixed", "resume"):
        assert not ENGLISH.search(describe({"kind": kind}, names, "flipdone", "fr") or "?")


def test_the_french_lines_say_no_hat_before_it_is_lifted():
    """Only the language changes: a masked designation names no token in either."""
    for referee in (replay("menteur_failure"), played("ptipasspass", 2, 3)):
        for event in referee.events:
            if event["kind"] == "designate" and event["shown"] is None:
                french = describe(event, referee.names, referee.setup.game, "fr") or ""
                kinds = ("colombe", "lapin", "souris")
                assert not any(token_name(k, "fr") in french for k in kinds), french


# ------------------------------------------------------------------------ the status line


def test_the_status_line_at_the_start_and_the_end():
    start = PassPassReferee(read_journal(SCENARIOS / "undo.jsonl").setup)
    assert start.where() == "round 1, Ana is the Magician, place (Ana 0, Bob 0)"
    assert start.where(lang="fr") == "manche 1, Ana est Magicien, placement (Ana 0, Bob 0)"
    over = replay("game_won_with_swap")
    assert over.where() == "game over: Ana won (Ana 2, Bob 0)"
    assert over.where(lang="fr") == "partie terminée : Ana a gagné (Ana 2, Bob 0)"


def test_the_status_line_of_a_stopped_table_is_the_oleds_sentence():
    stopped = replay("faults", until="fault")
    assert stopped.where() == (
        "round 1, Ana is the Magician, stopped: Hat 3: unknown tag. Take it out (Ana 0, Bob 0)"
    )
    assert stopped.where(lang="fr") == (
        "manche 1, Ana est Magicien, STOP : Chapeau 3 : jeton inconnu. Retire-le (Ana 0, Bob 0)"
    )


def test_the_status_line_while_the_table_carries_out_a_verdict():
    waiting = replay("doublon_success_reward_drop", until="verdict")
    assert waiting.where() == (
        "round 1, Bob is the Magician, waiting: Bob, take back all of hat 1 (Ana 0, Bob 0)"
    )
    assert waiting.where(lang="fr") == (
        "manche 1, Bob est Magicien, en attente : Bob, reprends tout le chapeau 1 (Ana 0, Bob 0)"
    )


def test_the_status_line_of_a_whole_game_is_french_throughout():
    for name in ("ptipasspass", "phipasspass"):
        game = games.get(name)
        setup = game.simulated_setup(3, 4)
        referee = PassPassReferee(setup)
        for record in game.simulate(setup).inputs:
            referee.feed(record)
            french = referee.where(lang="fr")
            assert not ENGLISH.search(french), french


# ------------------------------------------------------------------------ the words


@pytest.mark.parametrize("lines", [_LINES, LINES], ids=["shared", "passpass"])
def test_every_line_has_both_languages_with_the_same_fields(lines):
    def fields(template: str) -> set[str]:
        return {name for _, name, _, _ in Formatter().parse(template) if name is not None}

    assert set(lines["en"]) == set(lines["fr"])
    for key, english in lines["en"].items():
        assert fields(english) == fields(lines["fr"][key]), key


@pytest.mark.parametrize("lines", [_LINES, LINES], ids=["shared", "passpass"])
def test_french_typography_keeps_its_space_before_the_high_signs(lines):
    for key, template in lines["fr"].items():
        assert not re.search(r"\S[:;!?]", template), key


# ------------------------------------------------------------------------ the page


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_pages_history_and_status_speak_the_tables_language(lang):
    game = games.get("ptipasspass")
    setup = dataclasses.replace(game.simulated_setup(3, 2), language=lang)
    referee = PassPassReferee(setup)
    publisher = Publisher(referee)
    view: dict[str, Any] = {}
    for record in game.simulate(setup).inputs:
        referee.feed(record)
        snapshot = publisher.snapshot()
        if snapshot is not None:
            view = snapshot.view
    assert view["language"] == lang
    assert view["history"] == lines(referee, lang)[-len(view["history"]) :]
    assert view["status"] == referee.where(lang)
    french = [line for line in view["history"] if not ENGLISH.search(line)]
    assert len(french) == (len(view["history"]) if lang == "fr" else 0)
