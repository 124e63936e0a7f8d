"""What the power-on menu shows of "Vous ne passerez pas !" before it is chosen (its
descriptor, `game.py`, takes these; this module imports nothing else of the game)."""

from companion.contract.game import Facts, Words

MENU_WORDS: Words = {
    "fr": {"menu.title.ready.page": "Pad vide : la partie se joue sur les téléphones."},
    "en": {"menu.title.ready.page": "Pad empty: the game is played on the phones."},
}
"""Its phrases the menu shows (its question or prompt), before the game is loaded."""

FACTS = Facts(
    "vnp",
    "Vous ne passerez pas !",
    (2, 4),  # VNP-7: two players, or four (each for themselves, or teams)
    ready_prompt="menu.title.ready.page",
    menu_words=MENU_WORDS,
)
