"""Browser fixtures: Debian's Chromium driven by Playwright (never a browser download).
The session's browser itself (`browser`) and its phones (`phone`) are the suite's
(tests/conftest.py): one Playwright per process, whichever folder's tests use it.

Without /usr/bin/chromium the browser tests are skipped, except in CI (COMPANION_CI),
which installs it and must not hide them.
"""

from __future__ import annotations

import shutil

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
