"""What the console's 128x64 OLED shows.

- `model`: the screens as plain public data (built by the referee).
- `text`: the French (default) and English catalogue.
- `font`: the bitmap fonts shipped as data, and text layout.
- `render`: `draw`, `show` (any luma device) and `frame` (a PIL image).
- `terminal`: frames as half-block text and animated GIFs.
"""
