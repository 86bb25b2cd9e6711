"""The screens: pure functions from plain data to a 128x64 1-bit PIL image (or a list of them).

Nothing here touches a device; ``backends.py`` shows the images. Text never leaves the panel and
is never cut silently: a main line shrinks to fit, then wraps; long messages become pages.

    >>> img = turn("Ana")
    >>> img.size, img.mode
    ((128, 64), '1')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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

FACES = ("flux", "2", "3", "4", "5", "88")
HEADER_H = 12  # the inverted title bar
MAIN_WIDTH = WIDTH - 4


class TooMuchText(ValueError):
    """The text does not fit one screen; use the paged screens (``error``, ``refusal``)."""


# --------------------------------------------------------------------------- layout


def _header(p: Painter, text: str, right: str = "") -> int:
    """An inverted title bar; returns the y below it."""
    p.draw.rectangle((0, 0, WIDTH - 1, HEADER_H - 1), fill=1)
    room = WIDTH - 4 - (text_width(right, SMALL) + 4 if right else 0)
    p.text((2, 2), shorten(text, room, SMALL), SMALL, fill=0)
    if right:
        p.right(right, WIDTH - 2, 2, SMALL, fill=0)
    return HEADER_H


def _main_lines(text: str, height: int, sizes=(HUGE, 22, 20, BIG, 16, MEDIUM, 12)):
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
) -> Image.Image:
    """The common screen: optional title bar, a big main line, up to two small detail lines.

    ``detail`` is a string (wrapped) or a list of lines (each wrapped).
    """
    details = [detail] if isinstance(detail, str) else list(detail)
    lines: list[str] = []
    for d in details:
        if d:
            lines.extend(wrap(d, WIDTH - 4, SMALL))
    if len(lines) > 2 + (0 if header else 1):
        raise TooMuchText(f"detail too long for one screen: {' / '.join(details)!r}")
    with frame() as p:
        top = _header(p, header, right) + 3 if header else 3
        bottom = HEIGHT - 1 - len(lines) * line_height(SMALL)
        if main:
            sizes = tuple(s for s in (HUGE, 22, 20, BIG, 16, MEDIUM, 12) if s <= max_main)
            size, mains = _main_lines(main, bottom - top - 2, sizes)
            block = cap_height(size) + (len(mains) - 1) * line_height(size)
            y = top + max(0, (bottom - top - block) // 2)
            p.lines(mains, y, size, bold=True)
        y = bottom + 2
        p.lines(lines, y, SMALL)
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
            _header(p, header, f"{i + 1}/{count}" if count > 1 else "")
            block = len(chunk) * line_height(size)
            y = HEADER_H + max(2, (HEIGHT - HEADER_H - block) // 2 + 1)
            for line in chunk:
                p.text((2, y), line, size)
                y += line_height(size)
        out.append(p.image)
    return out


# --------------------------------------------------------------------------- screens


def boot(subtitle: str = "table companion") -> Image.Image:
    """The boot screen: the DeLorean with fire trails over an OUTATIME plate."""
    with frame() as p:
        glyphs.delorean(p, 20, 2, scale=1.0)
        plate = "OUTATIME"
        w = text_width(plate, MEDIUM, True)
        x0 = (WIDTH - w) // 2 - 5
        p.draw.rounded_rectangle((x0, 34, x0 + w + 9, 50), radius=3, outline=1)
        p.center(plate, 38, MEDIUM, bold=True)
        p.center(subtitle, 54, SMALL)
    return p.image


def turn(name: str, free_dice: int = 6, doubleback: bool = False) -> Image.Image:
    """Whose turn it is: "ANA - ROLL!"."""
    detail = f"DOUBLEBACK: roll {free_dice}" if doubleback else f"roll {free_dice} dice"
    return standard(None, f"{name.upper()} - ROLL!", detail)


def players(view: dict[str, Any]) -> Image.Image:
    """Every player's cards completed /5, step/steps of the Active card and the number needed.

    The player whose turn it is is highlighted. Fits 2 to 6 players.
    """
    rows = view["players"]
    n = len(rows)
    size = 12 if n <= 3 else SMALL if n <= 4 else 9
    row_h = 16 if n <= 3 else 12 if n <= 4 else 9
    head_h = 10 if n <= 4 else 8
    cols = (60, 90, 124)  # right edges of CARDS, STEP, NEED
    with frame() as p:
        for label, x in zip(("CARDS", "STEP", "NEED"), cols, strict=True):
            p.right(label, x, 1, 8)
        p.draw.line((0, head_h - 1, WIDTH - 1, head_h - 1), fill=1)
        y0 = head_h + 1 + max(0, (HEIGHT - head_h - 1 - n * row_h) // 2)
        for i, row in enumerate(rows):
            y = y0 + i * row_h
            ty = y + (row_h - cap_height(size)) // 2
            if row.get("steps"):
                step = f"{row['step']}/{row['steps']}"
            else:
                step = "-"
            needs = "TD" if row.get("active_kind") == "td" and not row.get("needs") else ""
            needs = str(row["needs"]) if row.get("needs") is not None else (needs or "-")
            p.text((1, ty), shorten(row["name"], cols[0] - 30, size), size)
            p.right(f"{row['cards_completed']}/5", cols[0], ty, size)
            p.right(step, cols[1], ty, size)
            p.right(needs, cols[2] - 4, ty, size, bold=True)
            if row["name"] == view.get("turn"):
                p.invert((0, y, WIDTH, min(HEIGHT, y + row_h)))
    return p.image


def roll(
    dice: Sequence[str | None], player: str | None = None, selected: int | None = None
) -> Image.Image:
    """The roll as read: one die per face, an unsure die (``None`` or "?") as a filled "?".

    ``selected`` underlines the die being picked with the buttons.
    """
    dice = [glyphs.UNKNOWN if d in (None, glyphs.UNKNOWN) else str(d) for d in dice]
    unknown = sum(1 for d in dice if d == glyphs.UNKNOWN)
    with frame() as p:
        _header(p, f"{player.upper()} ROLLED" if player else "ROLL", f"{len(dice)} dice")
        size, gap = 19, 2
        total = len(dice) * size + (len(dice) - 1) * gap
        x = (WIDTH - total) // 2
        y = 18
        for i, face in enumerate(dice):
            glyphs.die(p, x + i * (size + gap), y, face, size)
            if selected == i:
                p.draw.rectangle(
                    (
                        x + i * (size + gap),
                        y + size + 2,
                        x + i * (size + gap) + size - 1,
                        y + size + 3,
                    ),
                    fill=1,
                )
        if unknown:
            p.center("? unsure: nudge or pick", 50, SMALL)
        else:
            p.center("CONFIRM to record", 50, SMALL)
    return p.image


def _gains_text(gains: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{name} {amount:+d}" for name, amount in gains)


def lock(
    dice: Sequence[str],
    steps: int,
    player: str | None = None,
    ripples: Sequence[tuple[str, int]] = (),
    paradox: int = 0,
    confirmed: bool = False,
) -> Image.Image:
    """The lock proposal ("LOCK flux 3 4: +2, RIPPLE Ben +1"), or the lock once confirmed.

    ``ripples`` are (name, spaces) of other players; ``paradox`` is 1 or 2 when the lock makes one.
    """
    with frame() as p:
        label = "LOCKED" if confirmed else "LOCK"
        p.text((2, 3), label, MEDIUM, bold=True)
        x = 4 + text_width(label, MEDIUM, True) + 3
        dsize, gap = 15, 2
        room = (WIDTH - x) // (dsize + gap)
        for i, face in enumerate(dice[:room]):
            glyphs.die(p, x + i * (dsize + gap), 0, face, dsize)
        if len(dice) > room:
            p.right(f"+{len(dice) - room}", WIDTH - 1, 4, SMALL)
        items = [f"{n} {g:+d}" for n, g in ripples]
        lines = wrap_items(["RIPPLE " + items[0], *items[1:]], WIDTH - 4, SMALL) if items else []
        room_for = 1 if paradox and steps else 2  # the main line needs the rest
        if len(lines) > room_for:  # too many to list here: the ripple screens follow
            lines = [f"RIPPLE: {len(ripples)} players"]
        if paradox and steps:
            lines.append(f"then PARADOX +{paradox}")
        if not confirmed and len(lines) < 2:
            lines.append("CONFIRM?")
        main = f"{player.upper()} +{steps}" if player else f"+{steps}"
        if not steps and paradox:
            main = f"PARADOX +{paradox}"
        top, bottom = 19, HEIGHT - 1 - len(lines) * line_height(SMALL)
        size, mains = _main_lines(main, bottom - top - 2, (22, 20, BIG, 16, MEDIUM))
        p.lines(mains, top + max(0, (bottom - top - cap_height(size)) // 2), size, bold=True)
        p.lines(lines, bottom + 2, SMALL)
    return p.image


def refusal(reason: str) -> list[Image.Image]:
    """Why the dice cannot be locked ("the flux must go on the DeLorean"), paged."""
    return pages("CAN'T LOCK", reason)


def error(message: str, title: str = "CHECK") -> list[Image.Image]:
    """An error a player can act on, wrapped between words and paged; nothing is cut."""
    return pages(title, message)


def ripple(number: int | str, gains: Sequence[tuple[str, int]]) -> Image.Image:
    """One ripple notice for a number: "RIPPLE: 4 -> Ana +1, Ben +1" (all who gain, merged)."""
    return gains_screen(f"RIPPLE: {number}", gains)


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
        _header(p, header)
        block = cap_height(size) + (len(lines) - 1) * line_height(size)
        p.lines(lines, HEADER_H + 2 + max(0, (room - block) // 2), size, bold=bold)
    return p.image


def instruction(player: str, spaces: int) -> Image.Image:
    """What to do with the physical cards: "BEN: Next card 1 left", with an arrow."""
    with frame() as p:
        name = player.upper()
        size = fit_size(name, MAIN_WIDTH, (22, 20, BIG, 16, MEDIUM, 12)) or 12
        name = shorten(name, MAIN_WIDTH, size, True)
        p.center(name, 2, size, bold=True)
        p.center("move Next card", 26, MEDIUM)
        way = "right" if spaces > 0 else "left"
        text = f"{abs(spaces)} {way.upper()}"
        tw = text_width(text, BIG, True)
        total = tw + 6 + 26
        x = (WIDTH - total) // 2
        if spaces > 0:
            p.text((x, 44), text, BIG, bold=True)
            glyphs.arrow(p, x + tw + 6 + 13, 51, 1, 26)
        else:
            glyphs.arrow(p, x + 13, 51, -1, 26)
            p.text((x + 32, 44), text, BIG, bold=True)
    return p.image


def odds(odds: dict[str, Any], player: str | None = None) -> Image.Image:
    """The odds for the player deciding whether to roll again (from ``view["odds"]``)."""
    free = odds["free_dice"]
    who = f"{player.upper()}: " if player else ""
    stall = round(100 * odds["stall"])
    return standard(
        f"{who}ROLL {free} MORE?",
        f"STALL {stall}%",
        [
            f"expect +{odds['expected_steps']:.1f} steps",
            f"a stall costs {odds.get('stall_loss', 1)}",
        ],
    )


def winner(name: str) -> Image.Image:
    """The winner, with a bolt on each side."""
    with frame() as p:
        glyphs.bolt(p, 2, 4, 26)
        glyphs.bolt(p, WIDTH - 16, 4, 26)
        size = fit_size(name.upper(), 92, (22, 20, BIG, 16, MEDIUM, 12)) or 12
        p.center(shorten(name.upper(), 92, size, True), 6, size, bold=True)
        p.center("WINS!", 30, BIG, bold=True)
        p.center("1.21 GIGAWATTS!", 52, SMALL)
    return p.image


def notice(headline: str, main: str = "", detail: str = "") -> Image.Image:
    """Anything else worth a screen: a title bar, a main line, a detail line."""
    return standard(headline, main, detail)


def card_complete(name: str, count: int, detail: str = "") -> Image.Image:
    return standard("CARD COMPLETE!", f"{name.upper()} {count}/5", detail)


def menu(title: str, items: Sequence[str], selected: int = 0) -> Image.Image:
    """A short menu: title bar, three items, the selected one highlighted, a scroll bar.

    The window scrolls to keep ``selected`` visible; arrows show there is more.
    """
    visible, row_h, top = 3, 17, HEADER_H + 1
    n = len(items)
    selected = max(0, min(selected, n - 1)) if n else 0
    first = min(max(0, selected - 1), max(0, n - visible))
    with frame() as p:
        _header(p, title, f"{selected + 1}/{n}" if n > visible else "")
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


def face_picker(die: int, selected: int = 0):
    """The menu to pick an unsure die's face (die numbered from 1)."""
    return menu(
        f"DIE {die}: WHICH FACE?",
        [("flux capacitor" if f == "flux" else f) for f in FACES],
        selected,
    )


# --------------------------------------------------------------------------- animations


def _glitch(image: Image.Image, shifts: Sequence[int]) -> Image.Image:
    """Slide horizontal bands of ``image`` sideways (a time-travel tear)."""
    out = Image.new("1", image.size, 0)
    band = image.height // len(shifts)
    for i, dx in enumerate(shifts):
        box = (0, i * band, image.width, (i + 1) * band if i < len(shifts) - 1 else image.height)
        out.paste(ImageChops.offset(image.crop(box), dx, 0), (0, box[1]))
    out.info["text_boxes"] = image.info.get("text_boxes", [])
    return out


def _big_word(word: str, bolts: bool = True, invert: bool = False) -> Image.Image:
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


def paradox(
    player: str, gain: int = 1, losses: Sequence[tuple[str, int]] = ()
) -> list[Image.Image]:
    """Paradox animation: flash, inverse flash, tear, then the result ("ANA +1", "Ben -1")."""
    word = "PARADOX!"
    plain = _big_word(word)
    frames = [plain, _big_word(word, invert=True), _glitch(plain, (-6, 4, -2, 7, -5, 3, -8, 2))]
    lost = ", ".join(f"{n} -{m}" if m else f"{n} 0" for n, m in losses)
    try:
        frames.append(standard("PARADOX!", f"{player.upper()} +{gain}", lost))
    except TooMuchText:  # many opponents: their losses get a screen of their own
        frames.append(standard("PARADOX!", f"{player.upper()} +{gain}", "everyone else loses"))
        frames.append(gains_screen("PARADOX: LOSSES", [(n, -m) for n, m in losses]))
    return frames


def stall(player: str, loss: int = 1, moved: int | None = None) -> list[Image.Image]:
    """Stall animation: the DeLorean drives in, sputters, stops; then the loss."""
    moved = loss if moved is None else moved
    frames = []
    for i, (x, trails, puffs) in enumerate(((-40, True, 0), (10, True, 1), (14, False, 2))):
        with frame() as p:
            glyphs.delorean(p, x, 8 + (i == 2), scale=1.0, trails=trails)
            for k in range(puffs):  # exhaust puffs behind the car
                r = 3 + 2 * k
                cx = x - 4 - 8 * k
                p.draw.ellipse((cx - r, 26 - r - 4 * k, cx + r, 26 + r - 4 * k), outline=1)
            p.center("STALL" + "." * (i + 1), 46, BIG, bold=True)
        frames.append(p.image)
    detail = "" if moved else "at card start: no loss"
    main = f"{player.upper()} -{moved}" if moved else player.upper()
    frames.append(standard(f"STALL -{loss}", main, detail))
    return frames
