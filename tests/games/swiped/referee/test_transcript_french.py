"""Swiped's transcript lines and status line in French (the table's web page) and English
(`companion replay`, `demo`, the logs), from real games played through the real referee:
the scenario journals, simulated tables and the engine's own programs.

French takes the OLED's words (companion/games/swiped/screens.py) and French typography (a space
before ":", ";", "!" and "?"); English stays as it always was but for the cubes' colours,
named in English ("red", never "rouge"); neither names a target card before the game is
over (SW-5).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from typing import Any

import pytest

from companion import games
from companion.games.swiped.referee import SwipedReferee, describe
from companion.games.swiped.rules import Program, apply, make_config, new_game
from companion.games.swiped.screens import SwFaultScreen, colour_name, sw_say
from companion.games.swiped.words import LINES as _LINES
from companion.journal import read_journal, read_lines
from companion.transcript import describe as transcript_describe
from tests.games.swiped.referee.scenario_scripts import ANA_CARD, BOB_CARD, LAYOUT
from tests.games.swiped.referee.script import SwScript, card_of
from tests.games.swiped.referee.test_scenarios import HERE, replay
from tests.games.swiped.referee.test_sim import relabelled

SCENARIOS = sorted(path.stem for path in HERE.glob("*.jsonl"))
NAMES = ("Ana", "Bob")

SWIPED_KINDS = {
    "layout", "target", "placed", "manche_start", "programmed", "programs_revealed", "swap",
    "swap_skipped", "guess", "claim", "manche_end", "game_drawn", "targets", "fault", "undo",
}  # fmt: skip
"""The event kinds Swiped's describer gives a line (the others are every game's)."""
SWIPED_FAULTS = {"put_back", "same_pair", "guess_first", "card_on_square", "two_cards",
                 "card_taken"}  # fmt: skip
"""The faults only Swiped has; unknown_tag and reader_silent are every game's."""
UNDO_STEPS = {"layout", "target", "swap", "skip", "guess"}


def layout_taken_back() -> SwipedReferee:
    """The face-up card tapped, then `back` pressed: the one undo no scenario makes."""
    journal = read_lines(SwScript().tap(LAYOUT).back().text().splitlines())
    referee = SwipedReferee(journal.setup)
    for record in journal.inputs:
        referee.feed(record)
    return referee


def programs() -> list[dict[str, Any]]:
    """SW-3 as the engine plays it with a seeded deal (a table programs with small cubes,
    so its referee never sees this): each seat's three swaps, then both revealed."""
    state, _ = new_game(make_config(), 1)
    out: list[dict[str, Any]] = []
    for seat, a, b in [
        (0, "rouge", "bleu"), (0, "vert", "noir"), (0, "rose", "blanc"),
        (1, "jaune", "orange"), (1, "rouge", "violet"), (1, "bleu", "vert"),
    ]:  # fmt: skip
        state, events = apply(state, Program(seat, a, b))
        out += [event.to_json() for event in events]
    return out


def every_event() -> Iterator[dict[str, Any]]:
    """The events of every scenario, of a few simulated games and of the engine's programs."""
    for name in SCENARIOS:
        yield from replay(name).events
    yield from layout_taken_back().events
    game = games.get("swiped")
    for seed in (3, 5):
        played = game.simulate(game.simulated_setup(2, seed, language="fr"))
        assert played.referee is not None
        yield from played.referee.events
    yield from programs()


def first_line(referee: SwipedReferee, lang: str, kind: str, **match: object) -> str | None:
    """The line of the first event of `kind` (with those fields) the referee made."""
    event = next(
        e
        for e in referee.events
        if e["kind"] == kind and all(e.get(k) == v for k, v in match.items())
    )
    return describe(event, referee.names, lang)


def french_typography(line: str) -> bool:
    """A space (never another character) before each ":", ";", "!" and "?"."""
    return re.search(r"[^ ][:;!?]", line) is None


# ------------------------------------------------------------------- every kind


def test_every_swiped_line_has_a_french_line_in_french_typography() -> None:
    kinds, faults, steps = set(), set(), set()
    for event in every_event():
        english, french = describe(event, NAMES, "en"), describe(event, NAMES, "fr")
        assert (english is None) == (french is None), event
        if french is None:
            continue
        assert french != english, event
        assert french_typography(french), french
        kinds.add(event["kind"])
        faults.add(event.get("reason"))
        steps.add(event.get("step"))
    assert kinds == SWIPED_KINDS
    assert faults - {None} == SWIPED_FAULTS
    assert steps - {None} == UNDO_STEPS


def test_the_events_every_game_shares_are_left_to_the_shared_lines() -> None:
    for event in [
        {"kind": "fixed"},
        {"kind": "resume", "changed": []},
        {"kind": "game_won", "seat": 0},
        {"kind": "fault", "spot": 5, "reason": "unknown_tag"},
        {"kind": "ignored", "control": "pad", "seat": None, "reason": "not_now"},
    ]:
        assert describe(event, NAMES, "fr") is None
        assert describe(event, NAMES, "en") is None


def test_the_table_language_reaches_swipeds_lines_through_the_transcript() -> None:
    event = {"kind": "target", "seat": 1}
    assert transcript_describe(event, NAMES, "swiped", "fr") == "la carte secrète de Bob est notée"
    assert transcript_describe(event, NAMES, "swiped") == "Bob's secret target card is recorded"
    with pytest.raises(ValueError, match="unknown language"):
        describe(event, NAMES, "de")


# ---------------------------------------------------------- the exact sentences

GRID_EN = " ".join(colour_name(c, "en").lower() for c in card_of(LAYOUT))
GRID_FR = " ".join(colour_name(c, "fr") for c in card_of(LAYOUT))
"""The face-up card's cubes: their names in English, the OLED's in French."""

SENTENCES = [
    ("opening", "layout", {},
     f"card {LAYOUT} is the face-up card: the cubes go {GRID_EN}",
     f"la carte {LAYOUT} est tirée face visible ; les gros cubes, cases 1 à 9 : {GRID_FR}"),
    ("opening", "fault", {},
     "STOP at square 4: cubes out of place: put them back as they were",
     "STOP sur la case 4 : gros cubes mal placés ; remettez-les comme avant"),
    ("opening", "placed", {},
     "the cubes stand as the face-up card shows",
     "les gros cubes sont placés comme la carte face visible"),
    ("opening", "target", {},
     "Bob's secret target card is recorded",
     "la carte secrète de Bob est notée"),
    ("opening", "manche_start", {},
     "round 1 starts; the swaps go Bob, Ana, Ana, Bob, Bob, Ana",
     "la manche 1 commence ; ordre des échanges : Bob, Ana, Ana, Bob, Bob, Ana"),
    ("skip", "swap", {},
     "Ana swaps squares 1 and 2 (purple and white)",
     "Ana échange les cases 1 et 2 (Violet et Blanc)"),
    ("skip", "swap_skipped", {},
     "Bob skips: purple-white is the pair just swapped (SW-4)",
     "Bob passe : même paire Violet-Blanc, appliquée une seule fois (SW-4)"),
    ("card_right", "guess", {},
     'Bob says "I know your card" and is naming a card',
     "Bob annonce « je connais ta carte » et nomme une carte"),
    ("card_right", "claim", {},
     "Bob names Ana's card: right",
     "Bob nomme la carte de Ana : vrai"),
    ("card_wrong", "claim", {},
     "Ana names Bob's card: wrong",
     "Ana nomme la carte de Bob : faux"),
    ("matches_true", "claim", {},
     "Ana claims 5 matches: right",
     "Ana annonce 5 cases : vrai"),
    ("matches_false", "claim", {},
     "Bob claims 5 matches: wrong",
     "Bob annonce 5 cases : faux"),
    ("card_right", "targets", {},
     f"the game is over; the secret target cards were: Ana card {ANA_CARD}, Bob card {BOB_CARD}",
     f"la partie est terminée ; les cartes secrètes étaient : Ana la carte {ANA_CARD}, "
     f"Bob la carte {BOB_CARD}"),
    ("draw_limit", "manche_end", {},
     "round 1 is over",
     "la manche 1 est finie"),
    ("draw_limit", "game_drawn", {},
     "no winner after 1 rounds: the game is a draw (SW-6)",
     "aucun gagnant après 1 manches : match nul (SW-6)"),
    ("fault_two_cards", "fault", {},
     "STOP at the pad: two new cards on the pad at once: one at a time",
     "STOP sur le pad : deux cartes sur le pad ; une seule à la fois"),
    ("fault_guess_first", "fault", {},
     "STOP at the table: a swap while a card is being named: put the cubes back, tap the card",
     "STOP sur la table : un échange pendant qu'une carte est nommée ; remettez les cubes, "
     "posez la carte"),
    ("fault_same_pair", "fault", {},
     "STOP at square 1: the pair just swapped, swapped again (SW-4): put it back; swap "
     "another or skip",
     "STOP sur la case 1 : même paire échangée deux fois (SW-4) ; remettez-la, échangez-en "
     "une autre ou poussez"),
    ("undo", "undo", {"step": "swap"},
     "back: the swap is taken back",
     "retour : l'échange est annulé"),
    ("undo", "undo", {"step": "guess"},
     "back: the card being named is taken back",
     "retour : l'annonce « je connais ta carte » est annulée"),
]  # fmt: skip
"""(scenario, kind, fields to match, English line, French line): the first such event."""


@pytest.mark.parametrize(
    ("name", "kind", "match", "english", "french"),
    SENTENCES,
    ids=[f"{name}-{kind}" for name, kind, *_ in SENTENCES],
)
def test_representative_lines_in_english_as_ever_and_in_french(
    name: str, kind: str, match: dict[str, object], english: str, french: str
) -> None:
    referee = replay(name)
    assert first_line(referee, "en", kind, **match) == english
    assert first_line(referee, "fr", kind, **match) == french


def test_the_face_up_card_taken_back() -> None:
    referee = layout_taken_back()
    assert first_line(referee, "en", "undo") == "back: the face-up card is taken back"
    assert first_line(referee, "fr", "undo") == "retour : la carte face visible est annulée"


def test_the_programs_in_both_languages() -> None:
    events = programs()
    assert [describe(e, NAMES, "fr") for e in events[:2]] == [
        "Ana programme l'échange 1",
        "Ana programme l'échange 2",
    ]
    assert describe(events[0], NAMES) == "Ana programs swap 1"
    assert describe(events[-1], NAMES) == (
        "the programs are revealed: Ana red-blue, green-black, pink-white; "
        "Bob orange-yellow, red-purple, green-blue"
    )
    assert describe(events[-1], NAMES, "fr") == (
        "les programmes sont révélés : Ana Rouge-Bleu, Vert-Noir, Rose-Blanc ; "
        "Bob Orange-Jaune, Rouge-Violet, Vert-Bleu"
    )


# ---------------------------------------------------------------- no target card


@pytest.mark.parametrize("seed", [3, 5, 8])
def test_no_french_line_names_a_target_card_before_the_game_is_over(seed: int) -> None:
    """The French mirror of test_cli's check on `companion replay`: before the last line
    only the face-up card is named, a line about a secret card has no number at all; the
    last line names both cards."""
    game = games.get("swiped")
    played = game.simulate(game.simulated_setup(2, seed, language="fr"))
    referee = played.referee
    assert isinstance(referee, SwipedReferee) and referee.finished
    targets = list(referee.state.targets)
    events = referee.events
    lines = [describe(e, referee.names, "fr") for e in events]
    told = [line for line in lines if line is not None]
    assert events[-1]["kind"] == "targets" and told[-1] == lines[-1]
    ana, bob = referee.names
    assert told[-1].endswith(f"{ana} la carte {targets[0]}, {bob} la carte {targets[1]}")
    layout = next(e["card"] for e in events if e["kind"] == "layout")
    assert layout not in targets
    for line in told[:-1]:
        named = {int(n) for n in re.findall(r"carte (\d+)", line)}
        assert named <= {layout}, line  # the face-up card only: it is public
        if "secrète" in line:
            assert not re.search(r"\d", line), line  # no number at all


@pytest.mark.parametrize("seed", range(6))
def test_no_french_output_depends_on_a_secret_card_until_a_claim(seed: int) -> None:
    """test_sim's relabelled twins, in French: one player's target made another card, every
    French line and status is the same until the first claim."""
    game = games.get("swiped")
    played = game.simulate(game.simulated_setup(2, seed, language="fr"))
    referee = played.referee
    assert isinstance(referee, SwipedReferee)
    state = referee.state
    secret = f"layout:{state.targets[seed % 2]}"
    unused = {state.layout_card, *state.targets}
    other = next(f"layout:{c}" for c in range(1, 25) if c not in unused)
    twins = [SwipedReferee(played.setup), SwipedReferee(relabelled(played.setup, secret, other))]
    compared = 0
    for record in played.inputs:
        for twin in twins:
            twin.feed(record)
        a, b = twins
        if any(e["kind"] in ("claim", "targets") for e in a.events + b.events):
            break
        assert [describe(e, a.names, "fr") for e in a.events] == [
            describe(e, b.names, "fr") for e in b.events
        ]
        assert a.where("fr") == b.where("fr")
        compared += 1
    assert compared > 10


# ------------------------------------------------------------------------ where


def statuses(name: str) -> dict[str, str]:
    """Each English status of a scenario, walked input by input, with its French one."""
    journal = read_journal(HERE / f"{name}.jsonl")
    referee = SwipedReferee(journal.setup)
    seen: dict[str, str] = {}
    for record in journal.inputs:
        referee.feed(record)
        assert referee.where() == referee.where("en")
        seen.setdefault(referee.where(), referee.where("fr"))
    return seen


@pytest.mark.parametrize(
    ("name", "english", "french"),
    [
        ("opening", "round 1, drawing the cards", "manche 1, tirage des cartes"),
        ("opening", "round 1, Bob to swap", "manche 1, à Bob d'échanger"),
        ("card_right", "round 1, Ana to swap", "manche 1, à Ana d'échanger"),
        ("card_right", "game over: Bob won", "partie terminée : Bob a gagné"),
        ("card_wrong", "game over: Bob won", "partie terminée : Bob a gagné"),
        ("draw_limit", "game over after 1 rounds: a draw",
         "partie terminée après 1 manches : match nul"),
        ("fault_card_on_square",
         "round 1, stopped: Square 3: a card on the square. Take it off.",
         "manche 1, STOP : Case 3 : une carte sur la case. Retirez-la."),
    ],
)  # fmt: skip
def test_the_status_line_in_english_and_in_french(name: str, english: str, french: str) -> None:
    assert statuses(name)[english] == french


@pytest.mark.parametrize("name", [n for n in SCENARIOS if n.startswith("fault_")])
def test_a_stopped_table_says_in_each_language_what_the_oled_says(name: str) -> None:
    journal = read_journal(HERE / f"{name}.jsonl")
    referee = SwipedReferee(journal.setup)
    stops = 0
    for record in journal.inputs:
        referee.feed(record)
        screen = referee.screen
        if isinstance(screen, SwFaultScreen):
            fix = sw_say(screen.prompt, referee.names, "fr")
            assert referee.where("fr") == f"manche {referee.state.manche}, STOP : {fix}"
            english = sw_say(screen.prompt, referee.names, "en")
            assert referee.where() == f"round {referee.state.manche}, stopped: {english}"
            stops += 1
    assert stops


# -------------------------------------------------------------------- the table


def fields_of(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def test_both_languages_have_every_line_with_the_same_placeholders() -> None:
    assert set(_LINES) == {"en", "fr"}
    assert _LINES["en"].keys() == _LINES["fr"].keys()
    for key, english in _LINES["en"].items():
        assert fields_of(english) == fields_of(_LINES["fr"][key]), key
        assert french_typography(_LINES["fr"][key]), key
