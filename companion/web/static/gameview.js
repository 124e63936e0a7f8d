// A game's own view on the page (docs/games.md, "The game's page view"). The page knows
// no game: a snapshot lists the files of its game's view (`page_assets`, served at
// /games/<game>/<file>); when `view.js` is one of them, the page links the style sheets,
// imports the module and mounts it in a container of its own. A view module offers:
//
//   export const words = { fr: {...}, en: {...} };  // optional: its phrases, for page.t
//   export function mount(container, page) {        // draws inside `container` only
//     return { update(snapshot) {...}, unmount() {...} };  // unmount is optional
//   }
//
// `page` is what the view may use of the page:
//   page.game            the game's name
//   page.act(c, value)   sends a control for this phone's seat; resolves to true when
//                        accepted (a refusal is shown by the page, beside the button
//                        pressed). null where nobody acts (the replay): the view then
//                        only draws.
//   page.move(m)         on the virtual table only (else null): sends a move of this
//                        seat's hands (POST /api/virtual, the game's kit judges it);
//                        resolves as page.act does. The snapshot's `virtual` is true
//                        there, and a paired phone's snapshot carries its seat's own
//                        facts (`mine`: its hand, what its hands may do now).
//   page.t(key, vars)    the view's own `words` in the table's language, else the page's
//   page.data(name)      resolves to the game's fixed public data (GET /api/<game>/<name>,
//                        `Game.page_data`), fetched once; rejects when it cannot
//   page.message(text)   shows a sentence on the page's message line ("" clears it)
// `update(snapshot)` gets every public snapshot (GET /api/state: `board` holds the game's
// `page_view` facts, `you` this phone's seat or null, `language` the table's language).

import { translator } from "./i18n.js";

/** Mount `snapshot.game`'s view in `container`; resolves to {game, update, unmount}, or
 * null when the game has no view of its own. Rejects when its files do not load. */
export async function loadView(container, snapshot, { act = null, move = null, message = () => {} } = {}) {
  const files = snapshot.page_assets || [];
  if (!files.includes("view.js")) return null;
  const game = snapshot.game;
  const base = `/games/${encodeURIComponent(game)}/`;
  const links = files.filter((f) => f.endsWith(".css")).map((f) => styleSheet(base + f));
  const [module] = await Promise.all([import(`${base}view.js`), ...links.map(loaded)]);
  const page = { game, act, move, message, t: translator(module.words), data: dataOf(game) };
  container.replaceChildren();
  const view = module.mount(container, page);
  return {
    game,
    update: (s) => view.update(s),
    unmount() {
      view.unmount?.();
      container.replaceChildren();
      for (const link of links) link.remove();
    },
  };
}

function styleSheet(href) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
  return link;
}

/** Resolves once the style sheet is in (or failed: the view still works unstyled). */
function loaded(link) {
  return new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  });
}

/** page.data: each name fetched once (again after a failure). */
function dataOf(game) {
  const asked = new Map();
  return (name) => {
    if (!asked.has(name)) {
      const url = `/api/${encodeURIComponent(game)}/${encodeURIComponent(name)}`;
      const promise = fetch(url, { credentials: "same-origin" })
        .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))));
      promise.catch(() => asked.delete(name));
      asked.set(name, promise);
    }
    return asked.get(name);
  };
}
