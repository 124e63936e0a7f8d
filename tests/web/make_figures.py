"""Screenshots of the page for the docs: `.venv/bin/python -m tests.web.make_figures`.

For each game (`GAMES`), plays a simulated game on a live table up to a moment worth
showing (a token in flight, owned lines, swaps done, pieces placed), then shoots the live
page on a desktop (docs/figures/GAME-live-desktop.png) and on a phone
(GAME-live-phone.png: for "Vous ne passerez pas !", the phone of the seat to play, a
piece picked and placed where it may go), and the replay viewer at that step
(GAME-replay.png). Then runs the lab's example (docs/lab.example.toml) into the table's
data directory and shoots its report as the web page serves it (lab-report.png). The
PNGs are stored with a palette of at most 128 colours, to keep them small.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import Browser, Page, sync_playwright

from companion import games
from companion.cli import main as companion
from companion.run.items import Scripted

from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from .table import LiveTable

FIGURES = Path(__file__).resolve().parents[2] / "docs" / "figures"
DESKTOP = {"viewport": {"width": 1200, "height": 860}}
PHONE_SHOT = {**PHONE, "viewport": {"width": 360, "height": 820}}

GAMES: dict[str, tuple[int, int, Callable[[dict[str, Any]], bool]]] = {
    "ptipasspass": (4, 5, lambda b: b["in_flight"] is not None and sum(b["hats"]) >= 5),
    "phipasspass": (4, 2, lambda b: b["in_flight"] is not None and sum(b["hats"]) >= 4),
    "flipdone": (3, 2, lambda b: sum(x["owner"] is not None for x in b["lines"]) >= 2),
    "swiped": (2, 3, lambda b: b["phase"] == "execute" and b["step"] >= 3),
    "vnp": (2, 4, lambda b: sum(len(p) for p in b["placed"]) >= 14 and bool(b["legal"])),
}
"""Each game shown: seats, seed, and the moment to stop at (past a third of the game)."""


def stop_at(name: str, setup: Any, inputs: list[Any]) -> int:
    """How many inputs lead to the first moment worth showing past a third of the game."""
    game = games.get(name)
    assert game.page_view is not None
    referee = game.referee(setup)
    for n, record in enumerate(inputs, start=1):
        referee.feed(record)
        if n >= len(inputs) // 3 and GAMES[name][2](game.page_view(referee)):
            return n
    raise SystemExit(f"{name}: no moment worth showing in this game")


def save(page: Page, name: str, selector: str | None = None) -> None:
    """A screenshot, as a PNG with a palette (a page has few colours)."""
    path = FIGURES / name
    if selector is None:
        page.screenshot(path=str(path))
    else:
        page.locator(selector).screenshot(path=str(path))
    with Image.open(path) as shot:
        small = shot.convert("RGB").quantize(colors=128, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def shoot(browser: Browser, folder: Path, name: str) -> None:
    seats, seed, _ = GAMES[name]
    game = games.get(name)
    setup = game.simulated_setup(seats, seed)
    inputs = game.simulate(setup).inputs
    (folder / name).mkdir()
    table = LiveTable(folder / name, setup, script_clock=True)
    try:
        for record in inputs[: stop_at(name, setup, inputs)]:
            table.put(Scripted(record))
        table.settle()
        base = f"http://{table.host}:{table.port}"
        version = table.web.publisher.version
        for file, context in (("live-desktop", DESKTOP), ("live-phone", PHONE_SHOT)):
            page = browser.new_context(**context).new_page()
            if name == "vnp" and file == "live-phone":
                play_on_the_phone(page, table)
            else:
                page.goto(f"{base}/")
                page.wait_for_selector("#view:not([hidden])")
                page.wait_for_function(
                    "(v) => Number(document.body.dataset.version) >= v", arg=version
                )
            save(page, f"{name}-{file}.png")
            page.context.close()
        steps = table.client().get("/api/journals").json()["journals"][0]["steps"]
        page = browser.new_context(**DESKTOP).new_page()
        page.goto(f"{base}/replay?journal=game.jsonl")
        page.wait_for_selector('body[data-step="0"]', state="attached")
        page.evaluate(
            """(k) => { const s = document.getElementById('step');
                        s.value = String(k); s.dispatchEvent(new Event('input')); }""",
            steps - 1,
        )
        page.wait_for_selector(f'body[data-step="{steps - 1}"]', state="attached")
        save(page, f"{name}-replay.png", "#viewer")
        page.context.close()
    finally:
        table.close()


def play_on_the_phone(page: Page, table: LiveTable) -> None:
    """The phone of the seat to play, paired, a piece picked and put where it may go."""
    seat = table.client().get("/api/state").json()["board"]["seat"]
    phone = table.client()
    phone.pair(table, seat)
    cookie = phone.cookies["companion_seat"]
    url = f"http://{table.host}:{table.port}"
    page.context.add_cookies([{"name": "companion_seat", "value": cookie, "url": url}])
    page.goto(f"{url}/")
    page.wait_for_selector(".tray-piece")
    page.locator(".tray-piece").last.click()
    page.locator("circle.point.legal").first.click()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for name in GAMES:
                shoot(browser, Path(folder), name)
            (Path(folder) / "lab").mkdir()
            table = LiveTable(Path(folder) / "lab", games.get("vnp").simulated_setup(2, 4))
            try:
                example = FIGURES.parent / "lab.example.toml"
                data = str(Path(folder) / "lab")
                assert companion(["lab", str(example), "--data-dir", data, "--quiet"]) == 0
                wide = browser.new_context(viewport={"width": 1000, "height": 1500}).new_page()
                wide.goto(f"http://{table.host}:{table.port}/reports/lab.example/")
                save(wide, "lab-report.png")
            finally:
                table.close()
        finally:
            browser.close()
    shots = ", ".join(f"{g}-{{live-desktop,live-phone,replay}}.png" for g in GAMES)
    print(f"wrote {shots} and lab-report.png in {FIGURES}")


if __name__ == "__main__":
    main()
