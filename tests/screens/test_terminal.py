"""Frames as terminal text (half blocks) and as animated GIFs."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageSequence

from companion.screens.render import frame
from companion.screens.terminal import save_gif, to_braille, to_text
from tests.screens.samples import golden_cases


def test_half_blocks_pair_two_rows_per_line() -> None:
    image = Image.new("1", (4, 2))
    image.putpixel((1, 0), 1)  # top only
    image.putpixel((2, 1), 1)  # bottom only
    image.putpixel((3, 0), 1)
    image.putpixel((3, 1), 1)  # both
    assert to_text(image) == "┌────┐\n│ ▀▄█│\n└────┘"


def test_a_screen_is_128_columns_by_32_rows_in_a_frame() -> None:
    screen, lang = golden_cases()["fault_fr"]
    lines = to_text(frame(screen, lang)).split("\n")
    assert len(lines) == 32 + 2
    assert {len(line) for line in lines} == {128 + 2}
    assert lines[0].startswith("┌") and lines[-1].endswith("┘")
    assert "█" in lines[1]  # the inverted STOP banner


def test_braille_keeps_every_pixel_of_a_2_by_4_cell() -> None:
    image = Image.new("1", (4, 4))
    image.putpixel((0, 0), 1)  # dot 1
    image.putpixel((1, 3), 1)  # dot 8
    assert to_braille(image) == "┌──┐\n│⢁ │\n└──┘"  # the second cell is empty: a space
    full = Image.new("1", (2, 4), 1)
    assert to_braille(full) == "┌─┐\n│⣿│\n└─┘"


def test_a_screen_in_braille_fits_80_columns_and_24_rows() -> None:
    screen, lang = golden_cases()["fault_fr"]
    lines = to_braille(frame(screen, lang)).split("\n")
    assert len(lines) == 16 + 2
    assert {len(line) for line in lines} == {64 + 2}


def test_gif_holds_each_frame_scaled_up(tmp_path: Path) -> None:
    cases = golden_cases()
    frames = [
        frame(*cases[name]) for name in ("countdown_fr", "verdict_doublon_won_fr", "fault_fr")
    ]
    path = save_gif(frames, tmp_path / "demo.gif", [400, 900, 1500], scale=2)
    with Image.open(path) as gif:
        assert gif.size == (256, 128)
        shown, durations = [], []
        for page in ImageSequence.Iterator(gif):
            shown.append(page.convert("1"))
            durations.append(page.info["duration"])
    assert len(shown) == 3
    assert durations == [400, 900, 1500]
    for original, back in zip(frames, shown, strict=True):
        assert back.resize((128, 64), Image.Resampling.NEAREST).tobytes() == original.tobytes()


def test_gif_arguments_are_checked(tmp_path: Path) -> None:
    one = frame(*golden_cases()["fault_fr"])
    with pytest.raises(ValueError, match="frame"):
        save_gif([], tmp_path / "x.gif")
    with pytest.raises(ValueError, match="durations"):
        save_gif([one, one], tmp_path / "x.gif", [100])
    with pytest.raises(ValueError, match="scale"):
        save_gif([one], tmp_path / "x.gif", scale=0)
