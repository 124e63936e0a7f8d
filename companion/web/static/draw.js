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
