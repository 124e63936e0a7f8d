"""How interesting a game is, from its records: Browne's self-play measures.

Each game's record carries the story of its lead (`GameRecord.leads`: the seats' scores
each time they changed) and the legal choices of its moves (`GameRecord.choices`). From
them, per game: how often the lead changed hands, from how far into the game its winner
led for good (a game decided early is known early), whether the winner came back from
behind after the middle, how many legal choices a move offered, and how many decisions a
game took.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from functools import partial
from itertools import groupby
from operator import attrgetter, is_not

from companion.lab.model import GameRecord, Lead


def leader(scores: Sequence[float]) -> int | None:
    """The seat with the most, or None when several share the most."""
    best = max(scores)
    return scores.index(best) if scores.count(best) == 1 else None


_AT = attrgetter("at")
_SOMEONE = partial(is_not, None)
"""A moment with a leader alone."""

_READ: dict[int, tuple[Sequence[Lead], list[int | None]]] = {}
"""The stories last read and their leaders, by identity: a game's figures read its story
twice, and a tally reads a few games' figure by figure (`companion.lab.tally.BATCH`)."""
_KEPT = 128
"""Stories kept at most (each keeps its own alive, so no other reuses its identity)."""


def leaders(leads: Sequence[Lead]) -> list[int | None]:
    """The leader at each moment of the story (`leader`)."""
    read = _READ.get(id(leads))
    if read is not None and read[0] is leads:
        return read[1]
    found = [leader(lead.scores) for lead in leads]
    if len(_READ) >= _KEPT:
        _READ.clear()
    _READ[id(leads)] = (leads, found)
    return found


def lead_changes(leads: Sequence[Lead]) -> int:
    """How many times the lead passed from one seat to another (a shared lead in between
    is no change of its own: A, then A and B level, then B is one change)."""
    runs = len(list(groupby(filter(_SOMEONE, leaders(leads)))))  # the leads alone, in turn
    return max(0, runs - 1)


def decided_at(record: GameRecord) -> float | None:
    """How far into the game (the share of its actions played) its sole winner took the
    lead alone for good; None for a game with no sole winner or no score."""
    if len(record.winners) != 1 or not record.leads or record.actions <= 0:
        return None
    winner = record.winners[0]
    since: int | None = None  # the first moment of the winner's last lead alone
    for lead, now in zip(reversed(record.leads), reversed(leaders(record.leads)), strict=True):
        if now != winner:
            break
        since = lead.at
    return None if since is None else min(1.0, since / record.actions)


def comeback(record: GameRecord) -> bool | None:
    """Whether the sole winner was behind (another seat had more) at some moment past the
    middle of the game; None for a game with no sole winner or no score."""
    if len(record.winners) != 1 or not record.leads:
        return None
    winner = record.winners[0]
    leads = record.leads
    past = bisect_right(leads, record.actions / 2, key=_AT)  # the moments past the middle
    return any(max(lead.scores) > lead.scores[winner] for lead in leads[past:])


def branching(record: GameRecord) -> float | None:
    """Legal choices per move counted; None where they were not counted."""
    total, moves = record.choices
    return total / moves if moves else None
