// The club's page: polls /api/board and draws every table, the standings and the results.
// Each table's card holds its game's own page view, the module the table's page mounts
// (gameview.js), with nobody to act. Text only (textContent): a name a table sends is
// never read as HTML. One table is trusted with its own card only: a card that fails to
// draw says so, and the other cards, the standings and the results are drawn all the same.
// The poll sends the ETag of the board it has: an unchanged board is answered 304, empty.
// Every word is the board's language: a table's status line in it (each table says its
// status in every language it speaks), else only what the board tells from the state.

import { loadView } from "/static/gameview.js";
import { setLanguage } from "/static/i18n.js";

let etag = null;
const lang = document.documentElement.lang;
const cards = new Map(); // table name -> {card, its parts' elements, view, loading}

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
    c.refused = el("p", null, "refused");
    c.links = el("p", null, "links");
    c.card.append(c.title, c.head, c.img, c.status, c.box, c.seats, c.links, c.refused);
    c.view = null;
    c.loading = null;
    cards.set(name, c);
  }
  return cards.get(name);
}

function drawTable(t, w, linked) {
  const c = cardOf(t.name);
  // Cut off from the broker, the board cannot tell whether a table is online.
  c.card.className = "table" + (linked ? (t.online ? "" : " offline") : " unknown");
  c.badge.textContent = linked ? (t.online ? w.online : w.offline) : w.unknown;
  c.refused.textContent = t.refused
    ? w.refused + " " + t.refused + " (" + (w["why_" + t.last_refused] || t.last_refused) + ")"
    : "";
  drawLinks(c, t, w);
  try {
    drawState(c, t, w);
  } catch (e) {
    c.status.textContent = w.broken; // this card alone
  }
  return c.card;
}

/** The table's page and its replays, while the table is online (the board built each
 * address from the table's "HOST:PORT": never a scheme or a path a table chose). */
function drawLinks(c, t, w) {
  const links = [];
  for (const key of ["page", "replay"]) {
    if (t.online && typeof t[key] === "string" && t[key].startsWith("http://")) {
      const a = el("a", w[key], key);
      a.href = t[key];
      a.rel = "noopener noreferrer";
      links.push(a);
    }
  }
  c.links.replaceChildren(...links.flatMap((a, i) => (i ? [" · ", a] : [a])));
}

/** The status line in the board's language; a table that does not say it in that language
 * gets what its state tells ("game over"), never a sentence of another language. */
function statusOf(s, w) {
  const said = s.statuses && s.statuses[lang];
  if (typeof said === "string") return said;
  if (s.language === lang && typeof s.status === "string") return s.status;
  return s.finished ? w.finished : "";
}

function drawState(c, t, w) {
  const s = t.state;
  if (!s) {
    c.head.textContent = "";
    c.seats.replaceChildren();
    c.status.textContent = t.problem ? w["state_" + t.problem] || w.waiting : w.waiting;
    return;
  }
  c.head.textContent = s.title || s.game;
  const status = statusOf(s, w);
  if (t.frame_no > 0) {
    c.img.hidden = false;
    c.img.alt = status;
    const src = "/frame/" + encodeURIComponent(t.name) + ".png?v=" + t.frame_no;
    if (c.img.getAttribute("src") !== src) c.img.src = src;
  }
  c.status.textContent = status;
  c.seats.replaceChildren(
    ...s.seats.map((name, i) => {
      const score = s.scores[i] !== undefined ? " : " + s.scores[i] : "";
      return el("li", name + score + (s.winner === i ? " ★" : ""));
    }),
  );
  drawView(c, { ...s, you: null }, w);
}

/** The game's own view in the card: mounted once per game, then updated. A view that
 * fails (a table may send any `board`) leaves a sentence in its place, and is mounted
 * again with the table's next state. */
function drawView(c, snapshot, w) {
  if (c.view && c.view.game === snapshot.game) {
    try {
      c.view.update(snapshot);
    } catch (e) {
      viewFailed(c, w);
    }
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
    .catch(() => viewFailed(c, w))
    .finally(() => {
      c.loading = null;
    });
}

function viewFailed(c, w) {
  try {
    c.view?.unmount();
  } catch (e) {
    // its container is emptied below all the same
  }
  c.view = null;
  c.box.replaceChildren(el("p", w.broken)); // the status line and the OLED say the rest
}

/** Each part drawn on its own: one that fails leaves the others drawn. */
function draw(board) {
  const w = board.words;
  for (const [id, key] of [["h-tables", "tables"], ["h-standings", "standings"],
    ["h-results", "results"], ["csv-standings", "csv_standings"], ["csv-results", "csv_results"]]) {
    document.getElementById(id).textContent = w[key];
  }
  const linked = board.linked !== false; // null: a board not fed by a broker
  const cut = document.getElementById("cut-off");
  cut.hidden = linked;
  cut.textContent = linked ? "" : w.cut_off;
  const tables = document.getElementById("tables");
  tables.replaceChildren(...board.tables.map((t) => drawTable(t, w, linked)));
  if (!board.tables.length) tables.append(el("p", w.no_tables));
  drawPart("standings", () => drawStandings(board, w));
  drawPart("results", () => drawResults(board, w));
}

function drawPart(id, drawing) {
  try {
    drawing();
  } catch (e) {
    document.getElementById(id).replaceChildren(); // the next board draws it again
  }
}

function drawStandings(board, w) {
  const standings = document.getElementById("standings");
  standings.replaceChildren(row([w.player, w.played, w.wins, w.points], true));
  for (const s of board.standings) {
    const points = Object.entries(s.points).map(([g, p]) => {
      const game = board.games?.[g];
      const lowest = game?.lowest_wins ? " (" + w.lowest_wins + ")" : ""; // said beside its points
      return (game?.title || g) + " " + p + lowest;
    }).join(", ");
    standings.append(row([s.name, s.played, s.wins, points]));
  }
  const shown = board.standings.length;
  document.getElementById("more-standings").textContent = board.players_total > shown
    ? fill(w.first_players, { shown, total: board.players_total })
    : "";
}

function drawResults(board, w) {
  const results = document.getElementById("results");
  results.replaceChildren(row([w.table, w.game, w.scores, w.winner, w.duration], true));
  for (const r of board.results.slice().reverse()) {
    const scores = r.seats.map((n, i) => n + " " + (r.scores[i] ?? "")).join(", ");
    const winner = r.winner === null ? w.none : r.seats[r.winner];
    const minutes = Math.round(r.duration / 60) + " min";
    results.append(row([r.table, r.title || r.game, scores, winner, minutes]));
  }
  if (!board.results.length) results.append(row([w.no_results]));
  const shown = board.results.length;
  document.getElementById("more-results").textContent = board.results_total > shown
    ? fill(w.latest_results, { shown, total: board.results_total })
    : "";
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, key) => String(values[key]));
}

async function poll() {
  try {
    const answer = await fetch("/api/board", {
      cache: "no-store",
      headers: etag ? { "If-None-Match": etag } : {},
    });
    if (answer.status === 200) {
      const board = await answer.json();
      draw(board);
      etag = answer.headers.get("ETag"); // once drawn: a board not drawn is asked again
    }
  } catch (e) {
    // the club's machine is restarting: the next poll tries again
  }
  setTimeout(poll, 1000);
}

setLanguage(document.documentElement.lang);
poll();
