"""Swiped screens for the golden PNGs and the on-screen tests, built from real engine
positions (an OBSERVED deal, as at a table: the layout card, both targets, then swaps),
and one whole simulated game whose OLED frames make a contact sheet."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from companion.games.swiped.rules import (
    COLOURS,
    ClaimCard,
    ClaimChecked,
    ClaimMatches,
    DrawLayout,
    DrawTarget,
    PublicView,
    State,
    Swap,
    apply,
    make_config,
    new_game,
    next_swap,
    public_view,
)
from companion.games.swiped.screens import (
    SwAnyScreen,
    SwBoardScreen,
    SwFaultScreen,
    SwGameOverScreen,
    SwNoticeScreen,
    SwPrompt,
    SwSay,
)
from companion.games.swiped.sim import Pace, SwipedSim, make_setup
from companion.journal import Input
from companion.screens.model import Notice, Refusal
from companion.screens.render import frame

NAMES = ("Ana", "Bob")
LAYOUT, TARGETS = 1, (2, 3)
SQUARE_PAIRS = [(1, 2), (3, 4), (5, 6), (7, 8), (9, 1), (2, 3), (4, 7), (5, 8)]
"""Squares exchanged by the sample swaps, in order (never a phase's pair twice)."""


def table(swaps: int = 0, *, layout: bool = True, targets: int = 2, **rules: Any) -> State:
    """A table's game (OBSERVED deal): the layout card, `targets` target cards drawn, then
    `swaps` swaps of SQUARE_PAIRS."""
    state, _ = new_game(make_config(deal="observed", **rules), 0)
    if not layout:
        return state
    state, _ = apply(state, DrawLayout(LAYOUT))
    for seat in range(targets):
        state, _ = apply(state, DrawTarget(seat, TARGETS[seat]))
    for i, j in SQUARE_PAIRS[:swaps]:
        seat = next_swap(state)
        assert seat is not None
        state, _ = apply(state, Swap(seat, *_pair(state.grid, i, j)))
    return state


def _pair(grid: tuple[str, ...], i: int, j: int) -> tuple[str, str]:
    a, b = grid[i - 1], grid[j - 1]
    return (a, b) if COLOURS.index(a) < COLOURS.index(b) else (b, a)


def view(swaps: int = 0, **options: Any) -> PublicView:
    return public_view(table(swaps, **options))


def won(seat: int = 1) -> tuple[PublicView, ClaimChecked]:
    """Seat names the other's card after three swaps: the game is over."""
    state, events = apply(table(3), ClaimCard(seat, TARGETS[1 - seat]))
    verdict = next(e for e in events if isinstance(e, ClaimChecked))
    return public_view(state), verdict


def drawn() -> PublicView:
    """SW-6 with a limit of one manche: six swaps, a draw."""
    return view(6, manche_limit=1)


def refused_verdict() -> tuple[PublicView, ClaimChecked]:
    """With false claims only refused: Ana's false "5 matches" after three swaps."""
    state, events = apply(table(3, false_claim="refused"), ClaimMatches(0))
    verdict = next(e for e in events if isinstance(e, ClaimChecked))
    return public_view(state), verdict


PROMPTS: dict[SwSay, list[SwPrompt]] = {
    SwSay.LAYOUT: [SwPrompt.of(SwSay.LAYOUT)],
    SwSay.PLACE: [SwPrompt.of(SwSay.PLACE, card=LAYOUT), SwPrompt.of(SwSay.PLACE, card=60)],
    SwSay.TARGET: [SwPrompt.of(SwSay.TARGET, seat=s) for s in (0, 1)],
    SwSay.PROGRAM: [SwPrompt.of(SwSay.PROGRAM, seat=1)],
    SwSay.SWAP: [SwPrompt.of(SwSay.SWAP, seat=0)],
    SwSay.SWAP_OR_SKIP: [SwPrompt.of(SwSay.SWAP_OR_SKIP, seat=1)],
    SwSay.SWAPPING: [
        SwPrompt.of(SwSay.SWAPPING, seat=0, spots=(4,)),
        SwPrompt.of(SwSay.SWAPPING, seat=1, spots=(1, 2, 3, 4)),
        SwPrompt.of(SwSay.SWAPPING, seat=1, spots=(1, 2), claimer=0),
    ],
    SwSay.GUESS: [SwPrompt.of(SwSay.GUESS, seat=1)],
    SwSay.WAIT_TABLE: [
        SwPrompt.of(SwSay.WAIT_TABLE, spots=(7,)),
        SwPrompt.of(SwSay.WAIT_TABLE, spots=tuple(range(1, 10))),
    ],
    SwSay.PUT_BACK: [
        SwPrompt.of(SwSay.PUT_BACK, spots=(4, 6), colours=("vert", "jaune")),
        SwPrompt.of(SwSay.PUT_BACK, spots=tuple(range(1, 10)), colours=COLOURS),
    ],
    SwSay.SAME_PAIR: [
        SwPrompt.of(SwSay.SAME_PAIR, spots=(1, 2), colours=("violet", "blanc")),
        SwPrompt.of(SwSay.SAME_PAIR, spots=(5, 9), colours=("orange", "violet")),
    ],
    SwSay.GUESS_FIRST: [SwPrompt.of(SwSay.GUESS_FIRST, seat=0)],
    SwSay.OFF_MAT: [SwPrompt.of(SwSay.OFF_MAT, spot=s) for s in (10, 1000)],
    SwSay.ACROSS_SPOTS: [SwPrompt.of(SwSay.ACROSS_SPOTS, spots=s) for s in ((0, 1), (9, 10))],
}
"""Each prompt key with the parameters it takes (the longest too); the others below."""
for _say in SwSay:
    if _say not in PROMPTS:  # a spot (square 9, or the pad), a seat, a card: what it takes
        PROMPTS[_say] = [
            SwPrompt.of(_say, spot=9, seat=1, card=24),
            SwPrompt.of(_say, spot=0, seat=0, card=7),
        ]


def golden_cases() -> dict[str, tuple[SwAnyScreen, str]]:
    mid = view(3)
    late = view(8)
    refused, verdict = refused_verdict()
    over, true_card = won(1)
    drawn_view = drawn()
    notice = Notice("doublon", 1, Refusal.ALREADY_CALLED, 9.0)
    return {
        "board_layout_fr": (SwBoardScreen(view(layout=False), NAMES,
                                          SwPrompt.of(SwSay.LAYOUT)), "fr"),
        "board_place_fr": (SwBoardScreen(view(targets=0), NAMES,
                                         SwPrompt.of(SwSay.PLACE, card=LAYOUT)), "fr"),
        "board_target_fr": (SwBoardScreen(view(targets=1), NAMES,
                                          SwPrompt.of(SwSay.TARGET, seat=1), None, 0), "fr"),
        "board_skip_fr": (SwBoardScreen(mid, NAMES,
                                        SwPrompt.of(SwSay.SWAP_OR_SKIP, seat=0)), "fr"),
        "board_verdict_fr": (SwBoardScreen(refused, NAMES,
                                           SwPrompt.of(SwSay.SWAP_OR_SKIP, seat=0), verdict),
                             "fr"),
        "board_swapping_en": (SwBoardScreen(late, NAMES,
                                            SwPrompt.of(SwSay.SWAPPING, seat=1, spots=(2, 6))),
                              "en"),
        "board_guess_en": (SwBoardScreen(mid, NAMES, SwPrompt.of(SwSay.GUESS, seat=1)), "en"),
        "fault_fr": (SwFaultScreen(mid, NAMES, PROMPTS[SwSay.SAME_PAIR][0]), "fr"),
        "fault_en": (SwFaultScreen(mid, NAMES, PROMPTS[SwSay.PUT_BACK][0]), "en"),
        "notice_fr": (SwNoticeScreen(mid, NAMES, notice), "fr"),
        "game_over_fr": (SwGameOverScreen(over, NAMES, true_card, TARGETS), "fr"),
        "game_over_drawn_en": (SwGameOverScreen(drawn_view, NAMES, None, TARGETS), "en"),
    }  # fmt: skip


# ------------------------------------------------------------------------ a whole game

WHOLE_GAME_SEED = 21
WHOLE_GAME_BOTS = ("deducing", "random")
SHEET_COLUMNS = 8
SHEET_GAP = 2
SHEET_GUTTER = 96
"""The grey between frames on the contact sheet (frames are white on black)."""


def whole_game_frames(
    seed: int = WHOLE_GAME_SEED, lang: str = "fr"
) -> tuple[list[Image.Image], list[dict[str, Any]]]:
    """One spaced simulated game: each frame the OLED shows that differs from the one
    before, in order, and the referee's events."""
    frames: list[Image.Image] = []

    def grab(record: Input, referee: Any) -> None:
        image = frame(referee.screen, lang)
        if not frames or image.tobytes() != frames[-1].tobytes():
            frames.append(image.copy())

    setup = make_setup(seed, language=lang)
    sim = SwipedSim(setup, bots=list(WHOLE_GAME_BOTS), pace=Pace.spaced(), on_input=grab)
    first = sim.referee.screen
    frames.append(frame(first, lang).copy())
    result = sim.run()
    assert result.referee is not None
    return frames, result.referee.events


def contact_sheet(frames: Sequence[Image.Image]) -> Image.Image:
    """The frames at 1x, left to right then top to bottom, in grey gutters."""
    columns = min(SHEET_COLUMNS, len(frames))
    rows = -(-len(frames) // columns)
    w, h = frames[0].size
    sheet = Image.new(
        "L",
        (columns * (w + SHEET_GAP) + SHEET_GAP, rows * (h + SHEET_GAP) + SHEET_GAP),
        SHEET_GUTTER,
    )
    for index, image in enumerate(frames):
        row, column = divmod(index, columns)
        xy = (SHEET_GAP + column * (w + SHEET_GAP), SHEET_GAP + row * (h + SHEET_GAP))
        sheet.paste(image.convert("L"), xy)
    return sheet


def whole_game_sheet(lang: str = "fr") -> Image.Image:
    frames, _ = whole_game_frames(lang=lang)
    return contact_sheet(frames)


def extra_golden() -> dict[str, Image.Image]:
    """Golden pictures that are not one screen: a whole game's frames on one sheet."""
    return {"whole_game_fr": whole_game_sheet("fr")}
