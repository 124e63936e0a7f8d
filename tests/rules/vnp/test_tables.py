"""The board's tables (VNP-1..VNP-4): what a new board works out from the geometry's
blocks, without listing the placements, is what the placements themselves give; and a new
game builds neither the placements nor the conflict tables until a piece is placed
or the referee prepares them, once the table is ready."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.vnp.referee import VnpReferee
from companion.games.vnp.rules import (
    PIECES,
    Colour,
    Crossing,
    Place,
    apply,
    geometry,
    legal_placements,
    new_game,
)
from companion.games.vnp.rules import make_config as vnp_config
from companion.games.vnp.rules.board import Tables, bits_of, tables
from companion.games.vnp.rules.pieces import Geometry
from companion.journal import read_journal

SCENARIOS = Path(__file__).parents[2] / "referee" / "vnp" / "scenarios"


def built(thing: object, name: str) -> bool:
    """`thing`'s attribute `name` is built (read without building it)."""
    try:
        object.__getattribute__(thing, name)
    except AttributeError:
        return False
    return True


@pytest.mark.parametrize("size", [5, 8, 13])
def test_the_blocks_give_each_placements_id_piece_and_intersections(size: int) -> None:
    g = geometry(size)
    assert g.count == len(g.placements)
    assert g.piece_of == tuple(p.piece for p in g.placements)
    for b in g.blocks:
        for k in range(b.columns * b.rows):
            dy, dx = divmod(k, b.columns)
            p = g.placements[b.first + k]
            assert p.piece == b.piece
            assert sorted(p.points) == sorted(g.point_id((x + dx, y + dy)) for x, y in b.points)
    for point in range(size * size):
        assert sorted(g.touching(point)) == [p.id for p in g.placements if point in p.points]


@pytest.mark.parametrize("crossing", list(Crossing))
@pytest.mark.parametrize("size", [5, 13])
def test_a_new_boards_tables_are_those_of_its_placements(size: int, crossing: Crossing) -> None:
    g, t = geometry(size), tables(size, crossing)
    assert t.count == len(g.placements) and t.full == (1 << t.count) - 1
    for piece in PIECES:
        ids = [p.id for p in g.placements if p.piece == piece.index]
        assert t.keep_piece[piece.index] == t.full ^ bits_of(ids, t.count)  # VNP-1
    for n, bits in zip(range(4, 0, -1), t.by_size, strict=True):
        assert bits == bits_of([p.id for p in g.placements if PIECES[p.piece].size == n], t.count)
    for point in range(size * size):
        assert t.touching_at(point) == t.touching[point]  # VNP-3: a first piece's choices


def test_a_new_game_builds_no_placement_until_one_is_placed() -> None:
    """Start to ready on a Pi (issue 41): a new game and its legal placements need the
    blocks only; the first placement builds the rest, and is checked by it."""
    geometry.cache_clear()
    tables.cache_clear()
    state, _ = new_game(vnp_config(), 0)
    g, t = geometry(13), tables(13, Crossing.NEXOS)
    assert isinstance(g, Geometry)

    assert not built(g, "placements") and not built(t, "forbids") and not built(t, "touching")
    start = g.point_id((2, 2))
    assert legal_placements(state, 0) == tuple(sorted(g.touching(start)))  # VNP-3
    assert not built(g, "placements") and not built(t, "forbids")
    pid = g.touching(start)[0]
    after, _ = apply(state, Place(Colour.JAUNE, pid))
    assert built(g, "placements") and built(t, "forbids")
    assert pid in after.placed[0]
    with pytest.raises(AttributeError):
        _ = t.nothing  # type: ignore[attr-defined]


def test_the_referee_builds_them_once_the_table_is_ready() -> None:
    """The service calls `prepare` after "ready", before the first input: the first
    placement does not wait for the tables."""
    geometry.cache_clear()
    tables.cache_clear()
    referee = VnpReferee(read_journal(SCENARIOS / "two_players.jsonl").setup)
    g, t = geometry(referee.config.size), tables(referee.config.size, referee.config.crossing)
    assert not built(g, "placements") and not built(t, "users")
    referee.prepare()
    assert built(g, "placements") and built(t, "users") and built(t, "forbids")
    assert type(g) is Geometry and type(t) is Tables  # no lookup hook left once built
