"""Built-in profiles, drawn from the project's own face glyphs (see ``faces.py``).

They read the synthetic trays and any dice whose faces look like these plain glyphs; real
dice with different art should be taught with ``companion calibrate dice``.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from .classify import template_of
from .dataset import CROP, MARGIN
from .faces import FACE_SETS, draw_face
from .profile import DiceProfile

_SUPER = 8  # draw at 8x and shrink: smooth edges like a camera sees


def clean_crop(set_name: str, face: str, style: str = "pips", body=(230, 230, 230),
               ink=(20, 20, 20)) -> np.ndarray:
    """A die crop as the reader would cut it, for a perfectly lit die of the plain glyphs."""
    big = CROP * _SUPER
    img = np.zeros((big, big, 3), np.uint8)
    img[:] = (128, 128, 128)
    side = int(round(big / MARGIN))
    off = (big - side) // 2
    face_img = np.zeros((side, side, 3), np.uint8)
    face_img[:] = body
    draw_face(face_img, set_name, face, ink, style)
    img[off:off + side, off:off + side] = face_img
    return cv2.resize(img, (CROP, CROP), interpolation=cv2.INTER_AREA)


@cache
def default_profile(set_name: str) -> DiceProfile:
    """The built-in profile of a face set.

    >>> default_profile("d6").faces
    ['1', '2', '3', '4', '5', '6']
    """
    fs = FACE_SETS[set_name]
    styles = list(fs.styles)
    templates: dict[str, list[np.ndarray]] = {}
    for face in fs.faces:
        ts = []
        for style in styles:
            t = template_of(clean_crop(set_name, face, style))
            if not any(np.array_equal(t, u) for u in ts):
                ts.append(t)
        templates[face] = ts
    return DiceProfile(set_name, templates, dict(fs.colours),
                       source="built-in: the project's plain glyphs, not printed dice art")
