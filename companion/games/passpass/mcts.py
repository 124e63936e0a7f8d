"""The thinking bot of PtiPassPass and PhiPassPass: what a seat knows, and how to draw a
whole position consistent with it (companion/lab/mcts.py searches over the draws).

A seat knows the public view (hats' and hands' token counts included, PTI-14), its own
hand and the token it holds as Magicien, the table's rules, and what it remembers of each
hat from the public events (`Memory`): a kind when shown or placed by itself, "?"
otherwise; who placed each token, and what colour was announced for it. A draw deals the
tokens it cannot account for at random to the unknown places (the others' hands, the hats'
unknown tokens, a token in flight it did not see), an announced colour believed as often
as the heuristic bots tell the truth.

The search runs on the engine's board (rules/board.py): a draw is a `Board`, actions are
its codes, and every seat of the draw remembers what that seat would (its own
placements' kinds, what was shown), so that the playouts' heuristic bots reveal lines as
the real ones do. A playout goes to the end of the manche (or `HORIZON` actions) and is
worth each seat's chance of winning the game from the manches won (`chances`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TypeVar

from companion.games.passpass.bots import (
    UNKNOWN,
    Bot,
    HatMemory,
    HeuristicBot,
    HeuristicPlay,
    make_bot,
    next_code,
    public_board,
)
from companion.games.passpass.rules import (
    VICTORIES_TO_WIN,
    Action,
    Announced,
    Call,
    Challenge,
    Config,
    Designate,
    Designated,
    Event,
    MancheStarted,
    Phase,
    Placed,
    PlayerView,
    Reveal,
    Revealed,
    Rewarded,
    Swap,
    Swapped,
    Verdict,
    WindowMode,
    best_pick,
)
from companion.games.passpass.rules.board import (
    ANNOUNCE,
    BITS,
    DOUBLON,
    MENTEUR,
    NO,
    OVER,
    REWARD,
    WINDOW,
    Board,
)
from companion.games.passpass.rules.tables import KINDS, SEAT_BITS, UNIT
from companion.lab.mcts import Spec, Thinking, parse_kind, think, win_values

T = TypeVar("T")

HORIZON = 200
"""Playout actions at most, when the manche does not end first (a PhiPassPass manche
takes some 80 actions: every placement is a designation, an announce and two windows)."""
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
    placers: tuple[tuple[int | None, ...], ...]
    """Who placed each of those tokens unseen (the one seat that knows its kind), None for
    a token every seat saw (shown, dropped as a reward, or revealed)."""
    said: tuple[tuple[str | None, ...], ...]
    """The colour announced for each of those tokens (None where nothing was said)."""

    @cached_property
    def deal(self) -> _Deal:
        """What every draw of this knowledge shares (prepared once a decision)."""
        return _prepare(self)


class Memory(HatMemory):
    """A seat's memory of the public events (the hats, who placed what and what was said
    of it, the manche's starter, the token in flight when shown) and of its own
    designations. The lists of `placers` and `said` run along `hats`."""

    def __init__(self, seat: int, spots: int, starter: int) -> None:
        super().__init__(seat, spots)
        self.starter = starter
        self.shown: str | None = None
        self.placers: list[list[int | None]] = [[] for _ in range(spots)]
        self.said: list[list[str | None]] = [[] for _ in range(spots)]
        self._placing: tuple[int | None, str | None] = (None, None)

    def observe(self, events: Sequence[Event]) -> None:
        super().observe(events)
        for e in events:
            self._follow(e)

    def _follow(self, e: Event) -> None:
        placers, said = self.placers, self.said
        if isinstance(e, MancheStarted):
            self.starter = e.starter
            self.placers = [[] for _ in placers]
            self.said = [[] for _ in said]
        elif isinstance(e, Designated):
            self.shown = e.shown
            self._placing = (None if e.shown else e.seat, None)
        elif isinstance(e, Announced):
            self._placing = (self._placing[0], e.token)
        elif isinstance(e, Placed):
            placers[e.spot - 1].append(self._placing[0])
            said[e.spot - 1].append(self._placing[1])
        elif isinstance(e, Verdict) and e.challenge is Challenge.DOUBLON:
            placers[e.spot - 1], said[e.spot - 1] = [], []
        elif isinstance(e, Rewarded) and e.choice == "drop":
            assert e.spot is not None
            placers[e.spot - 1].append(None)
            said[e.spot - 1].append(None)
        elif isinstance(e, Swapped):
            a, b = e.spots[0] - 1, e.spots[1] - 1
            placers[a], placers[b] = placers[b], placers[a]
            said[a], said[b] = said[b], said[a]
        elif isinstance(e, Revealed):
            for spot, hat in zip(e.spots, e.hats, strict=True):
                placers[spot - 1] = [None] * len(hat)
                said[spot - 1] = [None] * len(hat)

    def knowledge(self, config: Config, view: PlayerView) -> Knowledge:
        in_flight = view.public.phase in (Phase.ANNOUNCE, Phase.WINDOW)
        flight = (view.holding or self.shown) if in_flight else None
        return Knowledge(
            config, view, self.starter, _frozen(self.hats), flight or None,
            _frozen(self.placers), _frozen(self.said),
        )  # fmt: skip


def _frozen(lists: Sequence[Sequence[T]]) -> tuple[tuple[T, ...], ...]:
    return tuple(tuple(x) for x in lists)


# ------------------------------------------------------------------ a draw of the position


def sample(knowledge: Knowledge, rng: random.Random) -> Board:
    """A whole position consistent with what the seat knows, the unknown tokens dealt at
    random (counts as the public view gives them), an announced colour believed
    `HONESTY` of the time."""
    deal = knowledge.deal
    tokens = list(deal.pool)
    rng.shuffle(tokens)
    holding = deal.flight
    if deal.guess:  # a token in flight it did not see: most announces are true
        holding = _believed(deal.announced, tokens, rng)
        if holding == NO:
            holding = tokens.pop() if tokens else rng.randrange(KINDS)
    hats = [list(hat) for hat in deal.hats]
    for h, i, told in deal.told:
        kind = _believed(told, tokens, rng)
        if kind != NO:
            hats[h][i] = kind
    while len(tokens) < deal.slots:  # a memory at odds with the counts: any kind will do
        tokens.append(rng.randrange(KINDS))
    deal_next = iter(tokens).__next__
    g = deal.template.fork()
    g.hands = [
        deal.hand if count < 0 else sum(UNIT[deal_next()] for _ in range(count))
        for count in deal.hand_counts
    ]
    g.holding = holding
    codes, seen, secret = [], [], []
    for hat, placers in zip(hats, deal.placers, strict=True):
        code = shown = own = 0
        for i, kind in enumerate(hat):
            unit = UNIT[deal_next() if kind == NO else kind]
            code += unit
            if placers[i] == NO:
                shown += unit
            else:
                own += unit << (SEAT_BITS * placers[i])
        codes.append(code)
        seen.append(shown)
        secret.append(own)
    g.hats, g.seen, g.secret = codes, seen, secret
    return g


def _believed(told: int, tokens: list[int], rng: random.Random) -> int:
    """The announced kind, taken from `tokens` `HONESTY` of the time when one is left;
    else NO (the kind is drawn with the others)."""
    if told in tokens and rng.random() < HONESTY:
        tokens.remove(told)
        return told
    return NO


@dataclass(frozen=True)
class _Deal:
    """What every draw of one knowledge shares: the known kinds (indices), the tokens left
    to deal, and the public position on the board."""

    template: Board
    """The public position; a draw copies it and deals the hidden tokens."""
    hats: tuple[tuple[int, ...], ...]
    """Each hat's kinds as the seat knows them, NO where unknown."""
    placers: tuple[tuple[int, ...], ...]
    """Who alone knows each token's kind, NO where every seat saw it."""
    told: tuple[tuple[int, int, int], ...]
    """(hat, place, announced kind) of each unknown token whose colour was announced."""
    pool: tuple[int, ...]
    """The kinds the seat cannot place."""
    slots: int
    """How many unknown places they fill (hats and the other hands)."""
    hand: int
    """The seat's own hand, packed."""
    hand_counts: tuple[int, ...]
    """Each other hand's count, -1 for the seat's own."""
    flight: int
    """The token in flight when the seat saw it, else NO."""
    guess: bool
    """Whether a token in flight is to be guessed from its announce."""
    announced: int


def _prepare(knowledge: Knowledge) -> _Deal:
    view, public, config = knowledge.view, knowledge.view.public, knowledge.config
    index = {name: k for k, name in enumerate(config.rules.tokens)}
    counts = public.hat_counts
    hats = [
        tuple(NO if k == UNKNOWN else index[k] for k in _fit(list(h), c, UNKNOWN))
        for h, c in zip(knowledge.seen, counts, strict=True)
    ]
    placers = [
        tuple(NO if p is None else p for p in _fit(list(ps), c, None))
        for ps, c in zip(knowledge.placers, counts, strict=True)
    ]
    told = tuple(
        (h, i, index[t])
        for h, said in enumerate(knowledge.said)
        for i, t in enumerate(said[: counts[h]])
        if t is not None and hats[h][i] == NO
    )
    pool = Counter({k: public.players for k in range(KINDS)})
    pool.subtract(index[k] for k in view.hand)
    pool.subtract(k for hat in hats for k in hat if k != NO)
    in_flight = public.phase in (Phase.ANNOUNCE, Phase.WINDOW)
    flight = NO if knowledge.flight is None else index[knowledge.flight]
    if flight != NO:
        pool[flight] -= 1
    announced = NO if public.announced is None else index[public.announced]
    own = view.seat
    return _Deal(
        template=_public(knowledge),
        hats=tuple(hats),
        placers=tuple(placers),
        told=told,
        pool=tuple(sorted(pool.elements())),
        slots=sum(hat.count(NO) for hat in hats)
        + sum(c for s, c in enumerate(public.hand_counts) if s != own),
        hand=sum(UNIT[index[k]] for k in view.hand),
        hand_counts=tuple(-1 if s == own else c for s, c in enumerate(public.hand_counts)),
        flight=flight if in_flight else NO,
        guess=in_flight and flight == NO,
        announced=announced,
    )


def _fit(hat: list[T], count: int, missing: T) -> list[T]:
    """The remembered hat, cut or padded to the public count."""
    return (hat + [missing] * count)[:count]


def _public(knowledge: Knowledge) -> Board:
    """The public position on the board (hats, hands and the token in flight are dealt by
    each draw)."""
    return public_board(knowledge.config, knowledge.view.public, knowledge.starter)


# ------------------------------------------------------------------ the rules of the search


def _step(g: Board, code: int) -> Board:
    """The position after an action, played on `g` itself (each iteration draws its own)."""
    g.play(code)
    return g


def mover(g: Board, code: int) -> int:
    """Whose decision an action is; the clock's closing of a timed window counts as the
    Magicien's (everyone let the placement go)."""
    phase = g.phase
    if phase is WINDOW:
        if code:
            return code >> 2
        return g.speaker if g.speaker >= 0 else g.magician
    if phase is REWARD:
        return g.challenger
    return g.magician


def playout(g: Board, rng: random.Random) -> tuple[float, ...]:
    """The heuristic bots play on to the end of the manche (or `HORIZON` actions): the win
    if the game ended, otherwise each seat's `chances` from the manches won."""
    bots = [HeuristicPlay(rng, seat) for seat in range(g.players)]
    manche = g.manche
    for _ in range(HORIZON):
        if g.phase is OVER or g.manche != manche:
            break
        g.play(next_code(g, bots))
    if g.phase is OVER:
        return win_values(g.players, (g.winner,))
    return chances(tuple(g.victories))


@lru_cache(maxsize=1024)
def chances(victories: tuple[int, ...]) -> tuple[float, ...]:
    """Each seat's chance to win the game from these manches won, every manche from now
    on won by any seat alike (PTI-1, PTI-12: the first to `VICTORIES_TO_WIN` wins)."""
    players = len(victories)
    winners = tuple(s for s, v in enumerate(victories) if v >= VICTORIES_TO_WIN)
    if winners:
        return win_values(players, winners)
    total = [0.0] * players
    for seat in range(players):
        won = list(victories)
        won[seat] += 1
        for s, chance in enumerate(chances(tuple(won))):
            total[s] += chance / players
    return tuple(total)


THINKING: Thinking[Knowledge, Board, int] = Thinking(
    sample=sample,
    legal=lambda g: g.legal(),
    step=_step,
    mover=mover,
    playout=playout,
    measured_noise=True,
)


# ------------------------------------------------------------------ restricted play


def _never_bluff(g: Board, code: int) -> bool:
    return g.phase is not ANNOUNCE or code == g.holding


def _never_call(challenge: int) -> Callable[[Board, int], bool]:
    def allowed(g: Board, code: int) -> bool:
        return g.phase is not WINDOW or code & 3 != challenge

    return allowed


def _always_ok(g: Board, code: int) -> bool:
    return g.phase is not WINDOW or not code


RESTRICTIONS: Mapping[str, tuple[str, Callable[[Board, int], bool]]] = {
    "never-bluff": ("announces the token it placed, always", _never_bluff),
    "never-menteur": ("never calls Menteur", _never_call(MENTEUR)),
    "never-doublon": ("never calls Doublon", _never_call(DOUBLON)),
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
        action = self._think(view, legal)
        if isinstance(action, Designate):
            self.memory.remember_own_token(action.token)
        return action

    def _think(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        prior = self.twin.choose(view, legal)
        knowledge = self.memory.knowledge(self.config, view)
        probe = sample(knowledge, self.rng)
        if self.config.window is WindowMode.TIMED and probe.phase is WINDOW:
            return self._answer(probe, legal, prior)
        code = {probe.action(c): c for c in probe.legal()}
        codes = [code[a] for a in legal]
        chosen = think(
            THINKING, knowledge, self.seat, codes, self.spec.iterations, self.rng,
            self.allowed, code[prior],
        )  # fmt: skip
        return self._moving_on(legal, legal[codes.index(chosen)])

    def _moving_on(self, legal: Sequence[Action], action: Action) -> Action:
        """A reveal the seat knows cannot win (an empty hat, or kinds it saw with no
        winning pick, PTI-11) changes nothing: a swap of two contiguous hats, drawn at
        random, instead, when one is legal, so that a manche no line can win yet moves on
        (swaps stay, PTI-11) where the search, whose playouts never plan two swaps ahead,
        sees every choice alike."""
        if not isinstance(action, Reveal) or not self._fails(action.spots):
            return action
        swaps = [a for a in legal if isinstance(a, Swap)]
        return self.rng.choice(swaps) if swaps else action

    def _fails(self, line: Sequence[int]) -> bool:
        hats = [tuple(self.memory.hats[s - 1]) for s in line]
        if not all(hats):
            return True
        return UNKNOWN not in (k for hat in hats for k in hat) and best_pick(hats) is None

    def _answer(self, probe: Board, legal: Sequence[Action], prior: Action) -> Action:
        """In a timed window every seat answers at once, no one's turn to search: the
        heuristic's answer, kept to what the bot allows itself (`legal[0]` is silence)."""
        if self.allowed is None or not isinstance(prior, Call):
            return prior
        code = self.seat * 4 + BITS[prior.challenge]
        return prior if self.allowed(probe, code) else legal[0]


def seat_bot(kind: str, rng: random.Random, seat: int, config: Config) -> Bot:
    """The bot of a kind a variant names: a thinking one (`mcts...`) or the game's own."""
    spec = parse_kind(kind)
    if spec is None:
        return make_bot(kind, rng, seat, config.layout)
    return MctsBot(spec, rng, seat, config)
