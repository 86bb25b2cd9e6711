"""Display backends behind one small interface: ``show(image) -> bool`` and ``close()``.

Chosen by a spec the way gpiozero picks a pin factory (the daemon builds it from the config's
``[display]`` table and the pin map)::

    >>> d = open_display({"backend": "dummy"})
    >>> from companion.display.screens import notice
    >>> d.show(notice("ANA", "ROLL!"))
    True
    >>> d.close()

Backends (``backend =``):

``ssd1309`` / ``ssd1306`` /   a real 128x64 panel via luma.oled, on I2C (``port`` 1, ``address``
``sh1106``                    0x3C) or SPI (``interface = "spi"``: ``spi_device``, ``dc``,
                              ``reset`` GPIO pins); ``rotation`` 0 or 2, ``contrast`` 0-255
``ssd1322``                   a 256x64 panel on SPI
``ssd1327`` / ``sh1107``      a 128x128 panel on I2C or SPI
``dummy``                     luma's in-memory device (tests); the last frame is ``.device.image``
``recorder``                  every frame to ``out``/frame_0001.png..., an animated GIF on close
``terminal``                  the panel drawn in a terminal with Unicode half blocks or braille,
                              as big as the terminal takes (``style = "auto"``), with the
                              words of the prompt and the keys under or beside it

A panel shows screens of its own size; the others show screens of any size (the size of the
screens comes from ``[display] panel``, see ``companion.display.draw.Panel``).

Opening a panel that is absent raises ``DisplayUnavailable`` (what, where, what to do); with
``fallback = "terminal"`` (or any other backend name) ``open_display`` opens that one instead.
A panel unplugged mid-game never raises from ``show``: it returns False (the reason is in
``last_error``), and a later ``show`` reconnects and works again once the panel is back.
"""

from __future__ import annotations

import os
import sys
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, TextIO

from PIL import Image

from companion.display.draw import panel
from companion.i18n import _

I2C_DEVICE = "/dev/i2c-{port}"  # where the I2C bus appears on a Raspberry Pi
SPI_DEVICE = "/dev/spidev{port}.{device}"
# luma.oled drivers and the size of panel each drives here.
DRIVER_SIZES = {
    "ssd1309": (128, 64),
    "ssd1306": (128, 64),
    "sh1106": (128, 64),
    "ssd1322": (256, 64),
    "ssd1327": (128, 128),
    "sh1107": (128, 128),
}
PANELS = tuple(DRIVER_SIZES)
SPI_ONLY = ("ssd1322",)
INTERFACES = ("i2c", "spi")
BACKENDS = (*PANELS, "dummy", "recorder", "terminal")


class DisplayError(Exception):
    """A display problem a person can fix; the message says what, where and what to do."""


class DisplayUnavailable(DisplayError):
    """The configured display cannot be opened (no I2C bus, no panel answering, no permission)."""


class DisplayConfigError(DisplayError, ValueError):
    """A ``[display]`` setting is wrong."""


class Display(ABC):
    """The interface every backend has. ``show`` returns True when the frame reached the panel.

    Use as a context manager to close it at the end.
    """

    name = "display"
    last_error: str | None = None

    @abstractmethod
    def show(self, image: Image.Image) -> bool:
        """Put ``image`` on the panel; False (and ``last_error``) when it could not."""

    def close(self) -> None:  # noqa: B027 - most backends have nothing to release
        pass

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _prepare(image: Image.Image, size: tuple[int, int] | None = None) -> Image.Image:
    """``image`` in mode "1"; ValueError when ``size`` is given and the image is not it."""
    if size is not None and image.size != tuple(size):
        raise ValueError(_("a screen for this panel is {wanted}, not {got}: set [display] panel "
                           "to the panel's size").format(wanted="x".join(map(str, size)),
                                                         got=f"{image.width}x{image.height}"))
    return image if image.mode == "1" else image.convert("1")


def draw_on(device: Any, image: Image.Image) -> None:
    """Show ``image`` on a luma device, drawn the luma way (``with canvas(device) as draw``)."""
    from luma.core.render import canvas

    image = _prepare(image, (device.width, device.height))
    with canvas(device) as draw:
        draw.bitmap((0, 0), image, fill="white")


# --------------------------------------------------------------------------- luma devices


class LumaDisplay(Display):
    """A luma.oled panel (a driver of ``DRIVER_SIZES``) on I2C or SPI.

    ``device_factory`` (for tests) replaces the luma constructor: it gets no arguments and
    returns a luma-like device. luma.oled is imported only when a panel is opened.
    """

    def __init__(
        self,
        driver: str = "ssd1306",
        port: int = 1,
        address: int = 0x3C,
        rotation: int = 0,
        contrast: int = 255,
        device_factory: Any = None,
        interface: str = "i2c",
        spi_device: int = 0,
        dc: int = 25,
        reset: int = 16,
    ):
        if driver not in PANELS:
            raise DisplayConfigError(_("display driver {driver}: use one of {known}").format(
                driver=repr(driver), known=", ".join(PANELS)))
        if interface not in INTERFACES:
            raise DisplayConfigError(_("{setting}: use i2c or spi").format(
                setting=f"interface = {interface!r}"))
        if driver in SPI_ONLY and interface != "spi":
            raise DisplayConfigError(
                _("the {driver} talks SPI only: set {setting} in the pin map (hardware/pins.toml)"
                  " and wire it as hardware/README.md shows").format(
                    driver=driver.upper(), setting='[oled] interface = "spi"'))
        self.name = driver
        self.driver, self.port, self.address = driver, port, address
        self.interface, self.spi_device, self.dc, self.reset = interface, spi_device, dc, reset
        self.width, self.height = DRIVER_SIZES[driver]
        self.rotation, self.contrast = rotation, contrast
        self._factory = device_factory or self._luma_device
        self.device: Any = None
        self.last_error = None
        self._open()

    def _where(self) -> str:
        if self.interface == "spi":
            return _("SPI {device} (DC GPIO{dc}, RST GPIO{reset})").format(
                device=SPI_DEVICE.format(port=0, device=self.spi_device), dc=self.dc,
                reset=self.reset)
        return _("I2C bus {bus} address {address}").format(bus=self.port,
                                                           address=f"{self.address:#04x}")

    def _luma_device(self) -> Any:
        if self.interface == "spi":
            bus = SPI_DEVICE.format(port=0, device=self.spi_device)
            how = "sudo raspi-config > Interface Options > SPI"
        else:
            bus = I2C_DEVICE.format(port=self.port)
            how = "sudo raspi-config > Interface Options > I2C"
        if not os.path.exists(bus):
            raise DisplayUnavailable(
                _("OLED {driver}: no {interface} bus at {bus}. Enable it ({how}, then reboot), "
                  "or set {setting}.").format(driver=self.driver, interface=self.interface.upper(),
                                              bus=bus, how=how,
                                              setting='[display] driver = "terminal"')
            )
        try:
            from luma.core.interface.serial import i2c, spi
            from luma.oled import device as oled
        except ImportError as exc:
            raise DisplayUnavailable(
                _("OLED {driver}: luma.oled is not installed ({reason}); {fix}").format(
                    driver=self.driver, reason=exc, fix="pip install luma.oled")
            ) from exc
        if self.interface == "spi":
            serial = spi(port=0, device=self.spi_device, gpio_DC=self.dc, gpio_RST=self.reset)
        else:
            serial = i2c(port=self.port, address=self.address)
        return getattr(oled, self.driver)(serial, width=self.width, height=self.height,
                                          rotate=self.rotation)

    def _open(self) -> None:
        try:
            device = self._factory()
            device.contrast(self.contrast)
        except DisplayUnavailable:
            raise
        except Exception as exc:  # luma raises DeviceNotFoundError, DevicePermissionError, OSError
            raise DisplayUnavailable(
                _("OLED {driver} on {where} did not answer ({reason}). Check the wiring (SDA, "
                  "SCL, 3.3V, GND) and the address with {check}; a user outside the i2c group "
                  "needs {fix}.").format(driver=self.driver, where=self._where(), reason=exc,
                                          check=f"`i2cdetect -y {self.port}`",
                                          fix="`sudo adduser $USER i2c`")
            ) from exc
        self.device = device

    def show(self, image: Image.Image) -> bool:
        """Show a frame; False (with ``last_error``) when the panel is gone. Never raises for
        an absent panel: the next ``show`` tries to reconnect."""
        image = _prepare(image, (self.width, self.height))
        try:
            if self.device is None:
                self._open()
            draw_on(self.device, image)
        except (OSError, DisplayError) as exc:
            self.last_error = _("OLED {driver} on {where}: {reason}").format(
                driver=self.driver, where=self._where(), reason=exc)
            self.device = None  # re-initialise the panel once it answers again
            return False
        except Exception as exc:  # luma.core.error.* while reconnecting
            if type(exc).__module__.startswith("luma"):
                self.last_error = _("OLED {driver} on {where}: {reason}").format(
                    driver=self.driver, where=self._where(), reason=exc)
                self.device = None
                return False
            raise
        self.last_error = None
        return True

    def close(self) -> None:
        if self.device is not None:
            try:
                self.device.cleanup()
            except Exception:  # the panel may already be gone; nothing to save
                pass
            self.device = None


class DummyDisplay(Display):
    """luma's in-memory ``dummy`` device: ``.device.image`` holds the last frame. Its size is
    the panel's the screens are drawn for (``size`` to choose another)."""

    name = "dummy"

    def __init__(self, rotation: int = 0, size: tuple[int, int] | None = None):
        from luma.core.device import dummy

        width, height = size or panel().size
        self.device = dummy(width=width, height=height, rotate=rotation, mode="1")
        self.frames = 0

    def show(self, image: Image.Image) -> bool:
        draw_on(self.device, image)
        self.frames += 1
        return True


# --------------------------------------------------------------------------- recorder


class RecorderDisplay(Display):
    """Writes every frame shown to ``out/frame_0001.png``...; ``close`` adds ``out/screens.gif``.

    ``scale`` enlarges the files (nearest neighbour) so a person can look at them.
    """

    name = "recorder"

    def __init__(self, out: str | Path, scale: int = 1, frame_ms: int = 700, gif: bool = True):
        self.out = Path(out)
        try:
            self.out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DisplayUnavailable(_("recorder: cannot create {path} ({reason})").format(
                path=self.out, reason=exc)) from exc
        self.scale, self.frame_ms, self.gif = scale, frame_ms, gif
        self.frames: list[Image.Image] = []
        self.files: list[Path] = []

    def _big(self, image: Image.Image) -> Image.Image:
        if self.scale == 1:
            return image
        return image.resize((image.width * self.scale, image.height * self.scale),
                            Image.NEAREST)

    def show(self, image: Image.Image) -> bool:
        image = _prepare(image)
        path = self.out / f"frame_{len(self.frames) + 1:04d}.png"
        try:
            self._big(image).save(path)
        except OSError as exc:
            self.last_error = _("recorder: cannot write {path} ({reason})").format(path=path,
                                                                                    reason=exc)
            return False
        self.frames.append(image.copy())
        self.files.append(path)
        return True

    def close(self) -> None:
        if self.gif and self.frames:
            path = self.out / "screens.gif"
            first, *rest = [self._big(f).convert("L") for f in self.frames]
            first.save(path, save_all=True, append_images=rest, duration=self.frame_ms, loop=0)
            self.files.append(path)
            self.gif = False


# --------------------------------------------------------------------------- terminal

STYLES = ("auto", "halfblock", "braille")


def to_text(image: Image.Image, style: str = "halfblock", border: bool = True) -> str:
    """The panel as Unicode text: ``halfblock`` (a character for 1x2 pixels: 128x32 characters
    for a 128x64 panel) or ``braille`` (2x4 pixels: 64x16 characters).

    >>> from PIL import Image
    >>> lines = to_text(Image.new("1", (128, 64)), border=False).splitlines()
    >>> len(lines), len(lines[0])
    (32, 128)
    """
    img = _prepare(image)
    width, height = img.size
    px = img.load()

    def on(x: int, y: int) -> int:
        return 1 if x < width and y < height and px[x, y] else 0

    rows: list[str] = []
    if style == "halfblock":
        chars = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}
        for y in range(0, height, 2):
            rows.append("".join(chars[(on(x, y), on(x, y + 1))] for x in range(width)))
    elif style == "braille":
        dots = (
            (0, 0, 0x01),
            (0, 1, 0x02),
            (0, 2, 0x04),
            (1, 0, 0x08),
            (1, 1, 0x10),
            (1, 2, 0x20),
            (0, 3, 0x40),
            (1, 3, 0x80),
        )
        for y in range(0, height, 4):
            line = []
            for x in range(0, width, 2):
                code = sum(bit for dx, dy, bit in dots if on(x + dx, y + dy))
                line.append(chr(0x2800 + code))
            rows.append("".join(line))
    else:
        raise DisplayConfigError(_("terminal style {style}: use halfblock or braille").format(
            style=repr(style)))
    if border:
        width = len(rows[0])
        rows = (
            ["\u250c" + "\u2500" * width + "\u2510"]
            + [f"\u2502{r}\u2502" for r in rows]
            + ["\u2514" + "\u2500" * width + "\u2518"]
        )
    return "\n".join(rows)


def fit_text(image: Image.Image, columns: int, lines: int, border: bool = True) -> str:
    """The panel as text that fits ``columns`` x ``lines`` characters: half blocks when they
    fit, else braille, else braille of the panel halved (a 256-pixel panel in 80 columns)."""
    extra = 2 if border else 0
    width, height = image.size
    if width + extra <= columns and -(-height // 2) + extra <= lines:
        return to_text(image, "halfblock", border)
    if -(-width // 2) + extra <= columns and -(-height // 4) + extra <= lines:
        return to_text(image, "braille", border)
    factor = 2
    while (-(-width // (2 * factor)) + extra > columns or -(-height // (4 * factor)) + extra >
           lines) and factor < 8:
        factor *= 2
    small = image.convert("L").resize((max(2, width // factor), max(4, height // factor)),
                                      Image.BOX).point(lambda v: 255 if v >= 64 else 0)
    return to_text(small.convert("1"), "braille", border)


class TerminalDisplay(Display):
    """Draws each frame in a terminal; on a live terminal the frame is redrawn in place.

    ``style = "auto"`` draws the panel as big as the terminal takes (half blocks when the
    terminal has room for 130x34 characters and the words, braille in 80x24, braille of the
    panel halved when narrower) and keeps room for the ``footer``: a function given the
    columns and rows it may fill and returning those lines (what is asked now, the menu, the
    keys), called at each frame. The words go under the panel, or beside it when the terminal
    is wide enough. The terminal's size is read at each frame (``shutil.get_terminal_size``),
    so a window made bigger is used at once; ``size`` fixes it (tests).
    """

    name = "terminal"
    FOOTER_ROWS = 5  # the fewest lines kept for the words under the panel
    SIDE_COLUMNS = 32  # the fewest columns for the words beside the panel

    def __init__(
        self,
        stream: TextIO | None = None,
        style: str = "halfblock",
        border: bool = True,
        in_place: bool | None = None,
        footer: Any = None,
        size: tuple[int, int] | None = None,
    ):
        if style not in STYLES:
            raise DisplayConfigError(_("terminal style {style}: use auto, halfblock or braille")
                                     .format(style=repr(style)))
        self.stream = stream or sys.stdout
        self.style, self.border = style, border
        self.in_place = self.stream.isatty() if in_place is None else in_place
        self.footer = footer
        self.size = size  # (columns, lines); None: the terminal's own, else 80x24
        self._lines = 0

    def _terminal(self) -> tuple[int, int]:
        if self.size:
            return self.size
        import shutil

        columns, lines = shutil.get_terminal_size((80, 24))
        return columns, lines

    def _words(self, columns: int, rows: int) -> list[str]:
        if self.footer is None or rows <= 0:
            return []
        return [str(line)[:columns] for line in self.footer(columns, rows)][:rows]

    def render(self, image: Image.Image) -> str:
        """The text drawn for ``image``: the panel, and the footer's words under or beside it;
        in ``auto`` style never more than the terminal's columns - 1 and lines - 1."""
        columns, lines = self._terminal()
        usable = max(1, lines - 1)  # the last line stays free: writing it would scroll
        if self.style != "auto":
            panel_text = to_text(image, self.style, self.border).split("\n")
            footer = self._words(max(10, columns - 1), max(self.FOOTER_ROWS,
                                                           usable - len(panel_text)))
            return "\n".join(panel_text + [line.ljust(max(10, columns - 1))
                                           for line in footer])
        reserve = self.FOOTER_ROWS if self.footer is not None else 0
        panel_text = fit_text(image, columns - 1, max(3, usable - reserve),
                              self.border).split("\n")
        width = max(len(line) for line in panel_text)
        side = columns - 1 - width - 2
        if self.footer is not None and side >= self.SIDE_COLUMNS:
            # Wide: the words beside the panel, as many lines as the terminal has.
            panel_text = fit_text(image, columns - 1 - self.SIDE_COLUMNS - 2, usable,
                                  self.border).split("\n")
            width = max(len(line) for line in panel_text)
            side = columns - 1 - width - 2
            rows = max(len(panel_text), 1)
            footer = self._words(side, rows)
            out = []
            for i in range(max(len(panel_text), len(footer))):
                left = panel_text[i] if i < len(panel_text) else ""
                right = footer[i] if i < len(footer) else ""
                out.append((left.ljust(width) + "  " + right).ljust(columns - 1))
            return "\n".join(out)
        footer = self._words(columns - 1, usable - len(panel_text))
        return "\n".join(panel_text + [line.ljust(columns - 1) for line in footer])

    def show(self, image: Image.Image) -> bool:
        text = self.render(image)
        try:
            if self.in_place and self._lines:
                # Back to the top of the last frame, and clear below it (a smaller frame, or
                # a terminal made smaller, leaves nothing behind).
                self.stream.write(f"\x1b[{self._lines}F\x1b[J")
            self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError) as exc:
            self.last_error = _("terminal: {reason}").format(reason=exc)
            return False
        self._lines = text.count("\n") + 1
        return True


# --------------------------------------------------------------------------- config


def _int(config: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = config.get(key, default)
    try:
        number = int(value, 0) if isinstance(value, str) else int(value)
    except (TypeError, ValueError):
        raise DisplayConfigError(_("{setting} is not a number").format(
            setting=f"[display] {key} = {value!r}")) from None
    if not low <= number <= high:
        raise DisplayConfigError(_("{setting} must be {low}-{high}").format(
            setting=f"[display] {key} = {value!r}", low=low, high=high))
    return number


def open_display(config: dict[str, Any] | None = None, **overrides: Any) -> Display:
    """Open the display a spec describes (see the module doc).

    Keys: ``backend`` (default ``terminal``); for panels ``interface`` (i2c, spi), ``port``,
    ``address`` (I2C), ``spi_device``, ``dc``, ``reset`` (SPI), ``rotation``, ``contrast``;
    ``out``, ``scale`` for the recorder; ``style`` (auto, halfblock, braille) and ``footer``
    for the terminal; ``fallback``: a backend name opened when the configured one is
    unavailable.
    """
    config = {**(config or {}), **overrides}
    backend = str(config.get("backend", "terminal"))
    rotation = _int(config, "rotation", 0, 0, 3)
    if rotation in (1, 3):
        raise DisplayConfigError(
            _("{setting} turns the panel on its side, but the screens are drawn landscape "
              "(128x64): use rotation = 0, or 2 for a panel mounted upside down").format(
                setting=f"[display] rotation = {rotation}")
        )
    try:
        if backend in PANELS:
            return LumaDisplay(
                backend,
                port=_int(config, "port", 1, 0, 99),
                address=_int(config, "address", 0x3C, 0x03, 0x77),
                rotation=rotation,
                contrast=_int(config, "contrast", 255, 0, 255),
                device_factory=config.get("device_factory"),
                interface=str(config.get("interface", "i2c")),
                spi_device=_int(config, "spi_device", 0, 0, 1),
                dc=_int(config, "dc", 25, 0, 27),
                reset=_int(config, "reset", 16, 0, 27),
            )
        if backend == "dummy":
            return DummyDisplay(rotation)
        if backend == "recorder":
            if not config.get("out"):
                raise DisplayConfigError(_("{setting} needs {needed}").format(
                    setting='[display] driver = "recorder"', needed='out = "DIR"'))
            return RecorderDisplay(config["out"], scale=_int(config, "scale", 1, 1, 16))
        if backend == "terminal":
            return TerminalDisplay(config.get("stream"), style=config.get("style", "auto"),
                                   footer=config.get("footer"))
    except DisplayUnavailable:
        fallback = config.get("fallback")
        if not fallback or fallback == backend:
            raise
        rest = {k: v for k, v in config.items() if k not in ("backend", "fallback")}
        return open_display(rest, backend=fallback)
    raise DisplayConfigError(_("{setting}: use one of {known}").format(
        setting=f"[display] driver = {backend!r}", known=", ".join(BACKENDS)))
