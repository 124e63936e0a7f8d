// PtiPassPass and PhiPassPass on the virtual table (`companion run --virtual`): the paired
// seat's own hands, below the hats. The snapshot's `mine` (this seat's facts, sent to its
// own phone only: companion/games/passpass/virtual.py) gives its hand, its token in flight,
// where its drops lie and what its hands may do now; the kit judges every move again.
//
// - Drop: tap a token of your hand, then a hat (or drag it onto the hat).
// - Take back: tap a hat marked "↑" (a hat holding a token too many for the table the
//   screen expects: your own drop, the hat a verdict gives back, every hat at a manche's end).
// - The buttons of a real table: announce (the Magicien, in a Masqué turn: before, with or
//   after the drop), Doublon and Menteur (any other seat), the Challenge token as a
//   reward, and back.
// - Reveal (the Magicien with no token): tap hats, then slide the two chosen or reveal the
//   three chosen in a line.

import { button, html } from "/static/draw.js";

export const handWords = {
  fr: {
    "hands": "Vos mains ({name})",
    "hand": "Votre main",
    "hand.none": "Aucun jeton en main.",
    "holding": "En jeu : {token}",
    "placed": "Vos jetons sous les chapeaux : {where}",
    "placed.one": "{token} (chapeau {n})",
    "help.drop": "Touchez un jeton, puis un chapeau, pour l’y faire disparaître.",
    "help.take": "Touchez un chapeau marqué ↑ pour en reprendre un jeton.",
    "help.reveal": "Touchez des chapeaux : intervertissez-en deux, ou révélez-en trois alignés.",
    "help.wait": "Ce n’est pas à vous de jouer.",
    "announce": "Annoncer {token}",
    "doublon": "Doublon !",
    "menteur": "Menteur !",
    "reward": "Prendre un jeton Challenge",
    "slide": "Intervertir les 2 chapeaux choisis",
    "reveal": "Révéler les 3 chapeaux choisis",
    "back": "Annuler mon dernier pas",
    "take": "reprendre",
  },
  en: {
    "hands": "Your hands ({name})",
    "hand": "Your hand",
    "hand.none": "No token in hand.",
    "holding": "In play: {token}",
    "placed": "Your tokens under the hats: {where}",
    "placed.one": "{token} (hat {n})",
    "help.drop": "Tap a token, then a hat, to make it vanish there.",
    "help.take": "Tap a hat marked ↑ to take a token back out of it.",
    "help.reveal": "Tap hats: swap two of them, or reveal three in a line.",
    "help.wait": "It is not your turn.",
    "announce": "Announce {token}",
    "doublon": "Doublon!",
    "menteur": "Menteur!",
    "reward": "Take a Challenge token",
    "slide": "Swap the 2 chosen hats",
    "reveal": "Reveal the 3 chosen hats",
    "back": "Take back my last step",
    "take": "take back",
  },
};

/** The hands of this seat, appended to the view's `root`; `update` after the hats are
 * drawn (it marks them). Nothing is shown on a watcher's page or a real table's. */
export function mountHands(root, page) {
  const t = page.t;
  const box = html("section", { class: "hands pp-mine", hidden: "" });
  const title = html("h3");
  const help = html("p", { class: "help" });
  const tokens = html("div", { class: "pp-mine-tokens actions" });
  const holding = html("p", { class: "pp-holding" });
  const placed = html("p", { class: "pp-placed help" });
  const buttons = html("div", { class: "pp-buttons actions" });
  box.append(title, help, tokens, holding, placed, buttons);
  root.append(box);

  let snap = null;
  let chosenToken = null; // the token tapped, waiting for its hat
  let chosenHats = []; // the hats tapped for a swap or a reveal

  const tokenName = (kind) => t(`token.${kind}`);
  const mine = () => (snap && snap.virtual && snap.you && snap.mine ? snap.mine : null);

  async function send(what) {
    chosenToken = null;
    const done = await page.move(what);
    if (done) chosenHats = [];
    return done;
  }

  function onHat(spot) {
    const m = mine();
    if (!m) return;
    const b = snap.board;
    if (chosenToken && m.can.drop) return send({ move: "drop", token: chosenToken, spot });
    if (m.can.take.includes(spot)) return send({ move: "take", spot });
    if (m.can.slide || (b.phase === "reveal" && b.magician === snap.you.seat)) {
      chosenHats = chosenHats.includes(spot) ? chosenHats.filter((s) => s !== spot) : [...chosenHats, spot].slice(-3);
      draw();
    }
  }

  // Taps and drops on the hats, whose elements the view draws anew at every snapshot.
  root.addEventListener("click", (e) => {
    const hat = e.target.closest?.(".pp-hat[data-spot]");
    if (hat && mine()) onHat(Number(hat.dataset.spot));
  });
  root.addEventListener("dragover", (e) => {
    if (e.target.closest?.(".pp-hat") && mine()?.can.drop) e.preventDefault();
  });
  root.addEventListener("drop", (e) => {
    const hat = e.target.closest?.(".pp-hat[data-spot]");
    const token = e.dataTransfer?.getData("text/plain");
    if (!hat || !token || !mine()) return;
    e.preventDefault();
    chosenToken = token;
    onHat(Number(hat.dataset.spot));
  });

  // Buttons are made anew only when they change: one under a finger stays there.
  let tokensDrawn = "";
  let buttonsDrawn = "";

  function drawTokens(m) {
    const key = JSON.stringify([m.hand, chosenToken, page.t("hand.none")]);
    if (key === tokensDrawn) return;
    tokensDrawn = key;
    const items = m.hand.map((kind) => {
      const b = button(tokenName(kind), () => {
        chosenToken = chosenToken === kind ? null : kind;
        draw();
      }, { class: "pp-token", draggable: "true", "aria-pressed": String(chosenToken === kind) });
      b.dataset.token = kind;
      b.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", kind));
      return b;
    });
    tokens.replaceChildren(...(items.length ? items : [html("span", { class: "help" }, t("hand.none"))]));
  }

  function drawButtons(m, b) {
    const seat = snap.you.seat;
    const key = JSON.stringify([seat, b.magician, b.masque, b.visible_turns, b.phase, b.announced,
      b.challenger, b.tokens, b.open_challenges, m.can.slide, chosenHats, snap.language]);
    if (key === buttonsDrawn) return;
    buttonsDrawn = key;
    const magician = b.magician === seat;
    const list = [];
    const masked = b.masque || !b.visible_turns;
    const announcing = b.phase === "place" || b.phase === "announce" || (b.phase === "window" && !b.announced);
    if (magician && masked && announcing) {
      for (const kind of b.tokens) {
        const a = button(t("announce", { token: tokenName(kind) }), () => page.act("announce", kind));
        a.dataset.announce = kind;
        list.push(a);
      }
    }
    if (!magician && (b.phase === "window" || b.phase === "announce")) {
      // In a window, the calls it takes (PTI-4: Doublon only in a Visible turn; PHI-2:
      // one call a window); before it, both (a call pressed early is held, PTI-7).
      const calls = b.phase === "window" && Array.isArray(b.open_challenges) ? b.open_challenges : ["doublon", "menteur"];
      for (const call of calls) list.push(button(t(call), () => page.act(call), { "data-call": call }));
    }
    if (b.phase === "reward" && b.challenger === seat) {
      list.push(button(t("reward"), () => page.act("choose", "token"), { "data-reward": "token" }));
    }
    if (m.can.slide) {
      const slide = button(t("slide"), () => send({ move: "slide", a: chosenHats[0], b: chosenHats[1] }), { id: "pp-slide" });
      slide.disabled = chosenHats.length !== 2;
      const reveal = button(t("reveal"), async () => {
        if (await page.act("choose", [...chosenHats].sort((x, y) => x - y))) chosenHats = [];
      }, { id: "pp-reveal" });
      reveal.disabled = chosenHats.length !== 3;
      list.push(slide, reveal);
    }
    list.push(button(t("back"), () => page.act("back"), { class: "secondary", "data-back": "" }));
    buttons.replaceChildren(...list);
  }

  function markHats(m) {
    for (const hat of root.querySelectorAll(".pp-hat[data-spot]")) {
      const spot = Number(hat.dataset.spot);
      const takeable = m.can.take.includes(spot);
      hat.classList.toggle("takeable", takeable);
      hat.classList.toggle("droppable", Boolean(chosenToken) && m.can.drop);
      hat.classList.toggle("chosen", chosenHats.includes(spot));
      hat.dataset.act = "";
      const mark = hat.querySelector(".pp-take");
      if (takeable && !mark) hat.append(html("span", { class: "pp-take", title: t("take") }, "↑"));
      if (!takeable) mark?.remove();
    }
    root.querySelector(".pp-hats")?.setAttribute("data-note", "");
  }

  function draw() {
    const m = mine();
    box.hidden = !m;
    if (!m) return;
    const b = snap.board;
    if (!m.hand.includes(chosenToken)) chosenToken = null;
    if (!m.can.slide) chosenHats = [];
    title.textContent = t("hands", { name: snap.you.name });
    help.textContent = t(m.can.drop ? "help.drop" : m.can.take.length ? "help.take" : m.can.slide ? "help.reveal" : "help.wait");
    drawTokens(m);
    holding.hidden = !m.holding;
    holding.textContent = m.holding ? t("holding", { token: tokenName(m.holding) }) : "";
    const where = m.placed.map((p) => t("placed.one", { token: tokenName(p.token), n: p.spot }));
    placed.hidden = !where.length;
    placed.textContent = where.length ? t("placed", { where: where.join(", ") }) : "";
    drawButtons(m, b);
    markHats(m);
  }

  return {
    update(next) {
      snap = next;
      draw();
    },
  };
}
