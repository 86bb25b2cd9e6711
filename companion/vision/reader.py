"""The dice reader: frame in, dice with faces and confidences out."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .centres import MODEL as CENTRES_MODEL
from .centres import SURE, CentreFinder, fit_blob
from .classify import (
    MODELS,
    NONE,
    HeadClassifier,
    NetClassifier,
    TemplateClassifier,
    nearest_colour,
)
from .crops import die_crop
from .dataset import CROP, MARGIN
from .defaults import default_profile
from .detect import find_dice
from .faces import FACE_SETS, face_set
from .profile import DiceProfile
from .tray import TrayView
from .types import UNKNOWN, Die
from .zones import Zones


@dataclass(frozen=True)
class FrameResult:
    """Everything read from one frame.

    ``obstruction`` is the share of the frame covered by something far bigger than a die
    (a hand): the settle logic refuses to finalise a reading while it is high.
    """

    dice: tuple[Die, ...]
    obstruction: float
    die_side: float
    ms: float


class DiceReader:
    """Read the dice in a frame.

    ``dice`` names the face set (``d6``, or one a title declares); ``profile`` (a
    DiceProfile or a path to one) teaches the faces of a particular kind of die; ``tray``
    maps the frame to the top-down rolling area; ``zones`` sorts dice by where they lie.
    ``views`` > 1 averages the face network over turned copies of every die (slower); with 1,
    only dice it reads unsure get a second, mirrored or turned look.
    ``finder`` is ``"net"`` (the dice-centre network, the default) or ``"geometry"`` (colour
    distance from a smooth model of the tray; used when the network file is missing).

    >>> from companion.vision.synth import SyntheticTray
    >>> image, truth = SyntheticTray("d6", seed=3).render(n_dice=4)
    >>> reader = DiceReader("d6")
    >>> dice = reader.read(image)
    >>> len(dice), sorted(d.face for d in dice) == sorted(t.face for t in truth)
    (4, True)
    """

    def __init__(self, dice: str | None = None, profile: DiceProfile | str | Path | None = None,
                 tray: TrayView | None = None, zones: Zones | None = None,
                 unknown_below: float | None = None, die_side: float | None = None,
                 views: int = 1, finder: str | None = None) -> None:
        if isinstance(profile, (str, Path)):
            profile = DiceProfile.load(profile)
        if profile is not None and dice is not None and profile.dice != dice:
            raise ValueError(
                f"the profile is for {profile.dice!r} dice but {dice!r} was asked for"
            )
        self.dice = dice or (profile.dice if profile else "d6")
        self.set = face_set(self.dice)
        self.profile = profile
        self.tray = tray
        self.zones = zones or Zones()
        self.die_side = die_side
        if finder is None:
            finder = "net" if CENTRES_MODEL.exists() else "geometry"
        if finder not in ("net", "geometry"):
            raise ValueError(f"unknown dice finder {finder!r}: use 'net' or 'geometry'")
        self.finder = None
        if finder == "net":
            # A profile taught on labelled photos may carry the finder's own heat layer.
            self.finder = CentreFinder(heat=profile.finder if profile is not None else None)
        model = MODELS / f"{self.dice}_faces.onnx"
        if profile is not None and profile.head:
            self.classifier = HeadClassifier(profile.head)
            self.colours = dict(profile.colours) or dict(self.set.colours)
            default_unknown = profile.unknown_below
        elif profile is not None:
            self.classifier = TemplateClassifier(profile)
            self.colours = dict(profile.colours) or dict(self.set.colours)
            default_unknown = profile.unknown_below
        elif model.exists():
            self.classifier = NetClassifier(model, views, mirror=self.dice == "d6")
            self.colours = dict(self.set.colours)
            # d6: chosen on the training photos (first session); renders: the original 0.6.
            default_unknown = 0.4 if self.dice == "d6" else 0.6
        else:
            prof = default_profile(self.dice)
            self.classifier = TemplateClassifier(prof)
            self.colours = dict(prof.colours)
            default_unknown = prof.unknown_below
        self.unknown_below = default_unknown if unknown_below is None else unknown_below

    # ------------------------------------------------------------------------------
    def analyse(self, frame: np.ndarray) -> FrameResult:
        """Detect and read every die; positions are in the pixels of ``frame``."""
        if frame is None or not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) \
                or frame.size == 0:
            raise ValueError("not an image (empty or unreadable frame)")
        t0 = time.perf_counter()
        if frame.ndim == 2:
            import cv2

            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        elif frame.shape[2] == 4:
            frame = frame[..., :3]
        view = self.tray.warp(frame) if self.tray is not None else frame
        det = (self.finder.find(view, self.die_side) if self.finder is not None
               else find_dice(view, self.die_side))
        refined = [fit_blob(view, b, det.die_side) for b in det.blobs]
        crops = [die_crop(view, b.cx, b.cy, min(b.w, b.h) * MARGIN, b.angle, CROP)
                 for b, _ in refined]
        labels = self.classifier.classify(crops)
        h, w = view.shape[:2]
        dice = []
        for found, (blob, ok), crop, (face, conf) in zip(det.blobs, refined, crops, labels,
                                                          strict=True):
            if face == NONE:
                if found.heat < SURE or conf >= self.unknown_below:
                    continue
                # The finder is sure of a die the faces barely call "not a die" (a die much
                # like the table): say it is unsure rather than drop it silently.
                face = UNKNOWN
            if not ok and conf < self.unknown_below and isinstance(
                    self.classifier, TemplateClassifier):
                # No die-shaped body and no face matched well: a tray corner or a mark.
                continue
            if self.colours and not ok:
                # An unfitted box may hold much table around the die: judge the colour on
                # the middle of the box only.
                crop = die_crop(view, blob.cx, blob.cy, min(blob.w, blob.h) * 0.7, blob.angle,
                                CROP)
            colour, cconf = nearest_colour(crop, self.colours)
            if colour is not None and face in self.set.colours and conf >= self.unknown_below:
                # On Back in Time dice the symbol face tells the colour; trust the symbol.
                colour, cconf = face, conf
            if colour is not None and cconf < self.unknown_below:
                colour = UNKNOWN  # the face may be sure while the colour is not
            if conf < self.unknown_below:
                face = UNKNOWN
            cx, cy, bw, bh = blob.bbox()
            if self.tray is not None:
                zx, zy = cx / w, cy / h
                corners = self.tray.to_frame([(cx - bw / 2, cy - bh / 2),
                                              (cx + bw / 2, cy + bh / 2)])
                (fx, fy), = self.tray.to_frame([(cx, cy)])
                bw, bh = np.abs(corners[1] - corners[0])
                cx, cy = fx, fy
            else:
                zx, zy = cx / w, cy / h
            dice.append(Die(float(cx), float(cy), float(bw), float(bh), face, conf, colour,
                            self.zones.zone_of(zx, zy), float(blob.angle)))
        dice.sort(key=lambda d: (round(d.y / max(det.die_side, 1.0)), d.x))
        ms = (time.perf_counter() - t0) * 1000.0
        return FrameResult(tuple(dice), det.obstruction, det.die_side, ms)

    def read(self, frame: np.ndarray) -> list[Die]:
        """The dice in one frame (no settling: see ``Settler`` for rolls)."""
        return list(self.analyse(frame).dice)


__all__ = ["DiceReader", "FrameResult", "FACE_SETS"]
