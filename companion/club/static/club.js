// The club's page: polls /api/board and draws every table, the standings and the results.
// Each table's card holds its game's own page view, the module the table's page mounts
// (gameview.js), with nobody to act. Text only (textContent): a name a table sends is
// never read as HTML.

import { loadView } from "/static/gameview.js";
import { setLanguage } from "/static/i18n.js";

let seen = -1;
const cards = new Map(); // table name -> {card, title, badge, head, img, status, seats, view}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function row(cells, head) {
  const tr = el("tr");
  for (const cell of cells) tr.append(el(head ? "th" : "td", cell));
  return tr;
}

function cardOf(name) {
  if (!cards.has(name)) {
    const c = { card: el("div", null, "table"), title: el("h3", name + " ") };
    c.card.dataset.table = name;
    c.badge = el("span", null, "badge");
    c.title.append(c.badge);
    c.head = el("div", null, "game-title");
    c.img = el("img");
    c.img.hidden = true;
    c.status = el("p", null, "status");
    c.box = el("div", null, "game-view");
    c.seats = el("ul", null, "seats");
    c.card.append(c.title, c.head, c.img, c.status, c.box, c.seats);
    c.view = null;
    c.loading = null;
    cards.set(name, c);
  }
  return cards.get(name);
}

function drawTable(t, w) {
  const c = cardOf(t.name);
  c.card.className = "table" + (t.online ? "" : " offline");
  c.badge.textContent = t.online ? w.online : w.offline;
  const s = t.state;
  if (!s) {
    c.status.textContent = w.waiting;
    return c.card;
  }
  c.head.textContent = s.title || s.game;
  if (t.frame_no > 0) {
    c.img.hidden = false;
    c.img.alt = s.status || "";
    const src = "/frame/" + encodeURIComponent(t.name) + ".png?v=" + t.frame_no;
    if (c.img.getAttribute("src") !== src) c.img.src = src;
  }
  c.status.textContent = s.status + (s.finished ? " (" + w.finished + ")" : "");
  c.seats.replaceChildren(
    ...(s.seats || []).map((name, i) => {
      const score = s.scores && s.scores[i] !== undefined ? " : " + s.scores[i] : "";
      return el("li", name + score + (s.winner === i ? " ★" : ""));
    }),
  );
  drawView(c, { ...s, you: null });
  return c.card;
}

/** The game's own view in the card: mounted once per game, then updated. */
function drawView(c, snapshot) {
  if (c.view && c.view.game === snapshot.game) {
    c.view.update(snapshot);
    return;
  }
  if (c.loading === snapshot.game) {
    c.pending = snapshot;
    return;
  }
  c.view?.unmount();
  c.view = null;
  c.loading = snapshot.game;
  c.pending = snapshot;
  loadView(c.box, snapshot)
    .then((view) => {
      c.view = view;
      if (view) view.update(c.pending);
    })
    .catch(() => {
      c.box.replaceChildren(); // the status line and the OLED still say it all
    })
    .finally(() => {
      c.loading = null;
    });
}

function draw(board) {
  const w = board.words;
  document.getElementById("h-tables").textContent = w.tables;
  document.getElementById("h-standings").textContent = w.standings;
  document.getElementById("h-results").textContent = w.results;
  document.getElementById("csv-standings").textContent = w.csv_standings;
  document.getElementById("csv-results").textContent = w.csv_results;
  const tables = document.getElementById("tables");
  tables.replaceChildren(...board.tables.map((t) => drawTable(t, w)));
  if (!board.tables.length) tables.append(el("p", w.no_tables));
  const standings = document.getElementById("standings");
  standings.replaceChildren(row([w.player, w.played, w.wins, w.points], true));
  for (const s of board.standings) {
    const points = Object.entries(s.points).map(([g, p]) => g + " " + p).join(", ");
    standings.append(row([s.name, s.played, s.wins, points]));
  }
  const results = document.getElementById("results");
  results.replaceChildren(row([w.table, w.game, w.scores, w.winner, w.duration], true));
  for (const r of board.results.slice().reverse()) {
    const scores = r.seats.map((n, i) => n + " " + (r.scores[i] ?? "")).join(", ");
    const winner = r.winner === null ? w.none : r.seats[r.winner];
    const minutes = Math.round(r.duration / 60) + " min";
    results.append(row([r.table, r.title || r.game, scores, winner, minutes]));
  }
  if (!board.results.length) results.append(row([w.no_results]));
}

async function poll() {
  try {
    const answer = await fetch("/api/board", { cache: "no-store" });
    if (answer.ok) {
      const board = await answer.json();
      if (board.version !== seen) {
        seen = board.version;
        draw(board);
      }
    }
  } catch (e) {
    // the club's machine is restarting: the next poll tries again
  }
  setTimeout(poll, 1000);
}

setLanguage(document.documentElement.lang);
poll();
