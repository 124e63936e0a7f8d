"""The PassPass bots, written once on the engine's board (rules/board.py): uniformly random,
and the heuristic. The lab and the thinking bot's playouts ask them on the board they
play; a table's seats (the simulated table, the lab's table path, tests) ask them through
`RandomBot` and `HeuristicBot`, which see only their seat's view and the public events,
and put what their seat knows on a board (`seat_board`) to ask the same question.

All chance comes from the `random.Random` each bot is given, so a seeded game replays
exactly, whichever way it is played. A board bot answers one question per phase with a
code the board plays (rules/board.py):

    place(board)          -> spot * 3 + kind
    announce(board)       -> kind
    window(board, seat)   -> 0 (OK), DOUBLON or MENTEUR, for the seat asked
    reward(board)         -> 0 (take a token) or 1 + spot * 3 + kind
    reveal(board)         -> line, or lines + pair (a swap)

It draws as `rng.choice` would from the engine's list of legal actions (`below`), so a
table's seat and a lab's board, asked the same question, answer alike.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from companion.games.passpass.rules import (
    Action,
    Call,
    Challenge,
    Config,
    Designate,
    Designated,
    Event,
    MancheStarted,
    Pass,
    Placed,
    PlayerView,
    PublicView,
    Revealed,
    Rewarded,
    Swapped,
    Verdict,
    make_config,
)
from companion.games.passpass.rules.board import (
    ANNOUNCE,
    CHALLENGES,
    DOUBLON,
    MENTEUR,
    NO,
    PLACE,
    REVEAL,
    WINDOW,
    Board,
)
from companion.games.passpass.rules.layouts import Layout
from companion.games.passpass.rules.tables import (
    KINDS_OF,
    MASK,
    SEAT_BITS,
    SEAT_MASK,
    UNIT,
    WIN,
    empty_spots,
)

_BITS = tuple(n.bit_length() for n in range(64))
_LIES = ((1, 2), (0, 2), (0, 1))
"""kind -> the other kinds, in order: the lies a Masqué announce may tell."""
_ANSWERS = ((0,), (0, DOUBLON), (0, MENTEUR), (0, DOUBLON, MENTEUR))
"""The open challenges -> a seat's answers in a window: OK, then a call of each (Doublon
first), as the engine lists them."""


def below(rng: random.Random, n: int) -> int:
    """`rng.choice(range(n))`, drawn exactly as `random.Random.choice` draws (CPython's
    `_randbelow_with_getrandbits`): rejection over `n.bit_length()` bits."""
    getrandbits = rng.getrandbits
    k = _BITS[n] if n < 64 else n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


class BoardBot(Protocol):
    """A bot on the board: one question per phase (the module's docstring)."""

    def place(self, board: Board) -> int: ...

    def announce(self, board: Board) -> int: ...

    def window(self, board: Board, seat: int) -> int: ...

    def reward(self, board: Board) -> int: ...

    def reveal(self, board: Board) -> int: ...


class RandomPlay:
    """Uniform over the legal actions: the baseline, and the benchmark's player."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def _any(self, board: Board) -> int:
        legal = board.legal()
        return legal[below(self.rng, len(legal))]

    place = announce = reward = reveal = _any

    def window(self, board: Board, seat: int) -> int:
        answers = _ANSWERS[board.open]
        return answers[below(self.rng, len(answers))]


class HeuristicPlay:
    """A sensible player: remembers the hats (what its seat saw of them: the board's
    `seen` and its own `secret` placements), places in empty ones, calls Doublon on a hat
    it knows is occupied, bluffs now and then, calls Menteur with some judgement, and
    reveals a line it knows wins (after a swap if that makes one)."""

    __slots__ = ("rng", "seat", "shift", "bluff", "suspicion", "stacking", "lapse")

    def __init__(
        self,
        rng: random.Random,
        seat: int,
        bluff: float = 0.3,
        suspicion: float = 0.2,
        stacking: float = 0.15,
        lapse: float = 0.1,
    ) -> None:
        self.rng = rng
        self.seat = seat
        self.shift = SEAT_BITS * seat
        self.bluff = bluff
        """How often a Masqué announce is a lie."""
        self.suspicion = suspicion
        """How often Menteur is called without proof."""
        self.stacking = stacking
        """How often a token goes into an occupied hat (richer picks, but Doublon bait)."""
        self.lapse = lapse
        """How often an occupied hat is forgotten when deciding on Doublon."""

    def place(self, board: Board) -> int:
        """An empty hat, unless stacking now and then (or every hat is taken)."""
        hand = board.hands[board.magician]
        stack = self.rng.random() < self.stacking
        empty = () if stack else empty_spots(board.occupied, board.spots)
        if not empty:
            legal = board.tables.place[hand]
            return legal[below(self.rng, len(legal))]
        kinds = KINDS_OF[hand]
        i = below(self.rng, len(empty) * len(kinds))
        return empty[i // len(kinds)] * 3 + kinds[i % len(kinds)]

    def announce(self, board: Board) -> int:
        """The truth, or now and then a lie (PTI-6)."""
        truth = board.holding
        if self.rng.random() >= self.bluff:
            return truth
        return _LIES[truth][below(self.rng, 2)]

    def window(self, board: Board, seat: int) -> int:
        """Doublon on a hat known to be occupied (unless it slipped its mind), Menteur with
        proof or suspicion, else OK."""
        open_ = board.open
        if open_ & DOUBLON and board.occupied >> board.spot & 1 and self.rng.random() >= self.lapse:
            return DOUBLON
        if open_ & MENTEUR and self._doubts(board):
            return MENTEUR
        return 0

    def _doubts(self, board: Board) -> bool:
        """Menteur when every copy of the announced token is accounted for elsewhere."""
        seen = (
            board.hands[self.seat] + sum(board.seen) + (sum(board.secret) >> self.shift & SEAT_MASK)
        )
        if (seen >> 3 * board.announced) & 7 >= board.players:
            return True
        return self.rng.random() < self.suspicion

    def reward(self, board: Board) -> int:
        """A Challenge token when it has none (or nothing to drop), else a drop into an
        empty hat (PTI-10)."""
        token = board.challenge_tokens[board.magician] > 0
        hand = board.hands[self.seat]
        if token and (not hand or board.challenge_tokens[self.seat] == 0):
            return 0
        kinds = KINDS_OF[hand]
        empty = empty_spots(board.occupied, board.spots) or range(board.spots)
        i = below(self.rng, len(empty) * len(kinds))
        return 1 + empty[i // len(kinds)] * 3 + kinds[i % len(kinds)]

    def reveal(self, board: Board) -> int:
        """A line it knows wins, else a swap that makes one, else the fullest line."""
        shift, secret = self.shift, board.secret
        known = [MASK[k + (secret[h] >> shift & SEAT_MASK)] for h, k in enumerate(board.seen)]
        lines = board.lines
        for i, (a, b, c) in enumerate(lines):
            if WIN[known[a] | known[b] << 3 | known[c] << 6]:
                return i
        if board.swapped < 0:
            tables = board.tables
            for p, (a, b) in enumerate(board.pairs):
                if known[a] == known[b]:
                    continue  # the swap changes nothing this seat knows
                for x, y, z in tables.swap_lines[p]:
                    if WIN[known[x] | known[y] << 3 | known[z] << 6]:
                        return len(lines) + p
        occupied = board.occupied
        filled = [(occupied & line).bit_count() for line in board.tables.line_masks]
        best = max(filled)
        fullest = [i for i, f in enumerate(filled) if f == best]
        return fullest[below(self.rng, len(fullest))]


BOTS = ("heuristic", "random")


def board_bot(kind: str, rng: random.Random, seat: int) -> BoardBot:
    """The bot of a kind on the board; ValueError naming the kinds for an unknown one."""
    if kind == "random":
        return RandomPlay(rng)
    if kind == "heuristic":
        return HeuristicPlay(rng, seat)
    raise ValueError(f"unknown bot {kind!r}; choose from {', '.join(BOTS)}")


def timed_calls(board: Board, bots: Sequence[BoardBot]) -> list[int]:
    """A TIMED window: every seat that may call is asked (each draws from its own rng),
    clockwise from the Magicien's left, so the first call is the one that counts (PTI-7,
    PHI-2); silence is no call. The calls' codes."""
    return [s * 4 + c for s in board.eligible() if (c := bots[s].window(board, s))]


def next_code(board: Board, bots: Sequence[BoardBot]) -> int:
    """The code of the board's next action, as the bots at its seats choose it."""
    phase = board.phase
    if phase is WINDOW:
        speaker = board.speaker
        if speaker >= 0:  # ROUND: the seat whose turn it is to speak
            challenge = bots[speaker].window(board, speaker)
            return speaker * 4 + challenge if challenge else 0
        calls = timed_calls(board, bots)
        return calls[0] if calls else 0
    if phase is PLACE:
        return bots[board.magician].place(board)
    if phase is ANNOUNCE:
        return bots[board.magician].announce(board)
    if phase is REVEAL:
        return bots[board.magician].reveal(board)
    return bots[board.challenger].reward(board)


# ------------------------------------------------------------------ at a table's seats


class Bot(Protocol):
    """A bot at a table seat: chooses one of `legal` (all of them this seat's actions)
    from its seat's view, and hears every public event."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action: ...

    def observe(self, events: Sequence[Event]) -> None: ...


class RandomBot:
    """Uniform over the legal actions (`RandomPlay`'s draw over the same list)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return self.rng.choice(legal)

    def observe(self, events: Sequence[Event]) -> None:
        pass


UNKNOWN = "?"
"""A token known to be in a hat whose kind this seat never saw (a masked placement)."""


class HatMemory:
    """What one seat has seen of every hat, from the public events: placements are public,
    their kinds not always. The count of tokens per hat is exact (every designation,
    placement and swap is seen); kinds are known when shown (Visible turn, reward drop,
    Doublon, reveal) or placed by this seat itself."""

    def __init__(self, seat: int, spots: int) -> None:
        self.seat = seat
        self.hats: list[list[str]] = [[] for _ in range(spots)]
        self._pending: str = UNKNOWN
        self._own_holding: str | None = None

    def remember_own_token(self, token: str) -> None:
        self._own_holding = token

    def observe(self, events: Sequence[Event]) -> None:
        for e in events:
            if isinstance(e, MancheStarted):
                self.hats = [[] for _ in self.hats]
            elif isinstance(e, Designated):
                own = self._own_holding if e.seat == self.seat else None
                self._pending = e.shown or own or UNKNOWN
            elif isinstance(e, Placed):
                self.hats[e.spot - 1].append(self._pending)
            elif isinstance(e, Verdict) and e.challenge is Challenge.DOUBLON:
                self.hats[e.spot - 1] = []  # emptied on success, empty on failure
            elif isinstance(e, Rewarded) and e.choice == "drop":
                assert e.spot is not None and e.token is not None
                self.hats[e.spot - 1].append(e.token)
            elif isinstance(e, Swapped):
                a, b = e.spots[0] - 1, e.spots[1] - 1
                self.hats[a], self.hats[b] = self.hats[b], self.hats[a]
            elif isinstance(e, Revealed):
                for spot, hat in zip(e.spots, e.hats, strict=True):
                    self.hats[spot - 1] = list(hat)


def public_board(config: Config, public: PublicView, starter: int) -> Board:
    """The board of what every seat knows: the public facts, with how many tokens each
    hat holds (PTI-14); the hats', the hands' and the flight's kinds left empty."""
    board = Board.of(
        config=config,
        manche=public.manche,
        starter=starter,
        tour=public.tour,
        turn=public.turn,
        magician=public.magician,
        phase=public.phase,
        challenge_tokens=public.challenge_tokens,
        victories=public.victories,
        spot=public.spot,
        announced=public.announced,
        open_challenges=public.open_challenges,
        speaker=public.speaker,
        challenger=public.challenger,
        swapped=public.swapped,
        winner=public.winner,
        hats=((),) * public.spots,
        hands=((),) * public.players,
        holding=None,
    )
    board.occupied = sum(1 << s for s, count in enumerate(public.hat_counts) if count)
    return board


def seat_board(config: Config, view: PlayerView, memory: HatMemory) -> Board:
    """The board of what one seat knows: the public facts, its own hand and the token it
    holds, and the kinds it remembers in each hat (as the board's `seen`)."""
    board = public_board(config, view.public, NO)
    kind = {name: k for k, name in enumerate(board.names)}
    board.hands[view.seat] = sum(UNIT[kind[t]] for t in view.hand)
    board.holding = NO if view.holding is None else kind[view.holding]
    board.seen = [sum(UNIT[kind[t]] for t in hat if t != UNKNOWN) for hat in memory.hats]
    return board


class HeuristicBot:
    """`HeuristicPlay` at a table seat, its temperament the default: it remembers the
    hats from the public events (`HatMemory`) and asks its play on the board of what its
    seat knows."""

    def __init__(self, rng: random.Random, seat: int, layout: Layout) -> None:
        self.layout = layout
        self.memory = HatMemory(seat, layout.spots)
        self.play = HeuristicPlay(rng, seat)
        self._config: Config | None = None

    def observe(self, events: Sequence[Event]) -> None:
        self.memory.observe(events)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if self._config is None:
            public = view.public
            self._config = make_config(public.game, public.players, layout=self.layout)
        board = seat_board(self._config, view, self.memory)
        phase, play = board.phase, self.play
        if phase is WINDOW:
            challenge = play.window(board, view.seat)
            return Call(view.seat, CHALLENGES[challenge][0]) if challenge else Pass(view.seat)
        if phase is PLACE:
            code = play.place(board)
        elif phase is ANNOUNCE:
            code = play.announce(board)
        elif phase is REVEAL:
            code = play.reveal(board)
        else:
            code = play.reward(board)
        action = board.action(code)
        if isinstance(action, Designate):
            self.memory.remember_own_token(action.token)
        return action


def make_bot(kind: str, rng: random.Random, seat: int, layout: Layout) -> Bot:
    """The bot of a kind at a table seat; ValueError naming the kinds for an unknown one."""
    if kind == "random":
        return RandomBot(rng)
    if kind == "heuristic":
        return HeuristicBot(rng, seat, layout)
    raise ValueError(f"unknown bot {kind!r}; choose from {', '.join(BOTS)}")
