"""A frozen position over a mutable board: the engine's State of a game whose rules are
played in place on a board (its core) and copied with `fork`.

The table sees only the frozen State (`apply` returns a new one); the lab, the bots and the
thinking bot play on a board. A State keeps the board of its facts, built when first read
(`_core`) or handed over by `_keep` when the State is the snapshot of a board just played,
and never hands it out: `fork` gives a copy to play on.
"""

from __future__ import annotations

from typing import Generic, Protocol, Self, TypeVar


class Forkable(Protocol):
    def fork(self) -> Self:
        """An independent copy to play on, this one unchanged."""
        ...


B = TypeVar("B", bound=Forkable)


class Snapshot(Generic[B]):
    """Base of a game's frozen, slotted State dataclass that declares the field
    `_board: Board | None = field(default=None, init=False, compare=False, repr=False)`
    and says how to build the board of its facts (`_board_of_facts`)."""

    __slots__ = ()
    _board: B | None

    def _board_of_facts(self) -> B:
        """The board of this position's facts (each game's)."""
        raise NotImplementedError

    def _core(self) -> B:
        """The board of this position, built once: for the rules package to read, never to
        play on (`fork` gives a board to play on)."""
        board = self._board
        if board is None:
            board = self._board_of_facts()
            object.__setattr__(self, "_board", board)
        return board

    def fork(self) -> B:
        """A board of this position to play on (the state itself never changes)."""
        return self._core().fork()

    def _keep(self, board: B) -> Self:
        """This snapshot, keeping `board` as the board of its facts (the caller must not
        play on it afterwards)."""
        object.__setattr__(self, "_board", board)
        return self
