"""Domain-randomised table scenes: dice on tables the reader has never seen.

The dev photos show one cardboard tray. At game night the dice land on a wooden table, a
tablecloth, felt, a printed board or among cards, under a warm lamp or a cold window, seen
from above or at a slant, with a hand or a sleeve at the edge. ``SceneMaker`` draws such
frames, reproducibly from a seed, with the truth of every die in them:

* **tables** (``FAMILIES``): procedural wood grain (planks, rings, knots), woven fabric and
  gingham cloth, felt, paper with print, playing cards with art, a printed game board
  (tracks of spaces, numbers, dots and icons), a patterned cloth or play mat (polka dots,
  rosettes, tiles with a dot, halftone, confetti) and a stone or tiled top (granite
  speckle, terrazzo chips, grout). Every one of them is full of things that are not dice:
  knots, print, dots on a board or a cloth, icons on a card, chips in stone. They are the
  hard negatives.
* **dice**: rendered dice of every colour (opaque, see-through and marbled; pips, numerals
  and symbols) and, when a bank of photo dice is given (``photo_dice``), real dice cut from
  labelled photos and laid on the new table with a shadow;
* **things on the table**: coins, rings, tokens, pawns, card edges, crumbs;
* **the room**: a hand or a sleeve reaching in from an edge, cast shadows, warm, cold or dim
  light, light fall-off, motion blur, noise, JPEG, and a camera tilted up to 45 degrees
  (the border the tilt opens shows more of the bare table: the table's mirror image, without
  the dice, things and hands on it). A tilt warps the frame as a flat print; with
  ``solid`` a share of the frames is seen through a pinhole camera at a slant instead,
  the dice standing on the table as cubes whose sides show their own pips (``solid.py``).

The same seed gives the same frames everywhere (no OpenCV font is used). Training scripts
(``calibration/train_dice_detector.py``, ``calibration/train_face_model.py``) learn from
these frames, and ``companion bench vision-domains`` scores the reader on families and
seeds they did not learn from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .faces import _ADVANCE, FACE_SETS, _arc, draw_face, draw_pips
from .labeled import LabeledImage
from .solid import Camera, draw_cube

# New families go at the end: a family's place fixes the seeds of its scoring scenes.
FAMILIES = ("wood", "fabric", "felt", "paper", "cards", "board", "pattern", "stone",
            "tokens")
# No part of the shipped reader learns from these families (not the finder, the face
# network or the judge): their held-apart scenes are the test of a table it never saw.
HELD_FAMILIES = ("cards", "board", "stone")
MARBLED = 0.12  # share of rendered dice with a marbled body (two colours swirled)
LEARNED_FAMILIES = tuple(f for f in FAMILIES if f not in HELD_FAMILIES)
# Seeds at and above this are kept for scoring; training draws scenes below it.
HELD_SEEDS = 1_000_000
# A camera held at a slant over the table (``solid``) leans up to this many degrees.
SOLID_TILT = 45.0


@dataclass(frozen=True)
class SceneDie:
    """One die in a scene: centre and side in frame pixels, the face, and where it came
    from (``render`` or ``photo``); ``face`` is None for a rendered die of another set."""

    x: float
    y: float
    side: float
    face: str | None
    source: str = "render"


@dataclass
class Scene:
    image: np.ndarray
    dice: list[SceneDie]
    family: str
    ignore: list[tuple[float, float, float, float]] = field(default_factory=list)
    # the same table before the roll (``render(empty=True)``): no dice, clutter or hands
    empty: np.ndarray | None = None
    # seen at a slant (``solid``): the frame's up is the table's far side, so each die's
    # top shows above the sides that face the camera
    solid: bool = False


# --------------------------------------------------------------------------- noise

def _noise(h: int, w: int, cell: float, rng: np.random.Generator) -> np.ndarray:
    """Smooth noise, about unit spread, varying over ``cell`` pixels."""
    gh, gw = int(h / cell) + 3, int(w / cell) + 3
    g = rng.normal(0, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(g, (int(gw * cell), int(gh * cell)),
                      interpolation=cv2.INTER_CUBIC)[:h, :w]


def _sampled(u: np.ndarray, v: np.ndarray, cell_u: float, cell_v: float,
             rng: np.random.Generator) -> np.ndarray:
    """Noise over rotated coordinates, stretched ``cell_u`` along and ``cell_v`` across."""
    u0, v0 = float(u.min()), float(v.min())
    gh = int((v.max() - v0) / cell_v) + 4
    gw = int((u.max() - u0) / cell_u) + 4
    g = rng.normal(0, 1, (gh, gw)).astype(np.float32)
    mx = ((u - u0) / cell_u + 1).astype(np.float32)
    my = ((v - v0) / cell_v + 1).astype(np.float32)
    return cv2.remap(g, mx, my, cv2.INTER_CUBIC)


def _hsv(h: float, s: float, v: float) -> np.ndarray:
    px = np.uint8([[[int(h) % 180, int(np.clip(s, 0, 255)), int(np.clip(v, 0, 255))]]])
    return cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _any_colour(rng: np.random.Generator, s=(0, 255), v=(30, 245)) -> np.ndarray:
    return _hsv(rng.uniform(0, 180), rng.uniform(*s), rng.uniform(*v))


# --------------------------------------------------------------------------- table families

def wood(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """Planks of wood: growth rings warped by slow noise, fine streaks along the grain,
    seams between planks, knots."""
    a = rng.uniform(0, np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = xx * np.cos(a) + yy * np.sin(a)
    v = -xx * np.sin(a) + yy * np.cos(a)
    plank = rng.uniform(0.15, 0.6) * max(h, w)
    idx = np.floor((v - v.min()) / plank)
    period = rng.uniform(4, 28)
    warp = _sampled(u, v, rng.uniform(60, 240), rng.uniform(20, 80), rng) * period * 1.5
    rings = np.sin(2 * np.pi * (v + warp + idx * 37.0) / period)
    rings = np.sign(rings) * np.abs(rings) ** rng.uniform(0.4, 2.0)
    streaks = _sampled(u, v, rng.uniform(20, 120), rng.uniform(0.8, 3.0), rng)
    tone = 0.5 * rings + 0.35 * streaks + 0.15 * _sampled(u, v, 200, 200, rng)
    # knots: rings bent round a point
    for _ in range(int(rng.integers(0, 4))):
        kx, ky = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(4, 30)
        d = np.sqrt(((xx - kx) / 1.0) ** 2 + ((yy - ky) / rng.uniform(1.5, 3.5)) ** 2)
        k = np.exp(-(d / (3 * r)) ** 2)
        tone = tone * (1 - k) + k * np.sin(2 * np.pi * d / max(2.0, r / 2))
        tone -= 1.2 * np.exp(-(d / r) ** 2)
    hue = rng.uniform(5, 24)
    light = _hsv(hue, rng.uniform(60, 200), rng.uniform(120, 235))
    dark = light * rng.uniform(0.35, 0.8)
    if rng.random() < 0.2:  # grey-washed or painted wood
        light = _any_colour(rng, (0, 90), (120, 235))
        dark = light * rng.uniform(0.5, 0.85)
    t = np.clip(0.5 + 0.5 * tone * rng.uniform(0.5, 1.0), 0, 1)[..., None]
    img = dark * (1 - t) + light * t
    # each plank a little lighter or darker, seams in between
    shade = (1 + rng.normal(0, 0.08, int(idx.max()) + 2))[idx.astype(int)]
    img *= shade[..., None].astype(np.float32)
    seam = np.abs((v - v.min()) % plank) < rng.uniform(0.8, 2.5)
    img[seam] *= rng.uniform(0.3, 0.7)
    return img


def fabric(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A tablecloth: a weave, often checked (gingham) or striped, with soft folds."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, np.pi)
    u = xx * np.cos(a) + yy * np.sin(a)
    v = -xx * np.sin(a) + yy * np.cos(a)
    c1 = _any_colour(rng, (30, 230), (90, 240))
    c2 = c1 * rng.uniform(0.4, 0.8) if rng.random() < 0.5 else _any_colour(rng)
    kind = rng.random()
    p = rng.uniform(6, 60)
    if kind < 0.4:  # gingham
        m = ((np.floor(u / p) % 2) + (np.floor(v / p) % 2)) / 2.0
    elif kind < 0.7:  # stripes
        m = (np.floor(u / p) % 2).astype(np.float32)
    else:
        m = np.zeros_like(u)
    img = c1 * (1 - m[..., None]) + c2 * m[..., None]
    wp = rng.uniform(1.5, 4)
    weave = np.sin(2 * np.pi * u / wp) * np.sin(2 * np.pi * v / wp)
    img *= (1 + rng.uniform(0.03, 0.12) * weave)[..., None]
    folds = _noise(h, w, rng.uniform(60, 200), rng)
    img *= (1 + rng.uniform(0.05, 0.2) * folds)[..., None]
    return img


def felt(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """Felt or a playmat: a flat colour, fine fibres, a slow mottle."""
    c = (_hsv(rng.choice([60, 100, 120, 0, 170, 20]) + rng.normal(0, 8),
              rng.uniform(60, 230), rng.uniform(40, 200))
         if rng.random() < 0.7 else _any_colour(rng))
    img = np.empty((h, w, 3), np.float32)
    img[:] = c
    img *= (1 + rng.uniform(0.02, 0.1) * _noise(h, w, rng.uniform(1, 2.5), rng))[..., None]
    img *= (1 + rng.uniform(0.03, 0.12) * _noise(h, w, rng.uniform(30, 120), rng))[..., None]
    return img


def _text_lines(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, ink,
                size: float, rng: np.random.Generator) -> None:
    """Rows of word-shaped marks (no font: the same on every OpenCV)."""
    y = y0 + size
    while y < y1:
        x = x0
        while x < x1:
            n = int(rng.integers(1, 9))
            wlen = n * size * 0.55
            if x + wlen > x1:
                break
            for k in range(n):
                cx = x + k * size * 0.55
                kind = rng.random()
                hgt = size * (0.6 if kind < 0.7 else 1.0)
                if kind < 0.15:
                    cv2.circle(img, (int(cx + size * 0.2), int(y - hgt / 2)),
                               max(1, int(size * 0.22)), ink, max(1, int(size * 0.1)),
                               cv2.LINE_AA)
                else:
                    cv2.line(img, (int(cx + size * 0.1), int(y)),
                             (int(cx + size * rng.uniform(0.1, 0.4)), int(y - hgt)), ink,
                             max(1, int(size * 0.12)), cv2.LINE_AA)
            x += wlen + size * 0.6
        y += size * rng.uniform(1.4, 2.0)


def paper(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A rule sheet or score pad on the table: paper with print, bullets, boxes, tables."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = _hsv(rng.uniform(10, 30), rng.uniform(0, 40), rng.uniform(200, 250))
    img *= (1 + 0.03 * _noise(h, w, 80, rng))[..., None]
    ink = tuple(float(v) for v in (_any_colour(rng, (0, 200), (10, 90))))
    size = rng.uniform(4, 14)
    for _ in range(int(rng.integers(1, 4))):
        x0, y0 = rng.uniform(0, w * 0.6), rng.uniform(0, h * 0.6)
        x1, y1 = x0 + rng.uniform(0.3, 1.0) * w, y0 + rng.uniform(0.2, 1.0) * h
        kind = rng.random()
        if kind < 0.5:
            _text_lines(img, x0, y0, x1, y1, ink, size, rng)
        elif kind < 0.75:  # a bulleted list or a score table
            step = size * rng.uniform(1.5, 3)
            for y in np.arange(y0 + step, y1, step):
                cv2.circle(img, (int(x0), int(y)), max(1, int(size * 0.3)), ink, -1,
                           cv2.LINE_AA)
                cv2.line(img, (int(x0 + size), int(y)), (int(x1), int(y)), ink, 1,
                         cv2.LINE_AA)
        else:  # a picture: shapes in a frame
            cv2.rectangle(img, (int(x0), int(y0)), (int(x1), int(y1)), ink, 1, cv2.LINE_AA)
            _shapes(img, x0, y0, x1, y1, rng, n=int(rng.integers(2, 8)))
    return img


def _shapes(img: np.ndarray, x0, y0, x1, y1, rng: np.random.Generator, n: int = 5,
            size: tuple[float, float] = (6, 50)) -> None:
    """Art: filled and open circles, squares, stars, dots, in random colours."""
    for _ in range(n):
        c = tuple(float(v) for v in _any_colour(rng))
        x, y = rng.uniform(x0, max(x0 + 1, x1)), rng.uniform(y0, max(y0 + 1, y1))
        r = rng.uniform(*size) / 2
        kind = int(rng.integers(6))
        fill = -1 if rng.random() < 0.6 else max(1, int(r / 5))
        if kind == 0:
            cv2.circle(img, (int(x), int(y)), int(r), c, fill, cv2.LINE_AA)
        elif kind == 1:
            box = cv2.boxPoints(((x, y), (2 * r, 2 * r), rng.uniform(0, 90)))
            if fill < 0:
                cv2.fillPoly(img, [box.astype(np.int32)], c, cv2.LINE_AA)
            else:
                cv2.polylines(img, [box.astype(np.int32)], True, c, fill, cv2.LINE_AA)
        elif kind == 2:  # star
            pts = [(x + (r if i % 2 == 0 else r * 0.45) * np.cos(np.pi * i / 5),
                    y + (r if i % 2 == 0 else r * 0.45) * np.sin(np.pi * i / 5))
                   for i in range(10)]
            cv2.fillPoly(img, [np.array(pts, np.int32)], c, cv2.LINE_AA)
        elif kind == 3:  # a cluster of dots
            for _ in range(int(rng.integers(2, 7))):
                q = rng.normal(0, r * 0.6, 2)
                cv2.circle(img, (int(x + q[0]), int(y + q[1])), max(1, int(r * 0.18)), c, -1,
                           cv2.LINE_AA)
        elif kind == 4:  # a soft blob of colour (painted art)
            cv2.ellipse(img, (int(x), int(y)), (int(r * 2), int(r)), rng.uniform(0, 180), 0,
                        360, c, -1, cv2.LINE_AA)
        else:  # a line
            cv2.line(img, (int(x - r * 2), int(y)), (int(x + r * 2), int(y + rng.normal(0, r))),
                     c, max(1, int(r / 6)), cv2.LINE_AA)


def cards(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """Cards lying about on another table: white-bordered faces with art and text, backs
    with a repeating pattern."""
    base = [wood, felt, fabric][int(rng.integers(3))](h, w, rng)
    img = base
    cw = rng.uniform(0.12, 0.35) * min(h, w)
    for _ in range(int(rng.integers(2, 9))):
        x, y = rng.uniform(-0.1, 1.1) * w, rng.uniform(-0.1, 1.1) * h
        ang = rng.uniform(0, 180)
        card = np.empty((int(cw * 1.4), int(cw), 3), np.float32)
        ch, cwi = card.shape[:2]
        if rng.random() < 0.35:  # a card back
            card[:] = _any_colour(rng)
            c2 = tuple(float(v) for v in _any_colour(rng))
            step = rng.uniform(4, 12)
            for yy in np.arange(0, ch, step):
                for xx in np.arange((yy // step % 2) * step / 2, cwi, step):
                    cv2.circle(card, (int(xx), int(yy)), max(1, int(step / 4)), c2, -1,
                               cv2.LINE_AA)
        else:
            card[:] = _hsv(0, 0, rng.uniform(220, 250))
            inner = (int(cwi * 0.08), int(ch * 0.06), int(cwi * 0.92), int(ch * 0.55))
            cv2.rectangle(card, inner[:2], inner[2:], tuple(float(v) for v in
                                                         _any_colour(rng)), -1)
            _shapes(card, inner[0], inner[1], inner[2], inner[3], rng,
                    n=int(rng.integers(2, 8)), size=(cwi * 0.08, cwi * 0.4))
            _text_lines(card, cwi * 0.1, ch * 0.6, cwi * 0.9, ch * 0.95, (30, 30, 30),
                        max(3.0, cwi * 0.06), rng)
        m = cv2.getRotationMatrix2D((cwi / 2, ch / 2), ang, 1.0)
        m[0, 2] += x - cwi / 2
        m[1, 2] += y - ch / 2
        warped = cv2.warpAffine(card, m, (w, h))
        mask = cv2.warpAffine(np.ones((ch, cwi), np.float32), m, (w, h))[..., None]
        img = img * (1 - mask) + warped * mask
    return img


def board(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A printed game board: a painted ground, a track of spaces (squares and discs with
    numbers, dots and icons), lines and art."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = _any_colour(rng, (20, 220), (60, 230))
    img *= (1 + 0.15 * _noise(h, w, rng.uniform(40, 200), rng))[..., None]
    _shapes(img, 0, 0, w, h, rng, n=int(rng.integers(3, 12)), size=(20, 160))
    space = rng.uniform(14, 90)
    for _ in range(int(rng.integers(1, 4))):  # tracks
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        a = rng.uniform(0, 2 * np.pi)
        fill = [tuple(float(v) for v in _any_colour(rng)) for _ in range(3)]
        edge = tuple(float(v) for v in _any_colour(rng, v=(0, 80)))
        round_spaces = rng.random() < 0.4
        for k in range(int(rng.integers(4, 20))):
            c = fill[k % len(fill)]
            if round_spaces:
                cv2.circle(img, (int(x), int(y)), int(space / 2), c, -1, cv2.LINE_AA)
                cv2.circle(img, (int(x), int(y)), int(space / 2), edge, 1, cv2.LINE_AA)
            else:
                box = cv2.boxPoints(((x, y), (space, space), np.rad2deg(a)))
                cv2.fillPoly(img, [box.astype(np.int32)], c, cv2.LINE_AA)
                cv2.polylines(img, [box.astype(np.int32)], True, edge,
                              max(1, int(space / 25)), cv2.LINE_AA)
            mark = rng.random()
            ink = tuple(float(v) for v in _any_colour(rng))
            tile = img[max(0, int(y - space / 2)):int(y + space / 2),
                       max(0, int(x - space / 2)):int(x + space / 2)]
            if tile.shape[0] > 4 and tile.shape[1] > 4 and tile.shape[0] == tile.shape[1]:
                if mark < 0.3:  # a few dots (not a die's pattern)
                    for _ in range(int(rng.integers(1, 4))):
                        q = rng.uniform(0.25, 0.75, 2) * tile.shape[0]
                        cv2.circle(tile, (int(q[0]), int(q[1])),
                                   max(1, int(tile.shape[0] * 0.08)), ink, -1, cv2.LINE_AA)
                elif mark < 0.6:  # a number or a letter, in the project's own strokes
                    from .faces import draw_text

                    draw_text(tile, str(rng.choice(["2", "3", "4", "5", "8", "B", "88"])),
                              ink, 0.5)
                elif mark < 0.8:  # an icon
                    _shapes(tile, tile.shape[1] * 0.3, tile.shape[0] * 0.3,
                            tile.shape[1] * 0.7, tile.shape[0] * 0.7, rng, n=1,
                            size=(tile.shape[0] * 0.3, tile.shape[0] * 0.6))
            step = space * rng.uniform(1.0, 1.3)
            a += rng.normal(0, 0.25)
            x += step * np.cos(a)
            y += step * np.sin(a)
    if rng.random() < 0.5:  # printed grid or area borders
        c = tuple(float(v) for v in _any_colour(rng, v=(0, 120)))
        g = rng.uniform(30, 150)
        for xx in np.arange(rng.uniform(0, g), w, g):
            cv2.line(img, (int(xx), 0), (int(xx), h), c, 1, cv2.LINE_AA)
    return img


def pattern(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A printed tablecloth, oilcloth or play mat: polka dots (one or two sizes, on a grid
    or staggered), rosettes of dots round a disc, tiles with a dot inside, halftone dots
    whose size follows the art, or confetti. Dots on a cloth are the worst case for a pip
    reader, and a common one."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, np.pi)
    u = xx * np.cos(a) + yy * np.sin(a)
    v = -xx * np.sin(a) + yy * np.cos(a)
    ground = _any_colour(rng, (0, 230), (40, 245))
    inks = [_any_colour(rng) for _ in range(3)]
    img = np.empty((h, w, 3), np.float32)
    img[:] = ground
    p = rng.uniform(8, 70)
    kind = rng.random()
    if kind < 0.5:  # dots on a grid, or halftone dots sized by slow art
        stagger = rng.random() < 0.5
        row = np.floor(v / p)
        fu = (u / p + (0.5 * (row % 2) if stagger else 0.0)) % 1.0 - 0.5
        fv = (v / p) % 1.0 - 0.5
        d = np.sqrt(fu * fu + fv * fv)
        if rng.random() < 0.3:
            r = np.clip(0.25 + 0.2 * _noise(h, w, rng.uniform(40, 200), rng), 0.03, 0.48)
        else:
            r = np.float32(rng.uniform(0.08, 0.4))
        dots = np.clip((r - d) * p + 0.5, 0, 1)
        img = img * (1 - dots[..., None]) + inks[0] * dots[..., None]
        if rng.random() < 0.4:  # a second, smaller dot between the first
            f2u, f2v = (u / p) % 1.0, (v / p) % 1.0
            d2 = np.sqrt(f2u * f2u + f2v * f2v)
            d2 = np.minimum(d2, np.sqrt((1 - f2u) ** 2 + f2v ** 2))
            d2 = np.minimum(d2, np.sqrt(f2u ** 2 + (1 - f2v) ** 2))
            d2 = np.minimum(d2, np.sqrt((1 - f2u) ** 2 + (1 - f2v) ** 2))
            dots2 = np.clip((rng.uniform(0.04, 0.12) - d2) * p + 0.5, 0, 1)
            img = img * (1 - dots2[..., None]) + inks[1] * dots2[..., None]
    elif kind < 0.75:  # rosettes or tiles, each drawn, on a loose grid
        p = max(p, 24.0)
        petals = int(rng.integers(4, 9))
        tiles = rng.random() < 0.5
        ink0, ink1 = (tuple(float(x) for x in c) for c in inks[:2])
        for gy in np.arange(-p, h + p, p):
            for gx in np.arange(-p, w + p, p):
                cx, cy = gx + rng.normal(0, p * 0.05), gy + rng.normal(0, p * 0.05)
                if tiles:
                    box = cv2.boxPoints(((cx, cy), (p * 0.8, p * 0.8), np.rad2deg(a)))
                    cv2.fillPoly(img, [box.astype(np.int32)], ink1, cv2.LINE_AA)
                    cv2.circle(img, (int(cx), int(cy)), max(1, int(p * 0.12)), ink0, -1,
                               cv2.LINE_AA)
                else:
                    cv2.circle(img, (int(cx), int(cy)), max(1, int(p * 0.15)), ink0, -1,
                               cv2.LINE_AA)
                    for k in range(petals):
                        t = a + 2 * np.pi * k / petals
                        cv2.circle(img, (int(cx + 0.3 * p * np.cos(t)),
                                         int(cy + 0.3 * p * np.sin(t))),
                                   max(1, int(p * 0.08)), ink1, -1, cv2.LINE_AA)
    else:  # confetti: dots, stars and dashes of many colours, scattered
        for _ in range(int(h * w / (p * p) * rng.uniform(0.5, 2.0))):
            c = tuple(float(x) for x in inks[int(rng.integers(3))])
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            r = rng.uniform(1.5, max(2.0, p * 0.2))
            if rng.random() < 0.7:
                cv2.circle(img, (int(x), int(y)), int(r), c, -1, cv2.LINE_AA)
            else:
                t = rng.uniform(0, np.pi)
                cv2.line(img, (int(x - r * np.cos(t)), int(y - r * np.sin(t))),
                         (int(x + r * np.cos(t)), int(y + r * np.sin(t))), c,
                         max(1, int(r / 2)), cv2.LINE_AA)
    img *= (1 + rng.uniform(0.03, 0.15) * _noise(h, w, rng.uniform(60, 200), rng))[..., None]
    return img


def stone(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A stone, composite or tiled top: granite speckle, terrazzo chips set in cement, or
    square tiles with grout lines."""
    img = np.empty((h, w, 3), np.float32)
    base = _any_colour(rng, (0, 80), (60, 230))
    img[:] = base
    img *= (1 + 0.08 * _noise(h, w, rng.uniform(20, 120), rng))[..., None]
    kind = rng.random()
    if kind < 0.4:  # granite: speckles of a few minerals at a fine scale
        for _ in range(int(rng.integers(2, 5))):
            c = _any_colour(rng, (0, 120), (10, 250))
            speck = _noise(h, w, rng.uniform(1.2, 4.0), rng)
            m = np.clip((speck - rng.uniform(0.6, 1.6)) * 3, 0, 1)[..., None]
            img = img * (1 - m) + c * m
    elif kind < 0.75:  # terrazzo: chips of stone and glass, 3-40 px
        for _ in range(int(h * w / 400 * rng.uniform(0.3, 1.5))):
            c = tuple(float(x) for x in _any_colour(rng, (0, 200), (20, 250)))
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            r = float(np.exp(rng.uniform(np.log(1.5), np.log(20))))
            k = int(rng.integers(4, 8))
            t = np.sort(rng.uniform(0, 2 * np.pi, k))
            rr = r * rng.uniform(0.5, 1.0, k)
            pts = np.stack([x + rr * np.cos(t), y + rr * np.sin(t)], 1).astype(np.int32)
            cv2.fillPoly(img, [pts], c, cv2.LINE_AA)
    else:  # tiles with grout
        side = rng.uniform(20, 160)
        a = rng.uniform(0, 90) if rng.random() < 0.3 else 0.0
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        t = np.deg2rad(a)
        u = xx * np.cos(t) + yy * np.sin(t)
        v = -xx * np.sin(t) + yy * np.cos(t)
        iu, iv = np.floor(u / side), np.floor(v / side)
        shade = 1 + 0.08 * np.sin(iu * 12.9898 + iv * 78.233 + rng.uniform(0, 6))
        img *= shade[..., None].astype(np.float32)
        gw = rng.uniform(1, 4)
        grout = ((u % side) < gw) | ((v % side) < gw)
        img[grout] = _any_colour(rng, (0, 60), (40, 220))
    return img


# A token's lettering: glyphs of its own (0, 1, 6, 7, 9 and a few letters and signs), apart
# from the faces' numerals (2-5, 8, B: ``faces.draw_text``) and from any OpenCV font (whose
# lettering changed with OpenCV 5), in the same box as theirs: 0.6 wide and 1 high.
_SIX = [(0.52, 0.05), (0.28, 0.02), (0.1, 0.2), (0.02, 0.5),
        *_arc(0.3, 0.72, 0.28, 0.28, 180, 540, 24)]
_GLYPHS = {
    "0": [_arc(0.3, 0.5, 0.3, 0.5, 0, 360, 24)],
    "1": [[(0.1, 0.2), (0.32, 0.0), (0.32, 1.0)], [(0.08, 1.0), (0.56, 1.0)]],
    "6": [_SIX],
    "9": [[(0.6 - x, 1.0 - y) for x, y in _SIX]],
    "7": [[(0.0, 0.0), (0.6, 0.0), (0.22, 1.0)]],
    "X": [[(0.0, 0.0), (0.6, 1.0)], [(0.6, 0.0), (0.0, 1.0)]],
    "+": [[(0.3, 0.2), (0.3, 0.8)], [(0.0, 0.5), (0.6, 0.5)]],
    "K": [[(0.05, 0.0), (0.05, 1.0)], [(0.55, 0.0), (0.05, 0.58)], [(0.2, 0.42), (0.58, 1.0)]],
    "A": [[(0.0, 1.0), (0.3, 0.0), (0.6, 1.0)], [(0.12, 0.62), (0.48, 0.62)]],
}
_TOKEN_TEXT = ("0", "1", "6", "7", "9", "10", "16", "19", "X", "+1", "K", "A", "70")


def _lettering(img: np.ndarray, text: str, ink, height: float, thick: int,
               rng: np.random.Generator) -> None:
    """``text`` in ``_GLYPHS``, centred, ``height`` pixels high, slanted and stretched a
    little at random (print of many styles)."""
    s = img.shape[0]
    slant, wide = rng.uniform(-0.25, 0.25), rng.uniform(0.7, 1.3)
    width = (_ADVANCE * (len(text) - 1) + 0.6) * height * wide
    x0, y0 = (s - width) / 2, (s - height) / 2
    for i, ch in enumerate(text):
        for stroke in _GLYPHS[ch]:
            pts = np.array([[x0 + (i * _ADVANCE + x + slant * (0.5 - y)) * height * wide,
                             y0 + y * height] for x, y in stroke])
            cv2.polylines(img, [np.round(pts * 16).astype(np.int32)], False, ink, thick,
                          cv2.LINE_AA, shift=4)


def _symbol(img: np.ndarray, c: float, r: float, ink, rng: np.random.Generator) -> None:
    """A star, a ring, a triangle, a diamond or an arrow of radius ``r`` round ``(c, c)``."""
    kind = int(rng.integers(5))
    turn = rng.uniform(0, 2 * np.pi)
    if kind == 0:
        t = turn + np.pi * np.arange(10) / 5
        rad = np.where(np.arange(10) % 2 == 0, r, 0.45 * r)
        cv2.fillPoly(img, [np.stack([c + rad * np.cos(t), c + rad * np.sin(t)], 1)
                           .astype(np.int32)], ink, cv2.LINE_AA)
    elif kind == 1:
        cv2.circle(img, (int(c), int(c)), int(r), ink, max(1, int(r / 3)), cv2.LINE_AA)
    elif kind in (2, 3):
        t = turn + 2 * np.pi * np.arange(kind + 1) / (kind + 1)
        pts = [np.stack([c + r * np.cos(t), c + r * np.sin(t)], 1).astype(np.int32)]
        if rng.random() < 0.5:
            cv2.fillPoly(img, pts, ink, cv2.LINE_AA)
        else:
            cv2.polylines(img, pts, True, ink, max(1, int(r / 4)), cv2.LINE_AA)
    else:
        a, b = (c - r * np.cos(turn), c - r * np.sin(turn)), (c + r * np.cos(turn),
                                                              c + r * np.sin(turn))
        cv2.arrowedLine(img, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), ink,
                        max(1, int(r / 4)), cv2.LINE_AA, tipLength=0.4)


def _token(side: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One token drawn upright on a patch of twice its side: the patch and its mask."""
    size = int(2 * side)
    patch = np.zeros((size, size, 3), np.float32)
    mask = np.zeros((size, size), np.float32)
    c = size / 2.0
    r = side / 2.0
    fill = tuple(float(v) for v in _any_colour(rng))
    shape = int(rng.integers(3))
    if shape == 0:  # a square tile
        box = np.array([[c - r, c - r], [c + r, c - r], [c + r, c + r], [c - r, c + r]])
        pts = [box.astype(np.int32)]
    elif shape == 1:  # a disc
        t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
        pts = [np.stack([c + r * np.cos(t), c + r * np.sin(t)], 1).astype(np.int32)]
    else:  # a hexagon
        t = np.linspace(0, 2 * np.pi, 6, endpoint=False) + rng.uniform(0, np.pi / 3)
        pts = [np.stack([c + r * 1.1 * np.cos(t), c + r * 1.1 * np.sin(t)], 1)
               .astype(np.int32)]
    cv2.fillPoly(patch, pts, fill, cv2.LINE_AA)
    cv2.fillPoly(mask, pts, 1.0, cv2.LINE_AA)
    edge = tuple(float(v) for v in _any_colour(rng, v=(0, 120)))
    if rng.random() < 0.6:  # a printed rim
        cv2.polylines(patch, pts, True, edge, max(1, int(side / 14)), cv2.LINE_AA)
    ink = tuple(float(v) for v in _any_colour(rng))
    mark = rng.random()
    if mark < 0.55:  # a number, a letter or a sign
        text = str(rng.choice(_TOKEN_TEXT))
        height = side * rng.uniform(0.35, 0.6) / max(1.0, 0.5 * len(text))
        _lettering(patch, text, ink, height, max(1, int(side / rng.uniform(8, 16))), rng)
    elif mark < 0.85:  # a symbol, larger than a pip (no dots: a token with a pip or two
        # on it would look like a die showing 1 or 2, and nothing tells them apart from above)
        _symbol(patch, c, side * rng.uniform(0.2, 0.35), ink, rng)
    return patch * mask[..., None], mask


def tokens(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """Game pieces beside the dice: cardboard tokens, chits and number tiles about a die's
    size (squares, discs and hexagons with a numeral, a letter or a sign in lettering of
    their own, a symbol, or blank), scattered on a plain table or still in rows on their
    punched sheet. A token stands up from the table: it casts a shadow."""
    img = [wood, felt, fabric][int(rng.integers(3))](h, w, rng).astype(np.float32)
    side = rng.uniform(14, 80)
    reach = rng.uniform(0.04, 0.15) * side  # of the shadows
    away = rng.uniform(0, 2 * np.pi)  # where the light throws them
    shadow = reach * np.array([np.cos(away), np.sin(away)])
    if rng.random() < 0.3:  # still on their sheet: rows of tokens, turned as one
        sheet_a = rng.uniform(0, 90)
        step = side * rng.uniform(1.15, 1.5)
        x0, y0 = rng.uniform(0, w * 0.5), rng.uniform(0, h * 0.5)
        cols, rows = int(rng.integers(2, 7)), int(rng.integers(2, 5))
        ca, sa = np.cos(np.radians(sheet_a)), np.sin(np.radians(sheet_a))
        places = [(x0 + i * step * ca - j * step * sa, y0 + i * step * sa + j * step * ca,
                   sheet_a) for i in range(cols) for j in range(rows)]
    else:
        places = [(rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0, 90))
                  for _ in range(int(rng.integers(3, 25)))]
    for x, y, ang in places:
        s = side * rng.uniform(0.85, 1.15)
        patch, mask = _token(s, rng)
        size = patch.shape[0]
        m = cv2.getRotationMatrix2D((size / 2, size / 2), ang, 1.0)
        m[0, 2] += x - size / 2
        m[1, 2] += y - size / 2
        under = cv2.warpAffine(mask, m + np.array([[0, 0, shadow[0]], [0, 0, shadow[1]]]),
                               (w, h))
        img *= (1 - 0.45 * cv2.GaussianBlur(under, (0, 0), max(0.5, s * 0.05)))[..., None]
        cover = cv2.warpAffine(mask, m, (w, h))[..., None]
        img = img * (1 - cover) + cv2.warpAffine(patch, m, (w, h))
    return img


TABLES = {"wood": wood, "fabric": fabric, "felt": felt, "paper": paper, "pattern": pattern,
          "cards": cards, "board": board, "stone": stone, "tokens": tokens}


# --------------------------------------------------------------------------- dice

def title_sets() -> list[str]:
    """The face sets besides d6 that can be drawn (the titles' numerals and symbols)."""
    return [n for n in FACE_SETS if n != "d6" and FACE_SETS[n].draw is not None]


def marble(side: int, body, rng: np.random.Generator) -> np.ndarray:
    """A marbled body: two colours swirled by warped noise."""
    other = _any_colour(rng)
    n = _noise(side, side, max(2.0, side / rng.uniform(2, 6)), rng)
    n2 = _noise(side, side, max(2.0, side / 3), rng)
    t = np.clip(0.5 + 0.5 * np.sin(3 * n + 2 * n2), 0, 1)[..., None]
    return np.float32(body) * (1 - t) + other * t


@dataclass(frozen=True)
class PhotoDie:
    """A real die cut from a labelled photo: ``patch`` (BGR, the die in the middle at
    ``side`` pixels with a rim of its table) and its face."""

    patch: np.ndarray
    side: float
    face: str


def photo_dice(items: Sequence[LabeledImage], rim: float = 0.35) -> list[PhotoDie]:
    """Cut every labelled die (and its face) out of labelled photos, for laying on other
    tables. Dice near the photo's edge or touching another die are left out."""
    out = []
    for item in items:
        image = cv2.imread(str(item.image))
        if image is None:
            continue
        h, w = image.shape[:2]
        for k, b in enumerate(item.boxes):
            side = float(np.sqrt(b.w * b.h))
            half = side * (0.5 + rim)
            x0, y0, x1, y1 = b.cx - half, b.cy - half, b.cx + half, b.cy + half
            if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
                continue
            if any(j != k and np.hypot(o.cx - b.cx, o.cy - b.cy) < side * 1.05
                   for j, o in enumerate(item.boxes)):
                continue
            patch = image[int(y0):int(np.ceil(y1)), int(x0):int(np.ceil(x1))].copy()
            out.append(PhotoDie(patch, side * patch.shape[0] / (2 * half), b.face or ""))
    return out


class SceneMaker:
    """Draw scenes of dice on randomised tables, reproducibly from ``seed``.

    ``families`` are the tables to draw from; ``photo`` a bank of real dice
    (``photo_dice``) laid on them (``photo_share`` of the dice); ``sides`` the range of die
    sides in pixels; ``d6_only``: rendered dice show pips only (a d6 face network learns
    from them) instead of also numerals and symbols of the other sets; ``tilt`` the largest
    camera tilt in degrees. ``harsh`` (the default, for teaching) draws the whole range of
    light, blur, noise and JPEG; without it the frames look like ordinary photos of a game
    night (dice of 20-64 pixels, the camera tilted 30 degrees at most, a lamp's light, mild
    blur and compression), which is what the reader is scored on besides the harsh ones.
    ``dice_set``: every rendered die is one of that set's (a title's dice, labelled with
    their faces: what a judge for that set learns from), instead of d6 pip dice and
    sometimes other sets' symbols; photo dice are d6 dice, so give none with it.
    ``solid``: the share of frames seen through a camera held at a slant (up to
    ``SOLID_TILT`` degrees, from any side of the table), the dice as cubes whose sides
    show, as they stand on a real table (without it, dice are prints on the table, also
    when it is tilted); with 0 the generator draws exactly the frames it drew before.

    >>> scene = SceneMaker(seed=3, families=("wood",)).render(320, 240, n_dice=3)
    >>> scene.image.shape, len(scene.dice), scene.family
    ((240, 320, 3), 3, 'wood')
    """

    def __init__(self, seed: int = 0, families: Sequence[str] = FAMILIES,
                 photo: Sequence[PhotoDie] = (), photo_share: float = 0.5,
                 sides: tuple[float, float] = (14.0, 120.0), d6_only: bool = False,
                 tilt: float = 45.0, clutter: float = 0.7, hands: float = 0.25,
                 harsh: bool = True, solid: float = 0.0, dice_set: str | None = None,
                 marbled: float = MARBLED) -> None:
        unknown = set(families) - set(TABLES)
        if unknown:
            raise ValueError(f"unknown table families {sorted(unknown)}; use {FAMILIES}")
        if dice_set is not None and (dice_set not in title_sets() or photo):
            raise ValueError(f"dice_set: one of {title_sets()}, without photo dice")
        self.rng = np.random.default_rng(seed)
        self.families = tuple(families)
        self.photo = list(photo)
        self.photo_share = photo_share if self.photo else 0.0
        self.sides = sides
        self.d6_only = d6_only
        self.tilt = tilt
        self.clutter = clutter
        self.hands = hands
        self.harsh = harsh
        self.solid = solid
        self.dice_set = dice_set
        self.marbled = marbled
        if not harsh:
            self.sides = (max(sides[0], 20.0), min(sides[1], 64.0))
            self.tilt = min(tilt, 30.0)

    # -- dice ----------------------------------------------------------------------
    def _die_colours(self) -> tuple[np.ndarray, tuple]:
        """A die's body colour and an ink that stands out on it."""
        rng = self.rng
        body = _any_colour(rng, (0, 255), (20, 250))
        if rng.random() < 0.3:
            body = _hsv(0, rng.uniform(0, 25), rng.uniform(215, 250))  # white dice are common
        ink_choices = [(245, 245, 245), (20, 20, 20), (40, 40, 200), (40, 200, 230)]
        for _ in range(20):
            ink = (ink_choices[int(rng.integers(4))] if rng.random() < 0.7
                   else tuple(float(v) for v in _any_colour(rng)))
            if np.linalg.norm(np.subtract(ink, body)) > 140:
                break
        else:
            ink = (245, 245, 245) if np.mean(body) < 128 else (20, 20, 20)
        return body, ink

    def _rendered_die(self, s: float) -> tuple[np.ndarray, np.ndarray, str | None]:
        """A die tile (BGR float, 2 s square, die in the middle) with its alpha and face."""
        rng = self.rng
        big = int(np.ceil(2 * s)) | 1
        body, ink = self._die_colours()
        own = FACE_SETS[self.dice_set] if self.dice_set else None
        colour = None
        if own is not None and own.colours:
            # A set whose dice have colours (Back in Time): a colour's die, its own faces.
            colour = list(own.colours)[int(rng.integers(len(own.colours)))]
            body = np.clip(np.array(own.colours[colour]) + rng.normal(0, 12, 3), 0, 255)
            ink = (245, 245, 245) if body.mean() < 150 else (25, 25, 25)
        inner = int(round(s))
        face_img = np.empty((inner, inner, 3), np.uint8)
        kind = rng.random()
        marbled = kind < self.marbled and colour is None
        if marbled:
            face_img[:] = np.clip(marble(inner, body, rng), 0, 255).astype(np.uint8)
        else:
            face_img[:] = np.clip(body, 0, 255).astype(np.uint8)
        ink = tuple(int(v) for v in ink)
        set_roll = rng.random()
        if self.dice_set is None and (self.d6_only or set_roll < 0.7):
            face = str(int(rng.integers(1, 7)))
            draw_pips(face_img, int(face), ink, rng.uniform(0.06, 0.12), rng.uniform(0.22, 0.3))
        else:  # another kind of die: the titles' symbols (numerals, emblems, icons)
            face = None
            others = title_sets()
            share = 0.3 / len(others)  # the rest of the draw, split evenly between the sets
            fs = FACE_SETS[self.dice_set or
                           others[min(int((set_roll - 0.7) / share), len(others) - 1)]]
            symbol = str(rng.choice(list(fs.faces)))
            if colour is not None:
                symbol = own.faces_of(colour)[int(rng.integers(6))]
            if self.dice_set is not None:
                face = symbol
            style = fs.styles[0]
            if len(fs.styles) > 1:  # the set's last style (printed numerals) most of the time
                style = fs.styles[-1] if rng.random() < 0.7 else fs.styles[0]
            draw_face(face_img, fs.name, symbol, ink, style)
        tile = np.zeros((big, big, 3), np.float32)
        o = (big - inner) // 2
        tile[o:o + inner, o:o + inner] = face_img
        # a soft sheen across the face, and a darker rim (rounded edges)
        yy, xx = np.mgrid[0:big, 0:big].astype(np.float32) / big
        tile *= (1.0 + rng.uniform(-0.15, 0.15) * (xx - 0.5)
                 + rng.uniform(-0.15, 0.15) * (yy - 0.5))[..., None]
        mask = np.zeros((big, big), np.float32)
        r = max(1, int(s * rng.uniform(0.08, 0.2)))
        cv2.rectangle(mask, (o + r, o), (o + inner - 1 - r, o + inner - 1), 1.0, -1)
        cv2.rectangle(mask, (o, o + r), (o + inner - 1, o + inner - 1 - r), 1.0, -1)
        for cx, cy in ((o + r, o + r), (o + inner - 1 - r, o + r), (o + r, o + inner - 1 - r),
                       (o + inner - 1 - r, o + inner - 1 - r)):
            cv2.circle(mask, (cx, cy), r, 1.0, -1, cv2.LINE_AA)
        edge = cv2.GaussianBlur(mask, (0, 0), max(0.6, s * 0.06))
        tile *= (0.75 + 0.25 * edge)[..., None]
        if kind > 0.12 and kind < 0.3:  # see-through: the table shows where there is no ink
            ink_share = np.clip(np.linalg.norm(tile - np.float32(body), axis=2) / 120.0, 0, 1)
            mask = mask * (rng.uniform(0.45, 0.8) + 0.3 * ink_share)
            mask = np.clip(mask, 0, 1)
        return tile, mask, face

    def _photo_die(self, s: float) -> tuple[np.ndarray, np.ndarray, str]:
        rng = self.rng
        pd = self.photo[int(rng.integers(len(self.photo)))]
        scale = s / pd.side
        big = int(np.ceil(2 * s)) | 1
        c = pd.patch.shape[0] / 2
        m = cv2.getRotationMatrix2D((c, c), 0.0, scale)
        m[0, 2] += big / 2 - c
        m[1, 2] += big / 2 - c
        tile = cv2.warpAffine(pd.patch, m, (big, big), flags=cv2.INTER_AREA if scale < 1
                              else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        mask = np.zeros((big, big), np.float32)
        half = s * rng.uniform(0.5, 0.56)
        r = max(1, int(s * 0.18))
        p0, p1 = int(big / 2 - half), int(big / 2 + half)
        cv2.rectangle(mask, (p0 + r, p0), (p1 - r, p1), 1.0, -1)
        cv2.rectangle(mask, (p0, p0 + r), (p1, p1 - r), 1.0, -1)
        for cx, cy in ((p0 + r, p0 + r), (p1 - r, p0 + r), (p0 + r, p1 - r), (p1 - r, p1 - r)):
            cv2.circle(mask, (cx, cy), r, 1.0, -1, cv2.LINE_AA)
        mask = cv2.GaussianBlur(mask, (0, 0), max(0.5, s * 0.03))
        return tile.astype(np.float32), mask, pd.face

    # -- things that are not dice ----------------------------------------------------
    def _clutter(self, img: np.ndarray, dice: list[SceneDie], side: float) -> None:
        rng = self.rng
        h, w = img.shape[:2]
        for _ in range(int(rng.integers(1, 7))):
            for _ in range(20):
                x, y = rng.uniform(0, w), rng.uniform(0, h)
                if all(np.hypot(x - d.x, y - d.y) > 1.2 * (d.side + side) for d in dice):
                    break
            else:
                continue
            c = tuple(float(v) for v in _any_colour(rng))
            r = side * rng.uniform(0.25, 0.7)
            kind = int(rng.integers(7))
            reach = int(side * 6 + 4)
            x0, y0 = max(0, int(x) - reach), max(0, int(y) - reach)
            before = img[y0:y0 + 2 * reach, x0:x0 + 2 * reach].copy()
            if kind == 0:  # coin
                cv2.circle(img, (int(x), int(y)), int(r), c, -1, cv2.LINE_AA)
                cv2.circle(img, (int(x), int(y)), int(r * 0.8), tuple(v * 0.8 for v in c), 1,
                           cv2.LINE_AA)
            elif kind == 1:  # ring
                cv2.circle(img, (int(x), int(y)), int(r), c, max(1, int(r / 4)), cv2.LINE_AA)
            elif kind == 2:  # crumbs or loose dots
                for _ in range(int(rng.integers(1, 6))):
                    q = rng.normal(0, side * 0.4, 2)
                    cv2.circle(img, (int(x + q[0]), int(y + q[1])),
                               max(1, int(side * rng.uniform(0.04, 0.1))), c, -1, cv2.LINE_AA)
            elif kind == 3:  # a card edge or a pencil
                a = rng.uniform(0, np.pi)
                d = side * rng.uniform(1, 5)
                cv2.line(img, (int(x - d * np.cos(a)), int(y - d * np.sin(a))),
                         (int(x + d * np.cos(a)), int(y + d * np.sin(a))), c,
                         max(1, int(side * rng.uniform(0.03, 0.25))), cv2.LINE_AA)
            elif kind == 4:  # a token or a pawn seen from above
                cv2.ellipse(img, (int(x), int(y)), (int(r * rng.uniform(1, 2)), int(r)),
                            rng.uniform(0, 180), 0, 360, c, -1, cv2.LINE_AA)
                cv2.circle(img, (int(x), int(y)), max(1, int(r * 0.4)),
                           tuple(min(255.0, v * 1.3) for v in c), -1, cv2.LINE_AA)
            elif kind == 5:  # a cube of another kind: a blank block, a sugar cube
                box = cv2.boxPoints(((x, y), (side * rng.uniform(0.7, 1.1),) * 2,
                                     rng.uniform(0, 90)))
                cv2.fillPoly(img, [box.astype(np.int32)], c, cv2.LINE_AA)
            else:  # a meeple-ish figure
                for dx, dy, rr in ((0, -0.6, 0.35), (0, 0, 0.55), (-0.5, 0.3, 0.3),
                                   (0.5, 0.3, 0.3)):
                    cv2.circle(img, (int(x + dx * r), int(y + dy * r)), max(1, int(rr * r)), c,
                               -1, cv2.LINE_AA)
            if rng.random() < 0.5:
                roi = img[y0:y0 + 2 * reach, x0:x0 + 2 * reach]
                diff = (np.abs(roi - before).sum(axis=2) > 0).astype(np.float32)
                sh = np.roll(diff, (int(side * 0.08), int(side * 0.08)), axis=(0, 1))
                sh = cv2.GaussianBlur(sh, (0, 0), max(0.5, side * 0.06)) * (1 - diff)
                roi *= (1 - 0.35 * sh)[..., None]

    def _hand(self, img: np.ndarray, side: float) -> np.ndarray:
        """A hand or a sleeve reaching in from an edge; returns its mask."""
        rng = self.rng
        h, w = img.shape[:2]
        mask = np.zeros((h, w), np.float32)
        edge = int(rng.integers(4))
        reach = rng.uniform(0.1, 0.3) * (h if edge % 2 == 0 else w)
        width = rng.uniform(0.15, 0.35) * min(h, w)
        pos = rng.uniform(0.1, 0.9)
        if rng.random() < 0.5:
            colour = _hsv(rng.uniform(5, 20), rng.uniform(50, 160), rng.uniform(80, 230))
        else:
            colour = _any_colour(rng)  # a sleeve
        # an arm: a long ellipse from outside the frame, with a few fingers
        if edge == 0:
            cx, cy, ang = pos * w, 0, 90
        elif edge == 1:
            cx, cy, ang = w, pos * h, 180
        elif edge == 2:
            cx, cy, ang = pos * w, h, 270
        else:
            cx, cy, ang = 0, pos * h, 0
        cv2.ellipse(mask, (int(cx), int(cy)), (int(reach), int(width / 2)), ang, 0, 360, 1.0,
                    -1, cv2.LINE_AA)
        a = np.deg2rad(ang)
        for k in range(int(rng.integers(0, 5))):
            off = (k - 1.5) * width * 0.2
            fx = cx + reach * np.cos(a) - off * np.sin(a)
            fy = cy + reach * np.sin(a) + off * np.cos(a)
            cv2.ellipse(mask, (int(fx), int(fy)), (int(width * 0.25), int(width * 0.07)),
                        ang + rng.normal(0, 10), 0, 360, 1.0, -1, cv2.LINE_AA)
        mask = cv2.GaussianBlur(mask, (0, 0), 1.0)
        shade = (1 + 0.15 * _noise(h, w, max(4.0, width / 4), rng))[..., None]
        shadow = cv2.GaussianBlur(np.roll(mask, (int(side * 0.3), int(side * 0.3)), (0, 1)),
                                  (0, 0), max(1.0, side * 0.3))
        img *= (1 - 0.4 * shadow * (1 - mask))[..., None]
        img[:] = img * (1 - mask[..., None]) + colour * shade * mask[..., None]
        return mask

    def _dice_to_lay(self, w: int, h: int, die_side: float | None, n_dice: int | None
                     ) -> tuple[float, int]:
        """The frame's die side in pixels and how many dice to lay (as many as fit, at
        most 12, when not given)."""
        rng = self.rng
        side = die_side or float(np.exp(rng.uniform(np.log(self.sides[0]),
                                                    np.log(self.sides[1]))))
        if n_dice is None:
            room = max(1, int(0.25 * h * w / (side * side * 2.2)))
            n_dice = int(rng.integers(0, min(12, room) + 1))
        return side, n_dice

    # -- public ----------------------------------------------------------------------
    def render(self, width: int = 640, height: int = 480, n_dice: int | None = None,
               family: str | None = None, die_side: float | None = None,
               touching: float = 0.2, pairs: float = 0.0, empty: bool = False) -> Scene:
        """A frame with its truth. ``touching``: the chance a die that lands against
        another stays there; ``pairs``: the chance a die is laid against one already down
        (dice that touch, which a finder may take for one); ``empty``: also the bare table
        as the same camera saw it before the roll (``Scene.empty``; the scene itself is the
        same with or without it)."""
        rng = self.rng
        h, w = height, width
        family = family or self.families[int(rng.integers(len(self.families)))]
        if self.solid and rng.random() < self.solid:
            return self._render_solid(w, h, n_dice, family, die_side, touching, empty)
        img = TABLES[family](h, w, rng).astype(np.float32)
        bare = img.copy()  # the table alone: what a tilted camera sees beyond the frame
        side, n_dice = self._dice_to_lay(w, h, die_side, n_dice)
        dice: list[SceneDie] = []
        shadow_dir = rng.uniform(0, 2 * np.pi)
        shadow_len = rng.uniform(0.05, 0.3)
        for _ in range(n_dice):
            s = side * rng.uniform(0.9, 1.1)
            for _ in range(100):
                x, y = rng.uniform(0.6 * s, w - 0.6 * s), rng.uniform(0.6 * s, h - 0.6 * s)
                if pairs and dice and rng.random() < pairs:
                    d = dice[int(rng.integers(len(dice)))]
                    a, r = rng.uniform(0, 2 * np.pi), rng.uniform(0.55, 0.7) * (s + d.side)
                    x = float(np.clip(d.x + r * np.cos(a), 0.6 * s, w - 0.6 * s))
                    y = float(np.clip(d.y + r * np.sin(a), 0.6 * s, h - 0.6 * s))
                    if min(np.hypot(x - e.x, y - e.y) - 0.5 * (s + e.side) for e in dice) > 0:
                        break  # against it, on no die
                gap = min((np.hypot(x - d.x, y - d.y) - 0.72 * (s + d.side) for d in dice),
                          default=1e9)
                if gap > 0 or (rng.random() < touching and gap > -0.2 * s):
                    break
            else:
                continue
            if self.photo and rng.random() < self.photo_share:
                tile, mask, face = self._photo_die(s)
                source = "photo"
            else:
                tile, mask, face = self._rendered_die(s)
                source = "render"
            angle = rng.uniform(0, 360)
            big = tile.shape[0]
            sd = s * shadow_len
            # Work in a window round the die (and its shadow), not the whole frame.
            reach = int(np.ceil(big * 0.75 + sd + 3 * s * 0.15)) + 2
            x0, y0 = max(0, int(x) - reach), max(0, int(y) - reach)
            x1, y1 = min(w, int(x) + reach + 1), min(h, int(y) + reach + 1)
            rw, rh = x1 - x0, y1 - y0
            m = cv2.getRotationMatrix2D((big / 2, big / 2), angle, 1.0)
            m[0, 2] += x - x0 - big / 2
            m[1, 2] += y - y0 - big / 2
            t = cv2.warpAffine(tile, m, (rw, rh), flags=cv2.INTER_LINEAR)
            a = cv2.warpAffine(mask, m, (rw, rh), flags=cv2.INTER_LINEAR)
            sm = cv2.warpAffine(a, np.float32([[1, 0, sd * np.cos(shadow_dir)],
                                               [0, 1, sd * np.sin(shadow_dir)]]), (rw, rh))
            sm = cv2.GaussianBlur(sm, (0, 0), max(0.5, s * rng.uniform(0.03, 0.15)))
            roi = img[y0:y1, x0:x1]
            roi *= (1 - rng.uniform(0.2, 0.55) * sm)[..., None]
            roi[:] = roi * (1 - a[..., None]) + t * a[..., None]
            if source == "render" and rng.random() < 0.3:  # a glare spot
                g = np.zeros((rh, rw), np.float32)
                cv2.ellipse(g, (int(x - x0 + rng.normal(0, 0.2) * s),
                                int(y - y0 + rng.normal(0, 0.2) * s)),
                            (max(1, int(s * 0.12)), max(1, int(s * 0.05))), rng.uniform(0, 180),
                            0, 360, 1.0, -1)
                roi += (cv2.GaussianBlur(g, (0, 0), max(0.5, s * 0.04)) * a
                        * rng.uniform(50, 150))[..., None]
            dice.append(SceneDie(float(x), float(y), float(s), face, source))
        return self._finish(img, bare, dice, side, family, empty)

    def _finish(self, img: np.ndarray, bare: np.ndarray, dice: list[SceneDie], side: float,
                family: str, empty: bool, tilt: bool = True) -> Scene:
        """Things on the table, a hand, the room's light, the camera's tilt (``tilt``: the
        frame is a print seen from straight above until now) and its faults."""
        rng = self.rng
        h, w = img.shape[:2]
        if rng.random() < self.clutter:
            self._clutter(img, dice, side)
        ignore: list[tuple[float, float, float, float]] = []
        if rng.random() < self.hands:
            hand = self._hand(img, side)
            keep = []
            for d in dice:
                covered = hand[int(np.clip(d.y, 0, h - 1)), int(np.clip(d.x, 0, w - 1))] > 0.3
                if covered:
                    ignore.append((d.x - d.side, d.y - d.side, d.x + d.side, d.y + d.side))
                else:
                    keep.append(d)
            dice = keep
        # The room's light falls on the table beyond the frame as on the frame.
        img, bare = np.split(self._room(np.concatenate([img, bare], axis=2), side), 2, axis=2)
        if tilt:
            img, dice, ignore, bare = self._tilt(img, dice, ignore, bare)
        before = None
        if empty:
            # Another frame of the same camera: the same settings, its own grain (a twin of
            # the generator, so the scene draws exactly what it draws without it).
            twin = np.random.Generator(np.random.PCG64())
            twin.bit_generator.state = self.rng.bit_generator.state
            grain = np.random.default_rng(int(twin.integers(2**63)))
            twin.bit_generator.state = self.rng.bit_generator.state
            before = self._camera(bare, side, twin, grain)
        img = self._camera(img, side)
        return Scene(img, dice, family, ignore, before)

    # -- dice as cubes, through a camera at a slant ------------------------------------
    def _render_solid(self, w: int, h: int, n_dice: int | None, family: str,
                      die_side: float | None, touching: float, empty: bool) -> Scene:
        """The table through a pinhole camera tilted up to ``SOLID_TILT`` degrees, and
        the dice as cubes whose sides show their own faces (``solid.draw_cube``)."""
        rng = self.rng
        focal = w / 2 / np.tan(np.deg2rad(rng.uniform(45.0, 65.0)) / 2)
        th, tw = int(1.5 * h), int(1.5 * w)  # beyond it the table is mirrored
        table = TABLES[family](th, tw, rng).astype(np.float32)
        camera = Camera((tw / 2, th / 2), focal * rng.uniform(0.9, 1.4),
                        np.deg2rad(rng.uniform(0.0, SOLID_TILT)), rng.uniform(0, 2 * np.pi),
                        focal, (w, h))
        side, n_dice = self._dice_to_lay(w, h, die_side, n_dice)
        eye = camera.position
        placed: list[tuple[float, float, float]] = []  # on the table: x, y, side
        for _ in range(n_dice):
            for _ in range(100):
                x, y = camera.on_table(rng.uniform(0.6 * side, w - 0.6 * side),
                                       rng.uniform(0.6 * side, h - 0.6 * side))
                s = side * rng.uniform(0.9, 1.1) * np.linalg.norm(eye - (x, y, 0.0)) / focal
                gap = min((np.hypot(x - a, y - b) - 0.72 * (s + c) for a, b, c in placed),
                          default=1e9)
                if gap > 0 or (rng.random() < touching and gap > -0.2 * s):
                    placed.append((x, y, s))
                    break
        # Shadows fall on the table; the bare table has none.
        shadow = np.zeros((th, tw), np.float32)
        toward, length = rng.uniform(0, 2 * np.pi), rng.uniform(0.05, 0.3)
        turns = rng.uniform(0, 90, len(placed))
        for (x, y, s), turn in zip(placed, turns, strict=True):
            away = s * length * np.array([np.cos(toward), np.sin(toward)])
            box = cv2.boxPoints(((x + away[0], y + away[1]), (s, s), float(turn)))
            cv2.fillPoly(shadow, [box.astype(np.int32)], 1.0, cv2.LINE_AA)
        if placed:
            soft = max(0.5, 0.1 * float(np.mean([p[2] for p in placed])))
            shadow = cv2.GaussianBlur(shadow, (0, 0), soft)
        plane = camera.plane()

        def seen(t: np.ndarray) -> np.ndarray:
            return cv2.warpPerspective(t, plane, (w, h), flags=cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_REFLECT)
        bare = seen(table)
        img = seen(table * (1 - rng.uniform(0.2, 0.55) * shadow)[..., None])
        rise = np.deg2rad(rng.uniform(30, 80))
        sun = rng.uniform(0, 2 * np.pi)
        light = np.array([np.cos(rise) * np.cos(sun), np.cos(rise) * np.sin(sun), np.sin(rise)])
        dice: list[SceneDie] = []
        # Far dice first: a near die hides what is behind it.
        for (x, y, s), turn in sorted(zip(placed, turns, strict=True),
                                      key=lambda p: -np.linalg.norm(eye - (*p[0][:2], 0.0))):
            top, label, source, paint = self._solid_die(side)
            box = draw_cube(img, camera, x, y, s, np.deg2rad(turn), top, paint, light)
            if box is not None:
                x0, y0, x1, y1 = box
                dice.append(SceneDie((x0 + x1) / 2, (y0 + y1) / 2,
                                     float(np.sqrt((x1 - x0) * (y1 - y0))) / 1.15, label, source))
        return replace(self._finish(img, bare, dice, side, family, empty, tilt=False),
                       solid=True)

    def _solid_die(self, side: float) -> tuple[int, str | None, str, Callable[[int], np.ndarray]]:
        """A die's top (1-6, where its sides go: ``solid.AROUND``), its label, where it comes
        from, and a painter of its faces: a real die from the photos on top with pips drawn
        on its sides in its colours, or a rendered die of every colour."""
        rng = self.rng
        t = max(24, int(np.ceil(1.5 * side)))
        if self.photo and rng.random() < self.photo_share:
            tile, _, face = self._photo_die(side)
            inner = int(np.ceil(side))
            o = (tile.shape[0] - inner) // 2
            photo_top = cv2.resize(tile[o:o + inner, o:o + inner], (t, t))
            body = np.median(photo_top.reshape(-1, 3), axis=0)
            light_body = body.mean() > 128
            ink = np.percentile(photo_top.reshape(-1, 3), 3 if light_body else 97, axis=0)
            top, label, source, marbled, symbols = int(face), face, "photo", False, None
        else:
            body, ink = self._die_colours()
            photo_top = None
            marbled = rng.random() < self.marbled
            top = int(rng.integers(1, 7))
            if self.dice_set is None and (self.d6_only or rng.random() < 0.7):
                label, symbols = str(top), None
            else:  # a die of another set: its symbols on all six faces
                others = title_sets()
                fs = FACE_SETS[self.dice_set or others[int(rng.integers(len(others)))]]
                symbols = (fs, [str(v) for v in rng.choice(list(fs.faces), 6)],
                           fs.styles[-1] if rng.random() < 0.7 else fs.styles[0])
                label = symbols[1][top - 1] if self.dice_set else None
            source = "render"
        pip, spread = rng.uniform(0.06, 0.12), rng.uniform(0.22, 0.3)
        texture = marble(t, body, rng) if marbled else np.full((t, t, 3), body, np.float32)
        yy, xx = np.mgrid[0:t, 0:t].astype(np.float32) / t
        rim = np.minimum(np.minimum(xx, 1 - xx), np.minimum(yy, 1 - yy))
        edge = (0.75 + 0.25 * np.clip(rim / 0.12, 0, 1))[..., None]  # rounded edges darken

        def paint(face: int) -> np.ndarray:
            if face == top and photo_top is not None:
                return photo_top.astype(np.float32)
            img = np.clip(texture, 0, 255).astype(np.uint8)
            ink_t = tuple(int(v) for v in ink)
            if symbols is None:
                draw_pips(img, face, ink_t, pip, spread)
            else:
                fs, names, style = symbols
                draw_face(img, fs.name, names[face - 1], ink_t, style)
            return img.astype(np.float32) * edge
        return top, label, source, paint

    def _room(self, img: np.ndarray, side: float) -> np.ndarray:
        """Cast shadows, the light's colour and level, light fall-off (on images stacked
        along the channels, three each, alike)."""
        rng = self.rng
        h, w = img.shape[:2]
        if rng.random() < 0.4:  # a cast shadow: a person, a lamp shade, a box
            m = np.zeros((h, w), np.float32)
            pts = (rng.uniform(-0.3, 1.3, (int(rng.integers(3, 7)), 2)) * (w, h)).astype(np.int32)
            cv2.fillPoly(m, [cv2.convexHull(pts)], 1.0)
            m = cv2.GaussianBlur(m, (0, 0), rng.uniform(2, 0.1 * min(h, w)))
            img *= (1 - rng.uniform(0.2, 0.6) * m)[..., None]
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        lx, ly = rng.uniform(-0.5, 1.5) * w, rng.uniform(-0.5, 1.5) * h
        d = np.sqrt((xx - lx) ** 2 + (yy - ly) ** 2) / np.hypot(h, w)
        img *= (1.0 - rng.uniform(0.0, 0.5) * d)[..., None]
        light = rng.random()
        if light < 0.25:  # warm lamp
            gain = np.array([rng.uniform(0.55, 0.8), rng.uniform(0.85, 1.0), 1.15], np.float32)
        elif light < 0.45:  # cold window or LED
            gain = np.array([1.15, rng.uniform(0.95, 1.05), rng.uniform(0.7, 0.9)], np.float32)
        else:
            gain = rng.uniform(0.9, 1.1, 3).astype(np.float32)
        img *= np.tile(gain, img.shape[2] // 3)
        dim = (0.35, 1.3) if self.harsh else (0.6, 1.2)
        level = rng.uniform(*dim) if rng.random() < 0.3 else rng.uniform(0.8, 1.15)
        img = 255.0 * (np.clip(img * level, 0, 255) / 255.0) ** rng.uniform(0.8, 1.5)
        return img

    def _tilt(self, img: np.ndarray, dice: list[SceneDie], ignore, bare: np.ndarray):
        """The camera tilted by up to ``tilt`` degrees: the far side shrinks, and the border
        it opens shows ``bare`` (the table without dice) mirrored at the frame's edges. Returns
        the frame, its dice and ignore boxes, and ``bare`` as the tilted camera sees it."""
        rng = self.rng
        if self.tilt <= 0 or rng.random() < 0.5:
            return img, dice, ignore, bare
        h, w = img.shape[:2]
        t = np.deg2rad(rng.uniform(0, self.tilt))
        # Far edge shortened as a pinhole camera at a moderate distance sees it.
        k = float(np.clip(1.0 - 0.9 * np.sin(t), 0.3, 1.0))
        squash = float(np.cos(t) ** 0.5)
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        inset = w * (1 - k) / 2
        dst = np.float32([[inset, h * (1 - squash)], [w - inset, h * (1 - squash)], [w, h],
                          [0, h]])
        turn = int(rng.integers(4))
        centre = np.float32([w / 2, h / 2])
        rot = np.array([[np.cos(turn * np.pi / 2), -np.sin(turn * np.pi / 2)],
                        [np.sin(turn * np.pi / 2), np.cos(turn * np.pi / 2)]], np.float32)
        # Tilt about any of the four sides: turn the corner pairs of ``dst``.
        dst = ((dst - centre) @ rot.T + centre) if turn % 2 == 0 else dst
        hmat = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
        out = cv2.warpPerspective(img, hmat, (w, h), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REFLECT)
        # Mirrored, the frame would show a die near an edge again in the border: a real-looking
        # die nobody rolled. Beyond the frame, the bare table is shown instead.
        beyond = cv2.warpPerspective(bare, hmat, (w, h), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REFLECT)
        inside = cv2.warpPerspective(np.ones((h, w), np.float32), hmat, (w, h),
                                     flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        out = out * inside[..., None] + beyond * (1 - inside[..., None])
        moved = []
        box = []
        for d in dice:
            pts = np.float32([[[d.x, d.y]], [[d.x - d.side / 2, d.y]], [[d.x + d.side / 2, d.y]],
                              [[d.x, d.y - d.side / 2]], [[d.x, d.y + d.side / 2]]])
            p = cv2.perspectiveTransform(pts, hmat)[:, 0]
            ex, ey = p[2] - p[1], p[4] - p[3]
            s = float(np.sqrt(abs(ex[0] * ey[1] - ex[1] * ey[0])))
            if 0 <= p[0][0] < w and 0 <= p[0][1] < h:
                moved.append(SceneDie(float(p[0][0]), float(p[0][1]), s, d.face, d.source))
            else:  # a piece of a die at the edge: neither a die to read nor a phantom
                box.append((p[0][0] - s, p[0][1] - s, p[0][0] + s, p[0][1] + s))
        for x0, y0, x1, y1 in ignore:
            q = cv2.perspectiveTransform(np.float32([[[x0, y0]], [[x1, y1]]]), hmat)[:, 0]
            box.append((float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()),
                        float(q[:, 1].max())))
        return out, moved, box, beyond

    def _camera(self, img: np.ndarray, side: float, rng: np.random.Generator | None = None,
                grain: np.random.Generator | None = None) -> np.ndarray:
        """Motion blur, focus blur, noise and JPEG (settings drawn from ``rng``, the noise
        itself from ``grain`` when given)."""
        rng = self.rng if rng is None else rng
        share, length, noise, quality = (0.25, 0.25, 7, 35) if self.harsh else (0.1, 0.1, 4, 60)
        if rng.random() < share:  # motion blur, up to ``length`` of a die
            n = int(max(3, rng.uniform(0.05, length) * side)) | 1
            k = np.zeros((n, n), np.float32)
            a = rng.uniform(0, np.pi)
            c = n // 2
            cv2.line(k, (int(c - c * np.cos(a)), int(c - c * np.sin(a))),
                     (int(c + c * np.cos(a)), int(c + c * np.sin(a))), 1.0, 1)
            img = cv2.filter2D(img, -1, k / max(k.sum(), 1e-6))
        elif rng.random() < 0.3:
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.4))
        speckle = rng.normal(0, rng.uniform(0, noise), img.shape)
        if grain is not None:
            speckle = grain.permutation(speckle.ravel()).reshape(img.shape)
        img = img + speckle.astype(np.float32)
        out = np.clip(img, 0, 255).astype(np.uint8)
        if rng.random() < 0.3:
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY,
                                                 int(rng.integers(quality, 90))])
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return out


def scene_item(scene: Scene, name: str = "scene") -> LabeledImage:
    """A scene's dice as a labelled image (for scoring with ``bench.Score``)."""
    from pathlib import Path

    from .labeled import Box

    boxes = tuple(Box(d.x, d.y, d.side * 1.15, d.side * 1.15, d.face) for d in scene.dice)
    ignore = tuple(Box((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0)
                   for x0, y0, x1, y1 in scene.ignore)
    return LabeledImage(Path(name), boxes, ignore)
