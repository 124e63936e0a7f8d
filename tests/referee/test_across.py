"""One tag lying across two spots (docs/table.md, "Faults and fixes").

A token pushed half onto the next spot lies in both readers' fields: both read it, so
neither says which spot holds it, and the Pico reports each reader unknown, naming the
other (``E 4 shared_5``; the service journals ``{"type": "reader", "ok": false,
"across": 5}``). It is never two tokens: in every game that reads the table, play stops
with the game's fault naming both spots, presses are refused until the token lies in one,
then the game goes on as if it had never moved. Across a spot and a reader off the
game's mat, the fault is the off-mat one naming that reader (the token must come off it).
"Vous ne passerez pas !" reads no reader: nothing changes its game. Every registered game
and the test game are checked, with what their own screens draw.
"""

from __future__ import annotations

import re

import pytest

from companion.journal import Input, PressInput, ReaderInput, TickInput, parse_input
from tests.referee.test_off_mat import (
    PAUSE,
    READING,
    drawn,
    fed,
    later,
    play_of,
    quiet_moment,
    real_game,
)


def across(t: float, a: int, b: int) -> list[Input]:
    """Both readers report the tag across them, as the service journals the Pico's faults."""
    return [ReaderInput(t, a, False, b), ReaderInput(t, b, False, a)]


def cleared(t: float, a: int, b: int) -> list[Input]:
    return [ReaderInput(t, a, True), ReaderInput(t, b, True)]


@pytest.mark.parametrize("name", READING)
def test_a_tag_across_two_spots_stops_play_naming_both_until_it_lies_in_one(name: str) -> None:
    game, setup, inputs = real_game(name)
    _, alone = fed(game, setup, inputs)
    before, t = quiet_moment(game, setup, inputs)
    a, b = (1, 2) if game.referee(setup).spots >= 2 else (0, 1)
    back = PressInput(t + 1.0, "back")  # refused: the table first, even before a back
    referee, _ = fed(game, setup, [*before, *across(t + 0.1, a, b), TickInput(t + 0.7)])
    for lang in ("fr", "en"):
        text = drawn(referee.screen, lang, game)
        assert re.search(rf"\b{a}\b.*\b{b}\b", text), (lang, text)
    _, events = fed(game, setup, [*before, *across(t + 0.1, a, b), back])
    stopped = [e for e in events if e["t"] > t]
    # A reader's report is judged at once: the table itself did not move.
    fault = {"t": round(t + 0.1, 3), "kind": "fault", "spot": a, "reason": "across_spots"}
    assert stopped[0] == fault, stopped
    assert stopped[1]["kind"] == "ignored" and stopped[1]["reason"] == "table_first"
    assert len(stopped) == 2, stopped  # one fault, however many readers report it
    rest = later(inputs[len(before) - 1 :], PAUSE)
    fixed_inputs = [*before, *across(t + 0.1, a, b), back, *cleared(t + 2.0, a, b), *rest]
    referee, events = fed(game, setup, fixed_inputs)
    fixed = [e for e in events if round(t + 2.0, 3) <= e["t"] <= round(t + 2.5, 3)]
    assert fixed == [{"t": round(t + 2.0, 3), "kind": "fixed"}]
    assert play_of(events) == play_of(alone)
    assert (
        referee.finished
        and referee.result()["winner"] == fed(game, setup, inputs)[0].result()["winner"]
    )


@pytest.mark.parametrize("name", READING)
def test_a_tag_across_a_spot_and_a_reader_off_the_mat_is_the_off_mat_fault(name: str) -> None:
    game, setup, inputs = real_game(name)
    before, t = quiet_moment(game, setup, inputs)
    spots = game.referee(setup).spots
    off = spots + 2
    referee, events = fed(game, setup, [*before, *across(t + 0.1, spots, off), TickInput(t + 0.7)])
    stopped = [e for e in events if e["t"] > t]
    assert stopped == [{"t": round(t + 0.1, 3), "kind": "fault", "spot": off, "reason": "off_mat"}]
    assert f"Lecteur {off} : hors du jeu." in drawn(referee.screen, "fr", game)
    rest = later(inputs[len(before) - 1 :], PAUSE)
    _, events = fed(
        game, setup, [*before, *across(t + 0.1, spots, off), *cleared(t + 2, spots, off), *rest]
    )
    assert [e["kind"] for e in events if e["t"] > t][:2] == ["fault", "fixed"]


@pytest.mark.parametrize("name", READING)
def test_a_tag_across_two_readers_off_the_mat_is_fixed_once_both_answer_again(name: str) -> None:
    """No spot of the game moved: the table is judged again when the readers off the mat
    answer again, and the game goes on as if nothing had been there."""
    game, setup, inputs = real_game(name)
    _, alone = fed(game, setup, inputs)
    before, t = quiet_moment(game, setup, inputs)
    spots = game.referee(setup).spots
    a, b = spots + 1, spots + 2
    rest = later(inputs[len(before) - 1 :], PAUSE)
    referee, events = fed(
        game, setup, [*before, *across(t + 0.1, a, b), *cleared(t + 2, a, b), *rest]
    )
    assert [e for e in events if t < e["t"] <= round(t + 2, 3)] == [
        {"t": round(t + 0.1, 3), "kind": "fault", "spot": a, "reason": "off_mat"},
        {"t": round(t + 2, 3), "kind": "fixed"},
    ]
    assert play_of(events) == play_of(alone)
    assert referee.result()["winner"] == fed(game, setup, inputs)[0].result()["winner"]


def test_a_tag_across_two_readers_changes_nothing_in_a_game_played_without_readers() -> None:
    game, setup, inputs = real_game("vnp")
    _, alone = fed(game, setup, inputs)
    table = [*across(inputs[2].t, 1, 2), *cleared(inputs[3].t, 1, 2), *across(inputs[3].t, 0, 14)]
    _, events = fed(game, setup, [*inputs[:3], *table, *inputs[3:]])
    assert events == alone


def test_the_journal_keeps_the_other_spot_and_refuses_what_cannot_be() -> None:
    line = {"t": 4.5, "type": "reader", "spot": 4, "ok": False, "across": 5}
    record = parse_input(line)
    assert record == ReaderInput(4.5, 4, False, 5) and record.to_json() == line
    plain = {"t": 4.5, "type": "reader", "spot": 4, "ok": False}
    assert parse_input(plain).to_json() == plain  # no "across" key when there is none
    for wrong in ({"ok": True}, {"across": 4}, {"across": -1}, {"across": "5"}):
        with pytest.raises(ValueError, match="across"):
            parse_input({**line, **wrong})
