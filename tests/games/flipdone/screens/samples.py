"""Flip Done screens for the golden PNGs and the on-screen tests, built from real engine
positions (a seeded game played by the heuristic bots)."""

from __future__ import annotations

import random

from companion.games.flipdone.bots import heuristic_action
from companion.games.flipdone.rules import (
    Config,
    DealDown,
    GameOver,
    LineBroken,
    LineMade,
    MancheWon,
    PhaseEnded,
    PublicView,
    State,
    Tied,
    apply,
    is_over,
    make_config,
    new_game,
    public_view,
)
from companion.games.flipdone.screens import (
    FdAnyScreen,
    FdBoardScreen,
    FdFaultScreen,
    FdGameOverScreen,
    FdNoticeScreen,
    FdPhaseEndScreen,
    FdPrompt,
    FdSay,
)
from companion.screens.model import Notice, Refusal

NAMES = ("Ana", "Bob", "Cy")


def played(plays: int, seed: int = 3) -> State:
    """A seeded game after `plays` plays of the heuristic bots."""
    state, _ = new_game(Config(), seed)
    rng = random.Random(seed)
    for _ in range(plays):
        if is_over(state):
            break
        state, _ = apply(state, heuristic_action(state, rng))
    return state


def dealing(squares: int) -> PublicView:
    """A table dealing: `squares` face-down cards are down."""
    state, _ = new_game(make_config(deal="observed"), 0)
    for square in range(1, squares + 1):
        state, _ = apply(state, DealDown(square, f"{square}C" if square > 1 else "AC"))
    return public_view(state)


PROMPTS: dict[FdSay, list[FdPrompt]] = {
    FdSay.DEAL_DOWN: [FdPrompt.of(FdSay.DEAL_DOWN, n=9)],
    FdSay.DEAL_UP: [FdPrompt.of(FdSay.DEAL_UP)],
    FdSay.PLACE_FIRST: [FdPrompt.of(FdSay.PLACE_FIRST, seat=1)],
    FdSay.PLAY: [FdPrompt.of(FdSay.PLAY, seat=2)],
    FdSay.PAD: [FdPrompt.of(FdSay.PAD, seat=0)],
    FdSay.TURNING: [FdPrompt.of(FdSay.TURNING, seat=0, spot=7)],
    FdSay.GATHER: [
        FdPrompt.of(FdSay.GATHER, spots=tuple(range(10))),
        FdPrompt.of(FdSay.GATHER, spots=(3,)),
    ],  # fmt: skip
    FdSay.WAIT_TABLE: [
        FdPrompt.of(FdSay.WAIT_TABLE, spots=(4,)),
        FdPrompt.of(FdSay.WAIT_TABLE, spots=(0, 2, 9)),
    ],  # fmt: skip
    FdSay.ONE_FLIP: [
        FdPrompt.of(FdSay.ONE_FLIP, spots=(4, 5)),
        FdPrompt.of(FdSay.ONE_FLIP, spots=(1, 2, 3, 4, 5, 6, 7, 8, 9)),
    ],  # fmt: skip
    FdSay.RESTORE: [FdPrompt.of(FdSay.RESTORE, spots=(0, 1, 2, 3, 4, 5, 6, 7, 8, 9))],
    FdSay.OFF_MAT: [FdPrompt.of(FdSay.OFF_MAT, spot=s) for s in (10, 1000)],
    FdSay.ACROSS_SPOTS: [FdPrompt.of(FdSay.ACROSS_SPOTS, spots=s) for s in ((0, 1), (9, 10))],
}
for _say in FdSay:
    PROMPTS.setdefault(_say, [FdPrompt.of(_say, spot=s) for s in (0, 9)])


def golden_cases() -> dict[str, tuple[FdAnyScreen, str]]:
    mid = public_view(played(7))
    late = public_view(played(11))
    made = LineMade(1, 4, 2)
    broken = LineBroken(0, 2, 6, 3, 1, 2)
    ended = PhaseEnded((0, 0, 0), (0, 0, 0))
    over = played(400)
    over_view = public_view(over)
    winners = over_view.winners
    return {
        "board_deal_fr": (FdBoardScreen(dealing(4), NAMES, FdPrompt.of(FdSay.DEAL_DOWN, n=5),
                                        False), "fr"),
        "board_play_fr": (FdBoardScreen(mid, NAMES, FdPrompt.of(FdSay.PLAY, seat=mid.turn),
                                        False, (made, broken)), "fr"),
        "board_pad_en": (FdBoardScreen(late, NAMES, FdPrompt.of(FdSay.PAD, seat=late.turn),
                                       True), "en"),
        "fault_fr": (FdFaultScreen(mid, NAMES, FdPrompt.of(FdSay.FLIPPED_TWICE, spot=5)), "fr"),
        "fault_en": (FdFaultScreen(mid, NAMES, FdPrompt.of(FdSay.ONE_FLIP, spots=(4, 5))), "en"),
        "notice_fr": (FdNoticeScreen(mid, NAMES, Notice("choose", None, Refusal.NOT_NOW, 9.0)),
                      "fr"),
        "phase_end_fr": (FdPhaseEndScreen(late, NAMES, PhaseEnded((0, 1, 0), (0, 1, 0)),
                                          MancheWon(2, 1, (5, 3, 8), 2), None,
                                          PROMPTS[FdSay.GATHER][0]), "fr"),
        "phase_end_tie_en": (FdPhaseEndScreen(late, NAMES, ended, None, Tied((0, 2), False, 1),
                                              PROMPTS[FdSay.GATHER][1]), "en"),
        "game_over_fr": (FdGameOverScreen(over_view, NAMES,
                                          GameOver(winners, over_view.tokens)), "fr"),
    }  # fmt: skip
