// "Vous ne passerez pas !" on the table's page: the game's page view (docs/games.md,
// "The game's page view"), which the page imports from /games/vnp/view.js. An SVG board
// drawn from the snapshot's `board` (the referee's `board_view()`), plus, on this phone's
// turn, the tray of pieces and the picking / turning / flipping / placing of a ghost
// piece. The board names placements by id; the board size's placement table (the page
// data `placements-SIZE`, fetched once) gives each id's piece and segments. Everything
// about orientations is computed here, client-side; the server only ever receives
// segments [x1, y1, x2, y2] (intersections, y downwards).

import { html, svg as el } from "/static/draw.js";

const HEX = { jaune: "#d4a900", bleu: "#1f5fd1", rouge: "#d12a2a", vert: "#1f9d3a" };
const MARGIN = 0.7; // board margin around the outer intersections, in intersection units

// ------------------------------------------------------------------ shape geometry

/** A segment with its smaller endpoint first, so equal segments compare equal. */
function orderSeg([x1, y1, x2, y2]) {
  return x1 < x2 || (x1 === x2 && y1 <= y2) ? [x1, y1, x2, y2] : [x2, y2, x1, y1];
}

function sortSegs(segs) {
  return segs.map(orderSeg).sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]);
}

function segsKey(segs) {
  return sortSegs(segs).map((s) => s.join(",")).join(";");
}

/** Shift so min x = min y = 0; returns the shape (sorted) and the shift undone. */
function normalise(segs) {
  const xs = segs.flatMap((s) => [s[0], s[2]]);
  const ys = segs.flatMap((s) => [s[1], s[3]]);
  const dx = Math.min(...xs);
  const dy = Math.min(...ys);
  return { segs: sortSegs(segs.map(([a, b, c, d]) => [a - dx, b - dy, c - dx, d - dy])), dx, dy };
}

const mapPoints = (segs, f) => segs.map(([a, b, c, d]) => [...f(a, b), ...f(c, d)]);
// A quarter turn clockwise on screen (y points down), and a left-right mirror.
const rotate = (segs) => normalise(mapPoints(segs, (x, y) => [-y, x])).segs;
const mirror = (segs) => normalise(mapPoints(segs, (x, y) => [-x, y])).segs;
const translate = (segs, dx, dy) => segs.map(([a, b, c, d]) => [a + dx, b + dy, c + dx, d + dy]);
const extent = (segs) => [Math.max(...segs.flatMap((s) => [s[0], s[2]])), Math.max(...segs.flatMap((s) => [s[1], s[3]]))];

/** A board size's placements (page data `placements-SIZE`): an id's piece and segments.
 * Blocks of consecutive ids are one piece in one orientation at every position:
 * [first id, piece, columns, segments at (0, 0)]; id first + k lies k % columns right
 * and floor(k / columns) down. */
class Placements {
  constructor(table) {
    this.count = table.count;
    this.blocks = table.blocks;
    this.known = new Map();
  }

  /** {pid, piece, segs} of an id, or null for an id the board has not. */
  get(pid) {
    const known = this.known.get(pid);
    if (known) return known;
    if (!Number.isInteger(pid) || pid < 0 || pid >= this.count) return null;
    const blocks = this.blocks;
    let lo = 0;
    let hi = blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (blocks[mid][0] <= pid) lo = mid;
      else hi = mid - 1;
    }
    const [first, piece, columns, shape] = blocks[lo];
    const k = pid - first;
    const placement = { pid, piece, segs: translate(shape, k % columns, Math.floor(k / columns)) };
    this.known.set(pid, placement);
    return placement;
  }
}

function pathOf(segs) {
  return segs.map(([a, b, c, d]) => `M${a} ${b}L${c} ${d}`).join("");
}

function colourChip(colour) {
  return html("span", { class: `chip c-${colour}`, "aria-hidden": "true" });
}

// ------------------------------------------------------------------ the view

/** The view's phrases (page.t finds them, else the page's own). */
export const words = {
  fr: {
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
  },
  en: {
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
  },
};

// The view's fixed markup (no data in it: what comes from the snapshot is set as text).
// data-w names the phrase of an element's text, data-w-label of its aria-label.
const MARKUP = `
  <svg id="board" class="board" xmlns="http://www.w3.org/2000/svg" tabindex="0"
       role="application" data-w-label="board.label"></svg>
  <p id="turn" class="turn"></p>
  <div id="play" class="play" hidden>
    <p id="board-help" class="help"></p>
    <div id="tray" class="tray" role="group" data-w-label="tray"></div>
    <div class="actions">
      <button id="rotate" type="button" data-w="rotate"></button>
      <button id="flip" type="button" data-w="flip"></button>
      <button id="confirm" type="button" class="primary" data-w="confirm"></button>
    </div>
    <div class="actions">
      <button id="pass" type="button" class="secondary" data-w="pass"></button>
      <button id="hint" type="button" class="secondary" data-w="hint"></button>
    </div>
  </div>
  <div class="actions">
    <button id="back" type="button" class="secondary" data-w="back" hidden></button>
  </div>
  <table id="vnp-scores" class="vnp-scores"></table>
  <table id="side-scores" class="vnp-scores" hidden></table>`;

/** The page view's entry point (gameview.js): the board in `container`. */
export function mount(container, page) {
  const board = new VnpBoard(container, page);
  return { update: (snap) => board.update(snap) };
}

class VnpBoard {
  constructor(container, page) {
    this.page = page;
    this.t = page.t;
    this.root = html("div", { class: "vnp" });
    this.root.innerHTML = MARKUP;
    container.append(this.root);
    this.$ = (id) => this.root.querySelector(`#${id}`);
    this.svg = this.$("board");
    this.language = null; // the language the labels are in
    this.pieces = null; // name -> canonical segments, from page.data("pieces")
    this.placements = new Map(); // board size -> its Placements, from page.data
    this.asking = new Set(); // the page data on its way
    this.board = null;
    this.mine = false; // this phone plays the colour to move
    this.picked = null; // piece name
    this.shape = null; // its current orientation (normalised, sorted segments)
    this.ghost = null; // {segs, legal, pid, tap:[x, y]}
    this.lastHint = "";
    this.size = 0;
    this.svg.addEventListener("click", (e) => this.onTap(e));
    this.svg.addEventListener("keydown", (e) => this.onKey(e));
    this.$("tray").addEventListener("click", (e) => {
      const button = e.target.closest(".tray-piece");
      if (button) this.pick(button.dataset.piece);
    });
    const on = (id, f) => this.$(id).addEventListener("click", f);
    on("rotate", () => this.turnShape(rotate));
    on("flip", () => this.turnShape(mirror));
    on("confirm", () => this.confirm());
    on("pass", () => this.board?.turn && this.act("pass", { colour: this.board.turn }));
    on("hint", () => this.act("hint"));
    on("back", () => this.act("back"));
  }

  /** Send a control (page.act); false where nobody acts (the replay). */
  act(control, value) {
    return this.page.act ? this.page.act(control, value) : Promise.resolve(false);
  }

  colourName(colour) {
    return this.t(`colour.${colour}`);
  }

  /** The fixed markup's words, in the table's language. */
  label() {
    for (const node of this.root.querySelectorAll("[data-w]")) node.textContent = this.t(node.dataset.w);
    for (const node of this.root.querySelectorAll("[data-w-label]")) {
      node.setAttribute("aria-label", this.t(node.dataset.wLabel));
    }
  }

  /** The 24 pieces' shapes and the board size's placements, each asked once (again
   * after a failure, with the next snapshot); true once both are in. */
  askData(size) {
    if (!this.pieces) {
      this.ask("pieces", (data) => {
        this.pieces = new Map(data.pieces.map((p) => [p.name, normalise(p.segments).segs]));
      });
    }
    if (!this.placements.has(size)) {
      this.ask(`placements-${size}`, (table) => this.placements.set(size, new Placements(table)));
    }
    return Boolean(this.pieces && this.placements.has(size));
  }

  ask(name, keep) {
    if (this.asking.has(name)) return;
    this.asking.add(name);
    this.page
      .data(name)
      .then((data) => {
        keep(data);
        if (this.snap) this.update(this.snap);
      })
      .catch(() => this.page.message(this.t("net.error")))
      .finally(() => this.asking.delete(name));
  }

  /** {pid, piece, segs} of a placement id of the board drawn. */
  placement(pid) {
    return this.placements.get(this.size).get(pid);
  }

  /** A new snapshot: the board drawn when it has one. */
  update(snap) {
    this.snap = snap;
    if (snap.language !== this.language) {
      this.language = snap.language;
      this.label();
    }
    this.root.hidden = !snap.board;
    if (!snap.board || !this.askData(snap.board.size)) return;
    const b = (this.board = snap.board);
    const you = snap.you;
    this.mine = Boolean(this.page.act && you && !b.over && b.turn && b.seat === you.seat);
    this.turnIndex = b.colours.indexOf(b.turn);
    if (b.size !== this.size) this.build(b.size);
    this.indexLegal(b.legal || []);
    const left = this.mine ? b.left[this.turnIndex] : [];
    if (!this.mine || !left.includes(this.picked)) this.clearPick();
    this.followHint();
    if (this.ghost) this.ghost = this.judge(this.ghost.segs, this.ghost.tap);
    this.draw();
    this.drawPanel(snap);
  }

  /** The legal placements by orientation (piece + normalised shape) and by exact segments. */
  indexLegal(legal) {
    this.byShape = new Map();
    this.bySegs = new Map();
    for (const id of legal) {
      const found = this.placement(id);
      if (!found) continue;
      const { pid, piece, segs } = found;
      const n = normalise(segs);
      const entry = {
        pid,
        segs,
        anchor: [n.dx + n.segs[0][0], n.dy + n.segs[0][1]], // where the shape's first point lands
        points: new Set(segs.flatMap((s) => [`${s[0]},${s[1]}`, `${s[2]},${s[3]}`])),
      };
      const key = `${piece}:${segsKey(n.segs)}`;
      if (!this.byShape.has(key)) this.byShape.set(key, []);
      this.byShape.get(key).push(entry);
      this.bySegs.set(`${piece}:${segsKey(segs)}`, entry);
    }
  }

  /** The legal positions of the picked piece in its current orientation. */
  positions() {
    if (!this.picked) return [];
    return this.byShape.get(`${this.picked}:${segsKey(this.shape)}`) || [];
  }

  judge(segs, tap) {
    const entry = this.bySegs.get(`${this.picked}:${segsKey(segs)}`);
    return { segs, tap, legal: Boolean(entry), pid: entry ? entry.pid : null };
  }

  // ---------------------------------------------------------------- drawing

  /** The fixed part, once per board size: grid, start rings, layers, tap targets. */
  build(size) {
    this.size = size;
    const span = size - 1 + 2 * MARGIN;
    this.svg.replaceChildren();
    this.svg.setAttribute("viewBox", `${-MARGIN} ${-MARGIN} ${span} ${span}`);
    el("rect", { class: "board-bg", x: -MARGIN, y: -MARGIN, width: span, height: span, rx: 0.3 }, this.svg);
    const grid = el("g", { class: "grid" }, this.svg);
    for (let i = 0; i < size; i++) {
      el("line", { x1: 0, y1: i, x2: size - 1, y2: i }, grid);
      el("line", { x1: i, y1: 0, x2: i, y2: size - 1 }, grid);
    }
    this.startLayer = el("g", { class: "starts" }, this.svg);
    this.pieceLayer = el("g", { class: "pieces" }, this.svg);
    this.overLayer = el("g", { class: "overlay" }, this.svg);
    // The tap targets come last so nothing drawn covers them.
    const points = el("g", { class: "points" }, this.svg);
    this.points = new Map();
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const c = el("circle", { class: "point", cx: x, cy: y, r: 0.46, fill: "transparent" }, points);
        c.dataset.x = x;
        c.dataset.y = y;
        this.points.set(`${x},${y}`, c);
      }
    }
  }

  draw() {
    const b = this.board;
    this.startLayer.replaceChildren();
    b.starts.forEach(([x, y], i) => {
      el("circle", { class: "start", cx: x, cy: y, r: 0.3, stroke: HEX[b.colours[i]] }, this.startLayer);
    });
    this.pieceLayer.replaceChildren();
    b.placed.forEach((list, i) => {
      const colour = b.colours[i];
      for (const pid of list) {
        const p = this.placement(pid);
        if (!p) continue;
        const g = el("g", { class: "placed" }, this.pieceLayer);
        g.dataset.colour = colour;
        g.dataset.piece = p.piece;
        const d = pathOf(p.segs);
        if (b.last && b.last.colour === colour && b.last.placement === pid) {
          g.classList.add("last");
          el("path", { class: "last-outline", d }, g);
        }
        el("path", { class: "stick", d, stroke: HEX[colour] }, g);
      }
    });
    this.overLayer.replaceChildren();
    const hinted = b.hint && this.placement(b.hint.placement);
    if (hinted) {
      const g = el("g", { class: "hint" }, this.overLayer);
      el("path", { class: "hint-stick", d: pathOf(hinted.segs), stroke: HEX[b.hint.colour] }, g);
    }
    // Legal positions: the tap target at each position's anchor gets class "legal" (so a
    // tap there places the piece there); a small dot under it makes it visible.
    for (const c of this.points.values()) c.classList.remove("legal");
    for (const pos of this.positions()) {
      const [x, y] = pos.anchor;
      el("circle", { class: "legal-dot", cx: x, cy: y, r: 0.17, fill: HEX[b.turn] }, this.overLayer);
      this.points.get(`${x},${y}`)?.classList.add("legal");
    }
    if (this.ghost) {
      const g = el("g", { class: this.ghost.legal ? "ghost" : "ghost illegal" }, this.overLayer);
      const d = pathOf(this.ghost.segs);
      el("path", { class: "ghost-outline", d }, g);
      el("path", { class: "ghost-stick", d, stroke: this.ghost.legal ? HEX[b.turn] : "#ff1f1f" }, g);
    }
  }

  /** Turn line, the tray and the buttons, the score tables. */
  drawPanel(snap) {
    const b = this.board;
    const turn = this.$("turn");
    turn.replaceChildren();
    if (b.over) {
      turn.textContent = this.t("turn.over");
    } else if (b.turn) {
      const name = snap.seats[b.seat] ?? "";
      turn.append(colourChip(b.turn), this.t(this.mine ? "turn.yours" : "turn", { colour: this.colourName(b.turn), name }));
    }
    turn.classList.toggle("mine", this.mine);
    const has = (c) => !Array.isArray(snap.controls) || snap.controls.includes(c);
    this.$("play").hidden = !this.mine;
    this.$("pass").hidden = !has("pass");
    this.$("hint").hidden = !has("hint");
    this.$("back").hidden = !(snap.you && has("back"));
    if (this.mine) this.drawTray();
    this.drawScores(snap);
  }

  drawTray() {
    const b = this.board;
    const colour = b.turn;
    const tray = this.$("tray");
    tray.replaceChildren();
    for (const name of b.left[this.turnIndex]) {
      const picked = name === this.picked;
      const segs = picked ? this.shape : this.pieces.get(name);
      if (!segs) continue;
      const button = html("button", { type: "button", class: "tray-piece", "aria-label": name });
      button.dataset.piece = name;
      button.setAttribute("aria-pressed", String(picked));
      if (picked) button.classList.add("picked");
      // Same scale for every piece (a 5 x 5 box), centred, so sizes compare at a glance.
      const [w, h] = extent(segs);
      const svg = el("svg", { viewBox: "-0.5 -0.5 5 5", "aria-hidden": "true" }, button);
      const g = el("g", { transform: `translate(${(4 - w) / 2} ${(4 - h) / 2})` }, svg);
      el("path", { class: "stick", d: pathOf(segs), stroke: HEX[colour] }, g);
      tray.append(button);
    }
    const n = this.positions().length;
    let help = this.t("help.pick");
    const h = b.hint;
    if (h && h.colour === colour && !h.piece) help = this.t("help.mustPass"); // a hint to pass (VNP-5)
    else if (this.ghost) help = this.t(this.ghost.legal ? "help.legal" : "help.illegal");
    else if (this.picked) help = n ? this.t("help.tap", { n }) : this.t("help.none");
    this.$("board-help").textContent = help;
    this.$("rotate").disabled = !this.picked;
    this.$("flip").disabled = !this.picked;
    this.$("confirm").disabled = !this.ghost;
  }

  drawScores(snap) {
    const b = this.board;
    const four = b.mode === "four";
    const table = this.$("vnp-scores");
    table.replaceChildren();
    const head = table.createTHead().insertRow();
    for (const k of ["col.colour", "col.left", "col.score"]) head.append(html("th", { scope: "col" }, this.t(k)));
    const body = table.createTBody();
    b.colours.forEach((colour, i) => {
      const row = body.insertRow();
      row.dataset.colour = colour;
      if (four && b.over && b.winners.includes(i)) row.classList.add("winner");
      if (colour === b.turn) row.classList.add("to-play");
      const name = snap.seats[b.colour_seats[i]] ?? "";
      const who = row.insertCell();
      who.append(colourChip(colour), `${this.colourName(colour)} (${name})`);
      if (b.passed[i]) who.append(html("span", { class: "note" }, ` · ${this.t("passed")}`));
      row.insertCell().textContent = String(b.left[i].length);
      const score = b.scores[i];
      // VNP-6: a colour that placed every piece scores the -10 bonus.
      row.insertCell().textContent = b.left[i].length ? String(score) : this.t("bonus", { score });
    });
    const sides = this.$("side-scores");
    sides.hidden = four;
    sides.replaceChildren();
    if (four) return;
    const shead = sides.createTHead().insertRow();
    for (const k of ["col.side", "col.score"]) shead.append(html("th", { scope: "col" }, this.t(k)));
    const sbody = sides.createTBody();
    b.sides.forEach((name, i) => {
      const row = sbody.insertRow();
      const win = b.over && b.winners.includes(i);
      if (win) row.classList.add("winner");
      row.insertCell().textContent = win ? `${name} · ${this.t("winner.mark")}` : name;
      row.insertCell().textContent = String(b.side_scores[i]);
    });
  }

  // ---------------------------------------------------------------- interaction

  clearPick() {
    this.picked = null;
    this.shape = null;
    this.ghost = null;
  }

  pick(name) {
    if (!this.mine) return;
    if (this.picked === name) return;
    this.picked = name;
    this.shape = this.pieces.get(name);
    this.ghost = null;
    this.refresh();
  }

  refresh() {
    this.draw();
    this.drawTray();
  }

  /** Rotate or mirror the picked piece; a ghost on the board turns where it was. */
  turnShape(f) {
    if (!this.picked) return;
    this.shape = f(this.shape);
    if (this.ghost) this.placeAt(...this.ghost.tap, false);
    else this.refresh();
  }

  onTap(event) {
    const c = event.target.closest("circle.point");
    if (!c || !this.mine || !this.picked) return;
    this.placeAt(Number(c.dataset.x), Number(c.dataset.y), true);
  }

  /** Put the ghost at a tapped intersection: a legal position of this orientation
   * containing it if any (its anchor first; tapping again cycles), else the shape's
   * first point on it, shifted back inside the board. */
  placeAt(x, y, cycle) {
    const here = `${x},${y}`;
    const found = this.positions().filter((p) => p.points.has(here));
    found.sort((a, b) => (b.anchor.join() === here) - (a.anchor.join() === here));
    if (found.length) {
      let i = 0;
      const g = this.ghost;
      if (cycle && g && g.tap.join() === here) i = (found.findIndex((p) => p.pid === g.pid) + 1) % found.length;
      this.ghost = this.judge(found[i].segs, [x, y]);
    } else {
      const [fx, fy] = this.shape[0];
      const [w, h] = extent(this.shape);
      const max = this.size - 1;
      const dx = Math.min(Math.max(x - fx, 0), max - w);
      const dy = Math.min(Math.max(y - fy, 0), max - h);
      this.ghost = this.judge(translate(this.shape, dx, dy), [x, y]);
    }
    this.refresh();
  }

  /** Keyboard: arrows move the ghost, r turns, f flips, Enter confirms. */
  onKey(event) {
    if (!this.mine || !this.picked) return;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (event.key in moves) {
      const [mx, my] = moves[event.key];
      const [x, y] = this.ghost ? this.ghost.tap : this.board.starts[this.turnIndex];
      const max = this.size - 1;
      this.placeAt(Math.min(Math.max(x + mx, 0), max), Math.min(Math.max(y + my, 0), max), false);
    } else if (event.key === "r") this.turnShape(rotate);
    else if (event.key === "f") this.turnShape(mirror);
    else if (event.key === "Enter") this.confirm();
    else return;
    event.preventDefault();
  }

  async confirm() {
    if (!this.ghost || !this.board.turn) return;
    // Sent even when not legal: the referee then refuses it with the ruling (wanted).
    const ok = await this.act("place", { colour: this.board.turn, segments: this.ghost.segs });
    if (ok) {
      this.clearPick();
      if (this.snap) this.update(this.snap);
    }
  }

  /** When a hint for this phone's colour arrives, pick that piece and put it there. */
  followHint() {
    const h = this.board.hint;
    const key = h ? `${h.colour}:${h.placement}` : "";
    if (key === this.lastHint) return;
    this.lastHint = key;
    const hinted = h && this.placement(h.placement);
    if (!hinted || !this.mine || h.colour !== this.board.turn) return;
    if (!this.board.left[this.turnIndex].includes(hinted.piece)) return;
    this.picked = hinted.piece;
    this.shape = normalise(hinted.segs).segs;
    const s = sortSegs(hinted.segs)[0];
    this.ghost = this.judge(hinted.segs, [s[0], s[1]]);
  }
}
