"""A washed-out frame (a dim room, a webcam's flat picture) is read stretched."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import DiceReader, SyntheticTray
from companion.vision import crops as crops_module
from companion.vision.crops import STRETCHED, WASHED_OUT, stretched, washed_out
from companion.vision.settle import Settler, SettleWatcher

from .conftest import dice_right, extra_dice, tray_before_and_after


def flat(image: np.ndarray, contrast: float) -> np.ndarray:
    """``image`` with its contrast about its mean cut to ``contrast``."""
    f = image.astype(np.float32)
    return np.clip(f.mean() + (f - f.mean()) * contrast, 0, 255).astype(np.uint8)


def spread(image: np.ndarray) -> float:
    grey = cv2.cvtColor(np.ascontiguousarray(image[::4, ::4]), cv2.COLOR_BGR2GRAY)
    lo, hi = np.percentile(grey, (0.5, 99.5))
    return float(hi - lo)


def test_only_a_washed_out_frame_is_stretched() -> None:
    image, _ = SyntheticTray("d6", seed=1001).render(n_dice=6)
    assert spread(image) >= WASHED_OUT
    gain, mid = washed_out(image)
    assert gain == 1.0 and stretched(image, gain, mid) is image
    dim = flat(image, 0.2)
    assert spread(dim) < WASHED_OUT
    gain, mid = washed_out(dim)
    assert 1.0 < gain <= crops_module.MAX_GAIN
    # stretched about its mean to the spread the reader asks for (or by MAX_GAIN at most)
    assert spread(stretched(dim, gain, mid)) == pytest.approx(
        min(STRETCHED, crops_module.MAX_GAIN * spread(dim)), abs=3)
    # saturated, not wrapped round
    bright = np.full((8, 8, 3), 250, np.uint8)
    assert stretched(bright, 3.0, 100.0).min() == 255
    assert stretched(np.zeros((8, 8, 3), np.uint8), 3.0, 100.0).max() == 0


@pytest.mark.slow
def test_dice_in_a_washed_out_frame_are_read(monkeypatch) -> None:
    # A seventh of a tray's contrast: the dice's marks a few grey levels from their body.
    # 143 of 144 read right stretched, 124 as the frame comes.
    def read(frames: int = 24) -> int:
        reader = DiceReader("d6")
        trays = [SyntheticTray("d6", seed=seed) for seed in (1001, 1002, 1003)]
        right = 0
        for k in range(frames):
            image, truth = trays[k % 3].render(n_dice=6, touching=0.0)
            right += dice_right(reader.analyse(flat(image, 0.14)).dice, truth)
        return right

    stretched_right = read()
    monkeypatch.setattr(crops_module, "WASHED_OUT", 0.0)  # never stretched
    plain_right = read()
    assert stretched_right >= 0.97 * 144 and stretched_right >= plain_right + 10, (
        stretched_right, plain_right)


def test_a_washed_out_tray_is_compared_with_its_empty_self_stretched_alike() -> None:
    # The tray before the roll holds fewer extremes than after it and alone would be
    # stretched more: both are stretched as the frame is, so a die lying there before is
    # still seen as the same die.
    before, after, old, added = tray_before_and_after()
    before, after = flat(before, 0.2), flat(after, 0.2)
    result = DiceReader("d6").analyse(after, background=before)
    assert len(result.dice) == 3
    assert extra_dice(result.dice, added) == 0


def test_the_noise_of_a_covered_or_blank_camera_stretched_is_no_die() -> None:
    # A lens cap, a dark room, a grey card: nothing but the sensor's noise, which the stretch
    # makes three times louder.
    reader = DiceReader("d6")
    rng = np.random.default_rng(1)
    for grey, noise in ((8, 3), (30, 5), (128, 4), (200, 6)):
        image = np.clip(rng.normal(grey, noise, (480, 640, 3)), 0, 255).astype(np.uint8)
        image = cv2.GaussianBlur(image, (0, 0), 0.7)
        assert washed_out(image)[0] > 1.0
        assert reader.analyse(image).dice == ()


@pytest.mark.parametrize("seed", [1985, 2])
def test_dice_lifted_off_a_plain_tray_leave_it_settled_and_empty(seed) -> None:
    # A plain tray without dice is washed out and read stretched: its texture gives the finder
    # places a third of a die across. Measured by those, the dice being lifted away and the
    # tray itself looked like a hand, and the table never settled on the empty tray.
    from companion.sim import RenderedTray

    tray = RenderedTray(seed)
    watcher = SettleWatcher(DiceReader("d6"), Settler(emit_empty=True))
    for faces in ([], ["3"], [], ["2", "4"], [], ["1", "5", "6"], []):
        tray.show(faces)
        readings = [watcher.feed(tray.read().image) for _ in range(8)]
        assert watcher.settler.state in ("settled", "empty"), (faces, watcher.settler.state)
        read = [r for r in readings if r is not None]
        assert len(read) == 1 and sorted(d.face for d in read[0].dice) == sorted(faces)
        assert watcher.last.obstruction == 0.0
    assert washed_out(tray.read().image)[0] > 1.0  # the empty tray was stretched


def test_read_on_the_command_line_says_a_photo_is_washed_out(tmp_path, capsys) -> None:
    import json

    from companion.cli import main

    image, truth = SyntheticTray("d6", seed=1001).render(n_dice=4, touching=0.0)
    cv2.imwrite(str(tmp_path / "lit.png"), image)
    cv2.imwrite(str(tmp_path / "dim.png"), flat(image, 0.2))
    assert main(["read", str(tmp_path / "lit.png"), str(tmp_path / "dim.png")]) == 0
    lit, dim = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert "light" not in lit
    assert "washed-out photo" in dim["light"] and "more light on the tray" in dim["light"]
    assert sorted(d["face"] for d in dim["dice"]) == sorted(t.face for t in truth)


def test_read_says_what_to_do_about_a_flat_a_dark_or_a_glaring_photo(tmp_path, capsys) -> None:
    import json

    from companion.cli import main

    image, _truth = SyntheticTray("d6", seed=1002).render(n_dice=3, touching=0.0)
    glare = (flat(image, 0.15) // 4 + 180).astype(np.uint8)  # about 225 grey, 10 levels
    photos = {"black": np.zeros_like(image), "white": np.full_like(image, 255),
              "grey": np.full_like(image, 128), "glare": glare, "dim": flat(image, 0.2) // 3}
    for name, photo in photos.items():
        cv2.imwrite(str(tmp_path / f"{name}.png"), photo)
    assert main(["read", *(str(tmp_path / f"{name}.png") for name in photos)]) == 0
    said = {Path(r["image"]).stem: r["light"]
            for r in map(json.loads, capsys.readouterr().out.splitlines())}
    for shade in ("black", "white", "grey"):
        assert f"one flat {shade}" in said[shade] and "lens covered" in said[shade]
    assert "washed-out" in said["glare"] and "less light on the tray" in said["glare"]
    assert "washed-out" in said["dim"] and "more light on the tray" in said["dim"]
