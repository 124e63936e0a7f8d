"""The figures one PassPass game contributes to a lab report, kept as one flat list.

The fast core counts into a `Figures` as it plays; `Tally` counts into one from the
engine's events as JSON (a readable-engine game, or a journal of a real table). Both end
in `to_record`, so a fast game and the same game read from its events give equal
`GameRecord`s, which is what the differential test checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.lab.model import GameRecord, Lead

# Indices into Figures.counts. Each is a count over the whole game.
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


@dataclass
class Figures:
    """Counts of one game so far, as the fast core and `Tally` both fill them."""

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

    def copy(self) -> Figures:
        return Figures(
            self.players,
            list(self.counts),
            list(self.calls),
            list(self.call_wins),
            list(self.manche_wins),
            list(self.manches),
            list(self.choices),
            list(self.leads),
        )

    def manche_won(self, actions: int) -> None:
        """Mark the lead after a manche was won, `actions` played (its reveal included)."""
        self.leads.append(Lead(actions, tuple(map(float, self.manche_wins))))


@dataclass(frozen=True)
class Edition:
    """What the record of one edition holds: its count keys and its rulings' counts."""

    keys: tuple[str, ...]
    """The counts an edition reports (PhiPassPass has no Visible turn and no reward)."""
    rulings: tuple[tuple[str, tuple[int, ...]], ...]
    """Ruling id -> the indices whose sum is how often its special case applied."""


def to_record(
    edition: Edition,
    figures: Figures,
    first: int,
    winner: int | None,
    actions: int,
) -> GameRecord:
    """The record of a game: `winner` None when it did not finish."""
    c = figures.counts
    counts: dict[str, float] = {key: c[COUNT_KEYS.index(key)] for key in edition.keys}
    counts[CALLS] = c[DOUBLON_CALLS] + c[MENTEUR_CALLS]
    rulings = {
        ruling: total
        for ruling, indices in edition.rulings
        if (total := sum(c[i] for i in indices))
    }
    return GameRecord(
        players=figures.players,
        first=first,
        winners=() if winner is None else (winner,),
        finished=winner is not None,
        actions=actions,
        manches=tuple(figures.manches),
        counts=counts,
        seat_counts={
            "calls": tuple(figures.calls),
            "call_wins": tuple(figures.call_wins),
            "manche_wins": tuple(figures.manche_wins),
        },
        rulings=rulings,
        leads=tuple(figures.leads),
        choices=(figures.choices[0], figures.choices[1]),
    )
