"""Drawing helpers for the 1-bit panel: fonts, text that always stays on the panel, wrapping.

Every screen is drawn the way luma.oled draws (``with canvas(device) as draw:``), but into a
plain PIL image so a screen is a pure function that tests can check without a device::

    >>> with frame() as p:
    ...     _ = p.center("ANA - ROLL!", 20, size=BIG, bold=True)
    >>> p.image.size, p.image.mode
    ((128, 64), '1')
    >>> all(0 <= x0 and 0 <= y0 and x1 <= 128 and y1 <= 64 for _, (x0, y0, x1, y1) in p.boxes)
    True

The panel is a ``Panel`` (pixels and pixel pitch): the recommended 2.42" SSD1309 at 128x64 by
default, another with ``using`` (tests, ``companion screens --panel``) or ``set_panel`` (the
daemon, from ``[display] panel``). Screens lay out by ``p.width`` and ``p.height`` and size
the words the whole table reads with ``rule_sizes()``.

The font is the one that ships inside Pillow (``ImageFont.load_default(size=...)``, Pillow >= 10.1),
drawn without anti-aliasing; bold is the same font drawn twice one pixel apart, which reads well
on an OLED from across a table. That font has English letters only; ``set_font`` draws with a
TrueType file instead (``[display] font``), for a language with other letters.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from companion.i18n import _

# The default panel's size. Screens never lay out by these: they ask the painter (p.width,
# p.height) or ``panel()``.
WIDTH, HEIGHT = 128, 64
MODE = "1"


@dataclass(frozen=True)
class Panel:
    """A panel's size in pixels and how tall one pixel is (mm), for the readability rule."""

    width: int = WIDTH
    height: int = HEIGHT
    pitch_mm: float = 55.01 / 128  # the 2.42" SSD1309 recommended in hardware/README.md
    name: str = "ssd1309-2.42"

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    def describe(self) -> str:
        """"128x64, 0.43 mm a pixel (ssd1309-2.42)"."""
        return f"{self.width}x{self.height}, {self.pitch_mm:.2f} mm a pixel ({self.name})"


# Panels luma.oled drives, by name: pixels and the pitch of their active area (width in mm /
# pixels across), from the makers' data sheets.
PANELS: dict[str, Panel] = {
    "ssd1309-2.42": Panel(128, 64, 55.01 / 128, "ssd1309-2.42"),  # 2.42", 55.01 x 27.49 mm
    "sh1106-1.3": Panel(128, 64, 29.42 / 128, "sh1106-1.3"),  # 1.3", 29.42 x 14.70 mm
    "ssd1306-0.96": Panel(128, 64, 21.74 / 128, "ssd1306-0.96"),  # 0.96", 21.74 x 10.86 mm
    "ssd1322-3.12": Panel(256, 64, 76.78 / 256, "ssd1322-3.12"),  # 3.12", 76.78 x 19.18 mm
    "ssd1327-1.5": Panel(128, 128, 26.86 / 128, "ssd1327-1.5"),  # 1.5", 26.86 x 26.86 mm
    "sh1107-1.12": Panel(128, 128, 20.14 / 128, "sh1107-1.12"),  # 1.12", 20.14 x 20.14 mm
}

# For each size the screens are laid out for, the panel the readability rule is held to: the
# largest of that size on sale (hardware/README.md says why).
# No 128x128 panel is big enough: the largest, the 1.5" SSD1327, is 27 mm across, and letters
# 6 mm tall leave five of them a line; screens of that size are drawn as big as they read well.
RECOMMENDED: dict[tuple[int, int], str] = {
    (128, 64): "ssd1309-2.42",
    (256, 64): "ssd1322-3.12",
}

_CUSTOM = re.compile(r"^\s*(\d+)\s*x\s*(\d+)\s*@\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*$")


def parse_panel(text: str) -> Panel:
    """A panel by name ("ssd1322-3.12") or as "WIDTHxHEIGHT@PITCH" ("256x64@0.30", mm a pixel).

    >>> parse_panel("256x64@0.3").size
    (256, 64)
    >>> parse_panel("ssd1327-1.5").height
    128

    ValueError names the panels there are.
    """
    name = str(text).strip().lower()
    if name in PANELS:
        return PANELS[name]
    found = _CUSTOM.match(name)
    if found:
        width, height, pitch = int(found[1]), int(found[2]), float(found[3])
        # Every title's screens are drawn for 64 rows or more: a 128x32 strip cannot hold a
        # map, a row of dice and their words, so it is refused here, not drawn broken.
        if not (96 <= width <= 512 and 64 <= height <= 256 and 0.05 <= pitch <= 2.0):
            raise ValueError(_("{panel}: a panel from 96x64 to 512x256 pixels, 0.05-2 mm a "
                               "pixel (a 128x32 strip is too low for the screens: use a "
                               "128x64 panel such as ssd1306-0.96)").format(panel=repr(text)))
        return Panel(width, height, pitch, f"{width}x{height}@{pitch:g}")
    raise ValueError(_("{panel}: write one of {names}, or {form} (e.g. {example}, mm a pixel)")
                     .format(panel=repr(text), names=", ".join(PANELS),
                             form="WIDTHxHEIGHT@PITCH", example="256x64@0.30"))


def recommended(width: int, height: int) -> Panel | None:
    """The panel the readability rule is held to for screens of this size (None: no rule)."""
    name = RECOMMENDED.get((width, height))
    return PANELS[name] if name else None


TABLE_MAIN_MM = 6.0  # the main line of a screen the whole table reads: capitals this tall
TABLE_OTHER_MM = 4.0  # every other word on such a screen

_panel: ContextVar[Panel] = ContextVar("panel", default=Panel())  # noqa: B039 - frozen
_process_panel: Panel = Panel()  # what set_panel chose: the default of every new context


def panel() -> Panel:
    """The panel screens are drawn for now."""
    return _panel.get(_process_panel)


@contextmanager
def using(new: Panel) -> Iterator[Panel]:
    """Draw screens for ``new`` inside the block (tests, ``companion screens``)."""
    token = _panel.set(new)
    try:
        yield new
    finally:
        _panel.reset(token)


def set_panel(new: Panel) -> None:
    """Draw screens for ``new`` from now on, in every thread (the daemon, from the config)."""
    global _process_panel
    _process_panel = new
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
    for cached in (font, cap_top, cap_height, line_height, text_width):
        cached.cache_clear()


@lru_cache(maxsize=256)  # every size a layout may try (FONT_SIZES and more)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font at ``size`` pixels: Pillow's bundled one, or the file given to ``set_font``."""
    if _font_file:
        return ImageFont.truetype(_font_file, size)
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=256)
def cap_top(size: int) -> int:
    """Pixels between the drawing origin and the top of a capital letter."""
    return int(font(size).getbbox("H", mode="1")[1])


@lru_cache(maxsize=256)
def cap_height(size: int) -> int:
    box = font(size).getbbox("H", mode="1")
    return int(box[3] - box[1])


@lru_cache(maxsize=256)
def line_height(size: int) -> int:
    """Distance from one line's cap top to the next (room for descenders)."""
    box = font(size).getbbox("Hgjy", mode="1")
    return int(box[3] - cap_top(size)) + 1


FONT_SIZES = tuple(range(8, 73))  # the sizes rule_sizes chooses from


def size_for_cap(px: int) -> int:
    """The smallest font size whose capitals are at least ``px`` pixels tall."""
    for size in FONT_SIZES:
        if cap_height(size) >= px:
            return size
    return FONT_SIZES[-1]


def layout_pitch(where: Panel | None = None) -> float:
    """The pitch the screens are sized for: the recommended panel's for this size of screen
    (so a smaller panel of the same pixels shows the same screens), else the panel's own."""
    where = where or panel()
    best = recommended(where.width, where.height)
    return best.pitch_mm if best else where.pitch_mm


def rule_sizes(where: Panel | None = None) -> tuple[int, int]:
    """(main, other): the font sizes of a screen the whole table reads, so that its main line
    is TABLE_MAIN_MM tall and every other word TABLE_OTHER_MM on the recommended panel of this
    size; never so big that a main line and a detail line cannot both fit the panel, nor that a
    word of six letters cannot fit its width (a 128x128 panel: no such panel keeps the rule).

    >>> rule_sizes(PANELS["ssd1309-2.42"])
    (20, 14)
    >>> [cap_height(s) for s in rule_sizes(PANELS["ssd1322-3.12"])]
    [22, 14]
    """
    where = where or panel()
    pitch = layout_pitch(where)
    main_px = math.ceil(TABLE_MAIN_MM / pitch - 1e-9)
    other_px = math.ceil(TABLE_OTHER_MM / pitch - 1e-9)
    main_px = min(main_px, (where.height - 4) // 2, where.width // 6)
    other_px = min(other_px, where.height // 4, where.width // 9, main_px)
    return size_for_cap(main_px), size_for_cap(other_px)


@lru_cache(maxsize=8192)  # layouts measure the same words at the same sizes over and over
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


def _pieces(word: str) -> list[str]:
    """A word cut after each hyphen inside it ("ESMERALDA-FITZGERALD" -> two pieces): where
    a long word may break without a new hyphen."""
    return [piece for piece in re.split(r"(?<=\w-)(?=\w)", word) if piece]


def wrap(text: str, width: int, size: int, bold: bool = False) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` pixels, between words (or after a
    hyphen inside a word).

    A single word too long for a line is split with a visible hyphen; nothing is dropped.

    >>> wrap("the flux must go on the DeLorean", 124, SMALL)
    ['the flux must go on the', 'DeLorean']
    >>> wrap("GIGAWATTS", 30, SMALL)
    ['GIGA-', 'WAT-', 'TS']
    >>> wrap("ESMERALDA-FITZGERALD", 80, SMALL)
    ['ESMERALDA-', 'FITZGERALD']
    >>> wrap("then A-6, A-5", 50, SMALL)
    ['then A-6,', 'A-5']
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if fits(candidate, width, size, bold):
                line = candidate
                continue
            pieces = _pieces(word)
            if (len(pieces) > 1 and not fits(word, width, size, bold)
                    and (not line or fits(f"{line} {pieces[0]}", width, size, bold))):
                # a word too long for a line of its own breaks after its own hyphen, not
                # inside a piece; one that fits ("A-5", a card id) moves down whole
                first = f"{line} {pieces[0]}" if line else pieces[0]
                if fits(first, width, size, bold):
                    line = first
                    for piece in pieces[1:]:
                        if fits(line + piece, width, size, bold):
                            line += piece
                        else:
                            lines.append(line)
                            line = piece
                    continue
            if line:
                lines.append(line)
                line = ""
            while not fits(word, width, size, bold):
                pieces = _pieces(word)
                if len(pieces) > 1 and fits(pieces[0], width, size, bold):
                    lines.append(pieces[0])
                    word = word[len(pieces[0]):]
                    continue
                cut = len(word) - 1
                while cut > 1 and not fits(word[:cut] + "-", width, size, bold):
                    cut -= 1
                lines.append(word[:cut] + "-")
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


def splits_words(text: str, width: int, size: int, bold: bool = False) -> bool:
    """Whether wrapping ``text`` would split a word (or a hyphenated part of one)."""
    return any(not fits(piece, width, size, bold)
               for word in text.split() for piece in _pieces(word))


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
