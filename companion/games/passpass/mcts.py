"""The thinking bot of PtiPassPass and PhiPassPass: what a seat knows, and how to draw a
whole position consistent with it (companion/lab/mcts.py searches over the draws).

A seat knows the public view (hats' and hands' token counts included, PTI-14), its own
hand and the token it holds as Magicien, the table's rules, and what it remembers of each
hat from the public events (`HatMemory`: a kind when shown or placed by itself, "?"
otherwise). A draw deals the tokens it cannot account for at random to the unknown places
(the others' hands, the hats' unknown tokens, a token in flight it did not see).
Playouts are the heuristic bots, each with a fresh memory (they know every hat's count,
no kind), to the end of the manche or `HORIZON` actions.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.games.passpass.bots import UNKNOWN, Bot, HatMemory, HeuristicBot, make_bot
from companion.games.passpass.rules import (
    Action,
    Announce,
    Call,
    Challenge,
    CloseWindow,
    Config,
    Designate,
    Designated,
    Event,
    MancheStarted,
    Phase,
    PlayerView,
    State,
    apply,
    legal_actions,
)
from companion.games.passpass.selfplay import choose
from companion.lab.mcts import Spec, Thinking, estimate_values, parse_kind, think, win_values
from companion.lab.model import GameRecord, Variant
from companion.lab.thinking import ThinkingTable

HORIZON = 40
"""Playout actions at most, when the manche does not end first."""
HONESTY = 0.7
"""What the seat believes of an announce it could not check: true this often (the
heuristic bots bluff three times in ten)."""


@dataclass(frozen=True)
class Knowledge:
    """All one seat knows: no field holds another seat's hidden fact."""

    config: Config
    """The table's rules and mat (public)."""
    view: PlayerView
    """The public view, the seat's own hand and the token it holds as Magicien."""
    starter: int
    """The seat that started this manche (announced by the table, PTI-4)."""
    seen: tuple[tuple[str, ...], ...]
    """What the seat remembers under each hat: a kind, or "?" for a token it never saw."""
    flight: str | None
    """The Magicien's token in flight, when the seat saw it (its own, or shown, PTI-4)."""


class Memory(HatMemory):
    """A seat's memory of the public events (the hats, the manche's starter, the token in
    flight when shown) and of its own designations."""

    def __init__(self, seat: int, spots: int, starter: int) -> None:
        super().__init__(seat, spots)
        self.starter = starter
        self.shown: str | None = None

    def observe(self, events: Sequence[Event]) -> None:
        super().observe(events)
        for e in events:
            if isinstance(e, MancheStarted):
                self.starter = e.starter
            elif isinstance(e, Designated):
                self.shown = e.shown

    def knowledge(self, config: Config, view: PlayerView) -> Knowledge:
        in_flight = view.public.phase in (Phase.ANNOUNCE, Phase.WINDOW)
        flight = (view.holding or self.shown) if in_flight else None
        return Knowledge(
            config, view, self.starter, tuple(tuple(h) for h in self.hats), flight or None
        )


def sample(knowledge: Knowledge, rng: random.Random) -> State:
    """A whole position consistent with what the seat knows, the unknown tokens dealt at
    random (counts as the public view gives them)."""
    view, public, config = knowledge.view, knowledge.view.public, knowledge.config
    remembered = zip(knowledge.seen, public.hat_counts, strict=True)
    hats = [_fit(list(hat), count) for hat, count in remembered]
    in_flight = public.phase in (Phase.ANNOUNCE, Phase.WINDOW)
    pool = Counter({kind: public.players for kind in config.rules.tokens})
    pool.subtract(view.hand)
    pool.subtract(k for hat in hats for k in hat if k != UNKNOWN)
    if knowledge.flight is not None:
        pool[knowledge.flight] -= 1
    tokens = sorted(pool.elements())
    rng.shuffle(tokens)
    holding = knowledge.flight if in_flight else None
    if in_flight and holding is None:  # a token it did not see: most announces are true
        announced = public.announced
        honest = announced in tokens and rng.random() < HONESTY
        holding = announced if honest else (tokens[0] if tokens else None)
        if holding is not None:
            tokens.remove(holding)
        else:
            holding = rng.choice(config.rules.tokens)
    slots = sum(hat.count(UNKNOWN) for hat in hats)
    slots += sum(c for s, c in enumerate(public.hand_counts) if s != view.seat)
    while len(tokens) < slots:  # a memory at odds with the counts: any kind will do
        tokens.append(rng.choice(config.rules.tokens))
    deal = iter(tokens)
    hats = [[next(deal) if k == UNKNOWN else k for k in hat] for hat in hats]
    hands = [
        view.hand if s == view.seat else tuple(next(deal) for _ in range(count))
        for s, count in enumerate(public.hand_counts)
    ]
    return State(
        config=config,
        manche=public.manche,
        starter=knowledge.starter,
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
        hats=tuple(tuple(sorted(h)) for h in hats),
        hands=tuple(tuple(sorted(h)) for h in hands),
        holding=holding,
    )


def _fit(hat: list[str], count: int) -> list[str]:
    """The remembered hat, cut or padded with unknown tokens to the public count."""
    return (hat + [UNKNOWN] * count)[:count]


def mover(state: State, action: Action) -> int:
    """Whose decision an action is; the clock's closing of a timed window counts as the
    Magicien's (everyone let the placement go)."""
    if isinstance(action, CloseWindow):
        return state.magician
    seat: int = action.seat  # type: ignore[attr-defined]  # every other action's own
    return seat


def playout(state: State, rng: random.Random) -> tuple[float, ...]:
    """The heuristic bots play on to the end of the manche or `HORIZON` actions: the win
    if the game ended, otherwise a share by manches won, then tokens placed."""
    players, layout = state.config.players, state.config.layout
    bots = [HeuristicBot(rng, seat, layout) for seat in range(players)]
    for bot in bots:
        bot.memory.hats = [[UNKNOWN] * len(hat) for hat in state.hats]
    manche = state.manche
    for _ in range(HORIZON):
        if state.phase is Phase.OVER or state.manche != manche:
            break
        state, events = apply(state, choose(state, bots))
        for bot in bots:
            bot.observe(events)
    if state.phase is Phase.OVER:
        return win_values(players, () if state.winner is None else (state.winner,))
    return estimate_values(
        [2.0 * v + (3 - len(h)) / 4 for v, h in zip(state.victories, state.hands, strict=True)]
    )


THINKING: Thinking[Knowledge, State, Action] = Thinking(
    sample=sample,
    legal=legal_actions,
    step=lambda state, action: apply(state, action)[0],
    mover=mover,
    playout=playout,
)


# ------------------------------------------------------------------ restricted play


def _never_bluff(state: State, action: Action) -> bool:
    return not isinstance(action, Announce) or action.token == state.holding


def _never_call(challenge: Challenge) -> Callable[[State, Action], bool]:
    def allowed(state: State, action: Action) -> bool:
        return not (isinstance(action, Call) and action.challenge is challenge)

    return allowed


def _always_ok(state: State, action: Action) -> bool:
    return not isinstance(action, Call)


RESTRICTIONS: Mapping[str, tuple[str, Callable[[State, Action], bool]]] = {
    "never-bluff": ("announces the token it placed, always", _never_bluff),
    "never-menteur": ("never calls Menteur", _never_call(Challenge.MENTEUR)),
    "never-doublon": ("never calls Doublon", _never_call(Challenge.DOUBLON)),
    "always-ok": ("never challenges: always OK", _always_ok),
}
"""Restricted play: name -> (what the agent may not do, in words; what it may do)."""


class MctsBot:
    """The thinking bot at one seat, under the PassPass bots' contract (`bots.Bot`): it is
    given its seat's view and the public events, never a State."""

    def __init__(self, spec: Spec, rng: random.Random, seat: int, config: Config) -> None:
        self.spec = spec
        self.rng = rng
        self.seat = seat
        self.config = config
        self.memory = Memory(seat, config.layout.spots, config.first)
        self.allowed = None if spec.restriction is None else RESTRICTIONS[spec.restriction][1]
        self.twin = HeuristicBot(random.Random(rng.random()), seat, config.layout)
        """The heuristic player of the same memory: the search's prior choice."""
        self.twin.memory = self.memory

    def observe(self, events: Sequence[Event]) -> None:
        self.memory.observe(events)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        knowledge = self.memory.knowledge(self.config, view)
        prior = self.twin.choose(view, legal) if len(legal) > 1 else None
        action = think(
            THINKING, knowledge, self.seat, legal, self.spec.iterations, self.rng, self.allowed,
            prior,
        )  # fmt: skip
        if isinstance(action, Designate):
            self.memory.remember_own_token(action.token)
        return action


def seat_bot(kind: str, rng: random.Random, seat: int, config: Config) -> Bot:
    """The bot of a kind a variant names: a thinking one (`mcts...`) or the game's own."""
    spec = parse_kind(kind)
    if spec is None:
        return make_bot(kind, rng, seat, config.layout)
    return MctsBot(spec, rng, seat, config)


def play(variant: Variant, index: int) -> GameRecord:
    """Game `index` of a variant seating thinking bots, on the readable engine, measured
    from its events like a journaled game (the other seats play as `play_reference`)."""
    from companion.games.passpass.lab import RECORDERS, reference_events

    config, events = reference_events(variant, index, factory=seat_bot)
    return RECORDERS[variant.game](variant.players, config.first, events)


TABLE = ThinkingTable(
    restrictions={name: words for name, (words, _) in RESTRICTIONS.items()},
    stand_in="heuristic",
    play=play,
)
