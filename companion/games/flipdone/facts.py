"""What the power-on menu shows of Flip Done before it is chosen (its descriptor,
`game.py`, takes these; this module imports nothing else of the game)."""

from companion.contract.game import Facts, Words

MENU_WORDS: Words = {
    "fr": {"menu.title.ready.cards": "Cartes hors du tapis, pad vide."},
    "en": {"menu.title.ready.cards": "Cards off the mat, the pad empty."},
}
"""Its phrases the menu shows (its question or prompt), before the game is loaded."""

FACTS = Facts(
    "flipdone", "Flip Done", (3,), ready_prompt="menu.title.ready.cards", menu_words=MENU_WORDS
)  # FD-1
