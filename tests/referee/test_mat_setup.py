"""A game on its own 3 x 3 mat (Flip Done, Swiped) checks its setup itself, before anything
else (`check_mat_game`): its number of seats, a first player who is one of them, no hat
layout. Each is refused with its own words: what to fix."""

from __future__ import annotations

import pytest

from companion import games
from companion.journal import Setup
from companion.referee.pace import SetupError, check_mat_game

MAT_GAMES = [("flipdone", "Flip Done", 3), ("swiped", "Swiped", 2)]


@pytest.mark.parametrize(("game", "title", "players"), MAT_GAMES)
def test_the_first_player_is_one_of_the_seats_and_any_of_them(
    game: str, title: str, players: int
) -> None:
    seats = tuple(f"seat {i + 1}" for i in range(players))
    for first in range(players):  # the last seat too
        check_mat_game(Setup(game, seats, {}, first=first), players, title)
    for first in (players, players + 1, -1):  # one past the last seat, first of all
        with pytest.raises(
            SetupError,
            match=rf"^first: the first player is a seat 0 to {players - 1}, not `{first}`$",
        ):
            games.make_referee(Setup(game, seats, {}, first=first))


@pytest.mark.parametrize(("game", "title", "players"), MAT_GAMES)
def test_the_number_of_seats_is_the_games(game: str, title: str, players: int) -> None:
    for count in (players - 1, players + 1):
        seats = tuple(f"seat {i + 1}" for i in range(count))
        with pytest.raises(
            SetupError, match=rf"^players: {title} is for {players} players, not `{count}`$"
        ):
            games.make_referee(Setup(game, seats, {}))
