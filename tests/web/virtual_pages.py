"""What the virtual table's browser tests share: a page per seat (and a shared screen), each
keeping every response and live-stream message it receives, and the checks that a seat's
hidden facts reach its own page only."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

RECORD = """(() => {
  // Every answer this page's fetch() gets (the state, the live stream's events, the
  // answers to its acts and moves), kept whole as it streams in.
  window.__received = [];
  const fetched = window.fetch.bind(window);
  window.fetch = async (...args) => {
    const res = await fetched(...args);
    const entry = { url: res.url, text: "" };
    window.__received.push(entry);
    const body = res.clone().body;
    if (body) {
      const reader = body.getReader();
      const text = new TextDecoder();
      (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            entry.text += text.decode(value, { stream: true });
          }
        } catch {}
      })();
    }
    return res;
  };
})();"""


def open_page(browser: Any, base: str, **options: Any) -> Any:
    """A page of its own (own cookies) that records what it receives."""
    context = browser.new_context(**options)
    context.set_default_timeout(15_000)
    context.add_init_script(RECORD)
    page = context.new_page()
    page.goto(base)
    return page


def pair(page: Any, code: str, seat: int) -> None:
    page.wait_for_selector("#pair-form:visible")
    page.fill("#pair-code", code)
    page.select_option("#pair-seat", str(seat))
    page.click("#pair-submit")
    page.wait_for_selector("#you:visible")


def seated(browser: Any, table: Any, seats: int) -> tuple[Any, dict[int, Any]]:
    """A shared screen (a desktop) and a phone paired for each seat, all recording."""
    from .conftest import PHONE

    base = f"http://{table.host}:{table.port}/"
    shared = open_page(browser, base, viewport={"width": 1280, "height": 900})
    pages = {seat: open_page(browser, base, **PHONE) for seat in range(seats)}
    for seat, page in pages.items():
        pair(page, table.web.pairings.code, seat)
    return shared, pages


def payloads(page: Any) -> list[dict[str, Any]]:
    """Every JSON document the page received: answers, and each live-stream event's data."""
    out: list[dict[str, Any]] = []
    for entry in page.evaluate("window.__received"):
        text = entry["text"]
        if "/api/live" in entry["url"]:
            for block in text.split("\n\n"):
                data = [line[6:] for line in block.split("\n") if line.startswith("data: ")]
                if data:
                    out.append(json.loads("\n".join(data)))
        elif "/api/" in entry["url"] and text.strip().startswith("{"):
            try:
                out.append(json.loads(text))
            except ValueError:  # a stream cut mid-answer by the page leaving
                continue
    return out


def check_own_facts_only(seats: dict[int, Any], shared: Any) -> dict[int, list[dict[str, Any]]]:
    """Every snapshot a seat's page received carries that seat's own facts (`mine`) and
    nobody else's, every answer too; the shared screen's carry none. Returns each seat's
    snapshots with its facts."""
    own: dict[int, list[dict[str, Any]]] = {}
    for seat, page in seats.items():
        received = payloads(page)
        snapshots = [p for p in received if "version" in p]
        assert snapshots, f"seat {seat} received no snapshot"
        for p in received:
            if p.get("you") is not None:
                assert p["you"]["seat"] == seat
            else:
                assert "mine" not in p
        own[seat] = [p for p in snapshots if "mine" in p]
        assert own[seat], f"seat {seat} never received its own facts"
    for p in payloads(shared):
        assert "mine" not in p and p.get("you") is None
    return own


def strings(data: Any) -> set[str]:
    """Every string in a JSON document (its keys aside)."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(strings(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(strings(v) for v in data)) if data else set()
    return set()


def until(check: Callable[[], bool], seconds: float = 20.0, what: str = "") -> None:
    """Wait until `check()` (the referee loop runs in its own thread)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"the table did not get there: {what}")
        time.sleep(0.03)
