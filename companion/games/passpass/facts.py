"""What the power-on menu shows of PtiPassPass and PhiPassPass before one is chosen (their
descriptors, `game.py`, take these; this module imports nothing else of the game)."""

from companion.contract.game import Facts, Words

MENU_WORDS: Words = {
    "fr": {"menu.title.first.magic": "Qui a fait un tour de magie en dernier ?"},
    "en": {"menu.title.first.magic": "Who did a magic trick most recently?"},
}
"""Its phrases the menu shows (its question or prompt), before the game is loaded."""

PTIPASSPASS = Facts("ptipasspass", "PtiPassPass", range(2, 7),
                    first_question="menu.title.first.magic", menu_words=MENU_WORDS)  # fmt: skip
PHIPASSPASS = Facts("phipasspass", "PhiPassPass", range(3, 7),
                    first_question="menu.title.first.magic", menu_words=MENU_WORDS)  # fmt: skip
