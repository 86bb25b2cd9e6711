"""Score the reader on a YOLO-labelled folder: detection, faces, whole rolls, speed."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np

from .detect import Blob
from .labeled import LabeledImage
from .reader import DiceReader
from .types import UNKNOWN, Die


@dataclass
class Score:
    """Running totals; ``summary()`` turns them into the reported numbers."""

    labelled: int = 0
    found: int = 0
    extra: int = 0
    right: int = 0
    unknown: int = 0
    images: int = 0
    rolls_right: int = 0
    ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)  # process CPU time: fair on a busy host
    confusion: Counter = field(default_factory=Counter)  # (true, read) -> count
    mistakes: list[dict] = field(default_factory=list)

    def add(self, item: LabeledImage, dice: Iterable[Die], ms: float) -> None:
        from .labeled import match_blobs

        dice = list(dice)
        blobs = [Blob(d.x, d.y, d.w, d.h, 0.0) for d in dice]
        matched, unmatched = match_blobs(blobs, item.boxes)
        extra = [i for i in unmatched
                 if not any(g.contains(dice[i].x, dice[i].y, 0.1) for g in item.ignore)]
        self.images += 1
        self.labelled += len(item.boxes)
        self.found += len(matched)
        self.extra += len(extra)
        self.ms.append(ms)
        all_right = not extra and len(matched) == len(item.boxes)
        for i, j in matched.items():
            truth, read = item.boxes[j].face, dice[i].face
            self.confusion[(truth, read)] += 1
            if read == truth:
                self.right += 1
            else:
                all_right = False
                self.unknown += read == UNKNOWN
                self.mistakes.append({"image": str(item.image), "x": round(dice[i].x),
                                      "y": round(dice[i].y), "true": truth, "read": read,
                                      "confidence": round(dice[i].confidence, 3)})
        for j in range(len(item.boxes)):
            if j not in matched.values():
                self.confusion[(item.boxes[j].face, "missed")] += 1
                self.mistakes.append({"image": str(item.image), "x": round(item.boxes[j].cx),
                                      "y": round(item.boxes[j].cy),
                                      "true": item.boxes[j].face, "read": "missed"})
        for i in extra:
            self.confusion[("none", dice[i].face)] += 1
            self.mistakes.append({"image": str(item.image), "x": round(dice[i].x),
                                  "y": round(dice[i].y), "true": "none",
                                  "read": dice[i].face})
        self.rolls_right += all_right

    def summary(self) -> dict:
        ms = sorted(self.ms) or [0.0]
        return {
            "images": self.images,
            "labelled_dice": self.labelled,
            "recall": self.found / max(self.labelled, 1),
            "precision": self.found / max(self.found + self.extra, 1),
            "phantoms": self.extra,
            "die_accuracy": self.right / max(self.labelled, 1),
            "die_accuracy_of_found": self.right / max(self.found, 1),
            "unknown": self.unknown,
            "roll_accuracy": self.rolls_right / max(self.images, 1),
            "ms_median": statistics.median(ms),
            "ms_p90": float(np.percentile(ms, 90)),
            "cpu_ms_median": statistics.median(self.cpu_ms) if self.cpu_ms else None,
            "confusion": {f"{t}->{r}": n for (t, r), n in sorted(self.confusion.items())},
        }


def run(reader: DiceReader, items: list[LabeledImage],
        progress: Callable[[int, int], None] | None = None, expect: bool = False) -> Score:
    """Read every labelled image and score it. Timing covers recognition only; with
    ``expect`` the reader is told each image's number of labelled dice."""
    score = Score()
    for k, item in enumerate(items):
        image = cv2.imread(str(item.image))
        if image is None:
            continue
        t0, c0 = time.perf_counter(), time.process_time()
        result = reader.analyse(image, expected=len(item.boxes) if expect else None)
        ms = (time.perf_counter() - t0) * 1000.0
        score.cpu_ms.append((time.process_time() - c0) * 1000.0)
        score.add(item, result.dice, ms)
        if progress:
            progress(k + 1, len(items))
    return score


def format_report(s: dict, faces: list[str]) -> str:
    lines = [
        f"images {s['images']}, labelled dice {s['labelled_dice']}",
        f"detection recall    {s['recall']:.4f}",
        f"detection precision {s['precision']:.4f}",
        f"per-die accuracy    {s['die_accuracy']:.4f} "
        f"(of found dice {s['die_accuracy_of_found']:.4f}; read as '?': {s['unknown']})",
        f"roll accuracy       {s['roll_accuracy']:.4f}",
        f"ms per image        median {s['ms_median']:.1f}, p90 {s['ms_p90']:.1f}"
        + (f" (CPU time median {s['cpu_ms_median']:.1f})" if s.get("cpu_ms_median") else ""),
        "confusion (rows true, columns read):",
    ]
    cols = [*faces, UNKNOWN, "missed"]
    conf = {tuple(k.split("->")): v for k, v in s["confusion"].items()}
    lines.append(" " * 10 + "".join(f"{c:>10}" for c in cols))
    for t in [*faces, "none"]:
        row = [conf.get((t, c), 0) for c in cols]
        if t == "none" and not any(row):
            continue
        lines.append(f"{t:>10}" + "".join(f"{v:>10}" for v in row))
    return "\n".join(lines)


def run_synthetic(reader: DiceReader, frames: int, seed: int = 1000,
                  width: int = 640, height: int = 480,
                  progress: Callable[[int, int], None] | None = None) -> Score:
    """Score the reader on rendered trays of its face set (fresh seed: not training renders)."""
    from pathlib import Path

    from .labeled import Box
    from .synth import SyntheticTray

    tray = SyntheticTray(reader.dice, width, height, seed=seed)
    score = Score()
    for k in range(frames):
        image, truth = tray.render()
        item = LabeledImage(Path(f"synthetic-{seed}-{k:04d}"),
                            tuple(Box(t.x, t.y, t.side * 1.3, t.side * 1.3, t.face)
                                  for t in truth), ())
        t0, c0 = time.perf_counter(), time.process_time()
        result = reader.analyse(image)
        score.cpu_ms.append((time.process_time() - c0) * 1000.0)
        score.add(item, result.dice, (time.perf_counter() - t0) * 1000.0)
        if progress:
            progress(k + 1, frames)
    return score


def run_frames(reader: DiceReader, frames: Iterable[tuple], expect: bool = False) -> Score:
    """Score the reader on frames with their labels (``domains``); with ``expect`` the
    reader is told how many dice each frame holds, as the table tells it, and a frame that
    comes with the bare table before the roll (a third item) is read with it."""
    score = Score()
    for image, item, *before in frames:
        t0, c0 = time.perf_counter(), time.process_time()
        background = before[0] if before else None
        if expect:
            result = reader.analyse(image, expected=len(item.boxes), background=background)
        else:
            result = reader.analyse(image, background=background)
        ms = (time.perf_counter() - t0) * 1000.0
        score.cpu_ms.append((time.process_time() - c0) * 1000.0)
        score.add(item, result.dice, ms)
    return score


def memory_mb(field: str = "VmRSS") -> float | None:
    """A memory line of the process's status in MB: ``VmRSS`` resident now, ``VmHWM`` its
    peak (Linux; None elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(f"{field}:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None
