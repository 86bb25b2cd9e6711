"""The wiring has one truth: hardware/pins.toml. The wiring table in hardware/README.md and the
Pico's firmware/config.py must say the same pins, and gpiozero must accept the button pins."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

import companion.pins
from companion.pins import (
    BUTTONS,
    FIRMWARE_NAMES,
    PI_HEADER,
    PICO_HEADER,
    PinMapError,
    compare_firmware,
    firmware_pins,
    load,
    parse,
)

ROOT = Path(__file__).resolve().parents[1]
PINS = ROOT / "hardware" / "pins.toml"
README = ROOT / "hardware" / "README.md"
FIRMWARE_CONFIG = ROOT / "firmware" / "config.py"

PI4, PI5 = "c03111", "d04170"  # gpiozero board revisions: Pi 4 Model B 4 GB, Pi 5 8 GB
PICO_GND = {3, 8, 13, 18, 23, 28, 33, 38}  # the Pico's ground pins


def good() -> dict:
    return {
        "buttons": {"confirm": 17, "end_turn": 27, "undo": 22, "next": 23, "prev": 24},
        "oled": {"bus": 1, "address": 0x3C},
        "pico": {"ring": 16, "encoder_a": 18, "encoder_b": 19, "encoder_switch": 20, "buzzer": 15},
    }


def wiring_rows() -> list[dict[str, str]]:
    """The rows of the table under '## Wiring' in hardware/README.md, by column name."""
    section = README.read_text().split("## Wiring", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    rows = []
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        assert len(cells) == len(header), line
        rows.append(dict(zip(header, cells, strict=True)))
    return rows


# --- the pin map file ---------------------------------------------------------------------


def test_the_repository_pin_map_loads():
    pins = load(PINS)
    assert pins.buttons.as_dict() == {
        "confirm": 17,
        "end_turn": 27,
        "undo": 22,
        "next": 23,
        "prev": 24,
    }
    assert (pins.oled.bus, pins.oled.address) == (1, 0x3C)
    assert pins.source == str(PINS)


def test_load_finds_the_checkout_file_and_prefers_the_config_dir(companion_home, monkeypatch):
    monkeypatch.delenv("COMPANION_PINS", raising=False)
    assert load().source == str(PINS.resolve())
    mine = companion_home / "pins.toml"
    mine.write_text(PINS.read_text().replace("confirm = 17", "confirm = 5"))
    assert load().buttons.confirm == 5
    monkeypatch.setenv("COMPANION_PINS", str(PINS))
    assert load().buttons.confirm == 17


def test_module_doctests_run():
    result = doctest.testmod(companion.pins)
    assert result.attempted >= 4 and result.failed == 0


# --- the wiring table ---------------------------------------------------------------------


def test_wiring_table_equals_the_pin_map():
    pins = load(PINS)
    rows = wiring_rows()
    seen = set()
    for row in rows:
        key = re.fullmatch(r"`([a-z_]+\.[a-z_]+)`", row["pin map key"])
        if not key:
            assert row["pin map key"] == "-", row
            continue
        section, name = key.group(1).split(".")
        seen.add(key.group(1))
        pin, physical = row["pin"], row["physical"]
        if section == "buttons":
            gpio = getattr(pins.buttons, name)
            assert pin == f"GPIO{gpio}", row
            assert physical == f"Pi {PI_HEADER[gpio]}", row
        elif section == "pico":
            gp = getattr(pins.pico, name)
            assert pin == f"GP{gp}", row
            assert physical == f"Pico {PICO_HEADER[gp]}", row
        elif key.group(1) == "oled.bus":
            assert pin.startswith(f"I2C{pins.oled.bus} "), row
            sda_scl = {"SDA": 2, "SCL": 3}[row["signal"]]  # I2C1 is GPIO2/GPIO3 on the header
            assert pin.endswith(f"GPIO{sda_scl}") and physical == f"Pi {PI_HEADER[sda_scl]}"
        elif key.group(1) == "oled.address":
            assert int(pin, 16) == pins.oled.address, row
        elif key.group(1) == "oled.interface":
            assert pin == pins.oled.interface, row
        elif key.group(1) == "oled.spi_device":
            ce = {0: 8, 1: 7}[pins.oled.spi_device]
            assert pin == f"SPI0 CE{pins.oled.spi_device}, GPIO{ce}", row
            assert physical == f"Pi {PI_HEADER[ce]}", row
        elif section == "oled":  # dc, reset: GPIOs
            gpio = getattr(pins.oled, name)
            assert pin == f"GPIO{gpio}" and physical == f"Pi {PI_HEADER[gpio]}", row
        else:
            pytest.fail(f"unknown pin map key in the wiring table: {row}")
    every_key = {f"buttons.{b}" for b in BUTTONS} | {f"pico.{p}" for p in FIRMWARE_NAMES}
    oled = {f"oled.{k}" for k in ("bus", "address", "interface", "spi_device", "dc", "reset")}
    assert every_key | oled == seen


def test_wiring_table_grounds_are_ground_pins():
    header = MockFactory(revision=PI5).board_info.headers["J8"].pins
    pi_gnd = {number for number, info in header.items() if info.name == "GND"}
    text = README.read_text().split("## Wiring", 1)[1].split("\n## ", 1)[0]
    pi_refs = [int(n) for n in re.findall(r"GND \(Pi (\d+)\)", text)]
    pico_refs = [int(n) for n in re.findall(r"GND \(Pico (\d+)\)", text)]
    assert len(pi_refs) == 5 and len(pico_refs) == 2
    assert set(pi_refs) <= pi_gnd
    assert set(pico_refs) <= PICO_GND
    for row in wiring_rows():
        if row["pin"] == "GND" and row["physical"] != "-":
            where, number = row["physical"].split()
            assert int(number) in (pi_gnd if where == "Pi" else PICO_GND), row


# --- the Pico's copy in firmware/config.py ------------------------------------------------


def test_pico_pins_equal_firmware_config():
    pins = load(PINS)
    assert compare_firmware(pins, FIRMWARE_CONFIG) == []
    assert firmware_pins(FIRMWARE_CONFIG) == pins.pico.as_dict()


def test_firmware_config_comments_name_the_right_physical_pins():
    # config.py says e.g. "RING_PIN = 16  # GP16 (Pico pin 21)"
    text = FIRMWARE_CONFIG.read_text()
    for name in FIRMWARE_NAMES.values():
        match = re.search(rf"^{name} = (\d+)\s+# GP(\d+) \(Pico pin (\d+)\)", text, re.M)
        assert match, name
        value, gp, physical = map(int, match.groups())
        assert value == gp and PICO_HEADER[gp] == physical


def test_a_firmware_mismatch_is_reported(tmp_path):
    changed = tmp_path / "config.py"
    changed.write_text(FIRMWARE_CONFIG.read_text().replace("RING_PIN = 16", "RING_PIN = 22"))
    problems = compare_firmware(load(PINS), changed)
    assert len(problems) == 1
    assert "pico.ring = 16" in problems[0] and "RING_PIN = 22" in problems[0]


# --- gpiozero accepts the pins --------------------------------------------------------------


@pytest.mark.parametrize("revision", [PI4, PI5])
def test_gpiozero_accepts_every_button_pin(revision):
    pins = load(PINS)
    factory = MockFactory(revision=revision)
    try:
        for name in BUTTONS:
            spec = pins.gpio_name(name)
            [(header, info)] = factory.board_info.find_pin(spec)
            assert (header.name, info.number) == ("J8", PI_HEADER[int(spec[4:])])
            button = Button(spec, pin_factory=factory)  # pull-up, as wired to GND
            assert not button.is_pressed
            factory.pin(spec).drive_low()
            assert button.is_pressed
            button.close()
    finally:
        factory.close()


def test_header_table_matches_gpiozero():
    header = MockFactory(revision=PI5).board_info.headers["J8"].pins
    from_gpiozero = {
        int(info.name[4:]): number
        for number, info in header.items()
        if info.name.startswith("GPIO")
    }
    assert from_gpiozero == PI_HEADER


# --- bad values get the key and the fix ---------------------------------------------------


def with_change(section: str, key: str, value) -> dict:
    data = good()
    data[section][key] = value
    return data


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (with_change("buttons", "confirm", 2), ["buttons.confirm = 2", "I2C SDA", "Fix"]),
        (with_change("buttons", "prev", "GPIO3"), ["buttons.prev = 'GPIO3'", "I2C SCL"]),
        (with_change("buttons", "next", 0), ["buttons.next", "EEPROM"]),
        (with_change("buttons", "undo", 17), ["buttons.undo = 17", "already buttons.confirm"]),
        (with_change("buttons", "confirm", 40), ["buttons.confirm = 40", "not on the 40-pin"]),
        (with_change("buttons", "confirm", "BOARD11"), ["buttons.confirm", "GPIO17"]),
        (with_change("buttons", "confirm", True), ["buttons.confirm = True", "BCM"]),
        (with_change("buttons", "confrim", 5), ["buttons.confrim", "unknown key"]),
        (with_change("oled", "address", 0x78), ["oled.address = 120", "0x3C"]),
        (with_change("oled", "bus", "1"), ["oled.bus = '1'", "whole number"]),
        (with_change("pico", "ring", 25), ["pico.ring = 25", "GP0-GP22"]),
        (with_change("pico", "buzzer", 16), ["pico.buzzer = 16", "already pico.ring"]),
        ({**good(), "oled": 60}, ["oled = 60", "[oled]"]),
        (with_change("oled", "interface", "usb"), ["oled.interface = 'usb'", "spi"]),
        (with_change("oled", "dc", 17), ["oled.dc = 17", "already buttons.confirm"]),
        (with_change("oled", "reset", 2), ["oled.reset = 2", "I2C SDA"]),
        (with_change("oled", "spi_device", 2), ["oled.spi_device = 2", "CE1"]),
        ({**good(), "oled": {"bus": 1, "address": 0x3C, "interface": "spi", "dc": 10}},
         ["oled.dc = 10", "SPI0 MOSI"]),
        ({**good(), "buttons": {**good()["buttons"], "next": 11},
          "oled": {"bus": 1, "address": 0x3C, "interface": "spi"}},
         ["buttons.next = 11", "SPI0 SCLK", "Fix"]),
        ({k: v for k, v in good().items() if k != "pico"}, ["[pico]", "missing"]),
    ],
)
def test_bad_values_name_the_key_and_the_fix(data, expected):
    with pytest.raises(PinMapError) as caught:
        parse(data)
    message = str(caught.value)
    for part in expected:
        assert part in message, message


def test_an_older_pin_map_without_the_spi_keys_is_an_i2c_panel():
    pins = parse(good())
    assert (pins.oled.interface, pins.oled.dc, pins.oled.reset) == ("i2c", 25, 16)
    spi = parse({**good(), "oled": {"bus": 1, "address": 0x3C, "interface": "spi",
                                    "spi_device": 1, "dc": 5, "reset": 6}})
    assert (spi.oled.interface, spi.oled.spi_device, spi.oled.dc, spi.oled.reset) == (
        "spi", 1, 5, 6)


def test_missing_button_and_bad_toml(tmp_path):
    data = good()
    del data["buttons"]["undo"]
    with pytest.raises(PinMapError, match=r"buttons\.undo: missing\. Fix: add `undo = "):
        parse(data)
    broken = tmp_path / "pins.toml"
    broken.write_text("[buttons]\nconfirm = = 17\n")
    with pytest.raises(PinMapError, match="not valid TOML"):
        load(broken)
    with pytest.raises(PinMapError, match="no such file"):
        load(tmp_path / "absent.toml")


def test_gpio_names_are_accepted():
    data = good()
    data["buttons"].update(confirm="GPIO5", end_turn="BCM6", undo=" gpio12 ")
    data["pico"]["ring"] = "GP21"
    pins = parse(data)
    assert (pins.buttons.confirm, pins.buttons.end_turn, pins.buttons.undo) == (5, 6, 12)
    assert pins.pico.ring == 21
