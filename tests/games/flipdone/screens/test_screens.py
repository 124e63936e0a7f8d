"""Flip Done's OLED screens: golden PNGs, every prompt on the screen, and no screen that
depends on a hidden fact (a face-down card, a discard, a hand, the card on the pad)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from companion.games.flipdone.referee import FlipDoneReferee
from companion.games.flipdone.rules import DECK, public_view
from companion.games.flipdone.screens import (
    SCREENS,
    FdBoardScreen,
    FdFaultScreen,
    FdPhaseEndScreen,
    FdSay,
    fd_places,
    fd_say,
    scoring_line,
)
from companion.games.flipdone.sim import FlipDoneSim, Noise, make_setup
from companion.journal import Input
from companion.screens.font import SMALL
from companion.screens.render import draw, frame
from tests.games.flipdone.screens.samples import PROMPTS, golden_cases, played
from tests.games.helpers import compare_golden
from tests.screens.test_render import on_screen

GOLDEN = Path(__file__).parent / "golden"
CASES = golden_cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_golden_png(name: str) -> None:
    screen, lang = CASES[name]
    compare_golden(GOLDEN, "flipdone", name, frame(screen, lang))


def test_golden_files_cover_every_flip_done_screen_in_french_and_some_in_english() -> None:
    ours = set(SCREENS)
    assert {type(s) for s, lang in CASES.values() if lang == "fr"} == ours
    assert sum(lang == "en" for _, lang in CASES.values()) >= 2


def boxes_of(screen: object, lang: str) -> tuple[tuple[int, int, int, int], ...]:
    image = Image.new("1", (128, 64))
    return draw(ImageDraw.Draw(image), screen, lang)  # type: ignore[arg-type]


LONG_NAMES = ("Marie-Christine de La Rochefoucauld", "Łukasz", "Ω" * 30)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_prompt_in_every_screen_stays_on_screen(lang: str) -> None:
    mid = public_view(played(7))
    late = public_view(played(11))
    news = CASES["board_play_fr"][0].news  # type: ignore[union-attr]
    phase_end = CASES["phase_end_fr"][0]
    assert isinstance(phase_end, FdPhaseEndScreen)
    assert set(PROMPTS) == set(FdSay)
    for prompts in PROMPTS.values():
        for prompt in prompts:
            SMALL.check(fd_say(prompt, LONG_NAMES, lang))
            for view in (mid, late):
                screens = [
                    FdBoardScreen(view, LONG_NAMES, prompt, True, news),
                    FdFaultScreen(view, LONG_NAMES, prompt),
                    dataclasses.replace(phase_end, view=view, names=LONG_NAMES, prompt=prompt),
                ]
                for screen in screens:
                    boxes = boxes_of(screen, lang)
                    assert boxes and on_screen(boxes), (prompt, type(screen).__name__)
    for event in news:
        SMALL.check(scoring_line(event, LONG_NAMES, lang))


def test_places_read_as_a_sentence() -> None:
    assert fd_places((5,), "fr") == "Case 5"
    assert fd_places((0,), "fr") == "Pad"
    assert fd_places((2, 5), "fr") == "Cases 2 et 5"
    assert fd_places((0, 3), "fr") == "Case 3 et pad"
    assert fd_places((1, 2, 4), "en") == "Spots 1, 2 and 4"


def scrambled(referee: FlipDoneReferee, rng: random.Random) -> FlipDoneReferee:
    """The same referee with other hidden facts: the face-down cards of the elements not
    flipped yet and of the bare squares, the discards, the hands, the card on the pad."""
    state = referee.state
    public = {c for c in state.faces if c is not None}
    public |= {c for sq, c in enumerate(state.under) if state.flipped[sq] and c is not None}
    others = [c for c in DECK if c not in public]
    rng.shuffle(others)
    under = [
        c if c is None or state.flipped[sq] else others.pop() for sq, c in enumerate(state.under)
    ]
    copy = object.__new__(FlipDoneReferee)
    copy.__dict__.update(referee.__dict__)
    copy.state = dataclasses.replace(
        state,
        under=tuple(under),
        discards=tuple(others.pop() for _ in state.discards),
        played=tuple(tuple(others.pop() for _ in p) for p in state.played),
        hands=tuple(tuple(others.pop() for _ in h) for h in state.hands),
    )
    copy.pad = None if referee.pad is None else others.pop()
    return copy


@pytest.mark.parametrize("seed", range(6))
def test_no_screen_depends_on_a_hidden_fact(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0

    def check(record: Input, referee: FlipDoneReferee) -> None:
        nonlocal checked
        screen = referee.screen
        assert screen.view == public_view(referee.state)
        assert scrambled(referee, rng).screen == screen
        checked += 1

    noise = Noise.rough() if seed % 2 else None
    FlipDoneSim(make_setup(seed), on_input=check, noise=noise).run()
    assert checked > 300


def test_events_never_name_a_face_down_card_or_a_discard() -> None:
    result = FlipDoneSim(make_setup(4), noise=Noise.rough()).run()
    assert result.referee is not None
    for event in result.referee.events:
        if event["kind"] == "dealt_down":
            assert set(event) == {"t", "kind", "square"}
        if event["kind"] == "discard":
            assert set(event) == {"t", "kind", "seat"}
        if event["kind"] in ("fault", "ignored"):
            assert not {"card", "cards", "uid"} & set(event)
