"""Teach the reader a kind of die: from labelled photos or by showing each face to the camera.

Both build a ``DiceProfile``: for each face, the mean of its samples' mark maps (after turning
each sample to the quarter turn that best matches the others) plus a few of the samples that
differ most from that mean, so unusual dice of the set are still recognised.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import cv2
import numpy as np

from .classify import body_bgr, body_lab, template_of
from .crops import die_crop
from .dataset import CROP, MARGIN, match_blobs
from .detect import find_dice, refine_blob
from .faces import FACE_SETS
from .labeled import LabelError, load_labeled_dir
from .profile import TEMPLATE, DiceProfile
from .sources import CameraUnavailable, EndOfStream, FrameSource

EXEMPLARS = 4  # samples kept besides the mean, per face


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


def _crop_for(image: np.ndarray, blobs, boxes) -> list[tuple[np.ndarray, int]]:
    matched, _ = match_blobs(blobs, boxes)
    by_box = {j: blobs[i] for i, j in matched.items()}
    out = []
    for j, box in enumerate(boxes):
        b = by_box.get(j)
        if b is not None:
            crop = die_crop(image, b.cx, b.cy, min(b.w, b.h) * MARGIN, b.angle, CROP)
        else:
            crop = die_crop(image, box.cx, box.cy, min(box.w, box.h) * MARGIN, 0.0, CROP)
        out.append((crop, j))
    return out


def learn_profile(folder: str | Path, dice: str | None = None,
                  progress: Callable[[int, int], None] | None = None) -> DiceProfile:
    """Build a profile from a YOLO-labelled folder (images/, labels/, classes.txt).

    Raises ``LabelError`` / ``CalibrationError`` with the file at fault.
    """
    classes, items = load_labeled_dir(folder)
    dice = dice or guess_dice(classes)
    fs = FACE_SETS[dice]
    samples: dict[str, list[np.ndarray]] = {c: [] for c in classes}
    bodies: dict[str, list[np.ndarray]] = {}
    for k, item in enumerate(items):
        image = cv2.imread(str(item.image))
        if image is None:
            raise LabelError(f"{item.image}: cannot be decoded as an image")
        blobs = [refine_blob(image, b)[0] for b in find_dice(image).blobs]
        for crop, j in _crop_for(image, blobs, item.boxes):
            face = item.boxes[j].face
            samples[face].append(template_of(crop))
            if face in fs.colours:
                bodies.setdefault(face, []).append(np.array(body_bgr(crop), np.float32))
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
                              f"{Path(folder).name}")


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
            blobs = [refine_blob(frame.image, b)[0] for b in find_dice(frame.image).blobs]
            for b in blobs:
                crop = die_crop(frame.image, b.cx, b.cy, min(b.w, b.h) * MARGIN, b.angle, CROP)
                got.append(template_of(crop))
                crops_body.append(body_lab(crop))
            if progress:
                progress(f"face {face} ({i + 1}/{len(fs.faces)}): "
                         f"{min(len(got), samples)}/{samples} samples")
        templates[face] = build_templates(got[:samples])
        if face in fs.colours:
            lab = np.median(np.array(crops_body), axis=0).astype(np.uint8).reshape(1, 1, 3)
            colours[face] = tuple(int(v) for v in cv2.cvtColor(lab, cv2.COLOR_Lab2BGR)[0, 0])
    return DiceProfile(dice, templates, {**fs.colours, **colours},
                       source=f"guided capture, {samples} samples per face")


__all__ = ["CalibrationError", "TEMPLATE", "build_templates", "capture_profile",
           "learn_profile"]
