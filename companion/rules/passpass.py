"""PtiPassPass and PhiPassPass: two rule sets of one pure engine.

The rule books are ../shared/rules/seeds/{pti,phi}passpass.fr.txt; where they are silent
the rulings PTI-1..PTI-15 and PHI-1..PHI-5 of RULINGS.md decide, and each rule below
cites the one it implements.

A turn, as the engine sees it (one action at a time, so a real table can feed it):

    PLACE     the Magicien holds an animal over a hat: Designate(seat, spot, token)
    ANNOUNCE  a Masqué turn (PTI) or any turn (PHI): Announce(seat, token), possibly a lie
    WINDOW    the challenge round: Pass / Call in ROUND mode, Call / CloseWindow in TIMED mode
    REWARD    a successful Challenger's choice (PTI-10): RewardDrop or RewardToken
    REVEAL    the Magicien holds nothing (PTI-5): at most one Swap, then Reveal(line)

PhiPassPass opens a Doublon-only window right after the designation and a Menteur-only
window after the announcement (PHI-2); PtiPassPass opens one window after the announcement
(after the designation in a Visible turn, where the animal is shown, PTI-4).

Hidden facts (the contents of hats and hands, the animal in flight) live in `State` and
leave the engine only through `public_view()`, whose type has no field for them, and
through events, which carry only what the book makes public (a Doublon reveals the hat, a
Menteur shows the animal, a reveal lifts three hats).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import lru_cache
from typing import Any, ClassVar

from companion.rules.errors import BadInput, IllegalAction
from companion.rules.layouts import Layout, LayoutError, default_layout

Hand = tuple[str, ...]
"""A multiset of token kinds, kept sorted so equal contents compare equal."""


class Phase(StrEnum):
    PLACE = "place"
    ANNOUNCE = "announce"
    WINDOW = "window"
    REWARD = "reward"
    REVEAL = "reveal"
    OVER = "over"


class Challenge(StrEnum):
    DOUBLON = "doublon"
    MENTEUR = "menteur"


class WindowMode(StrEnum):
    ROUND = "round"
    """PTI-7: each seat speaks once, clockwise from the Magicien's left; the first call ends it."""
    TIMED = "timed"
    """PTI-7 (configurable): silence means OK; the table's clock closes the window."""


class Starter(StrEnum):
    """Who starts the next manche (PTI-12, configurable)."""

    LEFT_OF_WINNER = "left_of_winner"
    WINNER = "winner"


@dataclass(frozen=True, slots=True)
class RuleSet:
    """What differs between the two editions; one frozen value, never `if game == ...`."""

    name: str
    tokens: tuple[str, ...]
    min_players: int
    max_players: int
    challenge_tokens: int
    """Challenge tokens dealt per player and manche; 0 means anyone may call, free (PHI-1)."""
    visible_turns: bool
    """PTI-4: even tours are Visible. PHI-1: every placement is hidden."""
    split_windows: bool
    """PHI-2: a Doublon window after the designation, a Menteur window after the announce."""
    reward: bool
    """PTI-10: a successful Challenger chooses a reward. PHI-5: no reward."""


PTIPASSPASS = RuleSet(
    name="ptipasspass",
    tokens=("colombe", "lapin", "souris"),
    min_players=2,
    max_players=6,
    challenge_tokens=2,
    visible_turns=True,
    split_windows=False,
    reward=True,
)
PHIPASSPASS = RuleSet(
    name="phipasspass",
    tokens=("bleu", "orange", "vert"),
    min_players=3,
    max_players=6,
    challenge_tokens=0,
    visible_turns=False,
    split_windows=True,
    reward=False,
)
RULESETS: dict[str, RuleSet] = {r.name: r for r in (PTIPASSPASS, PHIPASSPASS)}

VICTORIES_TO_WIN = 2  # PTI-1


@dataclass(frozen=True, slots=True)
class Config:
    """Everything fixed for a whole game. Checked once, here."""

    rules: RuleSet
    players: int
    layout: Layout
    first: int = 0
    """PTI-13: the seat the table names as first player."""
    window: WindowMode = WindowMode.ROUND
    next_starter: Starter = Starter.LEFT_OF_WINNER
    turn_limit: int | None = None
    """PTI-15 (configurable): a manche with this many turns is void. None: no limit."""

    def __post_init__(self) -> None:
        _check_players(self.rules, self.players)
        if not 0 <= self.first < self.players:
            raise BadInput(f"first player must be a seat 0..{self.players - 1}, not {self.first}")
        if self.turn_limit is not None and self.turn_limit < 1:
            raise BadInput(f"turn_limit must be at least 1 or None, not {self.turn_limit}")

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.rules.name,
            "players": self.players,
            "layout": self.layout.to_json(),
            "first": self.first,
            "window": str(self.window),
            "next_starter": str(self.next_starter),
            "turn_limit": self.turn_limit,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Config:
        return make_config(
            data["game"],
            data["players"],
            layout=Layout.from_json(data["layout"]),
            first=data.get("first", 0),
            window=data.get("window", WindowMode.ROUND),
            next_starter=data.get("next_starter", Starter.LEFT_OF_WINNER),
            turn_limit=data.get("turn_limit"),
        )


def _check_players(rules: RuleSet, players: int) -> None:
    if not rules.min_players <= players <= rules.max_players:
        raise BadInput(
            f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {players}"
        )


def make_config(
    game: str | RuleSet,
    players: int,
    *,
    layout: Layout | None = None,
    first: int = 0,
    window: str = WindowMode.ROUND,
    next_starter: str = Starter.LEFT_OF_WINNER,
    turn_limit: int | None = None,
) -> Config:
    """Build a Config from plain values, with a clear error for each bad one."""
    rules = game if isinstance(game, RuleSet) else RULESETS.get(game)
    if rules is None:
        raise BadInput(f"unknown game {game!r}; choose one of {', '.join(RULESETS)}")
    try:
        window_mode = WindowMode(window)
        starter = Starter(next_starter)
    except ValueError as exc:
        raise BadInput(str(exc)) from exc
    _check_players(rules, players)
    try:
        chosen_layout = layout or default_layout(players)
    except LayoutError as exc:
        raise BadInput(str(exc)) from exc
    return Config(rules, players, chosen_layout, first, window_mode, starter, turn_limit)


# ---------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action; `name` is its JSON tag."""

    name: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        return {"action": self.name, **_plain(self)}


@dataclass(frozen=True, slots=True)
class Designate(Action):
    """The Magicien holds `token` over hat `spot` (on a real table: drops it in)."""

    name: ClassVar[str] = "designate"
    seat: int
    spot: int
    token: str


@dataclass(frozen=True, slots=True)
class Announce(Action):
    """The Magicien says which token is in hand; in a Masqué turn it may be a lie (PTI-6)."""

    name: ClassVar[str] = "announce"
    seat: int
    token: str


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """ "OK": the seat whose turn it is to speak lets the placement go (PTI-7)."""

    name: ClassVar[str] = "pass"
    seat: int


@dataclass(frozen=True, slots=True)
class CloseWindow(Action):
    """TIMED mode: the window's time ran out with no call, so everyone said OK."""

    name: ClassVar[str] = "close_window"


@dataclass(frozen=True, slots=True)
class Call(Action):
    """A seat calls "Doublon !" or "Menteur !"."""

    name: ClassVar[str] = "call"
    seat: int
    challenge: Challenge


@dataclass(frozen=True, slots=True)
class RewardDrop(Action):
    """PTI-10: the successful Challenger puts one of their own tokens, shown, into a hat."""

    name: ClassVar[str] = "reward_drop"
    seat: int
    token: str
    spot: int


@dataclass(frozen=True, slots=True)
class RewardToken(Action):
    """PTI-10: the successful Challenger takes one Challenge token from the Magicien."""

    name: ClassVar[str] = "reward_token"
    seat: int


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """PTI-5: before revealing, the Magicien may exchange two contiguous hats, once."""

    name: ClassVar[str] = "swap"
    seat: int
    a: int
    b: int

    def __post_init__(self) -> None:  # a swap has no direction: one spelling per swap
        if self.a > self.b:
            a, b = self.b, self.a
            object.__setattr__(self, "a", a)
            object.__setattr__(self, "b", b)


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """PTI-11: the Magicien lifts the three hats of a line."""

    name: ClassVar[str] = "reveal"
    seat: int
    spots: tuple[int, int, int]

    def __post_init__(self) -> None:  # the same three hats, whatever order they are named in
        object.__setattr__(self, "spots", tuple(sorted(self.spots)))


ACTIONS: dict[str, type[Action]] = {
    cls.name: cls
    for cls in (Designate, Announce, Pass, CloseWindow, Call, RewardDrop, RewardToken, Swap, Reveal)
}


def action_from_json(data: Mapping[str, Any]) -> Action:
    try:
        cls = ACTIONS[data["action"]]
        values = {f.name: data[f.name] for f in fields(cls)}
    except KeyError as exc:
        raise BadInput(f"not an action: {dict(data)!r}") from exc
    if cls is Call:
        values["challenge"] = Challenge(values["challenge"])
    if cls is Reveal:
        values["spots"] = tuple(values["spots"])
    return cls(**values)


# ----------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. Events hold only public facts: they may be shown and logged."""

    kind: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **_plain(self)}


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn"
    seat: int
    tour: int
    masque: bool
    phase: Phase
    """PLACE when the Magicien holds a token, REVEAL otherwise (PTI-5)."""


@dataclass(frozen=True, slots=True)
class Designated(Event):
    kind: ClassVar[str] = "designate"
    seat: int
    spot: int
    shown: str | None
    """The token, in a Visible turn where it is shown (PTI-4); None when masked."""


@dataclass(frozen=True, slots=True)
class Announced(Event):
    kind: ClassVar[str] = "announce"
    seat: int
    token: str


@dataclass(frozen=True, slots=True)
class Passed(Event):
    kind: ClassVar[str] = "ok"
    seat: int


@dataclass(frozen=True, slots=True)
class Placed(Event):
    """Nobody challenged: the token disappeared into the hat."""

    kind: ClassVar[str] = "place"
    seat: int
    spot: int


@dataclass(frozen=True, slots=True)
class Verdict(Event):
    """A challenge settled, with exactly the facts the book makes public (PTI-8/9, PHI-3/4)."""

    kind: ClassVar[str] = "verdict"
    challenge: Challenge
    seat: int
    magician: int
    success: bool
    spot: int
    hat: Hand | None
    """Doublon: the lifted hat's contents (empty on a failure). None for Menteur."""
    shown: str | None
    """Menteur: the token the Magicien shows. None for Doublon (it goes back unseen)."""


@dataclass(frozen=True, slots=True)
class Rewarded(Event):
    kind: ClassVar[str] = "reward"
    seat: int
    choice: str
    """"drop", "token", or "none" when neither is possible (PTI-10)."""
    token: str | None = None
    spot: int | None = None


@dataclass(frozen=True, slots=True)
class Swapped(Event):
    kind: ClassVar[str] = "swap"
    seat: int
    spots: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    kind: ClassVar[str] = "reveal"
    seat: int
    spots: tuple[int, int, int]
    success: bool
    hats: tuple[Hand, Hand, Hand]
    """What the three lifted hats held, in the order of `spots`."""
    pick: tuple[str, str, str] | None
    """The best pick of one token per hat (PTI-11), None when there is no winning pick."""


@dataclass(frozen=True, slots=True)
class MancheWon(Event):
    kind: ClassVar[str] = "manche_won"
    seat: int
    victories: int


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    kind: ClassVar[str] = "game_won"
    seat: int


@dataclass(frozen=True, slots=True)
class MancheVoid(Event):
    """PTI-15: nobody can win this manche any more (or the configured turn limit is hit)."""

    kind: ClassVar[str] = "manche_void"
    reason: str


@dataclass(frozen=True, slots=True)
class MancheStarted(Event):
    kind: ClassVar[str] = "manche_start"
    manche: int
    starter: int


# ------------------------------------------------------------------------------ state


@dataclass(frozen=True, slots=True)
class PublicView:
    """All that every player may know. Screens and logs receive this, never a State."""

    game: str
    players: int
    spots: int
    manche: int
    tour: int
    turn: int
    magician: int
    masque: bool
    phase: Phase
    challenge_tokens: tuple[int, ...]
    victories: tuple[int, ...]
    spot: int | None
    """The hat designated this turn."""
    announced: str | None
    open_challenges: tuple[Challenge, ...]
    speaker: int | None
    """ROUND mode: the seat whose turn it is to say OK or call."""
    challenger: int | None
    swapped: tuple[int, int] | None
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        return _plain(self)


@dataclass(frozen=True, slots=True)
class State:
    """A whole game position. Immutable; `apply` returns a new one."""

    config: Config
    manche: int
    starter: int
    """The seat that started this manche: the Visible/Masqué token flips when it is back (PTI-4)."""
    tour: int
    turn: int
    magician: int
    phase: Phase
    challenge_tokens: tuple[int, ...]
    victories: tuple[int, ...]
    spot: int | None
    announced: str | None
    open_challenges: tuple[Challenge, ...]
    speaker: int | None
    challenger: int | None
    swapped: tuple[int, int] | None
    winner: int | None
    # Hidden facts: never copied into a PublicView.
    hats: tuple[Hand, ...]
    """hats[i] holds what lies under spot i + 1."""
    hands: tuple[Hand, ...]
    holding: str | None
    """The Magicien's designated token, in flight until placed or settled (PTI-14)."""

    @property
    def masque(self) -> bool:
        """PTI-4: odd tours are Masqué, even tours Visible; PHI-1: always masked."""
        return not self.config.rules.visible_turns or self.tour % 2 == 1

    def to_json(self) -> dict[str, Any]:
        data = _plain(self)
        data["config"] = self.config.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        def opt_tuple(value: Any) -> Any:
            return None if value is None else tuple(value)

        return cls(
            config=Config.from_json(data["config"]),
            manche=data["manche"],
            starter=data["starter"],
            tour=data["tour"],
            turn=data["turn"],
            magician=data["magician"],
            phase=Phase(data["phase"]),
            challenge_tokens=tuple(data["challenge_tokens"]),
            victories=tuple(data["victories"]),
            spot=data["spot"],
            announced=data["announced"],
            open_challenges=tuple(Challenge(c) for c in data["open_challenges"]),
            speaker=data["speaker"],
            challenger=data["challenger"],
            swapped=opt_tuple(data["swapped"]),
            winner=data["winner"],
            hats=tuple(tuple(h) for h in data["hats"]),
            hands=tuple(tuple(h) for h in data["hands"]),
            holding=data["holding"],
        )


def public_view(state: State) -> PublicView:
    """The only way facts leave the engine for a screen or a log."""
    return PublicView(
        game=state.config.rules.name,
        players=state.config.players,
        spots=state.config.layout.spots,
        manche=state.manche,
        tour=state.tour,
        turn=state.turn,
        magician=state.magician,
        masque=state.masque,
        phase=state.phase,
        challenge_tokens=state.challenge_tokens,
        victories=state.victories,
        spot=state.spot,
        announced=state.announced,
        open_challenges=state.open_challenges,
        speaker=state.speaker,
        challenger=state.challenger,
        swapped=state.swapped,
        winner=state.winner,
    )


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat knows: the public view plus its own hand (and, as Magicien, its token)."""

    public: PublicView
    seat: int
    hand: Hand
    holding: str | None


def player_view(state: State, seat: int) -> PlayerView:
    holding = state.holding if seat == state.magician else None
    return PlayerView(public_view(state), seat, state.hands[seat], holding)


def new_game(config: Config) -> State:
    """The first manche, dealt (PTI-1, PTI-12), with the first player of PTI-13 to play."""
    draft = _Draft.blank(config)
    draft.new_manche(config.first, [])
    return draft.freeze()


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


def _eligible_challengers(state: State) -> list[int]:
    """Seats that may call, clockwise from the Magicien's left (PTI-7, PHI-2)."""
    n = state.config.players
    m = state.magician
    seats = [(m + i) % n for i in range(1, n)]
    if state.config.rules.challenge_tokens:
        seats = [s for s in seats if state.challenge_tokens[s] > 0]
    return seats


def clockwise_first(state: State, seats: Iterable[int]) -> int:
    """Of calls that came together, the one that counts: clockwise from the Magicien's left
    (PTI-7 timed window, PHI-2)."""
    n = state.config.players
    return min(seats, key=lambda s: (s - state.magician - 1) % n)


# ---------------------------------------------------------------------- picks (PTI-11)


def best_pick(hats: Sequence[Hand]) -> tuple[str, ...] | None:
    """One token per hat, all identical or all different, or None (PTI-11).

    With several tokens in a hat the best one is taken; identical picks are preferred.
    """
    if len(hats) != 3 or not all(hats):
        return None
    a, b, c = (sorted(set(h)) for h in hats)
    for k in a:
        if k in b and k in c:
            return (k, k, k)
    for x, y, z in itertools.product(a, b, c):
        if x != y and y != z and x != z:
            return (x, y, z)
    return None


def can_still_win(hats: Iterable[Hand], tokens: Sequence[str]) -> bool:
    """PTI-15: do any three non-empty hats admit a winning pick?

    Swaps can bring any three hats into a line, so positions do not matter: some kind in
    three hats, or three kinds matched to three distinct hats (Hall's condition).
    """
    sets = [frozenset(h) for h in hats if h]
    if len(sets) < 3:
        return False
    if any(sum(k in s for s in sets) >= 3 for k in tokens):
        return True
    for trio in itertools.combinations(tokens, 3):
        subsets = (
            frozenset(sub) for size in (1, 2, 3) for sub in itertools.combinations(trio, size)
        )
        if all(sum(1 for s in sets if s & sub) >= len(sub) for sub in subsets):
            return True
    return False


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

    def eligible(self, seat: int) -> bool:
        if seat == self.magician:
            return False
        return not self.config.rules.challenge_tokens or self.challenge_tokens[seat] > 0

    def next_speaker_after(self, seat: int) -> int | None:
        """The next seat clockwise that may call, stopping before the Magicien."""
        n = self.config.players
        s = (seat + 1) % n
        while s != self.magician:
            if self.eligible(s):
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
            return f"turn limit of {limit} reached"
        if any(self.hands):
            return None
        if can_still_win(self.hats, self.config.rules.tokens):
            return None
        return "no three hats can ever win"

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


def _plain(obj: Any) -> dict[str, Any]:
    """A dataclass's fields as JSON-ready values (tuples become lists)."""

    def convert(value: Any) -> Any:
        if isinstance(value, tuple):
            return [convert(v) for v in value]
        if isinstance(value, StrEnum):
            return str(value)
        return value

    return {f.name: convert(getattr(obj, f.name)) for f in fields(obj) if f.name != "config"}
