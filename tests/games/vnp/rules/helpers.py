"""Hand-built Vous ne passerez pas ! positions: pieces drawn as intersections (x, y)."""

from __future__ import annotations

from companion.games.vnp.rules import COLOURS, Colour, Config, State, geometry, make_config

Point = tuple[int, int]


def pid(*paths: tuple[Point, ...], size: int = 13) -> int:
    """The placement id of the piece drawn by one or more paths of neighbouring
    intersections, e.g. pid(((1, 2), (2, 2), (3, 2))) for a straight 2 through (2, 2)."""
    g = geometry(size)
    segments = frozenset(
        g.segment_id((a, b)) for path in paths for a, b in zip(path, path[1:], strict=False)
    )
    return g.by_segments[segments]


def line(*points: Point, size: int = 13) -> int:
    return pid(points, size=size)


def position(
    config: Config | None = None,
    turn: str = "jaune",
    passed: tuple[str, ...] = (),
    **placed: tuple[int, ...],
) -> State:
    """A state with the given placement ids per colour (by name) and colour to play."""
    cfg = config or make_config()
    return State(
        config=cfg,
        turn=COLOURS.index(Colour(turn)),
        placed=tuple(tuple(placed.get(str(c), ())) for c in COLOURS),
        passed=tuple(str(c) in passed for c in COLOURS),
    )
