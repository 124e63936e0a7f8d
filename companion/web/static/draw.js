// What every game's page view draws with (docs/games.md, "The game's page view"): a
// view imports them from /static/draw.js, as the page serves its own files.

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element with its attributes, appended to `parent` when one is given. */
export function svg(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

/** An HTML element with its attributes and, when given, its text. */
export function html(name, attrs = {}, text = null) {
  const node = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

/** A button labelled `label` that calls `onClick` (type "button": it submits nothing). */
export function button(label, onClick, attrs = {}) {
  const b = html("button", { type: "button", ...attrs }, label);
  b.addEventListener("click", onClick);
  return b;
}

/** A table cell showing `text` for the count `n` (kept in data-count, read by a screen
 * reader as the number itself). */
export function countCell(cls, n, text) {
  const td = html("td", { class: cls, "aria-label": String(n) }, text);
  td.dataset.count = String(n);
  return td;
}

/** Fill `table` anew: its header row, then its body rows. */
export function fillTable(table, header, rows) {
  table.replaceChildren(html("thead"), html("tbody"));
  table.tHead.append(header);
  table.tBodies[0].append(...rows);
}
