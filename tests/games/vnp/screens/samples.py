"""Vous ne passerez pas ! screens for the golden PNGs and the on-screen tests, built from
real engine positions: games played by the greedy bot from a seeded RNG."""

from __future__ import annotations

import random

from companion.games.vnp.bots import largest_first
from companion.games.vnp.referee import hint_placement
from companion.games.vnp.rules import (
    COLOURS,
    Config,
    Passed,
    Placed,
    PublicView,
    State,
    apply,
    is_over,
    make_config,
    new_game,
    public_view,
)
from companion.games.vnp.screens import (
    Shown,
    VnpAnyScreen,
    VnpBoardScreen,
    VnpGameOverScreen,
    VnpNoticeScreen,
    shown_of,
)
from companion.games.vnp.words import VnpRefusal
from companion.screens.model import Notice, Reason, Refusal

FOUR = ("Ana", "Bob", "Cy", "Dan")
TWO = ("Ana", "Bob")
BONUS_SIZE, BONUS_SEED = 14, 8
"""On a 14 x 14 board the greedy bot from seed 8 places every vert piece (VNP-6: -10)
and leaves jaune 14, bleu 9, rouge 10."""


def game(
    mode: str = "four", moves: int | None = None, size: int = 13, seed: int = 1
) -> tuple[State, list[object]]:
    """The greedy bot's game, after `moves` actions (None: to the end), and its events."""
    state, _ = new_game(make_config(size=size, mode=mode), 0)
    rng = random.Random(seed)
    events: list[object] = []
    while not is_over(state) and (moves is None or len(events) < moves):
        state, made = apply(state, largest_first(state, rng))
        events.extend(e for e in made if isinstance(e, Placed | Passed))
    return state, events


def seats_of(config: Config) -> tuple[int, ...]:
    return tuple(config.seat_of(i) for i in range(len(COLOURS)))


def sides_of(config: Config, names: tuple[str, ...]) -> tuple[str, ...]:
    from companion.games.vnp.referee import side_names

    return side_names(config, names)


Base = tuple[PublicView, tuple[str, ...], tuple[int, ...], tuple[str, ...]]


def base(state: State, names: tuple[str, ...]) -> Base:
    config = state.config
    return public_view(state), names, seats_of(config), sides_of(config, names)


def last_of(state: State, events: list[object]) -> Shown | None:
    placed = [e for e in events if isinstance(e, Placed)]
    if not placed:
        return None
    e = placed[-1]
    return Shown(e.colour, e.piece, e.segments, e.placement)


def board(mode: str = "four", moves: int | None = 9, hint: bool = False) -> VnpBoardScreen:
    state, events = game(mode, moves)
    names = TWO if mode == "two" else FOUR
    shown = None
    if hint:
        shown = shown_of(COLOURS[state.turn], hint_placement(state), state.config.size)
    return VnpBoardScreen(*base(state, names), last_of(state, events), None, shown)


def passed_board() -> VnpBoardScreen:
    """Just after the first pass of the greedy game (VNP-5)."""
    state, events = game()
    full, _ = game()
    for moves in range(1, len(events) + 1):
        state, events = game(moves=moves)
        if isinstance(events[-1], Passed):
            break
    assert isinstance(events[-1], Passed)
    return VnpBoardScreen(*base(state, FOUR), last_of(state, events), events[-1].colour)


def over(mode: str = "four", bonus: bool = True) -> VnpGameOverScreen:
    if bonus:
        state, _ = game(mode, size=BONUS_SIZE, seed=BONUS_SEED)
    else:
        state, _ = game(mode)
    names = TWO if mode == "two" else FOUR
    return VnpGameOverScreen(*base(state, names))


def tie() -> VnpGameOverScreen:
    """A 20 x 20 board: every colour places all (-10 each), so every seat wins."""
    state, _ = game("four", size=20)
    return VnpGameOverScreen(*base(state, FOUR))


def notice(reason: Reason, control: str = "place", seat: int | None = 1,
           ruling: str | None = None, why: str | None = None) -> VnpNoticeScreen:  # fmt: skip
    state, _ = game(moves=5)
    return VnpNoticeScreen(*base(state, FOUR), Notice(control, seat, reason, 9.0), ruling, why)


CROSS = "pieces never cross: both would go straight through"


def golden_cases() -> dict[str, tuple[VnpAnyScreen, str]]:
    return {
        "board_start_fr": (board(moves=0), "fr"),
        "board_last_fr": (board(), "fr"),
        "board_hint_en": (board(moves=14, hint=True), "en"),
        "board_passed_fr": (passed_board(), "fr"),
        "board_two_fr": (board("two", moves=20), "fr"),
        "board_teams_en": (board("teams", moves=30), "en"),
        "notice_illegal_fr": (notice(VnpRefusal.ILLEGAL_PLACEMENT, ruling="VNP-4", why=CROSS),
                              "fr"),
        "notice_illegal_en": (notice(VnpRefusal.ILLEGAL_PLACEMENT, ruling="VNP-4", why=CROSS),
                              "en"),
        "notice_pass_fr": (notice(VnpRefusal.MAY_NOT_PASS, "pass", 0, "VNP-5",
                                  "jaune may not pass: it can place a piece"), "fr"),
        "notice_turn_en": (notice(Refusal.NOT_YOUR_TURN, seat=2), "en"),
        "game_over_fr": (over(), "fr"),
        "game_over_two_en": (over("two"), "en"),
        "game_over_teams_fr": (over("teams", bonus=False), "fr"),
        "game_over_tie_en": (tie(), "en"),
    }  # fmt: skip
