"""OUTATIME's six custom dice as the camera reads them: flux capacitor, 2, 3, 4, 5 and 88.

The glyphs are the project's own plain drawings (a Y-shaped emblem for the flux capacitor, pips
or numerals for 2-5, "88"), not the printed art: real dice are taught with
``companion calibrate dice``.
"""

from __future__ import annotations

import numpy as np

from companion.titles.outatime.rules import FACES
from companion.vision.faces import Colour, FaceSet, draw_flux, draw_pips, draw_text


def draw(img: np.ndarray, face: str, ink: Colour, style: str = "pips") -> None:
    """One face: ``style`` "pips" or "numerals" for the 2-5 faces."""
    if face == "flux":
        draw_flux(img, ink)
    elif face == "88":
        draw_text(img, "88", ink, 0.42)
    elif style == "numerals":
        draw_text(img, face, ink, 0.5)
    else:
        draw_pips(img, int(face), ink)


# The network taught on these renders knows numerals and emblems; a profile reads its
# features beside the pip network's.
FACE_SET = FaceSet("outatime", FACES, draw=draw, styles=("pips", "numerals"),
                   features="d6_pips+outatime_faces")
