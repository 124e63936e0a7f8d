"""The engine: new_game, actors, legal_actions and apply (validate, then transition).

A manche, as the engine sees it (one action at a time, so a real table can feed it):

    PROGRAM   each seat enters Program(seat, a, b) three times, in any interleaving (SW-3);
              when both have three, the programs are revealed together
    EXECUTE   Swap(seat, a, b) six times, in the order of swap_order (SW-4); the second
              swap of a phase that repeats the first is skipped by the engine

With an OBSERVED deal (a real table, `Deal`) the game opens in DRAW: DrawLayout(card), then
DrawTarget(seat, card) for each seat, in any order. There is no PROGRAM: the programs stay
in small cubes on the table, each Swap is any pair from the seat whose swap is next, and
the second seat of a phase says SkipSwap when its pair repeats the first (SW-4).

ClaimMatches / ClaimCard may come from either seat in both phases, between two swaps (SW-5).
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache
from typing import TypeVar

from companion.games.swiped.rules.actions import (
    Action,
    ClaimCard,
    ClaimMatches,
    DrawLayout,
    DrawTarget,
    Program,
    SkipSwap,
    Swap,
)
from companion.games.swiped.rules.config import (
    COLOURS,
    MATCHES_TO_WIN,
    PLAYERS,
    SWAPS_PER_PROGRAM,
    Config,
    Deal,
    FalseClaim,
    Pair,
    Phase,
    swap_order,
)
from companion.games.swiped.rules.deck import make_deck
from companion.games.swiped.rules.events import (
    ClaimChecked,
    Event,
    GameDrawn,
    GameWon,
    LayoutDrawn,
    MancheEnded,
    MancheStarted,
    Programmed,
    ProgramsRevealed,
    Swapped,
    SwapSkipped,
    TargetDrawn,
)
from companion.games.swiped.rules.state import State, next_swap
from companion.rules.errors import BadInput, IllegalAction

T = TypeVar("T")

PAIRS: tuple[Pair, ...] = tuple((a, b) for i, a in enumerate(COLOURS) for b in COLOURS[i + 1 :])
"""The 36 swaps, in COLOURS order."""


def new_game(config: Config, seed: int) -> tuple[State, tuple[Event, ...]]:
    """SW-2: one card drawn face up gives the layout; each seat draws a different target;
    the first manche starts (its MancheStarted is the opening event).

    With an OBSERVED deal nothing is drawn yet: the table's cards come as DrawLayout and
    DrawTarget (the seed is kept but unused), and the first manche starts once both
    targets are drawn (no opening event)."""
    state = _first_state(config, seed)
    return state, _manche_started(state)


def is_over(state: State) -> bool:
    """Whether the game is over (SW-5: a claim settled it; SW-6: the manche limit)."""
    return state.phase is Phase.OVER


def _first_state(config: Config, seed: int) -> State:
    deck = make_deck(config.deck_size, config.deck_seed)
    if config.deal is Deal.OBSERVED:
        return State(
            config=config,
            seed=seed,
            manche=1,
            phase=Phase.DRAW,
            layout_card=None,
            grid=(),
            revealed=None,
            step=0,
            claims=(0,) * PLAYERS,
            winner=None,
            drawn=False,
            targets=(None,) * PLAYERS,
            secret_programs=((),) * PLAYERS,
        )
    rng = random.Random(seed)
    layout, *targets = rng.sample(range(1, config.deck_size + 1), 1 + PLAYERS)
    return State(
        config=config,
        seed=seed,
        manche=1,
        phase=Phase.PROGRAM,
        layout_card=layout,
        grid=deck[layout - 1],
        revealed=None,
        step=0,
        claims=(0,) * PLAYERS,
        winner=None,
        drawn=False,
        targets=tuple(targets),
        secret_programs=((),) * PLAYERS,
    )


def _manche_started(state: State) -> tuple[Event, ...]:
    """What a table announces when a manche starts (the order of its swaps, SW-4); nothing
    while the cards are still being drawn."""
    if state.phase is Phase.DRAW:
        return ()
    order = tuple(seat for seat, _ in swap_order(state.config, state.manche))
    return (MancheStarted(state.manche, order),)


# --------------------------------------------------------------------- what is legal


def may_claim(state: State, seat: int) -> bool:
    """SW-5: between two swaps, within the configured limits."""
    return _claim_refusal(state, seat) is None


def _claim_refusal(state: State, seat: int) -> str | None:
    cfg = state.config
    if state.phase is Phase.OVER:
        return "the game is over"
    if state.phase is Phase.DRAW:
        return "the cards are not all drawn yet"
    if not cfg.claim_before_first_swap and state.manche == 1 and state.step == 0:
        return "no claim before the first swap of the game"
    limit = cfg.claims_per_gap
    if limit is not None and state.claims[seat] >= limit:
        return f"seat {seat} already made {limit} claim(s) since the last swap"
    return None


def actors(state: State) -> frozenset[int]:
    """The seats that may act now: both while programming, or claiming at any moment."""
    seats = {s for s in range(PLAYERS) if may_claim(state, s)}
    if state.phase is Phase.DRAW and state.layout_card is not None:
        seats |= {s for s in range(PLAYERS) if state.targets[s] is None}
    if state.phase is Phase.PROGRAM:
        seats |= {s for s in range(PLAYERS) if len(state.secret_programs[s]) < SWAPS_PER_PROGRAM}
    swapper = next_swap(state)
    if swapper is not None:
        seats.add(swapper)
    return frozenset(seats)


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every legal action, in a fixed order (deterministic for seeded bots).

    Programming is offered one swap at a time (36 pairs per seat), never whole programs."""
    out: list[Action] = []
    if state.phase is Phase.DRAW:
        out.extend(_draws(state))
    elif state.phase is Phase.PROGRAM:
        for seat in range(PLAYERS):
            if len(state.secret_programs[seat]) < SWAPS_PER_PROGRAM:
                out.extend(_programs(seat))
    elif state.phase is Phase.EXECUTE and state.config.deal is Deal.OBSERVED:
        seat = _swapper(state)
        out.extend(Swap(seat, a, b) for a, b in PAIRS if (a, b) != state.phase_pair)
        if state.phase_pair is not None:
            out.append(SkipSwap(seat))
    elif state.phase is Phase.EXECUTE:
        seat, a, b = _next_pair(state)
        out.append(Swap(seat, a, b))
    for seat in range(PLAYERS):
        if may_claim(state, seat):
            out.extend(_claims(seat, state.config.deck_size))
    return tuple(out)


def _draws(state: State) -> list[Action]:
    cards = range(1, state.config.deck_size + 1)
    if state.layout_card is None:
        return [DrawLayout(card) for card in cards]
    taken = {state.layout_card, *state.targets}
    return [
        DrawTarget(seat, card)
        for seat in range(PLAYERS)
        if state.targets[seat] is None
        for card in cards
        if card not in taken
    ]


@lru_cache(maxsize=8)
def _programs(seat: int) -> tuple[Action, ...]:
    return tuple(Program(seat, a, b) for a, b in PAIRS)


@lru_cache(maxsize=256)
def _claims(seat: int, deck_size: int) -> tuple[Action, ...]:
    return (ClaimMatches(seat), *(ClaimCard(seat, c) for c in range(1, deck_size + 1)))


def _swapper(state: State) -> int:
    return swap_order(state.config, state.manche)[state.step][0]


def _next_pair(state: State) -> tuple[int, str, str]:
    """SEEDED: the next swap as programmed."""
    assert state.revealed is not None
    seat, phase = swap_order(state.config, state.manche)[state.step]
    a, b = state.revealed[seat][phase - 1]
    return seat, a, b


# ------------------------------------------------------------------------------ apply


def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Validate `action`, then return the next state and what happened.

    Raises BadInput or IllegalAction (naming the ruling) and leaves `state` as it was."""
    _check_input(state, action)
    if state.phase is Phase.OVER:
        ruling = "SW-6" if state.drawn else "SW-5"
        raise IllegalAction(ruling, f"the game is over ({_result(state)})")
    events: list[Event] = []
    if isinstance(action, DrawLayout | DrawTarget):
        new = _do_draw(state, action, events)
    elif isinstance(action, Program):
        new = _do_program(state, action, events)
    elif isinstance(action, Swap):
        new = _do_swap(state, action, events)
    elif isinstance(action, SkipSwap):
        new = _do_skip(state, action, events)
    elif isinstance(action, ClaimMatches | ClaimCard):
        new = _do_claim(state, action, events)
    else:  # pragma: no cover - _check_input refused it
        raise BadInput(f"not a Swiped action: {action!r}")
    return new, tuple(events)


def _result(state: State) -> str:
    return "a draw" if state.drawn else f"seat {state.winner} won"


_KINDS = (Program, Swap, SkipSwap, DrawLayout, DrawTarget, ClaimMatches, ClaimCard)


def _check_input(state: State, action: Action) -> None:
    if not isinstance(action, _KINDS):
        raise BadInput(f"not a Swiped action: {action!r}")
    if not isinstance(action, DrawLayout):
        seat = action.seat
        if not (isinstance(seat, int) and 0 <= seat < PLAYERS):
            raise BadInput(f"no seat {seat!r}: seats are 0 and 1")
    if isinstance(action, Program | Swap):
        for colour in (action.a, action.b):
            if colour not in COLOURS:
                raise BadInput(f"unknown colour {colour!r}; Swiped uses {', '.join(COLOURS)}")
    if isinstance(action, ClaimCard | DrawLayout | DrawTarget):
        size = state.config.deck_size
        card = action.card
        if not (isinstance(card, int) and 1 <= card <= size):
            raise BadInput(f"no card {card!r}: the deck has cards 1..{size}")


def _do_draw(state: State, action: DrawLayout | DrawTarget, events: list[Event]) -> State:
    if state.phase is not Phase.DRAW:
        raise IllegalAction("SW-2", "the cards are drawn once, at the start of the game")
    if isinstance(action, DrawLayout):
        if state.layout_card is not None:
            raise IllegalAction("SW-2", f"the layout card is already card {state.layout_card}")
        grid = state.deck[action.card - 1]
        events.append(LayoutDrawn(action.card, grid))
        return replace(state, layout_card=action.card, grid=grid)
    seat, card = action.seat, action.card
    if state.layout_card is None:
        raise IllegalAction("SW-2", "the layout card is drawn first")
    if state.targets[seat] is not None:
        raise IllegalAction("SW-2", f"seat {seat}'s target card is already recorded")
    if card == state.layout_card:
        raise IllegalAction("SW-2", "the face-up layout card is not a target")
    if card in state.targets:
        raise IllegalAction("SW-2", "both players' targets are different cards")
    targets = _set(state.targets, seat, card)
    events.append(TargetDrawn(seat))  # which card stays hidden
    new = replace(state, targets=targets)
    if None in targets:
        return new
    new = replace(new, phase=Phase.EXECUTE)
    events.extend(_manche_started(new))
    return new


def _do_program(state: State, action: Program, events: list[Event]) -> State:
    seat = action.seat
    if state.phase is not Phase.PROGRAM:
        raise IllegalAction("SW-3", "the programs are revealed: they are played, not changed")
    if action.a == action.b:
        raise IllegalAction("SW-3", "a swap pairs two different colours")
    mine = state.secret_programs[seat]
    if len(mine) >= SWAPS_PER_PROGRAM:
        raise IllegalAction("SW-3", f"seat {seat} has already programmed 3 swaps")
    mine = (*mine, (action.a, action.b))
    programs = _set(state.secret_programs, seat, mine)
    events.append(Programmed(seat, len(mine)))
    if any(len(p) < SWAPS_PER_PROGRAM for p in programs):
        return replace(state, secret_programs=programs)
    events.append(ProgramsRevealed(programs))  # SW-3: both shown together
    return replace(
        state,
        phase=Phase.EXECUTE,
        revealed=programs,
        secret_programs=((),) * PLAYERS,
        step=0,
    )


def _do_swap(state: State, action: Swap, events: list[Event]) -> State:
    if state.phase is not Phase.EXECUTE:
        ruling = "SW-2" if state.phase is Phase.DRAW else "SW-3"
        raise IllegalAction(ruling, "no swap before the manche's swaps begin")
    seat, a, b = _expected_swap(state, action)
    grid = list(state.grid)
    i, j = grid.index(a), grid.index(b)
    grid[i], grid[j] = grid[j], grid[i]
    order = swap_order(state.config, state.manche)
    phase = order[state.step][1]
    events.append(Swapped(seat, phase, (a, b), (min(i, j) + 1, max(i, j) + 1)))
    new = replace(state, grid=tuple(grid))
    if state.step % 2 == 1:
        return _next_step(new, events)
    new = _next_step(replace(new, phase_pair=(a, b)), events)
    if state.config.deal is Deal.SEEDED and new.phase is Phase.EXECUTE:
        other = order[new.step][0]  # SW-4: the second swap of the phase, when the same pair
        assert new.revealed is not None
        if new.revealed[other][phase - 1] == (a, b):
            events.append(SwapSkipped(other, phase, (a, b)))
            return _next_step(new, events)
    return new


def _expected_swap(state: State, action: Swap) -> tuple[int, str, str]:
    """The seat and pair of the next swap, or IllegalAction naming what is expected."""
    seat = _swapper(state)
    if action.seat != seat:
        raise IllegalAction("SW-4", f"the next swap is seat {seat}'s")
    if state.config.deal is Deal.SEEDED:
        _, a, b = _next_pair(state)
        if (action.a, action.b) != (a, b):
            raise IllegalAction("SW-4", f"seat {seat}'s programmed swap is {a} + {b}")
        return seat, a, b
    if action.a == action.b:
        raise IllegalAction("SW-3", "a swap pairs two different colours")
    if state.phase_pair == (action.a, action.b):
        raise IllegalAction("SW-4", "the same pair as this phase's first swap is applied once")
    return seat, action.a, action.b


def _do_skip(state: State, action: SkipSwap, events: list[Event]) -> State:
    if state.config.deal is Deal.SEEDED:
        raise IllegalAction("SW-4", "the engine skips a repeated pair itself")
    if state.phase is not Phase.EXECUTE or state.phase_pair is None:
        raise IllegalAction("SW-4", "only the second swap of a phase can repeat the first")
    seat = _swapper(state)
    if action.seat != seat:
        raise IllegalAction("SW-4", f"the next swap is seat {seat}'s")
    phase = swap_order(state.config, state.manche)[state.step][1]
    events.append(SwapSkipped(seat, phase, state.phase_pair))
    return _next_step(state, events)


def _next_step(state: State, events: list[Event]) -> State:
    """One swap of the manche is done (or skipped): claims reopen, the manche may end."""
    step = state.step + 1
    pair = state.phase_pair if step % 2 == 1 else None
    new = replace(state, step=step, claims=(0,) * PLAYERS, phase_pair=pair)
    if step < len(swap_order(state.config, state.manche)):
        return new
    return _end_manche(new, events)


def _end_manche(state: State, events: list[Event]) -> State:
    """The small cubes go back to the stocks; the grid and the targets stay (SW-4)."""
    events.append(MancheEnded(state.manche))
    limit = state.config.manche_limit
    if limit is not None and state.manche >= limit:  # SW-6
        events.append(GameDrawn(state.manche))
        return replace(state, phase=Phase.OVER, drawn=True, revealed=None, step=0)
    manche = state.manche + 1
    phase = Phase.EXECUTE if state.config.deal is Deal.OBSERVED else Phase.PROGRAM
    new = replace(state, manche=manche, phase=phase, revealed=None, step=0)
    events.extend(_manche_started(new))
    return new


def _do_claim(state: State, action: ClaimMatches | ClaimCard, events: list[Event]) -> State:
    seat = action.seat
    refusal = _claim_refusal(state, seat)
    if refusal is not None:
        raise IllegalAction("SW-5", refusal)
    if isinstance(action, ClaimMatches):
        correct = state.matches(seat) >= MATCHES_TO_WIN
        kind = "matches"
    else:
        correct = action.card == state.target(1 - seat)
        kind = "card"
    events.append(ClaimChecked(seat, kind, correct))  # SW-5: never either card
    if correct:
        events.append(GameWon(seat))
        return replace(state, phase=Phase.OVER, winner=seat)
    if state.config.false_claim is FalseClaim.LOSES:
        events.append(GameWon(1 - seat))
        return replace(state, phase=Phase.OVER, winner=1 - seat)
    return replace(state, claims=_set(state.claims, seat, state.claims[seat] + 1))


def _set(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return values[:index] + (value,) + values[index + 1 :]
