"""Find dice in a frame: colour distance from a smooth background model, then shape checks.

Everything is scaled by the image size and by the measured die size, never by fixed pixels,
so the same code works for a webcam, the Pi camera and phone photos.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# Longest side of the image the detector works on; larger frames are shrunk for speed.
WORK_SIDE = 640
# Opening width as a fraction of the die side: removes tray rims and cracks, keeps dice.
OPEN_FRACTION = 0.6
# First pass: closing width as a fraction (1/CLOSE_DIV) of the frame, so a die that differs
# from the table only by its marks and edges becomes one part; parts smaller than SPECK times
# the typical large part do not vote on the die size.
CLOSE_DIV = 60
SPECK = 0.05
# Least colour distance (Lab units) that counts as "not the table" in the second pass; chosen
# on the first photo session and on renders.
FLOOR = 8.0


@dataclass(frozen=True)
class Blob:
    """A die candidate: rotated rectangle ``(cx, cy), (w, h), angle`` in original pixels."""

    cx: float
    cy: float
    w: float
    h: float
    angle: float
    fill: float = 1.0
    heat: float = 0.0  # the finder network's certainty that a die is here (0: not known)

    @property
    def side(self) -> float:
        return float(np.sqrt(self.w * self.h))

    def bbox(self) -> tuple[float, float, float, float]:
        """Axis-aligned box ``(cx, cy, w, h)`` around the rotated rectangle."""
        pts = cv2.boxPoints(((self.cx, self.cy), (self.w, self.h), self.angle))
        x0, y0 = pts.min(axis=0)
        x1, y1 = pts.max(axis=0)
        return self.cx, self.cy, float(x1 - x0), float(y1 - y0)


@dataclass(frozen=True)
class Detection:
    """What the detector saw in one frame.

    ``obstruction`` is the fraction of the frame covered by something much larger than a die
    (a hand, an arm, a box lid): a settled reading must not be taken while it is high.
    """

    blobs: tuple[Blob, ...]
    die_side: float
    obstruction: float
    mask: np.ndarray | None = None
    features: np.ndarray | None = None  # the finder network's, one row per blob, when kept


def background_distance(image: np.ndarray, window: float | None = None) -> np.ndarray:
    """Per-pixel colour distance (Lab) between the image and a smooth estimate of the tray.

    The tray is estimated with a median over ``window`` pixels (default a fifth of the image):
    a median removes anything narrower than half its window (dice, pips) but keeps step edges
    such as a tray wall, so dice lying against the wall still stand out from it.
    """
    h, w = image.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (3, 3), 0), cv2.COLOR_BGR2Lab)
    if window is None:
        window = min(h, w) / 5.0
    # Work at a scale where the window is about 25 px: fast, and fine enough for the edges.
    s = max(1, min(4, int(window // 25)))
    small = lab if s == 1 else cv2.resize(
        lab, (max(8, w // s), max(8, h // s)), interpolation=cv2.INTER_AREA
    )
    k = int(window / s) | 1
    k = max(3, min(k, 255, (min(small.shape[:2]) - 1) | 1))
    if k <= 5:
        bg = cv2.medianBlur(small, k)
    else:
        bg = np.dstack([cv2.medianBlur(np.ascontiguousarray(small[..., i]), k) for i in range(3)])
    if s != 1:
        bg = cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)
    d = lab.astype(np.float32) - bg.astype(np.float32)
    # Lightness counts less than colour: soft shadows change L but hardly a and b.
    return cv2.sqrt(0.5 * d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def _estimate_side(mask: np.ndarray) -> float:
    """Median size of compact, square-ish blobs: the die size in this frame (0 if none)."""
    h, w = mask.shape[:2]
    comps = _components(mask, (min(h, w) / 120.0) ** 2)
    return _median_side([p for p in comps if p.area <= (min(h, w) / 5.0) ** 2])


def _threshold(dist: np.ndarray, k: float = 6.0, floor: float = 10.0) -> float:
    """``k`` robust standard deviations above the typical tray pixel, at least ``floor``."""
    sample = dist[::3, ::3]  # a ninth of the pixels gives the same statistics, faster
    med = float(np.median(sample))
    mad = float(np.median(np.abs(sample - med))) * 1.4826 + 1e-3
    return max(med + k * mad, floor)


def _fill_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    """Fill holes smaller than ``max_area`` (pips, glare), not the inside of a tray wall."""
    contours, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hier is None:
        return mask
    out = mask.copy()
    holes = [c for c, hh in zip(contours, hier[0], strict=True)
             if hh[3] >= 0 and cv2.contourArea(c) < max_area]
    cv2.drawContours(out, holes, -1, 255, thickness=cv2.FILLED)
    return out


def _split(points: np.ndarray, n: int) -> list[np.ndarray]:
    """Split the pixels of touching dice into ``n`` groups (k-means on pixel positions).

    The centres are found on a subsample (a few hundred pixels say where the dice are);
    every pixel then joins its nearest centre.
    """
    pts = points.reshape(-1, 2).astype(np.float32)
    if n <= 1 or len(pts) < n * 4:
        return [pts]
    step = max(1, len(pts) // 400)
    sample = np.ascontiguousarray(pts[::step])
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 15, 0.5)
    cv2.setRNGSeed(1)  # same split every time for the same frame
    _, _, centres = cv2.kmeans(sample, n, None, crit, 2, cv2.KMEANS_PP_CENTERS)
    d = ((pts[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    labels = d.argmin(axis=1)
    return [pts[labels == i] for i in range(n)]


def _rect(pts: np.ndarray):
    """minAreaRect of a pixel set via its convex hull (same result, far fewer points)."""
    return cv2.minAreaRect(cv2.convexHull(pts))


def find_dice(image: np.ndarray, die_side: float | None = None, keep_mask: bool = False
              ) -> Detection:
    """Find die-shaped blobs in a BGR image.

    ``die_side`` (pixels, original image) can be given when known from calibration; otherwise
    it is measured as the median size of the blobs in this frame.

    >>> import numpy as np, cv2
    >>> img = np.full((200, 200, 3), 200, np.uint8)
    >>> _ = cv2.rectangle(img, (50, 50), (80, 80), (0, 0, 200), -1)
    >>> det = find_dice(img)
    >>> len(det.blobs), round(det.blobs[0].cx)
    (1, 65)
    """
    if image is None or image.ndim != 3 or image.size == 0:
        raise ValueError("find_dice needs a colour (BGR) image")
    h0, w0 = image.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h0, w0))
    work = image if scale == 1.0 else cv2.resize(
        image, (round(w0 * scale), round(h0 * scale)), interpolation=cv2.INTER_AREA
    )
    h, w = work.shape[:2]
    k3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    if die_side is not None:
        side = die_side * scale
    else:
        dist = background_distance(work)
        mask = (dist > _threshold(dist)).astype(np.uint8) * 255
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, k3)
        # Join the pieces of a die that differs from the table only by its marks and edges.
        kc = max(3, int(min(h, w) / CLOSE_DIV) | 1)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE,
                                cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kc, kc)))
        mask = _fill_holes(mask, (min(h, w) / 10.0) ** 2)
        side = _estimate_side(mask)
        if side <= 0:
            side = min(h, w) / 20.0
    dist = background_distance(work, window=3.0 * side)
    mask = (dist > _threshold(dist, floor=FLOOR)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, k3)
    mask = _fill_holes(mask, 0.8 * side * side)
    # An opening most of a die wide cuts dice free from thin tray rims and scratches.
    ko = max(3, int(side * OPEN_FRACTION) | 1)
    mask = cv2.morphologyEx(
        mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (ko, ko))
    )
    comps = _components(mask, (min(h, w) / 120.0) ** 2)
    # Re-measure the die on this mask: its blobs carry the same halo as the ones we split.
    side2 = _median_side(comps)
    if die_side is None and side2 > 0:
        side = side2
    blobs: list[Blob] = []
    big_area = 0.0
    if side > 0:
        unit = side * side
        for part in comps:
            a = part.area
            ratio = a / unit
            if ratio < 0.3:
                continue
            if ratio > 12:
                # Large and solid: a hand or an arm. Thin rings (a tray wall) are not.
                hull = cv2.contourArea(part.hull)
                if hull > 0 and a / hull > 0.5:
                    big_area += a
                continue
            (_, _), (rw, rh), _ = part.rect
            fill = a / max(rw * rh, 1e-6)
            aspect = max(rw, rh) / max(min(rw, rh), 1e-6)
            n = int(round(ratio)) if ratio > 1.6 else 1
            if n == 1 and fill < 0.8 and ratio > 1.25:
                n = 2
            if n > 1 and aspect < 1.35 and fill > 0.8:
                # Square and solid: one die larger than this frame's typical die, not two.
                n = 1
            if n == 1:
                groups = [(part.rect, a)]
            else:
                groups = [(_rect(g), float(len(g))) for g in _split(_pixels(part), n)]
            for ((gx, gy), (gw, gh), gang), ga in groups:
                gfill = ga / max(gw * gh, 1e-6)
                if ga / unit < 0.3 or max(gw, gh) > 2.2 * max(min(gw, gh), 1):
                    continue
                blobs.append(Blob(gx / scale, gy / scale, gw / scale, gh / scale, gang,
                                  float(gfill)))
    return Detection(
        tuple(blobs), side / scale if scale else side, big_area / float(h * w),
        mask if keep_mask else None,
    )


def obstruction_share(image: np.ndarray, die_side: float, work: int = 160) -> float:
    """Share of the frame covered by solid things more than 12 dice big (a hand, an arm),
    measured on a small copy of the frame: cheap enough to run on every frame."""
    h0, w0 = image.shape[:2]
    scale = min(1.0, work / max(h0, w0))
    small = cv2.resize(image, (max(8, round(w0 * scale)), max(8, round(h0 * scale))),
                       interpolation=cv2.INTER_AREA)
    side = max(die_side * scale, 2.0)
    dist = background_distance(small, window=max(6.0 * side, min(small.shape[:2]) / 3.0))
    mask = (dist > _threshold(dist, floor=FLOOR)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    big = 0.0
    for part in _components(mask, 12 * side * side):
        hull = cv2.contourArea(part.hull)
        if hull > 0 and part.area / hull > 0.5:
            big += part.area
    return big / float(mask.size)


@dataclass
class _Part:
    """One connected part of a mask: pixel count, rotated rectangle, hull, and its sub-mask
    (pixel lists are built only when touching dice must be split)."""

    area: float
    rect: tuple
    hull: np.ndarray
    sub: np.ndarray
    origin: tuple[int, int]


def _components(mask: np.ndarray, min_area: float) -> list[_Part]:
    """Connected parts of a mask, by pixel count rather than outer contour: a die inside a
    closed ring (a tray wall) is its own part, not a hole of the ring."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    for i in range(1, n):
        x, y, w, h, a = stats[i]
        if a < min_area:
            continue
        sub = (labels[y:y + h, x:x + w] == i).astype(np.uint8)
        contours, _ = cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        pts = (np.concatenate(contours).reshape(-1, 2) + (x, y)).astype(np.float32)
        hull = cv2.convexHull(pts)
        out.append(_Part(float(a), cv2.minAreaRect(hull), hull, sub, (int(x), int(y))))
    return out


def _pixels(part: _Part) -> np.ndarray:
    ys, xs = np.nonzero(part.sub)
    x, y = part.origin
    return np.stack([xs + x, ys + y], axis=1).astype(np.float32)


def _median_side(comps: list[_Part]) -> float:
    """Median side of the compact, square-ish parts, leaving out specks (dust, texture)
    much smaller than the typical large part, which would otherwise outvote a few dice."""
    areas = []
    for p in comps:
        (_, _), (rw, rh), _ = p.rect
        if rw * rh > 0 and p.area / (rw * rh) > 0.75 and max(rw, rh) < 1.5 * min(rw, rh):
            areas.append(p.area)
    if not areas:
        return 0.0
    big = float(np.percentile(areas, 90))
    return float(np.sqrt(np.median([a for a in areas if a >= SPECK * big])))


_OPEN5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def refine_blob(image: np.ndarray, blob: Blob) -> tuple[Blob, bool]:
    """Fit the die body more tightly than the detector's mask, which includes the shadow.

    Cuts a window twice the die size around the blob, keeps the pixels near the die's own
    colour (marks enclosed by the body are filled in), and fits a rotated square to them.
    Returns ``(blob, True)`` with the tighter fit, or ``(blob, False)`` unchanged when no
    die-shaped body is found (a tray corner, a wall piece, a translucent die).
    """
    return refine_blobs(image, [blob])[0]


def byte_medians(values: np.ndarray) -> np.ndarray:
    """``np.median(values, axis=1)`` of a ``n x k x channels`` uint8 array, exactly (the mean
    of the two middle values when ``k`` is even), from one partial sort: only the middle
    values are put in place (a quarter of a whole sort's time), where a median per window
    costs more than the window's other measures."""
    k = values.shape[1]
    middle = (k // 2,) if k % 2 else (k // 2 - 1, k // 2)
    ordered = np.partition(values, middle, axis=1)
    upper = ordered[:, k // 2].astype(np.float64)
    return upper if k % 2 else (ordered[:, k // 2 - 1] + upper) / 2.0


_FIT = 64  # side of the window a blob is fitted in (twice the die)


def refine_blobs(image: np.ndarray, blobs: list[Blob]) -> list[tuple[Blob, bool]]:
    """``refine_blob`` of each blob: the windows are cut one by one, and their colours
    measured together (the per-window work is what a frame of places spends its time on)."""
    if not blobs:
        return []
    size, q = _FIT, _FIT // 4
    mats, wins = [], []
    for blob in blobs:
        m = cv2.getRotationMatrix2D((blob.cx, blob.cy), blob.angle, size / (2.0 * blob.side))
        m[0, 2] += size / 2.0 - blob.cx
        m[1, 2] += size / 2.0 - blob.cy
        mats.append(m)
        wins.append(cv2.warpAffine(image, m, (size, size), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE))
    n = len(blobs)
    lab8 = cv2.cvtColor(np.concatenate(wins), cv2.COLOR_BGR2Lab).reshape(n, size, size, 3)
    body = byte_medians(lab8[:, q:size - q, q:size - q].reshape(n, -1, 3)).astype(np.float32)
    d = lab8.astype(np.float32) - body[:, None, None, :]
    dist = np.sqrt(np.einsum("nijk,nijk->nij", d, d))
    d8 = np.clip(dist * 2, 0, 255).astype(np.uint8)
    return [_fit_window(d8[i], mats[i], blob) for i, blob in enumerate(blobs)]


def _fit_window(d8: np.ndarray, m: np.ndarray, blob: Blob) -> tuple[Blob, bool]:
    """The rotated square fitted to one window's pixels near the body's colour (``d8``: their
    colour distance, doubled), in frame pixels; ``m`` maps the frame to the window."""
    size = _FIT
    t, _ = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (d8 <= max(t, 24)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _OPEN5)
    mask = _fill_holes(mask, (size / 2.0) ** 2)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    c = labels[size // 2, size // 2]
    if c == 0:
        return blob, False
    area = int(stats[c, cv2.CC_STAT_AREA])
    expect = (size / 2.0) ** 2
    if not 0.5 * expect <= area <= 1.4 * expect:
        return blob, False
    # The hull of a part is the hull of its outline: far fewer points than its pixels.
    outline, _ = cv2.findContours((labels == c).astype(np.uint8), cv2.RETR_EXTERNAL,
                                  cv2.CHAIN_APPROX_NONE)
    (rx, ry), (rw, rh), ra = _rect(np.concatenate(outline).reshape(-1, 2).astype(np.float32))
    if max(rw, rh) > 1.35 * max(min(rw, rh), 1):
        return blob, False
    inv = cv2.invertAffineTransform(m)
    ox, oy = inv @ np.array([rx, ry, 1.0])
    scale = size / (2.0 * blob.side)
    # Turning the frame by blob.angle and then by ra puts the die upright: angles add. Of a
    # square's four ways up the one nearest the frame's is kept: a die seen at a slant
    # shows its top above its sides, and the face network reads which is which.
    return Blob(float(ox), float(oy), rw / scale, rh / scale,
                float((blob.angle + ra + 45.0) % 90.0 - 45.0), blob.fill, blob.heat), True
