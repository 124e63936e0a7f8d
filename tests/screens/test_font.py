"""The shipped bitmap font: coverage, geometry, wrapping, and loud failure on a missing glyph."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from companion.screens.font import (
    ELLIPSIS,
    LARGE,
    SMALL,
    MissingGlyph,
    draw_text,
    ellipsize,
    sanitize,
    wrap,
)

FRENCH = "éèêëàâçùûôîïÉÈÀÇ«»’…—°"
PRINTABLE = "".join(c for c in string.printable if c.isprintable())


def blank() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (128, 64))
    return image, ImageDraw.Draw(image)


def lit(image: Image.Image) -> set[tuple[int, int]]:
    return {
        (x, y) for y in range(image.height) for x in range(image.width) if image.getpixel((x, y))
    }


def test_covers_printable_ascii_and_the_french_letters_and_signs() -> None:
    missing = [c for c in PRINTABLE + FRENCH if not SMALL.covers(c)]
    assert missing == []
    assert all(LARGE.covers(c) for c in PRINTABLE + FRENCH)


def test_glyphs_stay_in_their_5x8_box_and_are_all_different() -> None:
    drawings: dict[tuple[tuple[int, int], ...], str] = {}
    for char in sorted(SMALL.chars):
        pixels = SMALL.glyph(char)
        assert all(0 <= x < 5 and 0 <= y < 8 for x, y in pixels), char
        if char == "\u00a0":  # a no-break space draws as a space
            continue
        assert pixels not in drawings, f"{char!r} looks like {drawings.get(pixels)!r}"
        drawings[pixels] = char


def test_a_line_holds_21_small_or_10_large_characters() -> None:
    assert SMALL.width("x" * 21) <= 128 < SMALL.width("x" * 22)
    assert LARGE.width("x" * 10) <= 128 < LARGE.width("x" * 11)
    assert SMALL.max_chars(128) == 21
    assert LARGE.max_chars(128) == 10


def test_large_is_the_small_drawing_doubled() -> None:
    for char in "Aé?":
        small = set(SMALL.glyph(char))
        large = set(LARGE.glyph(char))
        assert large == {
            (2 * x + dx, 2 * y + dy) for x, y in small for dx in (0, 1) for dy in (0, 1)
        }


@pytest.mark.parametrize("font", [SMALL, LARGE])
def test_draw_text_inks_only_inside_the_box_it_returns(font: object) -> None:
    assert font is SMALL or font is LARGE
    image, draw = blank()
    text = "Çà gjpqy|É"
    box = draw_text(draw, (3, 2), text, font)
    x0, y0, x1, y1 = box
    pixels = lit(image)
    assert pixels
    assert all(x0 <= x < x1 and y0 <= y < y1 for x, y in pixels)


def test_a_missing_glyph_raises_and_draws_nothing() -> None:
    image, draw = blank()
    with pytest.raises(MissingGlyph, match="U\\+20AC"):
        draw_text(draw, (0, 0), "Prix : 5 €", SMALL)
    assert lit(image) == set()
    with pytest.raises(MissingGlyph):
        wrap("ok €", 128)


def test_wrap_breaks_at_spaces_but_never_before_french_punctuation() -> None:
    text = "Bob, donne ton animal à Ana ; Ana te donne un jeton. Doublon ? Menteur ?"
    lines = wrap(text, 128)
    assert all(SMALL.width(line) <= 128 for line in lines)
    assert not any(line.startswith((":", ";", "?", "!", "»")) for line in lines)
    assert " ".join(lines) == text
    assert wrap("aaaaaaaa « bb »", 6 * 9) == ["aaaaaaaa", "« bb »"]


def test_wrap_cuts_words_longer_than_a_line_and_keeps_forced_breaks() -> None:
    assert wrap("x" * 30, 128) == ["x" * 21, "x" * 9]
    assert wrap("un\ndeux", 128) == ["un", "deux"]


def test_wrap_ends_with_an_ellipsis_when_lines_run_out() -> None:
    lines = wrap("un deux trois quatre cinq six sept huit neuf dix onze douze", 60, max_lines=2)
    assert len(lines) == 2
    assert lines[-1].endswith(ELLIPSIS)
    assert all(SMALL.width(line) <= 60 for line in lines)


def test_ellipsize_cuts_long_names_only() -> None:
    assert ellipsize("Ana", 30) == "Ana"
    assert ellipsize("Dominique", 30) == "Domi" + ELLIPSIS
    assert SMALL.width(ellipsize("Dominique", 30)) <= 30


def test_sanitize_maps_any_name_onto_the_font() -> None:
    assert sanitize("Zoë") == "Zoë"
    assert sanitize("Łukasz  Ødegaard") == "Lukasz Odegaard"
    assert sanitize("Ærø") == "AEro"
    assert sanitize("Ωmega") == "?mega"


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40))
def test_sanitized_text_is_always_drawable(text: str) -> None:
    SMALL.check(sanitize(text))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(alphabet="abcdéà:?«»", min_size=1, max_size=25), max_size=12),
    st.integers(min_value=6, max_value=128),
)
def test_wrapped_lines_always_fit_and_keep_every_letter(words: list[str], width: int) -> None:
    text = " ".join(words)
    lines = wrap(text, width)
    assert all(SMALL.width(line) <= width for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
