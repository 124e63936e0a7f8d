"""PtiPassPass and PhiPassPass: everything of these two games, in one package.

`rules/` is the pure engine (its core the mutable `rules/board.py`), `referee` judges a
real table's inputs, `screens` and `prompt` draw its OLED, `bots`, `selfplay` and `sim`
play it, `lab` (with `tally` and `reader`) and `mcts` measure it, and `game` defines the
two `Game` descriptors. Nothing is imported here, so that
importing one part does not load the others.
"""
