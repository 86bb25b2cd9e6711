"""Dice as cubes through a camera at a slant (``solid.py``, ``SceneMaker(solid=...)``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.domains import domains
from companion.vision.scenes import FAMILIES, SceneMaker
from companion.vision.solid import AROUND, Camera, cube_faces, draw_cube

W, H = 320, 240


def camera(tilt_degrees: float, heading: float = 0.0) -> Camera:
    return Camera((500.0, 400.0), 300.0, np.deg2rad(tilt_degrees), heading, 300.0, (W, H))


def white(face: int) -> np.ndarray:
    tile = np.full((40, 40, 3), 230, np.uint8)
    cv2.putText(tile, str(face), (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 0), 2)
    return tile.astype(np.float32)


def test_every_top_has_the_four_faces_round_it_that_a_d6_has() -> None:
    for top, ring in AROUND.items():
        assert sorted(ring) == sorted(set(range(1, 7)) - {top, 7 - top})
        assert ring[0] + ring[2] == 7 and ring[1] + ring[3] == 7  # opposite sides
        faces = cube_faces(0.0, 0.0, 10.0, 0.3, top)
        assert [f[1] for f in faces] == [top, *ring]
        for corners, _, normal in faces:  # each face's normal points out of the cube
            assert np.isclose(np.linalg.norm(normal), 1.0)
            assert normal @ (corners.mean(0) - (0.0, 0.0, 5.0)) > 0


def test_camera_straight_down_sees_the_table_centre_in_the_middle_unshrunk() -> None:
    cam = camera(0.0)
    (u, v), = cam.project(np.array([[500.0, 400.0, 0.0]]))
    assert (u, v) == pytest.approx((W / 2, H / 2))
    a, b = cam.project(np.array([[490.0, 400.0, 0.0], [510.0, 400.0, 0.0]]))
    assert np.linalg.norm(b - a) == pytest.approx(20.0, rel=1e-6)  # distance = focal
    assert cam.on_table(W / 2, H / 2) == pytest.approx((500.0, 400.0))


def test_a_slanted_camera_shrinks_the_far_side_and_shows_the_top_above_the_base() -> None:
    cam = camera(45.0)
    near = cam.project(np.array([[490.0, 500.0, 0.0], [510.0, 500.0, 0.0]]))
    far = cam.project(np.array([[490.0, 300.0, 0.0], [510.0, 300.0, 0.0]]))
    assert np.ptp(far[:, 0]) < 0.7 * np.ptp(near[:, 0])
    assert far[0, 1] < near[0, 1]  # heading 0: the far side (smaller y) is the frame's top
    base, top = cam.project(np.array([[500.0, 400.0, 0.0], [500.0, 400.0, 20.0]]))
    assert top[1] < base[1] - 5  # a die's top stands above its base in the frame


def faces_drawn(tilt: float) -> tuple[tuple[float, float, float, float], set[int]]:
    img = np.zeros((H, W, 3), np.float32)
    drawn: set[int] = set()

    def paint(face: int) -> np.ndarray:
        drawn.add(face)
        return white(face)

    box = draw_cube(img, camera(tilt), 500.0, 400.0, 30.0, 0.0, 5, paint,
                    np.array([0.0, 0.0, 1.0]))
    assert box is not None and img.max() > 0
    return box, drawn


def test_from_straight_above_only_the_top_shows_and_at_a_slant_a_side_too() -> None:
    box, drawn = faces_drawn(0.0)
    assert drawn == {5}
    x0, y0, x1, y1 = box
    assert x1 - x0 == pytest.approx(y1 - y0, rel=0.05)
    box, drawn = faces_drawn(40.0)
    assert 5 in drawn and len(drawn) == 2  # the top and the side facing the camera
    assert drawn - {5} <= set(AROUND[5])
    x0, y0, x1, y1 = box
    assert y1 - y0 > 1.1 * (x1 - x0)  # the side adds height towards the camera


def test_a_die_behind_the_camera_or_out_of_the_frame_is_not_drawn() -> None:
    img = np.zeros((H, W, 3), np.float32)
    box = draw_cube(img, camera(0.0), 5000.0, 400.0, 30.0, 0.0, 1, white,
                    np.array([0.0, 0.0, 1.0]))
    assert box is None and img.max() == 0


def test_solid_scenes_are_reproducible_and_label_the_dice_they_draw() -> None:
    a = SceneMaker(seed=4, families=("wood",), d6_only=True, solid=1.0).render(320, 240, 5)
    b = SceneMaker(seed=4, families=("wood",), d6_only=True, solid=1.0).render(320, 240, 5)
    assert np.array_equal(a.image, b.image) and a.dice == b.dice
    assert 1 <= len(a.dice) <= 5
    # marked as seen at a slant (its crops keep the frame's up); a flat frame is not
    assert a.solid and not SceneMaker(seed=4, families=("wood",)).render(320, 240, 5).solid
    for d in a.dice:
        assert d.face in {"1", "2", "3", "4", "5", "6"} and d.source == "render"
        assert 0 <= d.x < 320 and 0 <= d.y < 240
        # a die stands out from the table where it is labelled
        x, y, r = int(d.x), int(d.y), max(2, int(d.side * 0.3))
        assert a.image[max(0, y - r):y + r, max(0, x - r):x + r].std() > 5


def test_the_protocol_has_a_solid_domain_for_every_family() -> None:
    every = domains(None, 2, 0)
    solid = sorted(n for n in every if n.startswith("solid-"))
    assert solid == sorted(f"solid-{f}" for f in FAMILIES)
    image, item = next(every["solid-board"]())
    assert image.shape == (480, 640, 3) and item.boxes


def test_with_a_nadir_each_place_is_read_with_its_outer_side_up() -> None:
    # A camera straight above the middle sees a die near the right edge from the left: its
    # top shows further right than its side, so the reader turns its crop a quarter (the
    # crop's up towards the frame's right); a die above the middle keeps the frame's up.
    from companion.vision.detect import Blob
    from companion.vision.reader import DiceReader

    frame = np.zeros((480, 640, 3), np.uint8)
    places = [(Blob(600, 240, 30, 30, 10.0), True), (Blob(320, 40, 30, 30, -20.0), True),
              (Blob(320, 450, 30, 30, 5.0), False), (Blob(322, 238, 30, 30, 30.0), True)]
    turned = DiceReader("d6", nadir=(0.5, 0.5))
    turned._view(frame)
    angles = [b.angle for b, _ in turned._facing_up(places)]
    assert angles == [100.0, -20.0, 185.0, 30.0]  # the last lies under the camera
    # each is the same square turned by quarter turns
    assert all((a - b.angle) % 90 == 0 for a, (b, _) in zip(angles, places, strict=True))
    plain = DiceReader("d6")
    plain._view(frame)
    assert [b.angle for b, _ in plain._facing_up(places)] == \
        [10.0, -20.0, 5.0, 30.0]
    for bad in ((0.5,), ("a", 0.5), (float("nan"), 0.5), 0.5):
        with pytest.raises(ValueError, match="straight down"):
            DiceReader("d6", nadir=bad)
