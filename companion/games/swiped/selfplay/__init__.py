"""Swiped's lab: the seeded self-play of today's bots on the engine's board (`game`), with
the deducing bot's arithmetic kept float for float (`deduce`, `tables`) and the figures
counted as the game goes (`tally`).

`companion.games.swiped.lab` seats it; the bots of `companion/games/swiped/bots.py` (the
table's) stay the reference its bots are tested against (tests/lab/test_swiped.py).
"""
