// The club's page: polls /api/board and draws every table, the standings and the results.
// Text only (textContent): a name a table sends is never read as HTML.
"use strict";

let seen = -1;

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

function drawTable(t, w) {
  const card = el("div", null, "table" + (t.online ? "" : " offline"));
  const title = el("h3", t.name + " ");
  title.append(el("span", t.online ? w.online : w.offline, "badge"));
  card.append(title);
  const s = t.state;
  if (!s) {
    card.append(el("p", w.waiting, "status"));
    return card;
  }
  card.append(el("div", s.title));
  if (t.frame_no > 0) {
    const img = el("img");
    img.alt = s.status || "";
    img.src = "/api/frame/" + encodeURIComponent(t.name) + ".png?v=" + t.frame_no;
    card.append(img);
  }
  card.append(el("p", s.status + (s.finished ? " (" + w.finished + ")" : ""), "status"));
  const seats = el("ul", null, "seats");
  (s.seats || []).forEach((name, i) => {
    const score = s.scores && s.scores[i] !== undefined ? " : " + s.scores[i] : "";
    seats.append(el("li", name + score + (s.winner === i ? " ★" : "")));
  });
  card.append(seats);
  return card;
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

poll();
