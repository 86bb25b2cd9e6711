"""A camera out of focus: the frame is read again sharpened for the dice's faces."""

from __future__ import annotations

import cv2

from companion.vision import DiceReader
from companion.vision import reader as reader_module
from companion.vision.synth import SyntheticTray

from .conftest import dice_right


def test_the_faces_of_a_tray_out_of_focus_are_read_sharpened(monkeypatch) -> None:
    # A blur of 3 pixels on dice about 50 wide (a camera module focused on the far wall):
    # of these 60 dice, 55 are found (the blur leaves the others too faint, or the judge
    # turns them down: 58 before it learned game tokens); read again on the frame sharpened,
    # every face found is read right, 53 without that.
    def read_blurred() -> int:
        reader = DiceReader("d6")
        right = 0
        for seed in range(700, 712):
            tray = SyntheticTray("d6", width=640, height=480, seed=seed)
            image, truth = tray.render(n_dice=5, touching=0.0)
            dice = reader.analyse(cv2.GaussianBlur(image, (0, 0), 3.0)).dice
            right += dice_right(dice, truth)
        return right

    sharpened = read_blurred()
    monkeypatch.setattr(reader_module, "SOFT", 0.0)  # never read again sharpened
    assert sharpened >= 55 and sharpened >= read_blurred() + 2, sharpened


def test_only_dice_out_of_focus_are_read_again() -> None:
    # Sharp dice take no second reading: a frame in focus costs what it did.
    reader = DiceReader("d6")
    tray = SyntheticTray("d6", width=640, height=480, seed=700)
    image, _ = tray.render(n_dice=5, touching=0.0)
    again = []
    sharper = reader._sharper_faces

    def counted(view, c):
        again.append(view)
        return sharper(view, c)

    reader._sharper_faces = counted
    reader.analyse(image)
    assert again == []
    reader.analyse(cv2.GaussianBlur(image, (0, 0), 3.0))
    assert len(again) == 1
