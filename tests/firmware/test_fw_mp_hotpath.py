"""The driver's hot path under the real MicroPython: no heap allocation, native code."""

from test_fw_micropython import run_script


def test_driver_hot_path_allocates_nothing_and_is_native_under_micropython():
    output = run_script("mp_hotpath.py")
    assert "MP-HOTPATH ok" in output, output
