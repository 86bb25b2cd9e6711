"""The pin map: where the buttons, the OLED and the Pico's parts are wired.

One TOML file says it (``hardware/pins.toml`` in the repository, ``/etc/companion/pins.toml``
on the Pi); this module reads and checks it, so a wiring mistake is reported with the key and
the fix before any GPIO is touched. Button pins are Raspberry Pi BCM numbers, the naming
gpiozero uses (``17`` or ``"GPIO17"``); Pico pins are RP2040 GP numbers, as in
``firmware/config.py``.

>>> pins = parse({
...     "buttons": {"confirm": 17, "end_turn": 27, "undo": 22, "next": 23, "prev": "GPIO24"},
...     "oled": {"bus": 1, "address": 0x3C},
...     "pico": {"ring": 16, "encoder_a": 18, "encoder_b": 19, "encoder_switch": 20,
...              "buzzer": 15},
... })
>>> pins.buttons.prev, pins.gpio_name("prev"), PI_HEADER[pins.buttons.prev]
(24, 'GPIO24', 18)
>>> hex(pins.oled.address)
'0x3c'
>>> parse({"buttons": {"confirm": 2}})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
companion.pins.PinMapError: pins.toml: buttons.confirm = 2: GPIO2 is I2C SDA (header pin 3), ...
"""

from __future__ import annotations

import ast
import os
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from companion import toml_text
from companion.i18n import N_, _
from companion.paths import config_dir

__all__ = [
    "BUTTONS",
    "FIRMWARE_NAMES",
    "PICO_HEADER",
    "PI_HEADER",
    "Buttons",
    "Oled",
    "Pico",
    "PinMap",
    "PinMapError",
    "compare_firmware",
    "find_pin_file",
    "firmware_pins",
    "load",
    "parse",
]

#: The five arcade buttons, in the order they sit on the panel.
BUTTONS = ("confirm", "end_turn", "undo", "next", "prev")

#: Raspberry Pi 40-pin header (J8, the same on the Pi 2 to Pi 5): BCM GPIO -> physical pin.
# fmt: off
PI_HEADER: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19,
    9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35,
    16: 36, 26: 37, 20: 38, 21: 40,
}
# fmt: on

#: Pins a button must not use, and why (translated where shown).
PI_RESERVED: dict[int, str] = {
    2: N_("I2C SDA (header pin 3), the OLED's bus"),
    3: N_("I2C SCL (header pin 5), the OLED's bus"),
    0: N_("ID_SD (header pin 27), reserved for HAT ID EEPROMs"),
    1: N_("ID_SC (header pin 28), reserved for HAT ID EEPROMs"),
}

#: Raspberry Pi Pico: GP number -> physical pin (GP23/24/25/29 are not on the edge pins).
# fmt: off
PICO_HEADER: dict[int, int] = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
    13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31,
    27: 32, 28: 34,
}
# fmt: on

#: [pico] key -> the name of the same pin in firmware/config.py.
FIRMWARE_NAMES = {
    "ring": "RING_PIN",
    "encoder_a": "ENC_A_PIN",
    "encoder_b": "ENC_B_PIN",
    "encoder_switch": "ENC_SW_PIN",
    "buzzer": "BUZZER_PIN",
}

_REPO_FILE = Path(__file__).resolve().parents[1] / "hardware" / "pins.toml"


class PinMapError(ValueError):
    """The pin map file is missing or has a bad value; the message names the key and the fix."""


@dataclass(frozen=True)
class Buttons:
    """BCM GPIO numbers of the five arcade buttons (each wired to GND, internal pull-up)."""

    confirm: int
    end_turn: int
    undo: int
    next: int
    prev: int

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in BUTTONS}


@dataclass(frozen=True)
class Oled:
    """How the OLED is wired: on I2C, its bus number (``/dev/i2c-<bus>``) and 7-bit address;
    on SPI (``interface = "spi"``), SPI0's chip select (``spi_device`` 0 or 1: CE0 GPIO8 or CE1
    GPIO7) and the BCM GPIOs of its DC and RST pins."""

    bus: int
    address: int
    interface: str = "i2c"
    spi_device: int = 0
    dc: int = 25
    reset: int = 16


@dataclass(frozen=True)
class Pico:
    """RP2040 GP numbers of the light board's parts (must equal ``firmware/config.py``)."""

    ring: int
    encoder_a: int
    encoder_b: int
    encoder_switch: int
    buzzer: int

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class PinMap:
    """The whole pin map, as read from ``source``."""

    buttons: Buttons
    oled: Oled
    pico: Pico
    source: str = "pins.toml"

    def gpio_name(self, button: str) -> str:
        """The gpiozero pin name of a button, e.g. ``"GPIO17"`` for ``Button(...)``."""
        return f"GPIO{getattr(self.buttons, button)}"


# --- reading ------------------------------------------------------------------------------


def find_pin_file() -> Path:
    """Where the pin map is read from: ``$COMPANION_PINS``, else ``pins.toml`` in the config
    directory (``/etc/companion`` under systemd), else this checkout's ``hardware/pins.toml``.
    """
    env = os.environ.get("COMPANION_PINS")
    if env:
        return Path(env)
    candidates = [config_dir() / "pins.toml", _REPO_FILE]
    for path in candidates:
        if path.is_file():
            return path
    tried = ", ".join(str(p) for p in candidates)
    raise PinMapError(
        _("no pin map found (looked at {tried}). Fix: copy hardware/pins.toml from the "
          "repository to {path} (on the Pi: /etc/companion/pins.toml), or set "
          "COMPANION_PINS to its path.").format(tried=tried, path=candidates[0])
    )


def load(path: str | os.PathLike[str] | None = None) -> PinMap:
    """Read and check the pin map file (see :func:`find_pin_file` for the default)."""
    file = Path(path) if path is not None else find_pin_file()
    try:
        data = tomllib.loads(toml_text.read(file))
    except FileNotFoundError:
        raise PinMapError(
            _("{path}: no such file. Fix: copy hardware/pins.toml there, or point "
              "COMPANION_PINS at the pin map.").format(path=file)
        ) from None
    except toml_text.TextFileError as exc:  # a folder, a device, a huge file, not UTF-8
        raise PinMapError(_("{path} (the pin map, a copy of hardware/pins.toml): {reason}")
                          .format(path=file, reason=exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise PinMapError(_("{path}: not valid TOML ({reason}). Fix the line it names.").format(
            path=file, reason=exc)) from None
    except RecursionError:
        raise PinMapError(_("{path}: not valid TOML (nested too deeply). Fix the syntax.")
                          .format(path=file)) from None
    except (OSError, ValueError) as exc:  # no permission, a path the system refuses, ...
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise PinMapError(_("{path}: cannot read the pin map ({reason}). Fix: make it a file "
                            "the companion's user can read, or point COMPANION_PINS at "
                            "one.").format(path=file, reason=reason)) from None
    return parse(data, source=str(file))


def parse(data: dict[str, Any], source: str = "pins.toml") -> PinMap:
    """Check a parsed pin map (the TOML as a dict) and return it as a :class:`PinMap`."""
    where = Path(source).name if source == "pins.toml" else source

    def fail(key: str, value: Any, why: str) -> PinMapError:
        shown = f"{key} = {value!r}" if value is not None else key
        return PinMapError(_("{where}: {setting}: {why}").format(where=where, setting=shown,
                                                                  why=why))

    _known(data, {"buttons", "oled", "pico"}, "", fail)
    buttons_raw = _table(data, "buttons", fail)
    _known(buttons_raw, set(BUTTONS), "buttons.", fail)

    used: dict[int, str] = {}
    buttons: dict[str, int] = {}
    for name in BUTTONS:
        key = f"buttons.{name}"
        if name not in buttons_raw:
            raise fail(
                key, None, _("missing. Fix: add {line} under {section}.").format(
                    line=f"`{name} = <BCM GPIO number>`", section="[buttons]")
            )
        value = buttons_raw[name]
        pin = _bcm(value, key, fail)
        if pin in PI_RESERVED:
            raise fail(
                key,
                value,
                _("{pin} is {use}. Fix: wire the button to a free GPIO ({free}) and write that "
                  "number here.").format(pin=f"GPIO{pin}", use=_(PI_RESERVED[pin]),
                                         free=_free_pi(used)),
            )
        if pin in used:
            raise fail(
                key,
                value,
                _("{pin} is already {use}. Fix: every button needs its own GPIO; free ones: "
                  "{free}.").format(pin=f"GPIO{pin}", use=used[pin], free=_free_pi(used)),
            )
        used[pin] = f"buttons.{name}"
        buttons[name] = pin

    oled_raw = _table(data, "oled", fail)
    _known(oled_raw, {"bus", "address", "interface", "spi_device", "dc", "reset"}, "oled.", fail)
    bus = _int(oled_raw, "bus", "oled.", fail,
               _("the I2C bus number: 1 for the header pins 3/5"))
    if bus < 0:
        raise fail("oled.bus", bus,
                   _("must be 0 or more (1 is the header's I2C bus, /dev/i2c-1)."))
    address = _int(oled_raw, "address", "oled.", fail,
                   _("the 7-bit I2C address, e.g. 0x3C"))
    if not 0x08 <= address <= 0x77:
        raise fail(
            "oled.address",
            address,
            _("not a 7-bit I2C device address (0x08-0x77). Fix: write what {command} shows, "
              "usually 0x3C (some modules 0x3D); a printed 0x78/0x7A is the same address "
              "shifted left: use 0x3C/0x3D.").format(command="`i2cdetect -y 1`"),
        )

    interface = oled_raw.get("interface", "i2c")
    if interface not in ("i2c", "spi"):
        raise fail("oled.interface", interface,
                   _('write "i2c" (SDA/SCL, header pins 3/5) or "spi" (SPI0, see '
                     'hardware/README.md).'))
    spi_device = oled_raw.get("spi_device", 0)
    if spi_device not in (0, 1) or isinstance(spi_device, bool):
        raise fail("oled.spi_device", spi_device,
                   _("0 (CE0, GPIO8, header pin 24) or 1 (CE1, GPIO7, header pin 26)."))
    spi_pins = {8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK", 7: "SPI0 CE1"}
    oled_pins: dict[str, int] = {}
    for name, default in (("dc", 25), ("reset", 16)):
        key = f"oled.{name}"
        value = oled_raw.get(name, default)
        pin = _bcm(value, key, fail)
        clash = used.get(pin) or (_(PI_RESERVED[pin]) if pin in PI_RESERVED else None) or (
            spi_pins.get(pin) if interface == "spi" else None) or next(
            (f"oled.{k}" for k, v in oled_pins.items() if v == pin), None)
        if clash:
            raise fail(key, value, _("{pin} is already {use}. Fix: wire the panel's {name} to a "
                                     "free GPIO ({free}).").format(
                pin=f"GPIO{pin}", use=clash, name=name.upper(), free=_free_pi(used)))
        oled_pins[name] = pin
    if interface == "spi":
        for pin, use in used.items():
            if pin in spi_pins:
                raise fail(use, pin, _("{pin} is {spi}, which the SPI panel needs. Fix: move "
                                       "the button to a free GPIO ({free}).").format(
                    pin=f"GPIO{pin}", spi=spi_pins[pin], free=_free_pi(used)))

    pico_raw = _table(data, "pico", fail)
    _known(pico_raw, set(FIRMWARE_NAMES), "pico.", fail)
    pico: dict[str, int] = {}
    pico_used: dict[int, str] = {}
    for name, fw_name in FIRMWARE_NAMES.items():
        key = f"pico.{name}"
        if name not in pico_raw:
            raise fail(
                key,
                None,
                _("missing. Fix: add {line} ({name} in firmware/config.py) under {section}.")
                .format(line=f"`{name} = <GP number>`", name=fw_name, section="[pico]"),
            )
        value = pico_raw[name]
        pin = _gp(value, key, fail)
        if pin in pico_used:
            raise fail(
                key,
                value,
                _("{pin} is already {use}. Fix: give each part its own GP pin, here and in "
                  "firmware/config.py.").format(pin=f"GP{pin}", use=pico_used[pin]),
            )
        pico_used[pin] = key
        pico[name] = pin

    oled = Oled(bus, address, interface, spi_device, oled_pins["dc"], oled_pins["reset"])
    return PinMap(Buttons(**buttons), oled, Pico(**pico), source=source)


# --- the Pico's own copy --------------------------------------------------------------------


def firmware_pins(config_py: str | os.PathLike[str]) -> dict[str, int]:
    """The Pico pin numbers in ``firmware/config.py``, by [pico] key, read without running it."""
    tree = ast.parse(Path(config_py).read_text(encoding="utf-8"), filename=str(config_py))
    values: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                try:
                    values[target.id] = ast.literal_eval(node.value)
                except ValueError:
                    continue
    return {key: values[name] for key, name in FIRMWARE_NAMES.items() if name in values}


def compare_firmware(pins: PinMap, config_py: str | os.PathLike[str]) -> list[str]:
    """Every disagreement between the pin map's [pico] section and ``firmware/config.py``."""
    fw = firmware_pins(config_py)
    problems = []
    for key, pin in pins.pico.as_dict().items():
        name = FIRMWARE_NAMES[key]
        if key not in fw:
            problems.append(_("{path}: {name} is missing (pins.toml has {setting})").format(
                path=config_py, name=name, setting=f"pico.{key} = {pin}"))
        elif fw[key] != pin:
            problems.append(
                _("{setting} in {source} but {firmware} in {path}: the board is wired one way; "
                  "make both say that pin").format(setting=f"pico.{key} = {pin}",
                                                   source=pins.source,
                                                   firmware=f"{name} = {fw[key]}", path=config_py)
            )
    return problems


# --- helpers --------------------------------------------------------------------------------


def _table(data: dict[str, Any], name: str, fail) -> dict[str, Any]:
    table = data.get(name)
    if table is None:
        raise fail(
            f"[{name}]",
            None,
            _("section missing. Fix: copy the {section} section from hardware/pins.toml in the "
              "repository.").format(section=f"[{name}]"),
        )
    if not isinstance(table, dict):
        raise fail(name, table, _("must be a section ({section}), not a single value.").format(
            section=f"[{name}]"))
    return table


def _known(table: dict[str, Any], allowed: set[str], prefix: str, fail) -> None:
    for key in table:
        if key not in allowed:
            raise fail(
                f"{prefix}{key}",
                None,
                _("unknown key. Fix: use one of {keys} (a typo here would leave a part "
                  "unwired).").format(keys=", ".join(sorted(allowed))),
            )


def _int(table: dict[str, Any], name: str, prefix: str, fail, what: str) -> int:
    if name not in table:
        raise fail(f"{prefix}{name}", None, _("missing. Fix: add {line} ({what}).").format(
            line=f"`{name} = ...`", what=what))
    value = table[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(f"{prefix}{name}", value, _("must be a whole number ({what}).").format(
            what=what))
    return value


def _bcm(value: Any, key: str, fail) -> int:
    pin: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        pin = value
    elif isinstance(value, str):
        text = value.strip().upper()
        for prefix in ("GPIO", "BCM"):
            if text.startswith(prefix) and _digits(text[len(prefix) :]):
                pin = int(text[len(prefix) :])
    if pin is None:
        raise fail(
            key,
            value,
            _('not a BCM GPIO number. Fix: write it as 17 or "GPIO17" (BCM numbering, not the '
              "header pin number; the wiring table in hardware/README.md lists both)."),
        )
    if pin not in PI_HEADER:
        raise fail(
            key,
            value,
            _("{pin} is not on the 40-pin header (GPIO0-GPIO27). Fix: use the BCM number, not "
              "the header pin number.").format(pin=f"GPIO{pin}"),
        )
    return pin


def _gp(value: Any, key: str, fail) -> int:
    pin: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        pin = value
    elif isinstance(value, str):
        text = value.strip().upper()
        if text.startswith("GP") and _digits(text[2:]):
            pin = int(text[2:])
    if pin is None:
        raise fail(key, value, _('not a Pico GP number. Fix: write it as 16 or "GP16".'))
    if pin not in PICO_HEADER:
        raise fail(
            key,
            value,
            _("{pin} is not on the Pico's pins (GP0-GP22, GP26-GP28). Fix: use the GP number "
              "printed on the pinout, not the pin number.").format(pin=f"GP{pin}"),
        )
    return pin


def _digits(text: str) -> bool:
    """A pin number as written: ASCII digits only, and few (str.isdigit() also takes "²" and
    "٣", which int() refuses or reads as another number)."""
    return 0 < len(text) <= 6 and all("0" <= c <= "9" for c in text)


def _free_pi(used: dict[int, str]) -> str:
    free = [p for p in sorted(PI_HEADER) if p not in PI_RESERVED and p not in used]
    # the pins no common add-on claims come first: the rest double as SPI/UART/PCM
    plain = [p for p in free if p in {5, 6, 12, 13, 16, 17, 22, 23, 24, 25, 26, 27}]
    return ", ".join(str(p) for p in plain[:7]) + " ..."
