"""Find dice with a small network: a heat map of die centres, with each die's size.

The network (``models/dice_centres.onnx``, retrained by ``calibration/train_dice_detector.py``)
looks at the frame shrunk so its long side is ``INPUT_SIDE`` pixels and says, for every 4 x 4
cell, how likely a die's centre lies there, how big that die is and where in the cell the
centre falls. It was taught dice of 10-60 pixels at that size; when the dice in a frame turn
out much smaller or larger (another camera, height or zoom), the frame is read again at the
scale that makes them a middling size, so no camera setting is assumed.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .detect import Blob, Detection, find_dice, obstruction_share, refine_blob

MODEL = Path(__file__).with_name("models") / "dice_centres.onnx"
INPUT_SIDE = 384
STRIDE = 4
# Dice the network reads best, in input pixels; outside this band the frame is rescaled.
GOOD_SIDES = (14.0, 48.0)
TARGET_SIDE = 26.0
# Least heat for a die centre; chosen on the first photo session and on renders.
THRESHOLD = 0.3


class CentreFinder:
    """``find(image) -> Detection`` with the same blobs as the geometric detector gives."""

    def __init__(self, model: str | Path = MODEL, threshold: float = THRESHOLD,
                 input_side: int = INPUT_SIDE) -> None:
        self.net = cv2.dnn.readNetFromONNX(str(model))
        self.threshold = threshold
        self.input_side = input_side

    def _peaks(self, image: np.ndarray, long_side: float) -> list[tuple[float, ...]]:
        h0, w0 = image.shape[:2]
        scale = long_side / max(h0, w0)
        # Sides must halve evenly four times (the network works down to 1/16).
        nw = max(32, int(round(w0 * scale / 16)) * 16)
        nh = max(32, int(round(h0 * scale / 16)) * 16)
        sx, sy = nw / w0, nh / h0
        small = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA
                           if sx < 1 else cv2.INTER_LINEAR)
        self.net.setInput(cv2.dnn.blobFromImage(small, 1.0 / 255.0))
        maps = self.net.forward()[0]
        heat = maps[0]
        peak = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > self.threshold)
        out = []
        for iy, ix in zip(*np.nonzero(peak), strict=True):
            side = float(np.exp(maps[1, iy, ix]))
            x = (ix + float(maps[2, iy, ix])) * STRIDE
            y = (iy + float(maps[3, iy, ix])) * STRIDE
            out.append((x / sx, y / sy, side / np.sqrt(sx * sy), side, float(heat[iy, ix])))
        return out

    def find(self, image: np.ndarray, die_side: float | None = None) -> Detection:
        if image is None or image.ndim != 3 or image.size == 0:
            raise ValueError("finding dice needs a colour (BGR) image")
        long_side = max(image.shape[:2])
        want = float(self.input_side)
        if die_side:
            want = long_side * TARGET_SIDE / die_side
        peaks = self._peaks(image, want)
        if peaks and not die_side:
            seen = float(np.median([p[3] for p in peaks]))
            if not GOOD_SIDES[0] <= seen <= GOOD_SIDES[1]:
                want = float(np.clip(want * TARGET_SIDE / seen, 160, 1600))
                peaks = self._peaks(image, want)
        peaks = _suppress(peaks)
        blobs = tuple(Blob(x, y, s, s, 0.0, conf) for x, y, s, _, conf in peaks)
        side = float(np.median([b.side for b in blobs])) if blobs else (
            die_side or min(image.shape[:2]) / 20.0)
        return Detection(blobs, side, obstruction_share(image, side))


def _suppress(peaks: list[tuple[float, ...]]) -> list[tuple[float, ...]]:
    """Keep the stronger of two centres closer than half a die (one die seen twice)."""
    kept: list[tuple[float, ...]] = []
    for p in sorted(peaks, key=lambda p: -p[4]):
        if all(np.hypot(p[0] - q[0], p[1] - q[1]) > 0.5 * min(p[2], q[2]) for q in kept):
            kept.append(p)
    return kept



def fit_rough(image: np.ndarray, blobs: tuple[Blob, ...] | list[Blob]
              ) -> list[tuple[Blob, bool]]:
    """Fit dice whose sizes are rough guesses (the network's, which include the sides of a
    die seen at a slant): a die that will not fit at first is tried again at the size of the
    dice that did, and read upright at that size if it still will not. Returns
    ``(blob, fitted)`` pairs like ``refine_blob``."""
    fits = [refine_blob(image, b, least=0.25) for b in blobs]
    # A second pass from the first fit centres the window on the die: the same fit the
    # geometric detector's tighter blobs get.
    for i, (f, ok) in enumerate(fits):
        if ok:
            again, ok2 = refine_blob(image, f)
            if ok2:
                fits[i] = (again, True)
    sides = [min(f.w, f.h) for f, ok in fits if ok]
    if not sides:
        return fits
    side = float(np.median(sides))
    out = []
    for b, (f, ok) in zip(blobs, fits, strict=True):
        if not ok:
            f, ok = refine_blob(image, Blob(b.cx, b.cy, side, side, 0.0, b.fill))
            if not ok:
                f = Blob(b.cx, b.cy, side, side, 0.0, b.fill)
        out.append((f, ok))
    return out

_default: CentreFinder | None = None


def locate_dice(image: np.ndarray) -> list[Blob]:
    """Find and fit the dice the way the reader does by default (the network when its model
    file is there, the geometric detector otherwise): calibration cuts its crops here."""
    global _default
    if not MODEL.exists():
        return [refine_blob(image, b)[0] for b in find_dice(image).blobs]
    if _default is None:
        _default = CentreFinder()
    return [b for b, _ in fit_rough(image, _default.find(image).blobs)]
