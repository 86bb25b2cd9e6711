"""A sample of the real d6 dev photos (phone photos of a dice tray, many dice kinds)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import DiceReader
from companion.vision.bench import Score
from companion.vision.domains import close, domains, turn
from companion.vision.labeled import Box, LabeledImage, load_labeled_dir

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


def test_a_phones_full_resolution_photo_is_read_as_the_small_one() -> None:
    # A phone's full resolution shows each die 200-300 pixels wide with the sensor's noise
    # on every pixel: the dev photos enlarged 6 times, noise (sd 40) and JPEG on top. (Cut
    # down to 32 pixels by warping alone, a die's crop carried that noise: 20 such photos
    # enlarged 8 times read 97.3 % of 149 dice right, 100 % with the crop averaged first;
    # these 10 read right either way, see test_crops.py for the crop itself.)
    up = 6
    _, items = load_labeled_dir(DEV)
    reader = DiceReader("d6")
    score = Score()
    cv2.setRNGSeed(0)
    for item in items[::20]:
        image = cv2.imread(str(item.image))
        big = cv2.resize(image, None, fx=up, fy=up, interpolation=cv2.INTER_CUBIC)
        noise = np.empty(big.shape, np.int16)
        cv2.randn(noise, 0, 40)
        noisy = np.clip(big.astype(np.int16) + noise, 0, 255).astype(np.uint8)
        _, jpeg = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 85])

        def larger(boxes: tuple[Box, ...]) -> tuple[Box, ...]:
            return tuple(Box(b.cx * up, b.cy * up, b.w * up, b.h * up, b.face) for b in boxes)

        result = reader.analyse(cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
        score.add(LabeledImage(item.image, larger(item.boxes), larger(item.ignore)),
                  result.dice, result.ms)
    s = score.summary()
    assert s["images"] == 10 and s["labelled_dice"] >= 60
    assert s["recall"] == 1.0 and s["die_accuracy"] >= 0.98, s


def test_dev_photos_out_of_focus_are_read_sharpened() -> None:
    # The dev photos blurred by 2.5 pixels (their dice 30-60 wide): 85.5 % of these 76 dice
    # read right without their faces read again on the frame sharpened, 89.5 % with it; the
    # blur leaves 6 of them too faint to find or to be sure of (4 before the judge learned
    # game tokens, when these read 86.8 and 92.1 %).
    _, items = load_labeled_dir(DEV)
    reader = DiceReader("d6")
    score = Score()
    for item in items[5::20]:
        image = cv2.GaussianBlur(cv2.imread(str(item.image)), (0, 0), 2.5)
        result = reader.analyse(image)
        score.add(item, result.dice, result.ms)
    s = score.summary()
    assert s["labelled_dice"] == 76
    assert s["recall"] >= 0.92 and s["die_accuracy"] >= 0.89, s
