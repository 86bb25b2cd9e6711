"""Small drawings of our own: the DeLorean silhouette, the flux-capacitor Y, dice, arrows, bolts.

All take a ``Painter`` (see ``draw.py``) and pixel coordinates; nothing here is copied art.
"""

from __future__ import annotations

import math

from companion.display.draw import BIG, MEDIUM, Painter, cap_height, text_width

UNKNOWN = "?"


def _scaled(points, x: int, y: int, s: float):
    return [(x + round(px * s), y + round(py * s)) for px, py in points]


# A wedge-shaped car facing right, in a 100 x 30 box: rear deck, roof, windshield, long hood.
_BODY = [
    (2, 13),
    (30, 11),
    (36, 5),
    (56, 4),
    (68, 11),
    (98, 15),
    (99, 20),
    (96, 23),
    (2, 23),
    (1, 18),
]
_WINDOW = [(38, 7), (55, 6), (64, 11), (38, 11)]
_WHEELS = ((22, 23), (80, 23))


def delorean(p: Painter, x: int, y: int, scale: float = 1.0, trails: bool = True) -> None:
    """The DeLorean side view with its top-left corner at ``x, y`` (100 x 30 at scale 1)."""
    d = p.draw
    d.polygon(_scaled(_BODY, x, y, scale), fill=1)
    d.polygon(_scaled(_WINDOW, x, y, scale), fill=0)
    # body crease and rear louvres
    d.line(_scaled([(6, 17), (94, 18)], x, y, scale), fill=0)
    for i in range(4):
        lx = 8 + i * 5
        d.line(_scaled([(lx, 14), (lx + 3, 14)], x, y, scale), fill=0)
    r = 6 * scale
    for wx, wy in _WHEELS:
        cx, cy = x + wx * scale, y + wy * scale
        d.ellipse((cx - r - 1, cy - r - 1, cx + r + 1, cy + r + 1), fill=0)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=1, width=max(1, round(scale * 2)))
        d.ellipse((cx - 1, cy - 1, cx + 1, cy + 1), fill=1)
    if trails:  # fire trails left behind on the road
        for wx, wy in _WHEELS[:1]:
            ty = y + round((wy + 6) * scale)
            d.line((0, ty, x + round((wx - 6) * scale), ty), fill=1)
            d.line((0, ty - 3, x + round((wx - 9) * scale), ty - 3), fill=1)


def flux(p: Painter, cx: int, cy: int, r: int = 6) -> None:
    """The flux-capacitor Y: three arms meeting in the middle, a bulb at each end."""
    d = p.draw
    for angle in (-150, -30, 90):  # up-left, up-right, down
        a = math.radians(angle)
        ex, ey = cx + round(r * math.cos(a)), cy + round(r * math.sin(a))
        d.line((cx, cy, ex, ey), fill=1, width=2 if r >= 6 else 1)
        d.ellipse((ex - 1, ey - 1, ex + 1, ey + 1), fill=1)
    d.ellipse((cx - 1, cy - 1, cx + 1, cy + 1), fill=1)


def die(p: Painter, x: int, y: int, face: str | None, size: int = 19,
        label_size: int | None = None) -> None:
    """One die showing ``face`` (flux, 2-5, 88); an unsure die is a filled box with "?".

    ``label_size``: the font size of a number on it (default: as big as the box takes); a
    label too wide for the box at that size is drawn smaller."""
    d = p.draw
    box = (x, y, x + size - 1, y + size - 1)
    known = face not in (None, UNKNOWN)
    d.rounded_rectangle(box, radius=3, outline=1, fill=0 if known else 1)
    cx, cy = x + size // 2, y + size // 2
    label = "?" if not known else str(face)
    if known and face == "flux":
        flux(p, cx, cy + 1, r=max(3, size // 3))
        return
    if label_size is None:
        tsize = BIG if (len(label) == 1 and size >= 17) else MEDIUM if size >= 17 else 10
    else:
        tsize = label_size
        while tsize > 8 and (text_width(label, tsize, len(label) == 1) > size - 4
                             or cap_height(tsize) > size - 4):
            tsize -= 1
    _glyph(p, label, cx, cy, tsize, bold=len(label) == 1, fill=1 if known else 0)


def _glyph(p: Painter, text: str, cx: int, cy: int, size: int, fill: int = 1, bold=False) -> None:
    w = text_width(text, size, bold)
    h = cap_height(size)
    p.text((cx - w // 2, cy - h // 2), text, size, bold=bold, fill=fill)


def arrow(p: Painter, cx: int, cy: int, direction: int, length: int = 24) -> None:
    """A fat arrow pointing right (``direction`` > 0) or left."""
    d = p.draw
    half = length // 2
    head = 7
    if direction > 0:
        d.rectangle((cx - half, cy - 2, cx + half - head, cy + 2), fill=1)
        d.polygon([(cx + half - head, cy - 6), (cx + half, cy), (cx + half - head, cy + 6)], fill=1)
    else:
        d.rectangle((cx - half + head, cy - 2, cx + half, cy + 2), fill=1)
        d.polygon([(cx - half + head, cy - 6), (cx - half, cy), (cx - half + head, cy + 6)], fill=1)


def bolt_width(h: int) -> int:
    """The width ``bolt`` takes at height ``h`` (its tip reaches 13/20 of it across)."""
    return round(13 * h / 20) + 1


def bolt(p: Painter, x: int, y: int, h: int = 20, fill: int = 1) -> None:
    """A lightning bolt ``h`` pixels high, top-left at ``x, y``."""
    s = h / 20
    pts = [(6, 0), (12, 0), (8, 8), (13, 8), (3, 20), (6, 11), (1, 11)]
    p.draw.polygon([(x + round(px * s), y + round(py * s)) for px, py in pts], fill=fill)


def ellipsis_width(height: int) -> int:
    """The width ``ellipsis`` takes beside words whose capitals are ``height`` pixels."""
    dot = max(2, height // 5)
    return 3 * dot + 2 * dot + 2


def ellipsis(p: Painter, x: int, baseline: int, height: int, fill: int = 1) -> int:
    """Three dots on ``baseline`` (the bottom of the capitals beside them, ``height`` tall),
    from ``x``: "more than is shown", drawn whatever the font has; returns their width."""
    dot = max(2, height // 5)
    for i in range(3):
        left = x + 1 + i * 2 * dot
        p.draw.rectangle((left, baseline - dot, left + dot - 1, baseline - 1), fill=fill)
    return ellipsis_width(height)
