"""What the table says aloud (companion/speech.py, each game's voice), heard through the
capture back end of the Sound port as the referee loop hands it over: whose turn, a
verdict with exactly the book's public facts, a fault with its fix, the end, in the
table's language, one announcement per input. That no sentence depends on a hidden fact
is the no-peek contract's (tests/contract/test_public_outputs.py: the spoken announcement
is one of the public outputs compared with hidden tokens exchanged)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from companion import games
from companion.config.sound import SoundConfig
from companion.devices.sound import Capture, Sound
from companion.games import TableReferee, make_referee
from companion.journal import Input, read_journal
from companion.speech import Speaker, announcement, line
from tests.games import contract_games, playing

SCENARIOS = Path(__file__).parent.parent / "games" / "passpass" / "referee" / "scenarios"


def heard(referee: TableReferee, inputs: list[Input]) -> list[tuple[float, str]]:
    """Feed `inputs` as the referee loop does (a `Speaker` told after each one, a capture
    voice behind it): what was said, with the game time of each announcement."""
    capture = Capture()
    sound = Sound(SoundConfig(backend="capture"), capture)
    sound.open(referee.setup.language)
    speaker = Speaker(referee, sound)
    speaker.start()
    for record in inputs:
        referee.feed(record)
        speaker.hear()
        assert sound.idle(10)  # the capture says at once: nothing is replaced here
    sound.close()
    return [(a.t, a.text) for a in capture.said]


def simulated(name: str, lang: str, seed: int = 3) -> tuple[TableReferee, list[str]]:
    """A whole simulated game of `name` in `lang`: the referee at its end and what it said."""
    game = games.get(name)
    setup = game.simulated_setup(game.default_seats, seed, language=lang)
    referee = game.referee(setup)
    said = heard(referee, list(game.simulate(setup).inputs))
    return referee, [text for _, text in said]


def scenario(name: str, lang: str) -> list[tuple[float, str]]:
    """What the table says of a PassPass scenario of tests/games/passpass/referee/scenarios/
    in `lang`."""
    journal = read_journal(SCENARIOS / f"{name}.jsonl")
    referee = make_referee(dataclasses.replace(journal.setup, language=lang))
    return heard(referee, list(journal.inputs))


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("name", games.names())
def test_every_game_says_whose_turn_and_who_won(name: str, lang: str) -> None:
    referee, said = simulated(name, lang)
    assert said, f"{name} said nothing in a whole game"
    turns = {line("turn", lang, s=seat) for seat in referee.names}
    assert sum(any(t in text for t in turns) for text in said) >= len(referee.names), said
    winner = referee.result()["winner"]
    assert winner is not None, f"{name}: the simulated game has a winner"
    assert referee.names[winner] in said[-1], said[-1]
    other = {"fr": "À toi", "en": "Your turn"}["en" if lang == "fr" else "fr"]
    assert not any(other in text for text in said), "one language per table"


def test_a_verdict_says_the_call_who_was_right_and_the_public_facts() -> None:
    said = dict(scenario("doublon_success_reward_drop", "fr"))
    assert said[12.5] == "Doublon ! Ana a raison ! Le chapeau 1 contenait : Lapin."
    said = dict(scenario("menteur_success_reward_token", "en"))
    assert said[3.9] == "Menteur! Bob is right! Ana shows: Mouse."
    assert said[6.45] == "Your turn, Bob."


def test_a_fault_says_its_place_and_its_fix_and_the_fixed_table_says_play_goes_on() -> None:
    said = scenario("faults", "fr")
    assert said[:5] == [
        (0.0, "Ana, glisse un animal dans un chapeau."),
        (1.55, "Chapeau 3 : jeton inconnu. Retire-le."),
        (3.1, "Le jeu reprend."),
        (4.65, "Chapeau 2 : deux animaux à la fois. Retires-en un."),
        (6.2, "Le jeu reprend."),
    ]
    assert (32.7, "Chapeau 5 : Ana n’a pas cet animal. Retire-le.") in said
    english = [text for _, text in scenario("faults", "en")]
    assert "Hat 3: reader silent. Check its cable." in english


def test_one_input_is_one_announcement_its_sentences_in_order() -> None:
    """A reveal that wins the manche, the next manche and its first turn come from one
    input: one announcement, so a newer one never replaces half of it."""
    _, said = simulated("ptipasspass", "fr")
    won = next(text for text in said if "gagné !" in text)
    assert won.index("gagne la manche") < won.index("Manche ") < won.index("À toi, ")


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("name", games.names())
def test_a_new_game_says_how_it_begins_before_any_input(name: str, lang: str) -> None:
    """No event says the first turn (the first input makes the first event): as the game
    starts the table says the OLED's first instruction, naming the seat to play first
    when one does (PassPass's first player, VNP's first colour), in the table's language."""
    game = games.get(name)
    setup = game.simulated_setup(game.default_seats, 3, language=lang)
    referee = game.referee(setup)
    capture = Capture()
    sound = Sound(SoundConfig(backend="capture"), capture)
    sound.open(lang)
    text = Speaker(referee, sound).start()
    assert sound.idle(10)
    sound.close()
    assert text and capture.texts() == [text]
    screen = referee.screen
    prompt = getattr(screen, "prompt", None)
    seat = dict(getattr(prompt, "params", ())).get("seat", getattr(screen.view, "seat", None))
    if isinstance(seat, int):
        assert referee.names[seat] in text, text


def test_what_happened_before_the_speaker_started_is_not_said() -> None:
    """A resumed game's history was heard before the cut; the voice starts with what
    comes next."""
    game = games.get("ptipasspass")
    setup = game.simulated_setup(4, 3)
    inputs = list(game.simulate(setup).inputs)
    referee = game.referee(setup)
    for record in inputs[: len(inputs) // 2]:
        referee.feed(record)
    seen = len(referee.events)
    rest = inputs[len(inputs) // 2 :]
    capture = Capture()
    sound = Sound(SoundConfig(backend="capture"), capture)
    sound.open("fr")
    speaker = Speaker(referee, sound)
    assert speaker.start() is None  # a game under way: its opening is history
    assert speaker.hear() is None  # nothing new yet
    expected = []
    for record in rest:
        before = len(referee.events)
        referee.feed(record)
        said = announcement(
            referee.events[before:], referee.screen, referee.names, setup.game, "fr"
        )
        assert speaker.hear() == said
        assert speaker.hear() is None  # each event is heard once
        assert sound.idle(10)
        expected += [said] if said else []
    sound.close()
    assert capture.texts() == expected and len(referee.events) > seen


@pytest.mark.parametrize("name", sorted(set(contract_games()) - set(games.names())))
def test_the_shared_lines_say_the_end_a_game_voice_leaves_to_them(name: str) -> None:
    """The test game's voice says nothing of its own events and leaves the won game to the
    shared lines (None): the winner is still said, as for a new game copied from it."""
    with playing(name) as game:
        setup = game.simulated_setup(min(game.seats), 1)
        referee = game.referee(setup)
        said = heard(referee, list(game.simulate(setup).inputs))
        winner = referee.result()["winner"]
        assert winner is not None and said, name
        assert referee.names[winner] in said[-1][1]
