"""Hat layouts: spots, which spots are contiguous, and which triples are lines.

The rule books' figures are lost; RULINGS PTI-2 gives the grids and PTI-3 the lines.
A layout is plain data so that a table may supply its own (any set of grid positions):
spots are numbered 1..N in reading order (row by row, left to right), contiguity is
orthogonal adjacency (diagonals are the lost figure's "red crosses"), and a line is three
consecutive spots in one row or one column, never a diagonal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

Position = tuple[int, int]
Line = tuple[int, int, int]

# PTI-2: rows x columns of hats for each number of players.
GRIDS: dict[int, tuple[int, int]] = {2: (2, 3), 3: (3, 3), 4: (3, 4), 5: (3, 5), 6: (3, 6)}


class LayoutError(ValueError):
    """A layout that cannot be played: duplicate positions, too few spots, no line. Its
    message is the engine's (English); `kind` and `fields` say why for the table's words
    (the referee says it in the table's language)."""

    def __init__(self, message: str, kind: str, **fields: object) -> None:
        super().__init__(message)
        self.kind = kind
        self.fields = fields


@dataclass(frozen=True, slots=True)
class Layout:
    """Hats on a grid. `positions[i]` is the (row, column) of spot i + 1."""

    name: str
    positions: tuple[Position, ...]
    adjacent: frozenset[frozenset[int]] = field(init=False, repr=False, compare=False)
    lines: tuple[Line, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.positions) < 3:
            raise LayoutError(f"layout {self.name!r} has {len(self.positions)} spots; need 3",
                              "few", name=self.name, n=len(self.positions))  # fmt: skip
        if len(set(self.positions)) != len(self.positions):
            raise LayoutError(f"layout {self.name!r} puts two spots on one position", "twice",
                              name=self.name)  # fmt: skip
        if list(self.positions) != sorted(self.positions):
            raise LayoutError(
                f"layout {self.name!r}: spots must be numbered in reading order "
                "(row by row, left to right)",
                "order",
                name=self.name,
            )
        spot_at = {pos: i + 1 for i, pos in enumerate(self.positions)}
        adjacent = set()
        lines = []
        for (row, col), spot in spot_at.items():
            for d_row, d_col in ((0, 1), (1, 0)):
                neighbour = spot_at.get((row + d_row, col + d_col))
                if neighbour is not None:
                    adjacent.add(frozenset((spot, neighbour)))
                    third = spot_at.get((row + 2 * d_row, col + 2 * d_col))
                    if third is not None:
                        lines.append((spot, neighbour, third))
        if not lines:
            raise LayoutError(f"layout {self.name!r} has no line of three contiguous hats",
                              "no_line", name=self.name)  # fmt: skip
        object.__setattr__(self, "adjacent", frozenset(adjacent))
        object.__setattr__(self, "lines", tuple(sorted(lines)))

    @property
    def spots(self) -> int:
        return len(self.positions)

    @property
    def spot_numbers(self) -> range:
        return range(1, self.spots + 1)

    def contiguous(self, a: int, b: int) -> bool:
        """PTI-2: orthogonal neighbours only."""
        return frozenset((a, b)) in self.adjacent

    def is_line(self, spots: Iterable[int]) -> bool:
        """PTI-3: three consecutive hats of one row or column, in any order."""
        return tuple(sorted(spots)) in self.lines

    @classmethod
    def grid(cls, rows: int, cols: int, name: str | None = None) -> Layout:
        return cls(
            name or f"{rows}x{cols}",
            tuple((r, c) for r in range(rows) for c in range(cols)),
        )

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "positions": [list(p) for p in self.positions]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Layout:
        """A table's own layout: `{"name": ..., "positions": [[row, col], ...]}`."""
        try:
            positions = tuple((int(r), int(c)) for r, c in data["positions"])
        except (KeyError, TypeError, ValueError) as exc:
            raise LayoutError(
                "a layout needs 'positions': a list of [row, column] pairs in reading order",
                "positions",
            ) from exc
        return cls(str(data.get("name", "custom")), positions)


def default_layout(players: int) -> Layout:
    """PTI-2: the grid for 2..6 players."""
    if players not in GRIDS:
        raise LayoutError(f"no hat layout for {players} players (PTI-2 covers 2 to 6)",
                          "no_grid", players=players)  # fmt: skip
    rows, cols = GRIDS[players]
    return Layout.grid(rows, cols)
