"""hardware/pins.toml: valid, consistent, and mirrored by firmware/pins.py."""

import importlib.util
import tomllib

from fwload import FIRMWARE, ROOT

PINS = tomllib.loads((ROOT / "hardware" / "pins.toml").read_text())


def _gen_pins():
    spec = importlib.util.spec_from_file_location("gen_pins", FIRMWARE / "gen_pins.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pins_py_is_generated_from_pins_toml():
    assert (FIRMWARE / "pins.py").read_text() == _gen_pins().render(PINS)


def test_pico_has_19_distinct_chip_selects_off_the_spi_pins():
    pico = PINS["pico"]
    cs = pico["readers"]["cs"]
    spi = pico["spi"]
    assert len(cs) == 19
    used = [spi["sck"], spi["mosi"], spi["miso"], pico["readers"]["rst"], *cs]
    assert len(set(used)) == len(used)
    assert all(0 <= p <= 22 or 26 <= p <= 28 for p in used)  # GPIOs a Pico brings out
    assert (spi["sck"], spi["mosi"], spi["miso"]) in [(18, 19, 16), (2, 3, 0), (6, 7, 4)]


def test_pi_buttons_avoid_i2c_spi_and_each_other():
    pi = PINS["pi"]
    buttons = [
        *pi["seats"]["doublon"],
        *pi["seats"]["menteur"],
        *pi["console"]["announce"],
        pi["console"]["back"],
        pi["encoder"]["a"],
        pi["encoder"]["b"],
        pi["encoder"]["push"],
    ]
    assert len(pi["seats"]["doublon"]) == len(pi["seats"]["menteur"]) == 6
    assert len(pi["console"]["announce"]) == 3
    assert len(set(buttons)) == len(buttons) == 19
    assert not set(buttons) & {0, 1, 2, 3, 7, 8, 9, 10, 11}
    assert all(4 <= p <= 27 for p in buttons)
    assert (pi["oled"]["sda"], pi["oled"]["scl"]) == (2, 3)
