"""Swiped's OLED screens: golden PNGs, every prompt on the screen and not cut, every phrase
drawable, a whole game's frames, and no screen that can show or depend on a target card
before the game is over (SW-5)."""

from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from companion.games.swiped import screens
from companion.games.swiped.referee import SwipedReferee
from companion.games.swiped.rules import ClaimChecked, PublicView, State, public_view
from companion.games.swiped.screens import (
    SCREENS,
    SwBoardScreen,
    SwFaultScreen,
    SwGameOverScreen,
    SwNoticeScreen,
    SwPrompt,
    SwSay,
    sw_phrase,
    sw_phrase_keys,
    sw_say,
    verdict_line,
)
from companion.games.swiped.sim import Noise, SwipedSim, make_setup
from companion.journal import Input, SpotInput
from companion.screens.font import ELLIPSIS, LARGE, SMALL
from companion.screens.model import Notice, Refusal
from companion.screens.render import draw, frame
from companion.screens.text import LANGUAGES
from tests.games.helpers import compare_golden as check_golden
from tests.games.swiped.screens.samples import (
    NAMES,
    PROMPTS,
    TARGETS,
    WHOLE_GAME_SEED,
    contact_sheet,
    golden_cases,
    refused_verdict,
    view,
    whole_game_frames,
    won,
)
from tests.screens import texts_of
from tests.screens.test_render import on_screen

GOLDEN = Path(__file__).parent / "golden"
CASES = golden_cases()
LONG_NAMES = ("Marie-Christine de La Rochefoucauld", "Łukasz" * 6)
FAULTS = {
    SwSay.PUT_BACK, SwSay.SAME_PAIR, SwSay.GUESS_FIRST, SwSay.UNKNOWN_TAG,
    SwSay.CARD_ON_SQUARE, SwSay.TWO_CARDS, SwSay.CARD_TAKEN, SwSay.READER_SILENT, SwSay.OFF_MAT,
}  # fmt: skip
"""The prompts shown on the Stop screen; every other one is the board's."""
BOARD = [say for say in SwSay if say not in FAULTS]
VERDICTS = [
    ClaimChecked(s, k, c) for s in (0, 1) for k in ("matches", "card") for c in (True, False)
]


def compare_golden(name: str, actual: Image.Image) -> None:
    check_golden(GOLDEN, "swiped", name, actual)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_golden_png(name: str) -> None:
    screen, lang = CASES[name]
    compare_golden(name, frame(screen, lang))


def test_golden_files_cover_every_swiped_screen_in_french_and_some_in_english() -> None:
    ours = set(SCREENS)
    assert {type(s) for s, lang in CASES.values() if lang == "fr"} == ours
    assert sum(lang == "en" for _, lang in CASES.values()) >= 2


# ------------------------------------------------------------------- on the screen


def boxes_of(screen: object, lang: str) -> tuple[tuple[int, int, int, int], ...]:
    image = Image.new("1", (128, 64))
    return draw(ImageDraw.Draw(image), screen, lang)


def shown_whole(text: str, screen: object, lang: str) -> bool:
    """`text` is on the screen, every word of it, none cut off by an ellipsis."""
    drawn = texts_of(screen, lang)

    def squeeze(s: str) -> str:
        return re.sub(r"\s+", "", s)

    return ELLIPSIS not in "".join(drawn) and squeeze(text) in squeeze("".join(drawn))


def test_every_prompt_key_has_samples() -> None:
    assert set(PROMPTS) == set(SwSay)
    assert set(SwSay) >= FAULTS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_prompt_in_every_screen_stays_on_screen(lang: str) -> None:
    refused, verdict = refused_verdict()
    views = [view(layout=False), view(targets=1), view(3), view(8), refused]
    for prompts in PROMPTS.values():
        for prompt in prompts:
            SMALL.check(sw_say(prompt, LONG_NAMES, lang))
            for v in views:
                for names in (NAMES, LONG_NAMES):
                    screens = [
                        SwBoardScreen(v, names, prompt),
                        SwBoardScreen(v, names, prompt, verdict),
                        SwBoardScreen(v, names, prompt, None, 1),
                        SwFaultScreen(v, names, prompt),
                    ]
                    for screen in screens:
                        boxes = boxes_of(screen, lang)
                        assert boxes and on_screen(boxes), (prompt, screen)


TOO_LONG: set[tuple[SwSay, str]] = set()
"""Board prompts known to be cut: their phrase needs more room than the board has."""


@pytest.mark.parametrize(
    "say,lang",
    [
        pytest.param(say, lang, marks=pytest.mark.xfail(strict=True, reason="phrase too long"))
        if (say, lang) in TOO_LONG
        else (say, lang)
        for say in BOARD
        for lang in LANGUAGES
    ],
)
def test_every_board_prompt_is_shown_whole(say: SwSay, lang: str) -> None:
    """The board's prompts, for Ana and Bob, with nothing else to say, are never cut."""
    for prompt in PROMPTS[say]:
        for v in (view(targets=1), view(3)):
            screen = SwBoardScreen(v, NAMES, prompt)
            assert shown_whole(sw_say(prompt, NAMES, lang), screen, lang), (prompt, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_verdict_or_a_recorded_card_and_the_prompt_after_it_are_shown_whole(
    lang: str,
) -> None:
    """What the board shows together in a game: a recorded card with the next target or
    the first swap; a refused claim's verdict with the next swap."""
    after_target = [SwPrompt.of(SwSay.TARGET, seat=1), SwPrompt.of(SwSay.PROGRAM, seat=0)]
    after_claim = [
        SwPrompt.of(SwSay.SWAP, seat=0),
        SwPrompt.of(SwSay.SWAP_OR_SKIP, seat=1),
        SwPrompt.of(SwSay.SWAPPING, seat=1, spots=(2, 6)),
    ]
    for seat in (0, 1):
        for prompt in after_target:
            screen = SwBoardScreen(view(targets=1), NAMES, prompt, None, seat)
            news = sw_phrase("recorded", lang, s=NAMES[seat])
            assert shown_whole(news, screen, lang) and shown_whole(
                sw_say(prompt, NAMES, lang), screen, lang
            ), (prompt, lang)
    for verdict in VERDICTS:
        for prompt in after_claim:
            screen = SwBoardScreen(view(3), NAMES, prompt, verdict)
            assert shown_whole(verdict_line(verdict, NAMES, lang), screen, lang), verdict
            assert shown_whole(sw_say(prompt, NAMES, lang), screen, lang), prompt


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_fault_and_notice_is_shown_whole(lang: str) -> None:
    for say in FAULTS:
        for prompt in PROMPTS[say]:
            screen = SwFaultScreen(view(3), NAMES, prompt)
            assert shown_whole(sw_say(prompt, NAMES, lang), screen, lang), (prompt, lang)
    for reason in Refusal:
        for control, seat in (("doublon", 1), ("menteur", 0), ("choose", None), ("pad", None)):
            screen = SwNoticeScreen(view(3), NAMES, Notice(control, seat, reason, 9.0))
            assert on_screen(boxes_of(screen, lang))
            assert ELLIPSIS not in "".join(texts_of(screen, lang)), (reason, control)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("names", [NAMES, ("Dominique", "Maxime"), LONG_NAMES])
def test_the_game_over_names_the_winner_and_both_cards(lang: str, names: tuple[str, ...]) -> None:
    over, verdict = won(1)
    screen = SwGameOverScreen(over, names, verdict, TARGETS)
    assert on_screen(boxes_of(screen, lang))
    drawn = texts_of(screen, lang)
    if len(names[1]) <= 9:  # the whole name, and the claim that ended the game
        assert shown_whole(sw_phrase("over.won", lang, s=names[1]), screen, lang)
        assert shown_whole(verdict_line(verdict, names, lang), screen, lang)
    for seat, card in enumerate(TARGETS):  # the last lines: each seat's card, never cut
        assert drawn[seat - 2].endswith(f" {card}"), drawn


# ----------------------------------------------------------------------- the words


def test_phrases_are_the_same_in_both_languages_and_drawable() -> None:
    fr, en = sw_phrase_keys("fr"), sw_phrase_keys("en")
    assert fr == en
    from companion.games.swiped import words

    def fields(text: str) -> set[str]:
        return set(re.findall(r"{(\w+)}", text))

    table = words.SCREEN_PHRASES
    for key in fr:
        assert fields(table["fr"][key]) == fields(table["en"][key]), key
        sample = dict.fromkeys(fields(table["fr"][key]), "Dominique")
        for lang in LANGUAGES:
            SMALL.check(sw_phrase(key, lang, **sample))
    for lang in LANGUAGES:
        for key in (k for k in fr if k.startswith("short.")):
            # inside its square, a pixel clear of each border (Blc touching one read Bld, Org Drg)
            assert SMALL.width(sw_phrase(key, lang)) <= screens.PITCH_X - 3, key
        for key in ("over.drawn",):
            LARGE.check(sw_phrase(key, lang))
            assert LARGE.width(sw_phrase(key, lang)) <= 128 - 8
        LARGE.check(sw_phrase("over.won", lang, s="Bob"))
    for say in SwSay:
        assert f"say.{say}" in fr, say


# -------------------------------------------------------------------- hidden facts


def field_names(kind: type, seen: set[type] | None = None) -> set[str]:
    """The names of every field of a screen, through the dataclasses it holds."""
    seen = seen if seen is not None else set()
    if kind in seen or not dataclasses.is_dataclass(kind):
        return set()
    seen.add(kind)
    hints = typing.get_type_hints(kind)
    names: set[str] = set()
    for f in dataclasses.fields(kind):
        names.add(f.name)
        for arg in (hints[f.name], *typing.get_args(hints[f.name])):
            if isinstance(arg, type):
                names |= field_names(arg, seen)
    return names


def test_no_screen_before_the_game_over_has_a_field_for_a_target_card() -> None:
    """SW-5, structurally: the target cards live in State.targets; the public view has no
    such field, a verdict only says whether a claim was true, a recorded card is a seat;
    only the game-over screen has `targets`."""
    hidden = {"targets", "secret_programs"}
    assert hidden <= {f.name for f in dataclasses.fields(State)}
    assert not hidden & {f.name for f in dataclasses.fields(PublicView)}
    assert typing.get_type_hints(PublicView)["targets_recorded"] == tuple[bool, ...]
    assert {f.name for f in dataclasses.fields(ClaimChecked)} == {"seat", "claim", "correct"}
    for kind in (SwBoardScreen, SwFaultScreen, SwNoticeScreen):
        names = field_names(kind)
        assert not {n for n in names if "target" in n or "secret" in n} - {"targets_recorded"}
        assert "view" in names and "names" in names
    assert {f.name for f in dataclasses.fields(SwBoardScreen)} == {
        "view", "names", "prompt", "verdict", "recorded"
    }  # fmt: skip
    assert "targets" in {f.name for f in dataclasses.fields(SwGameOverScreen)}


def other_targets(inputs: list[Input], referee: SwipedReferee) -> list[Input]:
    """The same journal with two other target cards tapped: every tap of either target
    card on the pad shows another card (not the layout card, not a card tapped in the
    game)."""
    state = referee.state
    targets = [t for t in state.targets if t is not None]
    uid_of = {card: uid for uid, card in referee.tokens.items() if isinstance(card, int)}
    tapped = {
        referee.tokens.get(uid)
        for record in inputs
        if isinstance(record, SpotInput) and record.spot == 0
        for uid in record.uids
    }
    free = [c for c in uid_of if c != state.layout_card and c not in tapped]
    swap = {uid_of[t]: uid_of[c] for t, c in zip(targets, free[-2:], strict=True)}
    out: list[Input] = []
    for record in inputs:
        if isinstance(record, SpotInput) and record.spot == 0:
            record = dataclasses.replace(
                record, uids=frozenset(swap.get(u, u) for u in record.uids)
            )
        out.append(record)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_games_differing_only_in_target_cards_look_the_same_until_a_claim(seed: int) -> None:
    noise = Noise.rough() if seed % 2 else None
    result = SwipedSim(make_setup(seed), bots=["deducing", "random"], noise=noise).run()
    assert result.referee is not None and result.referee.finished
    pairs = list(zip(result.inputs, other_targets(result.inputs, result.referee), strict=True))
    a = SwipedReferee(result.setup)
    b = SwipedReferee(result.setup)
    compared = 0
    for left, right in pairs:
        made = a.feed(left) + b.feed(right)
        if any(e["kind"] == "claim" for e in made):
            break
        assert a.screen == b.screen
        assert frame(a.screen).tobytes() == frame(b.screen).tobytes()
        compared += 1
    assert a.state.targets != b.state.targets and None not in b.state.targets
    assert compared > 40
    for left, right in pairs[compared + 1 :]:
        a.feed(left)
        b.feed(right)
    assert a.finished and b.finished
    assert a.screen != b.screen  # the game-over screens show the cards: they differ


def test_screens_are_built_from_the_public_view_only() -> None:
    def check(record: Input, referee: SwipedReferee) -> None:
        screen = referee.screen
        assert screen.view == public_view(referee.state)
        if not referee.finished:
            assert not isinstance(screen, SwGameOverScreen)

    SwipedSim(make_setup(5), bots=["deducing", "random"], on_input=check).run()


# ------------------------------------------------------------------------ a whole game


def test_a_whole_game_matches_its_golden_contact_sheet() -> None:
    """Every distinct OLED frame of one spaced simulated game, in order, tiled at 1x."""
    frames, events = whole_game_frames(WHOLE_GAME_SEED)
    kinds = [e["kind"] for e in events]
    assert "swap_skipped" in kinds and "fault" not in kinds  # a skip, a fault-free claim
    assert kinds.count("claim") >= 1 and kinds.count("manche_end") >= 2
    assert all(f.size == (128, 64) for f in frames)
    assert all(a.tobytes() != b.tobytes() for a, b in zip(frames, frames[1:], strict=False))
    compare_golden("whole_game_fr", contact_sheet(frames))
