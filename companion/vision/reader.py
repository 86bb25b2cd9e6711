"""The dice reader: frame in, dice with faces and confidences out."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from .centres import MODEL as CENTRES_MODEL
from .centres import (
    SPECK_JUDGED,
    SURE,
    TARGET_SIDE,
    CentreFinder,
    fit_blobs,
    model_fingerprint,
    one_die,
)
from .classify import (
    MODELS,
    NONE,
    HeadClassifier,
    NetClassifier,
    TemplateClassifier,
    nearest_colour,
)
from .crops import as_read, die_crop, sharpened, sharpness, stretched, washed_out
from .dataset import CROP, MARGIN
from .defaults import default_profile
from .detect import Blob, Detection, find_dice, obstruction_share
from .faces import FACE_SETS, face_set
from .judge import FaceNet, Judge, context_batch, judge_inputs
from .profile import DiceProfile
from .tray import TrayView
from .types import UNKNOWN, Die
from .zones import Zones

# With the number of dice given, a candidate this unlikely to be a die is never proposed.
EXPECT_FLOOR = 0.02
# A place the judge gives less than this on the face network's first look gets no second
# look (a quarter of EXPECT_FLOOR): on a patterned cloth that is most of its unsure places.
SECOND_LOOK_FLOOR = 0.005
# A busy table (a cloth's dots or squares, granite, a page's bullets) gives many places the
# finder is sure of, and they, not the dice, then set the frame's die side. Small, they make
# the finder read the frame larger, where dice of the usual size come apart in pieces or go
# unseen; small or large, the judge weighs every place against that side (its size, the
# table round it, the fit). So a judged reader reads a frame the finder read more than
# USUAL_TOO times larger than usual at the usual scale too (its USUAL_PLACES surest places)
# and keeps the surer reading of each place; and where the dice it judges differ from the
# frame's side by more than SIDE_AGREES times, it reads the places again with their side,
# leaving out those under SIDE_SPECK of it that it judged no die anyway (the specks).
USUAL_TOO = 1.2
USUAL_PLACES = 40
SIDE_AGREES = 1.5
SIDE_SPECK = 0.6
# A reader with a judge asks the finder for places down to this heat (its own threshold is
# 0.3): the places over 0.3 stay as they are, and the judge weighs the weaker ones too, so a
# die the finder is unsure of can still be read (held families 90.1 to 90.5 %, told the
# count 91.2 to 91.5 %; the dev photos 99.39 to 99.46 %).
JUDGED_HEAT = 0.2
# Told of more dice than it sees, the reader looks again with the frame this many times larger.
LOOK_AGAIN = 1.6
# Places the judge gives this chance or more whose crops are softer than SOFT (``sharpness``):
# a camera out of focus. Each place's face is read again on the frame sharpened and taken
# where that reading is surer; where dice lie is still the first reading's. (The sharpened
# frame read as a frame of its own, its places weighed as dice too, read 12 more d6 dice of
# the protocol's tables, but also 12 more phantoms, and 15 more on one title's bare stone:
# sharpened grain looks like pips.)
SOFT_PLACES = 0.1
SOFT = 0.3
# A blob whose patch differs from the empty tray by less than this (mean Lab distance, the
# light's change round it taken out) was there before the roll: a mark, not a die.
STATIC = 7.0
# Two fitted dice whose centres are closer than this share of the smaller one's side are one
# die. Touching dice in a crowded tray can be fitted as near as 0.4 of a side (a box pulled
# a little onto its neighbour); a die and a piece of it, fitted, land within 0.3.
SAME_DIE = 0.3
# Small dice: their pips are a pixel or two, and the networks (taught on dice of 14 pixels
# and more) are sure of themselves there without being right (the dev photos shrunk: of the
# readings at 0.5 or more, 17 % wrong at 8-9 pixels, 7 % at 10-11, under 2 % from 12). A die
# read smaller than SMALLEST_READ pixels across is "?"; under SMALL_SIDE it needs SMALL_SURE.
SMALLEST_READ = 9.0
SMALL_SIDE = 11.0
SMALL_SURE = 0.9


def _too_small(side: float, confidence: float) -> bool:
    """A die this small (pixels across) is not read at this confidence."""
    return side < SMALLEST_READ or (side < SMALL_SIDE and confidence < SMALL_SURE)


@dataclass(frozen=True)
class FrameResult:
    """Everything read from one frame.

    ``obstruction`` is the share of the frame covered by something far bigger than a die
    (a hand): the settle logic refuses to finalise a reading while it is high.
    ``expected`` is the number of dice the reader was told of (None when not told) and
    ``seen`` the number it would have reported on its own: they differ when it sees another
    number of dice than were rolled (``count_differs``).
    """

    dice: tuple[Die, ...]
    obstruction: float
    die_side: float
    ms: float
    expected: int | None = None
    seen: int | None = None

    @property
    def count_differs(self) -> bool:
        return self.expected is not None and self.seen is not None and \
            self.seen != self.expected


@dataclass
class Candidates:
    """Places the finder proposes in one frame, with what the judge makes of them:
    ``p_die`` (a die lies there) and ``p_faces`` (which face, given a die), both calibrated,
    one row per blob."""

    blobs: list[Blob]
    fitted: list[tuple[Blob, bool]]
    crops: list[np.ndarray]
    inputs: np.ndarray
    logits: np.ndarray
    p_die: np.ndarray
    p_faces: np.ndarray
    die_side: float


class DiceReader:
    """Read the dice in a frame.

    ``dice`` names the face set (``d6``, or one a title declares); ``profile`` (a
    DiceProfile or a path to one) teaches the faces of a particular kind of die; ``tray``
    maps the frame to the top-down rolling area; ``zones`` sorts dice by where they lie.
    ``views`` > 1 averages the face network over turned copies of every die (slower); with 1,
    only dice it reads unsure get a second, mirrored or turned look.
    ``finder`` is ``"net"`` (the dice-centre network, the default) or ``"geometry"`` (colour
    distance from a smooth model of the tray; used when the network file is missing).
    ``judge``: the set's judge file (``judge.py``) is used by default where there is one
    fitted on these networks; a path or ``Judge`` uses another, ``False`` none.
    ``nadir``: where the camera looks straight down, as shares of the frame's width and
    height ((0.5, 0.5) for the table's camera above the tray); a die away from it shows its
    top further out than its sides, and is read turned so. None (a photo taken at a slant,
    the point below the frame): the top is up.

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
                 views: int = 1, finder: str | None = None,
                 judge: Judge | str | Path | bool | None = None,
                 nadir: tuple[float, float] | None = None) -> None:
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
        if nadir is not None:
            try:
                nadir = tuple(float(v) for v in nadir)
            except (TypeError, ValueError):
                nadir = ()
            if len(nadir) != 2 or not all(np.isfinite(nadir)):
                raise ValueError("the nadir is two numbers, where the camera looks straight "
                                 "down as shares of the frame's width and height (0.5, 0.5: "
                                 "the frame's middle)")
        self.nadir = nadir
        self._nadir_px = (0.0, 0.0)  # ``nadir`` in the current view's pixels (``_view``)
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
        # The judge (calibrated "is it a die" and "which face"): for sets that have a judge
        # file taught on these very networks, without a profile.
        self.judge: Judge | None = None
        self.facenet: FaceNet | None = None
        if profile is None and self.finder is not None and model.exists() \
                and judge is not False:
            if isinstance(judge, (str, Path)):
                judge = Judge(judge)
            elif not isinstance(judge, Judge):
                judge = Judge.for_set(self.dice)
            if judge is not None and judge.matches(model_fingerprint(CENTRES_MODEL),
                                                   model_fingerprint(model)):
                self.judge = judge
                self._read_for_judge()
                default_unknown = judge.unknown_below
        self.unknown_below = default_unknown if unknown_below is None else unknown_below

    # ------------------------------------------------------------------------------
    def _view(self, frame: np.ndarray) -> np.ndarray:
        if frame is None or not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) \
                or frame.size == 0:
            raise ValueError("not an image (empty or unreadable frame)")
        if frame.dtype != np.uint8:
            raise ValueError(f"a frame holds 8-bit pixels (uint8), not {frame.dtype}: scale it to "
                             "0-255 and convert it first (e.g. cv2.convertScaleAbs)")
        if frame.ndim == 3 and frame.shape[2] == 1:
            frame = frame[..., 0]
        if frame.ndim == 3 and frame.shape[2] not in (3, 4):
            raise ValueError(f"a frame has 1, 3 or 4 colour channels (grey, BGR, BGRA), not "
                             f"{frame.shape[2]}")
        if frame.ndim == 2:
            import cv2

            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        elif frame.shape[2] == 4:
            frame = frame[..., :3]
        if self.nadir is not None:
            h, w = frame.shape[:2]
            point = (self.nadir[0] * w, self.nadir[1] * h)
            # the camera's straight-down point in the pixels the dice are read in
            self._nadir_px = (tuple(self.tray.to_tray([point])[0]) if self.tray is not None
                              else point)
        return self.tray.warp(frame) if self.tray is not None else frame

    def candidates(self, frame: np.ndarray) -> Candidates:
        """Every place the finder proposes with what the judge reads of it (``p_die`` and
        ``p_faces`` are zeros without a judge: ``calibration/train_judge.py`` teaches one
        on these inputs)."""
        if self.finder is None or self.profile is not None:
            raise ValueError("candidates need the finder network and no profile")
        if self.facenet is None:
            self._read_for_judge()
        # the places a judged read weighs, weaker ones included: the judge is mined on them
        return self._judged(as_read(self._view(frame)), min(self.finder.threshold, JUDGED_HEAT))

    def _read_for_judge(self) -> None:
        """Read places as a judge needs them (and as it was mined): the face network's
        features, the finder's features, and small places left for the judge to weigh."""
        assert self.finder is not None
        self.facenet = FaceNet(self.dice)
        self.finder.keep_features = True
        self.finder.speck = SPECK_JUDGED

    def _facing_up(self, refined: list[tuple[Blob, bool]]) -> list[tuple[Blob, bool]]:
        """Each place turned so that a die's top is up in its crop. A die seen at a slant
        shows its top further from the point straight below the camera (``nadir``) than
        its sides; the fit keeps the frame's up, which is that direction when the nadir is
        below the frame (a photo taken at a slant), so only a set nadir turns anything."""
        if self.nadir is None or not refined:
            return refined
        nx, ny = self._nadir_px
        out = []
        for b, ok in refined:
            dx, dy = b.cx - nx, b.cy - ny
            if np.hypot(dx, dy) > 0.5 * min(b.w, b.h):
                up = float(np.degrees(np.arctan2(dx, -dy)))  # turns (dx, dy) to the crop's up
                b = replace(b, angle=up + (b.angle - up + 45.0) % 90.0 - 45.0)
            out.append((b, ok))
        return out

    def _judged(self, view: np.ndarray, threshold: float | None = None,
                die_side: float | None = None) -> Candidates:
        assert self.facenet is not None and self.finder is not None
        det = self.finder.find(view, die_side or self.die_side, threshold, cover=False)
        c = self._read_places(view, det, det.die_side)
        # (no judge while one is being mined: ``candidates``)
        dice = c.p_die >= self.judge.die_below if self.judge is not None else []
        if not (die_side or self.die_side) and np.any(dice):
            judged = float(np.median([b.side for b, d in zip(c.blobs, dice, strict=True) if d]))
            if not 1 / SIDE_AGREES <= judged / c.die_side <= SIDE_AGREES:
                keep = [i for i, b in enumerate(det.blobs)
                        if b.side >= SIDE_SPECK * judged or c.p_die[i] >= EXPECT_FLOOR]
                det = replace(det, blobs=tuple(det.blobs[i] for i in keep),
                              features=None if det.features is None else det.features[keep])
                c = self._read_places(view, det, judged)
        return c

    def _read_places(self, view: np.ndarray, det: Detection, side: float) -> Candidates:
        """The finder's places read by the face network and weighed by the judge, against
        ``side``, the side of the frame's dice."""
        blobs = list(det.blobs)
        refined = self._facing_up(fit_blobs(view, blobs, side))
        crops = [die_crop(view, b.cx, b.cy, min(b.w, b.h) * MARGIN, b.angle, CROP)
                 for b, _ in refined]
        finder_feats = det.features if blobs else np.zeros((0, 24), np.float32)
        heat = np.array([b.heat for b in blobs])
        size = np.array([b.side / side for b in blobs])
        context = context_batch(view, blobs, side)
        fitted = np.array([ok for _, ok in refined])

        def weighed(feats: np.ndarray, logits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            inputs = judge_inputs(feats, logits, finder_feats, heat, size, context, fitted,
                                  self.facenet.classes)
            p_die = self.judge.p_die(inputs) if self.judge is not None and blobs \
                else np.zeros(len(blobs))
            return inputs, p_die

        if self.judge is not None and blobs:
            # A second look only where a die could be: on a patterned cloth most of the 150
            # places are unsure, and the judge gives nearly all of them no chance.
            feats, logits = self.facenet.run(crops)
            worth = weighed(feats, logits)[1] >= SECOND_LOOK_FLOOR
            feats, logits = self._second_look(crops, feats, logits, worth)
        else:
            feats, logits = self._read_faces(crops)
        inputs, p_die = weighed(feats, logits)
        p_faces = np.zeros((len(blobs), len(self.set.faces)))
        if self.judge is not None and blobs:
            p_faces = self.judge.p_faces(logits)
        return Candidates(blobs, refined, crops, inputs, logits, p_die, p_faces, side)

    def _read_faces(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """The face network's features and logits for ``crops``, with a second look at those
        it reads unsure."""
        assert self.facenet is not None
        return self._second_look(crops, *self.facenet.run(crops))

    def _second_look(self, crops: list[np.ndarray], feats: np.ndarray, logits: np.ndarray,
                     worth: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """A second, turned look at the crops the network reads unsure (and ``worth`` a look,
        when given), mirrored too for pips (a mirrored numeral is no numeral), averaged as
        the plain face network averages them (probabilities)."""
        assert self.facenet is not None
        if not len(crops):
            return feats, logits
        p = _softmax(logits)
        unsure = p.max(axis=1) < NetClassifier.SECOND_LOOK
        if worth is not None:
            unsure &= worth
        again = np.flatnonzero(unsure)
        if len(again):
            f2, l2 = self.facenet.run([crops[i] for i in again], ((1, self.dice == "d6"),))
            feats[again] = (feats[again] + f2) / 2
            mean = (p[again] + _softmax(l2)) / 2
            logits[again] = np.log(np.maximum(mean, 1e-12))
        return feats, logits

    def _sharper_faces(self, view: np.ndarray, c: Candidates) -> Candidates:
        """``c`` with each place's face read again on the frame sharpened, where that reading
        is surer (the places and the judge's chance that a die lies there stay ``c``'s)."""
        assert self.judge is not None
        sharp = sharpened(view)
        crops = [die_crop(sharp, b.cx, b.cy, min(b.w, b.h) * MARGIN, b.angle, CROP)
                 for b, _ in c.fitted]
        if not crops:
            return c
        _, logits = self._read_faces(crops)
        p_faces = self.judge.p_faces(logits)
        better = p_faces.max(axis=1) > c.p_faces.max(axis=1)
        if not better.any():
            return c
        keep = np.where(better[:, None], p_faces, c.p_faces)
        return replace(c, p_faces=keep, logits=np.where(better[:, None], logits, c.logits),
                       crops=[crops[i] if better[i] else c.crops[i] for i in range(len(crops))])

    def analyse(self, frame: np.ndarray, expected: int | None = None,
                background: np.ndarray | None = None) -> FrameResult:
        """Detect and read every die; positions are in the pixels of ``frame``.

        ``expected``: how many dice were rolled, when the table knows: the reader then
        proposes the ``expected`` places most surely read as dice (never one it finds very
        unlikely to be a die) and says in ``seen`` how many it would have reported without
        being told.
        ``background``: the still, empty tray as the camera saw it before the roll (same
        size as ``frame``): a blob that was there already is not a die.
        """
        t0 = time.perf_counter()
        came = self._view(frame)
        gain, mid = washed_out(came)
        view = stretched(came, gain, mid)
        bg = None
        if background is not None and background.shape[:2] == frame.shape[:2]:
            bg = stretched(self._view(background), gain, mid)  # as the frame, to compare
        if self.judge is not None:
            picked, seen, side = self._pick_judged(view, expected, bg)
        else:
            picked, seen, side = self._pick_plain(view, expected, bg)
        h, w = view.shape[:2]
        if not picked:
            # No die: the places weighed were the table's texture and say nothing of the
            # dice's size (on a stretched plain tray, a third of a die): the size the finder
            # assumes when it knows none.
            side = self.die_side or min(h, w) / 20.0
        # A hand is measured in dice, once a frame, on the frame as it came.
        obstruction = obstruction_share(came, side)
        dice = []
        for blob, ok, crop, face, conf in picked:
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
            if _too_small(min(blob.w, blob.h), conf):
                face, colour = UNKNOWN, (UNKNOWN if colour is not None else None)
            cx, cy, bw, bh = blob.bbox()
            zx, zy = cx / w, cy / h
            if self.tray is not None:
                corners = self.tray.to_frame([(cx - bw / 2, cy - bh / 2),
                                              (cx + bw / 2, cy + bh / 2)])
                (fx, fy), = self.tray.to_frame([(cx, cy)])
                bw, bh = np.abs(corners[1] - corners[0])
                cx, cy = fx, fy
            dice.append(Die(float(cx), float(cy), float(bw), float(bh), face, conf, colour,
                            self.zones.zone_of(zx, zy), float(blob.angle)))
        dice.sort(key=lambda d: (round(d.y / max(side, 1.0)), d.x))
        ms = (time.perf_counter() - t0) * 1000.0
        return FrameResult(tuple(dice), obstruction, side, ms, expected,
                           seen if expected is not None else None)

    def _pick_judged(self, view: np.ndarray, expected: int | None,
                     bg: np.ndarray | None) -> tuple[list, int, float]:
        assert self.judge is not None
        threshold = min(self.finder.threshold, JUDGED_HEAT)
        c = self._judged(view, threshold)
        p_die, checked = self._not_there_before(view, bg, c)
        scale = self.finder.scale
        usual = self.finder.input_side / min(view.shape[:2])
        if self.die_side is None and scale > USUAL_TOO * usual:
            places, self.finder.max_places = self.finder.max_places, USUAL_PLACES
            try:
                more = self._judged(view, threshold, die_side=TARGET_SIDE / usual)
            finally:
                self.finder.max_places = places
            p_more, checked_more = self._not_there_before(view, bg, more)
            c, p_die, checked = _merged(c, p_die, checked, more, p_more, checked_more)
            self.finder.scale = scale  # the frame's own scale, for a second look
        if sharpness([k for k, p in zip(c.crops, c.p_die, strict=True) if p >= SOFT_PLACES]) \
                < SOFT:
            c = self._sharper_faces(view, c)
        # Two places the finder kept apart can be fitted onto one die (a die and a piece of
        # it): each die is proposed once, as its surer place.
        same = _same_die(c.fitted)
        taken = _one_per_die(np.argsort(-p_die, kind="stable"), same)
        seen = int((p_die[taken] >= self.judge.die_below).sum())
        if expected is not None and seen < expected and self.die_side is None \
                and (bg is None or not unchanged(view, bg)):
            # (a tray that still looks as it did empty holds no dice to look again for: the
            # table announces a roll before the dice land)
            c, p_die, checked = self._look_again(view, bg, threshold, c, p_die, checked)
            same = _same_die(c.fitted)  # the places looked for again are among them now
        if expected is None:
            keep = [i for i in taken if p_die[i] >= self.judge.die_below]
            sure = p_die
        else:
            # Told there are N dice: the N places most surely read (a die, and its face), so
            # a die with a clear face outranks print a little like a die and like no face.
            order = _one_per_die(np.argsort(-(p_die * c.p_faces.max(axis=1)), kind="stable"),
                                 same)
            keep = [i for i in order[:max(expected, 0)] if p_die[i] >= EXPECT_FLOOR]
            # Told there are N dice, a kept place is a die unless the best place left out
            # is one instead: the chance of this one over that one.
            rest = 0.0
            # The best left out that was not there before (nothing kept, nothing to rate:
            # an empty tray would compare each of its places with itself one by one).
            for i in order[len(keep):] if keep else ():
                if checked[i] or not static_blobs(view, bg, [c.blobs[i]], c.die_side)[0]:
                    rest = p_die[i]
                    break
            sure = p_die / np.maximum(p_die + rest * (1 - p_die), 1e-9)
        out = []
        for i in keep:
            (blob, ok), crop = c.fitted[i], c.crops[i]
            j = int(np.argmax(c.p_faces[i]))
            out.append((blob, ok, crop, self.set.faces[j], float(sure[i] * c.p_faces[i, j])))
        return out, seen, c.die_side

    def _look_again(self, view: np.ndarray, bg: np.ndarray | None, threshold: float,
                    c: Candidates, p_die: np.ndarray, checked: np.ndarray
                    ) -> tuple[Candidates, np.ndarray, np.ndarray]:
        """Told of more dice than it sees: dice much smaller than the places that set the
        frame's scale (a board's spaces, card art) were read too coarse. The frame read again
        with them larger, and at the usual scale if it was read at another, merged in."""
        assert self.finder is not None
        scale = self.finder.scale
        scales = [LOOK_AGAIN * scale]
        usual = self.finder.input_side / min(view.shape[:2])
        # A frame read larger than usual was read at the usual scale already, its surest
        # places only (``_pick_judged``); short of dice, all its places are weighed (leaving
        # this pass out there read 2 dice fewer of about 4,000 told the count).
        if abs(np.log(usual / scale)) > np.log(1.2):
            scales.append(usual)
        for again in scales:
            more = self._judged(view, threshold, die_side=TARGET_SIDE / again)
            p_more, checked_more = self._not_there_before(view, bg, more)
            c, p_die, checked = _merged(c, p_die, checked, more, p_more, checked_more)
        self.finder.scale = scale  # the frame's own scale, as without the second look
        return c, p_die, checked

    def _not_there_before(self, view: np.ndarray, bg: np.ndarray | None,
                          c: Candidates) -> tuple[np.ndarray, np.ndarray]:
        """``p_die`` with places that were there before the roll set to 0, and which places
        were compared with the empty tray."""
        p_die = c.p_die.copy()
        checked = np.ones(len(p_die), bool)
        if bg is not None:
            # Only places that could be proposed: a busy table gives a hundred others.
            checked = p_die >= EXPECT_FLOOR
            could = np.flatnonzero(checked)
            static = static_blobs(view, bg, [c.blobs[i] for i in could], c.die_side)
            p_die[could[static]] = 0.0
        return p_die, checked

    def _pick_plain(self, view: np.ndarray, expected: int | None,
                    bg: np.ndarray | None) -> tuple[list, int, float]:
        det = (self.finder.find(view, self.die_side, cover=False) if self.finder is not None
               else find_dice(view, self.die_side))
        refined = self._facing_up(fit_blobs(view, det.blobs, det.die_side))
        crops = [die_crop(view, b.cx, b.cy, min(b.w, b.h) * MARGIN, b.angle, CROP)
                 for b, _ in refined]
        labels = self.classifier.classify(crops)
        static = (static_blobs(view, bg, list(det.blobs), det.die_side) if bg is not None
                  else np.zeros(len(crops), bool))
        scored = []  # (die-likeness, blob, fitted, crop, face, conf, reported on its own)
        for k, (found, (blob, ok), crop, (face, conf)) in enumerate(zip(
                det.blobs, refined, crops, labels, strict=True)):
            if static[k]:
                continue
            own = True
            if face == NONE:
                likeness = (found.heat or 1.0) * (1.0 - conf)
                if found.heat < SURE or conf >= self.unknown_below:
                    own = False
                # The finder is sure of a die the faces barely call "not a die" (a die much
                # like the table): say it is unsure rather than drop it silently.
                face = UNKNOWN
            else:
                likeness = (found.heat or 1.0) * conf
            if not ok and conf < self.unknown_below and isinstance(
                    self.classifier, TemplateClassifier):
                # No die-shaped body and no face matched well: a tray corner or a mark.
                own = False
            scored.append((likeness, blob, ok, crop, face, conf, own))
        seen = sum(s[-1] for s in scored)
        if expected is None:
            picked = [s for s in scored if s[-1]]
        else:
            picked = sorted(scored, key=lambda s: -s[0])[:max(expected, 0)]
            picked = [s for s in picked if s[0] >= EXPECT_FLOOR]
        return ([(b, ok, crop, face, conf) for _, b, ok, crop, face, conf, _ in picked], seen,
                det.die_side)

    def read(self, frame: np.ndarray) -> list[Die]:
        """The dice in one frame (no settling: see ``Settler`` for rolls)."""
        return list(self.analyse(frame).dice)


def _merged(c: Candidates, p_die: np.ndarray, checked: np.ndarray, more: Candidates,
            p_more: np.ndarray, checked_more: np.ndarray
            ) -> tuple[Candidates, np.ndarray, np.ndarray]:
    """The places of ``c`` and of ``more`` (the same frame read at another scale): where
    places of the two lie on each other (within half a die), the surer reading of them."""
    sure = p_die * c.p_faces.max(axis=1, initial=0.0)
    sure_more = p_more * more.p_faces.max(axis=1, initial=0.0)
    # which places of the two passes lie on each other, all pairs at once (a busy table
    # gives a hundred places a pass)
    a = np.array([(b.cx, b.cy, b.side) for b in c.blobs]).reshape(-1, 3)
    b = np.array([(m.cx, m.cy, m.side) for m in more.blobs]).reshape(-1, 3)
    on = np.hypot(b[:, None, 0] - a[None, :, 0], b[:, None, 1] - a[None, :, 1]) \
        < 0.5 * np.maximum(b[:, None, 2], a[None, :, 2])
    drop: set[int] = set()
    new = []
    for j in range(len(b)):
        near = np.flatnonzero(on[j])
        if not len(near) or sure_more[j] > sure[near].max():
            new.append(j)
            drop.update(near.tolist())
    if not new:
        return c, p_die, checked
    keep = [i for i in range(len(c.blobs)) if i not in drop]
    merged = Candidates(
        [c.blobs[i] for i in keep] + [more.blobs[j] for j in new],
        [c.fitted[i] for i in keep] + [more.fitted[j] for j in new],
        [c.crops[i] for i in keep] + [more.crops[j] for j in new],
        np.concatenate([c.inputs[keep], more.inputs[new]]),
        np.concatenate([c.logits[keep], more.logits[new]]),
        np.concatenate([c.p_die[keep], more.p_die[new]]),
        np.concatenate([c.p_faces[keep], more.p_faces[new]]), c.die_side)
    return (merged, np.concatenate([p_die[keep], p_more[new]]),
            np.concatenate([checked[keep], checked_more[new]]))


def _same_die(fitted: list[tuple[Blob, bool]]) -> np.ndarray:
    """``[i, j]``: the fitted dice of places ``i`` and ``j`` are one die (centres within
    ``SAME_DIE`` of the smaller die's side)."""
    boxes = np.array([(b.cx, b.cy, min(b.w, b.h)) for b, _ in fitted]).reshape(-1, 3)
    return one_die(boxes, boxes, SAME_DIE)


def _one_per_die(order: np.ndarray, near: np.ndarray) -> list[int]:
    """``order`` without the places that are one die (``near``) with a place before them."""
    taken: list[int] = []
    for i in order:
        if not near[i, taken].any():
            taken.append(int(i))
    return taken


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def static_blobs(view: np.ndarray, background: np.ndarray, blobs: list[Blob], side: float
                 ) -> np.ndarray:
    """Which blobs look as they did on the empty tray (``background``): a mark, a stain or
    a printed spot that was there before the roll. The light's change between the two (a
    cloud, the lamp's flicker, a shadow) is taken out before comparing: the change of the
    table round the blob, in a window twice its size."""
    import cv2

    out = np.zeros(len(blobs), bool)
    for k, b in enumerate(blobs):
        s = max(side, b.side) * 0.9
        now = die_crop(view, b.cx, b.cy, 2 * s, 0.0, 32).astype(np.float32)
        before = die_crop(background, b.cx, b.cy, 2 * s, 0.0, 32).astype(np.float32)
        # The light's change is the table's, measured round the blob (a die filling the
        # blob's own patch would take itself out), as a gain per colour: a dimmer or warmer
        # light changes a dark spot less than the pale table round it.
        gain = np.median(now.reshape(-1, 3), axis=0) / np.maximum(
            np.median(before.reshape(-1, 3), axis=0), 1.0)
        a = cv2.cvtColor(now.astype(np.uint8), cv2.COLOR_BGR2Lab).astype(np.float32)
        c = cv2.cvtColor(np.clip(before * gain, 0, 255).astype(np.uint8),
                         cv2.COLOR_BGR2Lab).astype(np.float32)
        d = a - c
        d -= np.median(d.reshape(-1, 3), axis=0)
        d = d[8:24, 8:24]  # the blob itself
        out[k] = float(np.sqrt((d * d).sum(axis=2)).mean()) < STATIC
    return out


def unchanged(view: np.ndarray, background: np.ndarray) -> bool:
    """Whether the frame shows nothing the empty tray did not: seen 160 pixels wide, where a
    camera's noise averages out and the smallest die readable still covers a dozen pixels,
    no more than three pixels differ by more than noise (12 grey levels)."""
    import cv2

    h, w = view.shape[:2]
    size = (160, max(1, round(h * 160 / w)))

    def small(image: np.ndarray) -> np.ndarray:
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        return cv2.GaussianBlur(cv2.resize(grey, size, interpolation=cv2.INTER_AREA), (3, 3), 0)

    return int((cv2.absdiff(small(view), small(background)) > 12).sum()) <= 3


__all__ = ["Candidates", "DiceReader", "FrameResult", "FACE_SETS", "static_blobs", "unchanged"]
