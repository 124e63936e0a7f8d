"""The board's tables (VNP-1..VNP-4): what a board works out from the geometry's blocks,
without listing the placements (a new game, a resumed one, a first placement), is what the
placements and the conflict tables give; the referee builds those once the table is
ready."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from companion.games.vnp.referee import VnpReferee
from companion.games.vnp.rules import (
    PIECES,
    Colour,
    Crossing,
    Place,
    State,
    apply,
    geometry,
    legal_placements,
    new_game,
)
from companion.games.vnp.rules import make_config as vnp_config
from companion.games.vnp.rules.board import (
    ONE_BY_ONE,
    Ids,
    Tables,
    _TablesToBuild,
    bits_of,
    nth_bit,
    tables,
)
from companion.games.vnp.rules.pieces import Geometry, _GeometryToPlace
from companion.journal import read_journal

SCENARIOS = Path(__file__).parents[1] / "referee" / "scenarios"


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
        assert g.placements[b.first] == b.corner  # the block's placement at the corner
        for k in range(b.columns * b.rows):
            dy, dx = divmod(k, b.columns)
            p = g.placements[b.first + k]
            assert p.piece == b.piece
            assert sorted(p.points) == sorted(g.point_id((x + dx, y + dy)) for x, y in b.points)
    for point in range(size * size):
        here = g.point(point)
        assert sorted(g.covering("points", here)) == [
            p.id for p in g.placements if point in p.points
        ]
        for at, mask in (("straight", g.straight_masks), ("inner", g.inner_masks)):
            wanted = [pid for pid, bits in enumerate(mask) if bits >> point & 1]
            assert sorted(g.covering(at, here)) == wanted
    for segment in range(g.segment_count):
        end = g.segment(segment)[0]
        at = "across" if segment < g.segment_count // 2 else "down"
        assert sorted(g.covering(at, end)) == [p.id for p in g.placements if segment in p.segments]
    unbuilt = _GeometryToPlace(size)
    assert all(unbuilt.placement(p.id) == p for p in g.placements)


@pytest.mark.parametrize("crossing", list(Crossing))
@pytest.mark.parametrize("size", [5, 13])
def test_a_new_boards_tables_are_those_of_its_placements(size: int, crossing: Crossing) -> None:
    g, t = geometry(size), tables(size, crossing)
    assert t.count == len(g.placements) and t.full == (1 << t.count) - 1
    for piece in PIECES:
        ids = [p.id for p in g.placements if p.piece == piece.index]
        assert t.keep_piece[piece.index] == t.full ^ bits_of(ids, t.count)  # VNP-1
    top = t.count  # a size's ids run up to the next larger size's: the largest at the top
    for n, bits, first in zip(range(4, 0, -1), t.by_size, t.first_of_size, strict=True):
        assert bits == bits_of([p.id for p in g.placements if PIECES[p.piece].size == n], t.count)
        assert bits == (1 << top) - (1 << first)
        top = first
    assert top == 0
    for point in range(size * size):
        assert t.touching_at(point) == t.touching[point]  # VNP-3: a first piece's choices


def test_a_new_game_and_its_first_placement_build_no_table() -> None:
    """Start to ready on a Pi (issue 41): a new game, its legal placements and a first
    placement need the blocks only."""
    geometry.cache_clear()
    tables.cache_clear()
    state, _ = new_game(vnp_config(), 0)
    g, t = geometry(13), tables(13, Crossing.NEXOS)
    assert isinstance(g, Geometry)

    assert not built(g, "placements") and not built(t, "forbids")
    touching = g.covering("points", (2, 2))
    assert legal_placements(state, 0) == tuple(sorted(touching))  # VNP-3
    assert not built(g, "placements") and not built(t, "forbids")
    pid = touching[0]
    after, _ = apply(state, Place(Colour.JAUNE, pid))
    assert pid in after.placed[0]
    assert not built(g, "placements") and not built(t, "forbids")  # worked out for it alone
    with pytest.raises(AttributeError):
        _ = t.nothing  # type: ignore[attr-defined]


def test_the_referee_builds_them_once_the_table_is_ready() -> None:
    """The service calls `warm_up` after "ready", before the first input: no placement
    of the games the table then plays waits for the tables."""
    geometry.cache_clear()
    tables.cache_clear()
    referee = VnpReferee(read_journal(SCENARIOS / "two_players.jsonl").setup)
    g, t = geometry(referee.config.size), tables(referee.config.size, referee.config.crossing)
    assert not built(g, "placements") and not built(t, "users")
    referee.warm_up()
    assert built(g, "placements") and built(t, "users") and built(t, "forbids")
    assert type(g) is Geometry and type(t) is Tables  # no lookup hook left once built


@pytest.mark.parametrize("crossing", list(Crossing))
@pytest.mark.parametrize("size", [5, 9])
def test_what_a_placement_forbids_is_the_same_built_or_not(size: int, crossing: Crossing) -> None:
    """VNP-4: worked out for one placement from the blocks (a resumed game's), or from the
    conflict tables (the lab's, a table's once ready): the same placements forbidden."""
    built_tables, unbuilt = tables(size, crossing), _TablesToBuild(size, crossing)
    built_tables.build()
    for pid in range(built_tables.count):
        assert unbuilt.conflict_from_blocks(pid) == built_tables.conflict(pid), pid
        assert unbuilt.points[pid] == built_tables.points[pid]
    assert not built(unbuilt, "users")


def test_a_resumed_game_builds_no_table() -> None:
    """A journal's position (a resumed game) is replayed placement by placement, each
    worked out for itself: the start to ready of a resumed game waits for no table."""
    journal = read_journal(SCENARIOS / "two_players.jsonl")
    referee = VnpReferee(journal.setup)
    for record in journal.inputs[:20]:
        referee.feed(record)
    placed = referee.state.placed
    geometry.cache_clear()
    tables.cache_clear()
    again = State(referee.config, referee.state.turn, placed, referee.state.passed)
    t = tables(referee.config.size, referee.config.crossing)
    assert not built(t, "users") and not built(geometry(referee.config.size), "placements")
    assert again.legal(again.turn) == referee.state.legal(referee.state.turn)
    assert sum(map(len, placed)) == 20


def test_a_board_playing_more_than_a_games_placements_builds_the_tables() -> None:
    """Past a whole game's placements worked out one by one (a lab's, a bot's many games),
    the conflict tables are built and read instead: the same placements forbidden."""
    t = _TablesToBuild(7, Crossing.NEXOS)
    worked_out = [t.keep(pid) for pid in range(ONE_BY_ONE)]
    assert not built(t, "users")
    kept = t.keep(ONE_BY_ONE)  # the placement one past a whole game's builds them
    assert type(t) is Tables and built(t, "users")
    assert kept == t.full ^ t.conflict(ONE_BY_ONE)
    assert worked_out == [t.full ^ t.conflict(pid) for pid in range(ONE_BY_ONE)]


def test_threads_reading_an_unbuilt_board_at_once_share_one_build() -> None:
    """The referee's loop and the page's thread may read a new board's placements at
    the same moment: one builds, the other waits and reads the same tables."""
    fresh = _GeometryToPlace(9)
    start = threading.Barrier(4)
    seen: list[object] = []

    def read() -> None:
        start.wait()
        seen.append(fresh.by_segments)

    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert type(fresh) is Geometry
    assert len(seen) == 4 and all(s is seen[0] for s in seen)


def test_the_ids_of_a_bitset_read_one_at_a_time_are_its_legal_ids() -> None:
    """What the bots draw from (`rng.choice(Ids(bits))`): the legal ids, in order, one at a
    time, and nothing past the last, so no bot picks a placement that is not legal."""
    state, _ = new_game(vnp_config(), 0)
    for bits in (0, 1, 0b1010_0110, state.legal(0)):
        ids = Ids(bits)
        expected = [i for i in range(bits.bit_length()) if bits >> i & 1]
        assert len(ids) == len(expected) and list(ids) == expected
        with pytest.raises(IndexError):
            ids[len(ids)]
    assert list(Ids(state.legal(0))) == list(legal_placements(state, 0))


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 7, 8, 9, 70, 400])
def test_every_id_of_a_bitset_is_read_in_order(count: int) -> None:
    """Halving, and dropping the few set bits below or above: each id at its rank, read
    from an offset below every id (a size's first placement) or not."""
    rng = random.Random(count)
    for width in (60, 700, 20_000):
        ids = sorted(rng.sample(range(width // 3, width), min(count, width - width // 3)))
        bits = sum(1 << i for i in ids)
        assert [nth_bit(bits, k, len(ids)) for k in range(len(ids))] == ids
        assert [nth_bit(bits, k) for k in range(len(ids))] == ids
        assert list(Ids(bits, width // 3)) == list(Ids(bits)) == ids
        with pytest.raises(IndexError):
            Ids(bits, width // 3)[len(ids)]


def test_a_lookup_worked_out_item_by_item_has_no_length() -> None:
    """Before the conflict tables are built, `touching` is worked out per intersection:
    it cannot say how many there are."""
    unbuilt = _TablesToBuild(7, Crossing.NEXOS)
    assert unbuilt.touching[0] == unbuilt.touching_at(0)
    with pytest.raises(TypeError, match="item by item"):
        len(unbuilt.touching)
