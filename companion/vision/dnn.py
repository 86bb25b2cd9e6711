"""Load the reader's ONNX networks into OpenCV's dnn module."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

# Crops a classifier network reads at once. Its working memory grows with the batch (the
# 150 places of a patterned cloth in one batch took 66 MB more, and OpenCV kept it); its
# time per crop hardly does.
BATCH = 32


def read_onnx(path: str | Path) -> cv2.dnn.Net:
    """An ONNX network run by ``cv2.dnn`` on the CPU.

    OpenCV 5 has two engines; the classic one (the only one in OpenCV 4, as on Raspberry Pi
    OS) runs these small networks faster (the face network on a tray of dice: 2.3 ms instead
    of 3.5 ms) and gives the same outputs.
    """
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if classic is None:
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), engine=classic)


def forward_crops(net: cv2.dnn.Net, blob: np.ndarray) -> np.ndarray:
    """``net``'s output for a batch of crops (``N x 3 x H x W``), ``BATCH`` at a time."""
    out = []
    for start in range(0, len(blob), BATCH):
        net.setInput(np.ascontiguousarray(blob[start:start + BATCH]))
        out.append(net.forward())
    return np.concatenate(out)
