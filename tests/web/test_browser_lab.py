"""A lab report reached from the table's web page, in a real browser: the replay page lists
the data directory's reports and one opens as a static page with its plots drawn."""

from __future__ import annotations

import pytest

from companion import games
from companion.cli import main

from .table import LiveTable

VARIANTS = """
game = "ptipasspass"
players = 4
games = 40
[[variant]]
name = "as ruled"
[[variant]]
name = "turn limit 8"
rules = { turn_limit = 8 }
"""


@pytest.fixture
def lab_table(tmp_path):
    (tmp_path / "pti.toml").write_text(VARIANTS, encoding="utf-8")
    data = tmp_path / "data"
    data.mkdir()
    code = main(["lab", str(tmp_path / "pti.toml"), "--data-dir", str(data), "--quiet",
                 "--workers", "1"])  # fmt: skip
    assert code == 0
    table = LiveTable(data, games.get("ptipasspass").simulated_setup(4, 1))
    yield table
    table.close()


def test_the_replay_page_lists_the_report_and_opens_it(lab_table, phone):
    page = phone()
    page.goto(f"http://{lab_table.host}:{lab_table.port}/replay")
    link = page.locator("#reports li a").first
    link.wait_for()
    assert "Lab: pti" in link.inner_text() and "turn limit 8" in link.inner_text()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    link.click()
    page.wait_for_url("**/reports/pti/")
    assert page.title() == "Lab: pti"
    plots = page.locator("figure svg")
    assert plots.count() >= 4
    box = plots.first.bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 100  # drawn, visible
    assert page.locator("table").count() >= 3
    assert not errors  # the report's inline style passes its own security policy
