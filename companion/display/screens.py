"""The shared screens and layout: pure functions from plain data to a 1-bit PIL image.

Every title draws its own screens (``companion/titles/<key>/screens.py``) with these: the
standard screen (title bar, a big main line, small details), ``announce`` for what the whole
table reads (the main line 6 mm tall and every other word 4 mm on the recommended panel; the
details that do not fit go on following screens), paged text, menus, notices, errors, the boot
screen and the winner. Nothing here touches a device; ``backends.py`` shows the images.
Everything is laid out by the panel's size (``p.width``, ``p.height``): 128x64, 256x64 and
128x128 all work. Text never leaves the panel and is never cut silently: a main line shrinks
to fit, then wraps; long messages become pages. Every word is translated (``companion.i18n``),
so no layout may count on English word lengths: a label that must stay on one line is drawn
with ``fitted`` (smaller, then visibly shortened), everything else wraps.

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
    FONT_SIZES,
    HUGE,
    MEDIUM,
    SMALL,
    WIDTH,
    Painter,
    cap_height,
    cap_top,
    fit_size,
    fits,
    font,
    frame,
    line_height,
    panel,
    rule_sizes,
    shorten,
    splits_words,
    text_width,
    wrap,
    wrap_items,
)
from companion.i18n import _

HEADER_H = 12  # the small title bar (SMALL words); header_height(size) for another size
MAIN_WIDTH = WIDTH - 4  # on the default panel; main_width() gives the current panel's
FIT_SIZES = (HUGE, 22, 20, BIG, 16, MEDIUM, 12, SMALL, 9, 8)
DETAIL_SIZES = (SMALL, 9, 8)  # small print, smaller only when a translation needs it
TAB = "\t"  # a menu item "left<TAB>right": the right part is drawn against the right edge


def screen_kind(name: str) -> str:
    """A screen's kind from its name: "game_012_03_ripple" -> "ripple", "stall_2" -> "stall"
    (what a title's TABLE_SCREENS lists)."""
    parts = name.split("_")
    if parts[0] == "game" and len(parts) > 3:
        parts = parts[3:]
    if len(parts) > 1 and parts[-1].isdigit():
        parts = parts[:-1]
    return "_".join(parts)


class TooMuchText(ValueError):
    """The text does not fit one screen; use the paged screens (``error``, ``refusal``)."""


def main_width() -> int:
    """The width a centred line may take on the current panel (2 px margins)."""
    return panel().width - 4


def header_height(size: int = SMALL) -> int:
    """The height of a title bar whose words are ``size``."""
    return cap_height(size) + 4


def page_dots(p: Painter, page: int, count: int, y: int, height: int, fill: int = 0) -> int:
    """Small squares at the right of a title bar, the current page's filled (a drawing, not
    words); returns their width (0 for a single page)."""
    if count <= 1:
        return 0
    dot = max(3, min(5, height // 3))
    gap = 2
    width = count * dot + (count - 1) * gap
    x = p.width - 3 - width
    top = y + (height - dot) // 2
    for i in range(count):
        box = (x + i * (dot + gap), top, x + i * (dot + gap) + dot - 1, top + dot - 1)
        p.draw.rectangle(box, outline=fill, fill=fill if i == page else 1 - fill)
    return width + 4


def title_bar(p: Painter, text: str, right: str = "", size: int = SMALL,
              dots: tuple[int, int] = (0, 1)) -> int:
    """An inverted title bar across the panel; returns the y below it.

    The words are ``size`` when they fit, else smaller, else visibly shortened; ``right``
    (a counter such as "3/8") is left out when the title needs its room. ``dots`` is (page,
    pages): squares for the page being shown.
    """
    height = header_height(size)
    p.draw.rectangle((0, 0, p.width - 1, height - 1), fill=1)
    with frame() as scratch:  # how wide the dots are, drawn where nobody sees them
        dots_w = page_dots(scratch, *dots, 0, height)
    if dots_w and not fits(text, p.width - 4 - dots_w, size):
        dots = (0, 1)  # the words first: the screens that follow are seen anyway
    room = p.width - 4 - page_dots(p, *dots, 0, height)
    right_w = text_width(right, size) + 4 if right else 0
    if right and not fits(text, room - right_w, size):
        right, right_w = "", 0  # the title first: the scroll bar shows the position too
    words, words_size = fitted(text, room - right_w, size)
    p.text((2, 2 + cap_height(size) - cap_height(words_size)), words, words_size, fill=0)
    if right:
        p.right(right, 2 + room, 2, size, fill=0)
    return height


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
    width = main_width()
    for size in sizes:
        if cap_height(size) > height:
            continue
        if fits(text, width, size, True):
            return size, [text]
    for size in sizes:
        lines = wrap(text, width, size, True)
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
    For what the whole table reads, use ``announce``.
    """
    details = [detail] if isinstance(detail, str) else list(detail)
    room = (2 + (0 if header else 1)) * line_height(SMALL)
    width = main_width()
    for small in DETAIL_SIZES if shrink else DETAIL_SIZES[:1]:
        lines = [line for d in details if d for line in wrap(d, width, small)]
        if len(lines) * line_height(small) <= room:
            break
    else:
        raise TooMuchText(f"detail too long for one screen: {' / '.join(details)!r}")
    with frame() as p:
        top = title_bar(p, header, right) + 3 if header else 3
        bottom = p.height - 1 - len(lines) * line_height(small)
        if main:
            sizes = tuple(s for s in (HUGE, 22, 20, BIG, 16, MEDIUM, 12) if s <= max_main)
            size, mains = main_lines(main, bottom - top - 2, sizes)
            block = cap_height(size) + (len(mains) - 1) * line_height(size)
            y = top + max(0, (bottom - top - block) // 2)
            p.lines(mains, y, size, bold=True)
        y = bottom + 2
        p.lines(lines, y, small)
    return p.image


# --------------------------------------------------------------------------- the table reads


def main_sizes(bigger: int = 2) -> list[int]:
    """Sizes for a main line the whole table reads, biggest first: capitals from the rule's
    up to ``bigger`` pixels taller."""
    main, _other = rule_sizes()
    low = cap_height(main)
    return sorted((s for s in FONT_SIZES if s >= main and cap_height(s) <= low + bigger),
                  reverse=True)


def stepped_main_sizes() -> tuple[int, ...]:
    """``main_sizes()`` in steps of two, biggest first: the rule's main size and every other
    size up to two pixels of capital taller (24, 22, 20 at 128x64; 35, 33, 31 at 256x64)."""
    low = rule_sizes()[0]
    return tuple(s for s in main_sizes() if (s - low) % 2 == 0)


def _below_rule(main: int) -> list[int]:
    """Sizes under the rule's, for words that fit nowhere else (the rule is then not kept)."""
    return [s for s in (HUGE, 22, 20, BIG, 16, MEDIUM, 12, SMALL, 9, 8) if s < main]


def _whole_words(text: str, width: int, size: int) -> bool:
    """Every word of ``text`` fits ``width`` at ``size`` (wrapping splits none of them)."""
    return not splits_words(text, width, size, True)


def _main_block(text: str, width: int, height: int, most: int = 2) -> tuple[int, list[str]]:
    """(size, lines) for a main line in ``width`` x ``height``: one line as big as the rule
    allows, else up to ``most`` lines wrapped between words, else smaller than the rule, else
    with a long word split (a visible hyphen), else cut visibly."""
    sizes = main_sizes()
    if not text:
        return sizes[-1], []
    smaller = _below_rule(sizes[-1])

    def block(size: int, lines: list[str]) -> int:
        return cap_height(size) + (len(lines) - 1) * line_height(size)

    for wanted, candidates, whole in ((1, sizes, True), (most, sizes, True),
                                      (most, smaller, True), (most, sizes, False),
                                      (most, smaller, False)):
        for size in candidates:
            if whole and not _whole_words(text, width, size):
                continue
            lines = wrap(text, width, size, True)
            if len(lines) <= wanted and block(size, lines) <= height:
                return size, lines
    size = 8
    fit = max(1, (height - cap_height(size)) // line_height(size) + 1)
    lines = wrap(text, width, size, True)
    if len(lines) > fit:
        lines = lines[: fit - 1] + [shorten(" ".join(lines[fit - 1:]), width, size, True)]
    return size, lines


def announce(header: str | None, main: str | Sequence[str], details: str | Sequence[str] = (),
             one_page: bool = False) -> list[Image.Image]:
    """What the whole table reads: a title bar (optional), the main line in letters 6 mm tall
    and each detail in letters 4 mm tall on the recommended panel (``rule_sizes``).

    ``main`` may be several ways to say the same ("ESMERALDA - ROLL!", "Esmeralda - ROLL!"):
    the first that fits in letters that tall is shown.

    Details that do not fit under the main line go on the following screens, as main lines of
    their own under the same title bar (small squares in the bar count the screens); with
    ``one_page`` they are left out instead (a prompt that stays up: the light ring and the
    screens before it have said them). On a wide panel (256x64) the title sits beside the
    main line when that leaves room for more details.
    """
    _rule_main, other = rule_sizes()
    details = [d for d in ([details] if isinstance(details, str) else details) if d]
    with frame() as probe:
        width, height = probe.width, probe.height
    if not isinstance(main, str):
        ways = list(main)
        main = ways[-1]
        for way in ways:
            plan = _stacked_plan(header, way, [], width, height, other)
            if not plan["mains"] or plan["size"] in main_sizes():
                main = way
                break
    plans = [_stacked_plan(header, main, details, width, height, other)]
    if header and width >= 3 * height:
        side = _side_plan(header, main, details, width, height, other)
        if side is not None:
            plans.append(side)
    plan = max(plans, key=lambda pl: len(details) - len(pl["rest"]))  # the first on a tie
    follow = [] if one_page or not plan["rest"] else _follow_pages(
        header, plan["rest"], width, height, other)
    count = 1 + len(follow)
    out = [_draw_plan(plan, header, other, count)]
    for i, (bar, page_size, lines) in enumerate(follow, start=1):
        with frame() as p:
            top = 1
            if bar:
                top = title_bar(p, header, size=other, dots=(i, count)) + 3
            body = p.height - top - 1
            block = cap_height(page_size) + (len(lines) - 1) * line_height(page_size)
            p.lines(lines, top + max(0, (body - block) // 2), page_size, bold=True)
        out.append(p.image)
    return out


def _fit_details(details: list[str], width: int, room: int, gap: int, other: int
                 ) -> tuple[list[str], list[str], int]:
    """(lines shown, details left over, height used) for whole details under a main line."""
    shown: list[str] = []
    rest = list(details)
    used = 0
    while rest:
        lines = wrap(rest[0], width, other)
        if shown:
            need = line_height(other) * len(lines)
        else:
            need = gap + cap_height(other) + (len(lines) - 1) * line_height(other)
        if used + need > room:
            break
        shown += lines
        used += need
        rest.pop(0)
    return shown, rest, used


def _stacked_plan(header, main, details, width, height, other) -> dict:
    top = header_height(other) + 3 if header else 1
    body = height - top - 1
    most = max(2, (body - cap_height(main_sizes()[-1])) // line_height(main_sizes()[-1]) + 1)
    size, mains = _main_block(main, width - 4, body, most)
    main_h = cap_height(size) + (len(mains) - 1) * line_height(size) if mains else 0
    gap = max(3, line_height(size) - cap_height(size)) if mains else -cap_height(other) // 2
    shown, rest, used = _fit_details(details, width - 4, body - main_h, gap if mains else 0,
                                     other)
    return {"kind": "stacked", "top": top, "body": body, "size": size, "mains": mains,
            "main_h": main_h, "gap": gap, "shown": shown, "rest": rest,
            "used": main_h + used}


def _side_plan(header, main, details, width, height, other) -> dict | None:
    """The title in a box beside the main line, the details under both (a wide panel)."""
    box_w = text_width(header, other) + 8
    room = width - box_w - 6
    sizes = [s for s in main_sizes() if fits(main, room, s, True)]
    if not sizes or not main:
        return None
    size = sizes[0]
    row = max(header_height(other), cap_height(size))
    gap = max(3, line_height(size) - cap_height(size))
    shown, rest, used = _fit_details(details, width - 4, height - 2 - row, gap, other)
    return {"kind": "side", "size": size, "mains": [main], "box_w": box_w, "row": row,
            "gap": gap, "shown": shown, "rest": rest, "used": row + used}


def _draw_plan(plan: dict, header: str | None, other: int, count: int) -> Image.Image:
    with frame() as p:
        size, mains, shown = plan["size"], plan["mains"], plan["shown"]
        if plan["kind"] == "side":
            y = max(1, (p.height - plan["used"]) // 2)
            box_h = header_height(other)
            box_y = y + (plan["row"] - box_h) // 2
            p.draw.rectangle((0, box_y, plan["box_w"] - 1, box_y + box_h - 1), fill=1)
            p.text((4, box_y + 2), header, other, fill=0)
            main_y = y + (plan["row"] - cap_height(size)) // 2
            p.center(mains[0], main_y, size, bold=True, x0=plan["box_w"] + 2)
            dots = page_dots(p, 0, count, p.height - 6, 6, fill=1)
            del dots
            y += plan["row"] + plan["gap"]
        else:
            if header:
                title_bar(p, header, size=other, dots=(0, count))
            y = plan["top"] + max(0, (plan["body"] - plan["used"]) // 2)
            if mains:
                p.lines(mains, y, size, bold=True)
                y += plan["main_h"] + plan["gap"]
        if shown:
            p.lines(shown, y, other)
    return p.image


def _follow_pages(header: str | None, details: list[str], width: int, height: int,
                  other: int) -> list[tuple[bool, int, list[str]]]:
    """Details as the main lines of following screens: (title bar?, size, lines) per screen.

    A detail stays on one screen when the main line's letters hold it there (under the title
    bar, or without it when only that makes room); a longer one is split over screens in
    those letters.
    """
    bar_top = header_height(other) + 3 if header else 1
    out: list[tuple[bool, int, list[str]]] = []
    sizes = main_sizes()
    for detail in details:
        chosen = None
        for size in sizes:
            for bar in ((True, False) if header else (False,)):
                top = bar_top if bar else 1
                per = max(1, (height - top - 1 - cap_height(size)) // line_height(size) + 1)
                lines = wrap(detail, width - 4, size, True)
                if len(lines) <= per:
                    chosen = (bar, size, lines)
                    break
            if chosen:
                break
        if chosen:
            out.append(chosen)
            continue
        size = main_sizes()[-1]
        per = max(1, (height - bar_top - 1 - cap_height(size)) // line_height(size) + 1)
        lines = wrap(detail, width - 4, size, True)
        out += [(bool(header), size, lines[i:i + per]) for i in range(0, len(lines), per)]
    return out


# --------------------------------------------------------------------------- shared screens


def pages(header: str, text: str) -> list[Image.Image]:
    """Long text as pages: a title bar ("1/2" when there are several) and as many medium
    lines as the panel holds, wrapped between words; as many pages as it takes."""
    size = MEDIUM
    with frame() as probe:
        height = probe.height
    per_page = max(1, (height - HEADER_H - 2) // line_height(size))
    lines = wrap(text, main_width(), size)
    count = -(-len(lines) // per_page)
    out = []
    for i in range(count):
        chunk = lines[i * per_page : (i + 1) * per_page]
        with frame() as p:
            title_bar(p, header, f"{i + 1}/{count}" if count > 1 else "")
            block = len(chunk) * line_height(size)
            y = HEADER_H + max(2, (p.height - HEADER_H - block) // 2 + 1)
            for line in chunk:
                p.text((2, y), line, size)
                y += line_height(size)
        out.append(p.image)
    return out


def boot(subtitle: str | None = None, plate: str | None = None) -> Image.Image:
    """The boot screen: the DeLorean with fire trails over a licence plate (the title's name
    when the table is set to one title)."""
    subtitle = _("table companion") if subtitle is None else subtitle
    with frame() as p:
        width, height = p.width, p.height
        # Translators: the licence plate on the boot screen (88 miles per hour, the film's speed).
        plate, plate_size = fitted(_("88 MPH") if plate is None else plate, width - 14, MEDIUM,
                                   True)
        subtitle, small = fitted(subtitle, width - 2, SMALL)
        top = max(0, (height - 64) // 2)  # the 64 rows of the picture, centred
        glyphs.delorean(p, (width - 100) // 2 + 6, top + 2, scale=1.0)
        w = text_width(plate, plate_size, True)
        x0 = (width - w) // 2 - 5
        p.draw.rounded_rectangle((x0, top + 34, x0 + w + 9, top + 50), radius=3, outline=1)
        p.center(plate, top + 34 + (18 - cap_height(plate_size)) // 2, plate_size, bold=True)
        p.center(subtitle, top + 54, small)
    return p.image


def error(message: str, title: str | None = None) -> list[Image.Image]:
    """An error a player can act on, wrapped between words and paged; nothing is cut."""
    return pages(_("CHECK") if title is None else title, message)


def gains_screen(header: str, gains: Sequence[tuple[str, int]]) -> Image.Image:
    """A title bar and "Name +n" for each player, as big as fits on one screen (names
    shortened visibly only when even small text cannot hold them). ``gains_pages`` keeps the
    readability rule instead, over as many screens as it takes."""
    items = [f"{name} {amount:+d}" for name, amount in gains]
    with frame() as probe:
        width, height = probe.width - 4, probe.height
    room = height - HEADER_H - 4
    choice = None
    for size, bold in (
        (20, True),
        (BIG, True),
        (16, True),
        (MEDIUM, True),
        (12, False),
        (SMALL, False),
    ):
        lines = wrap_items(items, width, size, bold)
        if len(lines) <= 3 and cap_height(size) + (len(lines) - 1) * line_height(size) <= room:
            choice = size, bold, lines
            break
    if choice is None:  # very long names: shorten each visibly ("Esmeral.")
        short = [(shorten(n, 48, SMALL), g) for n, g in gains]
        choice = SMALL, False, wrap_items([f"{n} {g:+d}" for n, g in short], width, SMALL)
    size, bold, lines = choice
    with frame() as p:
        title_bar(p, header)
        block = cap_height(size) + (len(lines) - 1) * line_height(size)
        p.lines(lines, HEADER_H + 2 + max(0, (room - block) // 2), size, bold=bold)
    return p.image


def gains_pages(header: str, gains: Sequence[tuple[str, int]]) -> list[Image.Image]:
    """A title bar and "Ana +1, Ben +1" in letters the whole table reads (``announce``
    sizes), over as many screens as the players take (the screens after the first without the
    bar when that holds more); a name is never shortened and a player's gain never split over
    two screens."""
    _main, other = rule_sizes()
    items = [f"{name} {amount:+d}" for name, amount in gains]
    width = main_width()
    with frame() as probe:
        height = probe.height
    bar_top = header_height(other) + 3

    def paged(size: int) -> list[tuple[bool, list[str]]]:
        rows: list[list[str]] = []  # each row: the items side by side, "Ana +1, Ben +1"
        for item in items:
            if rows and rows[-1] and fits(", ".join([*rows[-1], item]), width, size, True):
                rows[-1].append(item)
            else:
                rows.append([item])
        lines_of = [wrap(", ".join(row), width, size, True) for row in rows]

        def per(top: int) -> int:
            return max(1, (height - top - 1 - cap_height(size)) // line_height(size) + 1)

        chunks: list[tuple[bool, list[str]]] = [(True, [])]
        for lines in lines_of:
            bar, chunk = chunks[-1]
            if chunk and len(chunk) + len(lines) > per(bar_top if bar else 1):
                chunks.append((per(1) <= per(bar_top), []))  # the bar, unless that holds more
            chunks[-1][1].extend(lines)
        return chunks

    whole = [s for s in main_sizes() if all(fits(i, width, s, True) for i in items)]
    if not whole:  # a name too long for the main line's letters: smaller, never cut
        whole = [s for s in _below_rule(main_sizes()[-1]) if s >= other and
                 all(fits(i, width, s, True) for i in items)][:1] or main_sizes()[-1:]
    size = min(whole, key=lambda s: (len(paged(s)), -s))
    chunks = paged(size)
    out = []
    for i, (bar, chunk) in enumerate(chunks):
        with frame() as p:
            top = title_bar(p, header, size=other, dots=(i, len(chunks))) + 3 if bar else 1
            body = p.height - top - 1
            block = cap_height(size) + (len(chunk) - 1) * line_height(size)
            p.lines(chunk, top + max(0, (body - block) // 2), size, bold=True)
        out.append(p.image)
    return out


def new_game_hint() -> str:
    """What to press on the winner screen (the session's "over" prompt says the same)."""
    return _("CONFIRM: new game")


def hint_line(p: Painter, hint: str) -> int:
    """``hint`` (what to press now: "CONFIRM: new game") small at the bottom of the panel, in
    the other words' size when it fits, else smaller (then it is small print for the player
    at the buttons, outside the readability rule); returns the y above it (with a gap) where
    the rest of the screen ends (the panel's height for no hint)."""
    if not hint:
        return p.height
    _main, other = rule_sizes()
    text, size = fitted(hint, p.width - 2, other)
    top = p.height - line_height(size)  # its descenders on the panel's last row
    p.center(text, top, size)
    if size < other and p.caps and p.caps[-1][0] == text:
        # small print for the player at the buttons, not words the whole table reads: it
        # stays on the panel (its box is kept) but is left out of the readability rule
        p.caps.pop()
    return top - 3


def winner(name: str, hint: str | None = None, wins: str | None = None,
           cheer: str | None = None) -> Image.Image:
    """The winner: the name and ``wins`` (WINS!, a bolt on each side) as big as the main line
    of a screen the whole table reads, ``cheer`` (1.21 GIGAWATTS!, or a title's score) when
    there is room, and ``hint`` small at the bottom: what to press now (default
    ``new_game_hint()``; "" for none).

    A long name gets smaller letters or two lines before it is shortened."""
    _main, other = rule_sizes()
    hint = new_game_hint() if hint is None else hint
    wins = _("WINS!") if wins is None else wins
    # Translators: Doc Brown's line from the film; any short cheer does.
    cheer = _("1.21 GIGAWATTS!") if cheer is None else cheer
    with frame() as p:
        width = p.width
        room = hint_line(p, hint) - 2
        biggest = main_sizes()[0]
        bolt_h = cap_height(biggest) + 6
        inner = width - 2 * (glyphs.bolt_width(bolt_h) + 4)
        for wins_at in main_sizes():  # WINS! smaller when that keeps the name as big
            wins_text, wins_size = fitted(wins, inner, wins_at, True)
            name_room = room - cap_height(wins_size) - 3
            name_size, names = _main_block(name.upper(), width - 4, name_room, most=2)
            if name_size in main_sizes():
                break
        if name_size not in main_sizes():  # smaller letters: the name as written may fit
            as_written = _main_block(name, width - 4, name_room, most=2)
            if as_written[0] > name_size:
                name_size, names = as_written
        cheer_text, cheer_size = fitted(cheer, width - 2, other)
        gap = max(3, line_height(name_size) - cap_height(name_size))
        blocks = [(line, name_size) for line in names] + [(wins_text, wins_size),
                                                          (cheer_text, cheer_size)]

        def total() -> int:
            return sum(cap_height(s) for _t, s in blocks) + gap * (len(blocks) - 1)

        if total() > room:  # no room for the cheer: the name and WINS! say it all
            blocks.pop()
        if total() > room:
            gap = max(2, gap - (total() - room))
        y = max(1, (room + 2 - total()) // 2)
        for i, (text, size) in enumerate(blocks):
            is_cheer = i == len(names) + 1
            p.center(text, y, size, bold=not is_cheer)
            if i == len(names):  # WINS!, between two bolts
                bolt_y = y + (cap_height(size) - bolt_h) // 2
                glyphs.bolt(p, 2, max(0, bolt_y), bolt_h)
                glyphs.bolt(p, width - 2 - glyphs.bolt_width(bolt_h), max(0, bolt_y), bolt_h)
            y += cap_height(size) + gap
    return p.image


def notice(headline: str, main: str = "", detail: str = "") -> Image.Image:
    """Anything else worth a screen: a title bar, a main line, a detail line."""
    return standard(headline, main, detail)


def menu(title: str, items: Sequence[str], selected: int = 0) -> Image.Image:
    """A short menu: title bar, as many items as the panel holds (three on a 64-pixel panel),
    the selected one highlighted, a scroll bar and "3/8" when there are more.

    An item "left<TAB>right" has two parts: the left one (a card's id) from the left edge, the
    right one (its steps) against the right edge, never run together. The window scrolls to
    keep ``selected`` visible.
    """
    row_h, top = 17, HEADER_H + 1
    n = len(items)
    selected = max(0, min(selected, n - 1)) if n else 0
    with frame() as p:
        width_all, height = p.width, p.height
        visible = max(1, (height - top) // row_h)
        first = min(max(0, selected - (visible - 1) // 2), max(0, n - visible))
        title_bar(p, title, f"{selected + 1}/{n}" if n > visible else "")
        width = width_all - 8 if n > visible else width_all - 2
        for row, index in enumerate(range(first, min(n, first + visible))):
            y = top + row * row_h
            left, _tab, right = str(items[index]).partition(TAB)
            whole = f"{left}  {right}" if right else left
            size = next((z for z in MENU_SIZES if fits(whole, width - 6, z)), SMALL)
            if right:
                right_w = text_width(right, size)
                left = shorten(left, max(8, width - 6 - right_w - text_width("  ", size)), size)
                p.text((4, y + (row_h - cap_height(size)) // 2), left, size)
                p.right(right, width - 3, y + (row_h - cap_height(size)) // 2, size)
            else:
                size, lines = _menu_lines(left, width - 6, row_h)
                line_y = y + (row_h - cap_height(size)) // 2
                if len(lines) > 1:  # the two lines' pixels in the middle of the row
                    high, low = lines_ink(lines, size)
                    line_y = y + (row_h - (low - high)) // 2 - high
                for line in lines:
                    p.text((4, line_y), line, size)
                    line_y += line_height(size)
            if index == selected:
                p.invert((0, y, width, y + row_h - 1))
        if n > visible:  # scroll bar
            bar_top, bar_h = top, height - top
            p.draw.rectangle((width_all - 4, bar_top, width_all - 2, height - 1), outline=1)
            thumb = max(4, bar_h * visible // n)
            ty = bar_top + (bar_h - thumb) * first // max(1, n - visible)
            p.draw.rectangle((width_all - 4, ty, width_all - 2, ty + thumb - 1), fill=1)
    return p.image


MENU_SIZES = (MEDIUM, SMALL, 9)  # a menu item's words, smaller only when they need it (8 px
# letters are 5 px capitals: a blur at arm's length, shortened at SMALL instead)


def ink(text: str, size: int, bold: bool = False) -> tuple[int, int]:
    """(top, bottom) of the pixels ``text`` takes when drawn with its cap top at 0 (the box
    ``Painter.text`` records): a mark above a capital (Ö) or a tall lowercase letter may be
    above 0, descenders (g, y) reach below the capitals."""
    box = font(size).getbbox(text, mode="1")
    return int(box[1]) - cap_top(size), int(box[3]) - cap_top(size)


def lines_ink(lines: Sequence[str], size: int) -> tuple[int, int]:
    """(top, bottom) of ``lines`` drawn one under the other ``line_height(size)`` apart, the
    first with its cap top at 0."""
    tops = [ink(line, size)[0] + i * line_height(size) for i, line in enumerate(lines)]
    bottoms = [ink(line, size)[1] + i * line_height(size) for i, line in enumerate(lines)]
    return min(tops), max(bottoms)


def _menu_lines(text: str, width: int, row_h: int) -> tuple[int, list[str]]:
    """(size, lines) for a menu item in a row ``row_h`` pixels high: one line as big as fits,
    else two lines (wrapped between words) at that size, else smaller; shortened visibly
    ("Esmeral.") only when even the smallest two lines cannot hold it."""
    for size in MENU_SIZES:
        if fits(text, width, size):
            return size, [text]
        lines = wrap(text, width, size)
        if len(lines) == 2 and not splits_words(text, width, size):
            top, bottom = lines_ink(lines, size)
            if bottom - top <= row_h - 2:  # a pixel clear of the row's edges
                return size, lines
    return SMALL, [shorten(text, width, SMALL)]


def item_text(item: str) -> str:
    """A menu item as plain text (its two parts apart), for a terminal or a log."""
    left, _tab, right = str(item).partition(TAB)
    return f"{left}  {right}" if right else left


def glitch(image: Image.Image, shifts: Sequence[int]) -> Image.Image:
    """Slide horizontal bands of ``image`` sideways (a time-travel tear)."""
    out = Image.new("1", image.size, 0)
    band = image.height // len(shifts)
    for i, dx in enumerate(shifts):
        box = (0, i * band, image.width, (i + 1) * band if i < len(shifts) - 1 else image.height)
        out.paste(ImageChops.offset(image.crop(box), dx, 0), (0, box[1]))
    out.info["text_boxes"] = image.info.get("text_boxes", [])
    out.info["text_caps"] = image.info.get("text_caps", [])
    return out


def big_word(word: str, bolts: bool = True, invert: bool = False) -> Image.Image:
    """A word as big as the panel takes, with a bolt on each side when there is room for them
    beside a word at least as big as the main line of a screen the whole table reads."""
    with frame() as p:
        width, height = p.width, p.height
        if invert:
            p.draw.rectangle((0, 0, width - 1, height - 1), fill=1)
        fill = 0 if invert else 1
        bolt_h = min(24, height - 8)
        biggest = sorted((s for s in FONT_SIZES if cap_height(s) <= height // 2 and
                          s >= main_sizes()[0]), reverse=True)
        rule = biggest + main_sizes()
        size = None
        if bolts:
            size = fit_size(word, width - 2 * (glyphs.bolt_width(bolt_h) + 3), rule)
        if size is None:  # the word first: no bolts
            bolts = False
            size = fit_size(word, width - 4, rule + _below_rule(main_sizes()[-1]))
        if size is None:
            word, size = shorten(word, width - 4, 8, True), 8
        p.center(word, (height - cap_height(size)) // 2, size, bold=True, fill=fill)
        if bolts:
            y = (height - bolt_h) // 2
            glyphs.bolt(p, 1, y, bolt_h, fill=fill)
            glyphs.bolt(p, width - 2 - glyphs.bolt_width(bolt_h), y, bolt_h, fill=fill)
    return p.image


def face_picker(die: int, faces: Sequence[str], selected: int = 0) -> Image.Image:
    """The menu to pick an unsure die's face (die numbered from 1)."""
    return menu(_("DIE {number}: WHICH FACE?").format(number=die), list(faces), selected)
