"""The lab's own words for the command line, in French and English: its report (the
terminal summary, report.html, its plots), the skill ladder, restricted play, a variants
file it cannot run, a Dask cluster that fails it, a thinking bot it cannot seat, and the
names the core gives figures and sections. Phrase books (`companion.phrasebook.Book`)
that `companion.cli_words.books` declares with the core's others: importing this module
adds nothing to any catalogue. It sits outside the lab package, below
`companion.cli_words`, so that a command which says any phrase never imports the lab;
the lab says them through `companion.lab.words`.
"""

from __future__ import annotations

from companion.phrasebook import Book

REPORT: dict[str, tuple[str, str]] = {
    # what was played
    "describe": ("{title}, {players} joueurs ({bots}) ; {rules} ; {source}",
                 "{title}, {players} players ({bots}); {rules}; {source}"),
    "every_seat": ("{kind} à chaque place", "{kind} at every seat"),
    "rules_apart": (" ; ", ", "),  # French writes 6,0: its rules are set apart by " ; "
    "as_ruled": ("règles habituelles", "rules as ruled"),
    "bot_games": ("{n:,} parties entre robots", "{n:,} bot games"),
    "seat": ("{label}, place {seat}", "{label}, seat {seat}"),
    "seat_bot": ("{label}, place {seat} ({bot})", "{label}, seat {seat} ({bot})"),
    "figure_name": ("{what} ({section})", "{what} ({section})"),
    "never": ("{ruling} ({meaning}) ne s’est jamais appliquée en {games:,} parties (borne "
              "haute à 95 % : {bound} des parties)",
              "{ruling} ({meaning}) never applied in {games:,} games (95 % upper bound: "
              "{bound} of games)"),
    # the terminal
    "applied": ("Règles appliquées (part des parties, nombre de fois en tout)",
                "Rulings applied (share of games, times in all)"),
    "people": ("Les joueurs ({name}) face aux robots :", "People ({name}) against the bots:"),
    # report.html
    "lab_title": ("Labo : {name}", "Lab: {name}"),
    "playtest_title": ("Essai : {name}", "Playtest: {name}"),
    "written": (
        "Écrit le {when}. Les intervalles sont à 95 % : de Wilson pour les parts de "
        "parties, normaux pour les moyennes sur les parties ; un taux d’événements (les "
        "défis qui réussissent) prend la partie pour unité, ses événements allant ensemble. "
        "Une victoire partagée compte une part à chaque gagnant.",
        "Written {when}. Intervals are 95 %: Wilson for shares of games, normal for means "
        "over games; a rate of events (challenges that succeed) takes the game as the unit, "
        "its events going together. A shared win counts a part to each winner."),
    "variant": ("variante", "variant"),
    "what_played": ("ce qui a été joué", "what was played"),
    "figure": ("chiffre", "figure"),
    "ruling": ("règle", "ruling"),
    "ruling_label": ("{ruling} : {meaning}", "{ruling}: {meaning}"),
    "wins_and_length": ("Victoires et durée", "Wins and length"),
    "wins_plot": ("Victoires par place et du premier joueur",
                  "Wins by seat and of the first player"),
    "length_plot": ("Durée des parties", "Game length"),
    "turns_plot": ("Tours par {manche}", "Turns per {manche}"),
    "rulings_plot": ("Combien de fois chaque règle s’est appliquée",
                     "How often each ruling applied"),
    "rulings_head": ("Règles : part des parties où chacune s’est appliquée (nombre de fois en "
                     "tout)",
                     "Rulings: share of games where each applied (times in all)"),
    "interest": (
        "{name} : la tête change de mains {changes} fois par partie ; le futur gagnant mène "
        "pour de bon à partir de {decided} de la partie (plus c’est tard, plus l’issue reste "
        "ouverte longtemps) ; {comebacks} des parties sont gagnées en étant mené après la "
        "mi-partie",
        "{name}: the lead changes hands {changes} times a game; the eventual winner leads "
        "for good from {decided} of the game on (the later, the longer the outcome stays "
        "open); {comebacks} of the games are won from behind after the middle"),
    "interest_choices": ("{said} ; un coup offre {choices} choix permis",
                         "{said}; a move offers {choices} legal choices"),
    "interest_end": ("{said}. Intervalles à 95 % sur {games:,} parties.",
                     "{said}. Intervals are 95 % over {games:,} games."),
    "lead_head": ("Comment va la tête", "How the lead goes"),
    "lead_caption": (
        "Quand le gagnant a pris la tête pour de bon : la part des parties dont le futur "
        "gagnant menait déjà pour de bon à chaque moment de la partie (une courbe haute à "
        "gauche : des parties jouées d’avance ; basse jusqu’à droite : des parties ouvertes "
        "jusqu’au bout)",
        "When the winner took the lead for good: the share of games whose eventual winner "
        "already led for good at each point of the game (a curve high on the left: games "
        "decided early; low until the right: games open to the end)"),
    "people_head": ("Les joueurs ({name}) face aux robots", "People ({name}) against the bots"),
    "people_method": (
        "Chaque chiffre est comparé partie par partie (un test de permutation), et les "
        "différences dites gardent un taux de fausses découvertes de 5 % sur tous les "
        "chiffres comparés ; la dernière ligne dit ce que les parties n’ont pas pu trancher "
        "(les tableaux ci-dessus montrent chaque chiffre côte à côte).",
        "Each figure is compared game by game (a permutation test), and the differences said "
        "keep a false discovery rate of 5 % over all the figures compared; the last line says "
        "what the games could not tell (the tables above show every figure side by side)."),
    "people_caption": (
        "Où les joueurs diffèrent des robots : chaque chiffre en part de celui des robots (à "
        "gauche de la ligne pointillée, les joueurs font moins), avec son intervalle à 95 %",
        "Where people differ from the bots: each figure as a share of the bots' (left of the "
        "dashed line, people do less), with its 95 % interval"),
    # the plots' axes
    "won_axis": ("parties gagnées (%)", "games won (%)"),
    "seat_tick": ("place {n}", "seat {n}"),
    "first_player": ("premier joueur", "first player"),
    "share_axis": ("part", "share"),
    "decisions_axis": ("décisions par partie", "decisions per game"),
    "turns_axis": ("tours par {manche}", "turns per {manche}"),
    "applied_axis": ("parties où elle s’est appliquée (%)", "games where it applied (%)"),
    "point_axis": ("moment de la partie (% de ses actions)",
                   "point of the game (% of its actions)"),
    "leads_axis": ("parties dont le gagnant mène pour de bon (%)",
                   "games whose winner leads for good (%)"),
    "versus": ("{figure} face à {bots}", "{figure} vs {bots}"),
    "people_axis": ("chiffre des joueurs, en part de celui des robots (échelle log ; 100 % : "
                    "le même)",
                    "people's figure, as a share of the bots' (log scale; 100 %: the same)"),
    # people against bots (`companion report --against`)
    "more": ("plus", "more"),
    "less": ("moins", "less"),
    "differs": (
        "{figure} : joueurs {people}, robots ({bots}) {theirs} ; les joueurs font {way}, "
        "au-delà du hasard (test de permutation par partie, p = {p:.2g} ; taux de fausses "
        "découvertes {fdr} % sur {tested} chiffres)",
        "{figure}: people {people}, bots ({bots}) {theirs}; people {way}, beyond chance "
        "(permutation test by game, p = {p:.2g}; false discovery rate {fdr}% over {tested} "
        "figures)"),
    "bots_too_few": ("les {n:,} parties des robots ({bots}) sont trop peu pour rien dire",
                     "the bots' {n:,} games ({bots}) are too few to tell anything"),
    "too_few": (
        "{m:,} parties réelles sont trop peu pour distinguer les joueurs des robots ({bots}) "
        "sur les {other}chiffres : une différence d’un écart-type du chiffre d’une partie "
        "demande {needed:,} parties pour être vue 4 fois sur 5",
        "{m:,} real games are too few to tell people from the bots ({bots}) on the "
        "{other}figures: a difference of one standard deviation of a game's figure needs "
        "{needed:,} games to be seen 4 times in 5"),
    "too_few_one": (
        "une partie réelle est trop peu pour distinguer les joueurs des robots ({bots}) sur "
        "les {other}chiffres : une différence d’un écart-type du chiffre d’une partie "
        "demande {needed:,} parties pour être vue 4 fois sur 5",
        "1 real game is too few to tell people from the bots ({bots}) on the {other}figures: "
        "a difference of one standard deviation of a game's figure needs {needed:,} games to "
        "be seen 4 times in 5"),
    "seen_only": ("{said} ; {m:,} parties ne montrent que les différences de {seen:.1f} "
                  "écarts-types ou plus",
                  "{said}; {m:,} games show only differences of {seen:.1f} standard "
                  "deviations or more"),
    "other": ("autres ", "other "),
    "no_difference": (
        "aucun {other}chiffre des {m:,} parties réelles ne diffère de celui des robots ({bots}) "
        "au-delà du hasard ; une différence d’un écart-type du chiffre d’une partie se serait "
        "vue 4 fois sur 5",
        "no {other}figure of {m:,} real games differs from the bots' ({bots}) beyond chance; "
        "a difference of one standard deviation of a game's figure would have shown 4 times "
        "in 5"),
    # journals (`companion report`)
    "group": ("{title}, {players} joueurs", "{title}, {players} players"),
    "group_rules": ("{title}, {players} joueurs ({rules})", "{title}, {players} players ({rules})"),
    "group_simulated": ("{name}, table simulée", "{name}, simulated table"),
    "group_bots": ("{name}, robots", "{name}, bots"),
    "group_virtual": ("{name}, table virtuelle", "{name}, virtual table"),
    "journals": ("{n} journaux", "{n} journals"),
    "journal": ("1 journal", "1 journal"),
    "source_virtual": ("{journals} de parties réelles sur la table virtuelle (companion run "
                       "--virtual)",
                       "{journals} of real games on the virtual table (companion run "
                       "--virtual)"),
    "source_real": ("{journals} de parties réelles", "{journals} of real games"),
    "source_simulated": ("{journals} de la table simulée (companion play --sim), pas d’une "
                         "vraie",
                         "{journals} of the simulated table (companion play --sim), not of a "
                         "real one"),
    "source_bots": ("{journals} de parties entre robots (companion demo)",
                    "{journals} of bot games (companion demo)"),
    "given_twice": ("{path} : donné deux fois, compté une fois",
                    "{path}: given twice, counted once"),
    "same_journal": ("{path} : le même journal que {first}, compté une fois",
                     "{path}: the same journal as {first}, counted once"),
}  # fmt: skip
"""The report's sentences, each (French, English), under ``cli.lab.say.``."""

LADDER: dict[str, tuple[str, str]] = {
    "unbounded": ("sans borne", "unbounded"),
    "swept_up": ("{upper} sur {lower} : a gagné les {games:,} parties, au moins {low:+.0f} Elo "
                 "(95 %, unilatéral)",
                 "{upper} over {lower}: won all {games:,} games, at least {low:+.0f} Elo "
                 "(one-sided 95 %)"),
    "swept_down": ("{upper} sur {lower} : a perdu les {games:,} parties, au plus {high:+.0f} Elo",
                   "{upper} over {lower}: lost all {games:,} games, at most {high:+.0f} Elo"),
    "step": ("{upper} sur {lower} : {gap} ({games:,} parties)",
             "{upper} over {lower}: {gap} ({games:,} games)"),
    "stronger": ("le plus fort gagne plus", "the stronger wins more"),
    "out_of_order": ("le barreau du dessus perd : l’échelle est dans le désordre ici",
                     "the rung above loses: the ladder is out of order here"),
    "cannot_tell": ("ces parties ne peuvent les départager",
                    "these games cannot tell them apart"),
    "verdict": ("{step} : {verdict}", "{step}: {verdict}"),
    "headline": ("Chaque marche{together} : {said}.", "Each step up{together}: {said}."),
    "together": (" (les intervalles valent ensemble)", " (the intervals hold together)"),
    "skill": (
        "L’habileté décide {q} des parties entre {top} et {ref} : {top} seul contre {ref} "
        "gagne {wins} de {n:,} parties, où le hasard seul donne {luck} (q = (P - 1/n) / "
        "(1 - 1/n) : la part des parties que le meilleur joueur gagnerait d’office si le "
        "reste était tiré au sort ; il dit combien l’habileté décide entre ces deux "
        "joueurs, et un joueur plus fort pourrait en montrer plus).",
        "Skill decides {q} of the games between {top} and {ref}: {top} alone against {ref} "
        "wins {wins} of {n:,} games, where luck alone gives {luck} (q = (P - 1/n) / (1 - "
        "1/n): the share of games the better player would win outright were the rest drawn "
        "by lot; it says how much skill decides between these two players, and a stronger "
        "player could show more)."),
    "fit_none": ("Ajustement : rien à vérifier (autant de forces que de paires à ajuster).",
                 "Fit: nothing to check (as many ratings as pairings to fit)."),
    "fit": ("Ajustement : déviance {deviance:.1f} pour {freedom} degrés de liberté, p = {p:.2g} "
            "({resamples:,} échelles tirées de l’ajustement)",
            "Fit: deviance {deviance:.1f} on {freedom} degrees of freedom, p = {p:.2g} "
            "({resamples:,} ladders drawn from the fit)"),
    "fit_bad": ("{said} : une force par robot n’explique pas les paires (un robot fait mieux "
                "contre certains barreaux que sa force ne le dit) : lisez les paires, pas "
                "seulement les forces.",
                "{said}: one strength per bot does not explain the pairings (some bot does "
                "better against some rungs than its rating says): read the pairings, not only "
                "the ratings."),
    "fit_good": ("{said} : une force par robot explique les paires.",
                 "{said}: one strength per bot explains the pairings."),
    "transitive": ("Transitif : aucun trio de barreaux ne se bat en cercle.",
                   "Transitive: no three rungs beat each other in a circle."),
    "circle": ("{a} bat {b}, {b} bat {c}, {c} bat {a}",
               "{a} beats {b}, {b} beats {c}, {c} beats {a}"),
    "not_transitive": ("Pas transitif : {said} (aucune force ne peut les ordonner).",
                       "Not transitive: {said} (no rating can order them)."),
    "anchor": ("(le premier barreau du bloc)", "(the block's first rung)"),
    "gap": ("chaque partie entre les barreaux du dessus et ceux du dessous gagnée par le dessus "
            "({games:,} parties) : {upper} a au moins {low:+.0f} Elo de plus que {lower} "
            "(95 %, unilatéral) ; chaque bloc a ses propres forces",
            "every game between the rungs above and those below won above ({games:,} games): "
            "{upper} is at least {low:+.0f} Elo above {lower} (one-sided 95 %); each block is "
            "rated on its own"),
    "title": ("Échelle d’habileté : {title}, {players} joueurs, {games:,} parties par paire "
              "(Elo, intervalles à 95 % sur {resamples:,} rééchantillonnages des parties)",
              "Skill ladder: {title}, {players} players, {games:,} games a pairing (Elo, 95 % "
              "intervals from {resamples:,} resamples of the games)"),
    "page": ("Échelle d’habileté", "Skill ladder"),
    "alone_rate": ("seul contre le reste, part gagnée :", "alone against the field, win rate:"),
    "versus": ("contre", "vs"),
    "bot": ("robot", "bot"),
    "interval": ("intervalle à 95 %", "95 % interval"),
    "alone_head": ("Seul contre le reste", "Alone against the field"),
    "alone": ("seul", "alone"),
    "field": ("le reste", "field"),
    "wins": ("gagne (95 %)", "wins (95 %)"),
}  # fmt: skip
"""The skill ladder's words, under ``cli.lab.ladder.``."""

RESTRICTED: dict[str, tuple[str, str]] = {
    "head": ("{restriction} (l’agent {meaning}, à chaque place de {n:,} donnes) gagne "
             "{share:.1f} % de ses parties contre l’agent libre, là où un égal gagne {luck:.0f} %"
             " ; l’élément vaut {worth} des parties",
             "{restriction} (the agent {meaning}, at every seat of {n:,} deals) wins "
             "{share:.1f} % of its games against the free one, where an equal one wins "
             "{luck:.0f} %; the element is worth {worth} of games"),
    "too_few": ("{head} : trop peu de donnes pour le dire ({n} ; il en faut {least} ou plus).",
                "{head}: too few deals to tell ({n}; {least} or more are needed)."),
    "pays": ("{head} : il paie, pour ce robot.", "{head}: it pays, for this bot."),
    "negative": ("{head} : une valeur négative : cet agent gagne plus quand il lui est "
                 "interdit, donc le robot s’en sert mal (il le fait là où il ne faudrait pas) "
                 "; c’est un chiffre sur le robot, pas le signe que le jeu serait meilleur "
                 "sans l’élément.",
                 "{head}: a negative worth: this agent wins more when forbidden it, so the bot "
                 "uses it badly (it does it where it should not); that is a figure about the "
                 "bot, not a sign that the game would be better without the element."),
    "no_worth": ("{head} : aucune valeur, dans un sens ou l’autre, que {n:,} donnes puissent "
                 "trancher (l’intervalle s’étend sur {spread:.0f} points de chaque côté : une "
                 "valeur plus petite demande plus de donnes).",
                 "{head}: no worth either way that {n:,} deals can tell (the interval spans "
                 "{spread:.0f} points each side: a smaller worth needs more deals)."),
    "level": ("intervalles à {level:.4g} %", "{level:.4g} % intervals"),
    "level_together": ("intervalles à {level:.4g} %, {k} intervalles valant ensemble 95 % du "
                       "temps",
                       "{level:.4g} % intervals, {k} intervals holding together 95 % of the "
                       "time"),
    "title": ("Jeu restreint : {title}, {players} joueurs, {agent} contre lui-même, {deals:,} "
              "donnes, chacune à chaque place ({level})",
              "Restricted play: {title}, {players} players, {agent} against itself, {deals:,} "
              "deals, each at every seat ({level})"),
    "row": ("{restriction}  gagne {share} [{low}, {high}]  vaut {worth}",
            "{restriction}  wins {share} [{low}, {high}]  worth {worth}"),
    "what": ("Ce que vaut chaque élément : ce que perd l’agent à qui il est interdit contre le "
             "même agent libre de s’en servir, sur les mêmes donnes, en part des parties.",
             "What each element is worth: what the agent forbidden it loses against the same "
             "agent free to use it, on the same deals, a share of games."),
    "restriction": ("restriction", "restriction"),
    "agent": ("l’agent", "the agent"),
    "its_wins": ("ses victoires", "its wins"),
    "worth": ("ce que vaut l’élément", "the element's worth"),
    "page": ("Jeu restreint", "Restricted play"),
}  # fmt: skip
"""Restricted play's words, under ``cli.lab.restricted.``."""

FILE: dict[str, tuple[str, str]] = {
    "where": ("{where} : {problem}", "{where}: {problem}"),
    "cannot_play": ("le labo ne sait pas jouer {game} ; il joue {games}",
                    "the lab cannot play {game}; it plays {games}"),
    "unreadable": ("impossible de le lire : {why}", "cannot read it: {why}"),
    "too_big": ("plus de {n} octets, trop gros pour un fichier de variantes",
                "more than {n} bytes, too big for a variants file"),
    "top": ("{name} : en tête du fichier", "{name}: top level"),
    "tables": ("`variant` doit être des tables écrites [[variant]]",
               "'variant' must be tables written [[variant]]"),
    "variant": ("{name} : variante {n}", "{name}: variant {n}"),
    "named": ("{where} ({name})", "{where} ({name})"),
    "default_name": ("variante {n}", "variant {n}"),
    "twice": ("deux variantes s’appellent {names}", "two variants are named {names}"),
    "study_table": ("écrivez-la comme une table, [{key}]", "write it as a table, [{key}]"),
    "key": ("`{key}`", "{key}"),
    "unknown": ("clé inconnue {keys} ; les clés sont {known}",
                "unknown key {keys}; keys are {known}"),
    "game": ("`game` doit nommer un jeu : {games}", "'game' must name a game: {games}"),
    "game_problem": ("`game` : {problem}", "game: {problem}"),
    "players": ("`players` : {title} se joue à {players}", "players: {title} is for {players}"),
    "bots": ("`bots` : une liste de sortes de robots ({kinds})",
             "bots: a list of bot kinds ({kinds})"),
    "bots_count": ("`bots` : une sorte pour toutes les places, ou {n} (une par place)",
                   "bots: one kind for every seat, or {n} (one a seat)"),
    "games": ("`games` : un nombre entier de 1 à {most:,}",
              "games: a whole number from 1 to {most:,}"),
    "seed": ("`seed` : un nombre entier", "seed: a whole number"),
    "rules": ("`rules` : une table de réglages du moteur", "rules: a table of engine settings"),
    "name": ("`name` : un texte non vide", "name: a non-empty string"),
}  # fmt: skip
"""What the lab says of a variants file it cannot run, under ``cli.lab.file.``."""


CLUSTER: dict[str, tuple[str, str]] = {
    "no_dask": ("--cluster demande le paquet distributed de Dask : pip install "
                "'tabletop-companion[lab-cluster]' depuis une copie du dépôt (docs/lab.md)",
                "--cluster needs Dask's distributed package: pip install "
                "'tabletop-companion[lab-cluster]' from a checkout (docs/lab.md)"),
    "unreachable": ("impossible de joindre l’ordonnanceur Dask à {address} : {why}",
                    "cannot reach the Dask scheduler at {address}: {why}"),
    "no_worker": ("l’ordonnanceur Dask à {address} n’a plus eu de processus depuis "
                  "{seconds:g} s : lancez des processus (dask worker {address}) et relancez, "
                  "ou attendez plus longtemps (--worker-wait SECONDES)",
                  "the Dask scheduler at {address} has had no worker for {seconds:g} s: start "
                  "workers (dask worker {address}) and run again, or wait longer "
                  "(--worker-wait SECONDS)"),
    "lost": ("ordonnanceur Dask perdu à {address} : relancez-le (dask scheduler) avec ses "
             "processus, puis relancez",
             "lost the Dask scheduler at {address}: restart it (dask scheduler) and its "
             "workers, then run again"),
}  # fmt: skip
"""What the lab says of a Dask cluster that fails it, under ``cli.lab.cluster.``."""

THINKING: dict[str, tuple[str, str]] = {
    "iterations": ("robot {kind} : mcts:N prend N itérations par décision, de 1 à {most:,}",
                   "bot {kind}: mcts:N takes N iterations per decision, 1 to {most:,}"),
    "no_restriction": ("robot {kind} : nommez une restriction après le '/'",
                       "bot {kind}: name a restriction after the '/'"),
    "unknown": ("robot {kind} : restriction inconnue {restriction} ; {game} connaît {known}",
                "bot {kind}: unknown restriction {restriction}; {game} knows {known}"),
}  # fmt: skip
"""What the lab says of a thinking bot's kind it cannot seat, under ``cli.lab.thinking.``."""

NAMES: dict[str, tuple[str, str]] = {
    # the sections every game has (`companion.lab.tally`, `companion.lab.journals`)
    "Game": ("Partie", "Game"),
    "Interest": ("Intérêt", "Interest"),
    "At the table": ("À la table", "At the table"),
    "Faults (seconds lost per game, by what the OLED asked)": (
        "Arrêts (secondes perdues par partie, selon ce que l’OLED a demandé)",
        "Faults (seconds lost per game, by what the OLED asked)"),
    "Refused presses per game, by reason": ("Appuis refusés par partie, par raison",
                                            "Refused presses per game, by reason"),
    # their figures
    "wins": ("victoires", "wins"),
    "won by the first player": ("gagnées par le premier joueur", "won by the first player"),
    "drawn or unfinished": ("nulles ou pas finies", "drawn or unfinished"),
    "decisions per game": ("décisions par partie", "decisions per game"),
    "manches per game": ("manches par partie", "rounds per game"),
    "turns per manche": ("tours par manche", "turns per round"),
    "phases per game": ("phases par partie", "phases per game"),
    "turns per phase": ("tours par phase", "turns per phase"),
    "lead changes per game": ("changements de tête par partie", "lead changes per game"),
    "winner leads for good from (% of game)": (
        "le gagnant mène pour de bon à partir de (% de la partie)",
        "winner leads for good from (% of game)"),
    "comebacks (winner behind past the middle)": (
        "remontées (gagnant mené après la mi-partie)",
        "comebacks (winner behind past the middle)"),
    "legal choices per move": ("choix permis par coup", "legal choices per move"),
    "minutes per game": ("minutes par partie", "minutes per game"),
    "seconds per turn": ("secondes par tour", "seconds per turn"),
    "seconds per decision": ("secondes par décision", "seconds per decision"),
    "faults per game": ("arrêts par partie", "faults per game"),
    "seconds lost to faults per game": ("secondes perdues en arrêts par partie",
                                        "seconds lost to faults per game"),
    "refused presses per game": ("appuis refusés par partie", "refused presses per game"),
    # what a game counts in (`LabGame.manche`), who played a journal's games
    "manche": ("manche", "round"),
    "phase": ("phase", "phase"),
    "people": ("des joueurs", "people"),
}  # fmt: skip
"""The names the core gives figures and sections, and their words in each language."""

REPORT_SAYS = Book("cli.lab.say.", REPORT)
LADDER_SAYS = Book("cli.lab.ladder.", LADDER)
RESTRICTED_SAYS = Book("cli.lab.restricted.", RESTRICTED)
FILE_SAYS = Book("cli.lab.file.", FILE)
CLUSTER_SAYS = Book("cli.lab.cluster.", CLUSTER)
THINKING_SAYS = Book("cli.lab.thinking.", THINKING)
NAMES_SHOWN = Book("cli.lab.name.", NAMES)
