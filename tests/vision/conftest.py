"""Shared helpers: synthetic labelled folders in the YOLO layout the project reads."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.faces import FACE_SETS
from companion.vision.synth import SyntheticTray

REPO = Path(__file__).resolve().parents[2]
DEV = REPO.parent / "shared" / "data" / "dice-photos" / "d6-tray-dev"


def write_labeled(
    folder: Path, tray: SyntheticTray, n_images: int, faces: list[str], n_dice: int | None = None,
    alter: Callable[[np.ndarray], np.ndarray] | None = None, touching: float = 0.15,
) -> Path:
    """Render ``n_images`` trays and write images/, labels/ and classes.txt; ``alter``
    changes each image before it is written (another table, light or camera)."""
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "labels").mkdir(parents=True, exist_ok=True)
    (folder / "classes.txt").write_text("\n".join(faces) + "\n")
    for i in range(n_images):
        image, dice = tray.render(n_dice, touching=touching)
        if alter is not None:
            image = alter(image)
        h, w = image.shape[:2]
        cv2.imwrite(str(folder / "images" / f"tray_{i:03d}.png"), image)
        lines = [
            f"{faces.index(d.face)} {d.x / w:.6f} {d.y / h:.6f} "
            f"{d.side * 1.2 / w:.6f} {d.side * 1.2 / h:.6f}"
            for d in dice
        ]
        (folder / "labels" / f"tray_{i:03d}.txt").write_text("\n".join(lines) + "\n")
    return folder


@pytest.fixture
def labeled_d6(tmp_path: Path) -> Path:
    tray = SyntheticTray("d6", seed=11)
    return write_labeled(tmp_path / "d6set", tray, 6, list(FACE_SETS["d6"].faces), n_dice=5)
