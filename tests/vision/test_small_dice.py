"""Dice too small to read are "?" (the table asks for them), not guessed: frames shrunk until
their dice are a few pixels across, where the networks are sure of faces they read wrong."""

from __future__ import annotations

import json

import cv2
import numpy as np

from companion.cli import main
from companion.vision import DiceReader, SyntheticTray
from companion.vision.reader import SMALL_SIDE, SMALL_SURE, SMALLEST_READ, _too_small


def shrunk_frames(side: float, frames: int = 6, seed: int = 41):
    """Rendered trays of six dice, scaled so that their dice are about ``side`` pixels."""
    tray = SyntheticTray("d6", seed=seed)
    for _ in range(frames):
        image, truth = tray.render(n_dice=6)
        f = side / float(np.median([t.side for t in truth]))
        yield cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)


def test_dice_a_few_pixels_across_are_asked_for_not_guessed() -> None:
    reader = DiceReader("d6")
    places = [d for image in shrunk_frames(7.0) for d in reader.read(image)]
    assert len(places) >= 12  # still found: the table knows there is a die to ask for
    tiny = [d for d in places if min(d.w, d.h) < SMALLEST_READ]
    assert tiny and all(d.face == "?" for d in tiny), [(d.w, d.face) for d in tiny]


def test_small_dice_are_read_only_when_sure() -> None:
    # Under SMALL_SIDE pixels a face needs SMALL_SURE; under SMALLEST_READ none is given.
    assert SMALLEST_READ < SMALL_SIDE <= 14.0 and 0.5 < SMALL_SURE < 1.0
    assert _too_small(SMALLEST_READ - 0.5, 0.999)
    assert _too_small(SMALL_SIDE - 0.5, SMALL_SURE - 0.05)
    assert not _too_small(SMALL_SIDE - 0.5, SMALL_SURE + 0.05)
    assert not _too_small(SMALL_SIDE + 0.5, 0.6)  # from there the usual "?" below 0.5 holds


def test_read_says_the_dice_are_too_small(tmp_path, capsys) -> None:
    photo = tmp_path / "far.png"
    far = next(shrunk_frames(7.0))
    cv2.imwrite(str(photo), far)
    assert main(["read", "--annotate", str(tmp_path / "ann"), str(photo)]) == 0
    # drawn enlarged, or the labels would hide dice this small
    drawn = cv2.imread(str(tmp_path / "ann" / "far.png"))
    assert drawn.shape[0] >= 3 * far.shape[0] and drawn.shape[1] >= 3 * far.shape[1]
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert line["dice"] and all(d["face"] == "?" or d["confidence"] >= SMALL_SURE
                                for d in line["dice"])
    assert "bring the camera closer" in line["note"]
    big = tmp_path / "near.png"
    cv2.imwrite(str(big), next(shrunk_frames(40.0)))
    assert main(["read", str(big)]) == 0
    assert "note" not in json.loads(capsys.readouterr().out.strip().splitlines()[-1])
