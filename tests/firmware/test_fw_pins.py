"""hardware/pins.toml: valid, consistent, and mirrored by firmware/pins.py."""

import importlib.util
import tomllib

import pytest
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


def test_the_second_bus_uses_spi1_pins_and_takes_the_far_half_of_the_mat():
    pico = PINS["pico"]
    spi0, spi1 = pico["spi"], pico["spi1"]
    assert (spi0["bus"], spi1["bus"]) == (0, 1)
    assert spi1["sck"] in (10, 14, 26) and spi1["mosi"] in (11, 15, 27)
    assert spi1["miso"] in (8, 12, 28)
    used = [spi0["sck"], spi0["mosi"], spi0["miso"], spi1["sck"], spi1["mosi"], spi1["miso"]]
    used += [pico["readers"]["rst"], *pico["readers"]["cs"]]
    assert len(set(used)) == len(used)
    on_spi1 = pico["readers"]["spi1"]
    assert on_spi1 == list(range(10, 19))  # pad and spots 1..9 stay on SPI0, core 0


def test_gen_pins_refuses_a_second_bus_it_cannot_wire():
    gen = _gen_pins()
    no_bus = {**PINS, "pico": {k: v for k, v in PINS["pico"].items() if k != "spi1"}}
    with pytest.raises(ValueError, match=r"no \[pico.spi1\]"):
        gen.render(no_bus)
    one_bus = {**no_bus, "pico": {**no_bus["pico"]}}
    one_bus["pico"]["readers"] = {**PINS["pico"]["readers"], "spi1": []}
    assert "SPI1 = None" in gen.render(one_bus) and "ON_SPI1 = ()" in gen.render(one_bus)


def test_gen_pins_warns_of_a_bus_carrying_more_readers_than_it_scans_in_time():
    """The default wiring's buses keep to the cycle targets; every reader on SPI0 does not,
    and gen_pins says so while it still writes the map (a small mat may want it)."""
    gen = _gen_pins()
    assert gen.crowded(PINS) == []
    one_bus = {**PINS, "pico": {k: v for k, v in PINS["pico"].items() if k != "spi1"}}
    one_bus["pico"]["readers"] = {**PINS["pico"]["readers"], "spi1": []}
    (line,) = gen.crowded(one_bus)
    assert line.startswith("SPI0 carries 19 readers") and "wire half of them to SPI1" in line
    assert "ON_SPI1 = ()" in gen.render(one_bus)


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
