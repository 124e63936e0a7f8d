// The replay page: the list of journals (GET /api/journals) and a step-by-step viewer of
// one (GET /api/journals/<name>): the OLED frame, the lines of the step, the result.
// The journal shown is in the address (?journal=NAME) so it can be linked and reloaded.

import { t, setLanguage, applyStatic } from "./i18n.js";

const $ = (id) => document.getElementById(id);

let journal = null; // the one shown
let index = 0; // its step shown

async function getJSON(url) {
  const res = await fetch(url, { credentials: "same-origin", cache: "no-store" });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

function showMessage(text) {
  $("message").textContent = text || "";
}

const href = (name) => `/replay?journal=${encodeURIComponent(name)}`;

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
      a.href = href(j.name);
      const title = document.createElement("strong");
      title.textContent = j.title || j.game || j.name;
      const meta = document.createElement("span");
      meta.className = "meta";
      const state = j.stopped
        ? t("replay.stopped", { n: j.stopped })
        : j.current ? t("replay.current") : t(j.finished ? "replay.finished" : "replay.unfinished");
      meta.textContent = [(j.seats || []).join(", "), t("replay.steps", { n: j.steps }), state].filter(Boolean).join(" · ");
      a.append(title, meta);
      li.append(a);
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
  if (!name) {
    journal = null;
    $("viewer").hidden = true;
    markSelected();
    return;
  }
  try {
    journal = await getJSON(`/api/journals/${encodeURIComponent(name)}`);
  } catch {
    showMessage(t("replay.loadError"));
    return;
  }
  showMessage("");
  $("viewer").hidden = false;
  $("replay-title").textContent = journal.title || journal.name;
  $("replay-seats").textContent = (journal.seats || []).join(", ");
  $("step").max = String(Math.max(journal.steps.length - 1, 0));
  renderResult();
  markSelected();
  show(0);
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
  const lines = $("step-lines");
  lines.replaceChildren();
  for (const line of step.lines || []) {
    const li = document.createElement("li");
    li.textContent = line;
    lines.append(li);
  }
  $("prev").disabled = index === 0;
  $("next").disabled = index === steps.length - 1;
}

function renderResult() {
  const result = journal.result;
  $("replay-result").hidden = !result;
  const list = $("replay-scores");
  list.replaceChildren();
  if (!result) return;
  const winners = Array.isArray(result.winner) ? result.winner : result.winner == null ? [] : [result.winner];
  (result.scores || []).forEach((score, i) => {
    const li = document.createElement("li");
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = journal.seats?.[i] ?? String(i + 1);
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
  // The journals carry no language: take the table's.
  getJSON("/api/state")
    .then((s) => {
      if (setLanguage(s.language)) {
        loadList();
        loadReports();
        if (journal) show(index);
      }
    })
    .catch(() => {});
  $("journals").addEventListener("click", (e) => {
    const a = e.target.closest("a");
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
