"""What the OLED's renderers draw, read back as text (shared by the screens' tests)."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from companion.games import Game
from companion.screens.render import Pen, renderer_of


def texts_of(screen: object, lang: str, game: Game | None = None) -> list[str]:
    """Every piece of text the renderer draws, in order (of `game`, when not a registered
    game's screen)."""
    drawn: list[str] = []

    class Recorder(Pen):
        def text(self, xy: tuple[int, int], text: str, *args: Any, **kwargs: Any) -> Any:
            drawn.append(text)
            return super().text(xy, text, *args, **kwargs)

    pen = Recorder(ImageDraw.Draw(Image.new("1", (128, 64))))
    renderer_of(screen, game)(pen, screen, lang)
    return drawn
