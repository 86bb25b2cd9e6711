"""Busy tables: marks the finder takes for dice must not set the frame's scale and die side
for the dice lying on them."""

from __future__ import annotations

from itertools import islice

import numpy as np
import pytest

import companion.vision.reader as reader_module
from companion.vision import DiceReader
from companion.vision.classify import NetClassifier
from companion.vision.classify import softmax as _softmax
from companion.vision.detect import Blob
from companion.vision.domains import scene_frames
from companion.vision.labeled import match_blobs
from companion.vision.scenes import FAMILIES

# the held-apart seed of OUTATIME's dice on the patterned cloth (``domains(dice_set=...)``)
PATTERN_SEED = 40 + FAMILIES.index("pattern")


def _frame(k: int):
    *_, (image, item) = islice(scene_frames("pattern", k + 1, PATTERN_SEED,
                                            dice_set="outatime"), k + 1)
    return image, item


def _right(dice, item) -> tuple[int, int]:
    """(dice read right, places read where no die lies)"""
    matched, extra = match_blobs([Blob(d.x, d.y, d.w, d.h, 0.0) for d in dice], item.boxes)
    return sum(dice[i].face == item.boxes[j].face for i, j in matched.items()), len(extra)


def test_a_frame_read_larger_for_small_marks_is_read_at_the_usual_scale_too(monkeypatch) -> None:
    # A cloth printed with small marks the finder is sure are dice: it reads the frame
    # larger, where two of the eight dice, a usual size, are lost. Read at the usual scale
    # too, they are found and read.
    image, item = _frame(7)
    reader = DiceReader("outatime")
    both = reader.analyse(image)
    usual = reader.finder.input_side / min(image.shape[:2])
    assert reader.finder.scale > reader_module.USUAL_TOO * usual
    assert len(item.boxes) == 8 and _right(both.dice, item) == (7, 0)
    monkeypatch.setattr(reader_module, "USUAL_TOO", float("inf"))
    larger_only = reader.analyse(image)
    assert _right(larger_only.dice, item)[0] <= 5


def test_the_dice_the_judge_finds_set_the_side_when_the_marks_did(monkeypatch) -> None:
    # A cloth of squares with a dot in each, larger than the dice: the finder is sure of
    # the squares, and they set the frame's die side at one and a half times the dice's.
    # Weighed against it (size, the table round each place, the fit), one die is turned
    # down; read again with the side of the dice the judge finds, it is read.
    image, item = _frame(3)
    reader = DiceReader("outatime")
    judged = reader.analyse(image)
    dice_side = sorted(min(b.w, b.h) for b in item.boxes)[3]
    assert len(item.boxes) == 7 and _right(judged.dice, item) == (5, 0)
    assert judged.die_side == pytest.approx(dice_side, rel=0.1)
    monkeypatch.setattr(reader_module, "SIDE_AGREES", float("inf"))
    marks = reader.analyse(image)
    assert marks.die_side > 1.4 * dice_side and _right(marks.dice, item) == (4, 0)


def test_places_the_judge_gives_no_chance_get_no_second_look(monkeypatch) -> None:
    # On a patterned cloth most places are unsure, and the face network's second look at
    # them was a fifth of the frame's time; the judge gives nearly all of them no chance.
    image, item = _frame(7)
    reader = DiceReader("outatime")
    looks: list[tuple[bool, np.ndarray]] = []
    run = reader.facenet.run

    def counted(crops, turns=((0, False),)):
        feats, logits = run(crops, turns)
        looks.append((turns != ((0, False),), logits.copy()))  # (averaged in place later)
        return feats, logits

    def tally() -> tuple[int, int]:
        """(places read unsure on the first look, places looked at again)"""
        unsure = sum(int((_softmax(logits).max(axis=1) < NetClassifier.SECOND_LOOK).sum())
                     for again, logits in looks if not again)
        return unsure, sum(len(logits) for again, logits in looks if again)

    monkeypatch.setattr(reader.facenet, "run", counted)
    gated = reader.analyse(image)
    unsure, second = tally()
    assert unsure > 20 and 0 < second < unsure / 2
    # and the reading is the one every unsure place looked at twice gives
    monkeypatch.setattr(reader_module, "SECOND_LOOK_FLOOR", 0.0)
    looks.clear()
    every = reader.analyse(image)
    unsure, second = tally()
    assert second == unsure
    assert [(d.face, round(d.x), round(d.y)) for d in gated.dice] == \
        [(d.face, round(d.x), round(d.y)) for d in every.dice]
    assert [d.confidence for d in gated.dice] == pytest.approx(
        [d.confidence for d in every.dice], abs=1e-6)
