"""Die crops with labels, for teaching the face classifier and for profiles.

Everything here is deterministic given a seed, so a model can be retrained bit for bit
from the same photos and renders.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

from .centres import locate_dice
from .crops import die_crop
from .labeled import Box, LabeledImage, match_blobs  # noqa: F401 - match_blobs kept here too

CROP = 32  # classifier input side in pixels
MARGIN = 1.15  # crop side as a multiple of the die side: the whole top face plus a rim
# A die seen at a slant is taught turned at most this much: the reader reads it with the
# frame's up within 45 degrees, and up is where its top is.
UPRIGHT_TURN = 15.0
NONE = "none"  # class of crops that are not a die (tray marks, holes, wall pieces)


def jittered_crop(image: np.ndarray, cx: float, cy: float, side: float, angle: float,
                  rng: np.random.Generator, jitter: bool = True, colour: bool = False,
                  upright: bool = False) -> np.ndarray:
    """A die crop as the reader cuts it; with ``jitter``, a little off-centre, resized, at a
    random turn and under other light (``colour``: other dice colours too): what the same
    die looks like on another roll. ``upright``: a die seen at a slant, whose top shows
    above its sides, keeps the frame's up (turned by at most ``UPRIGHT_TURN`` degrees)."""
    if jitter:
        cx += rng.normal(0, 0.05) * side
        cy += rng.normal(0, 0.05) * side
        side *= rng.uniform(0.9, 1.12)
        turn = rng.uniform(0, 360)
        angle += (turn - 180) * UPRIGHT_TURN / 180 if upright else turn
    crop = die_crop(image, cx, cy, side * MARGIN, angle, CROP)
    if jitter:
        crop = photometric(crop, rng, colour)
    return crop


STREAKS = 0.3  # share of jittered crops that get a glare streak
LOW_CONTRAST = 0.25  # share of jittered crops under flat or dim light (contrast cut)


def tone_curve(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each colour channel through its own random rising curve, and half the time the whole
    image as a negative (a few channels alone otherwise): white dice with black pips become
    black ones with white pips, gold or marbled; a light table a dark one. Hue turns alone
    never change which of die, pips and table is lightest. The dice finder learns from
    photos seen so (``calibration/train_dice_detector.py``)."""
    knots = np.linspace(0, 255, 5)
    negative = rng.random() < 0.5
    lut = np.empty((1, 256, 3), np.uint8)
    for c in range(3):
        ys = np.sort(np.concatenate([rng.uniform(0, 60, 1), rng.uniform(0, 255, 3),
                                     rng.uniform(195, 255, 1)]))
        curve = np.interp(np.arange(256), knots, ys)
        if negative != (rng.random() < 0.2):
            curve = 255.0 - curve
        lut[0, :, c] = np.clip(curve, 0, 255).astype(np.uint8)
    return cv2.LUT(np.ascontiguousarray(image), lut)


def photometric(crop: np.ndarray, rng: np.random.Generator, colour: bool = False
                ) -> np.ndarray:
    """Random light, colour cast, blur and noise: what another table and camera would do.
    ``colour`` also turns the hue, changes the saturation or drops the colour (other dice)."""
    if colour and rng.random() < 0.6:
        hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).astype(np.int16)
        hsv[..., 0] = (hsv[..., 0] + int(rng.integers(0, 180))) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.4, 1.5), 0, 255)
        crop = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    elif colour and rng.random() < 0.1:
        crop = cv2.cvtColor(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    f = crop.astype(np.float32)
    if rng.random() < STREAKS:
        f = glare_streak(f, rng)
    if rng.random() < LOW_CONTRAST:
        # A dim room or flat light: marks and body closer in tone, which a classifier that
        # never saw it takes for "not a die".
        mean = f.mean(axis=(0, 1), keepdims=True)
        f = mean + (f - mean) * rng.uniform(0.3, 0.85)
    f = f * rng.uniform(0.7, 1.3) + rng.uniform(-25, 25)
    f *= rng.uniform(0.85, 1.15, 3).astype(np.float32)
    if rng.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 1.0))
    f += rng.normal(0, rng.uniform(0, 6), f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


def glare_streak(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A thin bright line of reflected lamp light across the die: along an edge (bent round
    a corner on rounded or translucent dice) or straight over the face. Players never see
    it as a pip, so the classifier must not either; real photos show many."""
    s = crop.shape[0]
    up = 4
    big = s * up
    die = big / MARGIN / 2  # half the die side, in the supersampled crop
    c = big / 2
    mask = np.zeros((big, big), np.float32)
    kind = rng.random()
    if kind < 0.5:  # along an edge, perhaps round the next corner
        inset = die * rng.uniform(0.65, 0.95)
        t0, t1 = sorted(rng.uniform(-0.9, 0.9, 2))
        pts = [(t0 * inset, -inset), (t1 * inset, -inset)]
        if rng.random() < 0.4:
            pts.append((inset, -inset * rng.uniform(-0.2, 0.9)))
            pts[1] = (inset, -inset)
    elif kind < 0.85:  # a chord over the face
        a = rng.uniform(0, np.pi)
        off = rng.uniform(-0.6, 0.6) * die
        half = rng.uniform(0.25, 0.8) * die
        nx, ny = np.cos(a + np.pi / 2), np.sin(a + np.pi / 2)
        pts = [(off * nx - half * np.cos(a), off * ny - half * np.sin(a)),
               (off * nx + half * np.cos(a), off * ny + half * np.sin(a))]
    else:  # a short curved gleam
        r = die * rng.uniform(0.3, 0.8)
        a0 = rng.uniform(0, 2 * np.pi)
        ts = np.linspace(a0, a0 + rng.uniform(0.5, 1.6), 6)
        pts = [(r * np.cos(t), r * np.sin(t)) for t in ts]
    rot = rng.uniform(0, 2 * np.pi)
    cr, sr = np.cos(rot), np.sin(rot)
    poly = np.array([[c + x * cr - y * sr, c + x * sr + y * cr] for x, y in pts], np.float32)
    thick = max(1, int(round(rng.uniform(0.5, 1.6) * up)))
    cv2.polylines(mask, [np.round(poly * 16).astype(np.int32)], False, 1.0, thick,
                  cv2.LINE_AA, shift=4)
    mask = cv2.resize(mask, (s, s), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.5:
        mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.3, 0.8))
    a = np.clip(mask * rng.uniform(0.5, 1.1), 0, 1)[..., None]
    white = np.float32(rng.uniform(215, 255))
    return crop * (1 - a) + white * a


def labelled_crops(items: Iterable[LabeledImage], faces: list[str], copies: int = 1,
                   seed: int = 0, negatives: bool = True, colour: bool = False,
                   fit_jitter: bool = False, table_pieces: int = 0
                   ) -> Iterator[tuple[np.ndarray, str]]:
    """Yield (crop, face) for every labelled die; ``copies`` > 1 adds jittered copies.

    The die's angle and size come from the reader's finder where it found the die (as at
    reading time); otherwise from the label box. Detections matching no label and lying
    outside ignore regions are yielded as ``"none"`` when ``negatives``. ``colour`` turns the
    hue of jittered copies (dice of other colours); ``fit_jitter`` makes every other copy a
    poorer fit (``_fit_jittered``); ``table_pieces`` adds that many ``"none"`` crops of the
    photo's empty table per photo, most with specks on them (``speckled_table``).
    """
    rng = np.random.default_rng(seed)
    for item in items:
        image = cv2.imread(str(item.image))
        if image is None:
            continue
        blobs = locate_dice(image)
        matched, extra = match_blobs(blobs, item.boxes)
        by_box = {j: blobs[i] for i, j in matched.items()}
        for j, box in enumerate(item.boxes):
            if box.face not in faces:
                continue
            b = by_box.get(j)
            if b is not None:
                cx, cy, side, ang = b.cx, b.cy, min(b.w, b.h), b.angle
            else:
                cx, cy, side, ang = box.cx, box.cy, min(box.w, box.h), 0.0
            for k in range(copies):
                if fit_jitter and k % 2 == 1:
                    yield _fit_jittered(image, cx, cy, side, ang, rng, colour), box.face
                else:
                    yield jittered_crop(image, cx, cy, side, ang, rng, k > 0, colour), box.face
        if negatives:
            for i in extra:
                b = blobs[i]
                if any(g.contains(b.cx, b.cy, 0.1) for g in item.ignore):
                    continue
                for k in range(max(1, copies // 2)):
                    yield jittered_crop(image, b.cx, b.cy, min(b.w, b.h), b.angle, rng,
                                    k > 0, colour), NONE
        if table_pieces:
            dice = [(b.cx, b.cy, max(b.w, b.h)) for b in item.boxes]
            other = [(b.cx, b.cy, max(b.w, b.h)) for b in item.ignore]
            for crop in speckled_table(image, dice, table_pieces, rng, colour, other):
                yield crop, NONE


SPECKLED = 0.7  # share of empty-table pieces that get specks of dirt


def speckled_table(image: np.ndarray, dice: list[tuple[float, float, float]], n: int,
                   rng: np.random.Generator, colour: bool = False,
                   avoid: list[tuple[float, float, float]] = ()) -> Iterator[np.ndarray]:
    """Up to ``n`` die-sized crops of empty table (no die of ``dice``, given as centre and
    side, nor anything in ``avoid`` reaches into them), most of them with a few specks of
    dirt, crumbs or holes drawn at random places. Without them a classifier that only saw a
    clean table reads two specks on another table as a die showing 2: pips count only on a
    die's body."""
    if not dice:
        return
    h, w = image.shape[:2]
    side = float(np.median([s for _, _, s in dice]))
    centres = np.array([(x, y) for x, y, _ in [*dice, *avoid]], np.float32)
    reach = np.array([s for _, _, s in [*dice, *avoid]], np.float32)
    made = 0
    for _ in range(n * 8):
        if made >= n:
            break
        s = side * rng.uniform(0.8, 1.25)
        if 2 * s >= min(w, h):  # dice as large as the frame leave no table to cut
            break
        cx, cy = rng.uniform(s, w - s), rng.uniform(s, h - s)
        if np.any(np.hypot(*(centres - (cx, cy)).T) < 0.75 * (reach + s * MARGIN)):
            continue
        crop = die_crop(image, cx, cy, s * MARGIN, rng.uniform(0, 360), CROP)
        if rng.random() < SPECKLED:
            crop = _specks(crop, rng)
        made += 1
        yield photometric(crop, rng, colour)


def _specks(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One to six small marks (dark dirt mostly, sometimes coloured or pale), each a blot of
    one to three dots, anywhere on the crop."""
    up = 4
    s = crop.shape[0]
    die = s / MARGIN
    big = cv2.resize(crop, (s * up, s * up), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    for _ in range(int(rng.integers(1, 7))):
        kind = rng.random()
        ink = (np.full(3, rng.uniform(0, 90)) if kind < 0.7 else
               rng.uniform(0, 255, 3) if kind < 0.9 else np.full(3, rng.uniform(200, 255)))
        x, y = rng.uniform(0.05, 0.95, 2) * s * up
        r = die * rng.uniform(0.03, 0.11) * up
        mask = np.zeros(big.shape[:2], np.float32)
        for _ in range(int(rng.integers(1, 4))):
            dx, dy = rng.normal(0, r * 0.6, 2)
            rr = max(1.0, r * rng.uniform(0.5, 1.0))
            cv2.circle(mask, (int(x + dx), int(y + dy)), int(rr), 1.0, -1, cv2.LINE_AA)
        a = mask[..., None] * rng.uniform(0.6, 1.0)
        big = big * (1 - a) + ink.astype(np.float32) * a
    return np.clip(cv2.resize(big, (s, s), interpolation=cv2.INTER_AREA), 0, 255
                   ).astype(np.uint8)


def _fit_jittered(image: np.ndarray, cx: float, cy: float, side: float, angle: float,
                  rng: np.random.Generator, colour: bool = False, upright: bool = False
                  ) -> np.ndarray:
    """A crop as a poor detector fit would cut it: off centre, too large or too small, a
    little turned (any quarter turn), then the light, blur and noise of ``photometric``.
    One in three is a bad fit: a die read upright at a guessed size (any angle, half to
    twice its side). ``upright`` as for ``jittered_crop``: no quarter turns, and a bad fit
    turned at most ``UPRIGHT_TURN`` degrees."""
    if rng.random() < 0.3:  # a bad fit
        cx += rng.uniform(-0.25, 0.25) * side
        cy += rng.uniform(-0.25, 0.25) * side
        side *= np.exp(rng.uniform(np.log(0.55), np.log(1.9)))
        angle += rng.uniform(-45, 45) * (UPRIGHT_TURN / 45 if upright else 1)
    else:
        cx += rng.normal(0, 0.06) * side
        cy += rng.normal(0, 0.06) * side
        side *= np.exp(rng.normal(0, 0.08))
        angle += rng.normal(0, 5)
    angle += 90 * int(rng.integers(4)) * (not upright)
    return photometric(die_crop(image, cx, cy, side * MARGIN, angle, CROP), rng, colour)


def synthetic_crops(set_name: str, n_frames: int, seed: int = 0, copies: int = 1,
                    negatives: bool = True, width: int = 640, height: int = 480,
                    glare: float | None = None, fit_jitter: bool = False,
                    other_dice: float = 0.0, sides: float = 0.0, table_pieces: int = 0
                    ) -> Iterator[tuple[np.ndarray, str]]:
    """Yield (crop, face) from synthetic trays of a face set, cut where the reader's finder
    finds each die (as at reading time); detections of no die are yielded as ``"none"``.

    ``width`` x ``height`` is the render size; ``glare`` the share of dice with a highlight
    (the renderer's default if None); ``fit_jitter`` makes the extra copies look like poor
    detector fits (``_fit_jittered``) instead of the photo jitter (any angle);
    ``other_dice`` the share of d6 dice of any colour, pip size and plastic; ``sides`` how
    far the dice's sides may show (``SyntheticTray``); ``table_pieces`` the ``"none"`` crops
    of empty, mostly speckled table per frame (``speckled_table``)."""
    from .synth import SyntheticTray

    rng = np.random.default_rng(seed + 1)
    tray = SyntheticTray(set_name, width, height, seed=seed, other_dice=other_dice,
                         sides=sides)
    for _ in range(n_frames):
        image, dice = tray.render() if glare is None else tray.render(glare=glare)
        blobs = locate_dice(image)
        boxes = [Box(d.x, d.y, d.side * 1.2, d.side * 1.2, d.face) for d in dice]
        matched, extra = match_blobs(blobs, boxes)
        by_box = {j: blobs[i] for i, j in matched.items()}
        for j, d in enumerate(dice):
            b = by_box.get(j)
            cx, cy, side, ang = (b.cx, b.cy, min(b.w, b.h), b.angle) if b else (
                d.x, d.y, d.side, -d.angle)
            for k in range(copies):
                if fit_jitter and k > 0:
                    yield _fit_jittered(image, cx, cy, side, ang, rng), d.face
                else:
                    yield jittered_crop(image, cx, cy, side, ang, rng, jitter=k > 0), d.face
        if negatives:
            for i in extra:
                b = blobs[i]
                yield jittered_crop(image, b.cx, b.cy, min(b.w, b.h), b.angle, rng, False), NONE
        if table_pieces:
            # the side of a die's top as seen, sides included, keeps pieces clear of it
            reach = [(d.x, d.y, d.side * (1.2 + 2 * sides)) for d in dice]
            for crop in speckled_table(image, reach, table_pieces, rng):
                yield crop, NONE


def scene_crops(n_frames: int, seed: int = 0, photo: Sequence = (),
                families: Sequence[str] | None = None, copies: int = 2, negatives: int = 6,
                table_pieces: int = 2, harsh: float = 2 / 3, width: int = 640,
                height: int = 480, other_sets: bool = False, solid: float = 0.0,
                dice_set: str | None = None, marbled: float | None = None
                ) -> Iterator[tuple[np.ndarray, str]]:
    """Yield (crop, face) from domain-randomised d6 tables (``scenes.SceneMaker`` of the
    ``families`` given, by default those the reader learns: never the held ones), cut where
    the reader's finder finds each die, as at reading time (where it misses one, from the
    truth).

    ``photo`` is a bank of real dice (``scenes.photo_dice``) laid on the tables beside
    rendered dice of every colour; ``copies`` crops per die (the first as the finder cut
    it, the others a little off or a poor fit); ``negatives`` the finder's places of no
    die per frame taught as ``"none"`` (the surest first: grain, print and art it takes for
    a die); ``table_pieces`` pieces of empty table per frame, most with specks. A share
    ``harsh`` of the frames come from the generator's whole range of light and camera, the
    rest look like ordinary photos of a game night. ``other_sets``: some rendered dice show
    the titles' numerals and symbols instead of pips, taught as ``"none"`` (not a d6 face:
    a pip reader must not take a printed number for a die). ``solid``: the share of frames
    seen through a camera at a slant, the dice as cubes whose sides show; their crops keep
    the frame's up (``upright``), where a die's top shows above its sides. ``dice_set``:
    every die one of that title's set, labelled with its faces (no ``photo`` dice: those
    are d6 dice). ``marbled``: the share of rendered dice with a marbled body (by default
    the scenes' own, ``scenes.MARBLED``). Seeds stay under ``scenes.HELD_SEEDS``, which
    scoring keeps for itself."""
    from .scenes import HELD_SEEDS, LEARNED_FAMILIES, MARBLED, SceneMaker

    if seed + 200 >= HELD_SEEDS:
        raise ValueError(f"scene seeds from {HELD_SEEDS} up are kept for scoring")
    families = tuple(families or LEARNED_FAMILIES)
    makers = [SceneMaker(seed=seed + 100 * k, families=families, photo=photo,
                         photo_share=0.5, d6_only=not other_sets, harsh=k == 0,
                         solid=solid, dice_set=dice_set,
                         marbled=MARBLED if marbled is None else marbled)
              for k in (0, 1)]
    rng = np.random.default_rng(seed + 7)
    for _ in range(n_frames):
        maker = makers[int(rng.random() >= harsh)]
        scene = maker.render(width, height, n_dice=int(maker.rng.integers(0, 10)))
        image = scene.image
        blobs = locate_dice(image)
        boxes = [Box(d.x, d.y, d.side * 1.15, d.side * 1.15, d.face) for d in scene.dice]
        ignore = [Box((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0)
                  for x0, y0, x1, y1 in scene.ignore]
        matched, extra = match_blobs(blobs, boxes)
        by_box = {k: blobs[i] for i, k in matched.items()}
        for k, d in enumerate(scene.dice):
            face = NONE if d.face is None else d.face  # None: a die of another set
            b = by_box.get(k)
            cx, cy, side, ang = (b.cx, b.cy, min(b.w, b.h), b.angle) if b else (
                d.x, d.y, d.side, float(rng.uniform(0, 360)) * (not scene.solid))
            for c in range(copies):
                if c == 0:
                    yield jittered_crop(image, cx, cy, side, ang, rng, jitter=False), face
                elif c % 2 == 1:
                    yield _fit_jittered(image, cx, cy, side, ang, rng,
                                        upright=scene.solid), face
                else:
                    yield jittered_crop(image, cx, cy, side, ang, rng, jitter=True,
                                        upright=scene.solid), face
        # A second centre on a die (a large die found twice) is not "not a die".
        wrong = [blobs[i] for i in extra
                 if not any(g.contains(blobs[i].cx, blobs[i].cy, 0.1) for g in ignore)
                 and not any(g.contains(blobs[i].cx, blobs[i].cy) for g in boxes)]
        wrong.sort(key=lambda b: -b.heat)
        for b in wrong[:negatives]:
            yield jittered_crop(image, b.cx, b.cy, min(b.w, b.h), b.angle, rng,
                                jitter=False), NONE
        if table_pieces and scene.dice:
            reach = [(d.x, d.y, d.side * 1.3) for d in scene.dice]
            avoid = [((x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0))
                     for x0, y0, x1, y1 in scene.ignore]
            for crop in speckled_table(image, reach, table_pieces, rng, avoid=avoid):
                yield crop, NONE


def save_npz(path: Path, pairs: Iterable[tuple[np.ndarray, str]], classes: list[str]) -> int:
    xs, ys = [], []
    for crop, face in pairs:
        xs.append(crop)
        ys.append(classes.index(face))
    np.savez_compressed(path, x=np.array(xs, np.uint8), y=np.array(ys, np.int64),
                        classes=np.array(classes))
    return len(xs)
