"""The shared screens and layout: pure functions from plain data to a 1-bit PIL image.

Every title draws its own screens (``companion/titles/<key>/screens.py``) with these: the
standard screen (title bar, a big main line, small details), paged text, menus, notices, errors,
the boot screen and the winner. Nothing here touches a device; ``backends.py`` shows the images.
Text never leaves the panel and is never cut silently: a main line shrinks to fit, then wraps;
long messages become pages. Every word is translated (``companion.i18n``), so no layout may
count on English word lengths: a label that must stay on one line is drawn with ``fitted``
(smaller, then visibly shortened), everything else wraps.

    >>> img = notice("CAMERA", "BACK", "reading the dice again")
    >>> img.size, img.mode
    ((128, 64), '1')
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageChops

from companion.display import glyphs
from companion.display.draw import (
    BIG,
    HEIGHT,
    HUGE,
    MEDIUM,
    SMALL,
    WIDTH,
    Painter,
    cap_height,
    fit_size,
    fits,
    frame,
    line_height,
    shorten,
    text_width,
    wrap,
    wrap_items,
)
from companion.i18n import _

HEADER_H = 12  # the inverted title bar
MAIN_WIDTH = WIDTH - 4
FIT_SIZES = (HUGE, 22, 20, BIG, 16, MEDIUM, 12, SMALL, 9, 8)
DETAIL_SIZES = (SMALL, 9, 8)  # small print, smaller only when a translation needs it


class TooMuchText(ValueError):
    """The text does not fit one screen; use the paged screens (``error``, ``refusal``)."""


def title_bar(p: Painter, text: str, right: str = "") -> int:
    """An inverted title bar; returns the y below it."""
    p.draw.rectangle((0, 0, WIDTH - 1, HEADER_H - 1), fill=1)
    room = WIDTH - 4 - (text_width(right, SMALL) + 4 if right else 0)
    p.text((2, 2), shorten(text, room, SMALL), SMALL, fill=0)
    if right:
        p.right(right, WIDTH - 2, 2, SMALL, fill=0)
    return HEADER_H


def fitted(text: str, width: int, size: int, bold: bool = False) -> tuple[str, int]:
    """(text, size) for one line in ``width`` pixels: ``size`` when it fits, else the largest
    smaller size that does, else the smallest size with the text visibly shortened.

    >>> fitted("CONFIRM", 124, SMALL)
    ('CONFIRM', 10)
    """
    sizes = sorted({size, *(s for s in FIT_SIZES if s < size)}, reverse=True)
    for s in sizes:
        if fits(text, width, s, bold):
            return text, s
    return shorten(text, width, sizes[-1], bold), sizes[-1]


def main_lines(text: str, height: int, sizes=(HUGE, 22, 20, BIG, 16, MEDIUM, 12)):
    """(size, lines) for a main line: one line as big as fits, else two wrapped lines."""
    for size in sizes:
        if cap_height(size) > height:
            continue
        if fits(text, MAIN_WIDTH, size, True):
            return size, [text]
    for size in sizes:
        lines = wrap(text, MAIN_WIDTH, size, True)
        if len(lines) <= 2 and cap_height(size) + line_height(size) <= height:
            return size, lines
    raise TooMuchText(f"main line too long for the panel: {text!r}")


def standard(
    header: str | None = None,
    main: str = "",
    detail: str | Sequence[str] = (),
    right: str = "",
    max_main: int = HUGE,
    shrink: bool = True,
) -> Image.Image:
    """The common screen: optional title bar, a big main line, up to two small detail lines.

    ``detail`` is a string (wrapped) or a list of lines (each wrapped). Details that need more
    lines than that (a longer language) are set smaller, in the same room; with
    ``shrink=False`` they raise TooMuchText instead (the caller has another screen for them).
    """
    details = [detail] if isinstance(detail, str) else list(detail)
    room = (2 + (0 if header else 1)) * line_height(SMALL)
    for small in DETAIL_SIZES if shrink else DETAIL_SIZES[:1]:
        lines = [line for d in details if d for line in wrap(d, WIDTH - 4, small)]
        if len(lines) * line_height(small) <= room:
            break
    else:
        raise TooMuchText(f"detail too long for one screen: {' / '.join(details)!r}")
    with frame() as p:
        top = title_bar(p, header, right) + 3 if header else 3
        bottom = HEIGHT - 1 - len(lines) * line_height(small)
        if main:
            sizes = tuple(s for s in (HUGE, 22, 20, BIG, 16, MEDIUM, 12) if s <= max_main)
            size, mains = main_lines(main, bottom - top - 2, sizes)
            block = cap_height(size) + (len(mains) - 1) * line_height(size)
            y = top + max(0, (bottom - top - block) // 2)
            p.lines(mains, y, size, bold=True)
        y = bottom + 2
        p.lines(lines, y, small)
    return p.image


def pages(header: str, text: str) -> list[Image.Image]:
    """Long text as pages: a title bar ("1/2" when there are several) and up to 3 lines each.

    Medium text, wrapped between words; as many pages as it takes.
    """
    size, per_page = MEDIUM, 3
    lines = wrap(text, WIDTH - 4, size)
    count = -(-len(lines) // per_page)
    out = []
    for i in range(count):
        chunk = lines[i * per_page : (i + 1) * per_page]
        with frame() as p:
            title_bar(p, header, f"{i + 1}/{count}" if count > 1 else "")
            block = len(chunk) * line_height(size)
            y = HEADER_H + max(2, (HEIGHT - HEADER_H - block) // 2 + 1)
            for line in chunk:
                p.text((2, y), line, size)
                y += line_height(size)
        out.append(p.image)
    return out


def boot(subtitle: str | None = None, plate: str | None = None) -> Image.Image:
    """The boot screen: the DeLorean with fire trails over a licence plate (the title's name
    when the table is set to one title)."""
    subtitle = _("table companion") if subtitle is None else subtitle
    # Translators: the licence plate on the boot screen (88 miles per hour, the film's speed).
    plate, plate_size = fitted(_("88 MPH") if plate is None else plate, WIDTH - 14, MEDIUM,
                               True)
    subtitle, small = fitted(subtitle, WIDTH - 2, SMALL)
    with frame() as p:
        glyphs.delorean(p, 20, 2, scale=1.0)
        w = text_width(plate, plate_size, True)
        x0 = (WIDTH - w) // 2 - 5
        p.draw.rounded_rectangle((x0, 34, x0 + w + 9, 50), radius=3, outline=1)
        p.center(plate, 38, plate_size, bold=True)
        p.center(subtitle, 54, small)
    return p.image


def error(message: str, title: str | None = None) -> list[Image.Image]:
    """An error a player can act on, wrapped between words and paged; nothing is cut."""
    return pages(_("CHECK") if title is None else title, message)


def gains_screen(header: str, gains: Sequence[tuple[str, int]]) -> Image.Image:
    """A title bar and "Name +n" for each player, as big as fits (names shortened visibly
    only when even small text cannot hold them)."""
    items = [f"{name} {amount:+d}" for name, amount in gains]
    room = HEIGHT - HEADER_H - 4
    choice = None
    for size, bold in (
        (20, True),
        (BIG, True),
        (16, True),
        (MEDIUM, True),
        (12, False),
        (SMALL, False),
    ):
        lines = wrap_items(items, WIDTH - 4, size, bold)
        if len(lines) <= 3 and cap_height(size) + (len(lines) - 1) * line_height(size) <= room:
            choice = size, bold, lines
            break
    if choice is None:  # very long names: shorten each visibly ("Esmeral.")
        short = [(shorten(n, 48, SMALL), g) for n, g in gains]
        choice = SMALL, False, wrap_items([f"{n} {g:+d}" for n, g in short], WIDTH - 4, SMALL)
    size, bold, lines = choice
    with frame() as p:
        title_bar(p, header)
        block = cap_height(size) + (len(lines) - 1) * line_height(size)
        p.lines(lines, HEADER_H + 2 + max(0, (room - block) // 2), size, bold=bold)
    return p.image


def winner(name: str) -> Image.Image:
    """The winner, with a bolt on each side."""
    with frame() as p:
        glyphs.bolt(p, 2, 4, 26)
        glyphs.bolt(p, WIDTH - 16, 4, 26)
        size = fit_size(name.upper(), 92, (22, 20, BIG, 16, MEDIUM, 12)) or 12
        p.center(shorten(name.upper(), 92, size, True), 6, size, bold=True)
        wins, size = fitted(_("WINS!"), 92, BIG, True)
        p.center(wins, 30, size, bold=True)
        # Translators: Doc Brown's line from the film; any short cheer does.
        cheer, size = fitted(_("1.21 GIGAWATTS!"), WIDTH - 2, SMALL)
        p.center(cheer, 52, size)
    return p.image


def notice(headline: str, main: str = "", detail: str = "") -> Image.Image:
    """Anything else worth a screen: a title bar, a main line, a detail line."""
    return standard(headline, main, detail)


def menu(title: str, items: Sequence[str], selected: int = 0) -> Image.Image:
    """A short menu: title bar, three items, the selected one highlighted, a scroll bar.

    The window scrolls to keep ``selected`` visible; arrows show there is more.
    """
    visible, row_h, top = 3, 17, HEADER_H + 1
    n = len(items)
    selected = max(0, min(selected, n - 1)) if n else 0
    first = min(max(0, selected - 1), max(0, n - visible))
    with frame() as p:
        title_bar(p, title, f"{selected + 1}/{n}" if n > visible else "")
        width = WIDTH - 8 if n > visible else WIDTH - 2
        for row, index in enumerate(range(first, min(n, first + visible))):
            y = top + row * row_h
            text = str(items[index])
            size = MEDIUM if fits(text, width - 6, MEDIUM) else SMALL
            text = shorten(text, width - 6, size)
            p.text((4, y + (row_h - cap_height(size)) // 2), text, size)
            if index == selected:
                p.invert((0, y, width, y + row_h - 1))
        if n > visible:  # scroll bar
            bar_top, bar_h = top, HEIGHT - top
            p.draw.rectangle((WIDTH - 4, bar_top, WIDTH - 2, HEIGHT - 1), outline=1)
            thumb = max(4, bar_h * visible // n)
            ty = bar_top + (bar_h - thumb) * first // max(1, n - visible)
            p.draw.rectangle((WIDTH - 4, ty, WIDTH - 2, ty + thumb - 1), fill=1)
    return p.image


def glitch(image: Image.Image, shifts: Sequence[int]) -> Image.Image:
    """Slide horizontal bands of ``image`` sideways (a time-travel tear)."""
    out = Image.new("1", image.size, 0)
    band = image.height // len(shifts)
    for i, dx in enumerate(shifts):
        box = (0, i * band, image.width, (i + 1) * band if i < len(shifts) - 1 else image.height)
        out.paste(ImageChops.offset(image.crop(box), dx, 0), (0, box[1]))
    out.info["text_boxes"] = image.info.get("text_boxes", [])
    return out


def big_word(word: str, bolts: bool = True, invert: bool = False) -> Image.Image:
    with frame() as p:
        if invert:
            p.draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), fill=1)
        fill = 0 if invert else 1
        size = fit_size(word, 88 if bolts else MAIN_WIDTH, (HUGE, 22, 20, BIG, 16)) or 16
        p.center(word, (HEIGHT - cap_height(size)) // 2, size, bold=True, fill=fill)
        if bolts:
            glyphs.bolt(p, 1, 20, 24, fill=fill)
            glyphs.bolt(p, WIDTH - 15, 20, 24, fill=fill)
    return p.image


def face_picker(die: int, faces: Sequence[str], selected: int = 0) -> Image.Image:
    """The menu to pick an unsure die's face (die numbered from 1)."""
    return menu(_("DIE {number}: WHICH FACE?").format(number=die), list(faces), selected)
