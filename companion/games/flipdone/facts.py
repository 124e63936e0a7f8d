"""What the power-on menu shows of Flip Done before it is chosen (its descriptor,
`game.py`, takes these; this module imports nothing else of the game)."""

from companion.contract.game import Facts
from companion.screens.text import register_words

register_words(
    "flipdone",
    {
        "fr": {"menu.title.ready.cards": "Cartes hors du tapis, pad vide."},
        "en": {"menu.title.ready.cards": "Cards off the mat, the pad empty."},
    },
)
"""The menu's question of this game, which the menu asks before the game is loaded."""

FACTS = Facts("flipdone", "Flip Done", (3,), ready_prompt="menu.title.ready.cards")  # FD-1
