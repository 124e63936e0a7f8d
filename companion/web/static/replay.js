// The replay page: the list of journals (GET /api/journals) and a step-by-step viewer of
// one (GET /api/journals/<name>). At each step it shows the table as the live page drew
// it (the step's public table, GET .../steps/<i>.json, drawn by the game's own view
// through gameview.js, where nobody acts), the OLED frame, the history up to that step,
// and the result once the last step is reached. The journal shown is in the address
// (?journal=NAME) so it can be linked and reloaded.

import { t, count, language, setLanguage, applyStatic } from "./i18n.js";
import { loadView } from "./gameview.js";

const $ = (id) => document.getElementById(id);

let journal = null; // the one shown
let index = 0; // its step shown
let view = null; // the game's view mounted for it (gameview.js), or null
let tables = new Map(); // step -> its public table (a promise), fetched once
let shownSteps = 0; // the steps whose lines #step-lines holds (0..shownSteps-1)

async function getJSON(url) {
  const res = await fetch(url, { credentials: "same-origin", cache: "no-store" });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

function showMessage(text) {
  $("message").textContent = text || "";
}

const href = (name) => `/replay?journal=${encodeURIComponent(name)}`;

function dateText(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
}

/** A journal's state in the list: stopped, on now, won by, finished or not. */
function stateText(j) {
  if (j.stopped) return t("replay.stopped", { n: j.stopped });
  if (j.current && !j.finished) return t("replay.current");
  if (j.finished && j.winner) return t("winner", { names: j.winner });
  return t(j.finished ? "replay.finished" : "replay.unfinished");
}

async function loadList() {
  const list = $("journals");
  try {
    const { journals } = await getJSON("/api/journals");
    list.replaceChildren();
    if (!journals.length) {
      const li = document.createElement("li");
      li.className = "help";
      li.textContent = t("replay.none");
      list.append(li);
    }
    for (const j of journals) {
      const li = document.createElement("li");
      li.dataset.name = j.name;
      const a = document.createElement("a");
      a.className = "open";
      a.href = href(j.name);
      const title = document.createElement("strong");
      title.textContent = j.title || j.game || j.name;
      const date = document.createElement("span");
      date.className = "date";
      date.textContent = j.date ? dateText(j.date) : "";
      const meta = document.createElement("span");
      meta.className = "meta";
      const seats = (j.seats || []).join(", ");
      const steps = j.error ? j.error : count("replay.steps", j.steps);
      meta.textContent = [seats, steps, j.error ? "" : stateText(j)].filter(Boolean).join(" · ");
      a.append(title, date, meta);
      li.append(a);
      if (j.record) {
        const download = document.createElement("a");
        download.className = "download";
        download.href = j.record;
        download.setAttribute("download", "");
        download.textContent = t("replay.download");
        li.append(download);
      }
      list.append(li);
    }
    markSelected();
  } catch {
    showMessage(t("net.error"));
  }
}

// The lab's reports (companion lab, companion report): each opens as its own page.
async function loadReports() {
  const list = $("reports");
  try {
    const { reports } = await getJSON("/api/reports");
    list.replaceChildren();
    if (!reports.length) {
      const li = document.createElement("li");
      li.className = "help";
      li.textContent = t("reports.none");
      list.append(li);
    }
    for (const r of reports) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.className = "open";
      a.href = `/reports/${encodeURIComponent(r.name)}/`;
      const title = document.createElement("strong");
      title.textContent = r.title;
      const meta = document.createElement("span");
      meta.className = "meta";
      meta.textContent = r.variants.join(" · ");
      a.append(title, meta);
      li.append(a);
      list.append(li);
    }
  } catch {
    showMessage(t("net.error"));
  }
}

function markSelected() {
  for (const li of $("journals").children) li.classList.toggle("selected", li.dataset.name === journal?.name);
}

async function open(name) {
  view?.unmount();
  view = null;
  tables = new Map();
  if (!name) {
    journal = null;
    $("viewer").hidden = true;
    markSelected();
    return;
  }
  let next;
  try {
    next = await getJSON(`/api/journals/${encodeURIComponent(name)}`);
  } catch {
    showMessage(t("replay.loadError"));
    return;
  }
  journal = next;
  showMessage("");
  $("viewer").hidden = false;
  $("replay-title").textContent = journal.title || journal.name;
  $("replay-seats").textContent = (journal.seats || []).join(", ");
  $("step").max = String(Math.max(journal.steps.length - 1, 0));
  $("step-lines").replaceChildren();
  shownSteps = 0;
  markSelected();
  $("replay-view").hidden = true;
  let loaded = null;
  try {
    loaded = await loadView($("replay-view"), journal, { act: null, message: showMessage });
  } catch (err) {
    console.error("the game's view did not load", err); // the frame and history go on
  }
  if (journal !== next) {
    loaded?.unmount(); // another journal was opened meanwhile
    return;
  }
  view = loaded;
  show(0);
}

/** Step `i`'s public table, fetched once (again after a failure). */
function tableOf(i) {
  if (!tables.has(i)) {
    const promise = getJSON(journal.steps[i].table);
    promise.catch(() => tables.delete(i));
    tables.set(i, promise);
  }
  return tables.get(i);
}

function show(i) {
  const steps = journal?.steps || [];
  if (!steps.length) return;
  index = Math.min(Math.max(i, 0), steps.length - 1);
  const step = steps[index];
  const img = $("replay-frame");
  if (step.frame && img.getAttribute("src") !== step.frame) img.src = step.frame;
  // Fetch the next frame ahead so stepping forward shows it at once.
  if (steps[index + 1]?.frame) new Image().src = steps[index + 1].frame;
  $("step").value = String(index);
  const time = Number(step.t || 0).toFixed(1);
  $("step-label").textContent = t("replay.label", { i: index, n: steps.length - 1, t: time });
  renderLines(index);
  $("prev").disabled = index === 0;
  $("next").disabled = index === steps.length - 1;
  const last = index === steps.length - 1;
  if (!last) renderResult(null);
  const shown = index;
  const journalShown = journal;
  tableOf(index)
    .then((table) => {
      if (journal !== journalShown || index !== shown) return; // the user stepped on
      drawTable(table);
      renderResult(last && journal.result ? table : null);
      document.body.dataset.step = String(shown); // the tests wait on this
    })
    .catch(() => showMessage(t("net.error")));
  if (steps[index + 1]) tableOf(index + 1).catch(() => {});
}

/** The history up to step `i`: the lines of steps 0..i, this step's marked. */
function renderLines(i) {
  const list = $("step-lines");
  const steps = journal.steps;
  while (shownSteps > i + 1) {
    shownSteps -= 1;
    while (list.lastChild && Number(list.lastChild.dataset.step) === shownSteps) list.lastChild.remove();
  }
  for (; shownSteps <= i; shownSteps++) {
    for (const line of steps[shownSteps].lines || []) {
      const li = document.createElement("li");
      li.dataset.step = String(shownSteps);
      li.textContent = line;
      list.append(li);
    }
  }
  for (const li of list.children) li.classList.toggle("now", Number(li.dataset.step) === i);
  list.scrollTop = list.scrollHeight; // the newest line in view
}

/** The game's view draws the step's table as the live page's snapshot drew it. */
function drawTable(table) {
  if (!view) return;
  const snapshot = {
    game: journal.game,
    title: journal.title,
    language: language(),
    seats: journal.seats,
    page_assets: journal.page_assets,
    controls: journal.controls,
    you: null,
    ...table,
  };
  $("replay-view").hidden = false;
  try {
    view.update(snapshot);
  } catch (err) {
    console.error("the game's view failed", err);
  }
}

/** The result, once the last step is shown: the scores of the sides of a game played in
 * sides (its table's `sides`), else of the seats. */
function renderResult(table) {
  $("replay-result").hidden = !table;
  const list = $("replay-scores");
  list.replaceChildren();
  if (!table) return;
  const names = table.board?.sides || journal.seats || [];
  const w = table.winner;
  const winners = Array.isArray(w) ? w : w == null ? [] : [w];
  (table.scores || []).forEach((score, i) => {
    const li = document.createElement("li");
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = names[i] ?? String(i + 1);
    const value = document.createElement("span");
    value.className = "score";
    value.textContent = String(score);
    li.append(name, value);
    if (winners.includes(i)) li.classList.add("winner");
    list.append(li);
  });
}

function currentName() {
  return new URLSearchParams(location.search).get("journal");
}

async function start() {
  applyStatic();
  // The page speaks the table's language (the journals' lines keep their own).
  getJSON("/api/state")
    .then((s) => {
      if (setLanguage(s.language)) {
        loadList();
        loadReports();
        if (journal) {
          shownSteps = 0;
          $("step-lines").replaceChildren();
          show(index);
        }
      }
    })
    .catch(() => {});
  $("journals").addEventListener("click", (e) => {
    const a = e.target.closest("a.open");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    history.pushState(null, "", a.getAttribute("href"));
    open(currentName()).then(() => $("viewer").scrollIntoView({ block: "start" }));
  });
  window.addEventListener("popstate", () => open(currentName()));
  $("prev").addEventListener("click", () => show(index - 1));
  $("next").addEventListener("click", () => show(index + 1));
  $("step").addEventListener("input", (e) => show(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (!journal || e.target === $("step") || e.altKey || e.ctrlKey || e.metaKey) return;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if (e.key === "ArrowLeft") show(index - 1);
    else if (e.key === "ArrowRight") show(index + 1);
    else return;
    e.preventDefault();
  });
  await Promise.all([loadList(), loadReports()]);
  await open(currentName());
}

start();
