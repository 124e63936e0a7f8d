"""The engine: new_game, actors, legal_actions and apply (validate, then transition).

The rules themselves are the board's (board.py): `apply` checks the action's input, plays
it on a fork of the position's board, which refuses what the rules refuse (IllegalAction,
naming the ruling), and turns what the board told into events.
"""

from __future__ import annotations

from companion.games.flipdone.rules.actions import (
    Action,
    Build,
    DealDown,
    DealUp,
    Discard,
    Flip,
    PlaceFirst,
)
from companion.games.flipdone.rules.board import (
    CARD,
    HOLD_BONUS,
    LOSES_OWN,
    NAMES,
    NO_CARD,
    VALUE,
    Board,
    Watcher,
)
from companion.games.flipdone.rules.config import (
    CARDS,
    DECK,
    MANCHE_BONUS,
    SQUARES,
    Config,
    Deal,
    Stage,
)
from companion.games.flipdone.rules.events import (
    Built,
    DealtDown,
    Discarded,
    Event,
    FirstPlaced,
    Flipped,
    GameOver,
    LineBroken,
    LineHeld,
    LineLost,
    LineMade,
    MancheWon,
    PhaseEnded,
    PhaseStarted,
    Tied,
    TieStands,
)
from companion.games.flipdone.rules.state import State
from companion.rules.errors import BadInput, IllegalAction


def new_game(config: Config, seed: int) -> tuple[State, tuple[Event, ...]]:
    """The first phase of the first manche, dealt from `seed` (FD-2), and its opening
    events (PhaseStarted, then FirstPlaced when the centre card starts the grid); with an
    OBSERVED deal, waiting for the table's deal instead (stage DEAL, no event yet: the
    phase starts once the face-up card is seen; `seed` is then unused)."""
    told = _Events()
    board = Board(config, seed, told)
    return State.of(board), tuple(told.events)


def is_over(state: State) -> bool:
    """Whether the game is over (FD-10)."""
    return state.stage is Stage.OVER


# --------------------------------------------------------------------- what is legal


def actors(state: State) -> frozenset[int]:
    """The one seat that may act now (none once the game is over). While an OBSERVED deal
    is awaited (stage DEAL) it is the phase's first player, the seat the table waits on,
    though the deal actions themselves name no seat."""
    if state.stage is Stage.OVER:
        return frozenset()
    return frozenset((state.turn,))


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every legal action, in a fixed order (deterministic for seeded bots): the board's
    `legal` order, cards by name.

    With an OBSERVED deal the cards are those not seen in play this phase (52 minus the
    face-down, face-up and discarded ones): any of them may be the next one dealt, or the
    card a seat holds and plays."""
    seat = state.turn
    if state.stage is Stage.OVER:
        return ()
    board = state._core()
    observed = state.config.deal is Deal.OBSERVED
    cards = unseen(state) if observed else ()
    if state.stage is Stage.DEAL:
        empty = board.undealt()
        if empty:
            return tuple(DealDown(sq + 1, c) for sq in empty for c in cards)
        return tuple(DealUp(c) for c in cards)
    if state.stage is Stage.PLACE_FIRST:
        if observed:
            return tuple(PlaceFirst(seat, sq, c) for sq in range(1, SQUARES + 1) for c in cards)
        return tuple(PlaceFirst(seat, sq) for sq in range(1, SQUARES + 1))
    hand = cards if observed else state.hands[seat]
    free = [sq + 1 for sq in board.free]
    flippable = [sq + 1 for sq in board.flippable]
    builds = tuple(Build(seat, c, sq) for c in hand for sq in free)
    flips = tuple(Flip(seat, c, sq) for c in hand for sq in flippable)
    return builds + flips + tuple(Discard(seat, c) for c in hand)


def seen(state: State) -> frozenset[str]:
    """The cards in play this phase: face down, face up (or waiting to be) and discarded.
    FD-2: each phase is dealt from one deck, so none of them can be dealt or played again."""
    return frozenset(NAMES[c] for c in state._core().seen())


def unseen(state: State) -> tuple[str, ...]:
    """The cards not in play this phase, in DECK order: the deck and the hands."""
    shown = seen(state)
    return tuple(c for c in DECK if c not in shown)


def aligned(state: State, line: int) -> bool:
    """FD-4: the line's 3 squares are elements whose face-up cards have one colour."""
    return state._core().aligned(line)


def phase_over(state: State) -> bool:
    """FD-9: no build and no flip is possible for anyone (`Board.phase_over`)."""
    return state._core().phase_over()


# ------------------------------------------------------------------------------ apply


def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Validate `action`, then return the next state and what happened.

    Raises BadInput or IllegalAction (naming the ruling) and leaves `state` as it was.
    """
    if not isinstance(action, _KINDS):
        raise BadInput(f"not a Flip Done action: {action!r}")
    _check_input(state, action)
    if state.stage is Stage.OVER:
        raise IllegalAction("FD-10", f"the game is over: won by {list(state.winners)}")
    told = _Events()
    board = state._core().fork(told)
    if isinstance(action, DealDown):
        board.deal_down(action.square - 1, CARD[action.card])
    elif isinstance(action, DealUp):
        board.deal_up(CARD[action.card])
    elif isinstance(action, PlaceFirst):
        card = NO_CARD if action.card is None else CARD[action.card]
        board.place_first(action.seat, action.square - 1, card)
    elif isinstance(action, Build):
        board.build(action.seat, CARD[action.card], action.square - 1)
    elif isinstance(action, Flip):
        board.flip(action.seat, CARD[action.card], action.square - 1)
    else:
        board.discard(action.seat, CARD[action.card])
    return State.of(board), tuple(told.events)


_KINDS = (DealDown, DealUp, PlaceFirst, Build, Flip, Discard)


def _check_input(state: State, action: Action) -> None:
    if not isinstance(action, DealDown | DealUp):  # a deal is nobody's act: no seat
        seat = getattr(action, "seat", None)
        if not (isinstance(seat, int) and 0 <= seat < state.config.players):
            raise BadInput(f"no seat {seat!r}: seats are 0..{state.config.players - 1}")
    square = getattr(action, "square", 1)
    if not (isinstance(square, int) and 1 <= square <= SQUARES):
        raise BadInput(f"no square {square!r}: squares are 1..{SQUARES}")
    card = getattr(action, "card", None)
    optional = card is None and isinstance(action, PlaceFirst)  # SEEDED: no card to name
    if not optional and not (isinstance(card, str) and card in CARDS):
        raise BadInput(f"no card {card!r}: cards are rank + suit, like 'QH', '10S', 'AD'")


class _Events(Watcher):
    """What happened on the board, as the engine's events (public facts only: a face-down
    card dealt is named by its square, a discard by its seat)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def dealt_down(self, board: Board, square: int) -> None:
        self.events.append(DealtDown(square + 1))

    def phase_started(self, board: Board, card: int) -> None:
        self.events.append(
            PhaseStarted(
                board.manche, board.phase, board.first, board.extra, board.overtime, NAMES[card]
            )
        )

    def first_placed(self, board: Board, seat: int | None, square: int, card: int) -> None:
        self.events.append(FirstPlaced(seat, square + 1, NAMES[card]))

    def built(self, board: Board, seat: int, square: int, card: int) -> None:
        self.events.append(Built(seat, square + 1, NAMES[card]))

    def flipped(self, board: Board, seat: int, square: int, shown: int, hidden: int) -> None:
        self.events.append(Flipped(seat, square + 1, NAMES[shown], NAMES[hidden]))

    def discarded(self, board: Board, seat: int) -> None:
        self.events.append(Discarded(seat))

    def line_made(self, board: Board, seat: int, line: int) -> None:
        self.events.append(LineMade(seat, line, VALUE[line]))

    def line_broken(self, board: Board, seat: int, owner: int, line: int, taken: int) -> None:
        value = VALUE[line]
        self.events.append(LineBroken(seat, owner, line, value, taken, value - taken))

    def line_held(self, board: Board, seat: int, owner: int, line: int) -> None:
        self.events.append(LineHeld(seat, owner, line, HOLD_BONUS[line]))

    def line_lost(self, board: Board, seat: int, owner: int, line: int, outcome: int) -> None:
        ruling = "FD-7" if outcome == LOSES_OWN else "FD-8"
        self.events.append(LineLost(seat, owner, line, ruling))

    def phase_ended(self, board: Board, left: tuple[int, ...], paid: tuple[int, ...]) -> None:
        self.events.append(PhaseEnded(left, paid))

    def tied(self, board: Board, seats: tuple[int, ...]) -> None:
        self.events.append(Tied(seats, board.overtime, board.extra))

    def manche_won(self, board: Board, seat: int, gains: tuple[int, ...]) -> None:
        self.events.append(MancheWon(seat, board.manche, gains, MANCHE_BONUS))

    def tie_stands(self, board: Board, seats: tuple[int, ...], overtime: bool) -> None:
        self.events.append(TieStands(seats, overtime))

    def game_over(self, board: Board) -> None:
        self.events.append(GameOver(board.winners, tuple(board.tokens)))
