"""Console frames outside the console: as text for a terminal, as an animated GIF.

`to_text` draws a frame with Unicode half blocks, one character per column and per two
rows (128 x 32 characters for the 128x64 OLED), inside a thin box, so a demo transcript
or a test failure shows exactly what the table would see; `to_braille` draws it in half
the width (a terminal of 80 columns). `save_gif` writes a sequence of
frames, scaled up so the pixels are visible, for documentation and bug reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PIL import Image

# (top pixel lit, bottom pixel lit) -> character
_HALF_BLOCKS = {
    (False, False): " ",
    (True, False): "▀",
    (False, True): "▄",
    (True, True): "█",
}


def to_text(image: Image.Image) -> str:
    """The frame as lines of half blocks in a thin frame; any non-black pixel is lit."""
    mono = image.convert("1")
    width, height = mono.size
    lit = [[mono.getpixel((x, y)) != 0 for x in range(width)] for y in range(height)]
    lines = ["┌" + "─" * width + "┐"]
    for top in range(0, height, 2):
        bottom = top + 1
        row = "".join(
            _HALF_BLOCKS[(lit[top][x], bottom < height and lit[bottom][x])] for x in range(width)
        )
        lines.append("│" + row + "│")
    lines.append("└" + "─" * width + "┘")
    return "\n".join(lines)


# braille dot bits by (column, row) in a 2 x 4 cell
_BRAILLE_DOTS = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))


def to_braille(image: Image.Image) -> str:
    """The frame in braille, 2 x 4 pixels a character (66 x 18 characters for the OLED,
    every pixel kept), in the same thin frame: for a terminal too narrow for `to_text`."""
    mono = image.convert("1")
    width, height = mono.size

    def cell(x: int, y: int) -> str:
        bits = sum(
            _BRAILLE_DOTS[dx][dy]
            for dx in range(2)
            for dy in range(4)
            if x + dx < width and y + dy < height and mono.getpixel((x + dx, y + dy)) != 0
        )
        return chr(0x2800 + bits) if bits else " "

    columns = (width + 1) // 2
    lines = ["┌" + "─" * columns + "┐"]
    for y in range(0, height, 4):
        lines.append("│" + "".join(cell(x, y) for x in range(0, width, 2)) + "│")
    lines.append("└" + "─" * columns + "┘")
    return "\n".join(lines)


def save_gif(
    frames: Sequence[Image.Image],
    path: str | Path,
    durations_ms: int | Sequence[int] = 1000,
    *,
    scale: int = 4,
    loop: int = 0,
) -> Path:
    """Write `frames` as an animated GIF, each pixel drawn as a `scale` x `scale` square.

    `durations_ms` is one duration for all frames or one per frame. Pillow merges
    consecutive identical frames into one, adding up their durations.
    """
    if not frames:
        raise ValueError("an animation needs at least one frame")
    if scale < 1:
        raise ValueError(f"scale must be at least 1, not {scale}")
    if isinstance(durations_ms, int):
        durations = [durations_ms] * len(frames)
    else:
        durations = list(durations_ms)
        if len(durations) != len(frames):
            raise ValueError(f"{len(frames)} frames but {len(durations)} durations")
    scaled = [
        f.convert("L").resize((f.width * scale, f.height * scale), Image.Resampling.NEAREST)
        for f in frames
    ]
    target = Path(path)
    scaled[0].save(
        target,
        format="GIF",
        save_all=True,
        append_images=scaled[1:],
        duration=durations,
        loop=loop,
    )
    return target
