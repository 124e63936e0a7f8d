"""How interesting a game is, from its records: Browne's self-play measures.

Each game's record carries the story of its lead (`GameRecord.leads`: the seats' scores
each time they changed) and the legal choices of its moves (`GameRecord.choices`). From
them, per game: how often the lead changed hands, from how far into the game its winner
led for good (a game decided early is known early), whether the winner came back from
behind after the middle, how many legal choices a move offered, and how many decisions a
game took.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from companion.lab.model import GameRecord, Lead


def leader(scores: Sequence[float]) -> int | None:
    """The seat with the most, or None when several share the most."""
    best = max(scores)
    return scores.index(best) if scores.count(best) == 1 else None


class Story(NamedTuple):
    """A game's lead figures, read in one pass over its story (`story`)."""

    changes: int
    """How many times the lead passed from one seat to another (`lead_changes`)."""
    decided: float | None
    """From how far into the game its sole winner led alone for good (`decided_at`)."""
    comeback: bool | None
    """Whether the sole winner was behind past the middle (`comeback`)."""


def _walk(leads: Sequence[Lead], winner: int | None, half: float) -> tuple[int, int | None, bool]:
    """One pass over a story: (the lead's changes, the first moment of `winner`'s last
    lead alone, None if the story does not end with it, whether `winner` was behind at a
    moment past `half`). A shared lead in between is no change of its own: A, then A and B
    level, then B is one change."""
    runs = 0  # runs of a sole leader, the shared moments left out
    last = None  # the last sole leader
    since = None
    behind = False
    for at, scores in leads:
        best = max(scores)  # `leader`, inline: a story has ~70 moments a game
        now = scores.index(best) if scores.count(best) == 1 else None
        if now is not None and now != last:
            runs += 1
            last = now
        if now is None or now != winner:
            since = None
        elif since is None:
            since = at
        if winner is not None and at > half and best > scores[winner]:
            behind = True
    return max(0, runs - 1), since, behind


_READ: dict[int, tuple[GameRecord, Story]] = {}
"""The records last read and their stories, by identity: a tally reads a few games'
figures one figure at a time (`companion.lab.tally.BATCH`)."""
_KEPT = 128
"""Stories kept at most (each keeps its record alive, so no other reuses its identity)."""


def story(record: GameRecord) -> Story | None:
    """The lead figures of a game with a score (None for one without: no `leads`)."""
    read = _READ.get(id(record))
    if read is not None and read[0] is record:
        return read[1]
    if not record.leads:
        return None
    sole = record.winners[0] if len(record.winners) == 1 else None
    changes, since, behind = _walk(record.leads, sole, record.actions / 2)
    decided = None
    if sole is not None and since is not None and record.actions > 0:
        decided = min(1.0, since / record.actions)
    found = Story(changes, decided, None if sole is None else behind)
    if len(_READ) >= _KEPT:
        _READ.clear()
    _READ[id(record)] = (record, found)
    return found


def lead_changes(leads: Sequence[Lead]) -> int:
    """How many times the lead passed from one seat to another (a shared lead in between
    is no change of its own: A, then A and B level, then B is one change)."""
    return _walk(leads, None, 0.0)[0]


def decided_at(record: GameRecord) -> float | None:
    """How far into the game (the share of its actions played) its sole winner took the
    lead alone for good; None for a game with no sole winner or no score."""
    found = story(record)
    return None if found is None else found.decided


def comeback(record: GameRecord) -> bool | None:
    """Whether the sole winner was behind (another seat had more) at some moment past the
    middle of the game; None for a game with no sole winner or no score."""
    found = story(record)
    return None if found is None else found.comeback


def branching(record: GameRecord) -> float | None:
    """Legal choices per move counted; None where they were not counted."""
    total, moves = record.choices
    return total / moves if moves else None
