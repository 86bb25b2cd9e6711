"""Teach the reader a kind of die: from labelled photos or by showing each face to the camera.

Both build a ``DiceProfile`` with two ways to tell the faces:

* a small linear classifier on the features the built-in face network computes for a die crop
  (``HeadClassifier``), taught on the labelled dice, several jittered copies of each (other
  light, turn, a slightly different cut), and on pieces of the photos that are not dice; this is
  what the reader uses;
* for each face, the mean of its samples' mark maps (after turning each sample to the quarter
  turn that best matches the others) plus a few of the samples that differ most from that mean:
  the version 1 templates, used when the face network is missing.

From labelled photos the dice finder is taught too: its heat layer is refitted on them
(``centres.fit_heat``) and kept in the profile when it finds more of the labelled dice, with
fewer extras, than the network's own layer does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import cv2
import numpy as np

from .centres import MODEL as FINDER_MODEL
from .centres import CentreFinder, fit_heat, locate_dice
from .classify import MODELS, NONE, FeatureNet, body_bgr, body_lab, fit_head, template_of
from .crops import as_read, die_crop
from .dataset import CROP, MARGIN, jittered_crop, match_blobs, speckled_table
from .faces import FACE_SETS
from .labeled import LabelError, load_labeled_dir
from .profile import TEMPLATE, DiceProfile
from .sources import CameraUnavailable, EndOfStream, FrameSource

EXEMPLARS = 4  # samples kept besides the mean, per face
COPIES = 16  # jittered crops per labelled die for the learned classifier (8 read 2 of 339
# dice of an unfamiliar symbol set wrong, 16 none: `companion bench vision-targets`)


class CalibrationError(ValueError):
    """Calibration cannot go on; the message says why and what to do."""


def _corr(a: np.ndarray, b: np.ndarray) -> float:
    a = a.astype(np.float32).ravel()
    b = b.astype(np.float32).ravel()
    a = a - a.mean()
    b = b - b.mean()
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-6))


def build_templates(samples: list[np.ndarray]) -> list[np.ndarray]:
    """Mean template (samples turned to agree) plus the samples least like the mean."""
    if not samples:
        return []
    ref = samples[0].astype(np.float32)
    aligned = []
    for _ in range(2):  # align to the running mean twice: the first sample is arbitrary
        aligned = []
        for s in samples:
            turns = [np.rot90(s, k) for k in range(4)]
            aligned.append(max(turns, key=lambda t: _corr(t, ref)).astype(np.float32))
        ref = np.mean(aligned, axis=0)
    mean = np.clip(ref, 0, 255).round().astype(np.uint8)
    out = [mean]
    by_distance = sorted(aligned, key=lambda t: _corr(t, ref))
    for t in by_distance[:EXEMPLARS]:
        if _corr(t, ref) < 0.9 and len(samples) > 1:
            out.append(t.round().astype(np.uint8))
    return out


def guess_dice(faces: Iterable[str]) -> str:
    faces = set(faces)
    for name, fs in FACE_SETS.items():
        if faces <= set(fs.faces):
            return name
    known = "; ".join(f"{n}: {' '.join(fs.faces)}" for n, fs in FACE_SETS.items())
    raise CalibrationError(
        f"classes.txt names faces {sorted(faces)} that are not all in one face set; "
        f"use these names ({known}) or pass --dice"
    )


def _die_windows(blobs, boxes) -> list[tuple[float, float, float, float]]:
    """Where each labelled die is: the detector's fit when it found the die (as when
    reading), else the label box upright. ``(cx, cy, side, angle)`` per box."""
    matched, _ = match_blobs(blobs, boxes)
    by_box = {j: blobs[i] for i, j in matched.items()}
    out = []
    for j, box in enumerate(boxes):
        b = by_box.get(j)
        if b is not None:
            out.append((b.cx, b.cy, min(b.w, b.h), b.angle))
        else:
            out.append((box.cx, box.cy, min(box.w, box.h), 0.0))
    return out


def _not_dice(image: np.ndarray, blobs, boxes, ignore, rng: np.random.Generator
              ) -> list[np.ndarray]:
    """Crops that are not dice: detections no label explains, and bits of empty table, most
    with specks of dirt drawn on (``speckled_table``)."""
    _, extra = match_blobs(blobs, boxes)
    out = []
    for i in extra:
        b = blobs[i]
        if not any(g.contains(b.cx, b.cy, 0.1) for g in ignore):
            out += [jittered_crop(image, b.cx, b.cy, min(b.w, b.h), b.angle, rng, k > 0)
                    for k in range(2)]
    dice = [(b.cx, b.cy, max(b.w, b.h)) for b in boxes]
    out += speckled_table(image, dice, 3, rng, avoid=[(b.cx, b.cy, max(b.w, b.h))
                                                     for b in ignore])
    return out


def learn_head(dice: str, samples: dict[str, list[np.ndarray]],
               negatives: list[np.ndarray]) -> dict | None:
    """Teach the linear classifier on face crops (and "none" crops); None without the
    face networks' features files."""
    fs = FACE_SETS[dice]  # the face networks whose features the learned classifier reads
    names, turns = fs.features, (dict(fs.head_turns) or None)
    if not all((MODELS / f"{n}.features.onnx").exists() for n in names.split("+")):
        return None
    net = FeatureNet(names, turns)
    faces = [f for f, s in samples.items() if s]
    classes = faces + ([NONE] if negatives else [])
    crops = [c for f in faces for c in samples[f]] + list(negatives)
    labels = [f for f in faces for _ in samples[f]] + [NONE] * len(negatives)
    feats = np.concatenate([net.embed(crops[i:i + 256]) for i in range(0, len(crops), 256)])
    return fit_head(feats, labels, classes, names, fingerprint=net.fingerprint, turns=turns)


def learn_profile(folder: str | Path, dice: str | None = None,
                  progress: Callable[[int, int], None] | None = None,
                  report: Callable[[str], None] | None = None) -> DiceProfile:
    """Build a profile from a YOLO-labelled folder (images/, labels/, classes.txt).

    ``progress(done, total)`` follows the photos (the finder, then the faces); ``report``
    gets a line as each starts and one saying what teaching the finder gave.

    Raises ``LabelError`` / ``CalibrationError`` with the file at fault.
    """
    classes, items = load_labeled_dir(folder)
    dice = dice or guess_dice(classes)
    fs = FACE_SETS[dice]
    samples: dict[str, list[np.ndarray]] = {c: [] for c in classes}
    head_samples: dict[str, list[np.ndarray]] = {c: [] for c in classes}
    negatives: list[np.ndarray] = []
    bodies: dict[str, list[np.ndarray]] = {}
    rng = np.random.default_rng(0)  # the same photos always make the same profile
    finder, located_by = None, None
    if FINDER_MODEL.exists() and CentreFinder(FINDER_MODEL).teachable:
        if report:
            report(f"teaching the dice finder on {len(items)} photos")
        finder, counts = fit_heat(items, FINDER_MODEL, progress=progress)
        if report:
            report(_finder_report(counts, finder is not None))
        if finder is not None:
            located_by = CentreFinder(FINDER_MODEL, heat=finder)
    if report:
        report(f"teaching the faces on {len(items)} photos")
    for k, item in enumerate(items):
        image = cv2.imread(str(item.image))
        if image is None:
            raise LabelError(f"{item.image}: cannot be decoded as an image")
        image = as_read(image)  # a washed-out photo taught as it will be read
        blobs = locate_dice(image, located_by)
        windows = _die_windows(blobs, item.boxes)
        for box, (cx, cy, side, angle) in zip(item.boxes, windows, strict=True):
            if box.face is None:
                continue
            crop = die_crop(image, cx, cy, side * MARGIN, angle, CROP)
            samples[box.face].append(template_of(crop))
            head_samples[box.face] += [crop] + [
                jittered_crop(image, cx, cy, side, angle, rng, True) for _ in range(COPIES - 1)]
            if box.face in fs.colours:
                bodies.setdefault(box.face, []).append(np.array(body_bgr(crop), np.float32))
        negatives += _not_dice(image, blobs, item.boxes, item.ignore, rng)
        if progress:
            progress(k + 1, len(items))
    missing = [f for f, s in samples.items() if not s]
    if missing:
        raise CalibrationError(
            f"{folder}: no labelled die for face(s) {', '.join(missing)}; label at least one "
            "photo of each face"
        )
    colours = {c: tuple(int(v) for v in np.median(np.array(b), axis=0))
               for c, b in bodies.items()}
    colours = {**fs.colours, **colours}
    templates = {f: build_templates(s) for f, s in samples.items()}
    n = sum(len(s) for s in samples.values())
    return DiceProfile(dice, templates, colours,  # type: ignore[arg-type]
                       source=f"learned from {n} labelled dice in {len(items)} photos of "
                              f"{Path(folder).name}",
                       head=learn_head(dice, head_samples, negatives), finder=finder)


def _finder_report(counts: dict, kept: bool) -> str:
    c = counts
    shipped = (f"dice finder: of {c['dice']} labelled dice the shipped finder finds "
               f"{c['network_found']} (+{c['network_extra']} extra)")
    if c["found"] is None:
        return shipped + ("; one photo is too few to check a finder taught on it, so the "
                          "profile keeps the shipped finder")
    return (shipped + f"; taught on the other photos, {c['found']} (+{c['extra']} extra): "
            + ("the taught finder is kept in the profile" if kept
               else "no better, the profile keeps the shipped finder"))


def capture_profile(source: FrameSource, dice: str, samples: int = 6,
                    ask: Callable[[str, int, int], None] | None = None,
                    progress: Callable[[str], None] | None = None,
                    max_frames: int = 200) -> DiceProfile:
    """Guided capture: for each face, ``ask`` the player to put dice showing it in the tray,
    then take ``samples`` die crops from still frames. Works with any frame source.
    """
    fs = FACE_SETS[dice]
    templates: dict[str, list[np.ndarray]] = {}
    colours: dict[str, tuple[int, int, int]] = {}
    head_samples: dict[str, list[np.ndarray]] = {}
    rng = np.random.default_rng(0)
    for i, face in enumerate(fs.faces):
        if ask:
            ask(face, i + 1, len(fs.faces))
        got: list[np.ndarray] = []
        crops_body = []
        frames = 0
        while len(got) < samples:
            frames += 1
            if frames > max_frames:
                raise CalibrationError(
                    f"no die seen for face {face!r} after {max_frames} frames; check the "
                    "camera sees the tray and the dice are lit"
                )
            try:
                frame = source.read()
            except CameraUnavailable as exc:
                if progress:
                    progress(f"camera: {exc}")
                continue
            except EndOfStream:
                raise CalibrationError("the camera stopped before every face was shown") \
                    from None
            blobs = locate_dice(frame.image)
            for b in blobs:
                crop = die_crop(frame.image, b.cx, b.cy, min(b.w, b.h) * MARGIN, b.angle, CROP)
                got.append(template_of(crop))
                crops_body.append(body_lab(crop))
                if len(got) <= samples:
                    head_samples.setdefault(face, []).extend(
                        [crop] + [jittered_crop(frame.image, b.cx, b.cy, min(b.w, b.h),
                                                b.angle, rng) for _ in range(COPIES - 1)])
            if progress:
                progress(f"face {face} ({i + 1}/{len(fs.faces)}): "
                         f"{min(len(got), samples)}/{samples} samples")
        templates[face] = build_templates(got[:samples])
        if face in fs.colours:
            lab = np.median(np.array(crops_body), axis=0).astype(np.uint8).reshape(1, 1, 3)
            colours[face] = tuple(int(v) for v in cv2.cvtColor(lab, cv2.COLOR_Lab2BGR)[0, 0])
    return DiceProfile(dice, templates, {**fs.colours, **colours},
                       source=f"guided capture, {samples} samples per face",
                       head=learn_head(dice, head_samples, []))


__all__ = ["CalibrationError", "TEMPLATE", "build_templates", "capture_profile",
           "learn_profile"]
