"""Cutting a die out of a frame: the same die at any size gives the same crop."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.crops import die_crop, sharpness
from companion.vision.reader import SOFT


def _die(size: int, rng: np.random.Generator, grain: float) -> np.ndarray:
    """A die showing 5 filling a ``size`` square frame (a tenth of a margin round it), with
    pixel noise of ``grain`` (a phone's sensor at full resolution)."""
    image = np.full((size, size, 3), 90, np.uint8)
    m = size // 10
    cv2.rectangle(image, (m, m), (size - m, size - m), (190, 190, 190), -1)
    for dx, dy in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)):
        c = (size // 2 + dx * size // 4, size // 2 + dy * size // 4)
        cv2.circle(image, c, size // 12, (60, 60, 60), -1)
    noisy = image.astype(np.float32) + rng.normal(0.0, grain, image.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("angle", [0.0, 30.0])
def test_a_large_noisy_die_crops_as_the_same_die_without_noise(angle: float) -> None:
    # Shrunk ten times by warping alone, each crop pixel would be a few of the frame's
    # pixels and carry their noise; averaged first, the noise is gone and the die is the
    # die a smaller photo shows.
    clean = _die(640, np.random.default_rng(5), 0.0)
    noisy = _die(640, np.random.default_rng(5), 20.0)
    crop = die_crop(noisy, 319.5, 319.5, 560.0, angle).astype(np.float32)
    ref = die_crop(clean, 319.5, 319.5, 560.0, angle).astype(np.float32)
    assert float(np.abs(crop - ref).mean()) < 3.0
    m = cv2.getRotationMatrix2D((319.5, 319.5), angle, 32 / 560.0)
    m[:, 2] += 16 - 319.5
    warped = cv2.warpAffine(noisy, m, (32, 32)).astype(np.float32)
    assert float(np.abs(warped - ref).mean()) > 10.0  # what warping alone gave
    small = cv2.resize(clean, (64, 64), interpolation=cv2.INTER_AREA)
    same = die_crop(small, 31.5, 31.5, 56.0, angle).astype(np.float32)
    assert float(np.abs(same - ref).mean()) < 4.0  # where the die lies, as small


def test_a_large_die_at_the_frame_edge_is_cut_like_a_small_one() -> None:
    # The averaged neighbourhood is cut at the frame's edge; the crop still repeats the
    # edge's pixels beyond it, as a small die's crop does.
    rng = np.random.default_rng(6)
    big = _die(640, rng, 0.0)
    crop = die_crop(big, 600.0, 320.0, 400.0, 0.0)
    small = cv2.resize(big, (80, 80), interpolation=cv2.INTER_AREA)
    ref = die_crop(small, 600.0 / 8 + (1 / 8 - 1) / 2, 320.0 / 8 + (1 / 8 - 1) / 2, 50.0, 0.0)
    assert crop.shape == (32, 32, 3)
    assert float(np.abs(crop.astype(np.float32) - ref).mean()) < 8.0


def test_sharpness_tells_a_die_out_of_focus_from_one_in_focus() -> None:
    # A blur a twentieth of the die wide (a camera focused elsewhere) is under SOFT; a die
    # in focus, noisy or not, is over it.
    die = _die(64, np.random.default_rng(7), 0.0)
    noisy = _die(64, np.random.default_rng(7), 8.0)
    crisp = [die_crop(d, 31.5, 31.5, 58.0, 0.0) for d in (die, noisy)]
    soft = [die_crop(cv2.GaussianBlur(d, (0, 0), 3.0), 31.5, 31.5, 58.0, 0.0)
            for d in (die, noisy)]
    assert sharpness(crisp[:1]) > SOFT and sharpness(crisp[1:]) > SOFT
    assert sharpness(soft[:1]) < SOFT and sharpness(soft[1:]) < SOFT
    assert np.isnan(sharpness([]))
