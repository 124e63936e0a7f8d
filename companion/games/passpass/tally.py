"""What a PassPass game adds to the lab's figures, counted as it happens.

Both ways of measuring a game fill one `Tally`: a lab game's board tells it what happens
as it plays (the Tally is the board's `Watcher`), and the reader of a journal's events
(reader.py) fills it from what the events say, through the same counting methods. The
counts are a flat list indexed by the constants below (cheap to bump at every play), and
one `to_record` turns any tally into the same `GameRecord`, so equal games give equal
records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from companion.games.passpass.rules.board import DOUBLON, SIZE, Board, Watcher
from companion.lab.model import GameRecord, Lead

# Indices into Tally.counts. Each is a count over the whole game.
PLACEMENTS = 0
"""Designations (tokens dropped by the Magicien)."""
MASQUE_PLACEMENTS = 1
VISIBLE_PLACEMENTS = 2
"""PTI-4: the animal shown, only Doublon may be called."""
OCCUPIED_DROPS = 3
"""PTI-6: a designation into a hat that already held a token."""
DOUBLON_CALLS = 4
DOUBLON_WINS = 5
MENTEUR_CALLS = 6
MENTEUR_WINS = 7
MASQUE_CALLS = 8
MASQUE_WINS = 9
VISIBLE_CALLS = 10
VISIBLE_WINS = 11
REWARD_DROP = 12
REWARD_TOKEN = 13
REWARD_NONE = 14
"""PTI-10: a successful Challenger with nothing to drop and no token to take."""
REVEALS = 15
REVEAL_WINS = 16
SWAPS = 17
"""PTI-5: a swap of two contiguous hats before revealing."""
SWAP_REVEALS = 18
SWAP_REVEAL_WINS = 19
RICH_PICKS = 20
"""PTI-11: a winning reveal with several tokens in a lifted hat (the best pick taken)."""
DEAD_MANCHES = 21
"""PTI-15: no three hats can ever win."""
LIMIT_MANCHES = 22
"""PTI-15 (configurable): the turn limit was reached."""
TOGETHER = 23
"""PTI-7 / PHI-2: calls made together in a timed window, settled clockwise."""

COUNT_KEYS = (
    "placements", "masque_placements", "visible_placements", "occupied_drops",
    "doublon_calls", "doublon_wins", "menteur_calls", "menteur_wins",
    "masque_calls", "masque_wins", "visible_calls", "visible_wins",
    "reward_drop", "reward_token", "reward_none",
    "reveals", "reveal_wins", "swaps", "swap_reveals", "swap_reveal_wins", "rich_picks",
    "dead_manches", "limit_manches", "calls_together",
)  # fmt: skip
"""The record's `counts` key of each index, in index order."""

CALLS = "calls"
"""A count of the record made of two: every challenge called."""

SEAT_KEYS = ("calls", "call_wins", "manche_wins")
"""The record's `seat_counts` keys: challenges called and won, manches won."""

REWARDS = {"drop": REWARD_DROP, "token": REWARD_TOKEN, "none": REWARD_NONE}
"""PTI-10: a successful Challenger's choice -> its count."""


@dataclass
class Tally(Watcher):
    """One game's counts, filled while it is played (told by its board) or read."""

    players: int
    counts: list[int] = field(default_factory=lambda: [0] * len(COUNT_KEYS))
    calls: list[int] = field(default_factory=list)
    call_wins: list[int] = field(default_factory=list)
    manche_wins: list[int] = field(default_factory=list)
    manches: list[int] = field(default_factory=list)
    """Turns in each finished manche."""
    choices: list[int] = field(default_factory=lambda: [0, 0])
    """[legal choices summed, moves]: the Magicien's and the Challenger's moves (a hat
    and token, an animal, a swap or reveal, a reward); a window's choice (let it go, or
    call) is not one. The lab's self-play counts them; a journal cannot."""
    leads: list[Lead] = field(default_factory=list)
    """Manches won by each seat after each manche won, with the actions played by then
    (the story of the lead, for the lab's interest figures)."""

    def __post_init__(self) -> None:
        n = self.players
        self.calls = self.calls or [0] * n
        self.call_wins = self.call_wins or [0] * n
        self.manche_wins = self.manche_wins or [0] * n

    def copy(self) -> Tally:
        return Tally(
            self.players,
            list(self.counts),
            list(self.calls),
            list(self.call_wins),
            list(self.manche_wins),
            list(self.manches),
            list(self.choices),
            list(self.leads),
        )

    def mark_lead(self, actions: int) -> None:
        """Mark the lead after a manche was won, `actions` played (its reveal included)."""
        self.leads.append(Lead(actions, tuple(map(float, self.manche_wins))))

    # What a game adds, however it is followed: the counts each fact bumps.

    def count_designation(self, masque: bool, occupied: bool) -> None:
        """PTI-6: a token held over a hat (PTI-4: Masqué or Visible), occupied or not."""
        c = self.counts
        c[PLACEMENTS] += 1
        c[MASQUE_PLACEMENTS if masque else VISIBLE_PLACEMENTS] += 1
        if occupied:
            c[OCCUPIED_DROPS] += 1

    def count_verdict(self, seat: int, doublon: bool, success: bool, masque: bool) -> None:
        """PTI-8, PTI-9: `seat`'s challenge of a Masqué or Visible placement settled."""
        c = self.counts
        if doublon:
            c[DOUBLON_CALLS] += 1
            c[DOUBLON_WINS] += success
        else:
            c[MENTEUR_CALLS] += 1
            c[MENTEUR_WINS] += success
        if masque:
            c[MASQUE_CALLS] += 1
            c[MASQUE_WINS] += success
        else:
            c[VISIBLE_CALLS] += 1
            c[VISIBLE_WINS] += success
        self.calls[seat] += 1
        self.call_wins[seat] += success

    def count_reveal(self, success: bool, swapped: bool, rich: bool) -> None:
        """PTI-11: a line lifted, after a swap (PTI-5) or not; a winning pick among several
        tokens in a hat (`rich`)."""
        c = self.counts
        c[REVEALS] += 1
        c[REVEAL_WINS] += success
        if swapped:
            c[SWAP_REVEALS] += 1
            c[SWAP_REVEAL_WINS] += success
        if success and rich:
            c[RICH_PICKS] += 1

    def count_void(self, limit: bool) -> None:
        """PTI-15: a void manche, at the turn limit or dead."""
        self.counts[LIMIT_MANCHES if limit else DEAD_MANCHES] += 1

    # What a lab game's board tells (Watcher).

    def designated(self, board: Board) -> None:
        self.count_designation(board.masque, bool(board.occupied >> board.spot & 1))

    def settled(self, board: Board, seat: int, challenge: int, success: bool, hat: int) -> None:
        self.count_verdict(seat, challenge == DOUBLON, success, board.masque)

    def rewarded(self, board: Board, seat: int, choice: str, kind: int, spot: int) -> None:
        self.counts[REWARDS[choice]] += 1

    def swapped(self, board: Board, a: int, b: int) -> None:
        self.counts[SWAPS] += 1

    def revealed(self, board: Board, line: int, pick: tuple[int, ...] | None) -> None:
        rich = False
        if pick is not None:
            hats = board.hats
            a, b, c = board.lines[line]
            rich = SIZE[hats[a]] > 1 or SIZE[hats[b]] > 1 or SIZE[hats[c]] > 1
        self.count_reveal(pick is not None, board.swapped >= 0, rich)

    def manche_won(self, board: Board, seat: int) -> None:
        self.manche_wins[seat] += 1
        self.manches.append(board.turn + 1)

    def manche_void(self, board: Board, limit: bool) -> None:
        self.count_void(limit)
        self.manches.append(board.turn)


@dataclass(frozen=True)
class Edition:
    """What the record of one edition holds: its count keys and its rulings' counts."""

    keys: tuple[str, ...]
    """The counts an edition reports (PhiPassPass has no Visible turn and no reward)."""
    rulings: tuple[tuple[str, tuple[int, ...]], ...]
    """Ruling id -> the indices whose sum is how often its special case applied."""

    @cached_property
    def at(self) -> tuple[int, ...]:
        """The index of each of `keys` in the counts."""
        return tuple(map(COUNT_KEYS.index, self.keys))


def to_record(
    edition: Edition,
    tally: Tally,
    first: int,
    winner: int | None,
    actions: int,
) -> GameRecord:
    """The record of a game: `winner` None when it did not finish."""
    c = tally.counts
    counts: dict[str, float] = dict(zip(edition.keys, map(c.__getitem__, edition.at), strict=True))
    counts[CALLS] = c[DOUBLON_CALLS] + c[MENTEUR_CALLS]
    rulings = {
        ruling: total
        for ruling, indices in edition.rulings
        if (total := sum(c[i] for i in indices))
    }
    return GameRecord(
        players=tally.players,
        first=first,
        winners=() if winner is None else (winner,),
        finished=winner is not None,
        actions=actions,
        manches=tuple(tally.manches),
        counts=counts,
        seat_counts={
            "calls": tuple(tally.calls),
            "call_wins": tuple(tally.call_wins),
            "manche_wins": tuple(tally.manche_wins),
        },
        rulings=rulings,
        leads=tuple(tally.leads),
        choices=(tally.choices[0], tally.choices[1]),
    )
