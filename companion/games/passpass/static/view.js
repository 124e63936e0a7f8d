// PtiPassPass and PhiPassPass on the table's page: the game's page view (docs/games.md,
// "The game's page view"), loaded from /games/<game>/view.js. It draws the table from the
// snapshot's `board` (companion/games/passpass/page.py, public facts only): the hats on
// their grid with how many tokens each holds, the Magicien's token in flight over the
// designated hat, the Visible/Masqué token, what the turn waits for, and every seat's
// tokens in hand, Challenge tokens and victory tokens. At a real table it acts for no
// one: PassPass is played with tokens, hats and buttons; on the virtual table a paired
// seat's hands play below the hats (hands.js).

import { countCell, fillTable, html } from "/static/draw.js";
import { handWords, mountHands } from "./hands.js";

const viewWords = {
  fr: {
    "hats": "Les chapeaux",
    "hat": "Chapeau {n}",
    "hat.count": "Chapeau {n} : {count}",
    "hat.designated": "désigné",
    "hat.swapped": "interverti",
    "tokens.0": "vide",
    "tokens.1": "1 jeton",
    "tokens.n": "{n} jetons",
    "in_flight": "+1 en jeu",
    "manche": "Manche {n} · tour {tour}",
    "face.masque": "Masqué",
    "face.visible": "Visible",
    "face.label": "Jeton Visible / Masqué",
    "col.seat": "Joueur",
    "col.hand": "En main",
    "col.challenge": "Challenge",
    "col.victories": "Victoires",
    "magician": "Magicien",
    "challenger": "Challenger",
    "turn.place": "{m} fait disparaître un jeton dans un chapeau",
    "turn.announce": "{m} annonce le jeton",
    "turn.window": "{m} : {token} au chapeau {spot}. Challenge ? {calls}",
    "turn.window.masked": "{m} au chapeau {spot}. Challenge ? {calls}",
    "turn.reward": "{c} choisit sa récompense",
    "turn.reveal": "{m} révèle trois chapeaux alignés",
    "turn.over": "{w} gagne la partie",
    "call.doublon": "Doublon",
    "call.menteur": "Menteur",
    "or": " ou ",
    "token.colombe": "Colombe",
    "token.lapin": "Lapin",
    "token.souris": "Souris",
    "token.bleu": "Bleu",
    "token.vert": "Vert",
    "token.orange": "Orange",
  },
  en: {
    "hats": "The hats",
    "hat": "Hat {n}",
    "hat.count": "Hat {n}: {count}",
    "hat.designated": "designated",
    "hat.swapped": "swapped",
    "tokens.0": "empty",
    "tokens.1": "1 token",
    "tokens.n": "{n} tokens",
    "in_flight": "+1 in play",
    "manche": "Round {n} · lap {tour}",
    "face.masque": "Masked",
    "face.visible": "Visible",
    "face.label": "Visible / Masked token",
    "col.seat": "Player",
    "col.hand": "In hand",
    "col.challenge": "Challenge",
    "col.victories": "Victories",
    "magician": "Magician",
    "challenger": "Challenger",
    "turn.place": "{m} makes a token vanish into a hat",
    "turn.announce": "{m} announces the token",
    "turn.window": "{m}: {token} in hat {spot}. Challenge? {calls}",
    "turn.window.masked": "{m} in hat {spot}. Challenge? {calls}",
    "turn.reward": "{c} chooses a reward",
    "turn.reveal": "{m} reveals three hats in a line",
    "turn.over": "{w} wins the game",
    "call.doublon": "Doublon",
    "call.menteur": "Menteur",
    "or": " or ",
    "token.colombe": "Dove",
    "token.lapin": "Rabbit",
    "token.souris": "Mouse",
    "token.bleu": "Blue",
    "token.vert": "Green",
    "token.orange": "Orange",
  },
};

export const words = {
  fr: { ...viewWords.fr, ...handWords.fr },
  en: { ...viewWords.en, ...handWords.en },
};

/** `n` marks, up to `max` (then the number); "0" for none. */
function marks(n, mark, max = 6) {
  if (n === 0) return "0";
  return n <= max ? mark.repeat(n) : `${mark}×${n}`;
}

export function mount(container, page) {
  const t = page.t;
  const root = html("div", { class: "pp" });
  const head = html("div", { class: "pp-head" });
  const manche = html("span", { class: "pp-manche" });
  const face = html("span", { class: "pp-face" });
  head.append(manche, face);
  const hats = html("div", { class: "pp-hats", role: "list" });
  const turn = html("p", { class: "pp-turn" });
  const seats = html("table", { class: "pp-seats" });
  root.append(head, hats, turn, seats);
  container.append(root);
  const hands = page.move ? mountHands(root, page) : null;

  const name = (snap, seat) => snap.seats?.[seat] ?? String(seat + 1);
  const tokenName = (kind) => t(`token.${kind}`);
  const count = (n) => t(n === 0 ? "tokens.0" : n === 1 ? "tokens.1" : "tokens.n", { n });

  let hatsDrawn = ""; // what the hats show: drawn anew only when it changes (a tap on a
  // hat must not land on one replaced by the next snapshot, 10 a second in a window)

  function drawHats(b) {
    const key = JSON.stringify([b.positions, b.hats, b.in_flight, b.spot, b.swapped, b.phase, t("hats")]);
    if (key === hatsDrawn) return;
    hatsDrawn = key;
    const rows = Math.max(...b.positions.map((p) => p[0])) + 1;
    const cols = Math.max(...b.positions.map((p) => p[1])) + 1;
    hats.style.gridTemplateColumns = `repeat(${cols}, minmax(0, 1fr))`;
    hats.style.gridTemplateRows = `repeat(${rows}, auto)`;
    hats.setAttribute("aria-label", t("hats"));
    const swapped = b.swapped || [];
    hats.replaceChildren(
      ...b.positions.map(([row, col], i) => {
        const spot = i + 1;
        const n = b.hats[i];
        const flying = b.in_flight === spot;
        const hat = html("div", { class: "pp-hat", role: "listitem" });
        hat.style.gridRow = String(row + 1);
        hat.style.gridColumn = String(col + 1);
        hat.dataset.spot = String(spot);
        hat.dataset.count = String(n);
        hat.classList.toggle("empty", n === 0);
        hat.classList.toggle("designated", b.spot === spot && b.phase !== "reveal");
        hat.classList.toggle("in-flight", flying);
        hat.classList.toggle("swapped", swapped.includes(spot));
        const notes = [count(n)];
        if (flying) notes.push(t("in_flight"));
        if (swapped.includes(spot)) notes.push(t("hat.swapped"));
        hat.setAttribute("aria-label", t("hat.count", { n: spot, count: notes.join(", ") }));
        const number = html("span", { class: "pp-spot", "aria-hidden": "true" }, String(spot));
        const tokens = html("span", { class: "pp-count", "aria-hidden": "true" }, String(n));
        hat.append(number, tokens);
        if (flying) hat.append(html("span", { class: "pp-flying", "aria-hidden": "true" }, "+1"));
        return hat;
      }),
    );
  }

  function turnText(snap, b) {
    const m = name(snap, b.magician);
    if (b.phase === "over" || b.winner !== null) return t("turn.over", { w: name(snap, b.winner) });
    if (b.phase === "window") {
      const calls = b.open_challenges.map((c) => t(`call.${c}`)).join(t("or"));
      const key = b.announced ? "turn.window" : "turn.window.masked";
      return t(key, { m, spot: b.spot, calls, token: b.announced ? tokenName(b.announced) : "" });
    }
    if (b.phase === "reward") return t("turn.reward", { c: name(snap, b.challenger) });
    return t(`turn.${b.phase}`, { m });
  }

  function drawSeats(snap, b) {
    const columns = ["col.seat", "col.hand", ...(b.challenge_tokens ? ["col.challenge"] : []), "col.victories"];
    const header = html("tr");
    for (const key of columns) header.append(html("th", { scope: "col" }, t(key)));
    const body = b.hands.map((hand, seat) => {
      const row = html("tr");
      row.dataset.seat = String(seat);
      const magician = seat === b.magician && b.winner === null;
      const challenger = seat === b.challenger;
      row.classList.toggle("magician", magician);
      row.classList.toggle("challenger", challenger);
      row.classList.toggle("winner", seat === b.winner);
      const who = html("td", { class: "pp-name" }, name(snap, seat));
      if (magician) who.append(html("span", { class: "pp-role" }, t("magician")));
      if (challenger) who.append(html("span", { class: "pp-role" }, t("challenger")));
      const cells = [who, cell("hand", hand, marks(hand, "■"))];
      if (b.challenge_tokens) {
        const c = b.challenge_tokens[seat];
        cells.push(cell("challenge", c, marks(c, "●"))); // as the OLED marks them
      }
      const v = b.victories[seat];
      cells.push(cell("victories", v, "★".repeat(v) + "☆".repeat(Math.max(b.to_win - v, 0))));
      row.append(...cells);
      return row;
    });
    fillTable(seats, header, body);
  }

  function cell(kind, n, text) {
    return countCell(`pp-${kind}`, n, text);
  }

  return {
    update(snap) {
      const b = snap.board;
      root.hidden = !b;
      if (!b) return;
      manche.textContent = t("manche", { n: b.manche, tour: b.tour });
      face.hidden = !b.visible_turns;
      face.dataset.face = b.masque ? "masque" : "visible";
      face.textContent = t(b.masque ? "face.masque" : "face.visible");
      face.title = t("face.label");
      drawHats(b);
      turn.textContent = turnText(snap, b);
      drawSeats(snap, b);
      hands?.update(snap);
    },
  };
}
