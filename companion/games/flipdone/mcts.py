"""The thinking bot of Flip Done: what a seat knows, and how to draw a whole position
consistent with it (companion/lab/mcts.py searches over the draws).

A seat knows the public view (the face-up elements, who owns which line, the tokens, the
sizes of the hands, the deck and the discard pile), the face-down card under every
flipped square (it was face up before the flip), its own hand and the cards it played
this phase. Every other card is one it has not seen: a draw deals their colours at random
to the others' hands and the unflipped face-down squares (only a card's colour matters,
FD-1), and draws a new seed for the phases not dealt yet (the true one would tell the
next deals). The search runs on the fast path (`fast.common.resume` sets a fast game at
the drawn position), a play being (kind, colour, square): two cards of one colour are
one choice. The search is paired (companion/lab/mcts.py): the seat's moves are compared
in the same drawn worlds, each played out by the others' replies (the heuristic bots)
to the seat's next turn; a position is worth a share of the win by tokens (FD-10: most
tokens wins) as sure as the plays left allow, or the win itself at the game's end.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.games.flipdone.bots import Bot, make_bot
from companion.games.flipdone.fast.bots import heuristic_play
from companion.games.flipdone.fast.common import View, colour, resume
from companion.games.flipdone.fast.core import (
    BREAKS_LINE,
    BUILD,
    CODES,
    DISCARD,
    EMPTY,
    FLIP,
    LOSES_THIRD,
    OUTCOMES,
    PLACE,
    RED,
    THROUGH,
    FastGame,
    Play,
)
from companion.games.flipdone.rules.actions import Action, Build, Discard, Flip, PlaceFirst
from companion.games.flipdone.rules.config import DECK, HAND_SIZE, PLAYERS, SQUARES, Config, Hand
from companion.games.flipdone.rules.engine import legal_actions
from companion.games.flipdone.rules.state import PublicView, State, public_view
from companion.lab.mcts import Spec, Thinking, estimate_values, parse_kind, think, win_values
from companion.lab.model import GameRecord, Variant
from companion.lab.thinking import ThinkingTable

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


def sample(knowledge: Knowledge, rng: random.Random) -> FastGame:
    """A whole position consistent with what the seat knows, on the fast path: the colours
    of the cards it has not seen dealt at random to the others' hands and the unflipped
    face-down squares, and a new seed for the phases to come."""
    known, unseen = _known(knowledge)
    cards = list(unseen)
    rng.shuffle(cards)
    deal = iter(cards)
    under = tuple(next(deal) if c == UNSEEN else c for c in known.under)
    hands = tuple(tuple(next(deal) if c == UNSEEN else c for c in h) for h in known.hands)
    at = known._replace(under=under, hands=hands)
    return resume(knowledge.config, rng.randrange(SEED_RANGE), at)


@functools.lru_cache(maxsize=4)  # a decision draws many times from one knowledge
def _known(knowledge: Knowledge) -> tuple[View, tuple[int, ...]]:
    """The seat's position with UNSEEN for every card it has not seen (the unflipped
    face-down squares, the others' hands), and those cards' colours: the part of a draw
    that is the same every time."""
    view, seat = knowledge.view, knowledge.seat
    board = [c for c in (*view.faces, *knowledge.turned) if c is not None]
    seen = {*board, *knowledge.hand, *knowledge.own_played}
    if view.pending is not None:
        seen.add(view.pending)
    under = tuple(
        colour(turned) if turned is not None else UNSEEN if dealt else EMPTY
        for turned, dealt in zip(knowledge.turned, view.dealt, strict=True)
    )
    hands = tuple(
        tuple(colour(c) for c in knowledge.hand) if s == seat else (UNSEEN,) * size
        for s, size in enumerate(view.hand_sizes)
    )
    paid = [colour(c) for c in knowledge.own_played if c not in board]
    board_colours = [colour(c) for c in board]
    known = View(
        stage=view.stage, deal=knowledge.deal, manche=view.manche, phase=view.phase,
        extra=view.extra, overtime=view.overtime, tied=view.tied, first=view.first,
        turn=view.turn, tokens=view.tokens, baseline=view.baseline,
        manche_wins=view.manche_wins, owners=view.owners,
        faces=tuple(colour(c) for c in view.faces), flipped=view.flipped,
        under=under, pending=colour(view.pending), hands=hands,
        paid=tuple((len(paid), paid.count(RED)) if s == seat else (0, 0) for s in range(PLAYERS)),
        board=(len(board_colours), board_colours.count(RED)), winners=view.winners,
    )  # fmt: skip
    return known, tuple(colour(c) for c in DECK if c not in seen)


def move_of(action: Action) -> Move:
    """A readable action as the search's move."""
    if isinstance(action, PlaceFirst):
        return (PLACE, 0, action.square - 1)
    if isinstance(action, Discard):
        return (DISCARD, colour(action.card), -1)
    if isinstance(action, Build | Flip):
        kind = BUILD if isinstance(action, Build) else FLIP
        return (kind, colour(action.card), action.square - 1)
    raise ValueError(f"the thinking bot plays a seeded deal: no {action.name}")


def legal(game: FastGame) -> tuple[Move, ...]:
    """The moves legal in a fast position: builds, flips, discards, by colour."""
    if game.over:
        return ()
    if game.placing:
        return tuple((PLACE, 0, sq) for sq in range(SQUARES))
    colours = sorted(set(game.hands[game.turn]))
    return (
        *((BUILD, c, sq) for c in colours for sq in game.free),
        *((FLIP, c, sq) for c in colours for sq in game.flippable),
        *((DISCARD, c, -1) for c in colours),
    )


def step(game: FastGame, move: Move) -> FastGame:
    """The move played on `game` itself (the search plays each move on its own fork)."""
    kind, card, square = move
    game.play(move if kind == PLACE else (kind, game.hands[game.turn].index(card), square))
    return game


def _heuristic_move(game: FastGame, rng: random.Random) -> Move:
    """The heuristic bot's play, as a move (its card by colour)."""
    kind, index, square = heuristic_play(game, rng)
    return (kind, index if kind == PLACE else game.hands[game.turn][index], square)


def playout(game: FastGame, rng: random.Random) -> tuple[float, ...]:
    """The heuristic bots play on `HORIZON` plays (less when the phase ends first)."""
    deal = game.deal
    for _ in range(HORIZON):
        if game.over or game.deal != deal:
            break
        game.play(heuristic_play(game, rng))
    if game.over:
        return win_values(PLAYERS, game.tally.winners)
    phases_left = (game.manches - game.manche) * game.phases + game.phases - game.phase
    plays_left = game.cards + HAND_SIZE * PLAYERS * max(0, phases_left)
    return estimate_values([float(t) for t in game.tokens], max(1.0, SPREAD * plays_left**0.5))


THINKING: Thinking[Knowledge, FastGame, Move] = Thinking(
    sample=sample,
    legal=legal,
    step=step,
    mover=lambda game, move: game.turn,
    playout=playout,
    paired=True,
    fork=FastGame.fork,
)


# ------------------------------------------------------------------ restricted play


def _never_flip(game: FastGame, move: Move) -> bool:
    return move[0] != FLIP


def _never_break(game: FastGame, move: Move) -> bool:
    """No flip that breaks a line another seat owns (a flip of one's own or of no line
    is allowed): judged on the draw, which is what the seat believes."""
    kind, _, square = move
    if kind != FLIP:
        return True
    seat, turned_up, lines = game.turn, game.under[square], game.lines
    for line, place, _ in THROUGH[square]:
        full = lines[line]
        if full // CODES - 1 in (-1, seat):
            continue
        if OUTCOMES[seat][(full * 3 + place) * 2 + turned_up - 1] in (BREAKS_LINE, LOSES_THIRD):
            return False
    return True


RESTRICTIONS: Mapping[str, tuple[str, Callable[[FastGame, Move], bool]]] = {
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


def play(variant: Variant, index: int) -> GameRecord:
    """Game `index` of a variant seating thinking bots, on the readable engine."""
    from companion.games.flipdone.lab import play_reference

    return play_reference(variant, index, seat_bot)


TABLE = ThinkingTable(
    restrictions={name: words for name, (words, _) in RESTRICTIONS.items()},
    stand_in="heuristic",
    play=play,
)
