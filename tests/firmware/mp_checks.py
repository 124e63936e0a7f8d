"""What the MicroPython test scripts share (mp_selftest.py, mp_timing.py, mp_hotpath.py):
the firmware and its shims on the path, the emulated Pico installed, and a tally of checks
that reports every failure before it exits non-zero."""

import sys

failures = []
passed = [0]


def install(root):
    """The firmware, the shims and these helpers importable; the emulated hardware in."""
    for folder in ("/firmware", "/tests/firmware/shims", "/tests/firmware"):
        sys.path.insert(0, root + folder)
    import harness

    harness.install()


def check(name, ok):
    if ok:
        passed[0] += 1
    else:
        failures.append(name)


def run(tag, tests):
    """Every test, then one ``<tag> ok <n>`` line, or every failure and exit 1."""
    for test in tests:
        try:
            test()
        except Exception as err:  # report every failure, then exit non-zero
            failures.append(f"{test.__name__} raised {err!r}")
    if failures:
        for failure in failures:
            print("FAIL", failure)
        sys.exit(1)
    print(f"{tag} ok {passed[0]}")
