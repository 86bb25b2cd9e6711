"""Face sets the reader knows, and simple glyphs to draw their faces.

Plain six-sided pip dice (``d6``) are the reader's own; every other face set is declared by the
title whose dice it is (``companion/titles/<key>/dice.py`` holds ``FACE_SET``), found through the
title registry the first time ``FACE_SETS`` is read.

The glyphs are this project's own plain drawings (pips, numerals, a Y-shaped emblem, an
arrow, a star, a heart, ...). They are NOT the art printed on the published dice; they exist
so the synthetic renderer, the tests and the default profiles have something honest to use.
Real dice are taught to the reader with ``companion calibrate dice``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

Colour = tuple[int, int, int]  # BGR, as OpenCV uses


@dataclass(frozen=True)
class FaceSet:
    """The faces a kind of die can show, and how the project draws them.

    ``die_faces`` maps a die colour to the six faces printed on that die (for sets where dice
    differ by colour); ``colours`` gives the nominal body colour of each die colour. ``draw``
    draws one face glyph (``draw(img, face, ink, style)``) in the ``styles`` the renderer and the
    built-in profile use. ``features`` names the face networks whose features a profile taught
    on such dice reads (``+``-joined), ``head_turns`` the quarter turns a network is read at when
    not (0, 2).

    >>> FACE_SETS["d6"].faces
    ('1', '2', '3', '4', '5', '6')
    >>> FACE_SETS["d6"].faces_of(None)
    ('1', '2', '3', '4', '5', '6')
    """

    name: str
    faces: tuple[str, ...]
    colours: dict[str, Colour] = field(default_factory=dict)
    die_faces: dict[str, tuple[str, ...]] = field(default_factory=dict)
    draw: Callable[[np.ndarray, str, Colour, str], None] | None = None
    styles: tuple[str, ...] = ("pips",)
    features: str = "d6_pips"
    head_turns: dict[str, list[int]] = field(default_factory=dict)

    def faces_of(self, colour: str | None) -> tuple[str, ...]:
        if colour is not None and colour in self.die_faces:
            return self.die_faces[colour]
        return self.faces


def _draw_d6(img: np.ndarray, face: str, ink: Colour, style: str = "pips") -> None:
    draw_pips(img, int(face), ink)


# Plain pips. A d6 profile also reads the features of the network taught numerals and emblems
# (rendered symbol dice), which tells a logo on the six from a single pip; one turn of those
# features is enough there, and cheaper (see docs/vision.md).
D6 = FaceSet("d6", ("1", "2", "3", "4", "5", "6"), draw=_draw_d6,
             features="d6_pips+outatime_faces", head_turns={"outatime_faces": [0]})
OWN_SETS = {"d6": D6}


class _FaceSets(Mapping[str, FaceSet]):
    """Every face set by name: the reader's own and those the registered titles declare
    (looked up once, when first read)."""

    def __init__(self) -> None:
        self._sets: dict[str, FaceSet] | None = None

    def _all(self) -> dict[str, FaceSet]:
        if self._sets is None:
            from companion.titles import all_titles

            sets = {"d6": D6}
            for title in all_titles():
                module = title.dice
                if module is not None:
                    sets[module.FACE_SET.name] = module.FACE_SET
            for name, fs in OWN_SETS.items():
                sets.setdefault(name, fs)
            self._sets = sets
        return self._sets

    def __getitem__(self, name: str) -> FaceSet:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


FACE_SETS: Mapping[str, FaceSet] = _FaceSets()


def face_set(name: str) -> FaceSet:
    try:
        return FACE_SETS[name]
    except KeyError:
        raise ValueError(
            f"unknown dice set {name!r}; choose one of {', '.join(FACE_SETS)}"
        ) from None


# ---------------------------------------------------------------------------- glyph drawing

_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _pt(s: int, x: float, y: float) -> tuple[int, int]:
    return int(round(s / 2 + x * s)), int(round(s / 2 + y * s))


def draw_pips(img: np.ndarray, n: int, ink: Colour, pip: float = 0.09, spread: float = 0.26
               ) -> None:
    """``pip`` is the pip radius and ``spread`` the distance of the outer pips from the
    centre, both as fractions of the face side (dice makers differ in both)."""
    s = img.shape[0]
    for gx, gy in _PIPS[n]:
        cv2.circle(img, _pt(s, gx * spread, gy * spread), max(1, int(s * pip)), ink, -1,
                   cv2.LINE_AA)


def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 10
         ) -> list[tuple[float, float]]:
    """Points on an ellipse from angle a0 to a1 (degrees, 0 = right, 90 = down)."""
    t = np.deg2rad(np.linspace(a0, a1, n))
    return list(zip(cx + rx * np.cos(t), cy + ry * np.sin(t), strict=True))


# The project's own stroke lettering, in a box 0.6 wide and 1 high (y down). Drawn with
# cv2.polylines, whose output does not change between OpenCV versions as cv2.putText's
# lettering does, so renders (and the networks taught on them) stay the same everywhere.
_STROKES: dict[str, list[list[tuple[float, float]]]] = {
    "2": [_arc(0.3, 0.27, 0.28, 0.25, 190, 360) + [(0.55, 0.42), (0.02, 1.0), (0.6, 1.0)]],
    "3": [_arc(0.3, 0.25, 0.26, 0.23, 200, 450), _arc(0.3, 0.73, 0.29, 0.26, 270, 520)],
    "4": [[(0.46, 1.0), (0.46, 0.0), (0.0, 0.7), (0.6, 0.7)]],
    "5": [[(0.57, 0.0), (0.08, 0.0), (0.04, 0.44)] + _arc(0.29, 0.68, 0.3, 0.31, 230, 500)],
    "8": [_arc(0.3, 0.25, 0.24, 0.24, 0, 360, 16), _arc(0.3, 0.72, 0.29, 0.27, 0, 360, 16)],
    "B": [[(0.04, 0.0), (0.04, 1.0)],
          [(0.04, 0.0), (0.33, 0.0)] + _arc(0.33, 0.24, 0.22, 0.24, 270, 450)
          + [(0.04, 0.48)],
          [(0.04, 0.48), (0.36, 0.48)] + _arc(0.36, 0.74, 0.24, 0.26, 270, 450)
          + [(0.04, 1.0)]],
}
_ADVANCE = 0.8  # from one letter's left edge to the next


def draw_text(img: np.ndarray, text: str, ink: Colour, height: float = 0.5) -> None:
    """Centred stroke lettering (digits 2-5 and 8, and "B"), ``height`` of the image high."""
    s = img.shape[0]
    h = height * s
    width = (_ADVANCE * (len(text) - 1) + 0.6) * h
    if width > 0.8 * s:
        h *= 0.8 * s / width
        width = 0.8 * s
    thick = max(1, int(round(s * 0.06)))
    x0, y0 = (s - width) / 2, (s - h) / 2
    for i, ch in enumerate(text):
        for stroke in _STROKES[ch]:
            pts = np.array([[x0 + (i * _ADVANCE + x) * h, y0 + y * h] for x, y in stroke])
            cv2.polylines(img, [np.round(pts * 16).astype(np.int32)], False, ink, thick,
                          cv2.LINE_AA, shift=4)


def draw_flux(img: np.ndarray, ink: Colour) -> None:
    """A Y-shaped emblem: three arms from the centre, each ending in a round lamp."""
    s = img.shape[0]
    t = max(1, int(s * 0.07))
    for ang in (150, 30, 270):
        r = np.deg2rad(ang)
        end = _pt(s, 0.3 * np.cos(r), -0.3 * np.sin(r))
        cv2.line(img, _pt(s, 0, 0), end, ink, t, cv2.LINE_AA)
        cv2.circle(img, end, int(s * 0.08), ink, -1, cv2.LINE_AA)
    cv2.circle(img, _pt(s, 0, 0), int(s * 0.06), ink, -1, cv2.LINE_AA)


def _poly(img: np.ndarray, pts: list[tuple[float, float]], ink: Colour) -> None:
    s = img.shape[0]
    arr = np.array([_pt(s, x, y) for x, y in pts], np.int32)
    cv2.fillPoly(img, [arr], ink, cv2.LINE_AA)


def draw_arrow(img: np.ndarray, ink: Colour) -> None:
    _poly(img, [(-0.32, -0.08), (0.05, -0.08), (0.05, -0.22), (0.33, 0.0), (0.05, 0.22),
                (0.05, 0.08), (-0.32, 0.08)], ink)


def draw_star(img: np.ndarray, ink: Colour) -> None:
    pts = []
    for i in range(10):
        r = 0.34 if i % 2 == 0 else 0.14
        a = np.deg2rad(-90 + 36 * i)
        pts.append((r * np.cos(a), r * np.sin(a) + 0.02))
    _poly(img, pts, ink)


def draw_heart(img: np.ndarray, ink: Colour) -> None:
    s = img.shape[0]
    r = int(s * 0.13)
    cv2.circle(img, _pt(s, -0.12, -0.08), r, ink, -1, cv2.LINE_AA)
    cv2.circle(img, _pt(s, 0.12, -0.08), r, ink, -1, cv2.LINE_AA)
    _poly(img, [(-0.245, -0.03), (0.245, -0.03), (0.0, 0.3)], ink)


def draw_book(img: np.ndarray, ink: Colour) -> None:
    """Knowledge: an open book (two pages and a spine)."""
    _poly(img, [(-0.33, -0.2), (-0.03, -0.14), (-0.03, 0.24), (-0.33, 0.18)], ink)
    _poly(img, [(0.33, -0.2), (0.03, -0.14), (0.03, 0.24), (0.33, 0.18)], ink)


def draw_burst(img: np.ndarray, ink: Colour) -> None:
    """Wild: a ring with four spokes."""
    s = img.shape[0]
    t = max(1, int(s * 0.06))
    cv2.circle(img, _pt(s, 0, 0), int(s * 0.2), ink, t, cv2.LINE_AA)
    for a in (45, 135, 225, 315):
        r = np.deg2rad(a)
        cv2.line(img, _pt(s, 0.2 * np.cos(r), 0.2 * np.sin(r)),
                 _pt(s, 0.34 * np.cos(r), 0.34 * np.sin(r)), ink, t, cv2.LINE_AA)


def draw_face(img: np.ndarray, set_name: str, face: str, ink: Colour, style: str = "pips"
              ) -> None:
    """Draw one face glyph on a square face image, in place, as the face set draws it.

    ``style`` picks among the set's ``styles`` (e.g. pips or printed numerals).

    >>> img = np.zeros((64, 64, 3), np.uint8)
    >>> draw_face(img, "d6", "5", (255, 255, 255))
    >>> int(img.max())
    255
    """
    fs = face_set(set_name)
    if fs.draw is None:
        raise ValueError(f"the dice set {set_name!r} has no glyphs to draw")
    fs.draw(img, face, ink, style)
