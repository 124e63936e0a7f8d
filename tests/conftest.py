"""Settings of the whole suite, and what tests of several folders share."""

import logging
import os

import pytest
from hypothesis import HealthCheck, settings

from tests.tools import required

# No test is timed (speed goals are checked by the benchmarks in bench/): a property test
# must not fail because the machine running it is busy.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")

# The command line speaks the table's language (French unless told otherwise); the suite's
# tests of what it says are written in English unless they say which language they test
# (tests/test_languages.py and tests/cli/test_command_language.py test both).
os.environ["COMPANION_LANG"] = "en"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`--dist loadgroup` sends a test marked `xdist_group(NAME)` to the worker that has
    its group by the suffix ``@NAME`` of its node id. pytest-xdist 3.8 writes that suffix
    into ``item._nodeid``, which pytest 9.2 no longer reads (its ids are `NodeId`s):
    every group was split over both workers, each booting its own emulated Pico and
    generating its own kit (pytest-dev/pytest-xdist#1386). Written here where xdist's
    did not take."""
    if not config.getoption("loadgroup", False):  # xdist sets it on its workers
        return
    try:
        from _pytest.nodeid import NodeId
    except ImportError:  # a pytest before 9.2 reads the id xdist wrote
        return
    for item in items:
        names = {str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                 for m in item.iter_markers("xdist_group")}  # fmt: skip
        if names and "@" not in item.nodeid:
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(sorted(names))}")


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium through Playwright, once per process: a second `sync_playwright`
    in the same process refuses to start while the first runs (the page's and the club's
    browser tests share this one)."""
    from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS

    required(CHROMIUM, "apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    """A new phone-sized page with its own cookies; `phone()` opens another."""
    from tests.web.conftest import PHONE

    contexts = []

    def open_page():
        context = browser.new_context(**PHONE)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture(autouse=True)
def _root_logging_restored():
    """A command run in-process (`companion run`, `companion club`) sets up logging on the
    root logger with the test's captured stderr; once that stream is closed, a thread of a
    later test (paho's) logging there prints "--- Logging error ---". Each test takes away
    the plain stream handlers it added (pytest's own capture handlers are subclasses, which
    pytest manages) and gives the root logger its level back."""
    root = logging.getLogger()
    before, level = set(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        if type(handler) is logging.StreamHandler and handler not in before:
            root.removeHandler(handler)
    root.setLevel(level)
