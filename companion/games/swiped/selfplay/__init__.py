"""Swiped's fast path for the designer's lab: the seeded self-play of today's bots on a
mutable integer position (`game`), with the deducing bot's arithmetic kept float for float
(`deduce`, `tables`) and the figures counted as the game goes (`tally`).

`companion.games.swiped.lab` seats it; the readable engine (`companion/games/swiped/rules/`) and the
bots of `companion/games/swiped/bots.py` stay the reference it is tested against.
"""
