"""Count the pips on a die face: pure geometry, no training.

The crop is the die turned upright and scaled to ``N`` pixels, so every size below is a
fraction of the die, whatever the camera and distance.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

N = 48  # side of the normalised die crop


def die_crop(image: np.ndarray, cx: float, cy: float, side: float, angle: float,
             size: int = N) -> np.ndarray:
    """The die turned upright and resampled to ``size`` x ``size`` pixels."""
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), float(angle), size / max(side, 1.0))
    m[0, 2] += size / 2.0 - cx
    m[1, 2] += size / 2.0 - cy
    return cv2.warpAffine(image, m, (size, size), flags=cv2.INTER_AREA if side > size
                          else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


@dataclass(frozen=True)
class Marks:
    """Marks found on a face: pip-like blobs and a measure of how clean they are."""

    pips: tuple[tuple[float, float, float], ...]  # (x, y, area) in crop fractions
    ink: np.ndarray  # float map 0..1 of how far each pixel is from the die body colour
    contrast: float  # separation of marks from the body (Otsu between-class / total)
    clean: float  # 0..1: pips the same size, round, and no stray marks


def find_marks(crop: np.ndarray) -> Marks:
    """Segment the marks on an upright die crop (BGR, N x N)."""
    n = crop.shape[0]
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2Lab).astype(np.float32)
    inner = lab[n // 6: n - n // 6, n // 6: n - n // 6].reshape(-1, 3)
    body = np.median(inner, axis=0)
    d = lab - body
    ink = np.sqrt(d[..., 0] ** 2 + 1.5 * d[..., 1] ** 2 + 1.5 * d[..., 2] ** 2)
    m = n // 10
    region = ink[m:n - m, m:n - m]
    peak = float(np.percentile(region, 99)) + 1e-3
    ink8 = np.clip(ink / peak * 255, 0, 255).astype(np.uint8)
    t, _ = cv2.threshold(ink8[m:n - m, m:n - m], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    vals = ink8[m:n - m, m:n - m].astype(np.float32).ravel()
    fg, bg = vals[vals > t], vals[vals <= t]
    contrast = 0.0
    if len(fg) and len(bg):
        w0, w1 = len(bg) / len(vals), len(fg) / len(vals)
        contrast = float(w0 * w1 * (fg.mean() - bg.mean()) ** 2 / (vals.var() + 1e-6))
    binary = np.zeros((n, n), np.uint8)
    binary[m:n - m, m:n - m] = (ink8[m:n - m, m:n - m] > t).astype(np.uint8) * 255
    num, labels, stats, cents = cv2.connectedComponentsWithStats(binary, connectivity=8)
    area_total = float(n * n)
    blobs = []
    stray = 0.0
    for i in range(1, num):
        x, y, w, h, a = stats[i]
        frac = a / area_total
        if frac < 0.004:
            continue
        round_ok = max(w, h) <= 2.0 * min(w, h) + 1 and a >= 0.45 * w * h
        if 0.006 <= frac <= 0.08 and round_ok:
            blobs.append((cents[i][0] / n, cents[i][1] / n, frac))
        else:
            stray += frac
    clean = 1.0
    if blobs:
        areas = np.array([b[2] for b in blobs])
        med = float(np.median(areas))
        keep = [b for b in blobs if 0.45 * med <= b[2] <= 2.2 * med]
        stray += sum(b[2] for b in blobs if b not in keep)
        blobs = keep
        spread = float(np.std([b[2] for b in blobs]) / (med + 1e-6))
        clean = max(0.0, 1.0 - spread) * max(0.0, 1.0 - stray / 0.05)
    else:
        clean = 0.0
    return Marks(tuple(blobs), ink8.astype(np.float32) / 255.0, contrast, clean)


# Canonical pip positions on a unit face for each count (up to rotation).
_LAYOUTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def layout_fit(pips: tuple[tuple[float, float, float], ...]) -> float:
    """How well the pips match the standard layout for their count (1 = perfect, 0 = not).

    The pips are centred and scaled by their own spread, and compared with the layout at the
    rotation that fits best, so a die seen at any angle scores the same.
    """
    k = len(pips)
    if k not in _LAYOUTS:
        return 0.0
    if k == 1:
        x, y, _ = pips[0]
        off = np.hypot(x - 0.5, y - 0.5)
        return float(max(0.0, 1.0 - off / 0.3))
    p = np.array([[x, y] for x, y, _ in pips], np.float64)
    p -= p.mean(axis=0)
    ref = np.array(_LAYOUTS[k], np.float64)
    ref -= ref.mean(axis=0)
    sp, sr = np.sqrt((p ** 2).sum(1).mean()), np.sqrt((ref ** 2).sum(1).mean())
    p /= sp + 1e-9
    ref /= sr
    best = 1e9
    for deg in range(0, 360, 5):
        r = np.deg2rad(deg)
        rot = ref @ np.array([[np.cos(r), -np.sin(r)], [np.sin(r), np.cos(r)]])
        # Nearest-neighbour residual (both ways) is enough for at most six points.
        dm = np.linalg.norm(p[:, None] - rot[None], axis=2)
        err = max(dm.min(1).max(), dm.min(0).max())
        best = min(best, err)
    return float(max(0.0, 1.0 - best / 0.6))


@dataclass(frozen=True)
class PipResult:
    count: int
    confidence: float
    marks: Marks


def count_pips(crop: np.ndarray) -> PipResult:
    """Count pips on an upright die crop; confidence 0..1 reflects how clean the face was."""
    marks = find_marks(crop)
    k = len(marks.pips)
    if k == 0:
        return PipResult(0, 0.0, marks)
    fit = layout_fit(marks.pips)
    conf = float(np.clip(fit, 0, 1) * (0.5 + 0.5 * marks.clean) * min(1.0, marks.contrast / 0.5))
    return PipResult(k, conf, marks)
