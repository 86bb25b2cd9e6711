"""Tray markers: the printed sheet, the homography from a tilted camera, zones."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import DiceReader, SyntheticTray, TrayNotFound, TrayView, Zones
from companion.vision.tray import detect_markers, make_marker_sheet, marker_image
from companion.vision.zones import ZoneError


def tilted_table(seed: int = 2):
    """A tray with markers at its corners, seen by a camera off to one side."""
    tray = SyntheticTray("outatime", seed=seed)
    image, truth = tray.render(n_dice=5, touching=0.0)
    h, w = image.shape[:2]
    m = 70  # marker side in the flat layout
    pad = m + 20
    flat = np.full((h + 2 * pad, w + 2 * pad, 3), 235, np.uint8)
    flat[pad:pad + h, pad:pad + w] = image
    # Each marker's inner corner sits on a corner of the rolling area.
    spots = {0: (pad - m, pad - m), 1: (pad + w, pad - m), 2: (pad + w, pad + h),
             3: (pad - m, pad + h)}
    for mid, (x, y) in spots.items():
        flat[y:y + m, x:x + m] = cv2.cvtColor(marker_image(mid, m), cv2.COLOR_GRAY2BGR)
    fh, fw = flat.shape[:2]
    src = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
    dst = np.float32([[60, 30], [fw - 10, 70], [fw - 60, fh - 20], [20, fh - 60]])
    persp = cv2.getPerspectiveTransform(src, dst)
    frame = cv2.warpPerspective(flat, persp, (fw, fh), borderValue=(200, 200, 200))
    to_frame = persp @ np.array([[1, 0, pad], [0, 1, pad], [0, 0, 1]], np.float64)
    return frame, image, truth, to_frame


def test_marker_sheet_is_written_and_detectable(tmp_path: Path) -> None:
    paths = make_marker_sheet(tmp_path, dpi=100)
    assert {p.name for p in paths} == {"tray-markers.png", "tray-markers.pdf"}
    sheet = cv2.imread(str(tmp_path / "tray-markers.png"))
    assert sorted(detect_markers(sheet)) == [0, 1, 2, 3]
    assert (tmp_path / "tray-markers.pdf").read_bytes().startswith(b"%PDF")


def test_homography_recovers_the_tray_and_dice_positions() -> None:
    frame, flat_tray, truth, to_frame = tilted_table()
    view = TrayView.from_frame(frame)
    top_down = cv2.resize(view.warp(frame), flat_tray.shape[1::-1])
    assert np.abs(top_down.astype(int) - flat_tray.astype(int)).mean() < 12
    zones = Zones.from_config({"zone": [{"name": "delorean", "rect": [0.6, 0.0, 1.0, 1.0]}]})
    reader = DiceReader("outatime", tray=view, zones=zones)
    dice = reader.read(frame)
    assert len(dice) == len(truth)
    h, w = flat_tray.shape[:2]
    for t in truth:
        fx, fy, fz = to_frame @ np.array([t.x, t.y, 1.0])
        d = min(dice, key=lambda d: np.hypot(d.x - fx / fz, d.y - fy / fz))
        assert np.hypot(d.x - fx / fz, d.y - fy / fz) < t.side * 0.3
        assert d.face == t.face
        assert d.zone == ("delorean" if t.x / w >= 0.6 else "tray")


def test_missing_markers_are_named() -> None:
    frame, *_ = tilted_table()
    h, w = frame.shape[:2]
    frame[: h // 2, w // 2:] = 200  # cover the top-right marker
    with pytest.raises(TrayNotFound, match=r"\[1\] not seen"):
        TrayView.from_frame(frame)


def test_zone_config_errors() -> None:
    with pytest.raises(ZoneError, match="rect must be"):
        Zones.from_config({"zone": [{"name": "x", "rect": [1, 1, 0, 0]}]})
    with pytest.raises(ZoneError, match="give 'rect' or 'polygon'"):
        Zones.from_config({"zone": [{"name": "x"}]})
    z = Zones.from_config({"default": "roll", "zone": [
        {"name": "card", "polygon": [[0, 0], [0.5, 0], [0.5, 0.5], [0, 0.5]]}]})
    assert z.zone_of(0.1, 0.1) == "card" and z.zone_of(0.9, 0.9) == "roll"
