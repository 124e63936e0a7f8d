"""Tools some tests need from the system (systemd-analyze, shellcheck, Chromium)."""

from __future__ import annotations

import os
import shutil

import pytest


def required(tool: str, install: str) -> str:
    """The path of ``tool``. Without it the test is skipped, except in CI (``COMPANION_CI``,
    set by .ci/run, which installs every such tool): there a skip would hide the test, so
    it fails. ``install`` says how to get it (``apt-get install ...``)."""
    found = tool if os.path.isabs(tool) and os.path.exists(tool) else shutil.which(tool)
    if found is None:
        missing = f"{tool} is not installed ({install})"
        if os.environ.get("COMPANION_CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    return found
