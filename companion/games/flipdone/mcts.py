"""The thinking bot of Flip Done: what a seat knows, and how to draw a whole position
consistent with it (companion/lab/mcts.py searches over the draws).

A seat knows the public view (the face-up elements, who owns which line, the tokens, the
sizes of the hands, the deck and the discard pile), the face-down card under every
flipped square (it was face up before the flip), its own hand and the cards it played
this phase. Every other card is one it has not seen: a draw deals them at random to the
others' hands, the unflipped face-down squares, the others' discards and the deck, and
draws a new seed for the phases not dealt yet (the true one would tell the next deals).
Playouts are random plays to the end of the phase (the heuristic bot weighs each flip
with the engine: ten times a random play's cost); a position is
worth a softmax share of the win by tokens (FD-10: most tokens wins).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from companion.games.flipdone.bots import Bot, heuristic_action, make_bot
from companion.games.flipdone.rules.actions import Action, Flip
from companion.games.flipdone.rules.config import DECK, Config, Hand, Stage
from companion.games.flipdone.rules.engine import apply, legal_actions
from companion.games.flipdone.rules.state import PublicView, State, public_view
from companion.lab.mcts import Spec, Thinking, estimate_values, parse_kind, think, win_values
from companion.lab.model import GameRecord, Variant
from companion.lab.thinking import ThinkingTable

HORIZON = 12
"""Playout plays at most, when the phase does not end first."""
TOKENS = 2.0
"""A lead of this many tokens is worth e to 1 in an unfinished playout's value."""
SEED_RANGE = 2**31


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


def sample(knowledge: Knowledge, rng: random.Random) -> State:
    """A whole position consistent with what the seat knows, the unseen cards dealt at
    random to the places the public counts give."""
    view, seat = knowledge.view, knowledge.seat
    visible = {c for c in (*view.faces, *knowledge.turned, view.pending) if c is not None}
    own = set(knowledge.hand) | set(knowledge.own_played)
    cards = [c for c in DECK if c not in visible and c not in own]
    rng.shuffle(cards)
    own_discards = [c for c in knowledge.own_played if c not in visible]
    deal = iter(cards)

    def take(count: int) -> tuple[str, ...]:
        return tuple(next(deal, DECK[0]) for _ in range(max(0, count)))

    under = tuple(
        turned if turned is not None else (take(1)[0] if dealt else None)
        for turned, dealt in zip(knowledge.turned, view.dealt, strict=True)
    )
    hands = tuple(
        knowledge.hand if s == seat else tuple(sorted(take(size)))
        for s, size in enumerate(view.hand_sizes)
    )
    discards = (*own_discards, *take(view.discard_size - len(own_discards)))
    deck = take(view.deck_size)
    played = tuple(knowledge.own_played if s == seat else () for s in range(len(view.hand_sizes)))
    return State(
        config=knowledge.config, seed=rng.randrange(SEED_RANGE), deal=knowledge.deal,
        manche=view.manche, phase=view.phase, extra=view.extra, overtime=view.overtime,
        tied=view.tied, stage=view.stage, turn=view.turn, first=view.first,
        tokens=view.tokens, manche_wins=view.manche_wins, baseline=view.baseline,
        owners=view.owners, faces=view.faces, flipped=view.flipped, pending=view.pending,
        winners=view.winners, hand_sizes=view.hand_sizes, under=under, hands=hands,
        deck=deck, discards=discards, played=played,
    )  # fmt: skip


def mover(state: State, action: Action) -> int:
    seat: int = getattr(action, "seat", state.turn)
    return seat


def playout(state: State, rng: random.Random) -> tuple[float, ...]:
    """Random plays for every seat to the end of the phase or `HORIZON` plays."""
    phase, manche = state.phase, state.manche
    for _ in range(HORIZON):
        if state.stage is Stage.OVER or (state.phase, state.manche) != (phase, manche):
            break
        state, _ = apply(state, rng.choice(legal_actions(state)))
    if state.stage is Stage.OVER:
        return win_values(len(state.tokens), state.winners)
    return estimate_values([float(t) for t in state.tokens], TOKENS)


THINKING: Thinking[Knowledge, State, Action] = Thinking(
    sample=sample,
    legal=legal_actions,
    step=lambda state, action: apply(state, action)[0],
    mover=mover,
    playout=playout,
)


# ------------------------------------------------------------------ restricted play


def _never_flip(state: State, action: Action) -> bool:
    return not isinstance(action, Flip)


def _never_break(state: State, action: Action) -> bool:
    """No flip that breaks a line another seat owns (a flip of one's own or of no line
    is allowed): judged on the draw, which is what the seat believes."""
    if not isinstance(action, Flip):
        return True
    after, _ = apply(state, action)
    return all(
        after.owners[i] == owner or owner in (None, action.seat)
        for i, owner in enumerate(state.owners)
    )


RESTRICTIONS: Mapping[str, tuple[str, Callable[[State, Action], bool]]] = {
    "never-flip": ("never flips an element (builds and discards only)", _never_flip),
    "never-break": ("never flips into another player's line", _never_break),
}


def thinking_bot(spec: Spec, rng: random.Random) -> Bot:
    """The thinking bot under the Flip Done bots' contract (state -> action): the table
    hands it the state, and it keeps only what its seat knows (`knowledge_of`)."""
    allowed = None if spec.restriction is None else RESTRICTIONS[spec.restriction][1]

    def bot(state: State) -> Action:
        seat = state.turn
        knowledge = knowledge_of(state, seat)
        legal = legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        prior = heuristic_action(sample(knowledge, rng), rng)
        return think(
            THINKING, knowledge, seat, legal, spec.iterations, rng, allowed, prior
        )  # fmt: skip

    return bot


def seat_bot(kind: str, rng: random.Random) -> Bot:
    spec = parse_kind(kind)
    return make_bot(kind, rng) if spec is None else thinking_bot(spec, rng)


def play(variant: Variant, index: int) -> GameRecord:
    """Game `index` of a variant seating thinking bots, on the readable engine."""
    from companion.games.flipdone.lab import play_reference

    return play_reference(variant, index, seat_bot)


TABLE = ThinkingTable(
    restrictions={name: words for name, (words, _) in RESTRICTIONS.items()},
    stand_in="heuristic",
    play=play,
)
