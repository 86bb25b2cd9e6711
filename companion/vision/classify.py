"""Tell which face a die crop shows.

Two classifiers behind one call, ``classify(crops) -> [(face, confidence)]``:

* ``TemplateClassifier``: correlates the crop's marks with a profile's face templates at four
  quarter turns and small shifts. Works for any face art (pips, numerals, emblems) and learns
  from a handful of labelled photos.
* ``NetClassifier``: a small ONNX network run by cv2.dnn, used when no profile is given (see
  ``calibration/train_face_model.py``).
* ``HeadClassifier``: a profile's own linear classifier on the features the d6 network
  computes for a crop (its last hidden layer, averaged over the crop and its half turn).
  The features were learned from thousands of real dice, so a few labelled photos of a new
  kind of die (an emblem for the six, numerals, symbols) are enough to teach it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import cv2
import numpy as np

from .dataset import CROP, NONE
from .dnn import forward_crops, read_onnx
from .profile import TEMPLATE, DiceProfile, ProfileError

MODELS = Path(__file__).with_name("models")
_OFF = (CROP - TEMPLATE) // 2
_SHIFTS = [(dx, dy) for dy in (-2, -1, 0, 1, 2) for dx in (-2, -1, 0, 1, 2)]


def _face_mask(n: int) -> np.ndarray:
    """The die's top face inside a crop (the crop has a thin rim of table around it)."""
    yy, xx = np.mgrid[0:n, 0:n]
    cheb = np.maximum(np.abs(xx - (n - 1) / 2), np.abs(yy - (n - 1) / 2)) / n
    return cheb <= 0.42


_FACE = _face_mask(CROP)


def body_lab(crop: np.ndarray) -> np.ndarray:
    """Lab colour of the die body: the median of the face, then the median of the half of
    the face nearest to it, so large marks (a heart, a numeral) do not tint it."""
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2Lab).astype(np.float32)
    face = lab[_FACE if crop.shape[0] == CROP else _face_mask(crop.shape[0])]
    m = np.median(face, axis=0)
    d = np.abs(face - m).sum(axis=1)
    return np.median(face[d <= np.median(d)], axis=0).astype(np.float32)


def body_bgr(crop: np.ndarray) -> tuple[int, int, int]:
    lab = body_lab(crop).astype(np.uint8).reshape(1, 1, 3)
    b, g, r = cv2.cvtColor(lab, cv2.COLOR_Lab2BGR)[0, 0]
    return int(b), int(g), int(r)


def ink_map(crop: np.ndarray) -> np.ndarray:
    """How far each pixel of a ``CROP`` x ``CROP`` die crop is from the body colour, 0..1.

    Scaled by its own high percentile, so dark-on-light, light-on-dark and coloured marks all
    look alike and the light level does not matter.
    """
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2Lab).astype(np.float32)
    d = lab - body_lab(crop)
    ink = np.sqrt(d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
    ink = cv2.GaussianBlur(ink, (0, 0), 0.8)
    inner = ink[_OFF:_OFF + TEMPLATE, _OFF:_OFF + TEMPLATE]
    top = float(np.percentile(inner, 98))
    return np.clip(ink / max(top, 8.0), 0.0, 1.0)


def template_of(crop: np.ndarray) -> np.ndarray:
    """The 24 x 24 centre of the ink map as uint8: what a profile stores per face sample."""
    ink = ink_map(crop)
    return (ink[_OFF:_OFF + TEMPLATE, _OFF:_OFF + TEMPLATE] * 255).round().astype(np.uint8)


def _norm_rows(m: np.ndarray) -> np.ndarray:
    m = m - m.mean(axis=1, keepdims=True)
    return m / (np.linalg.norm(m, axis=1, keepdims=True) + 1e-6)


class TemplateClassifier:
    """Match crops against a profile's templates.

    >>> from companion.vision.defaults import default_profile
    >>> clf = TemplateClassifier(default_profile("d6"))
    >>> sorted(clf.faces)
    ['1', '2', '3', '4', '5', '6']
    """

    def __init__(self, profile: DiceProfile) -> None:
        self.profile = profile
        self.faces = profile.faces
        rows, owners = [], []
        for fi, face in enumerate(self.faces):
            for t in profile.templates[face]:
                t = t.astype(np.float32) / 255.0
                for k in range(4):
                    rows.append(np.rot90(t, k).ravel())
                    owners.append(fi)
        self.bank = _norm_rows(np.array(rows, np.float32))
        self.owner = np.array(owners)

    def scores(self, crop: np.ndarray) -> np.ndarray:
        """Best correlation of the crop with each face (any quarter turn, small shift)."""
        ink = ink_map(crop)
        wins = np.array([
            ink[_OFF + dy:_OFF + dy + TEMPLATE, _OFF + dx:_OFF + dx + TEMPLATE].ravel()
            for dx, dy in _SHIFTS
        ], np.float32)
        sims = (_norm_rows(wins) @ self.bank.T).max(axis=0)
        out = np.full(len(self.faces), -1.0, np.float32)
        np.maximum.at(out, self.owner, sims)
        return out

    def classify(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        result = []
        for crop in crops:
            s = self.scores(crop)
            order = np.argsort(s)[::-1]
            best = float(s[order[0]])
            second = float(s[order[1]]) if len(order) > 1 else -1.0
            # Sure when the match is good and clearly better than any other face.
            conf = np.clip((best - 0.35) / 0.35, 0, 1) * np.clip((best - second) / 0.06, 0, 1)
            result.append((self.faces[order[0]], float(conf)))
        return result


class NetClassifier:
    """Run the d6 face network through cv2.dnn (CPU), averaging four quarter turns.

    Returns face ``"none"`` for a crop that is not a die at all.
    """

    # A die read less surely than this is read again, turned (and, for pip faces, mirrored),
    # and the two readings are averaged: it costs a network pass on the few unsure dice only.
    SECOND_LOOK = 0.9

    def __init__(self, model: str | Path, views: int = 1, mirror: bool = False) -> None:
        model = Path(model)
        self.net = read_onnx(model)
        names = model.with_suffix(".classes.txt")
        self.classes = names.read_text(encoding="utf-8").split()
        # Averaging quarter turns (and, for pip faces, mirror images) of every crop costs one
        # network pass per view; 1 view (and a second look at unsure dice) is the default.
        self.views = max(1, min(views, 8 if mirror else 4))
        turns = [(k, False) for k in range(4)] + [(k, True) for k in range(4)]
        self.turns = [turns[i] for i in (0, 5, 2, 7, 1, 4, 3, 6)] if mirror else turns[:4]

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        if not crops:
            return np.zeros((0, len(self.classes)), np.float32)
        p = self._mean(crops, self.turns[:self.views])
        if self.views == 1:
            unsure = np.flatnonzero(p.max(axis=1) < self.SECOND_LOOK)
            if len(unsure):
                again = self._mean([crops[i] for i in unsure], self.turns[1:2])
                p[unsure] = (p[unsure] + again) / 2.0
        return p

    def _mean(self, crops: list[np.ndarray], turns: list[tuple[int, bool]]) -> np.ndarray:
        """Class probabilities of each crop, averaged over its ``turns`` (quarter turns,
        mirrored or not)."""
        views = [np.rot90(c[:, ::-1] if flip else c, k) for c in crops for k, flip in turns]
        blob = np.stack(views).transpose(0, 3, 1, 2).astype(np.float32) / 255.0 - 0.5
        logits = forward_crops(self.net, blob).reshape(len(crops), len(turns), -1)
        e = np.exp(logits - logits.max(axis=2, keepdims=True))
        p = e / e.sum(axis=2, keepdims=True)
        return p.mean(axis=1)

    def classify(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        p = self.probabilities(crops)
        idx = p.argmax(axis=1)
        return [(self.classes[i], float(p[j, i])) for j, i in enumerate(idx)]


FEATURE_TURNS = (0, 2)  # quarter turns of each crop whose features a profile averages


class FeatureNet:
    """Face networks cut after their last hidden layer (``NAME.features.onnx``); ``names``
    joins several with "+" (their features side by side). ``turns`` gives a network the
    quarter turns of each crop it averages over, when not ``FEATURE_TURNS``."""

    def __init__(self, names: str, turns: dict[str, list[int]] | None = None) -> None:
        self.nets = []
        self.turns = [tuple((turns or {}).get(name, FEATURE_TURNS)) for name in names.split("+")]
        digest = hashlib.sha256()
        for name in names.split("+"):
            path = MODELS / f"{name}.features.onnx"
            if not path.exists():
                raise ProfileError(
                    f"the profile's classifier reads features of {name!r}, but {path} is "
                    "missing; re-create the profile with 'companion calibrate dice'"
                )
            data = path.read_bytes()
            digest.update(data)
            self.nets.append(read_onnx(path))
        # Which networks exactly: a profile taught on other features would read nonsense.
        self.fingerprint = digest.hexdigest()[:16]

    def embed(self, crops: list[np.ndarray]) -> np.ndarray:
        """Features of each crop, each network's averaged over its turns: by default the
        crop and its half turn (the classifier is taught on dice at every turn; a second view
        steadies it, four cost twice the time for a die in 300 more)."""
        if not crops:
            return np.zeros((0, 0), np.float32)
        blobs: dict[tuple[int, ...], np.ndarray] = {}
        out = []
        for net, turns in zip(self.nets, self.turns, strict=True):
            if turns not in blobs:
                views = [np.rot90(c, k) for c in crops for k in turns]
                blobs[turns] = np.stack(views).transpose(0, 3, 1, 2).astype(np.float32) \
                    / 255.0 - 0.5
            out.append(forward_crops(net, blobs[turns]).reshape(len(crops), len(turns), -1)
                       .mean(axis=1))
        return np.concatenate(out, axis=1)


class HeadClassifier:
    """A profile's learned linear classifier over ``FeatureNet`` features."""

    def __init__(self, head: dict) -> None:
        self.features = FeatureNet(head["features"], head.get("turns"))
        if head.get("fingerprint") not in (None, self.features.fingerprint):
            raise ProfileError(
                "the profile was taught on another version of the face networks "
                f"({head['features']}); re-create it with 'companion calibrate dice' "
                "(the same labelled photos will do)"
            )
        features = self.features.embed([np.zeros((CROP, CROP, 3), np.uint8)]).shape[1]
        if len(head["mean"]) != features:  # taught on other features: it would read nonsense
            raise ProfileError(
                f"the profile's classifier has {len(head['mean'])} inputs, but its face "
                f"networks ({head['features']}) give {features}; re-create it with 'companion "
                "calibrate dice'")
        self.classes = list(head["classes"])
        self.faces = [c for c in self.classes if c != NONE]
        self.mean = np.array(head["mean"], np.float32)
        self.scale = np.array(head["scale"], np.float32)
        self.weights = np.array(head["weights"], np.float32)
        self.bias = np.array(head["bias"], np.float32)

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        if not crops:
            return np.zeros((0, len(self.classes)), np.float32)
        z = (self.features.embed(crops) - self.mean) / self.scale
        return softmax(z @ self.weights.T + self.bias)

    def classify(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        p = self.probabilities(crops)
        idx = p.argmax(axis=1)
        return [(self.classes[i], float(p[j, i])) for j, i in enumerate(idx)]


def softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def fit_head(features: np.ndarray, labels: list[str], classes: list[str], name: str,
             l2: float = 1e-2, steps: int = 600, fingerprint: str | None = None,
             turns: dict[str, list[int]] | None = None) -> dict:
    """Multinomial logistic regression, balanced over classes, by full-batch Adam steps.

    Small and deterministic: a few thousand samples of 96 features fit in well under a
    second, with no extra library. ``name`` and ``turns`` say which networks' features
    (``FeatureNet``) it reads.
    """
    x = np.asarray(features, np.float64)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    z = (x - mean) / scale
    y = np.array([classes.index(c) for c in labels])
    n, d = z.shape
    k = len(classes)
    counts = np.bincount(y, minlength=k).astype(np.float64)
    sample_w = (n / (k * np.maximum(counts, 1)))[y]
    onehot = np.eye(k)[y]
    w = np.zeros((k, d))
    b = np.zeros(k)
    mw, vw, mb, vb = (np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b))
    lr, b1, b2 = 0.05, 0.9, 0.999
    for t in range(1, steps + 1):
        p = softmax(z @ w.T + b)
        g = (p - onehot) * sample_w[:, None] / n
        gw = g.T @ z + l2 * w
        gb = g.sum(axis=0)
        mw, vw = b1 * mw + (1 - b1) * gw, b2 * vw + (1 - b2) * gw * gw
        mb, vb = b1 * mb + (1 - b1) * gb, b2 * vb + (1 - b2) * gb * gb
        w -= lr * (mw / (1 - b1 ** t)) / (np.sqrt(vw / (1 - b2 ** t)) + 1e-8)
        b -= lr * (mb / (1 - b1 ** t)) / (np.sqrt(vb / (1 - b2 ** t)) + 1e-8)
    r = lambda a: [round(float(v), 5) for v in a]  # noqa: E731 - short JSON numbers
    head = {"features": name, "classes": list(classes), "mean": r(mean), "scale": r(scale),
            "weights": [r(row) for row in w], "bias": r(b)}
    if turns:
        head["turns"] = {k: list(v) for k, v in turns.items()}
    if fingerprint:
        head["fingerprint"] = fingerprint
    return head


def nearest_colour(crop: np.ndarray, colours: dict[str, tuple[int, int, int]]
                   ) -> tuple[str | None, float]:
    """Name of the die colour nearest to the crop's body colour, with a 0..1 confidence.

    Chroma (a, b) weighs more than lightness, which the table light changes most.
    """
    if not colours:
        return None, 1.0
    body = body_lab(crop)
    names = list(colours)
    ref = cv2.cvtColor(np.array([[colours[n] for n in names]], np.uint8),
                       cv2.COLOR_BGR2Lab)[0].astype(np.float32)
    d = np.sqrt(0.3 * (ref[:, 0] - body[0]) ** 2 + (ref[:, 1] - body[1]) ** 2
                + (ref[:, 2] - body[2]) ** 2)
    order = np.argsort(d)
    if len(order) == 1:
        return names[order[0]], 1.0
    d1, d2 = float(d[order[0]]), float(d[order[1]])
    return names[order[0]], float(np.clip((d2 - d1) / (d2 + 1e-6) / 0.3, 0, 1))


__all__ = ["NONE", "FeatureNet", "HeadClassifier", "NetClassifier", "TemplateClassifier",
           "fit_head", "ink_map", "nearest_colour", "template_of"]
