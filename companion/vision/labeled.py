"""YOLO-labelled photo folders: ``images/``, ``labels/NAME.txt`` and ``classes.txt``.

A label line is ``class cx cy w h`` with the box as fractions of the image size.
``labels/NAME.ignore.txt`` (same format) marks regions that are not ground truth.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .types import IMAGE_SUFFIXES

if TYPE_CHECKING:
    from .detect import Blob


class LabelError(ValueError):
    """A labelled folder or label file that cannot be used as it is."""


@dataclass(frozen=True)
class Box:
    """A labelled box in pixels: centre ``cx, cy``, size ``w, h``; ``face`` may be None."""

    cx: float
    cy: float
    w: float
    h: float
    face: str | None = None

    def contains(self, x: float, y: float, margin: float = 0.0) -> bool:
        return (
            abs(x - self.cx) <= self.w / 2 + margin * self.w
            and abs(y - self.cy) <= self.h / 2 + margin * self.h
        )


@dataclass(frozen=True)
class LabeledImage:
    image: Path
    boxes: tuple[Box, ...]
    ignore: tuple[Box, ...]


MAX_LABEL_BYTES = 2**20  # a photo's labels are a line per die: a few hundred bytes


def _text(path: Path) -> str:
    """A label or classes file's text; one that is not UTF-8 text (or a folder) is said with
    its path."""
    if path.exists() and not path.is_file() and not path.is_dir():  # a pipe would never end
        raise LabelError(f"{path}: not a file (a pipe or a device?); labels are text files")
    if path.is_file() and path.stat().st_size > MAX_LABEL_BYTES:
        raise LabelError(f"{path}: more than {MAX_LABEL_BYTES // 2**20} MB; a label file holds "
                         "a line per die")
    try:
        return path.read_text(encoding="utf-8-sig")  # a byte-order mark is not text
    except UnicodeDecodeError:
        raise LabelError(f"{path}: not UTF-8 text; save it as plain UTF-8 text") from None
    except OSError as exc:
        raise LabelError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def read_classes(folder: Path) -> list[str]:
    path = folder / "classes.txt"
    if not path.is_file():
        raise LabelError(
            f"{path}: missing; a labelled folder needs classes.txt with one face name per line "
            "(class 0 first)"
        )
    names = [ln.strip() for ln in _text(path).splitlines() if ln.strip()]
    if not names:
        raise LabelError(f"{path}: empty; write one face name per line (class 0 first)")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:  # every class after the second would name the face of the one before it
        raise LabelError(f"{path}: {', '.join(map(repr, twice))} written twice; write each face "
                         "name once, in the order of the class numbers")
    return names


def parse_label_file(
    path: Path, classes: list[str] | None, width: int, height: int
) -> list[Box]:
    """Read one YOLO label file into pixel boxes, with messages that name file and line."""
    boxes = []
    for lineno, line in enumerate(_text(path).splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        where = f"{path}:{lineno}"
        if len(parts) != 5:
            raise LabelError(f"{where}: expected 'class cx cy w h', got {line.strip()!r}")
        try:
            number = float(parts[0])
            cls = int(number)
            cx, cy, w, h = (float(p) for p in parts[1:])
        except (ValueError, OverflowError):  # (a class of "inf")
            raise LabelError(f"{where}: not numbers: {line.strip()!r}") from None
        if number != cls:
            raise LabelError(f"{where}: class {parts[0]} is not a whole number (class 0 is the "
                             "first line of classes.txt)")
        if not (0 <= cx <= 1 and 0 <= cy <= 1 and 0 < w <= 1 and 0 < h <= 1):
            raise LabelError(
                f"{where}: box {cx} {cy} {w} {h} is not normalised to 0..1; YOLO labels are "
                "fractions of the image width and height"
            )
        face = None
        if classes is not None and cls >= 0:
            if cls >= len(classes):
                raise LabelError(
                    f"{where}: class {cls} but classes.txt lists only {len(classes)} faces"
                )
            face = classes[cls]
        boxes.append(Box(cx * width, cy * height, w * width, h * height, face))
    return boxes


def image_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def load_labeled_dir(folder: str | Path) -> tuple[list[str], list[LabeledImage]]:
    """List the images of a labelled folder with their boxes (in the image as every reader
    decodes it: turned as its EXIF orientation says, within the reader's pixel limit).

    Raises LabelError with the file and line at fault.
    """
    from .sources import FrameError, load_image  # local: OpenCV only when a folder is read

    folder = Path(folder)
    if not (folder / "images").is_dir():
        raise LabelError(f"{folder}: no images/ folder; expected images/, labels/, classes.txt")
    classes = read_classes(folder)
    items = []
    for img in image_files(folder / "images"):
        label = folder / "labels" / (img.stem + ".txt")
        ignore = folder / "labels" / (img.stem + ".ignore.txt")
        if not label.exists():
            continue
        try:
            h, w = load_image(img).shape[:2]
        except FrameError as exc:
            raise LabelError(str(exc)) from None
        boxes = parse_label_file(label, classes, w, h)
        ign = parse_label_file(ignore, None, w, h) if ignore.exists() else []
        items.append(LabeledImage(img, tuple(boxes), tuple(ign)))
    if not items:
        raise LabelError(f"{folder}: no image in images/ has a label file in labels/")
    return classes, items


def match_blobs(blobs: Iterable[Blob], boxes: Iterable[Box], margin: float = 0.1
                ) -> tuple[dict[int, int], list[int]]:
    """Greedy match of blob centres to labelled boxes (nearest centre inside the box).

    Returns {blob index: box index} and the indices of unmatched blobs.
    """
    blobs, boxes = list(blobs), list(boxes)
    pairs = []
    for i, b in enumerate(blobs):
        for j, bx in enumerate(boxes):
            if bx.contains(b.cx, b.cy, margin):
                pairs.append((np.hypot(b.cx - bx.cx, b.cy - bx.cy), i, j))
    pairs.sort()
    used_b: set[int] = set()
    used_x: set[int] = set()
    out: dict[int, int] = {}
    for _, i, j in pairs:
        if i in used_b or j in used_x:
            continue
        out[i] = j
        used_b.add(i)
        used_x.add(j)
    return out, [i for i in range(len(blobs)) if i not in used_b]
