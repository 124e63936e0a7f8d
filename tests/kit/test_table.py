"""The description: every game's mat (Game.mat) and the geometry the kit draws from it."""

from __future__ import annotations

import itertools
import math

from companion import games
from companion.kit.table import MODULE, Table


def test_every_game_with_spots_says_where_they_lie_in_reading_order() -> None:
    for name in games.names():
        game = games.get(name)
        for seats in game.seats:
            spots = game.spots(seats, None)
            if spots == 0:
                assert game.mat is None or not game.mat(seats, None)
                continue
            assert game.mat is not None, name
            cells = list(game.mat(seats, None))
            assert len(cells) == spots and len(set(cells)) == spots, (name, seats)
            assert cells == sorted(cells), (name, seats)  # reading order, as mats.md numbers


def test_mats_merge_games_of_one_shape(table: Table) -> None:
    by_name = {m.name: m for m in table.mats}
    assert set(by_name) == {"2x3", "3x3", "3x4", "3x5", "3x6"}
    assert {"flipdone, 3 seats", "swiped, 2 seats", "ptipasspass, 3 seats"} <= set(
        by_name["3x3"].users
    )
    assert table.pad_only == ("vnp",)


def test_neighbours_are_a_pitch_apart_and_the_pad_further(table: Table) -> None:
    for mat in table.mats:
        centres = [mat.centre(r) for r in range(1, mat.spots + 1)]
        nearest = min(math.dist(a, b) for a, b in itertools.combinations(centres, 2))
        assert nearest == table.kit.pitch
        assert min(math.dist(mat.centre(0), c) for c in centres) >= table.kit.pitch
        width, height = mat.size
        for x, y in centres:  # every module lies on the mat
            assert MODULE.width / 2 <= x <= width - MODULE.width / 2
            assert MODULE.above <= y and y + MODULE.header < height


def test_every_cable_runs_from_its_header_to_the_board_in_straight_runs(table: Table) -> None:
    for mat in table.mats:
        for reader in range(mat.spots + 1):
            route = mat.route(reader)
            x, y = mat.centre(reader)
            assert route[0] == (x, y + MODULE.header) and route[-1] == mat.board
            for (x1, y1), (x2, y2) in itertools.pairwise(route):
                assert x1 == x2 or y1 == y2
            assert mat.cable(reader, table.kit.slack) % 50 == 0
