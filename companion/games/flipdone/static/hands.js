// Flip Done on the virtual table (`companion run --virtual`): the paired seat's own hands,
// below the mat. The snapshot's `mine` (this seat's facts, sent to its own phone only:
// companion/games/flipdone/virtual.py) gives its hand and what its hands may do now; the
// kit judges every move again, the referee every card (FD-3).
//
// - Deal (anyone, FD-2): one card at a time, or the whole deal.
// - At one's turn: tap a card of the hand, then a face-down card of the mat (a build), or
//   "on the pad" (a discard); with a card on the pad, tap an element to flip it, or
//   "no flip". The first player of a phase may choose the first card's square.
// - Take back: a square (or the pad) marked "↑" holds a card of yours the screen does not
//   expect (a build refused, a step undone).
// - Gather every card once a phase is over (FD-9).

import { button, html } from "/static/draw.js";

export const handWords = {
  fr: {
    "hands": "Vos mains ({name})",
    "hand.none": "Aucune carte en main.",
    "help.deal": "Distribuez : une carte à la fois, ou tout d’un coup.",
    "help.place_first": "Touchez la case où poser la première carte.",
    "help.play": "Touchez une carte, puis une carte face cachée du tapis (construire) ou « sur la défausse ».",
    "help.pad": "Touchez un élément pour le retourner, ou « pas de retournement ».",
    "help.take": "Touchez une case marquée ↑ pour reprendre votre carte.",
    "help.gather": "La phase est finie : ramassez toutes les cartes.",
    "help.wait": "Ce n’est pas à vous de jouer.",
    "deal": "Distribuer une carte",
    "deal.all": "Tout distribuer",
    "discard": "Poser la carte choisie sur la défausse",
    "no_flip": "Pas de retournement",
    "take.pad": "Reprendre ma carte de la défausse",
    "gather": "Ramasser toutes les cartes",
    "back": "Annuler mon dernier pas",
  },
  en: {
    "hands": "Your hands ({name})",
    "hand.none": "No card in hand.",
    "help.deal": "Deal: one card at a time, or all at once.",
    "help.place_first": "Tap the spot where the first card goes.",
    "help.play": "Tap a card, then a face-down card of the mat (build) or “on the pad”.",
    "help.pad": "Tap an element to flip it, or “no flip”.",
    "help.take": "Tap a spot marked ↑ to take your card back.",
    "help.gather": "The phase is over: gather every card.",
    "help.wait": "It is not your turn.",
    "deal": "Deal a card",
    "deal.all": "Deal everything",
    "discard": "Put the chosen card on the pad",
    "no_flip": "No flip",
    "take.pad": "Take my card back from the pad",
    "gather": "Gather every card",
    "back": "Take back my last step",
  },
};

/** The hands of this seat, appended to the view's `root`; `update` after the mat is drawn
 * (it marks its squares). `cardText` writes a card as the table writes it. Nothing is
 * shown on a watcher's page or a real table's. */
export function mountHands(root, page, cardText) {
  const t = page.t;
  const box = html("section", { class: "hands fd-mine", hidden: "" });
  const title = html("h3");
  const help = html("p", { class: "help" });
  const cards = html("div", { class: "fd-mine-cards actions" });
  const buttons = html("div", { class: "fd-buttons actions" });
  box.append(title, help, cards, buttons);
  root.append(box);

  let snap = null;
  let chosen = null; // the card tapped, waiting for its square or the pad
  let drawn = ""; // what the hand and buttons show: made anew only when it changes

  const mine = () => (snap && snap.virtual && snap.you && snap.mine ? snap.mine : null);

  async function send(what) {
    chosen = null;
    return page.move(what);
  }

  function onSquare(square) {
    const m = mine();
    if (!m) return;
    const c = m.can;
    if (c.place_first) return send({ move: "place_first", square });
    if (c.pad) return send({ move: "flip", square });
    if (chosen && c.play) return send({ move: "build", card: chosen, square });
    if (c.take.includes(square)) return send({ move: "take", spot: square });
  }

  // Taps on the mat's squares, which the view draws anew when the mat changes.
  root.addEventListener("click", (e) => {
    const square = e.target.closest?.(".fd-square[data-square]");
    if (square && mine()) onSquare(Number(square.dataset.square));
  });

  function draw() {
    const m = mine();
    box.hidden = !m;
    if (!m) return;
    const c = m.can;
    if (!m.hand.includes(chosen)) chosen = null;
    const key = JSON.stringify([m, chosen, snap.you.name, t("hands", { name: "" })]);
    if (key !== drawn) {
      drawn = key;
      title.textContent = t("hands", { name: snap.you.name });
      const what = c.gather ? "gather" : c.deal ? "deal" : c.place_first ? "place_first"
        : c.pad ? "pad" : c.play ? "play" : c.take.length ? "take" : "wait";
      help.textContent = t(`help.${what}`);
      drawCards(m);
      drawButtons(m);
    }
    for (const g of root.querySelectorAll(".fd-square[data-square]")) {
      const square = Number(g.dataset.square);
      g.classList.toggle("takeable", c.take.includes(square));
      g.classList.toggle("reachable", c.place_first || c.pad || (Boolean(chosen) && c.play));
    }
  }

  function drawCards(m) {
    const items = m.hand.map((card) => {
      const b = button(cardText(card), () => {
        chosen = chosen === card ? null : card;
        draw();
      }, { class: "fd-hand-card", "aria-pressed": String(chosen === card) });
      b.dataset.card = card;
      b.dataset.colour = card.endsWith("H") || card.endsWith("D") ? "red" : "black";
      return b;
    });
    cards.replaceChildren(...(items.length ? items : [html("span", { class: "help" }, t("hand.none"))]));
  }

  function drawButtons(m) {
    const c = m.can;
    const list = [];
    if (c.deal) {
      list.push(button(t("deal"), () => send({ move: "deal" }), { "data-deal": "one" }));
      list.push(button(t("deal.all"), () => send({ move: "deal", all: true }), { "data-deal": "all" }));
    }
    if (c.play && !c.pad) {
      const discard = button(t("discard"), () => send({ move: "discard", card: chosen }), { "data-discard": "" });
      discard.disabled = !chosen;
      list.push(discard);
    }
    if (c.pad) list.push(button(t("no_flip"), () => page.act("choose", "no_flip"), { "data-no-flip": "" }));
    if (c.take.includes(0)) list.push(button(t("take.pad"), () => send({ move: "take", spot: 0 }), { "data-take-pad": "" }));
    if (c.gather) list.push(button(t("gather"), () => send({ move: "gather" }), { "data-gather": "" }));
    list.push(button(t("back"), () => page.act("back"), { class: "secondary", "data-back": "" }));
    buttons.replaceChildren(...list);
  }

  return {
    update(next) {
      snap = next;
      draw();
    },
  };
}
