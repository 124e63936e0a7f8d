"""What one Swiped game adds to the lab's figures, counted as the game goes.

Both ways of measuring a game fill one `Tally`: a lab game's board tells it what happens
as it plays (the Tally is the board's `Watcher`), and `companion.games.swiped.lab.record_of`
calls its counting methods for each event a game journaled. The keys below are the ones
`companion.games.swiped.lab`'s sections name.

A turn is one of the six swaps of a manche (SW-4), applied or skipped, so a manche played
to its end has six; the last manche of a won game has the turns before the winning claim.
"""

from __future__ import annotations

from companion.games.swiped.rules.board import Board, Watcher
from companion.lab.model import GameRecord

GAMES = "games"
"""1 a game: the trials of the rates over games."""
WON = "won"
CLAIMS = "claims"
CARD_CLAIMS = "card_claims"
CARD_RIGHT = "card_right"
MATCHES_CLAIMS = "matches_claims"
MATCHES_RIGHT = "matches_right"
FALSE_CLAIMS = "false_claims"
FALSE_LOST = "false_lost"
"""False claims that lost the game (SW-5, the book's rule)."""
FALSE_REFUSED = "false_refused"
"""False claims only refused (SW-5, configurable): the game went on."""
FALSE_THEN_WON = "false_then_won"
"""Refused false claims whose claimant went on to win the game."""
FALSE_THEN_LOST = "false_then_lost"
END_MATCHES = "end_matches"
END_CARD = "end_card"
END_FALSE = "end_false"
END_DRAW = "end_draw"
SWAPS = "swaps"
SKIPPED = "skipped"
WON_IN = ("won_m1", "won_m2", "won_m3", "won_m4")
"""A won game, by the manche of the win (the last counts the 4th and later)."""
BELIEF_MANCHES = 3
"""The deducing bot's belief is sampled after the reveal of manches 1..3."""
BELIEF_SEEN = tuple(f"belief_n_m{m}" for m in range(1, BELIEF_MANCHES + 1))
"""How many beliefs were sampled (one per deducing seat that reached the reveal)."""
BELIEF_TRUE = tuple(f"belief_p_m{m}" for m in range(1, BELIEF_MANCHES + 1))
"""The probability those beliefs gave the true card, summed."""
BELIEF_TOP = tuple(f"belief_top_m{m}" for m in range(1, BELIEF_MANCHES + 1))
"""How many of them had the true card on top."""
SEAT_CARD = "card_claims"
SEAT_MATCHES = "matches_claims"
SEAT_FALSE = "false_claims"

SW4 = "SW-4"
SW5 = "SW-5"
SW6 = "SW-6"


class Tally(Watcher):
    """The counts of one game so far; `record()` makes its GameRecord."""

    __slots__ = (
        "first", "manches", "actions", "counts", "card", "matches", "false", "refused",
        "winner", "finished", "last_claim", "beliefs",
    )  # fmt: skip

    def __init__(self, first: int) -> None:
        self.first = first
        self.manches = [0]
        self.actions = 0
        self.counts: dict[str, float] = {}
        self.card = [0, 0]
        self.matches = [0, 0]
        self.false = [0, 0]
        self.refused: list[int] = []
        """The seat of each refused false claim, in order."""
        self.winner: int | None = None
        self.finished = False
        self.last_claim: tuple[bool, bool] | None = None
        """(a card named, right) of the last claim: what a win came from (a game is won
        by the claim just before, SW-5)."""
        self.beliefs: dict[int, list[tuple[float, int]]] = {}

    # ----------------------------------------------------------- what the board tells

    def programmed(self, board: Board, seat: int) -> None:
        self.actions += 1

    def swapped(self, board: Board, seat: int, phase: int, swap: int, left: int) -> None:
        self.swap()

    def skipped(self, board: Board, seat: int, phase: int, swap: int) -> None:
        self.skip(False)

    def manche_started(self, board: Board) -> None:
        self.manche(board.manche)

    def drawn(self, board: Board) -> None:
        self.draw()

    def claimed(self, board: Board, seat: int, card: int | None, correct: bool) -> None:
        self.claim(seat, card is not None, correct)

    def won(self, board: Board, seat: int) -> None:
        self.win(seat)

    # ------------------------------------------------------------------- the counts

    def add(self, key: str, value: float = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + value

    def manche(self, manche: int) -> None:
        """Manche `manche` started."""
        while len(self.manches) < manche:
            self.manches.append(0)

    def swap(self) -> None:
        """SW-4: a swap applied."""
        self.actions += 1
        self.manches[-1] += 1
        self.add(SWAPS)

    def skip(self, by_a_seat: bool) -> None:
        """SW-4: the second swap of a phase repeats the first, applied once. `by_a_seat`:
        an observed table's seat said so (an action); a seeded engine skips it itself."""
        self.actions += by_a_seat
        self.manches[-1] += 1
        self.add(SKIPPED)

    def claim(self, seat: int, card: bool, correct: bool) -> None:
        """SW-5: a claim and its verdict. A false one is refused until a `won` of the
        other seat follows it at once (the book's rule: it lost the game)."""
        self.actions += 1
        self.add(CLAIMS)
        self.last_claim = (card, correct)
        if card:
            self.card[seat] += 1
            self.add(CARD_CLAIMS)
            if correct:
                self.add(CARD_RIGHT)
        else:
            self.matches[seat] += 1
            self.add(MATCHES_CLAIMS)
            if correct:
                self.add(MATCHES_RIGHT)
        if not correct:
            self.false[seat] += 1
            self.add(FALSE_CLAIMS)
            self.refused.append(seat)

    def win(self, seat: int) -> None:
        """SW-5: `seat` won the game (by the claim just before)."""
        self.winner = seat
        self.finished = True
        card, correct = self.last_claim or (False, True)
        if not correct:  # the false claim just made lost the game
            self.refused.pop()
            self.add(FALSE_LOST)
        self.add(END_FALSE if not correct else END_CARD if card else END_MATCHES)
        self.add(WON_IN[min(len(self.manches), len(WON_IN)) - 1])
        self.add(WON)

    def draw(self) -> None:
        """SW-6: the manche limit is reached."""
        self.finished = True
        self.add(END_DRAW)

    def belief(self, manche: int, p_true: float, rank: int) -> None:
        """The deducing bot's belief after a reveal: p of the true card, and its rank."""
        self.beliefs.setdefault(manche, []).append((p_true, rank))

    def record(self) -> GameRecord:
        counts = self.counts
        counts[GAMES] = 1
        if self.refused:
            counts[FALSE_REFUSED] = len(self.refused)
        if self.winner is not None:
            after = [s == self.winner for s in self.refused]
            if any(after):
                counts[FALSE_THEN_WON] = sum(after)
            if not all(after):
                counts[FALSE_THEN_LOST] = len(after) - sum(after)
        for manche, seen in self.beliefs.items():
            m = manche - 1
            counts[BELIEF_SEEN[m]] = len(seen)
            counts[BELIEF_TRUE[m]] = sum(p for p, _ in seen)
            counts[BELIEF_TOP[m]] = sum(rank == 1 for _, rank in seen)
        rulings = {
            SW4: counts.get(SKIPPED, 0),
            SW5: counts.get(FALSE_CLAIMS, 0),
            SW6: counts.get(END_DRAW, 0),
        }
        return GameRecord(
            players=2,
            first=self.first,
            winners=() if self.winner is None else (self.winner,),
            finished=self.finished,
            actions=self.actions,
            manches=tuple(self.manches),
            counts=counts,
            seat_counts={
                SEAT_CARD: (self.card[0], self.card[1]),
                SEAT_MATCHES: (self.matches[0], self.matches[1]),
                SEAT_FALSE: (self.false[0], self.false[1]),
            },
            rulings={k: int(v) for k, v in rulings.items() if v},
        )
