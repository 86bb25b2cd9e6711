"""Is it a die, and how sure is the reading? Calibrated probabilities for each candidate.

The finder proposes places (``centres.py``), the face network reads them (``classify.py``).
On tables they never learned, both are fooled by wood grain, a board's print, a card's art:
their raw scores are high where no die lies. The **judge** takes what both networks saw of a
candidate (the face network's last hidden layer, the finder's features at the centre, its
heat, the die's size against the others, how it stands out from the table around it) and
gives

* ``p_die``: the probability that a die lies there, from a logistic layer taught on
  candidates the networks found on domain-randomised tables (``scenes.py``) and on the dev
  photos, where everything they found that is not a labelled die is a hard negative;
* ``p_face``: the probability that the face read is right, given a die: the face network's
  logits divided by a temperature fitted on held-apart dice (temperature scaling).

Both are calibrated on held-apart scenes (Platt scaling for ``p_die``), so a reading's
confidence ``p_die * p_face`` means what it says: of the readings given 0.9, about nine in
ten are a die showing that face (see the reliability plot in ``docs/vision.md``).
``calibration/train_judge.py`` fits the judge file (``models/NAME_judge.json``); it is tied
to the finder and face networks by their fingerprints.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .crops import die_crop, sobel_magnitude
from .dataset import CROP
from .detect import Blob, byte_medians
from .dnn import forward_crops, read_onnx

MODELS = Path(__file__).with_name("models")
CONTEXT = 2.4  # the context window around a candidate, in die sides
EXTRA = ("heat", "size", "none", "best", "stand_out", "ring_busy", "inside_busy",
         "edges", "fitted")


def fingerprint(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def _logit(p: np.ndarray | float) -> np.ndarray:
    p = np.clip(np.asarray(p, np.float64), 1e-4, 1 - 1e-4)
    return np.log(p / (1 - p))


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -60.0, 60.0)))


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


class FaceNet:
    """The face network run once per crop, giving its last hidden layer and its logits:
    ``NAME.features.onnx`` is the network cut there, and the last (linear) layer is
    recovered once from the full network's outputs by least squares (exact)."""

    def __init__(self, name: str = "d6") -> None:
        full = MODELS / f"{name}_faces.onnx"
        feats = MODELS / f"{name}_faces.features.onnx"
        self.classes = full.with_suffix(".classes.txt").read_text(encoding="utf-8").split()
        self.features = read_onnx(feats)
        self.fingerprint = fingerprint(full)
        net = read_onnx(full)
        last = [n for n in net.getLayerNames() if "Gemm" in n or "InnerProduct" in n]
        if not last:
            raise ValueError(f"{full}: no final linear layer found to read the logits from")
        lid = net.getLayerId(last[-1])
        w, b = net.getParam(lid, 0), net.getParam(lid, 1)
        self.w, self.b = np.ascontiguousarray(w.T, np.float32), b.reshape(-1).astype(np.float32)

    def run(self, crops: list[np.ndarray], turns: tuple[tuple[int, bool], ...] = ((0, False),)
            ) -> tuple[np.ndarray, np.ndarray]:
        """``(features, logits)`` of each crop, averaged over ``turns``."""
        if not crops:
            n = self.w.shape[0]
            return np.zeros((0, n), np.float32), np.zeros((0, len(self.classes)), np.float32)
        views = [np.rot90(c[:, ::-1] if flip else c, k) for c in crops for k, flip in turns]
        blob = np.stack(views).transpose(0, 3, 1, 2).astype(np.float32) / 255.0 - 0.5
        f = forward_crops(self.features, blob).reshape(len(crops), len(turns), -1).mean(axis=1)
        return f, f @ self.w + self.b


_N = CROP
_R = np.maximum(*np.abs(np.mgrid[0:_N, 0:_N] - (_N - 1) / 2)) / (_N / CONTEXT)
_INSIDE = np.flatnonzero(_R.ravel() < 0.35)
_RING = np.flatnonzero(_R.ravel() > 0.75)
_BORDER = np.flatnonzero(((_R > 0.4) & (_R < 0.65)).ravel())


def context_features(view: np.ndarray, blob: Blob, side: float) -> np.ndarray:
    """How a candidate stands out from the table around it: the colour distance between
    its middle and a ring of table around it, how busy the ring and the middle are (wood
    grain and print are busy everywhere; a die is busy inside only), and how strong its
    outline is against the inside."""
    return context_batch(view, [blob], side)[0]


def context_batch(view: np.ndarray, blobs: list[Blob], side: float) -> np.ndarray:
    """``context_features`` of many candidates at once (one row each): the windows are
    cut one by one and measured together."""
    if not blobs:
        return np.zeros((0, 4), np.float32)
    wins = np.stack([die_crop(view, b.cx, b.cy, side * CONTEXT, b.angle, CROP)
                     for b in blobs])
    n = len(blobs)
    lab = cv2.cvtColor(wins.reshape(n * _N, _N, 3), cv2.COLOR_BGR2Lab).reshape(n, _N * _N, 3)
    mid = byte_medians(lab[:, _INSIDE]).astype(np.float32)
    out = byte_medians(lab[:, _RING]).astype(np.float32)
    d = mid - out
    stand = np.sqrt(0.5 * d[:, 0] ** 2 + d[:, 1] ** 2 + d[:, 2] ** 2)
    g = cv2.cvtColor(wins.reshape(n * _N, _N, 3), cv2.COLOR_BGR2GRAY).reshape(n, _N, _N)
    mag = sobel_magnitude(g.astype(np.float32)).reshape(n, -1)
    ring_busy = mag[:, _RING].mean(axis=1)
    inside_busy = mag[:, _INSIDE].mean(axis=1)
    edges = mag[:, _BORDER].mean(axis=1)
    return np.column_stack([np.log1p(stand), np.log1p(ring_busy), np.log1p(inside_busy),
                            np.log1p(edges) - np.log1p(ring_busy)]).astype(np.float32)


@dataclass
class Candidate:
    """What the judge reads of one candidate."""

    features: np.ndarray  # the judge's input vector
    logits: np.ndarray  # the face network's logits


class Judge:
    """A fitted judge file: ``p_die`` and ``p_face`` for candidates of one face set."""

    def __init__(self, path: str | Path) -> None:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        self.path = Path(path)
        self.data = data
        self.classes = list(data["classes"])
        self.mean = np.array(data["mean"], np.float32)
        self.scale = np.array(data["scale"], np.float32)
        self.layers = [(np.array(w, np.float32), np.array(b, np.float32))
                       for w, b in data["layers"]]
        self.platt = tuple(data["platt"])
        self.temperature = float(data["temperature"])
        self.die_below = float(data["die_below"])
        self.unknown_below = float(data["unknown_below"])
        self.fingerprints = dict(data["fingerprints"])

    @classmethod
    def for_set(cls, name: str) -> Judge | None:
        path = MODELS / f"{name}_judge.json"
        return cls(path) if path.exists() else None

    def matches(self, finder: str, faces: str) -> bool:
        """Taught on these very networks, and on the inputs this code measures."""
        named = list(self.data.get("inputs", []))[-len(EXTRA):]
        return self.fingerprints == {"finder": finder, "faces": faces} and named == list(EXTRA)

    def die_logit(self, x: np.ndarray) -> np.ndarray:
        """The uncalibrated die logit of each row of ``x``."""
        z = (np.asarray(x, np.float32) - self.mean) / self.scale
        for k, (w, b) in enumerate(self.layers):
            z = z @ w.T + b
            if k < len(self.layers) - 1:
                z = np.maximum(z, 0.0)
        return z[:, 0]

    def p_die(self, x: np.ndarray) -> np.ndarray:
        a, b = self.platt
        return sigmoid(a * self.die_logit(x) + b)

    def p_faces(self, logits: np.ndarray) -> np.ndarray:
        """Probabilities of the faces (``none`` left out), temperature-scaled."""
        faces = [i for i, c in enumerate(self.classes) if c != "none"]
        return softmax(np.asarray(logits, np.float64)[:, faces] / self.temperature)


def judge_inputs(face_feats: np.ndarray, logits: np.ndarray, finder_feats: np.ndarray,
                 heat: np.ndarray, size: np.ndarray, context: np.ndarray,
                 fitted: np.ndarray, classes: list[str]) -> np.ndarray:
    """The judge's input rows (see ``EXTRA`` for the named columns at the end)."""
    none = classes.index("none") if "none" in classes else None
    p = softmax(np.asarray(logits, np.float64))
    p_none = p[:, none] if none is not None else np.zeros(len(p))
    faces = np.delete(p, none, axis=1) if none is not None else p
    extra = np.column_stack([
        _logit(heat), np.log(np.maximum(size, 1e-3)), _logit(p_none), _logit(faces.max(axis=1)),
        context, fitted.astype(np.float32)])
    return np.hstack([face_feats, finder_feats, extra]).astype(np.float32)


# ------------------------------------------------------------------------------ fitting

def fit_layers(x: np.ndarray, y: np.ndarray, weight: np.ndarray | None = None,
               hidden: int = 0, l2: float = 1e-3, steps: int = 1500, seed: int = 0
               ) -> tuple[np.ndarray, np.ndarray, list]:
    """Logistic regression (``hidden`` = 0) or one hidden ReLU layer, fitted by full-batch
    Adam on the weighted log loss; returns ``(mean, scale, layers)``."""
    x = np.asarray(x, np.float64)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    z = ((x - mean) / scale).astype(np.float32)  # float32: twice as fast, as exact as needed
    y = np.asarray(y, np.float32)
    wt = np.ones(len(y)) if weight is None else np.asarray(weight, np.float64)
    wt = (wt / wt.sum()).astype(np.float32)
    rng = np.random.default_rng(seed)
    d = z.shape[1]
    if hidden:
        params = [rng.normal(0, np.sqrt(2 / d), (hidden, d)), np.zeros(hidden),
                  rng.normal(0, np.sqrt(1 / hidden), (1, hidden)), np.zeros(1)]
    else:
        params = [np.zeros((1, d)), np.zeros(1)]
    params = [p.astype(np.float32) for p in params]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    for t in range(1, steps + 1):
        if hidden:
            w1, b1, w2, b2 = params
            h = z @ w1.T + b1
            a = np.maximum(h, 0)
            out = (a @ w2.T + b2)[:, 0]
            g = (sigmoid(out) - y) * wt
            gw2 = g[None, :] @ a + l2 * w2
            gb2 = np.array([g.sum()])
            ga = g[:, None] @ w2 * (h > 0)
            gw1 = ga.T @ z + l2 * w1
            gb1 = ga.sum(axis=0)
            grads = [gw1, gb1, gw2, gb2]
        else:
            w, b = params
            out = (z @ w.T + b)[:, 0]
            g = (sigmoid(out) - y) * wt
            grads = [g[None, :] @ z + l2 * w, np.array([g.sum()])]
        lr = 0.02 * (0.5 * (1 + np.cos(np.pi * t / steps)))
        for p, gr, mm, vv in zip(params, grads, m, v, strict=True):
            mm *= 0.9
            mm += 0.1 * gr
            vv *= 0.999
            vv += 0.001 * gr * gr
            p -= lr * (mm / (1 - 0.9 ** t)) / (np.sqrt(vv / (1 - 0.999 ** t)) + 1e-8)
    layers = [(params[i].astype(np.float64), params[i + 1].astype(np.float64))
              for i in range(0, len(params), 2)]
    return mean, scale, layers


def fit_platt(logit: np.ndarray, y: np.ndarray, steps: int = 500) -> tuple[float, float]:
    """``a, b`` so that ``sigmoid(a * logit + b)`` is calibrated on held-apart data."""
    a, b = 1.0, 0.0
    logit = np.asarray(logit, np.float64)
    y = np.asarray(y, np.float64)
    for _ in range(steps):  # Newton steps on a 2-parameter log loss
        p = sigmoid(a * logit + b)
        g = np.array([((p - y) * logit).sum(), (p - y).sum()])
        w = p * (1 - p) + 1e-9
        hess = np.array([[(w * logit * logit).sum(), (w * logit).sum()],
                         [(w * logit).sum(), w.sum()]]) + 1e-6 * np.eye(2)
        step = np.linalg.solve(hess, g)
        a, b = a - step[0], b - step[1]
        if np.abs(step).max() < 1e-7:
            break
    return float(a), float(b)


def fit_temperature(logits: np.ndarray, truth: np.ndarray) -> float:
    """The temperature that makes the faces' softmax calibrated (least log loss, searched
    on a log grid and refined)."""
    logits = np.asarray(logits, np.float64)
    idx = np.arange(len(truth))

    def loss(t: float) -> float:
        p = softmax(logits / t)
        return float(-np.log(np.clip(p[idx, truth], 1e-12, 1)).mean())

    grid = np.exp(np.linspace(np.log(0.2), np.log(10), 60))
    best = float(grid[int(np.argmin([loss(t) for t in grid]))])
    for step in (0.05, 0.01):
        cands = best * np.exp(np.arange(-5, 6) * step)
        best = float(cands[int(np.argmin([loss(t) for t in cands]))])
    return best


def reliability(conf: np.ndarray, right: np.ndarray, bins: int = 10
                ) -> list[tuple[float, float, int]]:
    """``(mean confidence, share right, count)`` per confidence bin."""
    conf, right = np.asarray(conf), np.asarray(right, np.float64)
    out = []
    edges = np.linspace(0, 1, bins + 1)
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        sel = (conf >= lo) & ((conf < hi) if hi < 1 else (conf <= hi))
        if sel.any():
            out.append((float(conf[sel].mean()), float(right[sel].mean()), int(sel.sum())))
    return out


def expected_calibration_error(conf: np.ndarray, right: np.ndarray, bins: int = 10) -> float:
    rel = reliability(conf, right, bins)
    n = sum(c for _, _, c in rel)
    return float(sum(c * abs(m - r) for m, r, c in rel) / max(n, 1))


__all__ = ["EXTRA", "FaceNet", "Judge", "context_batch", "context_features",
           "expected_calibration_error", "fit_layers", "fit_platt", "fit_temperature",
           "judge_inputs", "reliability"]
