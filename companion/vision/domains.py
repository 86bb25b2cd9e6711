"""Domains the reader is scored on, for the leave-one-domain-out protocol.

A domain is a set of labelled frames that share a table, a light and a kind of die:

* ``shoot-1``, ``shoot-2``: the two photo shoots of the dev photos (split by the date in
  their file names);
* ``photo-dice-on-FAMILY``: real dice cut from the dev photos, laid on a table of that
  family (``scenes.FAMILIES``): the dice are real, the table is one the photos never show
  (frames as ordinary photos of a game night: ``SceneMaker(harsh=False)``);
* ``render-FAMILY``: rendered dice of any colour, size and plastic on that family;
* ``solid-FAMILY``: rendered dice on that family seen through a camera held at a slant
  (up to 45 degrees), the dice as cubes whose sides show their own pips, as a phone's photo
  shows them (``scenes.SceneMaker(solid=...)``; the other domains' dice are flat prints);
* ``stress-FAMILY``: both kinds of dice on that family under the teaching generator's whole
  range (dice of 14-120 pixels, dim light, motion blur, heavy JPEG, a camera tilted 45
  degrees): harder than a game night should be;
* ``altered-shoot-N``: the photos of a shoot as another room and camera would take them
  (warm or dim light, a tilted camera, heavy JPEG, noise);
* ``turned-shoot-N``: the photos of a shoot turned by any angle, the frame grown to hold
  them: the photos' dice lie square to the picture, dice on a table land at any angle;
* ``bare-FAMILY``: that family's table with no die on it: whatever is read is a phantom;
* ``close-shoot-N``: each photo of a shoot cut round one of its dice, which then spans a
  quarter to 0.6 of the frame, and enlarged (a phone held close; softer than a close photo
  would be, the photos being 640 pixels).

Scene domains are drawn from seeds at and above ``scenes.HELD_SEEDS``, which no training
uses. Whether a domain is truly unseen depends on what the networks learned from: the
protocol (``calibration/generalisation.py``) trains with a domain left out and scores on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

from .labeled import Box, LabeledImage, load_labeled_dir
from .scenes import (
    FAMILIES,
    HELD_SEEDS,
    PhotoDie,
    SceneMaker,
    photo_dice,
    scene_item,
)

# (image, labels), or with the bare table before the roll: (image, labels, empty table)
Frame = tuple[np.ndarray, LabeledImage] | tuple[np.ndarray, LabeledImage, np.ndarray]


def shoots(items: Sequence[LabeledImage]) -> dict[str, list[LabeledImage]]:
    """Photos grouped by shoot: the date in ``IMG_YYYYMMDD_*`` names, in date order."""
    days = sorted({_day(it) for it in items})
    return {f"shoot-{k + 1}": [it for it in items if _day(it) == d] for k, d in enumerate(days)}


def _day(item: LabeledImage) -> str:
    parts = item.image.name.split("_")
    return parts[1] if len(parts) >= 3 else ""


def photo_frames(items: Sequence[LabeledImage]) -> Iterator[Frame]:
    for item in items:
        image = cv2.imread(str(item.image))
        if image is not None:
            yield image, item


def scene_frames(family: str, frames: int, seed: int, photo: Sequence[PhotoDie] = (),
                 width: int = 640, height: int = 480, harsh: bool = False,
                 photo_share: float = 1.0, empty: bool = False, solid: float = 0.0,
                 dice_set: str | None = None, bare: bool = False) -> Iterator[Frame]:
    """Held-apart scenes of one table family; with ``photo`` real dice (``photo_share`` of
    them), otherwise rendered ones; ``harsh``: the teaching generator's whole range;
    ``empty``: each frame comes with the bare table before the roll, as a third item (the
    frames are the same); ``solid``: the share of frames seen through a camera at a slant,
    the dice as cubes; ``dice_set``: the dice are a title's (``SceneMaker``); ``bare``: no
    die at all, the table alone (what is read there is a phantom)."""
    maker = SceneMaker(seed=HELD_SEEDS + seed, families=(family,), photo=photo,
                       photo_share=photo_share if photo else 0.0, d6_only=True, harsh=harsh,
                       solid=solid, dice_set=dice_set)
    for k in range(frames):
        n_dice = int(maker.rng.integers(1, 9))
        scene = maker.render(width, height, n_dice=0 if bare else n_dice, empty=empty)
        item = scene_item(scene, f"{family}-{seed}-{k:03d}")
        yield (scene.image, item, scene.empty) if empty else (scene.image, item)


def alter(image: np.ndarray, item: LabeledImage, rng: np.random.Generator) -> Frame:
    """A photo as another room and camera would take it: warm, cold or dim light, a
    tilted camera (labels moved with it), noise and JPEG."""
    h, w = image.shape[:2]
    f = image.astype(np.float32)
    kind = rng.random()
    if kind < 0.33:
        f *= np.array([0.65, 0.9, 1.15], np.float32)
    elif kind < 0.66:
        f = 255.0 * (f / 255.0) ** 1.6 * 0.6
    else:
        f *= np.array([1.15, 1.0, 0.8], np.float32)
    # tilt: the far edge shortened by up to a third
    inset = w * rng.uniform(0.05, 0.17)
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[inset, h * 0.08], [w - inset, h * 0.08], [w, h], [0, h]])
    if rng.random() < 0.5:
        dst = np.float32([w, h]) - dst[[2, 3, 0, 1]]
    m = cv2.getPerspectiveTransform(src, dst)
    f = cv2.warpPerspective(f, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    f += rng.normal(0, 4, f.shape).astype(np.float32)
    out = np.clip(f, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 80))])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)

    def move(b: Box) -> Box:
        pts = np.float32([[[b.cx, b.cy]], [[b.cx - b.w / 2, b.cy - b.h / 2]],
                          [[b.cx + b.w / 2, b.cy + b.h / 2]]])
        p = cv2.perspectiveTransform(pts, m)[:, 0]
        return Box(float(p[0][0]), float(p[0][1]), float(abs(p[2][0] - p[1][0])),
                   float(abs(p[2][1] - p[1][1])), b.face)

    boxes = [move(b) for b in item.boxes]
    # The border is filled with the photo's mirror image: a die near an edge shows there
    # again, neither a labelled die nor a phantom.
    copies = [Box(x, y, 2 * b.w, 2 * b.h) for a, b in zip(item.boxes, boxes, strict=True)
              for x, y in mirror_copies(a.cx, a.cy, m, w, h, margin=b.w)]
    return out, LabeledImage(item.image, tuple(boxes),
                             tuple(move(b) for b in item.ignore) + tuple(copies))


def turn(image: np.ndarray, item: LabeledImage, angle: float) -> Frame:
    """A photo turned by ``angle`` degrees (the domain draws 0-90: a die looks the same a
    quarter turn on), the frame grown to hold all of it, the corners filled with the colour
    of the photo's edge (a plain table beyond it: no copy of a die, no streaks)."""
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2.0, h / 2.0), angle, 1.0)
    c, s = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(round(w * c + h * s)), int(round(w * s + h * c))
    m[0, 2] += nw / 2.0 - w / 2.0
    m[1, 2] += nh / 2.0 - h / 2.0
    edge = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    fill = tuple(float(v) for v in np.median(edge, axis=0))
    out = cv2.warpAffine(image, m, (nw, nh), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=fill)

    def move(b: Box) -> Box:
        x, y = m @ np.array([b.cx, b.cy, 1.0])
        return Box(float(x), float(y), b.w, b.h, b.face)  # the die's own size

    return out, LabeledImage(item.image, tuple(move(b) for b in item.boxes),
                             tuple(move(b) for b in item.ignore))


def close(image: np.ndarray, item: LabeledImage, share: float, pick: int) -> Frame:
    """A phone held close: the photo cut round its die ``pick`` so that the die spans
    ``share`` of the cut (capped by the photo's size), enlarged back to the photo's short
    side. A die whose middle is in the cut and most of it (0.6 of its box) stays labelled,
    as a player counting the dice in the photo would count it; one the edge cuts more is
    ignored."""
    h, w = image.shape[:2]
    die = item.boxes[pick % len(item.boxes)]
    side = int(min(h, w, max(die.w, die.h) / share))
    x0 = int(np.clip(round(die.cx - side / 2), 0, w - side))
    y0 = int(np.clip(round(die.cy - side / 2), 0, h - side))
    size = min(h, w)
    f = size / side
    out = cv2.resize(image[y0:y0 + side, x0:x0 + side], (size, size),
                     interpolation=cv2.INTER_CUBIC)

    def move(b: Box) -> Box:
        return Box((b.cx - x0) * f, (b.cy - y0) * f, b.w * f, b.h * f, b.face)

    def within(b: Box) -> bool:
        seen_w = min(b.cx + b.w / 2, size) - max(b.cx - b.w / 2, 0)
        seen_h = min(b.cy + b.h / 2, size) - max(b.cy - b.h / 2, 0)
        return 0 <= b.cx < size and 0 <= b.cy < size and seen_w * seen_h >= 0.6 * b.w * b.h

    def touches(b: Box) -> bool:
        return -b.w / 2 < b.cx < size + b.w / 2 and -b.h / 2 < b.cy < size + b.h / 2

    moved = [move(b) for b in item.boxes]
    return out, LabeledImage(item.image, tuple(b for b in moved if within(b)),
                             tuple(b for b in moved if touches(b) and not within(b))
                             + tuple(move(b) for b in item.ignore))


def mirror_copies(x: float, y: float, hmat: np.ndarray, w: int, h: int, margin: float = 0.0
                  ) -> list[tuple[float, float]]:
    """Where the point ``(x, y)`` of a ``w`` x ``h`` frame shows again once the frame is
    warped by ``hmat`` with ``cv2.BORDER_REFLECT`` (within ``margin`` of the frame: a die
    there shows in part): the warp fills what lies outside the frame with the frame's
    mirror image, so a die near an edge is seen twice (three or four times near a corner)."""
    out = []
    for vx in (x, -1.0 - x, 2.0 * w - 1.0 - x):
        for vy in (y, -1.0 - y, 2.0 * h - 1.0 - y):
            if vx == x and vy == y:
                continue
            px, py, pw = hmat @ np.array([vx, vy, 1.0])
            if pw <= 1e-9:
                continue
            px, py = px / pw, py / pw
            if -margin <= px < w + margin and -margin <= py < h + margin:
                out.append((float(px), float(py)))
    return out


def domains(dev: str | Path | None, frames: int = 30, seed: int = 0,
            families: Sequence[str] = FAMILIES, empty: bool = False,
            dice_set: str | None = None) -> dict[str, Callable[[], Iterator[Frame]]]:
    """Every domain by name, each a function giving its frames (made when asked); with
    ``empty`` the table domains' frames come with the bare table before the roll.
    ``dice_set`` (a title's set): its dice on each family (``render-FAMILY``, other seeds
    than the d6 ones) and the bare tables; the photos' domains are d6 dice, so none."""
    out: dict[str, Callable[[], Iterator[Frame]]] = {}
    if dice_set is not None:
        for k, family in enumerate(families):
            out[f"render-{family}"] = (lambda family=family, k=k: scene_frames(
                family, frames, seed * 100 + 40 + k, empty=empty, dice_set=dice_set))
            out[f"bare-{family}"] = (lambda family=family, k=k: scene_frames(
                family, frames, seed * 100 + 30 + k, empty=empty, bare=True))
        return out
    by_shoot: dict[str, list[LabeledImage]] = {}
    if dev is not None and (Path(dev) / "images").is_dir():
        _, items = load_labeled_dir(dev)
        by_shoot = shoots(items)
    for name, its in by_shoot.items():
        out[name] = lambda its=its: photo_frames(its)
    def changed(its: list[LabeledImage], offset: int,
                change: Callable[[np.ndarray, LabeledImage, np.random.Generator], Frame]
                ) -> Callable[[], Iterator[Frame]]:
        def frames() -> Iterator[Frame]:
            rng = np.random.default_rng(seed + offset)
            for image, item in photo_frames(its):
                yield change(image, item, rng)
        return frames

    for name, its in by_shoot.items():
        out[f"altered-{name}"] = changed(its, 11, alter)
        out[f"turned-{name}"] = changed(
            its, 23, lambda image, item, rng: turn(image, item, float(rng.uniform(0.0, 90.0))))
        out[f"close-{name}"] = changed(
            its, 37, lambda image, item, rng: close(image, item, float(rng.uniform(0.25, 0.6)),
                                                    int(rng.integers(1 << 16))))
    bank: list[PhotoDie] = []
    if by_shoot:
        bank = photo_dice([it for its in by_shoot.values() for it in its])
    for k, family in enumerate(families):
        out[f"render-{family}"] = (lambda family=family, k=k:
                                   scene_frames(family, frames, seed * 100 + k, empty=empty))
        if bank:
            out[f"photo-dice-on-{family}"] = (lambda family=family, k=k:
                                              scene_frames(family, frames, seed * 100 + 50 + k,
                                                           bank, empty=empty))
        out[f"solid-{family}"] = (lambda family=family, k=k:
                                  scene_frames(family, frames, seed * 100 + 20 + k,
                                               empty=empty, solid=1.0))
        out[f"stress-{family}"] = (lambda family=family, k=k:
                                   scene_frames(family, frames, seed * 100 + 80 + k, bank,
                                                harsh=True, photo_share=0.5, empty=empty))
        out[f"bare-{family}"] = (lambda family=family, k=k: scene_frames(
            family, frames, seed * 100 + 30 + k, empty=empty, bare=True))
    return out
