"""The engine: new_game, actors, legal_actions and apply (validate, then transition).

The rules themselves are the board's (board.py): `apply` checks the action's input, plays
it on a fork of the position's board, which refuses what the rules refuse (IllegalAction,
naming the ruling), and turns what the board told into events.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from companion.games.passpass.rules.actions import (
    Action,
    Announce,
    Call,
    CloseWindow,
    Designate,
    Pass,
    Reveal,
    RewardDrop,
    RewardToken,
    Swap,
)
from companion.games.passpass.rules.board import (
    CHALLENGES,
    DOUBLON,
    NO,
    Board,
    Watcher,
    action_of,
)
from companion.games.passpass.rules.config import Config, Phase
from companion.games.passpass.rules.events import (
    DEAD_MANCHE,
    TURN_LIMIT,
    Announced,
    Designated,
    Event,
    GameWon,
    MancheStarted,
    MancheVoid,
    MancheWon,
    Passed,
    Placed,
    Revealed,
    Rewarded,
    Swapped,
    TurnStarted,
    Verdict,
)
from companion.games.passpass.rules.state import State
from companion.games.passpass.rules.tables import LayoutTables
from companion.rules.errors import BadInput, IllegalAction


def new_game(config: Config, seed: int) -> tuple[State, tuple[Event, ...]]:
    """The first manche, dealt (PTI-1, PTI-12), with the first player of PTI-13 to play,
    and its opening events (MancheStarted, TurnStarted). Nothing is left to chance in
    PassPass (the people place and announce), so `seed` is unused."""
    told = _Events()
    board = Board(config, told)
    return State.of(board), tuple(told.events)


def is_over(state: State) -> bool:
    """Whether the game is over: a seat has won its manches (PTI-1, PTI-12)."""
    return state.phase is Phase.OVER


# --------------------------------------------------------------------- what is legal


def actors(state: State) -> frozenset[int]:
    """The seats that may act now: several at once in a TIMED challenge window."""
    return frozenset(state._core().actors())


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every legal action, in a fixed order (deterministic for seeded bots): the board's
    `legal` order."""
    board = state._core()
    return _listed(board.tables, board.names, board.phase, board.deciding(), board.legal())


@lru_cache(maxsize=4096)
def _listed(
    tables: LayoutTables, names: tuple[str, ...], phase: Phase, seat: int, codes: tuple[int, ...]
) -> tuple[Action, ...]:
    """The actions of legal codes, one tuple for every position that lists the same."""
    return tuple(action_of(tables, names, phase, seat, code) for code in codes)


def clockwise_first(state: State, seats: Iterable[int]) -> int:
    """Of calls that came together, the one that counts: clockwise from the Magicien's left
    (PTI-7 timed window, PHI-2)."""
    n = state.config.players
    return min(seats, key=lambda s: (s - state.magician - 1) % n)


# ------------------------------------------------------------------------------ apply


def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Validate `action`, then return the next state and what happened.

    Raises BadInput or IllegalAction (naming the ruling) and leaves `state` as it was.
    """
    if not isinstance(action, _KINDS):
        raise BadInput(f"not a PassPass action: {action!r}")
    if state.phase is Phase.OVER:
        raise IllegalAction("PTI-1", f"the game is over: seat {state.winner} won")
    _check_input(state, action)
    told = _Events()
    board = state._core().fork(told)
    if isinstance(action, Designate):
        board.designate(action.seat, action.spot, action.token)
    elif isinstance(action, Announce):
        board.announce(action.seat, action.token)
    elif isinstance(action, Pass):
        board.say_ok(action.seat)
    elif isinstance(action, CloseWindow):
        board.close_window()
    elif isinstance(action, Call):
        board.call(action.seat, action.challenge)
    elif isinstance(action, RewardDrop):
        board.drop_reward(action.seat, action.token, action.spot)
    elif isinstance(action, RewardToken):
        board.take_token(action.seat)
    elif isinstance(action, Swap):
        board.swap(action.seat, action.a, action.b)
    else:
        board.reveal(action.seat, action.spots)
    return State.of(board), tuple(told.events)


_KINDS = (Designate, Announce, Pass, CloseWindow, Call, RewardDrop, RewardToken, Swap, Reveal)


def _check_input(state: State, action: Action) -> None:
    seat = getattr(action, "seat", 0)
    if not (isinstance(seat, int) and 0 <= seat < state.config.players):
        raise BadInput(f"no seat {seat!r}: seats are 0..{state.config.players - 1}")
    spots = state.config.layout.spots
    for attr in ("spot", "a", "b"):
        spot = getattr(action, attr, 1)
        if not (isinstance(spot, int) and 1 <= spot <= spots):
            raise BadInput(f"no hat {spot!r}: hats are 1..{spots}")
    token = getattr(action, "token", "")  # every action that names a token names one
    if hasattr(action, "token") and token not in state.config.rules.tokens:
        tokens = ", ".join(state.config.rules.tokens)
        raise BadInput(f"unknown token {token!r}; {state.config.rules.name} uses {tokens}")


class _Events(Watcher):
    """What happened on the board, as the engine's events (public facts only: a masked
    token is named only when a Menteur shows it or a reveal lifts its hat)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def manche_started(self, board: Board) -> None:
        self.events.append(MancheStarted(board.manche, board.starter))

    def turn_started(self, board: Board) -> None:
        self.events.append(TurnStarted(board.magician, board.tour, board.masque, board.phase))

    def designated(self, board: Board) -> None:
        shown = None if board.masque else board.names[board.holding]
        self.events.append(Designated(board.magician, board.spot + 1, shown))

    def announced(self, board: Board) -> None:
        self.events.append(Announced(board.magician, board.names[board.announced]))

    def passed(self, board: Board, seat: int) -> None:
        self.events.append(Passed(seat))

    def placed(self, board: Board) -> None:
        self.events.append(Placed(board.magician, board.spot + 1))

    def settled(self, board: Board, seat: int, challenge: int, success: bool, hat: int) -> None:
        (called,) = CHALLENGES[challenge]
        doublon = challenge == DOUBLON
        self.events.append(
            Verdict(
                called,
                seat,
                board.magician,
                success,
                board.spot + 1,
                board.hand_names[hat] if doublon else None,
                None if doublon else board.names[board.holding],
            )  # fmt: skip
        )

    def rewarded(self, board: Board, seat: int, choice: str, kind: int, spot: int) -> None:
        token = None if kind == NO else board.names[kind]
        self.events.append(Rewarded(seat, choice, token, None if spot == NO else spot + 1))

    def swapped(self, board: Board, a: int, b: int) -> None:
        self.events.append(Swapped(board.magician, (a + 1, b + 1)))

    def revealed(self, board: Board, line: int, pick: tuple[int, ...] | None) -> None:
        a, b, c = board.lines[line]
        hats = board.hand_names
        self.events.append(
            Revealed(
                board.magician,
                (a + 1, b + 1, c + 1),
                pick is not None,
                (hats[board.hats[a]], hats[board.hats[b]], hats[board.hats[c]]),
                None if pick is None else tuple(board.names[k] for k in pick),  # type: ignore[arg-type]
            )
        )

    def manche_won(self, board: Board, seat: int) -> None:
        self.events.append(MancheWon(seat, board.victories[seat]))

    def game_won(self, board: Board, seat: int) -> None:
        self.events.append(GameWon(seat))

    def manche_void(self, board: Board, limit: bool) -> None:
        reason = TURN_LIMIT.format(limit=board.turn_limit) if limit else DEAD_MANCHE
        self.events.append(MancheVoid(reason))
