"""What the power-on menu shows of Swiped before it is chosen (its descriptor, `game.py`,
takes these; this module imports nothing else of the game)."""

from companion.contract.game import Facts, Words

MENU_WORDS: Words = {
    "fr": {"menu.title.ready.mat": "Cartes et cubes hors du tapis, pad vide."},
    "en": {"menu.title.ready.mat": "Cards and cubes off the mat, the pad empty."},
}
"""Its phrases the menu shows (its question or prompt), before the game is loaded."""

FACTS = Facts("swiped", "Swiped", (2,), ready_prompt="menu.title.ready.mat", menu_words=MENU_WORDS)
