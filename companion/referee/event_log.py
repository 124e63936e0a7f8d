"""A referee's events, numbered from the game's start, of which it may keep only the last.

Every consumer of a referee's events (the web page's history, a console's transcript,
`companion demo`) reads them as a cursor: `len(events)` is how many the game has made so
far and `events[seen:]` the new ones since. `EventLog` keeps that numbering when it keeps
only the most recent events, so a live game's memory does not grow with its inputs (a
refused press is an event; a table with restless players makes thousands).

Unbounded (`keep=None`, the default) it is a list: `companion replay`, the lab and the
simulations read every event. A live `Session` bounds it (`EVENTS_KEPT` in session.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Generic, NotRequired, TypedDict, TypeVar, overload

T = TypeVar("T")


class TableEvent(TypedDict):
    """A referee's event as the core reads it: a JSON object with its time and kind.

    The keys below are the only ones the core (journal readers, transcript, page, lab)
    may read; they mean the same in every game. Every other key is the game's own, read
    only by that game's package (its describer, its lab figures), so a game's events are
    typed where they cross into the core and free inside the game."""

    t: float
    """When it happened, in the table's seconds (rounded to the millisecond)."""
    kind: str
    """What happened: the core's shared kinds are fault, fixed, ignored, undo, resume,
    game_won; any other is the game's own."""
    seat: NotRequired[int | None]
    """The seat it is about, when one is (None: the console's own button)."""
    reason: NotRequired[str]
    """Why (a fault's or a refused press's reason key)."""
    spot: NotRequired[int | None]
    """The spot (or, for `off_mat`, the reader) it happened at, if any."""
    control: NotRequired[str]
    """The button of a refused press."""
    step: NotRequired[str]
    """What an undo took back."""


class EventLog(Generic[T]):
    """Events numbered 0, 1, 2... from the start; with `keep`, only the last `keep` (at
    least, at most twice as many: older ones are dropped in batches) stay in memory.

    `len()` counts every event ever appended; an index or a slice is by that number (a
    negative one from the end); a slice starting before the oldest event kept starts at
    it. Equal to a list, or another log, holding the same events kept."""

    __slots__ = ("_first", "_items", "keep")

    def __init__(self, items: Iterable[T] = (), keep: int | None = None) -> None:
        self._items: list[T] = list(items)
        self._first = 0
        """The number of the oldest event kept (how many were dropped)."""
        self.keep = keep
        self._trim()

    @property
    def first(self) -> int:
        """The number of the oldest event still kept."""
        return self._first

    def bound(self, keep: int | None) -> None:
        """Keep only the last `keep` events from now on (None: every one)."""
        if keep is not None and keep < 1:
            raise ValueError(f"an event log keeps at least one event, not {keep}")
        self.keep = keep
        self._trim()

    def append(self, item: T) -> None:
        self._items.append(item)
        self._trim()

    def extend(self, items: Iterable[T]) -> None:
        self._items.extend(items)
        self._trim()

    def _trim(self) -> None:
        """Drop the oldest events once twice `keep` are kept (amortised: one batch of
        `keep` at a time, not one event per append)."""
        keep = self.keep
        if keep is None or len(self._items) < 2 * keep:
            return
        drop = len(self._items) - keep
        del self._items[:drop]
        self._first += drop

    def __len__(self) -> int:
        return self._first + len(self._items)

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            if index.step not in (None, 1):
                raise ValueError("an event log is sliced in order only")
            start, stop, _ = index.indices(len(self))
            return self._items[max(start - self._first, 0) : max(stop - self._first, 0)]
        if index < 0:
            index += len(self)
        if not self._first <= index < len(self):
            raise IndexError(f"event {index} is not kept (kept: {self._first}..{len(self) - 1})")
        return self._items[index - self._first]

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def __reversed__(self) -> Iterator[T]:
        return reversed(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog):
            return self._first == other._first and self._items == other._items
        if isinstance(other, list):
            return self._first == 0 and self._items == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __add__(self, other: Iterable[T]) -> list[T]:
        """The events kept, then ``other``'s, as a list (as two lists would add)."""
        return [*self._items, *other]

    def __radd__(self, other: Iterable[T]) -> list[T]:
        return [*other, *self._items]

    def __repr__(self) -> str:
        return f"EventLog(first={self._first}, kept={len(self._items)}, keep={self.keep})"
