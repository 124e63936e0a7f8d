// The live page: the snapshot from GET /api/state and the SSE stream /api/live (or,
// when the table refuses a stream, /api/state polled, and the page says so: live.js), the
// common live view (status, OLED frame, scores, history), pairing, and acting through
// POST /api/act. A game that draws itself on the page (a board...) does so in its own
// view module, which gameview.js loads: nothing here knows any game.

import { t, setLanguage, applyStatic } from "./i18n.js";
import { loadView } from "./gameview.js";
import { follow, POLL_SECONDS } from "./live.js";

const $ = (id) => document.getElementById(id);

let snap = null; // the snapshot shown
let live = null; // the table followed (live.js), once started
let conn = { mode: "connecting", refusal: "" }; // how: live, polling (refused a stream)...
let wantPairForm = false; // the user asked to play from this phone, or came with ?pair=
let sending = Promise.resolve(); // the acts and moves on their way, sent one after another
let pending = 0; // how many of them are not answered yet
let pairHeldUntil = 0; // after too many wrong codes (429), pairing waits until then
let view = null; // the game's own view, once mounted (gameview.js)
let viewLoading = ""; // the game whose view is loading

// ------------------------------------------------------------------ server calls

/** POST JSON; resolves to {status, ok, body, retryAfter} (body {} when it is not JSON,
 * retryAfter the seconds of a Retry-After header, else 0). Throws on a network failure
 * only. */
async function post(url, data, csrf) {
  const headers = { "Content-Type": "application/json" };
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const res = await fetch(url, {
    method: "POST",
    headers,
    body: data === undefined ? "{}" : JSON.stringify(data),
    credentials: "same-origin",
  });
  let body = {};
  try {
    body = await res.json();
  } catch {
    // an empty or non-JSON answer
  }
  const retryAfter = Number(res.headers.get("Retry-After")) || 0;
  return { status: res.status, ok: res.ok, body, retryAfter };
}

function showMessage(text) {
  $("message").textContent = text || "";
}

/** A refusal: the sentence, then the referee's lines if they say more. */
function refusal(body, status) {
  const lines = Array.isArray(body.lines) ? body.lines.filter((l) => l && l !== body.error) : [];
  return [body.error || `HTTP ${status}`, ...lines].join("\n");
}

/** The button last pressed, if nothing else was done since: a refusal of what it sent is
 * shown beside it, where the player is looking (a phone's buttons are far below the top
 * of the page). */
let pressed = null;
let refusalNote = null; // the refusal shown beside a button, once made

function besideButton(text) {
  const button = pressed;
  if (!button?.isConnected || button.closest("#pairing")) return false;
  if (!refusalNote) {
    refusalNote = document.createElement("p");
    refusalNote.className = "message refusal";
    refusalNote.setAttribute("role", "alert");
  }
  refusalNote.textContent = text;
  (button.closest(".actions, [data-note]") || button).after(refusalNote);
  return true;
}

function clearRefusal() {
  refusalNote?.remove();
}

/** Send a control; true when accepted. A refusal is shown beside the button that sent it
 * (else in #message, as errors are). */
function act(control, value) {
  return send("/api/act", value === undefined ? { control } : { control, value });
}

/** Send a move of this seat's hands on the virtual table; true when accepted (a refusal
 * shown as an act's). */
function move(what) {
  return send("/api/virtual", { move: what });
}

/** Sends in the order they were made, each once the one before is answered: a press made
 * while another is on its way counts (the referee judges it, refusal shown), never lost. */
function send(url, data) {
  const turn = sending.then(() => sendNow(url, data));
  sending = turn.catch(() => {});
  return turn;
}

async function sendNow(url, data) {
  if (!snap?.you) return false;
  pending += 1;
  document.body.classList.add("busy");
  clearRefusal();
  try {
    const { ok, status, body } = await post(url, data, snap.you.csrf);
    if (!ok) {
      const text = refusal(body, status);
      showMessage(besideButton(text) ? "" : text);
      if (status === 401 || status === 403) refetch(); // not paired any more, or stale token
      return false;
    }
    showMessage("");
    return true;
  } catch {
    showMessage(t("net.error"));
    return false;
  } finally {
    pending -= 1;
    if (!pending) document.body.classList.remove("busy");
  }
}

async function refetch() {
  try {
    const res = await fetch("/api/state", { credentials: "same-origin", cache: "no-store" });
    if (!res.ok) return;
    const next = await res.json();
    // The stream may already have shown something newer.
    if (!snap || !(next.version < snap.version)) render(next);
  } catch {
    // the stream will bring the state back
  }
}

/** How the page follows the table, on the badge at the top; polling (a stream refused)
 * is also said in a sentence: the table's refusal, then how often the page updates. */
function showConn(mode = conn.mode, refusal = conn.refusal) {
  conn = { mode, refusal };
  const badge = $("conn");
  badge.dataset.state = mode === "connecting" ? "lost" : mode;
  badge.textContent = t(`conn.${mode}`, { n: POLL_SECONDS });
  const note = $("polling");
  note.hidden = mode !== "polling";
  note.textContent = note.hidden ? "" : [refusal, t("poll.note", { n: POLL_SECONDS })].filter(Boolean).join(" ");
}

// ------------------------------------------------------------------ rendering

function render(next) {
  snap = next;
  if (setLanguage(next.language)) showConn();
  document.title = next.title || document.title;
  $("title").textContent = next.title || "";
  $("status").textContent = next.status || "";
  const frame = $("frame");
  if (next.frame && frame.getAttribute("src") !== next.frame) frame.src = next.frame;
  frame.hidden = !next.frame;
  renderResult(next);
  renderScores(next);
  renderHistory(next.history || []);
  renderPairing(next);
  renderView(next);
  // Last: the tests wait on this to know the snapshot is on the page.
  document.body.dataset.version = String(next.version);
}

/** Who the scores (and the winner index) are about: the sides of a game played in
 * sides (its page view's `sides`), else the seats. */
function scoreNames(s) {
  return (s.board && s.board.sides) || s.seats || [];
}

/** Winner: an index into scoreNames, a list of them, a name, or null. */
function winnerText(s) {
  const w = s.winner;
  if (w === null || w === undefined) return "";
  const list = Array.isArray(w) ? w : [w];
  const names = list.map((x) => (typeof x === "number" ? scoreNames(s)[x] ?? String(x + 1) : String(x)));
  return t(names.length > 1 ? "winners" : "winner", { names: names.join(", ") });
}

function renderResult(s) {
  const box = $("result");
  box.hidden = !s.finished;
  box.textContent = s.finished ? [t("finished"), winnerText(s)].filter(Boolean).join(" · ") : "";
}

function renderScores(s) {
  const list = $("scores");
  list.replaceChildren();
  const scores = s.scores || [];
  // Scores are per seat, or per side for games played in sides (teams).
  const names = scoreNames(s);
  const winners = new Set(Array.isArray(s.winner) ? s.winner : s.winner == null ? [] : [s.winner]);
  scores.forEach((score, i) => {
    const li = document.createElement("li");
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = names[i] ?? String(i + 1);
    const value = document.createElement("span");
    value.className = "score";
    value.textContent = String(score);
    li.append(name, value);
    if (s.finished && (winners.has(i) || winners.has(names[i]))) li.classList.add("winner");
    list.append(li);
  });
}

function renderHistory(lines) {
  const list = $("history");
  // Append only what is new when the old lines are unchanged (the usual case).
  const shown = list.children.length;
  const same = shown <= lines.length && (shown === 0 || list.children[shown - 1].textContent === lines[shown - 1]);
  if (!same) list.replaceChildren();
  for (const line of lines.slice(list.children.length)) {
    const li = document.createElement("li");
    li.textContent = line;
    list.append(li);
  }
  if (historyFollows) list.scrollTop = list.scrollHeight; // the newest line in view
}

/** The history box follows its newest line, unless its reader scrolled up to read an
 * older one (until they scroll back down). Its lines wrap anew when the box changes
 * width (the game's view mounting beside it on a desktop, a window resized), which moves
 * the newest line out of view under the scroll set before: followed again then. */
let historyFollows = true;

function followHistory() {
  const list = $("history");
  list.addEventListener("scroll", () => {
    historyFollows = list.scrollHeight - list.clientHeight - list.scrollTop <= 4;
  });
  new ResizeObserver(() => {
    if (historyFollows) list.scrollTop = list.scrollHeight;
  }).observe(list);
}

function renderPairing(s) {
  const paired = Boolean(s.you);
  const showForm = !paired && (s.played_on_page || s.virtual || wantPairForm);
  $("pair-form").hidden = !showForm;
  $("pair-open").hidden = paired || showForm;
  $("paired").hidden = !paired;
  if (paired) $("you").textContent = t("you", { name: s.you.name });
  if (showForm) fillSeats(s);
}

/** The seat choice: open seats first, then the others (pairing again takes a seat over). */
function fillSeats(s) {
  const select = $("pair-seat");
  const open = s.pairing?.open_seats ?? [];
  const seats = (s.seats || []).map((name, i) => ({ i, name, open: open.includes(i) }));
  seats.sort((a, b) => b.open - a.open || a.i - b.i);
  const labels = seats.map((x) => (x.open ? x.name : t("pair.taken", { name: x.name })));
  const now = [...select.options].map((o) => `${o.value}=${o.textContent}`).join("|");
  if (now === seats.map((x, k) => `${x.i}=${labels[k]}`).join("|")) return; // keep the choice
  const chosen = select.value;
  select.replaceChildren();
  seats.forEach((x, k) => {
    const option = document.createElement("option");
    option.value = String(x.i);
    option.textContent = labels[k];
    select.append(option);
  });
  if (seats.some((x) => String(x.i) === chosen)) select.value = chosen;
}

/** The game's own view, when it has one: loaded with the first snapshot of its game,
 * then given every snapshot. */
function renderView(s) {
  const box = $("view");
  if (view && view.game !== s.game) {
    view.unmount(); // the table now plays another game
    view = null;
  }
  box.hidden = !view;
  if (view) {
    try {
      view.update(s);
    } catch (err) {
      console.error("the game's view failed", err); // the common view goes on
    }
  } else if (!viewLoading && (s.page_assets || []).includes("view.js")) mountView(s);
}

async function mountView(s) {
  viewLoading = s.game;
  let loaded = null;
  try {
    loaded = await loadView($("view"), s, { act, move: s.virtual ? move : null, message: showMessage });
  } catch (err) {
    console.error("the game's view did not load", err); // tried again with the next snapshot
    showMessage(t("net.error"));
  }
  viewLoading = "";
  view = loaded;
  if (view && snap) renderView(snap); // the latest snapshot, which may be newer than s
}

// ------------------------------------------------------------------ pairing

async function pair(event) {
  event.preventDefault();
  const code = $("pair-code").value.replace(/\D/g, "");
  const seat = Number($("pair-seat").value);
  if (code.length !== 6) return showMessage(t("pair.badCode"));
  if ($("pair-seat").value === "") return showMessage(t("pair.noSeat"));
  $("pair-submit").disabled = true;
  try {
    const { ok, status, body, retryAfter } = await post("/api/pair", { code, seat });
    if (status === 429 && retryAfter) holdPairing(retryAfter);
    if (!ok) return showMessage(refusal(body, status));
    showMessage("");
    $("pair-code").value = "";
    wantPairForm = false;
    // Show it at once, then get the state and a stream that know this phone (the old
    // stream's snapshots do not).
    if (snap) render({ ...snap, you: { seat: body.seat, name: body.name, csrf: body.csrf } });
    live?.reopen();
    await refetch();
  } catch {
    showMessage(t("net.error"));
  } finally {
    $("pair-submit").disabled = Date.now() < pairHeldUntil;
  }
}

/** The table said to wait (too many wrong codes): the button waits as long. */
function holdPairing(seconds) {
  pairHeldUntil = Date.now() + seconds * 1000;
  setTimeout(() => {
    if (Date.now() >= pairHeldUntil) $("pair-submit").disabled = false;
  }, seconds * 1000);
}

async function unpair() {
  if (!snap?.you) return;
  try {
    const { ok, status, body } = await post("/api/unpair", {}, snap.you.csrf);
    if (!ok) return showMessage(refusal(body, status));
    showMessage("");
    render({ ...snap, you: null });
    live?.reopen();
    await refetch();
  } catch {
    showMessage(t("net.error"));
  }
}

// ------------------------------------------------------------------ start

function start() {
  applyStatic();
  // ?pair=CODE (the QR code): prefill the code, then take it out of the address bar.
  const params = new URLSearchParams(location.search);
  if (params.has("pair")) {
    $("pair-code").value = (params.get("pair") || "").replace(/\D/g, "").slice(0, 6);
    wantPairForm = true;
    params.delete("pair");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
  }
  // What was pressed last: a click on a button, nothing after a key or a tap elsewhere.
  // (A game's view marks what else acts when tapped, a hat or a card, with data-act.)
  document.addEventListener("click", (e) => { pressed = e.target.closest?.("button, [data-act]") ?? null; }, true);
  document.addEventListener("keydown", () => { pressed = null; }, true);
  followHistory();
  $("pair-form").addEventListener("submit", pair);
  $("unpair").addEventListener("click", unpair);
  $("pair-open").addEventListener("click", () => {
    wantPairForm = true;
    // Ask the table to show the code on its OLED (it does by itself only when a seat
    // that must play on the page has no phone).
    // A refusal (the code was just shown) is said; a network error is not the point here.
    post("/api/pair/show", {})
      .then(({ ok, status, body }) => { if (!ok) showMessage(refusal(body, status)); })
      .catch(() => {});
    if (snap) renderPairing(snap);
    $("pair-code").focus();
  });
  refetch();
  live = follow({ onState: render, onMode: showConn });
}

start();
