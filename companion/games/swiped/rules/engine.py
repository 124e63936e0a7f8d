"""The engine: new_game, actors, legal_actions and apply (validate, then transition).

A manche, as the engine sees it (one action at a time, so a real table can feed it):

    PROGRAM   each seat enters Program(seat, a, b) three times, in any interleaving (SW-3);
              when both have three, the programs are revealed together
    EXECUTE   Swap(seat, a, b) six times, in the order of swap_order (SW-4); the second
              swap of a phase that repeats the first is skipped by the engine

With an OBSERVED deal (a real table, `Deal`) the game opens in DRAW: DrawLayout(card), then
DrawTarget(seat, card) for each seat, in any order. There is no PROGRAM: the programs stay
in small cubes on the table, each Swap is any pair from the seat whose swap is next, and
the second seat of a phase says SkipSwap when its pair repeats the first (SW-4).

ClaimMatches / ClaimCard may come from either seat in both phases, between two swaps (SW-5).
"""

from __future__ import annotations

from functools import lru_cache

from companion.games.swiped.rules.actions import (
    Action,
    ClaimCard,
    ClaimMatches,
    DrawLayout,
    DrawTarget,
    Program,
    SkipSwap,
    Swap,
)
from companion.games.swiped.rules.board import NO_SWAP, SWAP_OF, SWAPS, Board, Watcher
from companion.games.swiped.rules.config import (
    COLOURS,
    PAIRS,
    PLAYERS,
    SWAPS_PER_PROGRAM,
    Config,
    Deal,
    Phase,
)
from companion.games.swiped.rules.events import (
    ClaimChecked,
    Event,
    GameDrawn,
    GameWon,
    LayoutDrawn,
    MancheEnded,
    MancheStarted,
    Programmed,
    ProgramsRevealed,
    Swapped,
    SwapSkipped,
    TargetDrawn,
)
from companion.games.swiped.rules.state import State
from companion.rules.errors import BadInput, IllegalAction

__all__ = ["PAIRS", "actors", "apply", "is_over", "legal_actions", "may_claim", "new_game"]


def new_game(config: Config, seed: int) -> tuple[State, tuple[Event, ...]]:
    """SW-2: one card drawn face up gives the layout; each seat draws a different target;
    the first manche starts (its MancheStarted is the opening event).

    With an OBSERVED deal nothing is drawn yet: the table's cards come as DrawLayout and
    DrawTarget (the seed is kept but unused), and the first manche starts once both
    targets are drawn (no opening event)."""
    board = Board(config, seed)
    opening: tuple[Event, ...] = ()
    if board.phase is not Phase.DRAW:
        opening = (_manche_started(board),)
    return State.of(board), opening


def is_over(state: State) -> bool:
    """Whether the game is over (SW-5: a claim settled it; SW-6: the manche limit)."""
    return state.phase is Phase.OVER


def _manche_started(board: Board) -> MancheStarted:
    """What a table announces when a manche starts: the order of its swaps (SW-4)."""
    return MancheStarted(board.manche, tuple(seat for seat, _ in board.order))


# --------------------------------------------------------------------- what is legal


def may_claim(state: State, seat: int) -> bool:
    """SW-5: between two swaps, within the configured limits."""
    return state._core().may_claim(seat)


def actors(state: State) -> frozenset[int]:
    """The seats that may act now: both while programming, or claiming at any moment."""
    seats = {s for s in range(PLAYERS) if may_claim(state, s)}
    if state.phase is Phase.DRAW and state.layout_card is not None:
        seats |= {s for s in range(PLAYERS) if state.targets[s] is None}
    if state.phase is Phase.PROGRAM:
        seats |= {s for s in range(PLAYERS) if len(state.secret_programs[s]) < SWAPS_PER_PROGRAM}
    swapper = state._core().swapper()
    if swapper is not None:
        seats.add(swapper)
    return frozenset(seats)


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every legal action, in a fixed order (deterministic for seeded bots).

    Programming is offered one swap at a time (36 pairs per seat), never whole programs."""
    board = state._core()
    out: list[Action] = []
    if state.phase is Phase.DRAW:
        out.extend(_draws(state))
    elif state.phase is Phase.PROGRAM:
        for seat in range(PLAYERS):
            if len(state.secret_programs[seat]) < SWAPS_PER_PROGRAM:
                out.extend(_programs(seat))
    elif state.phase is Phase.EXECUTE:
        seat = board.order[board.step][0]
        if state.config.deal is Deal.OBSERVED:
            out.extend(Swap(seat, a, b) for a, b in PAIRS if (a, b) != state.phase_pair)
            if state.phase_pair is not None:
                out.append(SkipSwap(seat))
        else:
            out.append(Swap(seat, *PAIRS[board.next_swap()]))
    for seat in range(PLAYERS):
        if board.may_claim(seat):
            out.extend(_claims(seat, state.config.deck_size))
    return tuple(out)


def _draws(state: State) -> list[Action]:
    cards = range(1, state.config.deck_size + 1)
    if state.layout_card is None:
        return [DrawLayout(card) for card in cards]
    taken = {state.layout_card, *state.targets}
    return [
        DrawTarget(seat, card)
        for seat in range(PLAYERS)
        if state.targets[seat] is None
        for card in cards
        if card not in taken
    ]


@lru_cache(maxsize=8)
def _programs(seat: int) -> tuple[Action, ...]:
    return tuple(Program(seat, a, b) for a, b in PAIRS)


@lru_cache(maxsize=256)
def _claims(seat: int, deck_size: int) -> tuple[Action, ...]:
    return (ClaimMatches(seat), *(ClaimCard(seat, c) for c in range(1, deck_size + 1)))


# ------------------------------------------------------------------------------ apply


def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Validate `action`, then return the next state and what happened.

    Raises BadInput or IllegalAction (naming the ruling) and leaves `state` as it was."""
    _check_input(state, action)
    if state.phase is Phase.OVER:
        ruling = "SW-6" if state.drawn else "SW-5"
        result = "a draw" if state.drawn else f"seat {state.winner} won"
        raise IllegalAction(ruling, f"the game is over ({result})")
    told = _Events()
    board = state._core().fork(told)
    if isinstance(action, DrawLayout):
        board.draw_layout(action.card)
    elif isinstance(action, DrawTarget):
        board.draw_target(action.seat, action.card)
    elif isinstance(action, Program):
        board.program(action.seat, _swap_of(action.a, action.b))
    elif isinstance(action, Swap):
        board.swap(action.seat, _swap_of(action.a, action.b))
    elif isinstance(action, SkipSwap):
        board.skip(action.seat)
    else:
        assert isinstance(action, ClaimMatches | ClaimCard)
        board.claim(action.seat, action.card if isinstance(action, ClaimCard) else None)
    return State.of(board), tuple(told.events)


def _swap_of(a: str, b: str) -> int:
    """The swap of colours a and b (NO_SWAP for one colour twice, which the rules refuse)."""
    return NO_SWAP if a == b else SWAP_OF[(a, b)]


_KINDS = (Program, Swap, SkipSwap, DrawLayout, DrawTarget, ClaimMatches, ClaimCard)


def _check_input(state: State, action: Action) -> None:
    if not isinstance(action, _KINDS):
        raise BadInput(f"not a Swiped action: {action!r}")
    if not isinstance(action, DrawLayout):
        seat = action.seat
        if not (isinstance(seat, int) and 0 <= seat < PLAYERS):
            raise BadInput(f"no seat {seat!r}: seats are 0 and 1")
    if isinstance(action, Program | Swap):
        for colour in (action.a, action.b):
            if colour not in COLOURS:
                raise BadInput(f"unknown colour {colour!r}; Swiped uses {', '.join(COLOURS)}")
    if isinstance(action, ClaimCard | DrawLayout | DrawTarget):
        size = state.config.deck_size
        card = action.card
        if not (isinstance(card, int) and 1 <= card <= size):
            raise BadInput(f"no card {card!r}: the deck has cards 1..{size}")


class _Events(Watcher):
    """What happened on the board, as the engine's events (public facts only: no event
    names a target card, SW-5)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def layout_drawn(self, board: Board, card: int) -> None:
        self.events.append(LayoutDrawn(card, _names(board.grid)))

    def target_drawn(self, board: Board, seat: int) -> None:
        self.events.append(TargetDrawn(seat))

    def programmed(self, board: Board, seat: int) -> None:
        self.events.append(Programmed(seat, len(board.programs[seat])))

    def revealed(self, board: Board) -> None:
        assert board.revealed is not None
        programs = tuple(tuple(PAIRS[k] for k in p) for p in board.revealed)
        self.events.append(ProgramsRevealed(programs))  # SW-3: both shown together

    def swapped(self, board: Board, seat: int, phase: int, swap: int, left: int) -> None:
        i, j = (board.where[c] + 1 for c in SWAPS[swap])
        self.events.append(Swapped(seat, phase, PAIRS[swap], (min(i, j), max(i, j))))

    def skipped(self, board: Board, seat: int, phase: int, swap: int) -> None:
        self.events.append(SwapSkipped(seat, phase, PAIRS[swap]))

    def manche_ended(self, board: Board, manche: int) -> None:
        self.events.append(MancheEnded(manche))

    def manche_started(self, board: Board) -> None:
        self.events.append(_manche_started(board))

    def drawn(self, board: Board) -> None:
        self.events.append(GameDrawn(board.manche))

    def claimed(self, board: Board, seat: int, card: int | None, correct: bool) -> None:
        self.events.append(ClaimChecked(seat, "matches" if card is None else "card", correct))

    def won(self, board: Board, seat: int) -> None:
        self.events.append(GameWon(seat))


def _names(grid: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(COLOURS[c] for c in grid)
