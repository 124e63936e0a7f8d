// Swiped on the virtual table (`companion run --virtual`): the paired seat's own hands and
// its secret card, below the grid. The snapshot's `mine` (this seat's facts, sent to its own
// phone only: companion/games/swiped/virtual.py) gives its target card, the grid that card
// asks for, how many cubes stand there now and what its hands may do; the kit judges every
// move again, the referee every cube (SW-2, SW-4).
//
// - Draw the face-up card, place the cubes, draw one's secret card (SW-2).
// - At one's swap: tap two cubes, then "swap them"; or "same pair, skip" (SW-4).
// - Claims at any moment (SW-5): "5 matches", or "I know your card" then the card named.

import { button, html } from "/static/draw.js";

export const handWords = {
  fr: {
    "hands": "Vos mains ({name})",
    "target": "Votre carte secrète : n° {card} ({n}/9 cubes à leur place)",
    "target.none": "Pas encore de carte secrète.",
    "help.swap": "Touchez deux cubes, puis « les échanger ».",
    "help.wait": "Ce n’est pas à vous d’échanger.",
    "draw_layout": "Tirer la carte face visible",
    "place_cubes": "Placer les gros cubes",
    "draw_target": "Tirer ma carte secrète",
    "swap": "Échanger les 2 cubes choisis",
    "skip": "Même paire : passer",
    "doublon": "5 correspondances !",
    "menteur": "Je connais ta carte !",
    "name.label": "Carte nommée",
    "name": "Nommer cette carte",
    "back": "Annuler mon dernier pas",
  },
  en: {
    "hands": "Your hands ({name})",
    "target": "Your secret card: no. {card} ({n}/9 cubes in place)",
    "target.none": "No secret card yet.",
    "help.swap": "Tap two cubes, then “swap them”.",
    "help.wait": "It is not your swap.",
    "draw_layout": "Draw the face-up card",
    "place_cubes": "Place the big cubes",
    "draw_target": "Draw my secret card",
    "swap": "Swap the 2 chosen cubes",
    "skip": "Same pair: skip",
    "doublon": "5 matches!",
    "menteur": "I know your card!",
    "name.label": "Card named",
    "name": "Name this card",
    "back": "Take back my last step",
  },
};

/** The hands of this seat, appended to the view's `root`; `update` after the grid is drawn
 * (it marks the cubes chosen). `chip(board, colour)` draws a colour as the grid does. */
export function mountHands(root, page, chip) {
  const t = page.t;
  const box = html("section", { class: "hands sw-mine", hidden: "" });
  const title = html("h3");
  const target = html("p", { class: "sw-target" });
  const wanted = html("div", { class: "sw-wanted", "aria-hidden": "true" });
  const help = html("p", { class: "help" });
  const buttons = html("div", { class: "sw-buttons actions" });
  box.append(title, target, wanted, help, buttons);
  root.append(box);

  let snap = null;
  let chosen = []; // the squares tapped for a swap
  let drawn = "";

  const mine = () => (snap && snap.virtual && snap.you && snap.mine ? snap.mine : null);

  root.addEventListener("click", (e) => {
    const cube = e.target.closest?.(".sw-cube[data-square]");
    const m = mine();
    if (!cube || !m?.can.swap) return;
    const square = Number(cube.dataset.square);
    chosen = chosen.includes(square) ? chosen.filter((s) => s !== square) : [...chosen, square].slice(-2);
    draw();
  });

  function draw() {
    const m = mine();
    box.hidden = !m;
    if (!m) return;
    const b = snap.board;
    if (!m.can.swap) chosen = [];
    for (const cube of root.querySelectorAll(".sw-cube[data-square]")) {
      cube.classList.toggle("chosen", chosen.includes(Number(cube.dataset.square)));
      cube.classList.toggle("reachable", m.can.swap);
    }
    const over = b.winner !== null || b.drawn;
    const key = JSON.stringify([m, chosen, over, b.phase, snap.you.name, t("hands", { name: "" })]);
    if (key === drawn) return;
    drawn = key;
    title.textContent = t("hands", { name: snap.you.name });
    target.textContent = m.target ? t("target", { card: m.target, n: m.matches }) : t("target.none");
    wanted.replaceChildren(...(m.target_grid || []).map((colour) => chip(b, colour)));
    help.textContent = b.phase === "execute" && !over ? t(m.can.swap ? "help.swap" : "help.wait") : "";
    help.hidden = !help.textContent;
    const list = [];
    for (const name of ["draw_layout", "place_cubes", "draw_target"]) {
      if (m.can[name]) list.push(button(t(name), () => page.move({ move: name }), { "data-move": name }));
    }
    if (m.can.swap) {
      const swap = button(t("swap"), async () => {
        if (await page.move({ move: "swap", a: chosen[0], b: chosen[1] })) chosen = [];
        draw();
      }, { "data-move": "swap" });
      swap.disabled = chosen.length !== 2;
      list.push(swap, button(t("skip"), () => page.act("choose", "skip"), { "data-skip": "" }));
    }
    if (b.phase === "execute" && !over) {
      list.push(button(t("doublon"), () => page.act("doublon"), { "data-call": "doublon" }));
      list.push(button(t("menteur"), () => page.act("menteur"), { "data-call": "menteur" }));
      const label = html("label", { class: "sw-name" }, t("name.label"));
      const number = html("input", { type: "number", min: "1", max: String(b.deck_size), inputmode: "numeric" });
      number.dataset.name = "";
      label.append(number);
      const name = button(t("name"), () => page.act("choose", [Number(number.value)]), { "data-name-card": "" });
      list.push(label, name);
    }
    if (!over) list.push(button(t("back"), () => page.act("back"), { class: "secondary", "data-back": "" }));
    buttons.replaceChildren(...list);
  }

  return {
    update(next) {
      snap = next;
      draw();
    },
  };
}
