"""Shared helpers: synthetic labelled folders in the YOLO layout the project reads."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.dataset import match_blobs
from companion.vision.detect import Blob
from companion.vision.faces import FACE_SETS
from companion.vision.labeled import Box
from companion.vision.synth import SyntheticTray

REPO = Path(__file__).resolve().parents[2]
DEV = REPO.parent / "shared" / "data" / "dice-photos" / "d6-tray-dev"


def write_labeled(
    folder: Path, tray: SyntheticTray, n_images: int, faces: list[str], n_dice: int | None = None,
    alter: Callable[[np.ndarray], np.ndarray] | None = None, touching: float = 0.15,
) -> Path:
    """Render ``n_images`` trays and write images/, labels/ and classes.txt; ``alter``
    changes each image before it is written (another table, light or camera)."""
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "labels").mkdir(parents=True, exist_ok=True)
    (folder / "classes.txt").write_text("\n".join(faces) + "\n")
    for i in range(n_images):
        image, dice = tray.render(n_dice, touching=touching)
        if alter is not None:
            image = alter(image)
        h, w = image.shape[:2]
        cv2.imwrite(str(folder / "images" / f"tray_{i:03d}.png"), image)
        lines = [
            f"{faces.index(d.face)} {d.x / w:.6f} {d.y / h:.6f} "
            f"{d.side * 1.2 / w:.6f} {d.side * 1.2 / h:.6f}"
            for d in dice
        ]
        (folder / "labels" / f"tray_{i:03d}.txt").write_text("\n".join(lines) + "\n")
    return folder


def speckle(image: np.ndarray, truth, rng: np.random.Generator, clusters: int = 4
            ) -> np.ndarray:
    """``image`` with ``clusters`` groups of two or three pip-sized specks of dirt a pip
    apart, on the empty table (clear of every die in ``truth``)."""
    image = image.copy()
    h, w = image.shape[:2]
    side = float(np.median([t.side for t in truth]))
    placed = 0
    while placed < clusters:
        x, y = rng.uniform(side, w - side), rng.uniform(side, h - side)
        if min(np.hypot(t.x - x, t.y - y) for t in truth) < 1.6 * side:
            continue
        turn = rng.choice([-1, 1])
        for k in range(int(rng.integers(2, 4))):
            dx, dy = (k - 1) * 0.3 * side, (k - 1) * 0.3 * side * turn
            cv2.circle(image, (int(x + dx), int(y + dy)), max(2, int(0.07 * side)),
                       (40, 40, 40), -1, cv2.LINE_AA)
        placed += 1
    return image


def extra_dice(dice, truth) -> int:
    """Dice read where ``truth`` has none."""
    blobs = [Blob(d.x, d.y, d.w, d.h, 0.0) for d in dice]
    _, unmatched = match_blobs(blobs, [Box(t.x, t.y, t.side * 1.3, t.side * 1.3, t.face)
                                       for t in truth])
    return len(unmatched)


def dice_right(dice, truth) -> int:
    """Dice of ``truth`` read with their face, where they lie (within half a side)."""
    return sum(any(d.face == t.face and abs(d.x - t.x) < t.side / 2
                   and abs(d.y - t.y) < t.side / 2 for d in dice) for t in truth)


def read_speckled(reader, tray: SyntheticTray, seed: int, frames: int = 12
                  ) -> tuple[int, int, int]:
    """Read ``frames`` renders of three dice with four clusters of specks each; returns
    (faces read right, dice, extra dice)."""
    rng = np.random.default_rng(seed)
    right = total = extra = 0
    for _ in range(frames):
        image, truth = tray.render(n_dice=3, glare=0.0)
        dice = reader.read(speckle(image, truth, rng, clusters=4))
        extra += extra_dice(dice, truth)
        total += len(truth)
        right += sum(min([d.face for d in dice].count(f), [t.face for t in truth].count(f))
                     for f in {t.face for t in truth})
    return right, total, extra


@pytest.fixture
def labeled_d6(tmp_path: Path) -> Path:
    tray = SyntheticTray("d6", seed=11)
    return write_labeled(tmp_path / "d6set", tray, 6, list(FACE_SETS["d6"].faces), n_dice=5)


def tray_before_and_after(seed: int = 5):
    """A tray holding one die (lying there before the roll) and, after the roll, the same
    tray with three more dice: patches of another render of the same table and light."""
    tray = SyntheticTray("d6", seed=seed, keep_scene=True)
    before, old = tray.render(n_dice=1, touching=0.0, glare=0.0)
    other, new = tray.render(n_dice=6, touching=0.0, glare=0.0)
    after = before.copy()
    added = []
    for d in new:
        if np.hypot(d.x - old[0].x, d.y - old[0].y) < 2.5 * d.side or len(added) == 3:
            continue
        r = int(d.side)
        ys, xs = slice(int(d.y) - r, int(d.y) + r), slice(int(d.x) - r, int(d.x) + r)
        after[ys, xs] = other[ys, xs]
        added.append(d)
    assert len(added) == 3
    return before, after, old, added
