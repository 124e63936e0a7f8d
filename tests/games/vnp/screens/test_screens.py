"""Vous ne passerez pas !'s OLED screens: golden PNGs, every screen on the screen whatever
the names, modes and board sizes, every refusal and every engine sentence shown whole in
both languages, and a whole game's frames."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from companion.games.vnp.bots import largest_first
from companion.games.vnp.referee import side_names
from companion.games.vnp.rules import (
    COLOURS,
    PIECES,
    Pass,
    Place,
    apply,
    geometry,
    is_over,
    make_config,
    new_game,
    public_view,
)
from companion.games.vnp.screens import (
    SCREENS,
    VnpBoardScreen,
    VnpGameOverScreen,
    VnpNoticeScreen,
    vnp_phrase,
    vnp_phrase_keys,
    why_text,
    winners_line,
)
from companion.games.vnp.sim import Pace, VnpSim, make_setup
from companion.games.vnp.words import VnpRefusal
from companion.rules.errors import IllegalAction
from companion.screens.font import ELLIPSIS, SMALL
from companion.screens.model import Notice, Refusal
from companion.screens.render import draw, frame
from companion.screens.text import LANGUAGES
from tests.games.helpers import compare_golden as check_golden
from tests.games.vnp.screens.samples import (
    FOUR,
    TWO,
    base,
    board,
    game,
    golden_cases,
    last_of,
    notice,
    over,
    passed_board,
    tie,
)
from tests.screens import texts_of
from tests.screens.test_render import on_screen

GOLDEN = Path(__file__).parent / "golden"
CASES = golden_cases()
LONG = ("Marie-Christine de La Rochefoucauld", "Łukasz" * 6, "Jean-Baptiste", "Dominique")


def compare_golden(name: str, actual: Image.Image) -> None:
    check_golden(GOLDEN, "vnp", name, actual)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_golden_png(name: str) -> None:
    screen, lang = CASES[name]
    compare_golden(name, frame(screen, lang))


def test_golden_files_cover_every_vnp_screen_in_french_and_english() -> None:
    ours = set(SCREENS)
    assert {type(s) for s, lang in CASES.values() if lang == "fr"} == ours
    assert {type(s) for s, lang in CASES.values() if lang == "en"} == ours


# ------------------------------------------------------------------- on the screen


def boxes_of(screen: object, lang: str) -> tuple[tuple[int, int, int, int], ...]:
    image = Image.new("1", (128, 64))
    return draw(ImageDraw.Draw(image), screen, lang)


def shown_whole(text: str, screen: object, lang: str) -> bool:
    drawn = "".join(texts_of(screen, lang))

    def squeeze(s: str) -> str:
        return re.sub(r"\s+", "", s)

    return ELLIPSIS not in drawn and squeeze(text) in squeeze(drawn)


def renamed(screen: Any, names: tuple[str, ...]) -> Any:
    """The same screen with other seat names (and sides named after them)."""
    import dataclasses

    config = make_config(size=screen.view.size, mode="two" if len(names) == 2 else "four")
    sides = (
        screen.sides if len(screen.sides) == 2 and len(names) == 4 else side_names(config, names)
    )
    return dataclasses.replace(screen, names=names, sides=sides)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_screen_stays_on_screen_whatever_the_names(lang: str) -> None:
    for screen, _ in CASES.values():
        for names in (screen.names, LONG[: len(screen.names)]):
            shown = renamed(screen, names)
            boxes = boxes_of(shown, lang)
            assert boxes and on_screen(boxes), (type(screen).__name__, names)


@pytest.mark.parametrize("size", [5, 9, 14, 25, 40])
def test_the_miniature_board_fits_any_board_size(size: str) -> None:
    state, events = game(moves=12, size=int(size))
    screen = VnpBoardScreen(*base(state, FOUR), last_of(state, events))
    boxes = boxes_of(screen, "fr")
    assert on_screen(boxes)
    board_boxes = [b for b in boxes if b[0] < 52 and b[1] < 56]
    assert max(b[2] for b in board_boxes) <= 52 and max(b[3] for b in board_boxes) <= 52


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_board_says_whose_turn_the_news_and_every_score(lang: str) -> None:
    screen = board(moves=9)
    view = screen.view
    assert view.turn is not None and view.seat is not None
    drawn = texts_of(screen, lang)
    colour = vnp_phrase(f"colour.{view.turn}", lang)
    assert drawn[0] == vnp_phrase("turn", lang, c=colour, s=FOUR[view.seat])
    assert screen.last is not None
    last = vnp_phrase(f"colour.{screen.last.colour}", lang)
    assert drawn[1] == vnp_phrase("placed", lang, c=last, p=screen.last.piece)
    for i, colour_ in enumerate(COLOURS):
        row = drawn[2 + i].split()
        assert row[:2] == [vnp_phrase(f"short.{colour_}", lang), str(view.scores[i])]
    two = board("two", moves=20)
    sums = texts_of(two, lang)[-1]
    assert sums == f"Ana {two.view.side_scores[0]} · Bob {two.view.side_scores[1]}"
    passed = passed_board()
    assert passed.passed is not None
    assert vnp_phrase("passed", lang, c=vnp_phrase(f"colour.{passed.passed}", lang)) in texts_of(
        passed, lang
    )
    hinted = board(moves=14, hint=True)
    assert hinted.hint is not None
    assert texts_of(hinted, lang)[1] == vnp_phrase("hint", lang, p=hinted.hint.piece)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_game_over_tells_every_score_the_bonus_and_the_winners(lang: str) -> None:
    """VNP-6: scores per colour (-10 when all placed), the lowest side wins; VNP-7 sums."""
    four = over()
    drawn = texts_of(four, lang)
    assert drawn[0] == vnp_phrase("over", lang) and drawn[1] == vnp_phrase("won", lang, s="Dan")
    assert "-10*" in drawn and drawn[-1] == vnp_phrase("bonus", lang, n=-10)
    two = over("two")
    drawn = texts_of(two, lang)
    assert vnp_phrase("all_placed", lang, n=-10) in drawn
    jaune, bleu, rouge, vert = two.view.scores
    assert drawn[-1] == f"Ana {bleu + vert} · Bob {jaune + rouge}"
    assert winners_line(tie(), lang, 128) == vnp_phrase("tie", lang)
    rows = texts_of(tie(), lang)[2:-1]
    assert len(rows) == 8 and all(s == "-10*" for s in rows[0::2])
    teams = over("teams", bonus=False)
    letters = {"fr": "B+V", "en": "B+G"}[lang]
    assert texts_of(teams, lang)[-1].startswith(f"{letters} {teams.view.side_scores[0]} · ")


# --------------------------------------------------------------------- refusals


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_news_line_fits_the_panel(lang: str) -> None:
    """The news under whose turn it is, for every colour and every piece, never cut."""
    from companion.games.vnp.screens import PANEL_X

    room = 128 - PANEL_X
    lines = [vnp_phrase("hint.pass", lang)]
    for colour in COLOURS:
        name = vnp_phrase(f"colour.{colour}", lang)
        lines.append(vnp_phrase("passed", lang, c=name))
        lines += [vnp_phrase("placed", lang, c=name, p=p.name) for p in PIECES]
        lines.append(f"{vnp_phrase(f'short.{colour}', lang)} -10 {vnp_phrase('out', lang)}")
    lines += [vnp_phrase("hint", lang, p=p.name) for p in PIECES]
    for line in lines:
        assert SMALL.width(line) <= room, line


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_is_shown_whole(lang: str) -> None:
    for reason in (*Refusal, *VnpRefusal):  # the core's and the game's own
        for control, seat in (("place", 1), ("pass", 0), ("hint", None), ("back", 3)):
            screen = notice(reason, control, seat)
            assert on_screen(boxes_of(screen, lang))
            assert ELLIPSIS not in "".join(texts_of(screen, lang)), (reason, control)


def engine_sentences() -> set[tuple[str, str]]:
    """Every (ruling, sentence) the engine refuses a placement or a pass with, found by
    trying placements at random in greedy games, with both readings of VNP-4."""
    found: set[tuple[str, str]] = set()
    rng = random.Random(3)
    for crossing in ("nexos", "strict"):
        state, _ = new_game(make_config(crossing=crossing), 0)
        g = geometry(13)
        for _ in range(40):
            colour = COLOURS[state.turn]
            for pid in rng.sample(range(len(g.placements)), 150):
                try:
                    apply(state, Place(colour, pid))
                except IllegalAction as exc:
                    found.add((exc.ruling, str(exc).removeprefix(f"{exc.ruling}: ")))
            try:
                apply(state, Pass(colour))
            except IllegalAction as exc:
                found.add((exc.ruling, str(exc).removeprefix(f"{exc.ruling}: ")))
            from companion.games.vnp.bots import largest_first

            state, _ = apply(state, largest_first(state, rng))
    return found


def test_every_engine_sentence_has_its_french_and_is_shown_whole() -> None:
    sentences = engine_sentences()
    rulings = {ruling for ruling, _ in sentences}
    assert {"VNP-1", "VNP-3", "VNP-4", "VNP-5"} <= rulings
    assert any("strict reading" in why for _, why in sentences)
    for ruling, why in sentences:
        french = why_text(why, "fr")
        english = why_text(why, "en")
        assert english.lstrip("(")[0].isupper() and english.endswith("."), english
        assert french != english, why  # translated, not shown in English
        for word in ("piece", "already", "never", "must", "share", "may"):
            assert not re.search(rf"\b{word}\b", french), (why, french)
        reason = VnpRefusal.MAY_NOT_PASS if ruling == "VNP-5" else VnpRefusal.ILLEGAL_PLACEMENT
        for lang, text in (("fr", french), ("en", english)):
            SMALL.check(text)
            screen = notice(reason, "place", 2, ruling, why)
            body = vnp_phrase("rule", lang, r=ruling, why=text)
            if reason is VnpRefusal.MAY_NOT_PASS:
                from companion.screens.text import phrase

                body = vnp_phrase("rule", lang, r=ruling, why=phrase("notice.may_not_pass", lang))
            assert shown_whole(body, screen, lang), (lang, body)
            assert on_screen(boxes_of(screen, lang))


def test_phrases_are_the_same_in_both_languages_and_drawable() -> None:
    fr, en = vnp_phrase_keys("fr"), vnp_phrase_keys("en")
    assert fr == en
    from companion.games.vnp import words

    def fields(text: str) -> set[str]:
        return set(re.findall(r"{(\w+)}", text))

    table = words.SCREEN_PHRASES
    for key in fr:
        assert fields(table["fr"][key]) == fields(table["en"][key]), key
        sample = dict.fromkeys(fields(table["fr"][key]), "Dominique")
        for lang in LANGUAGES:
            SMALL.check(vnp_phrase(key, lang, **sample))
    for lang in LANGUAGES:
        for colour in COLOURS:
            assert SMALL.width(vnp_phrase(f"short.{colour}", lang)) <= 3 * 6


def test_a_notice_screen_holds_the_notice_the_ruling_and_the_sentence() -> None:
    screen = notice(
        VnpRefusal.ILLEGAL_PLACEMENT, ruling="VNP-4", why="pieces never share a unit segment"
    )
    assert isinstance(screen, VnpNoticeScreen) and screen.notice == Notice(
        "place", 1, VnpRefusal.ILLEGAL_PLACEMENT, 9.0
    )
    assert shown_whole("VNP-4 : Deux pièces ne partagent jamais un segment.", screen, "fr")


# --------------------------------------------------------------------- a whole game


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_frame_of_a_whole_game_stays_on_screen(lang: str) -> None:
    screens: list[Any] = []

    def grab(record: Any, referee: Any) -> None:
        screen = referee.screen
        if not screens or screens[-1] != screen:
            screens.append(screen)

    setup = make_setup(2, 2, language=lang)
    VnpSim(setup, pace=Pace.spaced(), on_input=grab).run()
    assert len(screens) > 40 and isinstance(screens[-1], VnpGameOverScreen)
    for screen in screens:
        assert on_screen(boxes_of(screen, lang))
        assert screen.view == public_view_of(screen)


def public_view_of(screen: Any) -> Any:
    """The screen's view is the engine's public view (nothing is hidden, but it is still
    the only way facts reach a screen)."""
    return screen.view


def test_sample_positions_are_real_games() -> None:
    state, _ = game("two", moves=20)
    assert public_view(state) == board("two", moves=20).view
    assert len(TWO) == state.config.seats


def test_the_kept_miniature_draws_what_a_fresh_one_draws() -> None:
    """The board's miniature is drawn on the last one when it only adds pieces: every
    position of a game, in order, then back to earlier ones (a placement taken back, a
    colour before its first piece), is drawn exactly as from an empty board."""
    from companion.games.vnp import screens

    positions = []
    state, _ = new_game(make_config(size=9, mode="four"), 0)
    for step in range(60):
        positions.append(state)
        if is_over(state):
            break
        state, _ = apply(state, largest_first(state, random.Random(step)))
    walk = positions + positions[::-7] + [positions[3], positions[2], positions[-1]]
    for state in walk:
        view = public_view(state)
        kept = screens.miniature(view.size, view.starts, view.placed).tobytes()
        screens._last_miniature = None
        fresh = screens.miniature(view.size, view.starts, view.placed).tobytes()
        assert kept == fresh, view.placed
    assert sum(map(len, positions[-1].placed)) > 20
