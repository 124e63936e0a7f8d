"""Screenshots of the page for the docs: `.venv/bin/python -m tests.web.make_figures`.

Plays a two-player "Vous ne passerez pas !" game on a live table through the page's HTTP
interface (hints confirmed), shoots a phone-sized page mid-game (docs/figures/
web-board.png), then the replay viewer on that journal (docs/figures/web-replay.png).
Then runs the lab's example (docs/lab.example.toml) into the table's data directory and
shoots its report as the web page serves it (docs/figures/lab-report.png).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from companion import games
from companion.cli import main as companion

from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from .table import LiveTable

FIGURES = Path(__file__).resolve().parents[2] / "docs" / "figures"
PLACEMENTS = 18


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        table = LiveTable(Path(folder), games.get("vnp").simulated_setup(2, 4))
        try:
            phones = {seat: table.client() for seat in (0, 1)}
            for seat, client in phones.items():
                client.pair(table, seat)
            for _ in range(PLACEMENTS):
                board = table.client().get("/api/state").json()["board"]
                _, _, segments = max(board["legal"], key=lambda p: (len(p[2]), p[0]))
                phones[board["seat"]].act("place", {"colour": board["turn"], "segments": segments})
                table.settle()
            page = browser.new_context(**PHONE, device_scale_factor=2).new_page()
            page.context.add_cookies(
                [{"name": "companion_seat", "value": phones[table.session.referee.board_view()
                  ["seat"]].cookies["companion_seat"], "url": f"http://{table.host}:{table.port}"}]
            )  # fmt: skip
            page.goto(f"http://{table.host}:{table.port}/")
            page.wait_for_selector(".tray-piece")
            page.click(".tray-piece[data-piece='4c']")
            page.locator("circle.point.legal").first.click()
            page.screenshot(path=str(FIGURES / "web-board.png"), full_page=True)
            page.goto(f"http://{table.host}:{table.port}/replay")
            page.locator("#journals li a").first.click()
            page.wait_for_selector("#step-label")
            for _ in range(6):
                page.click("#next")
            page.screenshot(path=str(FIGURES / "web-replay.png"), full_page=True)
            example = FIGURES.parent / "lab.example.toml"
            assert companion(["lab", str(example), "--data-dir", folder, "--quiet"]) == 0
            wide = browser.new_context(viewport={"width": 1000, "height": 1500}).new_page()
            wide.goto(f"http://{table.host}:{table.port}/reports/lab.example/")
            wide.screenshot(path=str(FIGURES / "lab-report.png"))
        finally:
            table.close()
            browser.close()
    print(f"wrote web-board.png, web-replay.png and lab-report.png in {FIGURES}")


if __name__ == "__main__":
    main()
