"""The game position (State, with hidden facts) and what may be known of it (views)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.swiped.rules.board import COLOUR_INDEX, NO_SWAP, SWAP_OF, UNWATCHED, Board
from companion.games.swiped.rules.config import (
    COLOURS,
    PAIRS,
    Config,
    Pair,
    Phase,
    pair,
)
from companion.games.swiped.rules.deck import Card, make_deck
from companion.rules.jsonable import plain as _plain
from companion.rules.snapshot import Snapshot


@dataclass(frozen=True, slots=True)
class State(Snapshot[Board]):
    """A whole game position, frozen: `apply` returns a new one.

    The board of the position (the engine's core, board.py) is built from these facts when
    first needed, kept with them, and never handed out: `fork` gives a copy to play on.
    """

    config: Config
    seed: int
    """The seed of the draw at setup (SW-2); all chance came from random.Random(seed)."""
    manche: int
    phase: Phase
    layout_card: int | None
    """SW-2: the card drawn face up for the starting layout (None until an OBSERVED deal
    reads it)."""
    grid: tuple[str, ...]
    """grid[i] is the colour of the big cube on square i + 1 (empty until the layout)."""
    revealed: tuple[tuple[Pair, ...], ...] | None
    """SW-3: both programs once shown, None while programming."""
    step: int
    """SW-4: how many of the six swaps of this manche are done (or skipped)."""
    claims: tuple[int, ...]
    """Claims each seat made since the last swap (claims_per_gap, with REFUSED)."""
    winner: int | None
    drawn: bool
    # Hidden facts: never copied into a PublicView.
    targets: tuple[int | None, ...]
    """SW-2: each seat's secret target card (1..deck size; None until an OBSERVED deal
    reads it)."""
    secret_programs: tuple[tuple[Pair, ...], ...]
    """SW-3: the swaps each seat entered, while programming (empty once revealed)."""
    phase_pair: Pair | None = None
    """SW-4: the pair the first swap of the current phase exchanged, until its second swap
    (public: everyone saw it)."""
    _board: Board | None = field(default=None, init=False, compare=False, repr=False)
    """The board of these facts, once built (it holds the hidden facts too)."""

    @classmethod
    def of(cls, board: Board) -> State:
        """The snapshot of a board (which the caller must not play on afterwards)."""
        state = cls(
            config=board.config,
            seed=board.seed,
            manche=board.manche,
            phase=board.phase,
            layout_card=board.layout,
            grid=tuple(COLOURS[c] for c in board.cells),
            revealed=None if board.revealed is None else _pairs(board.revealed),
            step=board.step,
            claims=tuple(board.gap_claims),
            winner=board.winner,
            drawn=board.drawn,
            targets=tuple(board.targets),
            secret_programs=_pairs(board.programs),
            phase_pair=None if board.phase_pair is None else PAIRS[board.phase_pair],
        )
        board.watch = UNWATCHED
        return state._keep(board)

    def _board_of_facts(self) -> Board:
        """The board of a position's facts."""
        swaps = _swaps(self.revealed) if self.revealed is not None else None
        return Board.of(
            config=self.config,
            seed=self.seed,
            manche=self.manche,
            phase=self.phase,
            layout=self.layout_card,
            targets=self.targets,
            grid=tuple(COLOUR_INDEX[c] for c in self.grid),
            programs=_swaps(self.secret_programs),
            revealed=swaps,
            step=self.step,
            gap_claims=self.claims,
            winner=self.winner,
            drawn=self.drawn,
            phase_pair=None if self.phase_pair is None else SWAP_OF[self.phase_pair],
        )

    @property
    def deck(self) -> tuple[Card, ...]:
        return make_deck(self.config.deck_size, self.config.deck_seed)

    def matches(self, seat: int) -> int:
        """How many big cubes stand where `seat`'s own card puts them (SW-5)."""
        self.target(seat)
        return self._core().matches(seat)

    def target(self, seat: int) -> int:
        card = self.targets[seat]
        if card is None:
            raise ValueError(f"seat {seat}'s target card is not drawn yet")
        return card

    def to_json(self) -> dict[str, Any]:
        data = _plain(self)
        del data["_board"]
        data["config"] = self.config.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        def programs(value: Any) -> tuple[tuple[Pair, ...], ...]:
            return tuple(tuple((p[0], p[1]) for p in prog) for prog in value)

        revealed = data["revealed"]
        return cls(
            config=Config.from_json(data["config"]),
            seed=data["seed"],
            manche=data["manche"],
            phase=Phase(data["phase"]),
            layout_card=data["layout_card"],
            grid=tuple(data["grid"]),
            revealed=None if revealed is None else programs(revealed),
            step=data["step"],
            claims=tuple(data["claims"]),
            winner=data["winner"],
            drawn=data["drawn"],
            targets=tuple(data["targets"]),
            secret_programs=programs(data["secret_programs"]),
            phase_pair=None if data.get("phase_pair") is None else pair(*data["phase_pair"]),
        )


def _pairs(programs: tuple[tuple[int, ...], ...] | list[list[int]]) -> tuple[tuple[Pair, ...], ...]:
    return tuple(tuple(PAIRS[k] for k in program) for program in programs)


def _swaps(programs: tuple[tuple[Pair, ...], ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(SWAP_OF.get(p, NO_SWAP) for p in program) for program in programs)


def next_swap(state: State) -> int | None:
    """SW-4: the seat whose swap is next, None while programming or when the game is over."""
    return state._core().swapper()


@dataclass(frozen=True, slots=True)
class PublicView:
    """All that both players may know. Screens and logs receive this, never a State."""

    game: str
    deck_size: int
    deck_seed: int
    first: int
    manche: int
    manche_limit: int | None
    phase: Phase
    layout_card: int | None
    grid: tuple[str, ...]
    targets_recorded: tuple[bool, ...]
    """Whose target card is drawn (always both, but while an OBSERVED deal reads them)."""
    programmed: tuple[int, ...]
    """How many swaps each seat has entered (the pairs stay hidden until revealed)."""
    revealed: tuple[tuple[Pair, ...], ...] | None
    step: int
    next_swap: int | None
    """The seat whose swap is next (SW-4), None while programming or over."""
    phase_pair: Pair | None
    claims: tuple[int, ...]
    winner: int | None
    drawn: bool

    def to_json(self) -> dict[str, Any]:
        return _plain(self)


def public_view(state: State) -> PublicView:
    """The only way facts leave the engine for a screen or a log."""
    cfg = state.config
    return PublicView(
        game="swiped",
        deck_size=cfg.deck_size,
        deck_seed=cfg.deck_seed,
        first=cfg.first,
        manche=state.manche,
        manche_limit=cfg.manche_limit,
        phase=state.phase,
        layout_card=state.layout_card,
        grid=state.grid,
        targets_recorded=tuple(t is not None for t in state.targets),
        programmed=tuple(len(p) for p in state.secret_programs)
        if state.revealed is None
        else tuple(len(p) for p in state.revealed),
        revealed=state.revealed,
        step=state.step,
        next_swap=next_swap(state),
        phase_pair=state.phase_pair,
        claims=state.claims,
        winner=state.winner,
        drawn=state.drawn,
    )


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat knows: the public view plus its own card and its own program."""

    public: PublicView
    seat: int
    target: int | None
    """None while an OBSERVED deal has not read it yet (then no layout, no matches)."""
    target_layout: Card
    matches: int
    program: tuple[Pair, ...]

    def to_json(self) -> dict[str, Any]:
        data = _plain(self)
        data["public"] = self.public.to_json()
        return data


def player_view(state: State, seat: int) -> PlayerView:
    program = state.secret_programs[seat] if state.revealed is None else state.revealed[seat]
    target = state.targets[seat]
    return PlayerView(
        public=public_view(state),
        seat=seat,
        target=target,
        target_layout=() if target is None else state.deck[target - 1],
        matches=0 if target is None else state.matches(seat),
        program=program,
    )
