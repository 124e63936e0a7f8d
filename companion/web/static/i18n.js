// The page's words: French by default, English when the snapshot's language is "en".
// t(key, {name: ...}) fills {name} placeholders; results are plain text, always set
// with textContent (never innerHTML), since names come from users.

const WORDS = {
  fr: {
    "conn.connecting": "connexion…",
    "conn.live": "en direct",
    "conn.lost": "reconnexion…",
    "conn.polling": "toutes les {n} s",
    "poll.note": "Cette page se met à jour toutes les {n} s, et repasse en direct dès qu’une place se libère.",
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
    "replay.title": "Revoir une partie",
    "replay.journals": "Parties enregistrées",
    "replay.none": "Aucune partie enregistrée.",
    "reports.title": "Rapports du labo",
    "reports.none": "Aucun rapport : companion lab ou companion report en écrit.",
    "replay.steps.one": "{n} étape",
    "replay.steps.other": "{n} étapes",
    "replay.download": "Télécharger le déroulé (texte)",
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
    "conn.polling": "every {n} s",
    "poll.note": "This page updates every {n} s, and goes live again as soon as a stream is free.",
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
    "replay.title": "Replay a game",
    "replay.journals": "Recorded games",
    "replay.none": "No recorded game.",
    "reports.title": "Lab reports",
    "reports.none": "No report yet: companion lab or companion report writes them.",
    "replay.steps.one": "{n} step",
    "replay.steps.other": "{n} steps",
    "replay.download": "Download the record (text)",
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

function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

export function t(key, vars = {}) {
  return fill(WORDS[lang][key] ?? WORDS.fr[key] ?? key, vars);
}

/** `key` for a number `n`: its `.one` or `.other` phrase as the language's plural rules
 * choose (French: 0 and 1 are singular), with `{n}` filled. */
export function count(key, n, vars = {}) {
  const form = new Intl.PluralRules(lang).select(n) === "one" ? "one" : "other";
  return t(`${key}.${form}`, { ...vars, n });
}

/** The `t` of a game's page view: its own `words` ({fr: {...}, en: {...}}) first, then
 * the page's, in the page's language of the moment. */
export function translator(words = {}) {
  return (key, vars = {}) => {
    const own = words[lang]?.[key] ?? words.fr?.[key];
    return own === undefined ? t(key, vars) : fill(own, vars);
  };
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
