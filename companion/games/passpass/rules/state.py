"""The game position (State, with hidden facts) and what may be known of it (views)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.passpass.rules.board import CHALLENGES, UNWATCHED, Board
from companion.games.passpass.rules.config import (
    Challenge,
    Config,
    Hand,
    Phase,
)
from companion.rules.jsonable import plain as _plain


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
    hat_counts: tuple[int, ...]
    """How many tokens lie under each hat 1..N (the Magicien's token in flight apart):
    which ones is hidden, how many is not, since every placement, verdict and swap is seen
    (PTI-14)."""
    hand_counts: tuple[int, ...]
    """How many tokens each seat holds (the Magicien's token in flight apart), public for
    the same reason."""

    def to_json(self) -> dict[str, Any]:
        return _plain(self)


@dataclass(frozen=True, slots=True)
class State:
    """A whole game position, frozen: `apply` returns a new one.

    The board of the position (the engine's core, board.py) is built from these facts when
    first needed, kept with them, and never handed out: `fork` gives a copy to play on.
    """

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
    _board: Board | None = field(default=None, init=False, compare=False, repr=False)
    """The board of these facts, once built (it holds the hidden facts too)."""

    @property
    def masque(self) -> bool:
        """PTI-4: odd tours are Masqué, even tours Visible; PHI-1: always masked."""
        return not self.config.rules.visible_turns or self.tour % 2 == 1

    @classmethod
    def of(cls, board: Board) -> State:
        """The snapshot of a board (which the caller must not play on afterwards)."""
        names, hands = board.names, board.hand_names
        state = cls(
            config=board.config,
            manche=board.manche,
            starter=board.starter,
            tour=board.tour,
            turn=board.turn,
            magician=board.magician,
            phase=board.phase,
            challenge_tokens=tuple(board.challenge_tokens),
            victories=tuple(board.victories),
            spot=None if board.spot < 0 else board.spot + 1,
            announced=None if board.announced < 0 else names[board.announced],
            open_challenges=CHALLENGES[board.open],
            speaker=None if board.speaker < 0 else board.speaker,
            challenger=None if board.challenger < 0 else board.challenger,
            swapped=None if board.swapped < 0 else _spots(board.pairs[board.swapped]),
            winner=None if board.winner < 0 else board.winner,
            hats=tuple([hands[h] for h in board.hats]),
            hands=tuple([hands[h] for h in board.hands]),
            holding=None if board.holding < 0 else names[board.holding],
        )
        board.watched_by(UNWATCHED)
        object.__setattr__(state, "_board", board)
        return state

    def _core(self) -> Board:
        """The board of this position, built once: for the rules package to read, never to
        play on (`fork` gives a board to play on)."""
        if self._board is None:
            object.__setattr__(self, "_board", _board_of(self))
        assert self._board is not None
        return self._board

    def fork(self) -> Board:
        """A board of this position to play on (the state itself never changes)."""
        return self._core().fork()

    def to_json(self) -> dict[str, Any]:
        data = _plain(self)
        del data["_board"]
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


def _spots(pair: tuple[int, int]) -> tuple[int, int]:
    return pair[0] + 1, pair[1] + 1


def _board_of(state: State) -> Board:
    """The board of a position's facts."""
    return Board.of(
        config=state.config,
        manche=state.manche,
        starter=state.starter,
        tour=state.tour,
        turn=state.turn,
        magician=state.magician,
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
        hats=state.hats,
        hands=state.hands,
        holding=state.holding,
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
        hat_counts=tuple(len(hat) for hat in state.hats),
        hand_counts=tuple(len(hand) for hand in state.hands),
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
