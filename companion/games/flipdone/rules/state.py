"""The game position (State, with hidden facts) and what may be known of it (views)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.flipdone.rules.board import CARD, NAMES, NO_CARD, UNWATCHED, Board
from companion.games.flipdone.rules.config import (
    DECK,
    HAND_SIZE,
    SQUARES,
    Config,
    Deal,
    Hand,
    Stage,
)
from companion.rules.jsonable import plain as _plain
from companion.rules.snapshot import Snapshot


@dataclass(frozen=True, slots=True)
class PublicView:
    """All that every player may know. Screens and logs receive this, never a State."""

    game: str
    manche: int
    phase: int
    extra: int
    overtime: bool
    tied: tuple[int, ...]
    stage: Stage
    turn: int
    first: int
    tokens: tuple[int, ...]
    manche_wins: tuple[int, ...]
    baseline: tuple[int, ...]
    owners: tuple[int | None, ...]
    faces: tuple[str | None, ...]
    """The face-up card of each square 1..9 (None: a face-down card, not an element yet)."""
    flipped: tuple[bool, ...]
    pending: str | None
    """FD-2 variant: the face-up card waiting for its square (None with an OBSERVED deal:
    the card is seen only when it is placed)."""
    dealt: tuple[bool, ...]
    """dealt[i]: square i + 1 has its face-down card (FD-2; an OBSERVED deal fills it)."""
    hand_sizes: tuple[int, ...]
    deck_size: int
    """The undealt cards (with an OBSERVED deal: what FD-2's deal leaves of 52)."""
    discard_size: int
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return _plain(self)


@dataclass(frozen=True, slots=True)
class State(Snapshot[Board]):
    """A whole game position, frozen: `apply` returns a new one.

    The board of the position (the engine's core, board.py) is built from these facts when
    first needed, kept with them, and never handed out: `fork` gives a copy to play on.
    """

    config: Config
    seed: int
    deal: int
    """Phases dealt so far; the current phase was shuffled with Random(f"{seed}:{deal}")."""
    manche: int
    phase: int
    """The phase within the manche, 1-based; tie-break phases go on counting (FD-10)."""
    extra: int
    """Extra phases played so far for the current tie (FD-10)."""
    overtime: bool
    """The manches are over and the phases now break a tie for the game (FD-10)."""
    tied: tuple[int, ...]
    stage: Stage
    turn: int
    first: int
    """The seat that started this phase (FD-2)."""
    tokens: tuple[int, ...]
    manche_wins: tuple[int, ...]
    baseline: tuple[int, ...]
    """The tokens from which the manche's net gains are counted (FD-10)."""
    owners: tuple[int | None, ...]
    """owners[i]: the seat owning LINES[i] (its bâtonnet), FD-5."""
    faces: tuple[str | None, ...]
    flipped: tuple[bool, ...]
    pending: str | None
    winners: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds (FD-2, FD-3, FD-9), in both deal modes."""
    # Hidden facts: never copied into a PublicView.
    under: tuple[str | None, ...]
    """The face-down card of each square 1..9 (None: not dealt yet, OBSERVED deal)."""
    hands: tuple[Hand, ...]
    """Each seat's cards with a SEEDED deal; empty with an OBSERVED one (the engine never
    sees a hand: it knows `hand_sizes` and each card as it is played)."""
    deck: tuple[str, ...]
    """The undealt cards, in deck order (empty with an OBSERVED deal: unknown)."""
    discards: tuple[str, ...]
    """The cards discarded face down this phase (FD-3)."""
    played: tuple[Hand, ...]
    """The cards each seat played this phase, in order (face-down discards among them)."""
    _board: Board | None = field(default=None, init=False, compare=False, repr=False)
    """The board of these facts, once built (it holds the hidden facts too)."""

    @classmethod
    def of(cls, board: Board) -> State:
        """The snapshot of a board (which the caller must not play on afterwards)."""
        state = cls(
            config=board.config,
            seed=board.seed,
            deal=board.deal,
            manche=board.manche,
            phase=board.phase,
            extra=board.extra,
            overtime=board.overtime,
            tied=board.tied,
            stage=board.stage,
            turn=board.turn,
            first=board.first,
            tokens=tuple(board.tokens),
            manche_wins=tuple(board.manche_wins),
            baseline=tuple(board.baseline),
            owners=tuple(board.owner(line) for line in range(len(board.lines))),
            faces=_names(board.faces),
            flipped=tuple(board.flipped),
            pending=_name(board.pending),
            winners=board.winners,
            hand_sizes=tuple(board.hand_sizes),
            under=_names(board.under),
            hands=tuple(tuple(NAMES[c] for c in hand) for hand in board.hands),
            deck=tuple(NAMES[c] for c in board.deck),
            discards=tuple(NAMES[c] for c in board.discards),
            played=tuple(tuple(NAMES[c] for c in cards) for cards in board.played),
        )
        board.watch = UNWATCHED
        return state._keep(board)

    def _board_of_facts(self) -> Board:
        """The board of a position's facts."""
        return Board.of(
            config=self.config,
            seed=self.seed,
            deal=self.deal,
            manche=self.manche,
            phase=self.phase,
            extra=self.extra,
            overtime=self.overtime,
            tied=self.tied,
            stage=self.stage,
            turn=self.turn,
            first=self.first,
            tokens=self.tokens,
            manche_wins=self.manche_wins,
            baseline=self.baseline,
            owners=self.owners,
            faces=tuple(_card(c) for c in self.faces),
            flipped=self.flipped,
            under=tuple(_card(c) for c in self.under),
            pending=_card(self.pending),
            winners=self.winners,
            hand_sizes=self.hand_sizes,
            hands=tuple(tuple(CARD[c] for c in hand) for hand in self.hands),
            deck=tuple(CARD[c] for c in self.deck),
            discards=tuple(CARD[c] for c in self.discards),
            played=tuple(tuple(CARD[c] for c in cards) for cards in self.played),
        )

    def to_json(self) -> dict[str, Any]:
        data = _plain(self)
        del data["_board"]
        data["config"] = self.config.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        return cls(
            config=Config.from_json(data["config"]),
            seed=data["seed"],
            deal=data["deal"],
            manche=data["manche"],
            phase=data["phase"],
            extra=data["extra"],
            overtime=data["overtime"],
            tied=tuple(data["tied"]),
            stage=Stage(data["stage"]),
            turn=data["turn"],
            first=data["first"],
            tokens=tuple(data["tokens"]),
            manche_wins=tuple(data["manche_wins"]),
            baseline=tuple(data["baseline"]),
            owners=tuple(data["owners"]),
            faces=tuple(data["faces"]),
            flipped=tuple(data["flipped"]),
            pending=data["pending"],
            winners=tuple(data["winners"]),
            hand_sizes=tuple(data.get("hand_sizes", [len(h) for h in data["hands"]])),
            under=tuple(data["under"]),
            hands=tuple(tuple(h) for h in data["hands"]),
            deck=tuple(data["deck"]),
            discards=tuple(data["discards"]),
            played=tuple(tuple(p) for p in data.get("played", [[]] * len(data["hands"]))),
        )


def _name(card: int) -> str | None:
    return None if card == NO_CARD else NAMES[card]


def _names(cards: list[int]) -> tuple[str | None, ...]:
    return tuple(None if c == NO_CARD else NAMES[c] for c in cards)


def _card(name: str | None) -> int:
    return NO_CARD if name is None else CARD[name]


def public_view(state: State) -> PublicView:
    """The only way facts leave the engine for a screen or a log."""
    return PublicView(
        game="flipdone",
        manche=state.manche,
        phase=state.phase,
        extra=state.extra,
        overtime=state.overtime,
        tied=state.tied,
        stage=state.stage,
        turn=state.turn,
        first=state.first,
        tokens=state.tokens,
        manche_wins=state.manche_wins,
        baseline=state.baseline,
        owners=state.owners,
        faces=state.faces,
        flipped=state.flipped,
        pending=state.pending,
        dealt=tuple(card is not None for card in state.under),
        hand_sizes=state.hand_sizes,
        deck_size=_deck_size(state),
        discard_size=len(state.discards),
        winners=state.winners,
    )


def _deck_size(state: State) -> int:
    if state.config.deal is Deal.SEEDED:
        return len(state.deck)
    return len(DECK) - SQUARES - 1 - HAND_SIZE * state.config.players  # FD-2


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat knows: the public view plus its own hand, as far as the engine knows
    it, and the cards it played this phase."""

    public: PublicView
    seat: int
    hand: Hand
    """The seat's cards with a SEEDED deal; empty with an OBSERVED one, where the engine
    never sees a hand (`hand_size` says how many cards the seat holds)."""
    hand_size: int
    played: Hand
    """The cards this seat played this phase, in order (its face-down discards too)."""


def player_view(state: State, seat: int) -> PlayerView:
    return PlayerView(
        public_view(state),
        seat,
        state.hands[seat],
        state.hand_sizes[seat],
        state.played[seat],
    )
