"""The lab's reports in the data directory (`reports/NAME/`), as the web page serves them.

`companion lab` and `companion report` write there by default; the page lists them on
its replay page and serves each report's three files, nothing else of the folder.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

REPORT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,100}")
REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'"
"""A report is one static document: its style and its plots' SVG are inline, and it runs
no script at all."""


class Reports:
    def __init__(self, data_dir: Path) -> None:
        self.folder = data_dir / "reports"

    def listing(self) -> list[dict[str, Any]]:
        """Every report, newest first: its name, title and what it compares."""
        if not self.folder.is_dir():
            return []
        found = []
        for path in self.folder.iterdir():
            page = path / "report.html"
            if REPORT_NAME.fullmatch(path.name) and page.is_file():
                found.append((page.stat().st_mtime, path))
        listing = []
        for modified, path in sorted(found, reverse=True):
            title, variants = path.name, []
            try:
                figures = json.loads((path / "figures.json").read_text(encoding="utf-8"))
                title = str(figures.get("title", title))
                variants = [str(v.get("variant")) for v in figures.get("variants", [])]
            except (OSError, ValueError, AttributeError):
                pass  # a report without its figures is still listed, by its folder's name
            listing.append(
                {"name": path.name, "title": title, "variants": variants, "modified": modified}
            )
        return listing

    def find(self, name: str, file: str) -> Path | None:
        """One of a report's files, if it exists (no other path can be reached)."""
        from companion.lab.report import FILES  # the lab, only when a report is asked for

        if not REPORT_NAME.fullmatch(name) or file not in FILES:
            return None
        path = self.folder / name / file
        return path if path.is_file() else None
