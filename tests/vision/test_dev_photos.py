"""A sample of the real d6 dev photos (phone photos of a dice tray, many dice kinds)."""

from __future__ import annotations

import cv2
import pytest

from companion.vision import DiceReader
from companion.vision.bench import Score
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
