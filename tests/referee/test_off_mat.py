"""A reader off the game's mat (docs/table.md, "Faults and fixes").

A table may have more readers than the game has spots: Flip Done and Swiped are played on
a 3 x 3 mat laid over a PassPass table's 18 readers, PtiPassPass for 2 on 6 of them.
Something lying on a reader where the game has no spot stops play, in every game that
reads the table, with a fault naming that reader on the OLED; presses are refused until
it is taken off, then the game goes on as if it had never been there. A reader off the
mat that stops answering stops nothing. "Vous ne passerez pas !" reads no reader: nothing
on any of them changes its game. Every registered game and the test game are checked
(the games that read the table for the first), with what their own screens draw.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any

import pytest

from companion import games
from companion.games import Game, TableReferee
from companion.journal import (
    Input,
    PressInput,
    ReaderInput,
    ResumeInput,
    Setup,
    SpotInput,
    TickInput,
    read_lines,
)
from tests.games import contract_games, descriptor
from tests.games.flipdone.referee.scenario_scripts import deal as fd_deal
from tests.games.flipdone.referee.script import FdScript
from tests.screens import texts_of

PAUSE = 5.0
"""Seconds a stray tag lies on the table: the rest of the game comes that much later."""
STRAY = frozenset({"DEADBEEF"})
GAMES = contract_games()


def reads_table(name: str) -> bool:
    game = descriptor(name)
    return game.referee(game.simulated_setup(game.default_seats, 1)).reads_table


READING = tuple(name for name in GAMES if reads_table(name))
"""The games whose referee reads the table (not "Vous ne passerez pas !", on the phones)."""


def real_game(name: str) -> tuple[Game, Setup, list[Input]]:
    game = descriptor(name)
    setup = game.simulated_setup(game.default_seats, 1)
    return game, setup, list(game.simulate(setup).inputs)


def drawn(screen: object, lang: str, game: Game | None = None) -> str:
    """What the OLED shows of `screen` (of `game`), its lines joined by single spaces."""
    return re.sub(r"\s+", " ", " ".join(texts_of(screen, lang, game)))


def fed(game: Game, setup: Setup, inputs: list[Input]) -> tuple[TableReferee, list[Any]]:
    referee = game.referee(setup)
    events = [e for record in inputs for e in referee.feed(record)]
    return referee, events


def quiet_moment(game: Game, setup: Setup, inputs: list[Input]) -> tuple[list[Input], float]:
    """The inputs up to a moment, a third into the game or later, when the table is judged
    and no deadline runs (a tick then), and that moment: a pause there changes nothing."""
    referee = game.referee(setup)
    for i, record in enumerate(inputs[:-1]):
        referee.feed(record)
        t = record.t + setup.settle + 0.05
        if i < len(inputs) // 3 or t >= inputs[i + 1].t:
            continue
        referee.feed(TickInput(t))
        if not referee.unjudged and not referee.held and referee.deadline() is None:
            return [*inputs[: i + 1], TickInput(t)], t
        referee = game.referee(setup)  # the tick was only to look: start again
        for earlier in inputs[: i + 1]:
            referee.feed(earlier)
    raise AssertionError("no quiet moment")


def later(inputs: list[Input], seconds: float) -> list[Input]:
    return [dataclasses.replace(record, t=record.t + seconds) for record in inputs]


def play_of(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The game's own events, without their times, faults, fixes and refused presses."""
    stops = ("fault", "fixed", "ignored")
    return [{k: v for k, v in e.items() if k != "t"} for e in events if e["kind"] not in stops]


@pytest.mark.parametrize("name", READING)
def test_a_tag_off_the_mat_stops_play_until_taken_off_then_the_game_goes_on(name: str) -> None:
    game, setup, inputs = real_game(name)
    _, alone = fed(game, setup, inputs)
    before, t = quiet_moment(game, setup, inputs)
    reader = game.referee(setup).spots + 3  # a reader of the table, no spot of the game
    put, back, gone = (
        SpotInput(t + 0.1, reader, STRAY),
        PressInput(t + 1.0, "back"),  # refused: the table first, even before a back
        SpotInput(t + 2.0, reader, frozenset()),
    )
    referee, _ = fed(game, setup, [*before, put, TickInput(t + 0.7)])
    assert f"Lecteur {reader} : hors du jeu." in drawn(referee.screen, "fr", game)
    _, events = fed(game, setup, [*before, put, back])
    stopped = [e for e in events if e["t"] > t]
    fault = {"t": round(t + 0.6, 3), "kind": "fault", "spot": reader, "reason": "off_mat"}
    assert stopped[0] == fault
    assert stopped[1]["kind"] == "ignored" and stopped[1]["reason"] == "table_first"
    rest = later(inputs[len(before) - 1 :], PAUSE)
    referee, events = fed(game, setup, [*before, put, back, gone, *rest])
    fixed = [e for e in events if round(t + 2.0, 3) <= e["t"] <= round(t + 2.5, 3)]
    assert fixed == [{"t": round(t + 2.5, 3), "kind": "fixed"}]
    assert play_of(events) == play_of(alone)
    assert (
        referee.finished
        and referee.result()["winner"] == fed(game, setup, inputs)[0].result()["winner"]
    )


@pytest.mark.parametrize("name", READING)
def test_a_tag_off_the_mat_at_a_resume_stops_play_until_taken_off(name: str) -> None:
    """`companion run --resume` journals what every reader held at the restart: a tag on
    a reader off the mat then is the same fault as one put there during the game."""
    game, setup, inputs = real_game(name)
    _, alone = fed(game, setup, inputs)
    before, t = quiet_moment(game, setup, inputs)
    referee, _ = fed(game, setup, before)
    reader = referee.spots + 3
    restart = ResumeInput(t + 0.1, {**referee.observed.uids, reader: STRAY})
    gone = SpotInput(t + 2.0, reader, frozenset())
    rest = later(inputs[len(before) - 1 :], PAUSE)
    referee, events = fed(game, setup, [*before, restart, gone, *rest])
    assert [e for e in events if t < e["t"] <= round(t + 2.5, 3)] == [
        {"t": round(t + 0.1, 3), "kind": "resume", "changed": []},
        {"t": round(t + 0.6, 3), "kind": "fault", "spot": reader, "reason": "off_mat"},
        {"t": round(t + 2.5, 3), "kind": "fixed"},
    ]
    assert [e for e in play_of(events) if e["kind"] != "resume"] == play_of(alone)
    assert referee.result()["winner"] == fed(game, setup, inputs)[0].result()["winner"]


@pytest.mark.parametrize("name", GAMES)
def test_a_reader_off_the_mat_that_stops_answering_stops_nothing(name: str) -> None:
    game, setup, inputs = real_game(name)
    _, alone = fed(game, setup, inputs)
    reader = game.referee(setup).spots + 1
    silent = ReaderInput(inputs[2].t, reader, False)  # early in the game, and for good
    _, events = fed(game, setup, [*inputs[:3], silent, *inputs[3:]])
    assert events == alone


def test_nothing_on_any_reader_changes_a_game_played_without_readers() -> None:
    game, setup, inputs = real_game("vnp")
    _, alone = fed(game, setup, inputs)
    table = [
        SpotInput(inputs[1].t, 0, STRAY),  # the pad
        SpotInput(inputs[1].t, 5, STRAY),
        ReaderInput(inputs[2].t, 0, False),
        SpotInput(inputs[3].t, 12, frozenset({"04A1B2C3D4E5F6"})),  # a phone laid on reader 12
    ]
    _, events = fed(game, setup, [*inputs[:4], *table, *inputs[4:]])
    assert events == alone


@pytest.mark.parametrize(
    "stop,reason",
    [
        (lambda s: s.put(12, "DEADBEEF").take(12, "DEADBEEF"), "off_mat"),
        (lambda s: s.reader(3, False).reader(3, True), "reader_silent"),
    ],
)
def test_a_wrong_flip_is_still_to_turn_back_after_a_stop_shown_over_it(
    stop: Callable[[FdScript], FdScript], reason: str
) -> None:
    """Flip Done: Ana's card on the pad, she turns over square 9, a face-down card only:
    Stop, turn it back. Something off the mat (or a silent reader) stops play meanwhile;
    once that is fixed the OLED asks again to turn square 9 back, and turning it back is
    not read as another flip of it. Then she flips the centre with her card."""
    script = stop(fd_deal().put(0, "3S").lift(9).back(9))
    script.lift(9).back(9).lift(5).back(5)
    journal = read_lines(script.text().splitlines())
    referee, events = fed(games.get("flipdone"), journal.setup, journal.inputs)
    stops = [(e.get("reason"), e.get("spot")) for e in events if e["kind"] in ("fault", "fixed")]
    spot = 12 if reason == "off_mat" else 3
    assert stops == [("not_element", 9), (reason, spot), ("not_element", 9), (None, None)]
    (flip,) = [e for e in events if e["kind"] == "flip"]
    assert (flip["seat"], flip["square"]) == (0, 5)
