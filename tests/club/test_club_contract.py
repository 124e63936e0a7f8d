"""What a table sends and what the club's board takes (docs/club.md, "What one table can
do, and what it cannot"): the board's bounds are there for a table gone wrong, and an
honest table never meets them. Every game, at its most seats, with the longest table
name and seat names a config takes: each public state and frame along simulated games,
its announcement and its result are taken as sent, and a whole evening's lists fit their
bounds. No broker here: the payloads are the link's own (tests/club/test_club_night.py
sends them through Mosquitto)."""

from __future__ import annotations

import dataclasses
import io
import json
import re

import pytest

from companion import games
from companion.club.board import NAME, Board, Bounds
from companion.club.outbox import game_announcement, game_result, now_utc
from companion.club.topics import EVENING_GAMES, compact, state_payload
from companion.config.club import TABLE_NAME
from companion.config.tables import LONGEST_SEAT_NAME
from companion.journal import new_game_id
from companion.web.public import Publisher

TABLE = "t" * 32
"""The longest table name a config takes."""
assert TABLE_NAME.fullmatch(TABLE) and not TABLE_NAME.fullmatch(TABLE + "t")


def longest_names(seats: int) -> tuple[str, ...]:
    """Seat names as long as a config takes, each different (and not ASCII: JSON escapes
    it, the longest bytes a name can make)."""
    return tuple(f"{i}" + "é" * (LONGEST_SEAT_NAME - 1) for i in range(seats))


def played(name: str, seed: int):  # noqa: ANN201 (the referee and its inputs)
    game = games.get(name)
    setup = game.simulated_setup(max(game.seats), seed)
    setup = dataclasses.replace(setup, seats=longest_names(len(setup.seats)), id=new_game_id())
    return game.referee(setup), game.simulate(setup).inputs


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("name", games.names())
def test_every_message_of_a_game_is_taken_as_sent(name, seed):
    """A game's every state and frame, its announcement and its result: nothing refused,
    each state kept whole, the result counted under its announced id."""
    assert NAME.fullmatch(name)
    referee, inputs = played(name, seed)
    board = Board()
    publisher = Publisher(referee)
    board.apply(TABLE, "availability", b"online")
    board.apply(TABLE, "games", compact([game_announcement(TABLE, referee, now_utc())]))
    frame_no = -1
    for record in [None, *inputs]:
        if record is not None:
            referee.feed(record)
        snapshot = publisher.snapshot()
        if snapshot is None:
            continue
        payload = state_payload(snapshot.view)
        board.apply(TABLE, "state", payload)
        assert board.tables[TABLE].state == json.loads(payload)
        if snapshot.view["frame_no"] != frame_no:
            frame_no = snapshot.view["frame_no"]
            out = io.BytesIO()
            snapshot.frame.save(out, format="PNG")
            board.apply(TABLE, "frame", out.getvalue())
        if referee.finished:
            break
    assert referee.finished
    record = game_result(TABLE, referee, now_utc())
    assert len(record["id"]) <= 64
    [counted] = board.apply(TABLE, "result", json.dumps(record, ensure_ascii=False).encode())
    assert counted == record
    assert board.tables[TABLE].refused == {}


def test_a_whole_evening_of_the_largest_games_fits_the_lists_bounds():
    """`EVENING_GAMES` games of the game with the most seats, the longest names: the
    retained ``games`` and ``results`` lists as the link writes them (``ensure_ascii``
    off) are within their bounds, and every game counts."""
    name = max(games.names(), key=lambda n: max(games.get(n).seats))
    referee, inputs = played(name, 1)
    for record in inputs:
        referee.feed(record)
        if referee.finished:
            break
    announced, results = [], []
    for i in range(EVENING_GAMES):
        referee.setup = dataclasses.replace(referee.setup, id=f"{i:016x}")
        announced.append(game_announcement(TABLE, referee, now_utc()))
        results.append(game_result(TABLE, referee, now_utc()))
    bounds = Bounds()
    games_list = json.dumps(announced, ensure_ascii=False).encode()
    results_list = json.dumps(results, ensure_ascii=False).encode()
    assert len(games_list) <= bounds.games_list and len(results_list) <= bounds.results
    board = Board()
    board.apply(TABLE, "games", games_list)
    assert len(board.apply(TABLE, "results", results_list)) == EVENING_GAMES
    assert board.tables[TABLE].refused == {}


def test_a_tables_lists_keep_its_latest_games_of_the_evening(tmp_path):
    """More games than an evening holds (a table left on for a marathon): the link's lists
    keep the latest `EVENING_GAMES`, within their bounds."""
    from companion.club.outbox import ClubFiles

    referee, _ = played("swiped", 1)
    files = ClubFiles(tmp_path)
    for i in range(EVENING_GAMES + 5):
        referee.setup = dataclasses.replace(referee.setup, id=f"{i:016x}")
        files.games.add(game_announcement(TABLE, referee, now_utc()))
    ids = [a["id"] for a in files.games.read()]
    assert len(ids) == EVENING_GAMES and ids[-1] == f"{TABLE}-{EVENING_GAMES + 4:016x}"
    assert re.fullmatch(rf"{TABLE}-0+5", ids[0])
