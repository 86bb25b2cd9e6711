"""Cut a die out of a frame, turned upright and resampled to a fixed size."""

from __future__ import annotations

import cv2
import numpy as np

# A die over LARGE times the crop is averaged down to SHRINK times it first. (Averaged from
# 2 times up, the protocol's tables read a few dice and phantoms otherwise, each way: the
# networks learned dice of up to about 120 pixels through the plain warp.)
LARGE = 4.0
SHRINK = 2.0
# A washed-out frame (a dim room, an exposure set for a bright window, a webcam's flat
# picture): its darkest and brightest pixels, the dice's among them, lie within WASHED_OUT
# grey levels of each other. It is read stretched about its mean to STRETCHED levels, at most
# MAX_GAIN times: the networks were taught on crops down to about a third of a tray's
# contrast, not a fifth. (Frames of a plain felt with a die or two spread 6-40 levels at
# full contrast; their dice are rarely a half-percent of the pixels the extremes are
# taken over.)
WASHED_OUT = 40.0
STRETCHED = 90.0
MAX_GAIN = 3.0


def die_crop(image: np.ndarray, cx: float, cy: float, side: float, angle: float,
             size: int = 32) -> np.ndarray:
    """The die turned upright and resampled to ``size`` x ``size`` pixels."""
    side = max(side, 1.0)
    if side > LARGE * size and np.isfinite(cx) and np.isfinite(cy):
        # warpAffine's own sampling is bilinear whatever flag it is given: shrinking a large
        # die (a close photo, a phone's full resolution) it would pick a few pixels of each
        # cell and read their noise.
        h, w = image.shape[:2]
        reach = int(np.ceil(0.75 * side)) + 2  # the turned crop's corners, and a margin
        x0, y0 = max(0, int(cx) - reach), max(0, int(cy) - reach)
        x1, y1 = min(w, int(cx) + reach + 1), min(h, int(cy) + reach + 1)
        if x1 - x0 >= 2 and y1 - y0 >= 2:
            k = SHRINK * size / side
            nw, nh = max(1, round((x1 - x0) * k)), max(1, round((y1 - y0) * k))
            small = cv2.resize(image[y0:y1, x0:x1], (nw, nh), interpolation=cv2.INTER_AREA)
            kx, ky = nw / (x1 - x0), nh / (y1 - y0)
            image, cx, cy = small, (cx - x0 + 0.5) * kx - 0.5, (cy - y0 + 0.5) * ky - 0.5
            side *= (kx + ky) / 2.0
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), float(angle), size / side)
    m[0, 2] += size / 2.0 - cx
    m[1, 2] += size / 2.0 - cy
    return cv2.warpAffine(image, m, (size, size), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def sharpness(crops: list[np.ndarray]) -> float:
    """How sharp the dice of these crops are: the median over crops of the steepest edge
    (the 99th percentile of the Sobel gradient) against the crop's contrast (5th to 95th
    percentile of grey), about 0.4-0.6 for dice in focus and under 0.3 once a blur's width
    is a twentieth of the die; NaN without crops."""
    if not crops:
        return float("nan")
    stack = np.stack(crops)
    n, h, w = stack.shape[:3]
    grey = cv2.cvtColor(stack.reshape(n * h, w, 3), cv2.COLOR_BGR2GRAY).reshape(n, h * w)
    steepest = np.percentile(sobel_magnitude(grey.reshape(n, h, w).astype(np.float32))
                             .reshape(n, -1), 99, axis=1)
    low, high = np.percentile(grey, (5, 95), axis=1)
    return float(np.median(steepest / (8.0 * (high - low) + 1e-3)))


def sobel_magnitude(g: np.ndarray) -> np.ndarray:
    """Gradient magnitude of each image of a stack (``n x h x w``): 3 x 3 Sobel with the
    edges reflected, as ``cv2.Sobel`` does on each image alone."""
    p = np.pad(g, ((0, 0), (1, 1), (1, 1)), mode="reflect")
    dx = p[:, :, 2:] - p[:, :, :-2]
    gx = dx[:, :-2] + 2 * dx[:, 1:-1] + dx[:, 2:]
    dy = p[:, 2:] - p[:, :-2]
    gy = dy[:, :, :-2] + 2 * dy[:, :, 1:-1] + dy[:, :, 2:]
    return np.sqrt(gx * gx + gy * gy)


def sharpened(image: np.ndarray, sigma: float = 2.0, amount: float = 1.0) -> np.ndarray:
    """The image with its detail under ``sigma`` pixels raised by ``amount`` (unsharp mask)."""
    blurred = cv2.GaussianBlur(image, (0, 0), sigma)
    return cv2.addWeighted(image, 1.0 + amount, blurred, -amount, 0)


def grey_spread(view: np.ndarray) -> tuple[float, float]:
    """``(spread, mean)`` of a BGR frame's grey: the levels between its
    0.5th and 99.5th percentiles, every fourth pixel (one hot pixel or speck does not make a
    flat frame look contrasty), and their mean."""
    h, w = view.shape[:2]
    small = cv2.resize(view, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_NEAREST)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    # percentiles from the histogram: a third of np.percentile's time
    below = np.cumsum(np.bincount(grey.ravel(), minlength=256))
    lo, hi = np.searchsorted(below, (0.005 * below[-1], 0.995 * below[-1]))
    return float(hi - lo), float(grey.mean())


def washed_out(view: np.ndarray) -> tuple[float, float]:
    """``(gain, mean grey)`` that stretch a washed-out frame (``WASHED_OUT``); gain 1 for
    any other."""
    spread, mean = grey_spread(view)
    if spread >= WASHED_OUT:
        return 1.0, 0.0
    return min(MAX_GAIN, STRETCHED / max(spread, 1.0)), mean


def stretched(image: np.ndarray, gain: float, mid: float) -> np.ndarray:
    """``image`` with its contrast about grey ``mid`` multiplied by ``gain`` (itself at 1)."""
    if gain == 1.0:
        return image
    # one pass, saturated to 0-255: x * gain + mid * (1 - gain)
    return cv2.addWeighted(image, gain, image, 0.0, mid * (1.0 - gain))


def as_read(image: np.ndarray) -> np.ndarray:
    """``image`` as the reader reads it: stretched when it is washed out (``washed_out``).
    What teaches a profile reads its photos through this too."""
    return stretched(image, *washed_out(image))
