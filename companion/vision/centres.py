"""Find dice with a small network: a heat map of die centres, with each die's size.

The network (``models/dice_centres.onnx``, retrained by ``calibration/train_dice_detector.py``)
looks at the frame shrunk so its short side is ``INPUT_SIDE`` pixels and says, for every 4 x 4
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
# The network reads the frame shrunk so its short side is this many pixels (a typical tray
# shot then shows dice of 12-40 pixels), and rescaled when the dice turn out otherwise.
INPUT_SIDE = 320
STRIDE = 4
# Dice the network reads best, in input pixels; outside this band the frame is rescaled.
GOOD_SIDES = (14.0, 48.0)
TARGET_SIDE = 26.0
MAX_INPUT = 2048  # longest input side a rescale may ask for (tiny dice in a huge frame)
# Least heat for a die centre; chosen on the first photo session and on renders.
THRESHOLD = 0.3


class CentreFinder:
    """``find(image) -> Detection`` with the same blobs as the geometric detector gives."""

    def __init__(self, model: str | Path = MODEL, threshold: float = THRESHOLD,
                 input_side: int = INPUT_SIDE) -> None:
        self.net = cv2.dnn.readNetFromONNX(str(model))
        self.threshold = threshold
        self.input_side = input_side

    def _peaks(self, image: np.ndarray, scale: float) -> list[tuple[float, ...]]:
        """Die centres ``(x, y, side, side in input pixels, heat)`` with the frame scaled by
        ``scale`` (positions and sides in frame pixels)."""
        h0, w0 = image.shape[:2]
        scale = min(scale, MAX_INPUT / max(h0, w0))
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
        if die_side:
            scale = TARGET_SIDE / die_side
        else:
            scale = self.input_side / min(image.shape[:2])
        peaks = self._peaks(image, scale)
        if not die_side:
            for _ in range(2):
                if peaks or scale >= 1.0:
                    break
                # Nothing at this scale: dice may be too small to see in it.
                scale = min(1.0, 2.0 * scale)
                peaks = self._peaks(image, scale)
            if peaks:
                seen = float(np.median([p[3] for p in peaks]))
                if not GOOD_SIDES[0] <= seen <= GOOD_SIDES[1]:
                    scale *= TARGET_SIDE / seen
                    peaks = self._peaks(image, scale)
        peaks = _suppress(peaks)
        blobs = tuple(Blob(x, y, s, s, 0.0) for x, y, s, _, _ in peaks)
        side = float(np.median([b.side for b in blobs])) if blobs else (
            die_side or min(image.shape[:2]) / 20.0)
        return Detection(blobs, side, obstruction_share(image, side))


def _suppress(peaks: list[tuple[float, ...]]) -> list[tuple[float, ...]]:
    """One die per place: of two centres closer than half a die the stronger stays, and a
    centre inside a die twice its size is a mark on that die (a pip of a large die)."""
    kept: list[tuple[float, ...]] = []
    for p in sorted(peaks, key=lambda p: -p[4]):
        if all(np.hypot(p[0] - q[0], p[1] - q[1]) > 0.5 * min(p[2], q[2]) for q in kept):
            kept.append(p)
    return [p for p in kept
            if not any(q[2] >= 1.8 * p[2] and max(abs(p[0] - q[0]), abs(p[1] - q[1]))
                       < 0.4 * q[2] for q in kept)]


def fit_blob(image: np.ndarray, blob: Blob, die_side: float) -> tuple[Blob, bool]:
    """Fit a found die tightly (``refine_blob``); returns ``(blob, fitted)``.

    When no die-shaped body can be fitted (a translucent die, a die like the table), a piece
    of a die smaller than the others is read through a window the size of the other dice; a
    die the network found is read upright in its own window, which it sizes well enough.
    """
    fitted, ok = refine_blob(image, blob)
    if not ok and blob.side < 0.85 * die_side:
        fitted = Blob(blob.cx, blob.cy, die_side, die_side, blob.angle, blob.fill)
    return fitted, ok


_default: CentreFinder | None = None


def locate_dice(image: np.ndarray) -> list[Blob]:
    """Find and fit the dice the way the reader does by default (the network when its model
    file is there, the geometric detector otherwise): calibration cuts its crops here."""
    global _default
    if not MODEL.exists():
        det = find_dice(image)
    else:
        if _default is None:
            _default = CentreFinder()
        det = _default.find(image)
    return [fit_blob(image, b, det.die_side)[0] for b in det.blobs]
