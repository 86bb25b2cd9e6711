"""Settle: only still, agreeing frames make a reading; motion and hands never do."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import DiceReader, Settler, SettleWatcher, SyntheticSource, SyntheticTray
from companion.vision.reader import FrameResult
from companion.vision.types import Die


def result(*faces: str, obstruction: float = 0.0, shift: float = 0.0) -> FrameResult:
    dice = tuple(Die(20.0 + 40 * i + shift, 30.0, 20, 20, f, 0.99) for i, f in enumerate(faces))
    return FrameResult(dice, obstruction, 20.0, 1.0)


def test_reading_only_after_consecutive_still_agreeing_frames() -> None:
    s = Settler(frames=3)
    assert s.update(result("3", "5"), motion=0) is None
    assert s.update(result("3", "5"), motion=0) is None
    reading = s.update(result("3", "5"), motion=0)
    assert reading is not None and reading.faces() == ["3", "5"]
    # Emitted once, not again while nothing changes.
    assert s.update(result("3", "5"), motion=0) is None


def test_motion_restarts_the_count() -> None:
    s = Settler(frames=3)
    s.update(result("3"), motion=0)
    s.update(result("3"), motion=0)
    assert s.update(result("3"), motion=1e6) is None
    assert s.state == "moving"
    assert s.update(result("3"), motion=0) is None
    assert s.update(result("3"), motion=0) is None
    assert s.update(result("3"), motion=0) is not None


def test_flickering_face_never_settles() -> None:
    s = Settler(frames=3)
    out = [s.update(result("3" if i % 2 else "5"), motion=0) for i in range(12)]
    assert out == [None] * 12


def test_spinning_die_that_keeps_moving_never_settles() -> None:
    s = Settler(frames=3)
    out = [s.update(result("4", shift=i * 15.0), motion=0) for i in range(10)]
    assert out == [None] * 10


def test_hand_over_tray_blocks_reading() -> None:
    s = Settler(frames=2)
    out = [s.update(result("6", obstruction=0.2), motion=0) for _ in range(6)]
    assert out == [None] * 6
    assert s.state == "hand"


def test_empty_tray_is_not_a_roll() -> None:
    s = Settler(frames=2)
    assert [s.update(result(), motion=0) for _ in range(4)] == [None] * 4


def test_watcher_on_rendered_rolls_with_a_still_hand() -> None:
    # Rolls 1 and 3 settle normally; roll 2 has a hand held still over the tray.
    src = SyntheticSource(
        "outatime", n_dice=4, seed=4, roll_frames=3, settle_frames=7, hand_every=2
    )
    watcher = SettleWatcher(DiceReader("outatime"))
    readings = []
    for _ in range(30):
        frame = src.read()
        r = watcher.feed(frame.image)
        if r is not None:
            readings.append((src._roll, sorted(r.faces()), sorted(d.face for d in src.truth)))
    rolls = [roll for roll, _, _ in readings]
    assert rolls == [1, 3]
    for _, read, truth in readings:
        assert read == truth


def test_hand_passing_over_settled_dice_does_not_repeat_the_roll() -> None:
    s = Settler(frames=2)
    assert [s.update(result("2", "4"), motion=0) is not None for _ in range(3)] == \
        [False, True, False]
    s.update(result("2", obstruction=0.3), motion=1e6)
    assert [s.update(result("2", "4"), motion=0) for _ in range(3)] == [None] * 3
    # A new roll (other places) is announced.
    assert [s.update(result("2", "4", shift=60), motion=0) is not None
            for _ in range(2)] == [False, True]


@pytest.mark.slow
def test_tumbling_frames_are_not_read_and_the_rolls_are_the_same() -> None:
    # A frame that moved far more than any still bound is dropped by the settler whatever it
    # reads, so the watcher does not read it; still frames (and a noisy empty tray) are read.
    def run(skip: bool) -> tuple[list[list[str]], int]:
        src = SyntheticSource("d6", n_dice=3, seed=8, roll_frames=4, settle_frames=6)
        noise = np.random.default_rng(8)  # a camera's: no two still frames are the same
        watcher = SettleWatcher(DiceReader("d6"))
        if not skip:
            watcher._tumbling = lambda motion, frame: False  # type: ignore[method-assign]
        reads = _count_reads(watcher)
        found = [sorted(r.faces()) for _ in range(40)
                 if (r := watcher.feed(_noisy(src.read().image, noise))) is not None]
        return found, len(reads)

    skipped, read_skipping = run(skip=True)
    every, read_all = run(skip=False)
    assert len(skipped) == 4 and skipped == every
    assert read_all == 40 and read_skipping <= 40 - 3 * 4, read_skipping

    # A small change over an empty tray (a flickering light on a patch smaller than a
    # hundredth of the frame) is not tumbling: every frame is read.
    watcher = SettleWatcher(DiceReader("d6"))
    tray = np.full((480, 640, 3), 120, np.uint8)
    for k in range(6):
        frame = tray.copy()
        frame[100:140, 100:140] = 200 if k % 2 else 60
        watcher.feed(frame)
        assert watcher.last is not None and watcher.last.ms > 0, k


def _count_reads(watcher: SettleWatcher) -> list[None]:
    """A list that grows by one each time the watcher's reader reads a frame."""
    reads: list[None] = []
    analyse = watcher.reader.analyse

    def counted(*args, **kwargs):
        reads.append(None)
        return analyse(*args, **kwargs)

    watcher.reader.analyse = counted  # type: ignore[method-assign]
    return reads


def _noisy(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.clip(image + rng.integers(-2, 3, image.shape), 0, 255).astype(np.uint8)


def test_a_frame_identical_to_the_last_one_read_is_not_read_again() -> None:
    # A still render or a photo from a file repeats a frame exactly: the reading would be the
    # same, so it is not made again. Told another count, or with another empty tray, it is.
    image, _ = SyntheticSource("d6", n_dice=2, seed=3).tray.render(2)
    watcher = SettleWatcher(DiceReader("d6"))
    reads = _count_reads(watcher)
    readings = [watcher.feed(image.copy()) for _ in range(4)]  # (the first one moved)
    assert len(reads) == 1 and readings[-1] is not None and len(readings[-1].dice) == 2
    watcher.expect(2)
    watcher.feed(image)
    assert len(reads) == 2
    watcher.empty_tray(np.full_like(image, 90))
    watcher.feed(image)
    assert len(reads) == 3
    watcher.feed(_noisy(image, np.random.default_rng(1)))  # a camera's next frame
    assert len(reads) == 4


def test_dice_lifted_off_under_a_close_camera_are_not_a_hand() -> None:
    # Dice over a hundred pixels across; the empty tray tells nothing of their size and the
    # reader then assumes a twentieth of the frame. The watcher measures the dice being lifted
    # away by the dice it last saw: at the assumed size they were a hand, and the table did
    # not settle on the empty tray.
    tray = SyntheticTray("d6", seed=2, keep_scene=True, die_side=(0.19, 0.2))
    watcher = SettleWatcher(DiceReader("d6"), Settler(emit_empty=True))
    for faces in (["3", "5"], [], ["2", "4"], []):
        image, _ = tray.render(faces=faces)
        readings = [r for r in (watcher.feed(image) for _ in range(6)) if r is not None]
        assert watcher.settler.state == "settled", (faces, watcher.settler.state)
        assert len(readings) == 1 and sorted(d.face for d in readings[0].dice) == faces
        assert watcher.last.die_side > 100 and watcher.last.obstruction == 0.0
