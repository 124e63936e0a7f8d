"""Fixtures of the firmware tests: the firmware loaded against the shims, and a fresh rig."""

import pytest
from fwload import load_firmware  # noqa: F401  (conftest puts tests/firmware on sys.path)

_FW = None


def _firmware():
    global _FW
    if _FW is None:
        _FW = load_firmware()
    return _FW


@pytest.fixture(scope="session")
def fw():
    return _firmware()


@pytest.fixture
def rig_factory(fw):
    import harness

    def make(n=3, **kw):
        return harness.Rig(fw.mfrc522, n=n, **kw)

    return make
