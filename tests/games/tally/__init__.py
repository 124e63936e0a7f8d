"""Tally: a tiny game that exists only to prove the runtime knows no game.

It is written as a built-in game's package is (`companion/games/<game>/`), and is the one
to copy when adding a game (docs/games.md, "Adding a game"): `rules/` is the pure engine
under the engine contract (`companion/contract/engine.py`), `referee` judges the table's
inputs through it, `screens` draws its OLED, `words` says it in both languages, `sim`
plays a simulated table, `lab` measures it, `static/` draws it on the table's web page,
and `game` defines its `Game` descriptor.
Nothing outside this package knows it: set `COMPANION_GAMES=tests.games.tally` and
`run --sim`, `replay`, `demo`, `lab` and `selfplay` play it, and the contract suite
(tests/contract/) checks it like every built-in game.

Every module imports its siblings relatively and the game's name is written once
(`rules/engine.py`, `NAME`), so a copy of this folder under another name is another game.

The rules: 2 to 4 seats, one hat (spot 1), each seat owns two pebbles. In turn, each seat
drops one of its pebbles into the hat; the first seat to have dropped both wins.
"""

from .game import TALLY
from .referee import TallyReferee

__all__ = ["TALLY", "TallyReferee"]
