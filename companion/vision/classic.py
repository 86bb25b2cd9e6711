"""A classical blob-and-pip reader: the yardstick the network reader's speed is set against.

No learning: dice are the blobs that stand out from a smooth model of the table
(``detect.find_dice``), and a die's face is the number of round marks on it, counted as
connected parts of an Otsu threshold of its crop (dark pips on a light die or light pips on
a dark one, whichever gives round parts of a pip's size). It is what a hobby dice reader
does, and it is what ``companion bench vision-targets`` times the reader against.

>>> from companion.vision.synth import SyntheticTray
>>> image, truth = SyntheticTray("d6", seed=4).render(n_dice=3)
>>> len(ClassicReader().read(image))
3
"""

from __future__ import annotations

import cv2
import numpy as np

from .crops import die_crop
from .detect import find_dice
from .types import UNKNOWN, Die

SIDE = 48  # crop side the pips are counted on


def count_pips(crop: np.ndarray) -> int | None:
    """Round marks of a pip's size on the die's face (None when neither polarity gives
    one to six)."""
    g = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    n = g.shape[0]
    inner = g[n // 8: n - n // 8, n // 8: n - n // 8]
    best = None
    for flag in (cv2.THRESH_BINARY_INV, cv2.THRESH_BINARY):
        _, mask = cv2.threshold(inner, 0, 255, flag | cv2.THRESH_OTSU)
        k, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        area = (n * 0.75) ** 2
        pips = 0
        for i in range(1, k):
            a = stats[i, cv2.CC_STAT_AREA]
            w, h = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
            if 0.004 * area <= a <= 0.08 * area and 0.5 <= w / max(h, 1) <= 2.0 \
                    and a >= 0.5 * w * h:
                pips += 1
        if 1 <= pips <= 6 and (best is None or pips > best):
            best = pips
    return best


class ClassicReader:
    """``read(image) -> [Die]`` with faces "1"-"6" counted, "?" when the count fails."""

    def read(self, image: np.ndarray) -> list[Die]:
        det = find_dice(image)
        out = []
        for b in det.blobs:
            crop = die_crop(image, b.cx, b.cy, min(b.w, b.h), b.angle, SIDE)
            pips = count_pips(crop)
            cx, cy, w, h = b.bbox()
            out.append(Die(cx, cy, w, h, str(pips) if pips else UNKNOWN,
                           1.0 if pips else 0.0))
        return out
