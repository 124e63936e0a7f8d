// Flip Done on the table's page: the game's page view (docs/games.md, "The game's page
// view"), loaded from /games/flipdone/view.js. It draws the mat from the snapshot's `board`
// (companion/games/flipdone/page.py, public facts only): the 3 x 3 grid with each
// element's face-up card in its colour (FD-1), the face-down cards, the flipped marks, the
// eight lines' "bâtonnets" in their owner's colour (FD-4, FD-5), and each seat's tokens,
// tokens gained this manche, cards in hand and manches won. At a real table it acts for no
// one (Flip Done is played with cards on the mat); on the virtual table a paired seat's
// hands play below the mat (hands.js).

import { countCell, fillTable, html, svg as el } from "/static/draw.js";
import { handWords, mountHands } from "./hands.js";

const SEAT_COLOURS = ["#c99a00", "#1f5fd1", "#1f9d3a"]; // one bâtonnet colour per seat
const SUITS = { H: "♥", D: "♦", S: "♠", C: "♣" };
const RED = new Set(["H", "D"]);

// The mat's geometry, in SVG units: three columns and rows of cards, the columns'
// bâtonnets above, the rows' on the left, the diagonals' in the top corners.
const OX = 34; // the grid's top-left corner
const OY = 34;
const CW = 84; // a cell
const CH = 108;
const CARD_W = 68;
const CARD_H = 96;
const WIDTH = OX + 3 * CW + 10;
const HEIGHT = OY + 3 * CH + 6;

const viewWords = {
  fr: {
    "mat": "Le tapis",
    "square": "Case {n}",
    "square.empty": "Case {n} : pas encore de carte",
    "square.down": "Case {n} : carte face cachée",
    "square.up": "Case {n} : {card}, {colour}",
    "square.flipped": "retournée",
    "line": "{line} : {owner}",
    "line.free": "libre",
    "red": "rouge",
    "black": "noire",
    "rank.J": "V",
    "rank.Q": "D",
    "rank.K": "R",
    "where": "Manche {manche}/{manches} · phase {phase}/{phases}",
    "where.extra": "Manche {manche}/{manches} · phase de départage {phase}",
    "where.overtime": "Départage de la partie · phase {phase}",
    "stock": "Pioche : {deck} · défausse : {discards}",
    "pending": "Carte à placer : {card}",
    "turn.deal": "Distribution des cartes",
    "turn.place_first": "{s} choisit la case de la première carte",
    "turn.play": "À {s} de jouer",
    "turn.over": "Partie terminée",
    "col.seat": "Joueur",
    "col.tokens": "Jetons",
    "col.gained": "Manche",
    "col.hand": "En main",
    "col.manches": "Manches",
    "line.column": "colonne {n}",
    "line.row": "rangée {n}",
    "line.diagonal": "diagonale {squares}",
  },
  en: {
    "mat": "The mat",
    "square": "Spot {n}",
    "square.empty": "Spot {n}: no card yet",
    "square.down": "Spot {n}: a face-down card",
    "square.up": "Spot {n}: {card}, {colour}",
    "square.flipped": "flipped",
    "line": "{line}: {owner}",
    "line.free": "free",
    "red": "red",
    "black": "black",
    "rank.J": "J",
    "rank.Q": "Q",
    "rank.K": "K",
    "where": "Round {manche}/{manches} · phase {phase}/{phases}",
    "where.extra": "Round {manche}/{manches} · tie-break phase {phase}",
    "where.overtime": "Game tie-break · phase {phase}",
    "stock": "Deck: {deck} · discards: {discards}",
    "pending": "Card to place: {card}",
    "turn.deal": "Dealing the cards",
    "turn.place_first": "{s} chooses the first card's spot",
    "turn.play": "{s} to play",
    "turn.over": "Game over",
    "col.seat": "Player",
    "col.tokens": "Tokens",
    "col.gained": "Round",
    "col.hand": "In hand",
    "col.manches": "Rounds",
    "line.column": "column {n}",
    "line.row": "row {n}",
    "line.diagonal": "diagonal {squares}",
  },
};

export const words = {
  fr: { ...viewWords.fr, ...handWords.fr },
  en: { ...viewWords.en, ...handWords.en },
};

/** Where a square's card lies: its top-left corner. */
function cardAt(square) {
  const row = Math.floor((square - 1) / 3);
  const col = (square - 1) % 3;
  return [OX + col * CW + (CW - CARD_W) / 2, OY + row * CH + (CH - CARD_H) / 2];
}

/** Where a line's bâtonnet lies: [x1, y1, x2, y2]. */
function batonAt(squares) {
  const [a, b] = squares;
  if (b - a === 1) { // a row: on its left
    const row = Math.floor((a - 1) / 3);
    return [OX - 18, OY + row * CH + 14, OX - 18, OY + (row + 1) * CH - 14];
  }
  if (b - a === 3) { // a column: above it
    const col = (a - 1) % 3;
    return [OX + col * CW + 12, OY - 18, OX + (col + 1) * CW - 12, OY - 18];
  }
  if (a === 1) return [6, 6, OX - 6, OY - 6]; // 1-5-9 falls like "\": the top-left corner
  return [WIDTH - 6, 6, WIDTH - (OX - 6), OY - 6]; // 3-5-7 rises like "/": the top-right
}

export function mount(container, page) {
  const t = page.t;
  const root = html("div", { class: "fd" });
  const where = html("p", { class: "fd-where" });
  const svg = el("svg", { class: "fd-mat", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img" });
  const turn = html("p", { class: "fd-turn" });
  const stock = html("p", { class: "fd-stock help" });
  const seats = html("table", { class: "fd-seats" });
  root.append(where, svg, turn, stock, seats);
  container.append(root);

  const name = (snap, seat) => snap.seats?.[seat] ?? String(seat + 1);
  const rank = (card) => {
    const r = card.slice(0, -1);
    return ["J", "Q", "K"].includes(r) ? t(`rank.${r}`) : r;
  };
  const cardText = (card) => `${rank(card)}${SUITS[card.slice(-1)]}`;
  const isRed = (card) => RED.has(card.slice(-1));
  const hands = page.move ? mountHands(root, page, cardText) : null;

  function lineName(line) {
    const [a, b] = line.squares;
    if (b - a === 1) return t("line.row", { n: Math.floor((a - 1) / 3) + 1 });
    if (b - a === 3) return t("line.column", { n: ((a - 1) % 3) + 1 });
    return t("line.diagonal", { squares: line.squares.join("-") });
  }

  let matDrawn = ""; // what the mat shows: drawn anew only when it changes (a tap on a
  // square must not land on one the next snapshot replaced)

  function drawMat(snap, b) {
    const key = JSON.stringify([b.faces, b.dealt, b.flipped, b.lines, snap.seats, t("mat")]);
    if (key === matDrawn) return;
    matDrawn = key;
    svg.replaceChildren();
    svg.setAttribute("aria-label", t("mat"));
    el("rect", { class: "fd-cloth", x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 10 }, svg);
    b.lines.forEach((line, i) => {
      const [x1, y1, x2, y2] = batonAt(line.squares);
      const owned = line.owner !== null && line.owner !== undefined;
      const baton = el("line", { class: owned ? "fd-baton owned" : "fd-baton", x1, y1, x2, y2 }, svg);
      baton.dataset.line = String(i);
      if (owned) {
        baton.dataset.owner = String(line.owner);
        baton.style.stroke = SEAT_COLOURS[line.owner % SEAT_COLOURS.length];
      }
      const owner = owned ? name(snap, line.owner) : t("line.free");
      el("title", {}, baton).textContent = t("line", { line: lineName(line), owner });
    });
    for (let square = 1; square <= 9; square++) drawSquare(b, square);
  }

  function drawSquare(b, square) {
    const [x, y] = cardAt(square);
    const face = b.faces[square - 1];
    const g = el("g", { class: "fd-square" }, svg);
    g.dataset.square = String(square);
    let label;
    if (face) {
      el("rect", { class: "fd-back", x: x + 4, y: y + 4, width: CARD_W, height: CARD_H, rx: 6 }, g);
      const red = isRed(face);
      g.dataset.face = face;
      g.dataset.colour = red ? "red" : "black";
      el("rect", { class: "fd-card", x, y, width: CARD_W, height: CARD_H, rx: 6 }, g);
      const text = el("text", { class: "fd-rank", x: x + CARD_W / 2, y: y + CARD_H / 2 + 10 }, g);
      text.textContent = cardText(face);
      label = t("square.up", { n: square, card: cardText(face), colour: t(red ? "red" : "black") });
    } else if (b.dealt[square - 1]) {
      g.dataset.face = "down";
      el("rect", { class: "fd-back", x, y, width: CARD_W, height: CARD_H, rx: 6 }, g);
      label = t("square.down", { n: square });
    } else {
      g.dataset.face = "none";
      el("rect", { class: "fd-slot", x, y, width: CARD_W, height: CARD_H, rx: 6 }, g);
      label = t("square.empty", { n: square });
    }
    const number = el("text", { class: "fd-number", x: x + 6, y: y + 15 }, g);
    number.textContent = String(square);
    if (b.flipped[square - 1]) {
      g.dataset.flipped = "true";
      el("circle", { class: "fd-flip", cx: x + CARD_W - 10, cy: y + 10, r: 8 }, g);
      label += `, ${t("square.flipped")}`;
    }
    el("title", {}, g).textContent = label;
  }

  function whereText(b) {
    if (b.overtime) return t("where.overtime", { phase: b.phase });
    return t(b.extra ? "where.extra" : "where", b);
  }

  function turnText(snap, b) {
    if (b.stage === "over") {
      const names = b.winners.map((w) => name(snap, w)).join(", ");
      return [t("turn.over"), names && t(b.winners.length > 1 ? "winners" : "winner", { names })]
        .filter(Boolean)
        .join(" · ");
    }
    return t(`turn.${b.stage}`, { s: name(snap, b.turn) });
  }

  function drawSeats(snap, b) {
    const header = html("tr");
    for (const key of ["col.seat", "col.tokens", "col.gained", "col.hand", "col.manches"]) {
      header.append(html("th", { scope: "col" }, t(key)));
    }
    const rows = b.tokens.map((tokens, seat) => {
      const row = html("tr");
      row.dataset.seat = String(seat);
      row.classList.toggle("turn", b.stage !== "over" && seat === b.turn);
      row.classList.toggle("winner", b.stage === "over" && b.winners.includes(seat));
      const who = html("td", { class: "fd-name" });
      const chip = html("span", { class: "fd-chip", "aria-hidden": "true" });
      chip.style.background = SEAT_COLOURS[seat % SEAT_COLOURS.length];
      who.append(chip, document.createTextNode(name(snap, seat)));
      const gained = b.gained[seat];
      row.append(
        who,
        cell("tokens", tokens, String(tokens)),
        cell("gained", gained, gained > 0 ? `+${gained}` : String(gained)),
        cell("hand", b.hands[seat], String(b.hands[seat])),
        cell("manches", b.manche_wins[seat], String(b.manche_wins[seat])),
      );
      return row;
    });
    fillTable(seats, header, rows);
  }

  function cell(kind, n, text) {
    return countCell(`fd-${kind}`, n, text);
  }

  return {
    update(snap) {
      const b = snap.board;
      root.hidden = !b;
      if (!b) return;
      where.textContent = whereText(b);
      drawMat(snap, b);
      turn.textContent = turnText(snap, b);
      const parts = [t("stock", b)];
      if (b.pending) parts.push(t("pending", { card: cardText(b.pending) }));
      stock.textContent = parts.join(" · ");
      drawSeats(snap, b);
      hands?.update(snap);
    },
  };
}
