"""The engine: new_game, actors, legal_actions and apply (validate, then transition)."""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.games.flipdone.rules.actions import (
    Action,
    Build,
    DealDown,
    DealUp,
    Discard,
    Flip,
    PlaceFirst,
)
from companion.games.flipdone.rules.config import (
    CARDS,
    CENTRE,
    DECK,
    HAND_SIZE,
    LINES,
    LINES_THROUGH,
    MANCHE_BONUS,
    SQUARES,
    Config,
    Deal,
    FirstElement,
    MancheTie,
    Stage,
    is_red,
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
    n = config.players
    d = _Draft(
        State(
            config=config,
            seed=seed,
            deal=0,
            manche=1,
            phase=1,
            extra=0,
            overtime=False,
            tied=(),
            stage=Stage.PLAY,
            turn=config.first,
            first=config.first,
            tokens=(0,) * n,
            manche_wins=(0,) * n,
            baseline=(0,) * n,
            owners=(None,) * len(LINES),
            faces=(None,) * SQUARES,
            flipped=(False,) * SQUARES,
            pending=None,
            winners=(),
            hand_sizes=(0,) * n,
            under=(),
            hands=((),) * n,
            deck=DECK,
            discards=(),
            played=((),) * n,
        )  # fmt: skip
    )
    events: list[Event] = []
    d.start_phase(events)
    return d.freeze(), tuple(events)


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
    """Every legal action, in a fixed order (deterministic for seeded bots).

    With an OBSERVED deal the cards are those not seen in play this phase (52 minus the
    face-down, face-up and discarded ones): any of them may be the next one dealt, or the
    card a seat holds and plays."""
    seat = state.turn
    if state.stage is Stage.OVER:
        return ()
    observed = state.config.deal is Deal.OBSERVED
    cards = unseen(state) if observed else ()
    if state.stage is Stage.DEAL:
        empty = _undealt(state)
        if empty:
            return tuple(DealDown(sq, c) for sq in empty for c in cards)
        return tuple(DealUp(c) for c in cards)
    if state.stage is Stage.PLACE_FIRST:
        if observed:
            return tuple(PlaceFirst(seat, sq, c) for sq in range(1, SQUARES + 1) for c in cards)
        return tuple(PlaceFirst(seat, sq) for sq in range(1, SQUARES + 1))
    hand = cards if observed else state.hands[seat]
    free = [sq for sq in range(1, SQUARES + 1) if state.faces[sq - 1] is None]
    flippable = [sq for sq in range(1, SQUARES + 1) if _flippable(state, sq)]
    builds = tuple(Build(seat, c, sq) for c in hand for sq in free)
    flips = tuple(Flip(seat, c, sq) for c in hand for sq in flippable)
    return builds + flips + tuple(Discard(seat, c) for c in hand)


def seen(state: State) -> frozenset[str]:
    """The cards in play this phase: face down, face up (or waiting to be) and discarded.
    FD-2: each phase is dealt from one deck, so none of them can be dealt or played again."""
    cards = [*state.under, *state.faces, *state.discards, state.pending]
    return frozenset(c for c in cards if c is not None)


def unseen(state: State) -> tuple[str, ...]:
    """The cards not in play this phase, in DECK order: the deck and the hands."""
    shown = seen(state)
    return tuple(c for c in DECK if c not in shown)


def _undealt(state: State) -> list[int]:
    return [sq for sq in range(1, SQUARES + 1) if state.under[sq - 1] is None]


def _flippable(state: State, square: int) -> bool:
    return state.faces[square - 1] is not None and not state.flipped[square - 1]


def aligned(faces: tuple[str | None, ...] | list[str | None], line: int) -> bool:
    """FD-4: the line's 3 squares are elements whose face-up cards have one colour."""
    cards = [faces[sq - 1] for sq in LINES[line].squares]
    if any(c is None for c in cards):
        return False
    colours = {is_red(c) for c in cards if c is not None}
    return len(colours) == 1


def phase_over(state: State) -> bool:
    """FD-9: no build and no flip is possible for anyone."""
    return _phase_over(state.hand_sizes, state.faces, state.flipped)


def _phase_over(
    hand_sizes: tuple[int, ...] | list[int],
    faces: tuple[str | None, ...] | list[str | None],
    flipped: tuple[bool, ...] | list[bool],
) -> bool:
    if not any(hand_sizes):
        return True
    return all(f is not None for f in faces) and all(flipped)


# ------------------------------------------------------------------------------ apply


def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Validate `action`, then return the next state and what happened.

    Raises BadInput or IllegalAction (naming the ruling) and leaves `state` as it was.
    """
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise BadInput(f"not a Flip Done action: {action!r}")
    _check_input(state, action)
    if state.stage is Stage.OVER:
        raise IllegalAction("FD-10", f"the game is over: won by {list(state.winners)}")
    d = _Draft(state)
    events: list[Event] = []
    handler(state, action, d, events)  # validates everything before it touches `d`
    return d.freeze(), tuple(events)


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


def _expect_turn(state: State, seat: int) -> None:
    if seat != state.turn:
        raise IllegalAction("FD-3", f"it is seat {state.turn}'s turn, not seat {seat}'s")


def _expect_unseen(state: State, card: str) -> None:
    """FD-2, OBSERVED deal: a card is in play once a phase (one deck, dealt whole)."""
    if card in seen(state):
        raise IllegalAction("FD-2", f"the {card} is already in play this phase")


def _expect_deal(state: State) -> None:
    if state.config.deal is Deal.SEEDED:
        raise IllegalAction("FD-2", "the engine deals this game (deal: seeded): no deal to see")
    if state.stage is not Stage.DEAL:
        raise IllegalAction("FD-2", "the deal of this phase is complete")


def _waiting_for(state: State) -> str:
    """What an OBSERVED deal still lacks (stage DEAL)."""
    empty = _undealt(state)
    if empty:
        return f"no face-down card on square {', '.join(map(str, empty))} yet"
    return "the face-up centre card is not dealt yet"


def _do_deal_down(state: State, action: Action, d: _Draft, events: list[Event]) -> None:
    assert isinstance(action, DealDown)
    _expect_deal(state)
    sq = action.square
    if state.under[sq - 1] is not None:
        raise IllegalAction("FD-2", f"square {sq} already has its face-down card")
    _expect_unseen(state, action.card)
    d.under[sq - 1] = action.card
    events.append(DealtDown(sq))
    if None not in d.under and state.config.first_element is FirstElement.CHOSEN:
        d.stage = Stage.PLACE_FIRST  # FD-2 variant: the first player places (and names) it


def _do_deal_up(state: State, action: Action, d: _Draft, events: list[Event]) -> None:
    assert isinstance(action, DealUp)
    _expect_deal(state)
    if state.config.first_element is FirstElement.CHOSEN:
        raise IllegalAction(
            "FD-2", "the first player chooses where the face-up card goes: PlaceFirst names it"
        )
    if _undealt(state):  # it lies on the centre's face-down card, dealt first
        raise IllegalAction("FD-2", f"deal the 9 face-down cards first: {_waiting_for(state)}")
    _expect_unseen(state, action.card)
    d.phase_started(action.card, events)
    d.faces[CENTRE - 1] = action.card
    d.stage = Stage.PLAY
    events.append(FirstPlaced(None, CENTRE, action.card))


def _do_place_first(state: State, action: Action, d: _Draft, events: list[Event]) -> None:
    assert isinstance(action, PlaceFirst)
    if state.stage is Stage.DEAL:
        raise IllegalAction(
            "FD-2", f"the deal of this phase is not complete: {_waiting_for(state)}"
        )
    if state.stage is not Stage.PLACE_FIRST:
        raise IllegalAction("FD-2", "the first element of this phase is already placed")
    _expect_turn(state, action.seat)
    if state.config.deal is Deal.OBSERVED:
        if action.card is None:
            raise IllegalAction("FD-2", "name the face-up card the readers saw placed")
        _expect_unseen(state, action.card)
        card = action.card
        d.phase_started(card, events)
    else:
        if action.card is not None:
            raise IllegalAction("FD-2", "the engine dealt this phase: PlaceFirst names no card")
        assert state.pending is not None
        card = state.pending
    d.faces[action.square - 1] = card
    d.pending = None
    d.stage = Stage.PLAY
    events.append(FirstPlaced(action.seat, action.square, card))


def _expect_play(state: State, seat: int, card: str) -> None:
    if state.stage is Stage.DEAL:
        raise IllegalAction(
            "FD-2", f"the deal of this phase is not complete: {_waiting_for(state)}"
        )
    if state.stage is Stage.PLACE_FIRST:
        raise IllegalAction("FD-2", f"seat {state.turn} must first place the first element")
    if state.config.deal is Deal.OBSERVED:
        if state.hand_sizes[seat] == 0:
            raise IllegalAction("FD-3", f"seat {seat} holds no card")
        _expect_turn(state, seat)
        _expect_unseen(state, card)
        return
    _expect_turn(state, seat)
    if card not in state.hands[seat]:
        raise IllegalAction("FD-3", f"seat {seat} holds no {card}")


def _do_build(state: State, action: Action, d: _Draft, events: list[Event]) -> None:
    assert isinstance(action, Build)
    _expect_play(state, action.seat, action.card)
    sq = action.square
    if state.faces[sq - 1] is not None:
        raise IllegalAction("FD-3", f"square {sq} is already an element: no stacking")
    d.take(action.seat, action.card)
    d.faces[sq - 1] = action.card
    events.append(Built(action.seat, sq, action.card))
    for line in LINES_THROUGH[sq - 1]:  # an element is new, so the line was not aligned
        if aligned(d.faces, line) and d.owners[line] is None:
            d.make_line(action.seat, line, events)
    d.end_turn(events)


def _do_flip(state: State, action: Action, d: _Draft, events: list[Event]) -> None:
    assert isinstance(action, Flip)
    _expect_play(state, action.seat, action.card)
    sq = action.square
    if state.faces[sq - 1] is None:
        raise IllegalAction("FD-3", f"square {sq} is not an element: nothing to flip")
    if state.flipped[sq - 1]:
        raise IllegalAction("FD-3", f"the element on square {sq} was already flipped once")
    seat = action.seat
    d.take(seat, action.card)
    d.discards.append(action.card)
    old = state.faces[sq - 1]
    assert old is not None
    new = state.under[sq - 1]
    assert new is not None  # an element lies on a dealt face-down card (FD-2)
    d.faces[sq - 1], d.under[sq - 1] = new, old
    d.flipped[sq - 1] = True
    events.append(Flipped(seat, sq, new, old))
    for line in LINES_THROUGH[sq - 1]:
        d.score_flip(seat, line, state, events)
    d.end_turn(events)


def _do_discard(state: State, action: Action, d: _Draft, events: list[Event]) -> None:
    assert isinstance(action, Discard)
    _expect_play(state, action.seat, action.card)
    d.take(action.seat, action.card)
    d.discards.append(action.card)
    events.append(Discarded(action.seat))
    d.end_turn(events)


_Handler = Callable[[State, Action, "_Draft", list[Event]], None]
_HANDLERS: dict[type[Action], _Handler] = {
    DealDown: _do_deal_down,
    DealUp: _do_deal_up,
    PlaceFirst: _do_place_first,
    Build: _do_build,
    Flip: _do_flip,
    Discard: _do_discard,
}


class _Draft:
    """A mutable copy of a State that the transition helpers edit, then freeze."""

    def __init__(self, s: State) -> None:
        self.config = s.config
        self.seed = s.seed
        self.deal = s.deal
        self.manche = s.manche
        self.phase = s.phase
        self.extra = s.extra
        self.overtime = s.overtime
        self.tied = s.tied
        self.stage = s.stage
        self.turn = s.turn
        self.first = s.first
        self.tokens = list(s.tokens)
        self.manche_wins = list(s.manche_wins)
        self.baseline = s.baseline
        self.owners = list(s.owners)
        self.faces = list(s.faces)
        self.flipped = list(s.flipped)
        self.pending = s.pending
        self.winners = s.winners
        self.hand_sizes = list(s.hand_sizes)
        self.under = list(s.under)
        self.hands = list(s.hands)
        self.deck = s.deck
        self.discards = list(s.discards)
        self.played = list(s.played)

    def freeze(self) -> State:
        return State(
            config=self.config, seed=self.seed, deal=self.deal, manche=self.manche,
            phase=self.phase, extra=self.extra, overtime=self.overtime, tied=self.tied,
            stage=self.stage, turn=self.turn, first=self.first, tokens=tuple(self.tokens),
            manche_wins=tuple(self.manche_wins), baseline=self.baseline,
            owners=tuple(self.owners), faces=tuple(self.faces), flipped=tuple(self.flipped),
            pending=self.pending, winners=self.winners, hand_sizes=tuple(self.hand_sizes),
            under=tuple(self.under), hands=tuple(self.hands), deck=self.deck,
            discards=tuple(self.discards), played=tuple(self.played),
        )  # fmt: skip

    def take(self, seat: int, card: str) -> None:
        """`seat` plays `card` (FD-3): from its known hand (SEEDED) or, OBSERVED, from a
        hand the engine only counts."""
        if self.config.deal is Deal.SEEDED:
            hand = self.hands[seat]
            i = hand.index(card)
            self.hands[seat] = hand[:i] + hand[i + 1 :]
        self.hand_sizes[seat] -= 1
        self.played[seat] = (*self.played[seat], card)

    # Scoring (FD-5..FD-8)

    def make_line(self, seat: int, line: int, events: list[Event]) -> None:
        """FD-5: take the line's value and own it."""
        value = LINES[line].value
        self.tokens[seat] += value
        self.owners[line] = seat
        events.append(LineMade(seat, line, value))

    def score_flip(self, seat: int, line: int, before: State, events: list[Event]) -> None:
        """What one flip by `seat` does to one line through the flipped square."""
        was = aligned(before.faces, line)
        now = aligned(self.faces, line)
        owner = self.owners[line]
        squares = LINES[line].squares
        third = sum(before.flipped[sq - 1] for sq in squares) >= 2
        if third:  # FD-8: no gain, no transfer, no bonus; a break still removes the owner
            if was and not now and owner is not None:
                self.owners[line] = None
                events.append(LineLost(seat, owner, line, "FD-8"))
            return
        if was and owner is not None:
            if owner == seat:  # FD-7: nothing for one's own line; a break loses it
                if not now:
                    self.owners[line] = None
                    events.append(LineLost(seat, owner, line, "FD-7"))
                return
            value = LINES[line].value
            if not now:  # FD-6: broken; the flipper takes the value from the owner
                from_owner = min(value, self.tokens[owner])
                self.tokens[owner] -= from_owner
                self.tokens[seat] += value
                self.owners[line] = None
                events.append(LineBroken(seat, owner, line, value, from_owner, value - from_owner))
            else:  # FD-6: still aligned; the owner takes a bonus from the bank
                bonus = 2 if LINES[line].diagonal else 1
                self.tokens[owner] += bonus
                events.append(LineHeld(seat, owner, line, bonus))
            return
        if not was and now and owner is None:  # FD-5: the flip made the line
            self.make_line(seat, line, events)

    # Turns, phases, manches (FD-2, FD-3, FD-9, FD-10)

    def end_turn(self, events: list[Event]) -> None:
        if _phase_over(self.hand_sizes, self.faces, self.flipped):
            self.end_phase(events)
            return
        n = self.config.players
        seat = (self.turn + 1) % n
        while not self.hand_sizes[seat]:  # FD-3: a player with no card is skipped
            seat = (seat + 1) % n
        self.turn = seat

    def start_phase(self, events: list[Event]) -> None:
        """FD-2: the full deck shuffled; 9 face down, 1 face up, 4 cards each. With an
        OBSERVED deal: 4 cards each, counted, and the stage DEAL waits for the rest."""
        cfg = self.config
        n = cfg.players
        self.deal += 1
        self.first = (cfg.first + self.deal - 1) % n  # FD-2: one seat clockwise each phase
        self.turn = self.first
        self.hand_sizes = [HAND_SIZE] * n
        self.played = [()] * n
        self.hands = [()] * n
        self.discards = []
        self.faces = [None] * SQUARES
        self.flipped = [False] * SQUARES
        self.owners = [None] * len(LINES)
        self.pending = None
        if cfg.deal is Deal.OBSERVED:  # DealDown x 9, then DealUp or PlaceFirst
            self.under = [None] * SQUARES
            self.deck = ()
            self.stage = Stage.DEAL
            return
        cards = list(DECK)
        random.Random(f"{self.seed}:{self.deal}").shuffle(cards)
        self.under = list(cards[:SQUARES])
        face = cards[SQUARES]
        dealt = cards[SQUARES + 1 : SQUARES + 1 + HAND_SIZE * n]
        for i in range(n):
            seat = (self.first + i) % n
            self.hands[seat] = tuple(sorted(dealt[HAND_SIZE * i : HAND_SIZE * (i + 1)]))
        self.deck = tuple(cards[SQUARES + 1 + HAND_SIZE * n :])
        self.phase_started(face, events)
        if cfg.first_element is FirstElement.CENTRE:
            self.faces[CENTRE - 1] = face
            self.pending = None
            self.stage = Stage.PLAY
            events.append(FirstPlaced(None, CENTRE, face))
        else:
            self.pending = face
            self.stage = Stage.PLACE_FIRST

    def phase_started(self, face: str, events: list[Event]) -> None:
        events.append(
            PhaseStarted(self.manche, self.phase, self.first, self.extra, self.overtime, face)
        )

    def end_phase(self, events: list[Event]) -> None:
        """FD-9: one token per card still in hand, never below zero (FD-1); with an OBSERVED
        deal the hands are counted, never seen."""
        left = tuple(self.hand_sizes)
        paid = tuple(min(k, t) for k, t in zip(left, self.tokens, strict=True))
        self.tokens = [t - p for t, p in zip(self.tokens, paid, strict=True)]
        events.append(PhaseEnded(left, paid))
        if self.overtime:
            self.settle_game(events)
        elif self.extra == 0 and self.phase < self.config.phases:
            self.phase += 1
            self.start_phase(events)
        else:
            self.settle_manche(events)

    def _limit_reached(self) -> bool:
        limit = self.config.tie_phase_limit
        return limit is not None and self.extra >= limit

    def settle_manche(self, events: list[Event]) -> None:
        """FD-10: the best net gain of the manche takes 2 more; a tie plays one more phase."""
        n = self.config.players
        gains = tuple(t - b for t, b in zip(self.tokens, self.baseline, strict=True))
        extra_only = self.extra > 0 and self.config.manche_tie is MancheTie.EXTRA_ONLY
        contenders = self.tied if extra_only else tuple(range(n))
        best = max(gains[s] for s in contenders)
        top = tuple(s for s in contenders if gains[s] == best)
        if len(top) > 1 and not self._limit_reached():
            if self.extra == 0 and self.config.manche_tie is MancheTie.EXTRA_ONLY:
                self.baseline = tuple(self.tokens)
            self.extra += 1
            self.tied = top
            self.phase += 1
            events.append(Tied(top, False, self.extra))
            self.start_phase(events)
            return
        if len(top) == 1:
            winner = top[0]
            self.tokens[winner] += MANCHE_BONUS
            self.manche_wins[winner] += 1
            events.append(MancheWon(winner, self.manche, gains, MANCHE_BONUS))
        else:
            events.append(TieStands(top, False))
        self.extra = 0
        self.tied = ()
        if self.manche < self.config.manches:
            self.manche += 1
            self.phase = 1
            self.baseline = tuple(self.tokens)
            self.start_phase(events)
        else:
            self.settle_game(events)

    def settle_game(self, events: list[Event]) -> None:
        """FD-10: most tokens wins; a tie plays one more phase, until it is gone."""
        best = max(self.tokens)
        top = tuple(s for s, t in enumerate(self.tokens) if t == best)
        if len(top) > 1 and not self._limit_reached():
            self.overtime = True
            self.extra += 1
            self.tied = top
            self.phase += 1
            events.append(Tied(top, True, self.extra))
            self.start_phase(events)
            return
        if len(top) > 1:
            events.append(TieStands(top, True))
        self.stage = Stage.OVER
        self.winners = top
        self.tied = ()
        events.append(GameOver(top, tuple(self.tokens)))
