"""Find dice with a small network: a heat map of die centres, with each die's size.

The network (``models/dice_centres.onnx``, retrained by ``calibration/train_dice_detector.py``)
looks at the frame shrunk so its short side is ``INPUT_SIDE`` pixels and says, for every 4 x 4
cell, how likely a die's centre lies there, how big that die is and where in the cell the
centre falls. It was taught dice of 10-60 pixels at that size, and finds dice of 28 pixels
or more much more surely than smaller ones on a table it has not seen; when the dice in a
frame turn out under 20 pixels or over 64 (another camera, height or zoom), the frame is read
again at the scale that makes them 32 pixels wide, so no camera setting is assumed.

The network also gives the features its heat is read from (output ``features``: 24 numbers
per cell, the heat is one linear layer over them). A dice profile learned from labelled photos
may carry its own heat layer over those features (``fit_heat``): the same finder, taught what
a die looks like on that table, with that camera.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

from .crops import as_read
from .detect import Blob, Detection, find_dice, obstruction_share, refine_blobs
from .dnn import read_onnx
from .labeled import LabeledImage, match_blobs
from .profile import ProfileError

MODEL = Path(__file__).with_name("models") / "dice_centres.onnx"
# The network reads the frame shrunk so its short side is this many pixels (a typical tray
# shot then shows dice of 20-60 pixels), and rescaled when the dice turn out otherwise.
# On a table it has not seen, it finds dice 20 pixels wide much less surely than dice of
# 28-40 (photos of one session, a network taught on the other: 92 % of the dice found at
# 320, 98 % at 448, 99.7 % at 640); 448 is what the time per frame allows.
INPUT_SIDE = 448
STRIDE = 4
# Dice the network reads well, in input pixels; outside this band the frame is rescaled.
# The sides are those of a die's upright box: a die turned 45 degrees shows a box 1.4 times
# its side, so dice 20 pixels wide lying at any angle look 20-28 wide; from 24 they are
# read larger (dev photos turned by any angle: 97.9 to 99.4 % per die; about 1.5 ms more a
# dev photo, where a few frames are read twice).
GOOD_SIDES = (24.0, 64.0)
TARGET_SIDE = 32.0
MAX_INPUT = 2048  # longest input side a rescale may ask for (tiny dice in a huge frame)
# Pixels a pass that enlarges the frame reads at most (a frame larger than this is never
# enlarged). The network's memory and time grow with its input, about 55 MB and 130 ms a
# megapixel on one core: the dots of a patterned cloth, taken for small dice, asked for
# 640x480 frames read at 2-3 megapixels and held the process 150 MB higher.
MAX_PIXELS = 1_000_000
# Least heat for a die centre; chosen on the first photo session and on renders.
THRESHOLD = 0.3
# Dice on one table are about one size (a mini die is 3/4 of a standard one): a centre whose
# die is under SPECK of the side of the centres with at least SURE heat is a speck or a pip.
SURE = 0.7
SPECK = 0.45
# ... and under SPECK_JUDGED of it when a judge reads the places: lower, so that phantoms
# twice a die's size do not drop the dice, not nil, so that granite or terrazzo specks do
# not double the places to judge.
SPECK_JUDGED = 0.3
# Places read per frame at most, the surest first, so that no table can make a frame take
# seconds: a polka-dot cloth gives about a hundred, each read by the face network, and its
# dice are often not among the surest (a cap of 40 read 7 points fewer of them, this one 1).
MAX_PLACES = 150
MAX_CELLS = 300_000  # cells a heat layer is taught on at most (24 numbers each)
OPEN_SHARE = 0.25  # share of the open table's cells it is taught on
SUPPRESS = 0.5  # two centres closer than this many die sides are one die
# A place this much larger than the frame's dice may be two touching dice seen as one: the
# finder looks again at it alone, its dice drawn CLOSER_SIDE pixels across, where the two
# come apart.
SPLIT = 1.1
ELONGATED = 3.0  # and its heat this many times longer than wide (a die's is about round)
CLOSER_SIDE = 44.0
CLOSER_INPUT = 160  # pixels of the closer look's window (about 3.6 of the frame's dice)
SPLIT_HEAT = 0.5  # each of the two, looked at closer (a piece of one die comes out weaker)
SPLIT_SIDE = 0.6  # and at least this share of the place and of the frame's dice (a pip or a
# piece of one die is smaller; each of two dice seen as one is 0.7-0.9 of that place)
CLOSER_LOOKS = 4  # at most, a frame
WHOLE_STEP = 0.35  # a close photo's frame is read again at this share of its scale
WHOLE = 2.5  # where a sure die this many times the places' size may hold their die whole
WHOLE_SHARE = 0.5  # when the whole dice hold this share of the frame's places
WHOLE_PARTS = 9  # places on one die at most (six pips, and a few pieces of its edge)
# Places all under this share of a whole die of heat PIP_SURE or more are its pips and pieces
# (the dice of a tray that looks like one large die are a third of it or more): the die
# replaces them, up to PIP_PARTS of them, however many places lie outside it (other dice cut
# by a close photo's edge, the tray's rim). Barely sure (0.7-0.72), the whole die was a
# stretch of table round one small die.
PIP_SHARE = 0.3
PIP_SURE = 0.8
PIP_PARTS = 12


def model_fingerprint(model: str | Path = MODEL) -> str:
    """Which exact finder network (a heat layer is taught on one network's features)."""
    return hashlib.sha256(Path(model).read_bytes()).hexdigest()[:16]


class CentreFinder:
    """``find(image) -> Detection`` with the same blobs as the geometric detector gives."""

    def __init__(self, model: str | Path = MODEL, threshold: float = THRESHOLD,
                 input_side: int = INPUT_SIDE, heat: dict | None = None) -> None:
        """``heat``: a profile's own heat layer (``fit_heat``) in place of the network's."""
        self.model = model
        self.net = read_onnx(model)
        self._closer_net: cv2.dnn.Net | None = None  # closer looks, at one fixed input size
        # The close-photo pass at a third of the scale: its own copy, so that neither copy
        # is reshaped from frame to frame (that costs more than the pass).
        self._whole_net: cv2.dnn.Net | None = None
        self.threshold = threshold
        self.input_side = input_side
        self.scale = 1.0  # the scale the last ``find`` read the frame at
        # keep_features: ``find`` gives the network's features at each centre (the judge
        # reads them), from the pass that found it.
        self.keep_features = False
        # A centre under ``speck`` of the sure centres' side is dropped as a speck of dirt.
        # A reader with a judge lowers it (SPECK_JUDGED): the judge weighs a small place
        # against the others itself, and where phantoms set the size (a board's large
        # spaces) SPECK dropped real dice.
        self.speck = SPECK
        self.max_places = MAX_PLACES
        self.last: tuple[np.ndarray | None, float, float] = (None, 1.0, 1.0)
        self.last_heat: tuple[np.ndarray, float, float] | None = None
        # Files from before the "features" output can find dice but not be taught.
        self.teachable = "features" in self.net.getUnconnectedOutLayersNames()
        self.heat = None
        if heat is not None:
            if heat.get("fingerprint") != model_fingerprint(model):
                raise ProfileError(
                    "the profile's dice finder layer was taught on another version of the "
                    "finder network; re-create the profile with 'companion calibrate dice "
                    "--labeled' (the same labelled photos will do)")
            self.heat = (np.array(heat["weights"], np.float32), float(heat["bias"]))

    def maps(self, image: np.ndarray, scale: float, features: bool = False,
             net: cv2.dnn.Net | None = None
             ) -> tuple[np.ndarray, np.ndarray | None, float, float]:
        """The network's maps (heat, log side, offsets) for the frame scaled by about
        ``scale``, its features when asked, and the exact x and y scales used."""
        net = self.net if net is None else net
        h0, w0 = image.shape[:2]
        scale = min(scale, MAX_INPUT / max(h0, w0))
        if scale > 1.0:
            scale = min(scale, max(1.0, np.sqrt(MAX_PIXELS / (h0 * w0))))
        # Sides must halve evenly four times (the network works down to 1/16).
        nw = max(32, int(round(w0 * scale / 16)) * 16)
        nh = max(32, int(round(h0 * scale / 16)) * 16)
        sx, sy = nw / w0, nh / h0
        # Bilinear, as the network was taught, unless a large frame is shrunk much (aliasing).
        small = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA
                           if sx < 0.5 else cv2.INTER_LINEAR)
        # The same blob cv2.dnn.blobFromImage makes, ten times faster.
        blob = np.ascontiguousarray(small.transpose(2, 0, 1)[None], dtype=np.float32)
        blob *= np.float32(1.0 / 255.0)
        net.setInput(blob)
        if features or self.heat is not None:
            maps, feats = net.forward(["maps", "features"])
            maps, feats = maps[0], feats[0]
            if self.heat is not None:
                w, b = self.heat
                maps = maps.copy()
                maps[0] = _sigmoid(np.tensordot(w, feats, 1) + b)
            return maps, feats, sx, sy
        return net.forward("maps")[0], None, sx, sy

    def _peaks(self, image: np.ndarray, scale: float, threshold: float | None = None,
               net: cv2.dnn.Net | None = None) -> list[tuple[float, ...]]:
        """Die centres ``(x, y, side, side in input pixels, heat)`` with the frame scaled by
        ``scale`` (positions and sides in frame pixels), heat over ``threshold`` (by default
        the finder's)."""
        maps, feats, sx, sy = self.maps(image, scale, features=self.keep_features, net=net)
        self.scale = scale
        self.last = (feats, sx, sy)
        heat = maps[0]
        self.last_heat = (heat, sx, sy)
        floor = self.threshold if threshold is None else threshold
        peak = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > floor)
        iy, ix = np.nonzero(peak)
        side = np.exp(maps[1, iy, ix])
        x = (ix + maps[2, iy, ix]) * (STRIDE / sx)
        y = (iy + maps[3, iy, ix]) * (STRIDE / sy)
        return list(zip(x.tolist(), y.tolist(), (side / np.sqrt(sx * sy)).tolist(),
                        side.tolist(), heat[iy, ix].tolist(), strict=True))

    def find(self, image: np.ndarray, die_side: float | None = None,
             threshold: float | None = None, cover: bool = True) -> Detection:
        """The dice in ``image``: centres whose heat is over ``threshold`` (by default the
        finder's own), one per die. ``cover``: measure the share of the frame a hand covers
        (0 when not; the reader measures it once a frame itself)."""
        if image is None or image.ndim != 3 or image.size == 0:
            raise ValueError("finding dice needs a colour (BGR) image")
        if die_side:
            scale = TARGET_SIDE / die_side
        else:
            scale = self.input_side / min(image.shape[:2])
        # Asked for a lower threshold, the places over the usual one are found exactly as
        # without it (scale, suppression, specks); the others are added where they do not
        # touch those.
        floor = self.threshold if threshold is None else min(threshold, self.threshold)

        def usual(found: list[tuple[float, ...]]) -> list[tuple[float, ...]]:
            return [p for p in found if p[4] > self.threshold]

        peaks = self._peaks(image, scale, floor)
        if not die_side:
            for _ in range(2):
                if usual(peaks) or scale >= 1.0:
                    break
                # Nothing at this scale: dice may be too small to see in it.
                scale = min(1.0, 2.0 * scale)
                peaks = self._peaks(image, scale, floor)
            if usual(peaks):
                seen = _dice_side(usual(peaks), 3)
                if not GOOD_SIDES[0] <= seen <= GOOD_SIDES[1]:
                    scale *= TARGET_SIDE / seen
                    peaks = self._peaks(image, scale, floor)
        kept = _suppress(usual(peaks))
        closer: dict[tuple[float, ...], np.ndarray | None] = {}  # places looked at closer
        if kept:
            least = self.speck * _dice_side(kept, 2)
            kept = [p for p in kept if p[2] >= least]
            kept = self._split_pairs(image, kept, closer)
        weak = [p for p in peaks if p[4] <= self.threshold]
        if kept and not die_side:
            kept, weak = self._whole_dice(image, scale, kept, weak, closer)
        if weak:
            known = set(kept)
            added = [p for p in _suppress(kept + weak) if p not in known]
            if kept:
                added = [p for p in added if p[2] >= least]
            kept += added
        peaks = kept
        if len(peaks) > self.max_places:
            peaks = sorted(peaks, key=lambda p: -p[4])[:self.max_places]
        blobs = tuple(Blob(x, y, s, s, 0.0, heat=h) for x, y, s, _, h in peaks)
        # With the specks gone, the plain median of the dice left sizes the window dice are
        # read through; the median by area (larger) read 0.9 points fewer held-out dice.
        # Places under the finder's own threshold do not size it either.
        sized = [b.side for b in blobs if b.heat > self.threshold] or [b.side for b in blobs]
        side = float(np.median(sized)) if blobs else (die_side or min(image.shape[:2]) / 20.0)
        features = None
        if self.keep_features:
            features = _features_at(self.last, [p[:2] for p in peaks])
            for k, p in enumerate(peaks):
                if closer.get(p) is not None:
                    features[k] = closer[p]
        return Detection(blobs, side, obstruction_share(image, side) if cover else 0.0,
                         features=features)

    def _whole_dice(self, image: np.ndarray, scale: float, kept: list[tuple[float, ...]],
                    weak: list[tuple[float, ...]], closer: dict
                    ) -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
        """A close photo: the frame's places may be the pips of dice too large for the frame's
        scale (a pip looks like a die showing 1). The frame read at about a third of the scale
        shows such dice whole. Sure dice there, several times the size of the places, replace
        the places they hold, when those look like pips (each under half the die, at most
        nine on it, two or more or one less sure than the die) and make up most of the
        frame's places: a tray full of dice may look like one large die too, but dice lie
        outside it as well. The whole dice's features go in ``closer``."""
        h, w = image.shape[:2]
        coarse = WHOLE_STEP * scale
        if min(h, w) * coarse < 2 * TARGET_SIDE:
            return kept, weak
        side = float(np.median([p[2] for p in kept]))
        if self._whole_net is None:
            self._whole_net = read_onnx(self.model)
        frame_pass = (self.last, self.last_heat, self.scale)
        found = _suppress([p for p in self._peaks(image, coarse, net=self._whole_net)
                           if p[4] >= SURE and p[2] >= WHOLE * side])
        cells = _features_at(self.last, [p[:2] for p in found]) \
            if self.keep_features and found else [None] * len(found)
        self.last, self.last_heat, self.scale = frame_pass

        def on(q: tuple[float, ...], die: tuple[float, ...]) -> bool:
            return max(abs(q[0] - die[0]), abs(q[1] - die[1])) <= 0.5 * die[2]

        def part_of(q: tuple[float, ...], die: tuple[float, ...]) -> bool:
            return on(q, die) and q[2] <= 0.5 * die[2]

        whole: dict[tuple[float, ...], list[tuple[float, ...]]] = {}
        pips: set[tuple[float, ...]] = set()  # whole dice whose parts are surely pips
        for die in found:
            parts = [q for q in kept if part_of(q, die) and not any(q in p for p in whole.values())]
            # (not where the frame's scale found that die whole already: only the specks
            # of a patterned cloth on it are that small)
            found_whole = any(on(q, die) and not part_of(q, die) for q in kept)
            if parts and die[4] >= PIP_SURE and len(parts) <= PIP_PARTS and not found_whole \
                    and all(q[2] <= PIP_SHARE * die[2] for q in parts):
                whole[die] = parts
                pips.add(die)
            elif len(parts) <= WHOLE_PARTS and (len(parts) >= 2
                                                or (parts and die[4] > parts[0][4])):
                whole[die] = parts
        if sum(len(p) for p in whole.values()) < WHOLE_SHARE * len(kept):
            whole = {die: parts for die, parts in whole.items() if die in pips}
        for die, cell in zip(found, cells, strict=True):
            if die in whole:
                kept = [q for q in kept if q not in whole[die]] + [die]
                weak = [q for q in weak if not part_of(q, die)]
                closer[die] = cell
        return kept, weak

    def _split_pairs(self, image: np.ndarray, kept: list[tuple[float, ...]],
                     closer: dict) -> list[tuple[float, ...]]:
        """Places much larger than the frame's dice, looked at again alone and closer: two
        touching dice the frame's scale shows as one elongated die come apart there (the
        places found closer go in ``closer`` with their features)."""
        if self.last_heat is None:  # no pass of the network's own to look at
            return kept
        side = float(np.median([p[2] for p in kept]))
        long = [(_elongation(*self.last_heat, p, self.threshold), p) for p in kept
                if p[2] >= SPLIT * side]
        # The longest few: a frame of dots can offer dozens, and each look costs a pass.
        big = [p for e, p in sorted(long, key=lambda ep: -ep[0])[:CLOSER_LOOKS]
               if e >= ELONGATED]
        if not big:
            return kept
        h, w = image.shape[:2]
        # A square window the network reads at CLOSER_INPUT pixels, the frame's dice
        # CLOSER_SIDE wide in it: one input size, so its own copy of the network is never
        # reshaped (reshaping between two sizes each frame cost more than the reading).
        reach = int(round(CLOSER_INPUT * side / CLOSER_SIDE))
        if reach > min(h, w):
            return kept
        if self._closer_net is None:
            self._closer_net = read_onnx(self.model)
        frame_pass = (self.last, self.last_heat, self.scale)
        out = [p for p in kept if p not in big]
        for p in big:
            x, y, s = p[:3]
            x0 = int(np.clip(round(x - reach / 2), 0, w - reach))
            y0 = int(np.clip(round(y - reach / 2), 0, h - reach))
            found = self._peaks(image[y0:y0 + reach, x0:x0 + reach], CLOSER_INPUT / reach,
                                net=self._closer_net)
            found = _suppress([(fx + x0, fy + y0, *rest) for fx, fy, *rest in found
                               if max(abs(fx + x0 - x), abs(fy + y0 - y)) <= 0.6 * s])
            # Two whole dice, each fairly sure, where there was one, neither of them a die
            # found already beside it; anything else (one die and a piece of it, a pip, a
            # cluster) stays as the frame's scale saw it.
            others = [q for q in kept if q is not p]
            found = [f for f in found if f[4] >= SPLIT_HEAT
                     and f[2] >= SPLIT_SIDE * max(side, s) and not _beside(f, others)]
            if len(found) != 2:
                out.append(p)
                continue
            cells = _features_at(self.last, [(fx - x0, fy - y0) for fx, fy, *_ in found]) \
                if self.keep_features else [None] * len(found)
            for f, cell in zip(found, cells, strict=True):
                closer[f] = cell
                out.append(f)
        self.last, self.last_heat, self.scale = frame_pass
        return _suppress(out)


def _beside(place: tuple[float, ...], others: list[tuple[float, ...]]) -> bool:
    """Whether ``place`` is one of ``others`` found again (closer than SUPPRESS dice)."""
    return any(np.hypot(place[0] - q[0], place[1] - q[1]) <= SUPPRESS * min(place[2], q[2])
               for q in others)


def _elongation(heat: np.ndarray, sx: float, sy: float, place: tuple[float, ...],
                floor: float) -> float:
    """How long the finder's heat over ``floor`` round a place is against how wide (the
    ratio of its two spreads): about round for a die, long for two touching dice seen as
    one."""
    h, w = heat.shape
    cx, cy = place[0] * sx / STRIDE, place[1] * sy / STRIDE
    r = 0.9 * place[2] * np.sqrt(sx * sy) / STRIDE
    y0, y1 = int(max(0, cy - r)), int(min(h, cy + r + 1))
    x0, x1 = int(max(0, cx - r)), int(min(w, cx + r + 1))
    win = heat[y0:y1, x0:x1]
    iy, ix = np.nonzero(win > floor)
    dy, dx = iy + (y0 - cy), ix + (x0 - cx)
    inside = dy * dy + dx * dx <= r * r
    if inside.sum() < 3:
        return 1.0
    weight, ys, xs = win[iy[inside], ix[inside]], dy[inside], dx[inside]
    total = weight.sum()
    mx, my = (weight * xs).sum() / total, (weight * ys).sum() / total
    vxx = (weight * (xs - mx) ** 2).sum() / total
    vyy = (weight * (ys - my) ** 2).sum() / total
    vxy = (weight * (xs - mx) * (ys - my)).sum() / total
    # the two spreads: eigenvalues of the 2 x 2 covariance
    mid, half = (vxx + vyy) / 2, np.sqrt(((vxx - vyy) / 2) ** 2 + vxy * vxy)
    small, large = mid - half, mid + half
    return float(large / max(small, 1e-6))


def _features_at(last: tuple[np.ndarray | None, float, float],
                 points: Sequence[tuple[float, float]]) -> np.ndarray:
    """A pass's features (``keep_features``) in the cell of each point (frame pixels)."""
    feats, sx, sy = last
    if feats is None:
        raise ValueError("the finder kept no features: set keep_features before find()")
    n, gh, gw = feats.shape
    out = np.zeros((len(points), n), np.float32)
    for k, (x, y) in enumerate(points):
        cx = int(np.clip(x * sx / STRIDE, 0, gw - 1))
        cy = int(np.clip(y * sy / STRIDE, 0, gh - 1))
        out[k] = feats[:, cy, cx]
    return out


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -60.0, 60.0)))


def network_heat(maps: np.ndarray, feats: np.ndarray) -> tuple[np.ndarray, float]:
    """The network's own heat layer, recovered from one frame's maps and features: the heat
    is a sigmoid of a linear layer over the features, so a least-squares fit of its logit is
    exact (no model-file parsing needed)."""
    p = maps[0].ravel().astype(np.float64)
    keep = (p > 1e-6) & (p < 1 - 1e-6)
    x = feats.reshape(feats.shape[0], -1).T[keep].astype(np.float64)
    logit = np.log(p[keep] / (1 - p[keep]))
    sol, *_ = np.linalg.lstsq(np.hstack([x, np.ones((len(x), 1))]), logit, rcond=None)
    return sol[:-1], float(sol[-1])


def heat_targets(dice: Sequence[tuple[float, float, float]],
                 ignore: Sequence[tuple[float, float, float, float]], n_y: int, n_x: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the heat should be, as the finder is taught (``train_dice_detector.py``) and a
    profile's layer too: ``(heat, centre, weight)`` over ``n_y x n_x`` cells. ``dice`` are
    ``(x, y, side)`` and ``ignore`` boxes ``(x0, y0, x1, y1)`` in input pixels. Heat is 1 in
    each centre's cell with a Gaussian the size of the die around it; no weight in ignore
    boxes."""
    yy, xx = np.mgrid[0:n_y, 0:n_x].astype(np.float32)
    heat = np.zeros((n_y, n_x), np.float32)
    centre = np.zeros((n_y, n_x), bool)
    for x, y, side in dice:
        cx, cy = x / STRIDE, y / STRIDE
        if not (0 <= cx < n_x and 0 <= cy < n_y):
            continue
        sigma = max(0.6, side / STRIDE / 6.0)
        heat = np.maximum(heat, np.exp(-((xx - cx + 0.5) ** 2 + (yy - cy + 0.5) ** 2)
                                       / (2 * sigma * sigma)))
        heat[int(cy), int(cx)] = 1.0
        centre[int(cy), int(cx)] = True
    weight = np.ones((n_y, n_x), np.float32)
    for x0, y0, x1, y1 in ignore:
        a, b = int(max(0, x0 // STRIDE)), int(min(n_x, x1 // STRIDE + 1))
        c, d = int(max(0, y0 // STRIDE)), int(min(n_y, y1 // STRIDE + 1))
        weight[c:d, a:b] = 0.0
    return heat, centre, weight


def _item_targets(item: LabeledImage, shape: tuple[int, int], sx: float, sy: float
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``heat_targets`` of a labelled photo read at scales ``sx, sy``, as flat arrays
    ``(centre, heat, weight)``."""
    dice = [(b.cx * sx, b.cy * sy, float(np.sqrt(b.w * sx * b.h * sy))) for b in item.boxes]
    ignore = [((g.cx - g.w / 2) * sx, (g.cy - g.h / 2) * sy, (g.cx + g.w / 2) * sx,
               (g.cy + g.h / 2) * sy) for g in item.ignore]
    heat, centre, weight = heat_targets(dice, ignore, *shape)
    return centre.ravel(), heat.ravel(), weight.ravel()


def fit_heat(items: Sequence[LabeledImage], model: str | Path = MODEL, pull: float = 1e-3,
             steps: int = 500, folds: int = 3,
             progress: Callable[[int, int], None] | None = None) -> tuple[dict | None, dict]:
    """Teach the finder's heat layer on labelled photos; returns ``(heat, counts)``.

    Starts from the network's own layer and stays near it (``pull``), with the focal loss the
    network was trained with. Whether it helps is judged on photos it was not taught on:
    the photos are split in ``folds``, a layer is taught on the others and counted on each
    part. ``counts`` gives the labelled dice, and how many of them the network's layer and
    the taught ones find there, with their extra detections (None from a single photo).
    ``heat`` (taught on all photos) is None unless the taught layers found more dice without
    many more extras, so a profile only carries a layer that helps. Photos are read from disk
    as needed.
    """
    finder = CentreFinder(model)
    if not finder.teachable:
        raise ValueError(f"{model}: this finder network has no 'features' output to teach a "
                         "heat layer on; retrain it with calibration/train_dice_detector.py")
    cells = []
    network = np.zeros(2, int)  # labelled dice the network finds, and its extras
    for k, item in enumerate(items):
        image = _imread(item)
        network += _found_extra(list(finder.find(image).blobs), item)
        maps, feats, sx, sy = finder.maps(image, finder.scale, features=True)
        assert feats is not None
        if k == 0:
            w0, b0 = network_heat(maps, feats)
        # Thinned photo by photo (every cell near a die kept): a photo read enlarged gives
        # tens of thousands of cells, and thousands of photos must not hold them all.
        cells.append(_thinned((feats.reshape(feats.shape[0], -1).T,
                               *_item_targets(item, feats.shape[1:], sx, sy)),
                              max(1, MAX_CELLS // len(items)), seed=k))
        if progress:
            progress(k + 1, len(items))
    cells = _fewer_cells(cells)

    def teach(which: Sequence[int]) -> tuple[np.ndarray, float]:
        x, centre, heat, weight = (np.concatenate(c) for c in zip(
            *(cells[i] for i in which), strict=True))
        return _fit_focal(x.astype(np.float32), centre, heat, weight, w0, b0, pull, steps)

    def count(layer: tuple[np.ndarray, float], which: Sequence[int]) -> np.ndarray:
        finder.heat = (layer[0].astype(np.float32), layer[1])
        return sum((_found_extra(list(finder.find(_imread(items[i])).blobs), items[i])
                    for i in which), np.zeros(2, int))

    n = len(items)
    everyone = list(range(n))
    dice = sum(len(it.boxes) for it in items)
    counts = {"dice": dice, "network_found": int(network[0]), "network_extra": int(network[1]),
              "found": None, "extra": None}
    if n < 2:
        return None, counts  # nothing to check a taught layer on
    taught = np.zeros(2, int)
    for part in (everyone[f::folds] for f in range(min(folds, n))):
        taught += count(teach([i for i in everyone if i not in part]), part)
    counts.update(found=int(taught[0]), extra=int(taught[1]))
    # Extra detections are mostly turned down by the face classifier; missed dice are lost.
    helps = taught[0] > network[0] and taught[1] <= network[1] + max(2, dice // 50)
    if not helps:
        return None, counts
    w, b = teach(everyone)
    heat_layer = {"weights": [round(float(v), 6) for v in w], "bias": round(float(b), 6),
                  "fingerprint": model_fingerprint(model)}
    return heat_layer, counts


def _thinned(cells: tuple[np.ndarray, ...], most: int, seed: int) -> tuple[np.ndarray, ...]:
    """One photo's cells cut to about ``most``: the open table first, then the cells near a
    die (a die filling an enlarged photo); the dice's centres always stay, and the cells
    kept are weighted up to count for those left out. As they were when within ``most``."""
    if len(cells[0]) <= most:
        return cells
    x, centre, heat, weight = cells
    rng = np.random.default_rng(seed)
    keep = centre.copy()
    weight = weight.astype(np.float32)
    for group in (heat > 0.01, heat <= 0.01):  # near a die, then the open table
        group &= ~centre
        room = max(most - int(keep.sum()), 1)
        count = int(group.sum())
        share = min(1.0, room / max(count, 1))
        chosen = group & (rng.random(len(x)) < share)
        weight[chosen] /= share
        keep |= chosen
    return x[keep].copy(), centre[keep], heat[keep], weight[keep]


def _fewer_cells(cells: list[tuple[np.ndarray, ...]]) -> list[tuple[np.ndarray, ...]]:
    """Every cell near a die and a random share of the open table (at most ``OPEN_SHARE``,
    less with many photos), weighted up to count for the cells left out: open table is most
    of a photo and tells the layer little, and the fit's time and memory go with the cells."""
    total = sum(len(c[0]) for c in cells)
    near = sum(int((c[2] > 0.01).sum()) for c in cells)
    share = min(OPEN_SHARE, max(MAX_CELLS - near, 1) / max(total - near, 1))
    rng = np.random.default_rng(0)
    out = []
    for x, centre, heat, weight in cells:
        close = heat > 0.01
        keep = close | (rng.random(len(x)) < share)
        weight = np.where(close, weight, weight / share)
        out.append((x[keep], centre[keep], heat[keep], weight[keep]))
    return out


def _fit_focal(x: np.ndarray, centre: np.ndarray, heat: np.ndarray, weight: np.ndarray,
               w0: np.ndarray, b0: float, pull: float, steps: int) -> tuple[np.ndarray, float]:
    """Full-batch Adam on the focal loss of the heat, pulled towards ``(w0, b0)`` (float32:
    the layer is small and the cells many)."""
    w0 = w0.astype(np.float32)
    w, b = w0.copy(), np.float32(b0)
    n = max(int(centre.sum()), 1)
    # Centres and the rest take different gradients; each cell's constant factor is worked
    # out once, and cells of no weight (ignore boxes) are left out.
    pos, neg = centre & (weight > 0), ~centre & (weight > 0)
    x_pos, x_neg = x[pos], x[neg]
    c_pos = (weight[pos] / n).astype(np.float32)
    c_neg = ((1 - heat[neg]) ** 4 * weight[neg] / n).astype(np.float32)
    m, v = np.zeros(len(w) + 1, np.float32), np.zeros(len(w) + 1, np.float32)
    for t in range(1, steps + 1):
        # d(focal loss)/d(logit): centres pull up, the rest down unless near a centre
        p = np.clip(_sigmoid(x_pos @ w + b), 1e-4, 1 - 1e-4)
        q = 1 - p
        g_pos = c_pos * (2 * q * p * np.log(p) - q * q * q)
        p = np.clip(_sigmoid(x_neg @ w + b), 1e-4, 1 - 1e-4)
        q = 1 - p
        g_neg = c_neg * (p * p * (p - 2 * q * np.log(q)))
        grad = np.concatenate([x_pos.T @ g_pos + x_neg.T @ g_neg + pull * (w - w0),
                               [g_pos.sum() + g_neg.sum() + pull * (b - b0)]]
                              ).astype(np.float32)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        step = 0.05 * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
        w -= step[:-1]
        b -= step[-1]
    return w, float(b)


def _found_extra(blobs: list[Blob], item: LabeledImage) -> np.ndarray:
    """Labelled dice found, and detections no label (nor ignore box) explains."""
    matched, unmatched = match_blobs(blobs, item.boxes)
    extra = sum(not any(g.contains(blobs[i].cx, blobs[i].cy, 0.1) for g in item.ignore)
                for i in unmatched)
    return np.array([len(matched), extra])


def _imread(item: LabeledImage) -> np.ndarray:
    image = cv2.imread(str(item.image), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"{item.image}: cannot be decoded as an image")
    return as_read(image)  # as the reader will read it


def _dice_side(peaks: list[tuple[float, ...]], which: int) -> float:
    """The side of the frame's dice (``peaks[...][which]``): the median over the centres
    the network is sure of, so that specks of dirt, each found as a tiny die, neither set the
    scale nor the window the dice are read through."""
    sure = [p for p in peaks if p[4] >= SURE] or peaks
    sides = np.sort([p[which] for p in sure])
    # Median by area: many specks, each found as a tiny die, weigh less than a few dice.
    area = np.cumsum(sides * sides)
    return float(sides[np.searchsorted(area, area[-1] / 2.0)])


def _suppress(peaks: list[tuple[float, ...]]) -> list[tuple[float, ...]]:
    """One die per place: of two centres closer than half a die the stronger stays, and a
    centre inside a die twice its size is a mark on that die (a pip of a large die)."""
    if not peaks:
        return []
    # Pairwise tests as matrices, a block of centres at a time: a busy table (polka dots
    # read at a large scale) gives thousands of centres; pair by pair in Python that took
    # most of a second, and as one matrix 50 MB for each of its steps.
    ordered = sorted(peaks, key=lambda p: -p[4])
    a = np.array([p[:3] for p in ordered], np.float64)
    kept = np.zeros(len(a), bool)
    for start in range(0, len(a), _BLOCK):
        block = a[start:start + _BLOCK]
        earlier = a[:start][kept[:start]]
        beaten = one_die(block, earlier).any(axis=1)
        among = one_die(block, block)
        for i in range(len(block)):
            if not beaten[i]:
                kept[start + i] = True
                beaten |= among[i]
    k = a[kept]
    # a kept centre on another kept die at least 1.8 times its size is a mark on it
    mark = np.concatenate([_on(k[s:s + _BLOCK], k) for s in range(0, len(k), _BLOCK)])
    return [p for p, m in zip((ordered[i] for i in np.flatnonzero(kept)), mark, strict=True)
            if not m]


_BLOCK = 256  # centres compared at a time in ``_suppress``


def one_die(a: np.ndarray, b: np.ndarray, share: float = SUPPRESS) -> np.ndarray:
    """``[i, j]``: centre ``a[i]`` and centre ``b[j]`` (rows ``x, y, side``) are one die,
    closer than ``share`` of the smaller side."""
    return np.hypot(a[:, None, 0] - b[:, 0], a[:, None, 1] - b[:, 1]) \
        <= share * np.minimum(a[:, None, 2], b[:, 2])


def _on(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether each centre of ``a`` lies on one of the dice ``b`` at least 1.8 times its size."""
    return ((b[:, 2] >= 1.8 * a[:, None, 2])
            & (np.maximum(np.abs(a[:, None, 0] - b[:, 0]), np.abs(a[:, None, 1] - b[:, 1]))
               < 0.4 * b[:, 2])).any(axis=1)


def fit_blobs(image: np.ndarray, blobs: list[Blob] | tuple[Blob, ...], die_side: float
              ) -> list[tuple[Blob, bool]]:
    """Fit found dice tightly (``refine_blobs``); returns ``(blob, fitted)`` for each. A
    fitted blob keeps the finder's heat.

    When no die-shaped body can be fitted (a translucent die, a die like the table), a piece
    of a die smaller than the others is read through a window the size of the other dice; a
    die the network found is read upright in its own window, which it sizes well enough.
    """
    out = []
    for blob, (fitted, ok) in zip(blobs, refine_blobs(image, list(blobs)), strict=True):
        if not ok and blob.side < 0.85 * die_side:
            fitted = Blob(blob.cx, blob.cy, die_side, die_side, blob.angle, blob.fill,
                          blob.heat)
        out.append((fitted, ok))
    return out


def fit_blob(image: np.ndarray, blob: Blob, die_side: float) -> tuple[Blob, bool]:
    """``fit_blobs`` of one blob."""
    return fit_blobs(image, [blob], die_side)[0]


_default: CentreFinder | None = None


def locate_dice(image: np.ndarray, finder: CentreFinder | None = None) -> list[Blob]:
    """Find and fit the dice the way the reader does (``finder``, by default the network
    when its model file is there, the geometric detector otherwise): calibration cuts its
    crops here."""
    global _default
    if finder is not None:
        det = finder.find(image)
    elif not MODEL.exists():
        det = find_dice(image)
    else:
        if _default is None:
            _default = CentreFinder()
        det = _default.find(image)
    return [fitted for fitted, _ in fit_blobs(image, det.blobs, det.die_side)]
