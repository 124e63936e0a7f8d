"""The builder's kit: every drawing and list a builder needs, generated from one description.

The description is the pin map (hardware/pins.toml: which GPIO drives which reader, which
reader sits on which SPI bus, the Pi's buttons and OLED, and the ``[kit]`` choices such as
the spacing of the readers) plus each game's mat (`Game.mat`: where its spots lie).
`table.load_table` reads both into a `Table`; from it the modules here compute:

- `bom`: the bill of materials, every quantity counted from the table, and its power budget
  (hardware/bom.md);
- `harness`: the wiring harness of each bus as WireViz YAML, rendered to SVG and PNG
  (docs/wiring/);
- `board`: the buffer/breakout board as a SKiDL circuit: its KiCad netlist, its
  electrical rule check and a drawing of it (hardware/board/);
- `mats`: the 1:1 mat templates, tiled over A4 and A3 (hardware/mats/), and mats.md.

`python -m companion.kit` writes them all (``--check`` says which committed file differs
from what the description gives). WireViz, SKiDL and the PDF library load only there: the
table's runtime never imports this package.
"""
