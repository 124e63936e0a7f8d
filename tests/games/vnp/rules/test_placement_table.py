"""The page's placement table: every placement id of a board size, decoded as the page
decodes it (companion/games/vnp/static/view.js, `Placements`), is that placement's piece
and segments (VNP-1, VNP-2)."""

from __future__ import annotations

import bisect

import pytest

from companion import games
from companion.games.vnp.page import placement_table, segments_of
from companion.games.vnp.rules import PIECES, geometry


def decode(table: dict, pid: int) -> tuple[str, list[list[int]]]:
    """The page's arithmetic: the block of the id, then its position in the block."""
    blocks = table["blocks"]
    block = blocks[bisect.bisect_right([b[0] for b in blocks], pid) - 1]
    first, piece, columns, shape = block
    dy, dx = divmod(pid - first, columns)
    return piece, [[x1 + dx, y1 + dy, x2 + dx, y2 + dy] for x1, y1, x2, y2 in shape]


@pytest.mark.parametrize("size", [5, 7, 13])
def test_every_id_decodes_to_its_placement(size: int) -> None:
    table = placement_table(size)
    g = geometry(size)
    assert table["size"] == size and table["count"] == len(g.placements)
    for p in g.placements:
        piece, segments = decode(table, p.id)
        assert piece == PIECES[p.piece].name
        assert sorted(segments) == sorted(segments_of(size, p.id)), p.id


def test_the_table_is_small_data_served_for_every_allowed_size() -> None:
    """A block per piece and orientation: the same count on every size, far fewer than the
    placements (13 x 13: 15,157)."""
    data = games.get("vnp").page_data
    assert "pieces" in data and "placements-5" in data and "placements-40" in data
    assert "placements-4" not in data and "placements-41" not in data and "x" not in data
    small, usual = data["placements-5"](), data["placements-13"]()
    assert usual == placement_table(13)
    orientations = sum(len(p.orientations) for p in PIECES)
    assert len(small["blocks"]) == len(usual["blocks"]) == orientations
    assert orientations < 150 < usual["count"]
