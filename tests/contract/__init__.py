"""The contract suite: what every game must do, checked alike on every registered game
and the test game (`tests.games.contract_games`), so a game is covered by registering it.

With the engine's contract (tests/rules/test_conformance.py) and the referee's (tests/
referee/test_never_raises.py, and test_off_mat.py for what lies off its mat), these files
are the suite docs/games.md describes; `CONTRACT` lists them, for the proof that a game
copied into a package of its own passes it (test_new_game.py).
"""

CONTRACT = (
    "tests/rules/test_conformance.py",
    "tests/referee/test_never_raises.py",
    "tests/referee/test_off_mat.py",
    "tests/referee/test_across.py",
    "tests/contract/test_public_outputs.py",
    "tests/contract/test_descriptor.py",
)
"""The contract suite's files, from the repository's root."""
