"""Vous ne passerez pas ! on the page: the pieces and placements the page draws, and what
a phone's action becomes in the journal.

The page's board (`VnpReferee.board_view`) names every placement by its id in the board's
precomputed placements (`geometry(size)`): the pieces on the board, the legal placements,
the last one and the hint. The page turns ids into segments with the board size's
placement table (`placement_table`, fetched once as the page data `placements-SIZE`), so
a change of the board sends a few numbers, not the segments of every legal placement.

The page sends a placement as its segments (the page turns and flips pieces itself);
here the segments become the id of the board's precomputed placement
(`geometry(size).by_segments`), or a clear refusal. A colour is the engine's name or its
name in either language; a seat may only name a colour it plays (VNP-7); the referee
checks it again, whatever the page sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from companion.games.vnp.rules import COLOURS, PIECES, geometry
from companion.games.vnp.rules.pieces import Mid, ends
from companion.games.vnp.words import PREFIX
from companion.screens.text import DEFAULT_LANGUAGE, phrase, typed_kind
from companion.web.errors import Refused, told


def pieces() -> dict[str, Any]:
    """VNP-1: every piece's canonical shape, as segments [x1, y1, x2, y2] from (0, 0)."""
    return {
        "pieces": [
            {"name": piece.name, "size": piece.size, "segments": _segments(piece.shape)}
            for piece in PIECES
        ]
    }


def _segments(shape: tuple[Mid, ...]) -> list[list[int]]:
    """A shape's unit segments as [x1, y1, x2, y2], smaller end first."""
    out = []
    for mid in shape:
        (a1, b1), (a2, b2) = ends(mid)
        out.append([a1 // 2, b1 // 2, a2 // 2, b2 // 2])
    return out


def _unit_segments(size: int, segment_ids: tuple[int, ...]) -> list[list[int]]:
    """Segments by id as [x1, y1, x2, y2], smaller end first, in the ids' order."""
    g = geometry(size)
    return [[*a, *b] for a, b in (g.segment(s) for s in segment_ids)]


def segments_of(size: int, pid: int) -> list[list[int]]:
    """Placement `pid`'s unit segments on a `size` board: as the page draws and sends
    them."""
    return _unit_segments(size, geometry(size).placement(pid).segments)


@cache
def placement_table(size: int) -> dict[str, Any]:
    """Every placement of a `size` board as the page decodes an id: the geometry's blocks
    (`Block`: a piece in one orientation at every position), `[first id, piece name,
    columns, segments at (0, 0)]` each. Placement `first + k` is the block's segments
    moved right by `k % columns` and down by `k // columns` (tests/games/vnp/rules checks every
    id of several sizes)."""
    g = geometry(size)
    blocks = [
        [b.first, PIECES[b.piece].name, b.columns, _unit_segments(size, b.corner.segments)]
        for b in g.blocks
    ]
    return {"size": size, "count": g.count, "blocks": blocks}


def said(key: str, lang: str, **fields: object) -> str:
    """A refusal of the page in `lang` (`words.PAGE_REFUSALS`), the colours named in it in
    `lang` (``colour``: one; ``colours``: the list of them)."""
    if "colour" in fields:
        fields["colour"] = _named(str(fields["colour"]), lang)
    if "colours" in fields:
        fields["colours"] = ", ".join(_named(colour, lang) for colour in COLOURS)
    return phrase(f"{PREFIX}page.{key}", lang, **fields)


def _named(colour: str, lang: str) -> str:
    return phrase(f"{PREFIX}colour.{colour}", lang).lower()


def colour_of(value: object) -> str | None:
    """The colour a page's action names: as the engine spells it, or by its name in
    either language ("yellow", "Jaune"); None for anything else."""
    if not isinstance(value, str):
        return None
    return typed_kind(value, COLOURS, _named, DEFAULT_LANGUAGE)


def refused(status: int, key: str, **fields: Any) -> Refused:
    """A refusal said in the table's language."""
    return told(status, key, words=said, **fields)


def press_value(control: str, value: Any, seat: int, board: Mapping[str, Any]) -> Any:
    """The journal value of a page action of `seat` (see the module's docstring)."""
    if control in ("hint", "back"):
        if value is not None:
            raise refused(400, "no_value", control=control)
        return None
    if not isinstance(value, dict):
        raise refused(400, "needs_colour", control=control)
    colour = colour_of(value.get("colour"))
    if colour is None:
        raise refused(400, "colour", colours=COLOURS)
    seats = board.get("colour_seats") or []
    index = COLOURS.index(colour)
    if index < len(seats) and seats[index] != seat:
        raise refused(403, "not_your_colour", colour=colour)
    if control == "pass":
        if set(value) != {"colour"}:
            raise refused(400, "pass_keys")
        return {"colour": str(colour)}
    if set(value) != {"colour", "segments"}:
        raise refused(400, "place_keys")
    return {"colour": str(colour), "placement": _placement(value["segments"], board)}


def _placement(segments: Any, board: Mapping[str, Any]) -> int:
    size = board.get("size")
    if not isinstance(size, int):
        raise refused(409, "no_board")
    g = geometry(size)
    if not isinstance(segments, list) or not 1 <= len(segments) <= 4:
        raise refused(400, "segments")
    ids = set()
    for segment in segments:
        if not (
            isinstance(segment, list)
            and len(segment) == 4
            and all(isinstance(c, int) and not isinstance(c, bool) for c in segment)
        ):
            raise refused(400, "segment")
        x1, y1, x2, y2 = segment
        try:
            ids.add(g.segment_id(((x1, y1), (x2, y2))))
        except ValueError as exc:
            raise refused(400, "not_unit", segment=segment) from exc
    placement = g.by_segments.get(frozenset(ids))
    if placement is None:
        raise refused(400, "not_piece")
    return placement
