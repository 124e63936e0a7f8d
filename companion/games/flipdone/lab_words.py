"""Flip Done's words in the lab's report, in French and English: the names of its
figures, sections, rulings and restrictions (`companion.lab.words.shown`), in the rule
book's words (élément, alignement, pioche), and the facts its rules' arithmetic makes
certain (`NOTES`)."""

from __future__ import annotations

from companion.lab.model import LabWords

NAMES: dict[str, tuple[str, str]] = {
    # sections
    "Columns (1 point), per game": ("Colonnes (1 point), par partie",
                                    "Columns (1 point), per game"),
    "Rows (2 points), per game": ("Rangées (2 points), par partie", "Rows (2 points), per game"),
    "Diagonals (3 points), per game": ("Diagonales (3 points), par partie",
                                       "Diagonals (3 points), per game"),
    "Plays, per game": ("Coups, par partie", "Plays, per game"),
    "Phases and manches, per game": ("Phases et manches, par partie",
                                     "Phases and rounds, per game"),
    "End-of-phase penalty (FD-9) and the zero floor (FD-1), per game": (
        "Pénalité de fin de phase (FD-9) et plancher à zéro (FD-1), par partie",
        "End-of-phase penalty (FD-9) and the zero floor (FD-1), per game"),
    # a kind of line's figures
    "made (FD-5)": ("alignements faits (FD-5)", "made (FD-5)"),
    "points for making them": ("points pour les faire", "points for making them"),
    "broken by another's flip (FD-6)": ("cassés par le retournement d’un autre (FD-6)",
                                        "broken by another's flip (FD-6)"),
    "points the breakers took": ("points pris par ceux qui cassent",
                                 "points the breakers took"),
    "kept aligned by another's flip (FD-6)": ("restés alignés malgré le retournement d’un "
                                              "autre (FD-6)",
                                              "kept aligned by another's flip (FD-6)"),
    "owners' bonus for holding": ("bonus des propriétaires qui tiennent",
                                  "owners' bonus for holding"),
    "lost with no points (FD-7, FD-8)": ("perdus sans points (FD-7, FD-8)",
                                         "lost with no points (FD-7, FD-8)"),
    # plays
    "plays (FD-3)": ("coups (FD-3)", "plays (FD-3)"),
    "builds": ("constructions", "builds"),
    "flips": ("retournements", "flips"),
    "discards": ("défausses", "discards"),
    "first elements placed (FD-2 variant)": ("premiers éléments posés (variante de FD-2)",
                                             "first elements placed (FD-2 variant)"),
    "breaks of another's line (FD-6)": ("alignements d’un autre cassés (FD-6)",
                                        "breaks of another's line (FD-6)"),
    "another's line kept aligned (FD-6)": ("alignements d’un autre restés alignés (FD-6)",
                                           "another's line kept aligned (FD-6)"),
    "flips that broke another's line": ("retournements qui ont cassé l’alignement d’un autre",
                                        "flips that broke another's line"),
    "flips that kept another's line": ("retournements qui ont laissé l’alignement d’un autre",
                                       "flips that kept another's line"),
    "own line broken by its owner (FD-7)": ("son propre alignement cassé (FD-7)",
                                            "own line broken by its owner (FD-7)"),
    "own line flipped, still aligned (FD-7)": ("son propre alignement retourné, toujours "
                                               "aligné (FD-7)",
                                               "own line flipped, still aligned (FD-7)"),
    "third flip broke an owned line (FD-8)": ("un troisième retournement a cassé un "
                                              "alignement marqué (FD-8)",
                                              "third flip broke an owned line (FD-8)"),
    "third flip kept an owned line (FD-8)": ("un troisième retournement a laissé un "
                                             "alignement marqué (FD-8)",
                                             "third flip kept an owned line (FD-8)"),
    "third flip aligned a line, no owner (FD-8)": ("un troisième retournement a aligné une "
                                                   "ligne, sans propriétaire (FD-8)",
                                                   "third flip aligned a line, no owner (FD-8)"),
    "plays that made several lines (FD-5)": ("coups qui ont fait plusieurs alignements (FD-5)",
                                             "plays that made several lines (FD-5)"),
    "turns skipped, no card in hand (FD-3)": ("tours passés, sans carte en main (FD-3)",
                                              "turns skipped, no card in hand (FD-3)"),
    # phases and manches
    "phases": ("phases", "phases"),
    "tie phases for a manche (FD-10)": ("phases de départage d’une manche (FD-10)",
                                        "tie phases for a round (FD-10)"),
    "tie phases for the game (FD-10)": ("phases de départage de la partie (FD-10)",
                                        "tie phases for the game (FD-10)"),
    "ties left standing (tie_phase_limit)": ("égalités restées (tie_phase_limit)",
                                             "ties left standing (tie_phase_limit)"),
    "manche bonus tokens (FD-10)": ("jetons de bonus de manche (FD-10)",
                                    "round bonus tokens (FD-10)"),
    "tokens at the end": ("jetons à la fin", "tokens at the end"),
    "lines made": ("alignements faits", "lines made"),
    "other players' lines broken": ("alignements des autres cassés",
                                    "other players' lines broken"),
    # the penalty and the floor
    "cards left in hand at a phase's end": ("cartes restées en main en fin de phase",
                                            "cards left in hand at a phase's end"),
    "tokens paid for them": ("jetons payés pour elles", "tokens paid for them"),
    "seats penalised": ("places pénalisées", "seats penalised"),
    "phases ending with a card in hand": ("phases finies avec une carte en main",
                                          "phases ending with a card in hand"),
    "penalties cut short at zero tokens (FD-1)": ("pénalités arrêtées à zéro jeton (FD-1)",
                                                  "penalties cut short at zero tokens (FD-1)"),
    "breaks the bank made up (FD-1)": ("alignements cassés que la pioche a complétés (FD-1)",
                                       "breaks the bank made up (FD-1)"),
    "tokens the bank made up (FD-1)": ("jetons que la pioche a complétés (FD-1)",
                                       "tokens the bank made up (FD-1)"),
    # rulings
    "tokens floored at zero: the bank made up a break, or a penalty was cut short": (
        "jetons arrêtés à zéro : la pioche a complété un alignement cassé, ou une pénalité a "
        "été arrêtée",
        "tokens floored at zero: the bank made up a break, or a penalty was cut short"),
    "a seat with no card was skipped": ("une place sans carte a été passée",
                                        "a seat with no card was skipped"),
    "one play made several lines at once": ("un coup a fait plusieurs alignements à la fois",
                                            "one play made several lines at once"),
    "a flip broke another player's line (value taken) or left it aligned (bonus)": (
        "un retournement a cassé l’alignement d’un autre joueur (valeur prise) ou l’a laissé "
        "aligné (bonus)",
        "a flip broke another player's line (value taken) or left it aligned (bonus)"),
    "a flip in the flipper's own aligned line: no points, lost if it broke": (
        "un retournement dans son propre alignement : pas de points, perdu s’il casse",
        "a flip in the flipper's own aligned line: no points, lost if it broke"),
    "a third flip in a line scored nothing (break, kept line or new alignment)": (
        "un troisième retournement dans une ligne n’a rien marqué (cassé, resté aligné ou "
        "nouvel alignement)",
        "a third flip in a line scored nothing (break, kept line or new alignment)"),
    "a card left in hand at a phase's end, paid with a token": (
        "une carte restée en main en fin de phase, payée d’un jeton",
        "a card left in hand at a phase's end, paid with a token"),
    "a tie (manche or game) played one more phase": (
        "une égalité (manche ou partie) a fait jouer une phase de plus",
        "a tie (round or game) played one more phase"),
    # restrictions (`companion.games.flipdone.mcts`)
    "never flips an element: builds and discards only": (
        "ne retourne jamais d’élément : construit et défausse seulement",
        "never flips an element: builds and discards only"),
    "never flips into another player's line": (
        "ne retourne jamais dans l’alignement d’un autre joueur",
        "never flips into another player's line"),
}  # fmt: skip

NOTES: dict[str, tuple[str, str]] = {
    "fd9_never": (
        "FD-9 ne s’applique jamais : une phase donne {dealt} cartes ({players} mains de "
        "{hand}, FD-2) et chaque coup en dépense une, alors que la grille prend {builds} "
        "constructions et {flips} retournements ({grid} coups) avant qu’il ne reste rien à "
        "construire ni à retourner ; chaque phase finit donc quand la dernière carte est "
        "jouée ({dealt} coups par phase), aucune main ne garde de carte en fin de phase et "
        "aucune pénalité n’est jamais payée.",
        "FD-9 never applies: a phase deals {dealt} cards ({players} hands of {hand}, FD-2) "
        "and every play spends one, while the grid takes {builds} builds and {flips} flips "
        "({grid} plays) before nothing is left to build or flip; so every phase ends when the "
        "last card is played ({dealt} plays a phase), no hand holds a card at a phase's end "
        "and no penalty is ever paid."),
    "fd9_fixed": (
        "Aucun réglage n’y change rien ({players} joueurs, {hand} cartes par main et {squares} "
        "cases sont ceux du livre, pas des champs de Config) : FD-9 ne pourrait s’appliquer "
        "que si une phase donnait plus de {grid} cartes (pour {players} joueurs, {least} par "
        "main), pour que la grille soit épuisée quand quelqu’un tient encore une carte.",
        "No setting changes this ({players} players, {hand} cards a hand and {squares} squares "
        "are the rule book's, not Config fields): FD-9 could apply only if a phase dealt more "
        "than {grid} cards (for {players} players, {least} a hand), so that the grid could be "
        "used up while someone still holds a card."),
    "fd9_can": (
        "FD-9 peut s’appliquer : une phase donne {dealt} cartes ({players} mains de {hand}) "
        "et la grille est épuisée après {grid} constructions et retournements : si personne "
        "ne défausse, {left} d’entre elles sont encore en main à ce moment.",
        "FD-9 can apply: a phase deals {dealt} cards ({players} hands of {hand}) and the "
        "grid is used up after {grid} builds and flips: if nobody discards, {left} of them "
        "are still in hand then."),
    "fd3_never": (
        "FD-3 ne s’applique jamais : chaque place reçoit {hand} cartes et en joue une par "
        "tour, chacune à son tour, donc toutes les mains se vident au même tour de table et "
        "aucune place n’est jamais passée.",
        "FD-3 never applies: every seat is dealt {hand} cards and plays one a turn, in turn, "
        "so all hands run out on the same round and no seat is ever skipped."),
    "fd1_bank": (
        "La pioche ne complète jamais un alignement cassé (FD-1) : un propriétaire a pris la "
        "valeur de chaque alignement en le faisant et seule la perte de cet alignement la lui "
        "coûte, donc il a toujours ce qu’un alignement cassé prend (FD-6)",
        "The bank never makes up a break (FD-1): an owner took each line's value on making "
        "it and only losing that line costs it back, so it always holds what a break takes "
        "(FD-6)"),
    "fd1_no_floor": (
        "{said} ; et sans pénalité (FD-9), aucun compte de jetons n’est jamais arrêté à zéro.",
        "{said}; and with no penalty (FD-9) no token count is ever floored at zero."),
    "end": ("{said}.", "{said}."),
}  # fmt: skip
"""The facts of `lab.phase_facts`, under ``cli.lab.flipdone.``."""

WORDS = LabWords("flipdone", NAMES, NOTES)
"""Flip Done's words in the lab (its `LabGame.words`)."""
note = WORDS.say
"""A fact of the report (its key, its fields), in the command line's language."""
