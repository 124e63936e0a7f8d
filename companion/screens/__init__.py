"""What the console's 128x64 OLED shows.

- `model`: what every game's screens share, as plain public data: the menu, refused presses.
- `passpass`, `flipdone`: each game's screens (built by its referee) and their renderers.
- `passpass_prompt`: what a PassPass prompt asks (`Say` and its parameters).
- `text`: the French (default) and English catalogue.
- `font`: the bitmap fonts shipped as data, and text layout.
- `render`: the renderer registry, `draw`, `show` (any luma device) and `frame` (a PIL
  image), and the menu's renderer; it knows no game.
- `terminal`: frames as half-block text and animated GIFs.
"""
