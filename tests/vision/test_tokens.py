"""Game tokens beside the dice: cardboard chits and number tiles about a die's size, the
table family the judge learns them from, and the reader turning them down."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import DiceReader, scenes
from companion.vision.detect import Blob
from companion.vision.domains import scene_frames
from companion.vision.labeled import match_blobs
from companion.vision.scenes import FAMILIES, HELD_FAMILIES, LEARNED_FAMILIES, SceneMaker


def test_tokens_are_a_learned_family_added_last() -> None:
    # A family's place fixes the seeds of its scoring scenes: the others keep theirs.
    assert FAMILIES[-1] == "tokens" and "tokens" in LEARNED_FAMILIES
    assert FAMILIES[:8] == ("wood", "fabric", "felt", "paper", "cards", "board", "pattern",
                            "stone")
    assert "tokens" not in HELD_FAMILIES


def test_token_tables_draw_no_opencv_lettering_and_are_reproducible(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # OpenCV's fonts changed with OpenCV 5: a table drawn with them would differ from one
    # install to the next, and the scenes must be the same for a seed everywhere.
    def no_fonts(*args, **kwargs):
        raise AssertionError("an OpenCV font used on a token")

    monkeypatch.setattr(scenes.cv2, "putText", no_fonts)
    monkeypatch.setattr(scenes.cv2, "getTextSize", no_fonts)
    a = scenes.tokens(240, 320, np.random.default_rng(3))
    b = scenes.tokens(240, 320, np.random.default_rng(3))
    c = scenes.tokens(240, 320, np.random.default_rng(4))
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    for seed in range(8):
        img = scenes.tokens(240, 320, np.random.default_rng(seed))
        assert img.shape == (240, 320, 3) and np.isfinite(img).all()


def test_token_lettering_differs_from_glyph_to_glyph() -> None:
    drawn = {}
    for text in scenes._TOKEN_TEXT:
        img = np.zeros((48, 48, 3), np.float32)
        scenes._lettering(img, text, (255, 255, 255), 24.0, 2, np.random.default_rng(0))
        ink = img[..., 0] > 128
        assert 20 < int(ink.sum()) < 900, text  # lettering, not a blot or nothing
        drawn[text] = ink
    names = list(drawn)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert (drawn[a] != drawn[b]).sum() > 10, (a, b)


def test_a_token_is_one_piece_about_its_side() -> None:
    for seed in range(12):
        patch, mask = scenes._token(40.0, np.random.default_rng(seed))
        assert patch.shape == (80, 80, 3) and mask.shape == (80, 80)
        ys, xs = np.nonzero(mask > 0.5)
        assert 34 <= xs.max() - xs.min() + 1 <= 50 and 34 <= ys.max() - ys.min() + 1 <= 50
        assert not patch[mask == 0].any()  # nothing drawn off the token


def test_a_scene_of_tokens_labels_only_its_dice() -> None:
    scene = SceneMaker(seed=2, families=("tokens",), d6_only=True).render(320, 240, n_dice=3)
    assert scene.family == "tokens" and len(scene.dice) == 3


def test_the_reader_turns_down_game_tokens_and_still_reads_the_dice_among_them() -> None:
    # Held-apart scenes (seeds no judge was taught on). Before the judge learned tokens,
    # these 8 bare tables gave 31 places read as dice (now 6), and 35 of the 40 dice were
    # found among the tokens (35 now).
    reader = DiceReader()
    bare = sum(len(reader.analyse(image).dice)
               for image, _ in scene_frames("tokens", 8, 7730, bare=True))
    assert bare <= 10
    found = labelled = 0
    for image, item in scene_frames("tokens", 8, 7740):
        dice = reader.analyse(image).dice
        matched, _ = match_blobs([Blob(d.x, d.y, d.w, d.h, 0.0) for d in dice], item.boxes)
        found += len(matched)
        labelled += len(item.boxes)
    assert labelled == 40 and found >= 33
