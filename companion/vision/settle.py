"""Settle: turn a stream of frames into final readings.

A reading becomes final only when the dice have stopped moving and the same faces are read at
the same places over several consecutive frames. A hand over the tray, tumbling or spinning
dice, or a face that flickers between frames restart the count. Each settled roll is
emitted once; the next one needs the scene to change first.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .reader import DiceReader, FrameResult
from .types import Die, Reading

# Share of a frame's pixels that must change for it to be taken as tumbling unread.
TUMBLING_SHARE = 0.01


class MotionMeter:
    """How much changed since the previous frame, in pixels at a fixed small scale.

    >>> m = MotionMeter()
    >>> img = np.zeros((120, 160, 3), np.uint8)
    >>> m.feed(img), m.feed(img)
    (inf, 0.0)
    """

    WIDTH = 160

    def __init__(self) -> None:
        self._prev: np.ndarray | None = None
        self.scale = 1.0

    def feed(self, frame: np.ndarray) -> float:
        h, w = frame.shape[:2]
        self.scale = self.WIDTH / w
        small = cv2.resize(frame, (self.WIDTH, max(1, round(h * self.scale))),
                           interpolation=cv2.INTER_AREA)
        gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)
        prev, self._prev = self._prev, gray
        if prev is None or prev.shape != gray.shape:
            return float("inf")
        # 12 grey levels: above sensor noise, below a die edge.
        return float((cv2.absdiff(gray, prev) > 12).sum())

    def reset(self) -> None:
        self._prev = None


class ObstructionMeter:
    """Share of the frame covered by a large new object (a hand, an arm) since the last calm
    frame. Dice moving around change only die-sized patches and do not count.

    The reference frame follows the scene while it is calm; a large change that stays still
    for ``adopt_after`` frames (a box lid put down) becomes the new reference.
    """

    WIDTH = 160

    def __init__(self, adopt_after: int = 12) -> None:
        self.adopt_after = adopt_after
        self._ref: np.ndarray | None = None
        self._held = 0

    def feed(self, frame: np.ndarray, die_side: float, still: bool) -> float:
        h, w = frame.shape[:2]
        scale = self.WIDTH / w
        small = cv2.resize(frame, (self.WIDTH, max(1, round(h * scale))),
                           interpolation=cv2.INTER_AREA)
        lab = cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2Lab)
        lab = lab.astype(np.float32)
        if self._ref is None or self._ref.shape != lab.shape:
            self._ref = lab
            return 0.0
        d = np.sqrt(((lab - self._ref) ** 2).sum(axis=2))
        mask = (d > 20).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        die_area = max((die_side * scale) ** 2, 4.0)
        big = sum(int(a) for a in stats[1:, cv2.CC_STAT_AREA] if a > 6 * die_area)
        frac = big / float(mask.size)
        if still and frac == 0.0:
            self._ref = lab
            self._held = 0
        elif still:
            self._held += 1
            if self._held >= self.adopt_after:
                self._ref = lab
                self._held = 0
        else:
            self._held = 0
        return frac

    def reset(self) -> None:
        self._ref = None
        self._held = 0


def _same(a: tuple[Die, ...], b: tuple[Die, ...], tol: float) -> bool:
    if len(a) != len(b):
        return False
    used: set[int] = set()
    for d in a:
        hit = None
        for j, e in enumerate(b):
            if j not in used and e.face == d.face and np.hypot(d.x - e.x, d.y - e.y) <= tol:
                hit = j
                break
        if hit is None:
            return False
        used.add(hit)
    return True


@dataclass
class Settler:
    """Decide when a roll is final from per-frame results and a motion measure.

    ``frames``: consecutive still, agreeing frames needed. ``still``: motion below this many
    die areas counts as still. ``max_obstruction``: share of the frame a hand may cover.

    >>> from companion.vision.types import Die
    >>> s = Settler(frames=2)
    >>> r = FrameResult((Die(10, 10, 8, 8, "4", 0.99),), 0.0, 8.0, 1.0)
    >>> [s.update(r, motion=0.0) is not None for _ in range(3)]
    [False, True, False]
    """

    frames: int = 3
    still: float = 0.25
    max_obstruction: float = 0.01
    position_tolerance: float = 0.35  # of a die side
    emit_empty: bool = False

    def __post_init__(self) -> None:
        self._run: list[FrameResult] = []
        self._emitted: tuple[Die, ...] | None = None
        self.state = "waiting"

    def reset(self) -> None:
        self._run.clear()
        self._emitted = None
        self.state = "waiting"

    def update(self, result: FrameResult, motion: float, index: int = 0,
               timestamp: float | None = None) -> Reading | None:
        """Feed one frame's result; returns a Reading the moment the roll is final."""
        side = max(result.die_side, 1.0)
        tol = self.position_tolerance * side
        moving = motion > self.still * side * side
        # The last emitted roll is kept through motion and hands: a hand passing over dice
        # that stay where they were must not announce the same roll twice.
        if result.obstruction > self.max_obstruction:
            self.state = "hand"
            self._run.clear()
            return None
        if moving:
            self.state = "moving"
            self._run.clear()
            return None
        if self._run and not _same(self._run[-1].dice, result.dice, tol):
            self._run.clear()
            self.state = "changing"
        self._run.append(result)
        if len(self._run) < self.frames:
            self.state = "settling"
            return None
        if self._emitted is not None and _same(self._emitted, result.dice, tol):
            self.state = "settled"
            return None
        if not result.dice and not self.emit_empty:
            self.state = "empty"
            return None
        self._emitted = result.dice
        self.state = "settled"
        return Reading(result.dice, index, time.time() if timestamp is None else timestamp)


class SettleWatcher:
    """Reader + motion meter + settler: feed frames, get settled readings.

    What the table knows helps the reader:

    * ``expect(n)``: how many dice were rolled (None: not known). The reader then proposes
      the ``n`` places most surely read as dice, and a reading whose reader saw another
      number says so in ``reading.extra`` (``{"expected": n, "seen": m}``): the table can ask.
    * the **tray before the roll**: while the tray is still and the reader sees no die in
      it, and while it is still after ``expect`` announced a roll and before anything moves,
      the frame is blended into a background model (``background``). A blob that looks as it
      did there (a stain, a knot, a printed spot, a die left lying) was there before the
      roll and is not proposed. ``empty_tray()`` takes the last frame as the empty tray.

    >>> from companion.vision.sources import SyntheticSource
    >>> src = SyntheticSource("d6", n_dice=3, seed=2, roll_frames=3, settle_frames=5)
    >>> watcher = SettleWatcher(DiceReader("d6"))
    >>> readings = [r for f in [src.read() for _ in range(8)] if (r := watcher.feed(f.image))]
    >>> len(readings), len(readings[0].dice)
    (1, 3)
    """

    # Weight of each new still, empty frame in the background model.
    BLEND = 0.25

    def __init__(self, reader: DiceReader, settler: Settler | None = None) -> None:
        self.reader = reader
        self.settler = settler or Settler()
        self.motion = MotionMeter()
        self.obstruction = ObstructionMeter()
        self.last: FrameResult | None = None
        self.expected: int | None = None
        self.background: np.ndarray | None = None
        self._frame: np.ndarray | None = None
        self._before_roll = False  # a roll was announced and nothing has moved yet
        self._index = 0
        self._dice_side: float | None = None  # the side of the dice last seen
        # The last frame read, with what the reader was told and what it gave: a frame
        # identical to it, told the same, reads the same (a still picture from a file or a
        # render; a camera's sensor noise never repeats a frame exactly).
        self._read: tuple[np.ndarray, int | None, np.ndarray | None, FrameResult] | None = None

    def expect(self, count: int | None) -> None:
        """The number of dice in the coming roll (None when the table does not know)."""
        if count is not None and (not isinstance(count, int) or count < 0):
            raise ValueError(f"expected dice must be a whole number of 0 or more, not {count!r}")
        self.expected = count
        self._before_roll = count is not None

    def empty_tray(self, frame: np.ndarray | None = None) -> None:
        """Take ``frame`` (default: the last one fed) as the still, empty tray."""
        frame = self._frame if frame is None else frame
        if frame is not None:
            self.background = frame.astype(np.float32)

    def _tumbling(self, motion: float, frame: np.ndarray) -> bool:
        """Whether the frame moved so much that any reading of it would count as moving: over
        four times the still bound at the last die size, and over a hundredth of the frame
        (so a noisy camera over an empty tray, where the die size is unknown, is still read)."""
        if self.last is None or not np.isfinite(motion):
            return False
        side = max(self.last.die_side, 1.0)
        return motion > max(4 * self.settler.still * side * side,
                            TUMBLING_SHARE * frame.shape[0] * frame.shape[1])

    def feed(self, frame: np.ndarray) -> Reading | None:
        motion = self.motion.feed(frame)
        # Motion is measured on the small frame; bring it back to frame pixels.
        motion /= max(self.motion.scale, 1e-6) ** 2
        self._index += 1
        self._frame = frame
        bg = self.background
        if bg is not None and bg.shape != frame.shape:
            bg = self.background = None  # another camera size: learn the tray again
        if self._tumbling(motion, frame):
            # Dice tumbling or a hand sweeping through: the settler drops this frame's
            # reading whatever it holds, so the frame is not read (the Pi's time and heat).
            side = self.last.die_side  # (known: a first frame is never tumbling)
            result = FrameResult((), self.obstruction.feed(frame, side, False), side, 0.0,
                                 self.expected, None)
            self.last = result
            self._before_roll = False
            return self.settler.update(result, motion, self._index)
        told = {}  # what the table knows, passed only when known
        if self.expected is not None:
            told["expected"] = self.expected
        if bg is not None:
            told["background"] = np.clip(bg, 0, 255).astype(np.uint8)
        last = self._read
        if last is not None and last[1] == self.expected and last[2] is bg \
                and last[0].shape == frame.shape and np.array_equal(last[0], frame):
            result = last[3]
        else:
            result = self.reader.analyse(frame, **told)
            self._read = (frame.copy(), self.expected, bg, result)
        if result.dice:
            self._dice_side = result.die_side
        elif self._dice_side is not None:
            # A tray with no dice says nothing of their size (the reader's guess comes from
            # the table's texture): the dice just lifted away are measured by the dice last
            # seen, or their leaving looks like a hand.
            result = replace(result, die_side=self._dice_side)
        side = max(result.die_side, 1.0)
        still = motion <= self.settler.still * side * side
        covered = self.obstruction.feed(frame, side, still)
        if covered > result.obstruction:
            result = FrameResult(result.dice, covered, result.die_side, result.ms,
                                 result.expected, result.seen)
        empty = (result.seen == 0) if result.seen is not None else not result.dice
        if not still and np.isfinite(motion):  # (the first frame has nothing to compare)
            self._before_roll = False
        if still and (empty or self._before_roll) \
                and result.obstruction <= self.settler.max_obstruction:
            f = frame.astype(np.float32)
            if bg is None:
                self.background = f
            else:
                self.background = bg * (1 - self.BLEND) + f * self.BLEND
        self.last = result
        reading = self.settler.update(result, motion, self._index)
        if reading is not None and result.count_differs:
            reading.extra.update(expected=result.expected, seen=result.seen)
        return reading
