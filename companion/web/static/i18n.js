// The page's words: French by default, English when the snapshot's language is "en".
// t(key, {name: ...}) fills {name} placeholders; results are plain text, always set
// with textContent (never innerHTML), since names come from users.

const WORDS = {
  fr: {
    "conn.connecting": "connexion…",
    "conn.live": "en direct",
    "conn.lost": "reconnexion…",
    "nav.replay": "Revoir une partie",
    "nav.live": "Partie en direct",
    "frame.alt": "Écran de la table",
    "scores": "Scores",
    "history": "Historique",
    "finished": "Partie terminée",
    "winner": "Gagnant : {names}",
    "winners": "Gagnants : {names}",
    "pair.open": "Jouer depuis ce téléphone",
    "pair.title": "Associer ce téléphone",
    "pair.seat": "Votre place",
    "pair.code": "Code à 6 chiffres (écran de la table)",
    "pair.submit": "Associer ce téléphone",
    "pair.taken": "{name} (déjà associée)",
    "pair.badCode": "Le code a 6 chiffres.",
    "pair.noSeat": "Choisissez votre place.",
    "you": "Vous êtes {name}",
    "unpair": "Oublier ce téléphone",
    "net.error": "Le serveur ne répond pas. Réessayez.",
    "board.label": "Plateau. Avec une pièce choisie : flèches pour la déplacer, R pour tourner, F pour retourner, Entrée pour valider.",
    "turn": "Au tour de {colour} ({name})",
    "turn.yours": "À vous : {colour}",
    "turn.over": "Partie terminée : scores finaux",
    "rotate": "Tourner",
    "flip": "Retourner",
    "confirm": "Valider",
    "pass": "Passer",
    "hint": "Indice",
    "back": "Annuler le dernier coup",
    "tray": "Vos pièces",
    "help.pick": "Choisissez une pièce, puis touchez le plateau.",
    "help.mustPass": "Aucune pièce ne peut être posée : passez.",
    "help.tap": "Touchez le plateau : {n} positions possibles dans ce sens.",
    "help.none": "Aucune position possible dans ce sens : tournez ou retournez la pièce.",
    "help.legal": "Position permise : « Valider » pour poser.",
    "help.illegal": "Position non permise : l'arbitre la refusera.",
    "col.colour": "Couleur",
    "col.left": "Pièces",
    "col.score": "Score",
    "col.side": "Camp",
    "passed": "a passé",
    "bonus": "{score} (toutes posées)",
    "winner.mark": "gagnant",
    "colour.jaune": "jaune",
    "colour.bleu": "bleu",
    "colour.rouge": "rouge",
    "colour.vert": "vert",
    "replay.title": "Revoir une partie",
    "replay.journals": "Parties enregistrées",
    "replay.none": "Aucune partie enregistrée.",
    "reports.title": "Rapports du labo",
    "reports.none": "Aucun rapport : companion lab ou companion report en écrit.",
    "replay.steps": "{n} étapes",
    "replay.finished": "terminée",
    "replay.unfinished": "inachevée",
    "replay.current": "en cours",
    "replay.stopped": "arrêtée avant l'entrée {n}, que l'arbitre n'a pas pu appliquer",
    "replay.prev": "Précédent",
    "replay.next": "Suivant",
    "replay.step": "Étape",
    "replay.label": "{i} / {n}, t = {t} s",
    "replay.result": "Résultat",
    "replay.loadError": "Impossible de charger cette partie.",
  },
  en: {
    "conn.connecting": "connecting…",
    "conn.live": "live",
    "conn.lost": "reconnecting…",
    "nav.replay": "Replay a game",
    "nav.live": "Live game",
    "frame.alt": "The table's screen",
    "scores": "Scores",
    "history": "History",
    "finished": "Game over",
    "winner": "Winner: {names}",
    "winners": "Winners: {names}",
    "pair.open": "Play from this phone",
    "pair.title": "Pair this phone",
    "pair.seat": "Your seat",
    "pair.code": "6-digit code (on the table's screen)",
    "pair.submit": "Pair this phone",
    "pair.taken": "{name} (already paired)",
    "pair.badCode": "The code has 6 digits.",
    "pair.noSeat": "Choose your seat.",
    "you": "You are {name}",
    "unpair": "Forget this phone",
    "net.error": "The server does not answer. Try again.",
    "board.label": "Board. With a piece picked: arrows move it, R turns, F flips, Enter confirms.",
    "turn": "{colour} ({name}) to play",
    "turn.yours": "Your turn: {colour}",
    "turn.over": "Game over: final scores",
    "rotate": "Turn",
    "flip": "Flip",
    "confirm": "Confirm",
    "pass": "Pass",
    "hint": "Hint",
    "back": "Undo last move",
    "tray": "Your pieces",
    "help.pick": "Pick a piece, then tap the board.",
    "help.mustPass": "No piece can be placed: pass.",
    "help.tap": "Tap the board: {n} possible positions this way round.",
    "help.none": "No possible position this way round: turn or flip the piece.",
    "help.legal": "Allowed position: press Confirm to place.",
    "help.illegal": "Position not allowed: the referee will refuse it.",
    "col.colour": "Colour",
    "col.left": "Pieces",
    "col.score": "Score",
    "col.side": "Side",
    "passed": "passed",
    "bonus": "{score} (all placed)",
    "winner.mark": "winner",
    "colour.jaune": "yellow",
    "colour.bleu": "blue",
    "colour.rouge": "red",
    "colour.vert": "green",
    "replay.title": "Replay a game",
    "replay.journals": "Recorded games",
    "replay.none": "No recorded game.",
    "reports.title": "Lab reports",
    "reports.none": "No report yet: companion lab or companion report writes them.",
    "replay.steps": "{n} steps",
    "replay.finished": "finished",
    "replay.unfinished": "unfinished",
    "replay.current": "in progress",
    "replay.stopped": "stops before input {n}, which the referee could not apply",
    "replay.prev": "Previous",
    "replay.next": "Next",
    "replay.step": "Step",
    "replay.label": "{i} / {n}, t = {t} s",
    "replay.result": "Result",
    "replay.loadError": "This game could not be loaded.",
  },
};

let lang = "fr";

export function language() {
  return lang;
}

/** Switch language; returns true when it changed (the caller then re-labels). */
export function setLanguage(code) {
  const next = code === "en" ? "en" : "fr";
  if (next === lang) return false;
  lang = next;
  document.documentElement.lang = next;
  applyStatic();
  return true;
}

export function t(key, vars = {}) {
  const text = WORDS[lang][key] ?? WORDS.fr[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

export function colourName(colour) {
  return t(`colour.${colour}`);
}

/** Re-label the static markup: elements with data-i18n get their text, data-i18n-alt
 * and data-i18n-label their alt / aria-label. */
export function applyStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-alt]")) el.alt = t(el.dataset.i18nAlt);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
}
