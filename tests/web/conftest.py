"""Browser fixtures: Debian's Chromium driven by Playwright (never a browser download).
The session's browser itself (`browser`) is the suite's (tests/conftest.py): one
Playwright per process, whichever folder's tests use it.

Without /usr/bin/chromium the browser tests are skipped, except in CI (COMPANION_CI),
which installs it and must not hide them.
"""

from __future__ import annotations

import shutil

import pytest

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


@pytest.fixture
def phone(browser):
    """A new phone-sized page with its own cookies; `phone()` opens another."""
    contexts = []

    def open_page():
        context = browser.new_context(**PHONE)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()
