"""A sample of the real d6 dev photos (phone photos of a dice tray, many dice kinds)."""

from __future__ import annotations

import cv2
import pytest

from companion.vision import DiceReader
from companion.vision.bench import Score
from companion.vision.domains import close, domains, turn
from companion.vision.labeled import load_labeled_dir

from .conftest import DEV

pytestmark = pytest.mark.skipif(
    not (DEV / "images").is_dir(),
    reason=f"dev photos not found at {DEV} (../shared/data/dice-photos/d6-tray-dev)",
)


def test_sample_of_dev_photos() -> None:
    _, items = load_labeled_dir(DEV)
    sample = items[::10]  # 20 photos from both sessions
    reader = DiceReader("d6")
    score = Score()
    for item in sample:
        result = reader.analyse(cv2.imread(str(item.image)))
        score.add(item, result.dice, result.ms)
    s = score.summary()
    assert s["recall"] >= 0.93, s
    assert s["precision"] >= 0.9, s
    assert s["die_accuracy"] >= 0.85, s


# Two touching dice each, which the frame's scale shows as one place (the lower die of each
# pair was missed before the finder looked closer at long places).
TOUCHING = ["IMG_20191208_111751", "IMG_20191208_111858", "IMG_20191208_111913",
            "IMG_20191208_112020", "IMG_20191209_095613"]


def test_touching_dice_are_read_as_two() -> None:
    _, items = load_labeled_dir(DEV)
    reader = DiceReader("d6")
    score = Score()
    for item in (it for it in items if it.image.stem in TOUCHING):
        result = reader.analyse(cv2.imread(str(item.image)))
        score.add(item, result.dice, result.ms)
    s = score.summary()
    assert s["images"] == len(TOUCHING)
    assert s["recall"] == 1.0 and s["precision"] == 1.0, s


def test_dice_turned_45_degrees_are_read() -> None:
    # Dice land at any angle; turned 45 degrees the photos' dice show boxes 1.4 times their
    # side: read 77 % right when boxes of 20-24 pixels were taken as dice the network reads
    # well, 91 % since such frames are read larger.
    _, items = load_labeled_dir(DEV)
    reader = DiceReader("d6")
    score = Score()
    for item in items[::20]:
        image, turned = turn(cv2.imread(str(item.image)), item, 45.0)
        result = reader.analyse(image)
        score.add(turned, result.dice, result.ms)
    s = score.summary()
    assert s["die_accuracy"] >= 0.88 and s["precision"] >= 0.98, s


def test_a_close_photo_of_a_die_reads_the_die_not_its_pips() -> None:
    # A phone held close: the photo cut round one die, 0.17 and 0.12 of it enlarged to 640
    # px (that die 235 and 333 px wide). Read at the frame's scale its pips look like dice
    # showing 1: 52 % of these dice right at precision 0.76 before the frame was also read
    # at a third of its scale, where the die is whole.
    _, items = load_labeled_dir(DEV)
    reader = DiceReader("d6")
    score = Score()
    for item in items[:40:4]:
        image = cv2.imread(str(item.image))
        side = min(image.shape[:2])
        for share in (0.17, 0.12):
            frame, cut = close(image, item, item.boxes[0].w / (share * side), 0)
            result = reader.analyse(frame)
            score.add(cut, result.dice, result.ms)
    s = score.summary()
    assert s["images"] == 20 and s["labelled_dice"] >= 20
    assert s["die_accuracy"] >= 0.85 and s["precision"] >= 0.95, s


# Close photos (``close-shoot-N`` of ``bench vision-domains``: one die a quarter to 0.6 of the
# frame) with dice cut by the frame's edge around the whole one: the places outside it once
# kept its pips from being read as the die (none of the six dice read right, half missed).
CLOSE_AMONG_OTHERS = {"close-shoot-1": (4, 7, 54), "close-shoot-2": (0, 51)}


def test_a_close_die_among_dice_cut_by_the_edge_is_read_whole() -> None:
    frames = domains(DEV, 0, 0)
    reader = DiceReader("d6")
    score = Score()
    for name, picks in CLOSE_AMONG_OTHERS.items():
        for k, (image, item) in enumerate(frames[name]()):
            if k in picks:
                result = reader.analyse(image)
                score.add(item, result.dice, result.ms)
    s = score.summary()
    assert s["images"] == 5 and s["labelled_dice"] == 6
    assert s["recall"] == 1.0 and s["precision"] == 1.0 and s["die_accuracy"] >= 5 / 6, s
