"""What the power-on menu shows of Swiped before it is chosen (its descriptor, `game.py`,
takes these; this module imports nothing else of the game)."""

from companion.contract.game import Facts
from companion.screens.text import register_words

register_words(
    "swiped",
    {
        "fr": {"menu.title.ready.mat": "Cartes et cubes hors du tapis, pad vide."},
        "en": {"menu.title.ready.mat": "Cards and cubes off the mat, the pad empty."},
    },
)
"""The menu's question of this game, which the menu asks before the game is loaded."""

FACTS = Facts("swiped", "Swiped", (2,), ready_prompt="menu.title.ready.mat")
