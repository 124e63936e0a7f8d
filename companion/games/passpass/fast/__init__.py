"""PtiPassPass and PhiPassPass for the designer's lab: a fast core and fast bots.

The readable engine (companion/games/passpass/rules/) and bots (companion/games/passpass/bots.py)
stay the referee's and the reference; this package plays the very same seeded games
several times faster, for thousands of lab games (tests/lab/test_passpass.py checks it
against them game by game, event by event).

- `tables`: tokens packed into ints, and lookup tables (picks, layouts, legal actions).
- `core`: `FastGame`, the engine on one mutable state of ints, with the game's figures.
- `bots`: the random and heuristic bots on the fast state, drawing as the readable ones.
- `play`: the self-play loop and uniformly random playouts.
- `figures`, `tally`: a game's figures, counted by the core or read from JSON events.
"""
