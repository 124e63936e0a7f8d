// Following the table: its live stream of snapshots (server-sent events, read with fetch so
// that a refusal's status and sentence are seen), or, when the table refuses a stream (a
// 503: every live stream is taken, or every connection busy), its state polled every
// POLL_SECONDS until the stream is tried again (after the refusal's Retry-After) and had.
// A stream sends the whole state first (`state`), then what changed (`delta`: its ops,
// from the version the page has); a delta from another version than the page's (it
// missed one) makes the page open a new stream, which starts with the whole state.

export const POLL_SECONDS = 2;
const RETRY_MS = 3000; // a stream that ended or failed is opened again after this (or its `retry:`)
const REFUSED_RETRY_S = 5; // a refusal without Retry-After

/** Follow the table. `onState(snapshot)` gets each snapshot of the stream, or of a poll
 * while polling; `onMode(mode, refusal)` each change of way: "connecting", "live",
 * "lost" (the stream ended or the network failed: opened again soon), "polling" (refused:
 * `refusal` is the table's sentence). Returns `{ reopen }`: a new stream at once (after
 * pairing: the new one carries the cookie). */
export function follow({ onState, onMode, stream = "/api/live", state = "/api/state" }) {
  let current = null; // the AbortController of the stream asked for last
  let pollTimer = 0;
  let retryTimer = 0;

  async function poll() {
    try {
      const res = await fetch(state, { credentials: "same-origin", cache: "no-store" });
      const next = res.ok ? await res.json() : null;
      if (next && pollTimer) onState(next); // not once the stream is back: it may be newer
    } catch {
      // the next poll, or the stream, brings the state back
    }
  }

  function startPolling(refusal, seconds) {
    onMode("polling", refusal);
    if (!pollTimer) {
      poll();
      pollTimer = setInterval(poll, POLL_SECONDS * 1000);
    }
    retryTimer = setTimeout(open, seconds * 1000);
  }

  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = 0;
  }

  async function open() {
    clearTimeout(retryTimer);
    current?.abort();
    const mine = (current = new AbortController());
    if (!pollTimer) onMode("connecting", "");
    let again = RETRY_MS;
    try {
      const res = await fetch(stream, {
        signal: mine.signal,
        credentials: "same-origin",
        cache: "no-store",
        headers: { Accept: "text/event-stream" },
      });
      if (!res.ok) {
        const body = await res.json().catch(() => ({}));
        const seconds = Number(res.headers.get("Retry-After")) || REFUSED_RETRY_S;
        if (mine === current) startPolling(body.error || "", seconds);
        return;
      }
      stopPolling();
      onMode("live", "");
      again = await read(res, onState, again);
      if (again === GAP) again = 0; // it missed a change: a new stream, with the whole state
    } catch {
      if (mine.signal.aborted) return; // another stream took its place
    }
    if (mine !== current) return;
    if (!pollTimer) onMode("lost", "");
    retryTimer = setTimeout(open, again);
  }

  open();
  return { reopen: open };
}

const GAP = -1; // what `read` returns when a delta does not follow the state it has

/** Read a stream's events to its end: each `state`, and the state each `delta` makes, to
 * `onState`; the last `retry:` (ms) it asked for, else `retry`; GAP (the stream closed)
 * when a delta starts from another version than the state it has. */
async function read(res, onState, retry) {
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let state = null; // the stream's latest state, deltas applied
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return retry;
    buffer += value.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        const colon = line.indexOf(":");
        if (colon === 0) continue; // a comment (keep-alive)
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event = text;
        else if (field === "data") data.push(text);
        else if (field === "retry" && /^\d+$/.test(text)) retry = Number(text);
      }
      if ((event !== "state" && event !== "delta") || !data.length) continue;
      let next;
      try {
        next = JSON.parse(data.join("\n"));
        if (event === "delta") {
          if (!state || next.from !== state.version) {
            await reader.cancel();
            return GAP;
          }
          next = patch(state, next);
        }
      } catch (err) {
        console.error("bad snapshot", err);
        continue;
      }
      state = next;
      onState(state);
    }
  }
}

/** The state a delta makes of `state` (a new object: `state` is left as it was). Each op
 * is at `p`, a path of keys and indexes: `v` sets it, `x` removes that key, `d` and `a`
 * drop a list's first `d` items and append the items `a` (companion/web/public.py, `diff`). */
export function patch(state, delta) {
  const root = { ...state, version: delta.version };
  const copied = new Set([root]);
  for (const op of delta.ops) {
    let node = root;
    const path = op.p;
    for (const key of path.slice(0, -1)) {
      let child = node[key];
      if (!copied.has(child)) {
        child = Array.isArray(child) ? [...child] : { ...child };
        copied.add(child);
        node[key] = child;
      }
      node = child;
    }
    const last = path[path.length - 1];
    if ("v" in op) node[last] = op.v;
    else if ("x" in op) delete node[last];
    else node[last] = [...node[last].slice(op.d), ...op.a];
  }
  return root;
}
