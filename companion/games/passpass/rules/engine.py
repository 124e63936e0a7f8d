"""The engine: new_game, actors, legal_actions and apply (validate, then transition)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields
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
from companion.games.passpass.rules.config import (
    VICTORIES_TO_WIN,
    Challenge,
    Config,
    Hand,
    Phase,
    RuleSet,
    Starter,
    WindowMode,
)
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
from companion.games.passpass.rules.layouts import Layout
from companion.games.passpass.rules.picks import best_pick, can_still_win
from companion.games.passpass.rules.state import State
from companion.rules.errors import BadInput, IllegalAction


def new_game(config: Config, seed: int) -> tuple[State, tuple[Event, ...]]:
    """The first manche, dealt (PTI-1, PTI-12), with the first player of PTI-13 to play,
    and its opening events (MancheStarted, TurnStarted). Nothing is left to chance in
    PassPass (the people place and announce), so `seed` is unused."""
    draft = _Draft.blank(config)
    events: list[Event] = []
    draft.new_manche(config.first, events)
    return draft.freeze(), tuple(events)


def is_over(state: State) -> bool:
    """Whether the game is over: a seat has won its manches (PTI-1, PTI-12)."""
    return state.phase is Phase.OVER


# --------------------------------------------------------------------- what is legal


def actors(state: State) -> frozenset[int]:
    """The seats that may act now: several at once in a TIMED challenge window."""
    phase = state.phase
    if phase is Phase.OVER:
        return frozenset()
    if phase is Phase.WINDOW:
        if state.speaker is not None:
            return frozenset((state.speaker,))
        return frozenset(_eligible_challengers(state))
    if phase is Phase.REWARD:
        assert state.challenger is not None
        return frozenset((state.challenger,))
    return frozenset((state.magician,))


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every legal action, in a fixed order (deterministic for seeded bots)."""
    phase = state.phase
    cfg = state.config
    m = state.magician
    if phase is Phase.PLACE:
        return _designations(cfg.layout, m, tuple(sorted(set(state.hands[m]))))
    if phase is Phase.ANNOUNCE:
        return _announcements(cfg.rules, m)
    if phase is Phase.WINDOW:
        if state.speaker is not None:
            return _round_window(state.speaker, state.open_challenges)
        return _timed_window(tuple(_eligible_challengers(state)), state.open_challenges)
    if phase is Phase.REWARD:
        ch = state.challenger
        assert ch is not None
        kinds = tuple(sorted(set(state.hands[ch])))
        return _rewards(cfg.layout, ch, kinds, state.challenge_tokens[m] > 0)
    if phase is Phase.REVEAL:
        return _reveals(cfg.layout, m, state.swapped is None)
    return ()


@lru_cache(maxsize=4096)
def _designations(layout: Layout, seat: int, kinds: Hand) -> tuple[Action, ...]:
    return tuple(Designate(seat, spot, k) for spot in layout.spot_numbers for k in kinds)


@lru_cache(maxsize=256)
def _announcements(rules: RuleSet, seat: int) -> tuple[Action, ...]:
    return tuple(Announce(seat, k) for k in rules.tokens)


@lru_cache(maxsize=256)
def _round_window(seat: int, challenges: tuple[Challenge, ...]) -> tuple[Action, ...]:
    return (Pass(seat), *(Call(seat, c) for c in challenges))


@lru_cache(maxsize=4096)
def _timed_window(seats: tuple[int, ...], challenges: tuple[Challenge, ...]) -> tuple[Action, ...]:
    return (CloseWindow(), *(Call(s, c) for s in seats for c in challenges))


@lru_cache(maxsize=4096)
def _rewards(layout: Layout, seat: int, kinds: Hand, token: bool) -> tuple[Action, ...]:
    drops = tuple(RewardDrop(seat, k, spot) for spot in layout.spot_numbers for k in kinds)
    return ((RewardToken(seat),) if token else ()) + drops


@lru_cache(maxsize=256)
def _reveals(layout: Layout, seat: int, may_swap: bool) -> tuple[Action, ...]:
    reveals = tuple(Reveal(seat, line) for line in layout.lines)
    if not may_swap:
        return reveals
    pairs = sorted(tuple(sorted(p)) for p in layout.adjacent)
    return reveals + tuple(Swap(seat, a, b) for a, b in pairs)


def _may_call(config: Config, magician: int, tokens: Sequence[int], seat: int) -> bool:
    """PTI-7: anyone but the Magicien holding a Challenge token; PHI-1: anyone but them."""
    return seat != magician and (not config.rules.challenge_tokens or tokens[seat] > 0)


def _eligible_challengers(state: State) -> list[int]:
    """Seats that may call, clockwise from the Magicien's left (PTI-7, PHI-2)."""
    n = state.config.players
    m = state.magician
    clockwise = ((m + i) % n for i in range(1, n))
    return [s for s in clockwise if _may_call(state.config, m, state.challenge_tokens, s)]


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
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise BadInput(f"not a PassPass action: {action!r}")
    if state.phase is Phase.OVER:
        raise IllegalAction("PTI-1", f"the game is over: seat {state.winner} won")
    _check_seat_numbers(state, action)
    draft = _Draft(state)
    events: list[Event] = []
    handler(state, action, draft, events)
    return draft.freeze(), tuple(events)


def _check_seat_numbers(state: State, action: Action) -> None:
    seat = getattr(action, "seat", 0)
    if not (isinstance(seat, int) and 0 <= seat < state.config.players):
        raise BadInput(f"no seat {seat!r}: seats are 0..{state.config.players - 1}")
    spots = state.config.layout.spots
    for attr in ("spot", "a", "b"):
        spot = getattr(action, attr, 1)
        if not (isinstance(spot, int) and 1 <= spot <= spots):
            raise BadInput(f"no hat {spot!r}: hats are 1..{spots}")
    token = getattr(action, "token", None)
    if token is not None and token not in state.config.rules.tokens:
        tokens = ", ".join(state.config.rules.tokens)
        raise BadInput(f"unknown token {token!r}; {state.config.rules.name} uses {tokens}")


def _expect(state: State, phase: Phase, ruling: str, what: str) -> None:
    if state.phase is not phase:
        raise IllegalAction(ruling, f"{what} is not possible now: the turn is at '{state.phase}'")


def _expect_magician(state: State, seat: int, ruling: str) -> None:
    if seat != state.magician:
        raise IllegalAction(ruling, f"seat {seat} is not the Magicien (seat {state.magician} is)")


def _do_designate(state: State, action: Action, d: _Draft, events: list[Event]) -> None:
    assert isinstance(action, Designate)
    if state.phase is Phase.REVEAL:
        raise IllegalAction("PTI-5", f"seat {action.seat} holds no token and must reveal")
    _expect(state, Phase.PLACE, "PTI-7", "designating a hat")
    _expect_magician(state, action.seat, "PTI-5")
    if action.token not in state.hands[action.seat]:
        raise IllegalAction("PTI-14", f"seat {action.seat} holds no {action.token}")
    d.hands[d.magician] = _without(d.hands[d.magician], action.token)
    d.holding = action.token
    d.spot = action.spot
    shown = None if state.masque else action.token
    events.append(Designated(action.seat, action.spot, shown))
    rules = state.config.rules
    if rules.split_windows:  # PHI-2: window 1, Doublon only, before the announce.
        d.open_window((Challenge.DOUBLON,), events)
    elif not state.masque:  # PTI-4: shown, so announced; only Doublon.
        d.announced = action.token
        d.open_window((Challenge.DOUBLON,), events)
    else:
        d.phase = Phase.ANNOUNCE


def _do_announce(state: State, action: Action, d: _Draft, events: list[Event]) -> None:
    assert isinstance(action, Announce)
    _expect(state, Phase.ANNOUNCE, "PTI-7", "announcing")
    _expect_magician(state, action.seat, "PTI-7")
    d.announced = action.token
    events.append(Announced(action.seat, action.token))
    if state.config.rules.split_windows:  # PHI-2: window 2, Menteur only.
        d.open_window((Challenge.MENTEUR,), events)
    else:  # PTI-7/PTI-9: a Masqué turn, both calls.
        d.open_window((Challenge.DOUBLON, Challenge.MENTEUR), events)


def _do_pass(state: State, action: Action, d: _Draft, events: list[Event]) -> None:
    assert isinstance(action, Pass)
    _expect(state, Phase.WINDOW, "PTI-7", "saying OK")
    if state.speaker is None:
        raise IllegalAction("PTI-7", "in a timed window silence means OK; nobody speaks in turn")
    if action.seat != state.speaker:
        raise IllegalAction("PTI-7", f"it is seat {state.speaker}'s turn to speak")
    events.append(Passed(action.seat))
    d.speaker = d.next_speaker_after(action.seat)
    if d.speaker is None:
        d.close_window(events)


def _do_close_window(state: State, action: Action, d: _Draft, events: list[Event]) -> None:
    _expect(state, Phase.WINDOW, "PTI-7", "closing the challenge window")
    if state.speaker is not None:
        raise IllegalAction("PTI-7", "a round window closes only when every seat has spoken")
    d.close_window(events)


def _do_call(state: State, action: Action, d: _Draft, events: list[Event]) -> None:
    assert isinstance(action, Call)
    _expect(state, Phase.WINDOW, "PTI-7", f"calling {action.challenge}")
    seat = action.seat
    if action.challenge not in state.open_challenges:
        ruling = "PHI-2" if state.config.rules.split_windows else "PTI-9"
        why = "this window" if state.config.rules.split_windows else "a Visible turn"
        raise IllegalAction(ruling, f"{action.challenge} cannot be called in {why}")
    if seat == state.magician:
        raise IllegalAction("PTI-7", "the Magicien cannot challenge their own placement")
    if state.config.rules.challenge_tokens and state.challenge_tokens[seat] == 0:
        raise IllegalAction("PTI-7", f"seat {seat} has no Challenge token and can only say OK")
    if state.speaker is not None and seat != state.speaker:
        raise IllegalAction("PTI-7", f"it is seat {state.speaker}'s turn to speak")
    d.settle(seat, action.challenge, events)


def _do_reward_drop(state: State, action: Action, d: _Draft, events: list[Event]) -> None:
    assert isinstance(action, RewardDrop)
    _expect_reward(state, action.seat)
    if action.token not in state.hands[action.seat]:
        raise IllegalAction("PTI-10", f"seat {action.seat} holds no {action.token} to drop")
    d.hands[action.seat] = _without(d.hands[action.seat], action.token)
    d.hats[action.spot - 1] = _with(d.hats[action.spot - 1], action.token)
    events.append(Rewarded(action.seat, "drop", action.token, action.spot))
    d.end_turn(events)


def _do_reward_token(state: State, action: Action, d: _Draft, events: list[Event]) -> None:
    assert isinstance(action, RewardToken)
    _expect_reward(state, action.seat)
    if state.challenge_tokens[state.magician] == 0:
        raise IllegalAction("PTI-10", "the Magicien has no Challenge token left to take")
    d.challenge_tokens[state.magician] -= 1
    d.challenge_tokens[action.seat] += 1
    events.append(Rewarded(action.seat, "token"))
    d.end_turn(events)


def _expect_reward(state: State, seat: int) -> None:
    _expect(state, Phase.REWARD, "PTI-10", "a reward")
    if seat != state.challenger:
        raise IllegalAction("PTI-10", f"only the successful Challenger (seat {state.challenger})")


def _do_swap(state: State, action: Action, d: _Draft, events: list[Event]) -> None:
    assert isinstance(action, Swap)
    _expect(state, Phase.REVEAL, "PTI-5", "a swap")
    _expect_magician(state, action.seat, "PTI-5")
    if state.swapped is not None:
        raise IllegalAction("PTI-5", "only one swap before revealing")
    if not state.config.layout.contiguous(action.a, action.b):
        raise IllegalAction("PTI-2", f"hats {action.a} and {action.b} are not contiguous")
    a, b = action.a - 1, action.b - 1
    d.hats[a], d.hats[b] = d.hats[b], d.hats[a]
    d.swapped = (action.a, action.b)
    events.append(Swapped(action.seat, (action.a, action.b)))


def _do_reveal(state: State, action: Action, d: _Draft, events: list[Event]) -> None:
    assert isinstance(action, Reveal)
    _expect(state, Phase.REVEAL, "PTI-5", "a reveal")
    _expect_magician(state, action.seat, "PTI-5")
    if len(action.spots) != 3 or not state.config.layout.is_line(action.spots):
        raise IllegalAction("PTI-3", f"hats {list(action.spots)} are not a line of three")
    lifted = (
        state.hats[action.spots[0] - 1],
        state.hats[action.spots[1] - 1],
        state.hats[action.spots[2] - 1],
    )
    pick = best_pick(lifted)
    events.append(
        Revealed(action.seat, action.spots, pick is not None, lifted, pick)  # type: ignore[arg-type]
    )
    if pick is None:  # PTI-11: the hats go back unchanged; a swap stays.
        d.end_turn(events)
        return
    seat = action.seat
    d.victories[seat] += 1
    events.append(MancheWon(seat, d.victories[seat]))
    if d.victories[seat] >= VICTORIES_TO_WIN:  # PTI-1, PTI-12
        d.game_over(seat, events)
        return
    n = state.config.players
    starter = seat if state.config.next_starter is Starter.WINNER else (seat + 1) % n
    d.new_manche(starter, events)


_HANDLERS = {
    Designate: _do_designate,
    Announce: _do_announce,
    Pass: _do_pass,
    CloseWindow: _do_close_window,
    Call: _do_call,
    RewardDrop: _do_reward_drop,
    RewardToken: _do_reward_token,
    Swap: _do_swap,
    Reveal: _do_reveal,
}


class _Draft:
    """A mutable copy of a State that the transition helpers edit, then freeze."""

    __slots__ = tuple(f.name for f in fields(State))

    config: Config
    manche: int
    starter: int
    tour: int
    turn: int
    magician: int
    phase: Phase
    challenge_tokens: list[int]
    victories: list[int]
    spot: int | None
    announced: str | None
    open_challenges: tuple[Challenge, ...]
    speaker: int | None
    challenger: int | None
    swapped: tuple[int, int] | None
    winner: int | None
    hats: list[Hand]
    hands: list[Hand]
    holding: str | None

    def __init__(self, s: State) -> None:
        self.config = s.config
        self.manche = s.manche
        self.starter = s.starter
        self.tour = s.tour
        self.turn = s.turn
        self.magician = s.magician
        self.phase = s.phase
        self.challenge_tokens = list(s.challenge_tokens)
        self.victories = list(s.victories)
        self.spot = s.spot
        self.announced = s.announced
        self.open_challenges = s.open_challenges
        self.speaker = s.speaker
        self.challenger = s.challenger
        self.swapped = s.swapped
        self.winner = s.winner
        self.hats = list(s.hats)
        self.hands = list(s.hands)
        self.holding = s.holding

    @classmethod
    def blank(cls, config: Config) -> _Draft:
        n = config.players
        empty = State(
            config, 0, config.first, 1, 0, config.first, Phase.PLACE, (0,) * n, (0,) * n,
            None, None, (), None, None, None, None, ((),) * config.layout.spots, ((),) * n, None,
        )  # fmt: skip
        return cls(empty)

    def freeze(self) -> State:
        return State(
            self.config, self.manche, self.starter, self.tour, self.turn, self.magician,
            self.phase, tuple(self.challenge_tokens), tuple(self.victories), self.spot,
            self.announced, self.open_challenges, self.speaker, self.challenger, self.swapped,
            self.winner, tuple(self.hats), tuple(self.hands), self.holding,
        )  # fmt: skip

    @property
    def masque(self) -> bool:
        return not self.config.rules.visible_turns or self.tour % 2 == 1

    # The challenge window (PTI-7, PHI-2)

    def next_speaker_after(self, seat: int) -> int | None:
        """The next seat clockwise that may call, stopping before the Magicien."""
        n = self.config.players
        s = (seat + 1) % n
        while s != self.magician:
            if _may_call(self.config, self.magician, self.challenge_tokens, s):
                return s
            s = (s + 1) % n
        return None

    def open_window(self, challenges: tuple[Challenge, ...], events: list[Event]) -> None:
        self.phase = Phase.WINDOW
        self.open_challenges = challenges
        first = self.next_speaker_after(self.magician)
        if first is None:  # nobody may call: everyone's OK is implied
            self.close_window(events)
        elif self.config.window is WindowMode.ROUND:
            self.speaker = first

    def close_window(self, events: list[Event]) -> None:
        """Everyone said OK: on to the announce (PHI window 1) or the placement."""
        self.open_challenges = ()
        self.speaker = None
        if self.announced is None:  # PHI-2: after window 1 comes the announce
            self.phase = Phase.ANNOUNCE
            return
        assert self.spot is not None and self.holding is not None
        self.hats[self.spot - 1] = _with(self.hats[self.spot - 1], self.holding)
        events.append(Placed(self.magician, self.spot))
        self.holding = None
        self.end_turn(events)

    def settle(self, seat: int, challenge: Challenge, events: list[Event]) -> None:
        """PTI-8, PTI-9, PHI-3, PHI-4."""
        m = self.magician
        spot = self.spot
        holding = self.holding
        assert spot is not None and holding is not None
        if challenge is Challenge.DOUBLON:
            hat = self.hats[spot - 1]
            success = bool(hat)
            events.append(Verdict(challenge, seat, m, success, spot, hat, None))
            if success:  # the Magicien takes back every token of that hat, keeps their own
                self.hands[m] = tuple(sorted(self.hands[m] + hat + (holding,)))
                self.hats[spot - 1] = ()
        else:
            success = holding != self.announced
            events.append(Verdict(challenge, seat, m, success, spot, None, holding))
            if success:  # the Magicien keeps the token
                self.hands[m] = _with(self.hands[m], holding)
        self.holding = None
        self.open_challenges = ()
        self.speaker = None
        if not success:  # the token goes to the Challenger, who pays a Challenge token
            self.hands[seat] = _with(self.hands[seat], holding)
            if self.config.rules.challenge_tokens:
                self.challenge_tokens[seat] -= 1
                self.challenge_tokens[m] += 1
            self.end_turn(events)
            return
        if not self.config.rules.reward:  # PHI-5
            self.end_turn(events)
            return
        # PTI-10: the successful Challenger chooses, if any choice is possible.
        if self.hands[seat] or self.challenge_tokens[m] > 0:
            self.phase = Phase.REWARD
            self.challenger = seat
        else:
            events.append(Rewarded(seat, "none"))
            self.end_turn(events)

    # Turns and manches

    def end_turn(self, events: list[Event]) -> None:
        """The seat on the Magicien's left becomes Magicien (never the Challenger's left)."""
        n = self.config.players
        self.magician = (self.magician + 1) % n
        self.turn += 1
        if self.magician == self.starter:  # PTI-4: a tour de table is complete
            self.tour += 1
        self.spot = self.announced = self.challenger = self.swapped = self.holding = None
        self.open_challenges = ()
        self.speaker = None
        void = self.void_reason()
        if void:
            events.append(MancheVoid(void))
            self.new_manche(self.magician, events)  # PTI-15: the same Magicien starts
        else:
            self.start_turn(events)

    def void_reason(self) -> str | None:
        """PTI-15: a dead manche, or the configured turn limit."""
        limit = self.config.turn_limit
        if limit is not None and self.turn >= limit:
            return TURN_LIMIT.format(limit=limit)
        if any(self.hands):
            return None
        if can_still_win(self.hats, self.config.rules.tokens):
            return None
        return DEAD_MANCHE

    def start_turn(self, events: list[Event]) -> None:
        self.phase = Phase.PLACE if self.hands[self.magician] else Phase.REVEAL  # PTI-5
        events.append(TurnStarted(self.magician, self.tour, self.masque, self.phase))

    def new_manche(self, starter: int, events: list[Event]) -> None:
        """PTI-12: hats emptied, everything dealt again, the token back to Masqué."""
        cfg = self.config
        n = cfg.players
        self.manche += 1
        self.starter = self.magician = starter
        self.tour = 1
        self.turn = 0
        self.hats = [()] * cfg.layout.spots
        self.hands = [cfg.rules.tokens] * n
        self.challenge_tokens = [cfg.rules.challenge_tokens] * n
        self.spot = self.announced = self.challenger = self.swapped = self.holding = None
        self.open_challenges = ()
        self.speaker = None
        events.append(MancheStarted(self.manche, starter))
        self.start_turn(events)

    def game_over(self, seat: int, events: list[Event]) -> None:
        self.phase = Phase.OVER
        self.winner = seat
        events.append(GameWon(seat))


def _with(hand: Hand, token: str) -> Hand:
    return tuple(sorted((*hand, token)))


def _without(hand: Hand, token: str) -> Hand:
    i = hand.index(token)
    return hand[:i] + hand[i + 1 :]
