"""Cut a die out of a frame, turned upright and resampled to a fixed size."""

from __future__ import annotations

import cv2
import numpy as np


def die_crop(image: np.ndarray, cx: float, cy: float, side: float, angle: float,
             size: int = 32) -> np.ndarray:
    """The die turned upright and resampled to ``size`` x ``size`` pixels."""
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), float(angle), size / max(side, 1.0))
    m[0, 2] += size / 2.0 - cx
    m[1, 2] += size / 2.0 - cy
    return cv2.warpAffine(image, m, (size, size), flags=cv2.INTER_AREA if side > size
                          else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
