"""Drawing helpers for the 128x64 1-bit panel: fonts, text that always stays on the panel, wrapping.

Every screen is drawn the way luma.oled draws (``with canvas(device) as draw:``), but into a
plain PIL image so a screen is a pure function that tests can check without a device::

    >>> with frame() as p:
    ...     _ = p.center("ANA - ROLL!", 20, size=BIG, bold=True)
    >>> p.image.size, p.image.mode
    ((128, 64), '1')
    >>> all(0 <= x0 and 0 <= y0 and x1 <= 128 and y1 <= 64 for _, (x0, y0, x1, y1) in p.boxes)
    True

The font is the one that ships inside Pillow (``ImageFont.load_default(size=...)``, Pillow >= 10.1),
drawn without anti-aliasing; bold is the same font drawn twice one pixel apart, which reads well
on an OLED from across a table. That font has English letters only; ``set_font`` draws with a
TrueType file instead (``[display] font``), for a language with other letters.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64  # the default panel; screens ask the painter (p.width, p.height)
MODE = "1"


@dataclass(frozen=True)
class Panel:
    """A panel's size in pixels and how tall one pixel is (mm), for the readability rule."""

    width: int = WIDTH
    height: int = HEIGHT
    pitch_mm: float = 55.01 / 128  # the 2.42" SSD1309 recommended in hardware/README.md


TABLE_MAIN_MM = 6.0  # the main line of a screen the whole table reads: capitals this tall
TABLE_OTHER_MM = 4.0  # every other word on such a screen

_panel: ContextVar[Panel] = ContextVar("panel", default=Panel())  # noqa: B039 - frozen


def panel() -> Panel:
    """The panel screens are drawn for now."""
    return _panel.get()


@contextmanager
def using(new: Panel) -> Iterator[Panel]:
    """Draw screens for ``new`` inside the block (tests, ``companion screens``)."""
    token = _panel.set(new)
    try:
        yield new
    finally:
        _panel.reset(token)


def set_panel(new: Panel) -> None:
    """Draw screens for ``new`` from now on (the daemon, from the config)."""
    _panel.set(new)

SMALL = 10  # details: at most ~21 characters a line
MEDIUM = 14
BIG = 18  # the main line
HUGE = 24

MAIN_SIZES = (HUGE, 22, 20, BIG, 16, MEDIUM, 12)


_font_file: str | None = None  # a TrueType file for the words; None: Pillow's bundled font


def set_font(path: str | None) -> None:
    """Draw every word with the TrueType font at ``path`` from now on (None or "": Pillow's
    bundled font, which has English letters only). OSError if it cannot be loaded."""
    global _font_file
    if path:
        ImageFont.truetype(str(path), SMALL)  # a bad file fails here, not in the middle of a game
    _font_file = str(path) if path else None
    for cached in (font, cap_top, cap_height):
        cached.cache_clear()


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font at ``size`` pixels: Pillow's bundled one, or the file given to ``set_font``."""
    if _font_file:
        return ImageFont.truetype(_font_file, size)
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=32)
def cap_top(size: int) -> int:
    """Pixels between the drawing origin and the top of a capital letter."""
    return int(font(size).getbbox("H", mode="1")[1])


@lru_cache(maxsize=32)
def cap_height(size: int) -> int:
    box = font(size).getbbox("H", mode="1")
    return int(box[3] - box[1])


def line_height(size: int) -> int:
    """Distance from one line's cap top to the next (room for descenders)."""
    box = font(size).getbbox("Hgjy", mode="1")
    return int(box[3] - cap_top(size)) + 1


def text_width(text: str, size: int, bold: bool = False) -> int:
    if not text:
        return 0
    box = font(size).getbbox(text, mode="1")
    return int(box[2]) + (1 if bold else 0)


def fits(text: str, width: int, size: int, bold: bool = False) -> bool:
    return text_width(text, size, bold) <= width


def fit_size(text: str, width: int, sizes=MAIN_SIZES, bold: bool = True) -> int | None:
    """The largest size in ``sizes`` at which ``text`` fits in ``width`` pixels, else None."""
    for size in sizes:
        if fits(text, width, size, bold):
            return size
    return None


def wrap(text: str, width: int, size: int, bold: bool = False) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` pixels, between words.

    A single word too long for a line is split with a visible hyphen; nothing is dropped.

    >>> wrap("the flux must go on the DeLorean", 124, SMALL)
    ['the flux must go on the', 'DeLorean']
    >>> wrap("GIGAWATTS", 30, SMALL)
    ['GIGA-', 'WAT-', 'TS']
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if fits(candidate, width, size, bold):
                line = candidate
                continue
            if line:
                lines.append(line)
                line = ""
            while not fits(word, width, size, bold):
                cut = len(word) - 1
                while cut > 1 and not fits(word[:cut] + "-", width, size, bold):
                    cut -= 1
                lines.append(word[:cut] + "-")
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


def wrap_items(items: list[str], width: int, size: int, bold: bool = False, sep: str = ", "):
    """Like ``wrap`` but never breaks inside an item ("Ben +1" stays whole when it fits)."""
    lines: list[str] = []
    line = ""
    for i, item in enumerate(items):
        piece = item + (sep.rstrip() if i < len(items) - 1 else "")
        candidate = f"{line} {piece}" if line else piece
        if fits(candidate, width, size, bold) or not line:
            line = candidate
        else:
            lines.append(line)
            line = piece
    if line:
        lines.append(line)
    out: list[str] = []
    for line in lines:  # an item wider than the panel on its own still wraps between words
        out.extend(wrap(line, width, size, bold) if not fits(line, width, size, bold) else [line])
    return out


def shorten(text: str, width: int, size: int, bold: bool = False) -> str:
    """``text`` cut to ``width`` with a visible "." at the end (for names in tight tables)."""
    if fits(text, width, size, bold):
        return text
    while text and not fits(text + ".", width, size, bold):
        text = text[:-1]
    return text + "."


class Painter:
    """An ``ImageDraw`` that places text by its cap top and records every text box drawn.

    ``boxes`` lists ``(text, (x0, y0, x1, y1))`` so tests can check nothing left the panel;
    ``caps`` lists ``(text, capital height in pixels)`` for the readability rule. ``width`` and
    ``height`` are the panel's: lay screens out by them, not by fixed numbers.
    """

    def __init__(self, image: Image.Image):
        self.image = image
        self.width, self.height = image.size
        self.draw = ImageDraw.Draw(image)
        self.draw.fontmode = "1"  # no anti-aliasing on a 1-bit panel
        self.boxes: list[tuple[str, tuple[int, int, int, int]]] = []
        self.caps: list[tuple[str, int]] = []

    def text(
        self, xy: tuple[int, int], text: str, size: int = SMALL, bold: bool = False, fill: int = 1
    ) -> tuple[int, int, int, int]:
        """Draw ``text`` with its cap top at ``xy``; return its pixel box.

        Marks above capitals (Ö, É) or below the line that would leave the panel move the text
        the few pixels it takes to keep them on it.
        """
        x, y = xy
        f = font(size)
        origin = (x, y - cap_top(size))
        top, bottom = self.draw.textbbox(origin, text, font=f)[1::2]
        if top < 0:
            origin = (x, origin[1] - top)
        elif bottom > self.image.height:
            origin = (x, origin[1] - min(bottom - self.image.height, top))
        self.draw.text(origin, text, font=f, fill=fill)
        box = self.draw.textbbox(origin, text, font=f)
        if bold:
            self.draw.text((origin[0] + 1, origin[1]), text, font=f, fill=fill)
            box = (box[0], box[1], box[2] + 1, box[3])
        box = tuple(int(v) for v in box)
        if text.strip():
            self.boxes.append((text, box))
            self.caps.append((text, cap_height(size)))
        return box

    def center(
        self,
        text: str,
        y: int,
        size: int = SMALL,
        bold: bool = False,
        fill: int = 1,
        x0: int = 0,
        x1: int | None = None,
    ) -> tuple[int, int, int, int]:
        """Draw ``text`` centred between ``x0`` and ``x1`` (default: the panel's width)."""
        x1 = self.width if x1 is None else x1
        w = text_width(text, size, bold)
        return self.text((x0 + max(0, (x1 - x0 - w) // 2), y), text, size, bold, fill)

    def right(
        self, text: str, x: int, y: int, size: int = SMALL, bold: bool = False, fill: int = 1
    ) -> tuple[int, int, int, int]:
        """Draw ``text`` ending at ``x``."""
        return self.text((x - text_width(text, size, bold), y), text, size, bold, fill)

    def lines(
        self, lines: list[str], y: int, size: int = SMALL, bold: bool = False, gap: int = 0
    ) -> int:
        """Draw centred lines from ``y`` down; return the y below the last."""
        for line in lines:
            self.center(line, y, size, bold)
            y += line_height(size) + gap
        return y

    def invert(self, box: tuple[int, int, int, int]) -> None:
        """Invert the pixels of ``box`` (a highlight bar)."""
        region = self.image.crop(box).convert("L").point(lambda v: 255 - v).convert("1")
        self.image.paste(region, box[:2])


@contextmanager
def frame() -> Iterator[Painter]:
    """A blank panel to draw on, like luma's ``canvas``; the image is ``painter.image``."""
    size = panel()
    painter = Painter(Image.new(MODE, (size.width, size.height), 0))
    yield painter
    painter.image.info["text_boxes"] = list(painter.boxes)
    painter.image.info["text_caps"] = list(painter.caps)


def text_boxes(image: Image.Image) -> list[tuple[str, tuple[int, int, int, int]]]:
    """The text boxes a screen recorded (empty for an image not drawn by a screen)."""
    return list(image.info.get("text_boxes", []))


def readability_problems(image: Image.Image, where: Panel | None = None) -> list[str]:
    """Why a screen the whole table must read is too small on ``where`` (default: the current
    panel): its largest words under TABLE_MAIN_MM, or other words under TABLE_OTHER_MM."""
    where = where or panel()
    caps = list(image.info.get("text_caps", []))
    if not caps:
        return []  # a picture without words (an animation frame)
    out = []
    biggest = max(c for _, c in caps)
    if biggest * where.pitch_mm < TABLE_MAIN_MM - 1e-9:
        out.append(f"main line {biggest} px = {biggest * where.pitch_mm:.1f} mm "
                   f"(< {TABLE_MAIN_MM} mm)")
    for text, cap in caps:
        if cap * where.pitch_mm < TABLE_OTHER_MM - 1e-9:
            out.append(f"{text!r} {cap} px = {cap * where.pitch_mm:.1f} mm (< {TABLE_OTHER_MM} mm)")
    return out
