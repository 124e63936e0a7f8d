// Swiped on the table's page: the game's page view (docs/games.md, "The game's page
// view"), loaded from /games/swiped/view.js. It draws the table from the snapshot's `board`
// (companion/games/swiped/page.py, public facts only): the nine big cubes on the 3 x 3 grid
// in their colours (SW-1), how far each seat has programmed, the manche's six swaps in
// their order with the pairs swapped so far and the next one (SW-4), both whole programs
// where the engine knows them (SW-3), and the claims with their verdicts (SW-5). At a real
// table it acts for no one (Swiped is played with cubes and cards on the mat); on the
// virtual table a paired seat's hands and secret card are below the grid (hands.js).

import { html } from "/static/draw.js";
import { handWords, mountHands } from "./hands.js";

const viewWords = {
  fr: {
    "grid": "Les gros cubes",
    "square": "Case {n} : {colour}",
    "square.empty": "Case {n} : vide",
    "manche": "Manche {n}",
    "manche.limit": "Manche {n} sur {limit}",
    "layout": "carte face visible n° {card}",
    "turn.draw": "Tirage des cartes",
    "turn.program": "Chacun programme ses trois échanges en secret",
    "turn.execute": "À {s} d'échanger (phase {phase})",
    "turn.won": "{s} a gagné",
    "turn.drawn": "Match nul",
    "programmed": "{s} : {n}/3 échanges programmés",
    "program": "Programme de {s}",
    "swaps": "Les échanges de la manche",
    "slot": "{s}, phase {phase}",
    "swap.next": "à jouer",
    "swap.skipped": "même paire : passé",
    "claim": "{what} : {verdict}",
    "claims": "Annonces",
    "claims.none": "Aucune annonce",
    "claim.matches": "{s} annonce 5 cases",
    "claim.card": "{s} nomme la carte de {o}",
    "verdict.true": "vrai",
    "verdict.false": "faux",
    "colour.rouge": "Rouge",
    "colour.orange": "Orange",
    "colour.jaune": "Jaune",
    "colour.vert": "Vert",
    "colour.bleu": "Bleu",
    "colour.violet": "Violet",
    "colour.rose": "Rose",
    "colour.blanc": "Blanc",
    "colour.noir": "Noir",
  },
  en: {
    "grid": "The big cubes",
    "square": "Square {n}: {colour}",
    "square.empty": "Square {n}: empty",
    "manche": "Round {n}",
    "manche.limit": "Round {n} of {limit}",
    "layout": "face-up card no. {card}",
    "turn.draw": "Drawing the cards",
    "turn.program": "Each player programs three swaps in secret",
    "turn.execute": "{s} to swap (phase {phase})",
    "turn.won": "{s} won",
    "turn.drawn": "A draw",
    "programmed": "{s}: {n}/3 swaps programmed",
    "program": "{s}'s program",
    "swaps": "This round's swaps",
    "slot": "{s}, phase {phase}",
    "swap.next": "next",
    "swap.skipped": "same pair: skipped",
    "claim": "{what}: {verdict}",
    "claims": "Claims",
    "claims.none": "No claim",
    "claim.matches": "{s} claims 5 matches",
    "claim.card": "{s} names {o}'s card",
    "verdict.true": "right",
    "verdict.false": "wrong",
    "colour.rouge": "Red",
    "colour.orange": "Orange",
    "colour.jaune": "Yellow",
    "colour.vert": "Green",
    "colour.bleu": "Blue",
    "colour.violet": "Purple",
    "colour.rose": "Pink",
    "colour.blanc": "White",
    "colour.noir": "Black",
  },
};

export const words = {
  fr: { ...viewWords.fr, ...handWords.fr },
  en: { ...viewWords.en, ...handWords.en },
};

/** Dark ink on a light colour, light ink on a dark one. */
function ink(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#111" : "#fff";
}

export function mount(container, page) {
  const t = page.t;
  const root = html("div", { class: "sw" });
  const head = html("p", { class: "sw-head" });
  const grid = html("div", { class: "sw-grid", role: "list" });
  const turn = html("p", { class: "sw-turn" });
  const programs = html("div", { class: "sw-programs" });
  const claimsTitle = html("h3", { class: "sw-title" });
  const claims = html("ul", { class: "sw-claims" });
  root.append(head, grid, turn, programs, claimsTitle, claims);
  container.append(root);

  const name = (snap, seat) => snap.seats?.[seat] ?? String(seat + 1);
  const colourName = (c) => t(`colour.${c}`);

  function chip(b, colour) {
    const span = html("span", { class: "sw-chip" }, colourName(colour));
    span.dataset.colour = colour;
    const hex = b.hex[colour] || "#ccc";
    span.style.background = hex;
    span.style.color = ink(hex);
    return span;
  }

  const hands = page.move ? mountHands(root, page, chip) : null;
  let gridDrawn = ""; // what the grid shows: drawn anew only when it changes (a tap on a
  // cube must not land on one the next snapshot replaced)

  function drawGrid(b) {
    const key = JSON.stringify([b.grid, t("grid")]);
    if (key === gridDrawn) return;
    gridDrawn = key;
    grid.setAttribute("aria-label", t("grid"));
    grid.replaceChildren(
      ...Array.from({ length: 9 }, (_, i) => {
        const colour = b.grid[i];
        const cube = html("div", { class: "sw-cube", role: "listitem" });
        cube.dataset.square = String(i + 1);
        const number = html("span", { class: "sw-number", "aria-hidden": "true" }, String(i + 1));
        if (!colour) {
          cube.classList.add("empty");
          cube.setAttribute("aria-label", t("square.empty", { n: i + 1 }));
          cube.append(number);
          return cube;
        }
        cube.dataset.colour = colour;
        const hex = b.hex[colour] || "#ccc";
        cube.style.background = hex;
        cube.style.color = ink(hex);
        cube.setAttribute("aria-label", t("square", { n: i + 1, colour: colourName(colour) }));
        cube.append(number, html("span", { class: "sw-colour", "aria-hidden": "true" }, colourName(colour)));
        return cube;
      }),
    );
  }

  function turnText(snap, b) {
    if (b.winner !== null) return t("turn.won", { s: name(snap, b.winner) });
    if (b.drawn) return t("turn.drawn");
    if (b.phase === "execute" && b.next_swap !== null) {
      return t("turn.execute", { s: name(snap, b.next_swap), phase: b.swaps[b.step].phase });
    }
    return t(`turn.${b.phase}`);
  }

  function drawPrograms(snap, b) {
    programs.replaceChildren();
    if (b.phase === "program") {
      const list = html("ul", { class: "sw-programmed" });
      b.programmed.forEach((n, seat) => {
        const li = html("li", {}, t("programmed", { s: name(snap, seat), n }));
        li.dataset.seat = String(seat);
        li.dataset.count = String(n);
        list.append(li);
      });
      programs.append(list);
    }
    if (b.swaps.length) {
      programs.append(html("h3", { class: "sw-title" }, t("swaps")));
      const list = html("ol", { class: "sw-swaps" });
      b.swaps.forEach((slot, i) => {
        const li = html("li", { class: "sw-swap" });
        li.dataset.seat = String(slot.seat);
        const state = slot.done ? "done" : i === b.step && b.next_swap !== null ? "next" : "";
        if (state) li.classList.add(state);
        li.append(html("span", { class: "sw-who" }, t("slot", { s: name(snap, slot.seat), phase: slot.phase })));
        if (slot.colours) {
          li.dataset.colours = slot.colours.join("-");
          li.append(chip(b, slot.colours[0]), html("span", { class: "sw-arrow", "aria-hidden": "true" }, "⇄"), chip(b, slot.colours[1]));
          if (slot.skipped) li.append(html("span", { class: "sw-state" }, t("swap.skipped")));
        } else if (state === "next") {
          li.append(html("span", { class: "sw-state" }, t("swap.next")));
        }
        list.append(li);
      });
      programs.append(list);
    }
    if (b.programs) {
      b.programs.forEach((pairs, seat) => {
        const column = html("div", { class: "sw-program" });
        column.dataset.seat = String(seat);
        column.append(html("h3", { class: "sw-title" }, t("program", { s: name(snap, seat) })));
        const list = html("ol");
        for (const [a, c] of pairs) {
          const li = html("li", { class: "sw-pair" });
          li.append(chip(b, a), html("span", { class: "sw-arrow", "aria-hidden": "true" }, "⇄"), chip(b, c));
          list.append(li);
        }
        column.append(list);
        programs.append(column);
      });
    }
  }

  function drawClaims(snap, b) {
    claimsTitle.textContent = t("claims");
    if (!b.claims.length) {
      claims.replaceChildren(html("li", { class: "help" }, t("claims.none")));
      return;
    }
    claims.replaceChildren(
      ...b.claims.map((c) => {
        const what = t(`claim.${c.claim}`, { s: name(snap, c.seat), o: name(snap, 1 - c.seat) });
        const verdict = t(c.correct ? "verdict.true" : "verdict.false");
        const li = html("li", {}, t("claim", { what, verdict }));
        li.dataset.seat = String(c.seat);
        li.dataset.correct = String(c.correct);
        return li;
      }),
    );
  }

  return {
    update(snap) {
      const b = snap.board;
      root.hidden = !b;
      if (!b) return;
      const manche = b.manche_limit ? t("manche.limit", { n: b.manche, limit: b.manche_limit }) : t("manche", { n: b.manche });
      head.textContent = b.layout_card ? `${manche} · ${t("layout", { card: b.layout_card })}` : manche;
      drawGrid(b);
      turn.textContent = turnText(snap, b);
      drawPrograms(snap, b);
      drawClaims(snap, b);
      hands?.update(snap);
    },
  };
}
