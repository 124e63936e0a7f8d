"""From a confirmed placement on one phone to the update on a second page.

`.venv/bin/python bench/web_latency.py [--games N] [--size S]` plays two-player "Vous ne
passerez pas !" games on a live table (the real referee loop, journal and web page in
threads, as `companion run` has them) with two pages in Debian's Chromium: the acting
phone and a watching page. For each placement, the phone's page sends the action
(`POST /api/act`, as its Valider button does) and notes the time; the watching page notes
when its board shows the new piece (a MutationObserver on the SVG, so no polling delay).
Both pages read the same clock (`performance.timeOrigin + performance.now()`).

The time covers the request, the referee loop (journal write with fsync, the referee,
the OLED frame, the snapshot), the server-sent event, and the page's drawing of the board.
Its README section is `readme` (bench/readme.py).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from companion import games  # noqa: E402
from companion.games.vnp.page import segments_of  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402
from tests.web.table import LiveTable  # noqa: E402

WATCH = """() => {
  window.__seen = [];
  const board = document.getElementById('board');
  let count = board.querySelectorAll('g.placed').length;
  new MutationObserver(() => {
    const now = board.querySelectorAll('g.placed').length;
    if (now !== count) {
      count = now;
      window.__seen.push(performance.timeOrigin + performance.now());
    }
  }).observe(board, {childList: true, subtree: true});
}"""

SEND = """async ([csrf, value]) => {
  const t0 = performance.timeOrigin + performance.now();
  const res = await fetch('/api/act', {method: 'POST', credentials: 'same-origin',
    headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
    body: JSON.stringify({control: 'place', value})});
  return [t0, res.status];
}"""


def play(browser, size: int, seed: int) -> list[float]:
    """One game; the milliseconds of each placement."""
    setup = games.get("vnp").simulated_setup(2, seed)
    setup = dataclasses.replace(setup, rules={**(setup.rules or {}), "size": size})
    latencies = []
    with tempfile.TemporaryDirectory() as folder:
        table = LiveTable(Path(folder), setup)
        try:
            url = f"http://{table.host}:{table.port}/"
            watcher = browser.new_context(**PHONE).new_page()
            watcher.goto(url)
            watcher.wait_for_selector("svg#board g, svg#board circle", state="attached")
            watcher.evaluate(WATCH)
            phones = {}
            for seat in (0, 1):
                page = browser.new_context(**PHONE).new_page()
                code = table.web.pairings.code
                page.goto(url)
                status = page.evaluate(
                    """async ([code, seat]) => (await fetch('/api/pair', {method: 'POST',
                      headers: {'Content-Type': 'application/json'},
                      body: JSON.stringify({code, seat})})).json()""",
                    [code, seat],
                )
                phones[seat] = (page, status["csrf"])
            while True:
                board = table.client().get("/api/state").json()["board"]
                if board["over"]:
                    break
                page, csrf = phones[board["seat"]]
                if not board["legal"]:
                    page.evaluate(
                        """([csrf, colour]) => fetch('/api/act', {method: 'POST',
                          headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
                          body: JSON.stringify({control: 'pass', value: {colour}})})""",
                        [csrf, board["turn"]],
                    )
                    table.settle()
                    continue
                before = watcher.evaluate("window.__seen.length")
                placements = [segments_of(board["size"], pid) for pid in board["legal"]]
                segments = max(placements, key=len)  # the largest piece, lowest id first
                t0, status = page.evaluate(SEND, [csrf, {"colour": board["turn"],
                                                         "segments": segments}])  # fmt: skip
                if status != 200:
                    raise SystemExit(f"placement refused ({status}): {board['turn']} {segments}")
                watcher.wait_for_function(f"() => window.__seen.length > {before}")
                latencies.append(watcher.evaluate(f"window.__seen[{before}]") - t0)
        finally:
            table.close()
    return latencies


def measure(games: int, size: int) -> list[float]:
    """Every placement's latency (ms), sorted, over `games` games."""
    latencies: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for seed in range(games):
            latencies += play(browser, size, seed)
        browser.close()
    return sorted(latencies)


def readme(quick: bool) -> str:
    """bench/README.md's section: 3 games on 13 x 13 (quick: 1)."""
    games_played = 1 if quick else 3
    got = measure(games_played, 13)
    p95 = got[int(0.95 * (len(got) - 1))]
    return f"""## web_latency.py — a confirmed placement to the update on a second page

`.venv/bin/python bench/web_latency.py [--games N] [--size S]` plays two-player "Vous ne
passerez pas !" games on a live table (the real referee loop, journal with fsync, OLED
frame and web page in threads, as `companion run` runs them) with two pages in Debian's
Chromium. The acting phone's page sends each placement (`POST /api/act`); the watching
page timestamps the moment its SVG board shows the new piece (a MutationObserver, no
polling). Both read the same clock.

| board | placements | median | p95 | max |
|---|---|---|---|---|
| 13 x 13, {games_played} game{"s" if games_played > 1 else ""} | {len(got)} | {statistics.median(got):.1f} ms | {p95:.1f} ms | {got[-1]:.1f} ms |

The path: HTTP request, queue, journal write and fsync, referee, public snapshot (every
legal placement of the next colour, by number), OLED frame, what changed (a delta on the
server-sent stream), JSON parse, patch and SVG redraw. No target: on a Raspberry Pi expect
several times this; a person taps at most a few times a second, so even 10x leaves the
page feeling immediate. Wall times on this shared machine: before issue 41's second round
(whole states, placements as segments), 27.6 ms median, 96.4 ms p95 (2026-11-27, load
6.2).
"""  # noqa: E501


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--size", type=int, default=13, help="board size (default 13)")
    args = parser.parse_args()
    latencies = measure(args.games, args.size)
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(
        f"{len(latencies)} placements on a {args.size}x{args.size} board: confirmed placement "
        f"to the second page's board, median {statistics.median(latencies):.1f} ms, "
        f"p95 {p95:.1f} ms, max {latencies[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
