"""The thinking bot of Flip Done: what a seat knows, and how to draw a whole position
consistent with it (companion/lab/mcts.py searches over the draws).

A seat knows the public view (the face-up elements, who owns which line, the tokens, the
sizes of the hands, the deck and the discard pile), the face-down card under every
flipped square (it was face up before the flip), its own hand and the cards it played
this phase. Every other card is one it has not seen: a draw deals their colours at random
to the others' hands and the unflipped face-down squares (only a card's colour matters,
FD-1), and draws a new seed for the phases not dealt yet (the true one would tell the
next deals). The search runs on the engine's board (`Board.of` sets one at the drawn
position), a move being (kind, colour, square): two cards of one colour are one choice.
The search is paired (companion/lab/mcts.py): the seat's moves are compared in the same
drawn worlds, each played out by the others' replies (the heuristic bots)
to the seat's next turn; a position is worth a share of the win by tokens (FD-10: most
tokens wins) as sure as the plays left allow, or the win itself at the game's end.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.games.flipdone.bots import BOTS, BoardBot, Bot, heuristic_play, make_bot
from companion.games.flipdone.rules.actions import Action, Build, Discard, Flip, PlaceFirst
from companion.games.flipdone.rules.board import (
    BREAKS_LINE,
    BUILD,
    CARD,
    CODES,
    COLOUR,
    DISCARD,
    FLIP,
    LOSES_THIRD,
    NO_CARD,
    OUTCOMES,
    OVER,
    PLACE,
    PLACE_FIRST,
    THROUGH,
    Board,
    Play,
)
from companion.games.flipdone.rules.config import DECK, HAND_SIZE, PLAYERS, SQUARES, Config, Hand
from companion.games.flipdone.rules.engine import legal_actions
from companion.games.flipdone.rules.state import PublicView, State, public_view
from companion.lab.mcts import Spec, Thinking, estimate_values, parse_kind, think, win_values

HORIZON = PLAYERS - 1
"""Playout plays: the others' replies, to the seat's next turn. A longer look plays the
seat's own later cards with the heuristic and adds their luck: in 150 games against
two heuristic bots at 30 iterations, to the end of the phase won 49 %, five plays 54 %,
two 54 % in half the time (with a fixed 30-token value)."""
SPREAD = 0.5
"""A lead of SPREAD x the square root of the plays left in the game, in tokens, is worth e
to 1 in an unfinished playout's value: the fewer plays are left, the surer a lead (the
plays' luck adds up as a random walk's does). Against two heuristic bots, 150 games at 30
iterations: 57 % [49 %, 65 %]; 0.25: 51 %, 1: 53 %, a fixed 30 tokens: 46 %."""
SEED_RANGE = 2**31
UNSEEN = -1
"""A card the seat has not seen, in `_known`'s position (a draw deals it a colour)."""

Move = Play
"""A play as the search knows it: (PLACE, 0, square), (BUILD or FLIP, colour, square) or
(DISCARD, colour, -1), squares 0-based: the card by its colour, not its place in a hand."""


@dataclass(frozen=True)
class Knowledge:
    """All one seat knows: no field holds another seat's hidden fact."""

    config: Config
    view: PublicView
    seat: int
    deal: int
    """Phases dealt so far (public: everyone saw them dealt)."""
    hand: Hand
    own_played: Hand
    """The cards this seat played this phase (its face-down discards among them)."""
    turned: tuple[str | None, ...]
    """The face-down card of each flipped square (seen face up before its flip), else None."""


def knowledge_of(state: State, seat: int) -> Knowledge:
    """What `seat` knows of a position (the table's part: the search gets only this)."""
    turned = tuple(c if f else None for c, f in zip(state.under, state.flipped, strict=True))
    return Knowledge(
        state.config, public_view(state), seat, state.deal,
        state.hands[seat], state.played[seat], turned,
    )  # fmt: skip


def sample(knowledge: Knowledge, rng: random.Random) -> Board:
    """A whole position consistent with what the seat knows, on a board: the cards it has
    not seen dealt at random to the others' hands and the unflipped face-down squares (only
    their colours matter, FD-1), and a new seed for the phases to come."""
    known, unseen = _known(knowledge)
    cards = list(unseen)
    rng.shuffle(cards)
    deal = iter(cards)
    view = knowledge.view
    return Board.of(
        config=knowledge.config, seed=rng.randrange(SEED_RANGE), deal=knowledge.deal,
        manche=view.manche, phase=view.phase, extra=view.extra, overtime=view.overtime,
        tied=view.tied, stage=view.stage, turn=view.turn, first=view.first,
        tokens=view.tokens, manche_wins=view.manche_wins, baseline=view.baseline,
        owners=view.owners, faces=known.faces, flipped=view.flipped,
        under=tuple(next(deal) if c == UNSEEN else c for c in known.under),
        pending=known.pending, winners=view.winners, hand_sizes=view.hand_sizes,
        hands=tuple(tuple(next(deal) if c == UNSEEN else c for c in h) for h in known.hands),
        deck=(), discards=known.paid, played=known.played,
    )  # fmt: skip


@dataclass(frozen=True)
class _Known:
    """A seat's position as cards, UNSEEN for every card it has not seen."""

    faces: tuple[int, ...]
    under: tuple[int, ...]
    pending: int
    hands: tuple[tuple[int, ...], ...]
    played: tuple[tuple[int, ...], ...]
    """Its own cards played this phase; nothing for the others' (it counts only its own)."""
    paid: tuple[int, ...]
    """Its own cards played this phase that went face down: its discards and flips' pay."""


@functools.lru_cache(maxsize=4)  # a decision draws many times from one knowledge
def _known(knowledge: Knowledge) -> tuple[_Known, tuple[int, ...]]:
    """The seat's position with UNSEEN for every card it has not seen (the unflipped
    face-down squares, the others' hands), and those cards in DECK order: the part of a
    draw that is the same every time."""
    view, seat = knowledge.view, knowledge.seat
    board = [c for c in (*view.faces, *knowledge.turned) if c is not None]
    seen = {*board, *knowledge.hand, *knowledge.own_played}
    if view.pending is not None:
        seen.add(view.pending)
    own_played = tuple(CARD[c] for c in knowledge.own_played)
    known = _Known(
        faces=tuple(_card(c) for c in view.faces),
        under=tuple(
            CARD[turned] if turned is not None else UNSEEN if dealt else NO_CARD
            for turned, dealt in zip(knowledge.turned, view.dealt, strict=True)
        ),
        pending=_card(view.pending),
        hands=tuple(
            tuple(CARD[c] for c in knowledge.hand) if s == seat else (UNSEEN,) * size
            for s, size in enumerate(view.hand_sizes)
        ),
        played=tuple(own_played if s == seat else () for s in range(PLAYERS)),
        paid=tuple(CARD[c] for c in knowledge.own_played if c not in board),
    )
    return known, tuple(CARD[c] for c in DECK if c not in seen)


def _card(name: str | None) -> int:
    return NO_CARD if name is None else CARD[name]


def move_of(action: Action) -> Move:
    """An engine action as the search's move."""
    if isinstance(action, PlaceFirst):
        return (PLACE, 0, action.square - 1)
    if isinstance(action, Discard):
        return (DISCARD, COLOUR[CARD[action.card]], -1)
    if isinstance(action, Build | Flip):
        kind = BUILD if isinstance(action, Build) else FLIP
        return (kind, COLOUR[CARD[action.card]], action.square - 1)
    raise ValueError(f"the thinking bot plays a seeded deal: no {action.name}")


def legal(board: Board) -> tuple[Move, ...]:
    """The moves legal on a board: builds, flips, discards, by colour."""
    if board.stage is OVER:
        return ()
    if board.stage is PLACE_FIRST:
        return tuple((PLACE, 0, sq) for sq in range(SQUARES))
    colours = sorted(set(board.colours[board.turn]))
    return (
        *((BUILD, c, sq) for c in colours for sq in board.free),
        *((FLIP, c, sq) for c in colours for sq in board.flippable),
        *((DISCARD, c, -1) for c in colours),
    )


def _index(board: Board, colour: int) -> int:
    """The first card of `colour` in the hand of the seat to play."""
    return board.colours[board.turn].index(colour)


def step(board: Board, move: Move) -> Board:
    """The move played on `board` itself (the search plays each move on its own fork)."""
    kind, colour, square = move
    board.play(move if kind == PLACE else (kind, _index(board, colour), square))
    return board


def _heuristic_move(board: Board, rng: random.Random) -> Move:
    """The heuristic bot's play, as a move (its card by colour)."""
    kind, index, square = heuristic_play(board, rng)
    if kind == PLACE:
        return (kind, index, square)
    return (kind, board.colours[board.turn][index], square)


def playout(board: Board, rng: random.Random) -> tuple[float, ...]:
    """The heuristic bots play on `HORIZON` plays (less when the phase ends first)."""
    deal = board.deal
    for _ in range(HORIZON):
        if board.stage is OVER or board.deal != deal:
            break
        board.play(heuristic_play(board, rng))
    if board.stage is OVER:
        return win_values(PLAYERS, board.winners)
    config = board.config
    phases_left = (config.manches - board.manche) * config.phases + config.phases - board.phase
    plays_left = board.cards + HAND_SIZE * PLAYERS * max(0, phases_left)
    return estimate_values([float(t) for t in board.tokens], max(1.0, SPREAD * plays_left**0.5))


THINKING: Thinking[Knowledge, Board, Move] = Thinking(
    sample=sample,
    legal=legal,
    step=step,
    mover=lambda board, move: board.turn,
    playout=playout,
    paired=True,
    fork=lambda board: board.fork(),
)


# ------------------------------------------------------------------ restricted play


def _never_flip(board: Board, move: Move) -> bool:
    return move[0] != FLIP


def _never_break(board: Board, move: Move) -> bool:
    """No flip that breaks a line another seat owns (a flip of one's own or of no line
    is allowed): judged on the draw, which is what the seat believes."""
    kind, _, square = move
    if kind != FLIP:
        return True
    seat, turned_up, lines = board.turn, COLOUR[board.under[square]], board.lines
    for line, place, _ in THROUGH[square]:
        full = lines[line]
        if full // CODES - 1 in (-1, seat):
            continue
        if OUTCOMES[seat][(full * 3 + place) * 2 + turned_up - 1] in (BREAKS_LINE, LOSES_THIRD):
            return False
    return True


RESTRICTIONS: Mapping[str, tuple[str, Callable[[Board, Move], bool]]] = {
    "never-flip": ("never flips an element: builds and discards only", _never_flip),
    "never-break": ("never flips into another player's line", _never_break),
}


ThinkingBot = Callable[[Knowledge, Sequence[Action]], Action]
"""The thinking bot: (its seat's knowledge, its legal actions) -> its action. It is never
given a State: the table hands it `knowledge_of(state, seat)` (`seat_bot`)."""


def thinking_bot(spec: Spec, rng: random.Random) -> ThinkingBot:
    """The thinking bot of a seat. Its search weighs moves (a card by its colour); it plays
    the first legal action of the move it chose."""
    allowed = None if spec.restriction is None else RESTRICTIONS[spec.restriction][1]

    def bot(knowledge: Knowledge, legal: Sequence[Action]) -> Action:
        actions: dict[Move, Action] = {}
        for action in legal:
            actions.setdefault(move_of(action), action)
        if len(actions) == 1:
            return next(iter(actions.values()))
        prior = _heuristic_move(sample(knowledge, rng), rng)
        chosen = think(
            THINKING, knowledge, knowledge.seat, list(actions), spec.iterations, rng, allowed,
            prior,
        )  # fmt: skip
        return actions[chosen]

    return bot


def seat_bot(kind: str, rng: random.Random) -> Bot:
    """The bot of a kind a variant names, under the Flip Done bots' contract (state ->
    action): a thinking one receives only its seat's knowledge of the state."""
    spec = parse_kind(kind)
    if spec is None:
        return make_bot(kind, rng)
    thinking = thinking_bot(spec, rng)
    return lambda state: thinking(knowledge_of(state, state.turn), legal_actions(state))


def play_of(board: Board, action: Action) -> Play:
    """The board's play of an action legal on it (a SEEDED deal)."""
    if isinstance(action, PlaceFirst):
        return (PLACE, 0, action.square - 1)
    if isinstance(action, Build | Flip | Discard):
        index = board.hands[board.turn].index(CARD[action.card])
        if isinstance(action, Discard):
            return (DISCARD, index, -1)
        return (BUILD if isinstance(action, Build) else FLIP, index, action.square - 1)
    raise ValueError(f"the board deals its own cards: no {action.name} (FD-2, seeded)")


def board_bot(kind: str, rng: random.Random) -> BoardBot:
    """The bot of a kind a variant names, on the lab's board: a thinking one is handed its
    seat's knowledge of the position, as at a table (`seat_bot`)."""
    if parse_kind(kind) is None:
        return BOTS[kind]
    bot = seat_bot(kind, rng)

    def choose(board: Board, _rng: random.Random) -> Play:
        return play_of(board, bot(State.of(board.fork())))

    return choose
