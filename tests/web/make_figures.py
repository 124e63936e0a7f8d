"""Screenshots of the page for the docs: `.venv/bin/python -m tests.web.make_figures`.

For each game (`GAMES`), plays a simulated game on a live table up to a moment worth
showing (a token in flight, owned lines, swaps done, pieces placed), then shoots the live
page on a desktop (docs/figures/GAME-live-desktop.png) and on a phone
(GAME-live-phone.png: for "Vous ne passerez pas !", the phone of the seat to play, a
piece picked and placed where it may go), and the replay viewer at that step
(GAME-replay.png). For each game with tokens (`VIRTUAL`), a virtual table (`companion run
--virtual`) played a few moves from paired phones: a seat's phone (GAME-virtual-phone.png,
its own hand below the table) and the shared screen (GAME-virtual-desktop.png); "Vous ne
passerez pas !" is played on the page in any case (vnp-live-phone.png). Then runs the
lab's example (docs/lab.example.toml) into the table's data directory and shoots its
report as the web page serves it (lab-report.png). The PNGs are stored with a palette of
at most 128 colours, to keep them small.
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import Browser, Page, sync_playwright

from companion import games
from companion.cli import main as companion
from companion.run.items import Scripted

from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from .table import Client, LiveTable

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


def save(page: Page, name: str, selector: str | None = None, whole: bool = False) -> None:
    """A screenshot, as a PNG with a palette (a page has few colours); `whole`: the whole
    page, not only what the window shows."""
    path = FIGURES / name
    if selector is None:
        page.screenshot(path=str(path), full_page=whole)
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


def pti_moves(table: LiveTable, phones: list[Client]) -> int:
    """Ana drops a lapin announcing a colombe; once her window closed, Bob drops a colombe
    in the same hat and announces it: Cy's phone, with its Doublon and Menteur."""
    ana, bob, _ = phones
    referee: Any = table.session.referee
    ana.move("drop", token="lapin", spot=5, announce="colombe")
    until(lambda: referee.state.magician == 1 and str(referee.state.phase) == "place")
    bob.move("drop", token="colombe", spot=5, announce="colombe")
    until(lambda: str(referee.state.phase) == "window")
    return 2


def flip_moves(table: LiveTable, phones: list[Client]) -> int:
    """The deal, then two builds: the phone of the seat to play next."""
    referee: Any = table.session.referee
    phones[1].move("deal", all=True)
    for square in (1, 2):
        until(lambda: str(referee.state.stage) == "play" and not referee.unjudged)
        turn = referee.state.turn
        card = phones[turn].mine()["hand"][0]
        phones[turn].move("build", card=card, square=square)
        until(lambda: referee.state.turn != turn)  # noqa: B023
    until(lambda: not referee.unjudged)
    return int(referee.state.turn)


def swiped_moves(table: LiveTable, phones: list[Client]) -> int:
    """The face-up card, the cubes, both secret cards and one swap: the next swapper's
    phone, its secret card shown."""
    from companion.games.swiped.rules import next_swap

    referee: Any = table.session.referee
    ana, bob = phones
    ana.move("draw_layout")
    until(lambda: referee.state.layout_card is not None and not referee.unjudged)
    bob.move("place_cubes")
    until(lambda: referee.placed and not referee.unjudged)
    for seat in (0, 1):
        phones[seat].move("draw_target")
        until(lambda: referee.state.targets[seat] is not None and not referee.unjudged)  # noqa: B023
    seat = next_swap(referee.state)
    phones[seat].move("swap", a=1, b=5)
    until(lambda: next_swap(referee.state) != seat and not referee.unjudged)
    return int(next_swap(referee.state))


VIRTUAL: dict[str, tuple[int, Callable[[LiveTable, list[Client]], int]]] = {
    "ptipasspass": (3, pti_moves),
    "phipasspass": (3, lambda table, phones: (phones[0].move("drop", token="bleu", spot=2), 1)[1]),
    "flipdone": (3, flip_moves),
    "swiped": (2, swiped_moves),
}
"""Each game with tokens on the virtual table: its seats, and a few moves that return the
seat whose phone is shown."""


def until(check: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit("the virtual table did not get there")
        time.sleep(0.05)


def shoot_virtual(browser: Browser, folder: Path, name: str) -> None:
    seats, moves = VIRTUAL[name]
    game = games.get(name)
    window = {"window": 1.0} if name == "ptipasspass" else {}
    setup = dataclasses.replace(game.simulated_setup(seats, 7, first=0, **window), settle=0.2)
    (folder / f"{name}-virtual").mkdir()
    table = LiveTable(folder / f"{name}-virtual", setup, virtual=True)
    try:
        table.unhurried()
        phones = [table.client() for _ in range(seats)]
        for seat, phone in enumerate(phones):
            phone.pair(table, seat)
        shown = moves(table, phones)
        base = f"http://{table.host}:{table.port}"
        version = table.web.publisher.version
        phone = browser.new_context(**PHONE_SHOT)
        cookie = phones[shown].cookies["companion_seat"]
        phone.add_cookies([{"name": "companion_seat", "value": cookie, "url": base}])
        desktop = browser.new_context(**DESKTOP)
        for context, file, whole in (
            (phone, "virtual-phone", True),
            (desktop, "virtual-desktop", False),
        ):
            page = context.new_page()
            page.goto(f"{base}/")
            page.wait_for_selector("#view:not([hidden])")
            page.wait_for_function("(v) => Number(document.body.dataset.version) >= v", arg=version)
            if file == "virtual-phone":
                page.wait_for_selector("section.hands:not([hidden])")
            save(page, f"{name}-{file}.png", whole=whole)
            context.close()
    finally:
        table.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for name in GAMES:
                shoot(browser, Path(folder), name)
            for name in VIRTUAL:
                shoot_virtual(browser, Path(folder), name)
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
    shots += ", " + ", ".join(f"{g}-virtual-{{phone,desktop}}.png" for g in VIRTUAL)
    print(f"wrote {shots} and lab-report.png in {FIGURES}")


if __name__ == "__main__":
    main()
