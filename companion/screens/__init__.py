"""What the console's 128x64 OLED shows.

- `model`: what every game's screens share, as plain public data: the menu, refused presses.
- `text`: the French (default) and English catalogue of the core's phrases, and the doors
  through which the registry adds each game's own words (its descriptor's).
- `font`: the bitmap fonts shipped as data, and text layout.
- `render`: the renderer registry, `draw`, `show` (any luma device) and `frame` (a PIL
  image), and the menu's renderer; it knows no game.
- `terminal`: frames as half-block text and animated GIFs.

Each game's screens (built by its referee), renderers and words live in its own package
(`companion/games/<game>/screens.py`, `words.py`).
"""
