"""Back in Time's challenge dice as the camera reads them: a colour and a face.

Eight dice, two of each colour (speed, knowledge, courage, love); a face is the colour's symbol,
wild or Biff. Which faces each colour's die carries is not public: the demo pack's layout (and
this renderer's) is an assumption, and the reader accepts any face of the set on any die. The
glyphs are the project's own plain drawings, not the printed art.
"""

from __future__ import annotations

import numpy as np

from companion.vision.faces import (
    Colour,
    FaceSet,
    draw_arrow,
    draw_book,
    draw_burst,
    draw_heart,
    draw_star,
    draw_text,
)

# Nominal body colours (BGR, as OpenCV uses); a profile can override them.
COLOURS: dict[str, Colour] = {
    "speed": (40, 200, 240),  # yellow
    "knowledge": (200, 110, 40),  # blue
    "courage": (70, 160, 40),  # green
    "love": (50, 40, 200),  # red
}
GLYPHS = {"speed": draw_arrow, "knowledge": draw_book, "courage": draw_star, "love": draw_heart,
          "wild": draw_burst}


def draw(img: np.ndarray, face: str, ink: Colour, style: str = "pips") -> None:
    """One face: the colour's symbol, the wild burst, or a "B" for Biff."""
    GLYPHS.get(face, lambda im, c: draw_text(im, "B", c, 0.55))(img, ink)


FACE_SET = FaceSet(
    "back_in_time",
    ("speed", "knowledge", "courage", "love", "wild", "biff"),
    colours=dict(COLOURS),
    die_faces={c: (c, c, c, "wild", "wild", "biff") for c in COLOURS},
    draw=draw,
    features="d6_pips+back_in_time_faces",
)
