"""What a game gives the virtual table (`Game.virtual`, companion/web/virtual.py): its
kit, and the touches a seat's move makes, as a real table's readers and buttons would
report them. Here, beside the registry, so that the registry names the kit's type without
importing the web page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Report:
    """A reader's report after one hand movement: what lies on `spot` now."""

    spot: int
    uids: frozenset[str]


@dataclass(frozen=True, slots=True)
class Pressed:
    """A button pressed with the move (an announcement with its drop), by the mover."""

    control: str
    value: Any = None


Touch = Report | Pressed
"""What a move does, in order, as a real table would show it."""


class Kit(Protocol):
    """A game's virtual kit, made from the game's setup (`Game.virtual`). It runs in the
    referee loop's thread; `referee` is the game's own referee."""

    def act(self, referee: Any, seat: int, move: Mapping[str, Any]) -> Sequence[Touch]:
        """What `seat`'s hands do for `move` (a JSON object from its paired phone), in
        order; raises `Refused` (a sentence in the table's language, `refused` or the
        game's own words) when those hands may not make it now: another seat's token, a
        spot outside the table, not that seat's turn. Changes nothing when it raises."""
        ...

    def seat_view(self, referee: Any, seat: int) -> dict[str, Any]:
        """What only `seat` sees (its hand, its secret card, what it placed), and the moves
        its hands may make now: JSON-ready, sent to that seat's paired phone only."""
        ...

    def to_json(self) -> dict[str, Any]:
        """What the kit holds that the referee does not know (read back by `restore`)."""
        ...

    def restore(self, data: Mapping[str, Any]) -> None:
        """Take back what `to_json` gave (raises ValueError, KeyError or TypeError when it
        is not that: the kit then starts afresh)."""
        ...
