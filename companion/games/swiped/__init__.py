"""Swiped: everything of this game, in one package.

`rules/` is the pure engine, `referee` judges a real table's inputs, `screens` draws its
OLED, `bots` (with `deduce`), `sim` and `console` play it, `lab` (with `tally`) and `mcts`
measure it, `deck_sheet` prints its cards, and `game` defines its `Game` descriptor.
Nothing is imported here, so that importing one part does not load the others.
"""
