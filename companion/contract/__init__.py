"""The contract between the runtime and the games, below everything else in `companion/`.

- `engine`: what every game's pure rules offer (`Engine`, generic in the game's own types).
- `inputs`: the journal's inputs a referee takes (`Setup`, `SpotInput`, `PressInput`...).
- `game`: the `Game` descriptor, the referee contract (`TableReferee`) and what a game
  declares of its table (its token families, its seat buttons, its own settings).

It imports no other part of `companion` but the leaves it is written in (the rules'
errors, the referee's event log and observed table, the screens' plain model), so config,
journal, screens, speech and enrolment depend on it without depending on any game or on
the registry (`companion.games`), a thin lookup above it.
"""
