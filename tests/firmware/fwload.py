"""Load the firmware modules on CPython against the shims, without leaking their names.

The firmware imports its siblings by bare name (``import mfrc522``), and ``mfrc522`` is also
the name of a PyPI package a Raspberry Pi back end may use. So the modules are imported
with firmware/ and shims/ at the front of ``sys.path`` and the fakes in ``sys.modules``, and
afterwards every name they took is given back; the loaded modules keep their references.
"""

import importlib
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FIRMWARE = ROOT / "firmware"
SHIMS = HERE / "shims"
MODULES = ("pins", "protocol", "mfrc522", "scanner", "cores", "main")
TAKEN = ("machine", "utime", "micropython", *MODULES)


def add_paths() -> None:
    """Make the shims (``fake_machine`` ...) and the test helpers (``chip``...) importable."""
    for path in (str(SHIMS), str(HERE)):
        if path not in sys.path:
            sys.path.insert(0, path)


add_paths()


def load_firmware() -> types.SimpleNamespace:
    import fake_machine
    import fake_micropython
    import fake_utime
    import harness

    saved = {name: sys.modules.get(name) for name in TAKEN}
    old_path = list(sys.path)
    try:
        sys.path.insert(0, str(FIRMWARE))
        for name in MODULES:
            sys.modules.pop(name, None)
        harness.install()
        loaded = {name: importlib.import_module(name) for name in MODULES}
    finally:
        sys.path[:] = old_path
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    return types.SimpleNamespace(
        machine=fake_machine, utime=fake_utime, micropython=fake_micropython, **loaded
    )
