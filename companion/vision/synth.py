"""A synthetic dice tray: dice of any face set at random places and angles, with varied
light, shadow, glare, blur and noise. Used by the simulator, the tests and the benchmarks.

The faces are the project's own glyphs (see ``faces.py``), not the printed dice art.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from .faces import FaceSet, draw_face, draw_pips, face_set

_BODIES: list[tuple[tuple[int, int, int], tuple[int, int, int]]] = [
    # (body, ink) in BGR
    ((235, 235, 235), (20, 20, 20)),
    ((200, 230, 240), (30, 30, 30)),
    ((40, 40, 200), (240, 240, 240)),
    ((190, 90, 30), (245, 245, 245)),
    ((60, 150, 40), (250, 250, 250)),
    ((30, 30, 30), (235, 235, 235)),
    ((40, 200, 230), (20, 20, 20)),
    ((140, 40, 110), (240, 240, 240)),
    ((30, 110, 200), (30, 30, 30)),
    ((120, 120, 120), (250, 250, 250)),
    ((230, 230, 230), (30, 30, 200)),
]

_TRAYS: list[tuple[int, int, int]] = [
    (70, 110, 60), (120, 80, 40), (110, 110, 110), (40, 60, 90), (200, 200, 200),
    (60, 50, 50), (150, 170, 180), (90, 40, 120),
]


def _other_die_colours(rng: np.random.Generator
                       ) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """A body of any colour and an ink that stands out from it (white, black, red, gold or
    any other colour far enough away): dice this project has never seen."""
    hsv = np.uint8([[[rng.integers(180), rng.integers(256), rng.integers(25, 250)]]])
    body = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(int)
    inks = [(245, 245, 245), (20, 20, 20), (40, 40, 200), (40, 200, 230)]
    for _ in range(20):
        ink = (inks[int(rng.integers(len(inks)))] if rng.random() < 0.7
               else tuple(int(v) for v in rng.integers(0, 256, 3)))
        if np.linalg.norm(np.subtract(ink, body)) > 150:
            break
    else:
        ink = (245, 245, 245) if body.mean() < 128 else (20, 20, 20)
    return tuple(int(v) for v in body), tuple(int(v) for v in ink)


@dataclass(frozen=True)
class TrueDie:
    """Ground truth for one rendered die (pixels of the rendered frame)."""

    x: float
    y: float
    side: float
    angle: float
    face: str
    colour: str | None = None


class SyntheticTray:
    """Render trays of dice for a face set.

    >>> tray = SyntheticTray("d6", seed=1)
    >>> image, dice = tray.render(n_dice=6)
    >>> image.shape, len(dice)
    ((480, 640, 3), 6)
    """

    def __init__(self, dice: str | FaceSet = "d6", width: int = 640, height: int = 480,
                 seed: int | None = None, style: str | None = None,
                 die_side: tuple[float, float] = (0.06, 0.1), keep_scene: bool = False,
                 custom_faces: dict[str, Callable[[np.ndarray, tuple], None]] | None = None,
                 other_dice: float = 0.0, sides: float = 0.0) -> None:
        self.set = face_set(dice) if isinstance(dice, str) else dice
        # keep_scene: same table, light and die size for every render (a session at a table).
        self.keep_scene = keep_scene
        # custom_faces: face -> draw(img, ink) to replace a glyph (a die whose 6 is a logo).
        self.custom_faces = dict(custom_faces or {})
        self._scene: tuple | None = None
        self._lean = 0.0
        self.width, self.height = width, height
        self.rng = np.random.default_rng(seed)
        self.style = style
        self.die_side = die_side
        # d6 only: the share of dice of any colour, other pip sizes and see-through plastic
        # (teaching data for dice this project has never seen).
        self.other_dice = other_dice
        # Largest lean of a die's top over its base at the frame's edge, as a share of the
        # die side: a camera not far above the table sees the sides of dice far from the
        # middle of the picture. 0 draws flat tops only.
        self.sides = sides

    # -- pieces ------------------------------------------------------------------------
    def _background(self) -> tuple[np.ndarray, int]:
        rng = self.rng
        h, w = self.height, self.width
        base = np.array(_TRAYS[rng.integers(len(_TRAYS))], np.float32)
        base = np.clip(base + rng.normal(0, 15, 3), 0, 255)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        # Felt or card texture: low-amplitude noise at two scales.
        tex = rng.normal(0, 1, (h // 8 + 1, w // 8 + 1)).astype(np.float32)
        tex = cv2.resize(tex, (w, h), interpolation=cv2.INTER_CUBIC)
        img += (tex * rng.uniform(1, 6))[..., None]
        img += rng.normal(0, rng.uniform(0.5, 3), (h, w, 1)).astype(np.float32)
        t = 0
        if rng.random() < 0.5:
            # A tray wall: a frame of another colour around the rolling area.
            t = int(min(h, w) * rng.uniform(0.03, 0.07))
            wall = np.clip(base * rng.uniform(0.4, 1.6), 0, 255)
            img[:t], img[-t:], img[:, :t], img[:, -t:] = wall, wall, wall, wall
        return img, t

    def _lighting(self) -> np.ndarray:
        rng = self.rng
        h, w = self.height, self.width
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        lx, ly = rng.uniform(-0.5, 1.5) * w, rng.uniform(-0.5, 1.5) * h
        d = np.sqrt((xx - lx) ** 2 + (yy - ly) ** 2) / np.hypot(h, w)
        light = rng.uniform(0.75, 1.25) * (1.0 - rng.uniform(0.0, 0.45) * d)
        return light.astype(np.float32)

    def _die_image(self, side: int, face: str, body, ink,
                   pips: tuple[float, float] | None = None) -> np.ndarray:
        rng = self.rng
        s = side
        img = np.zeros((s, s, 3), np.uint8)
        img[:] = body
        style = self.style or ("numerals" if rng.random() < 0.5 else "pips")
        if face in self.custom_faces:
            self.custom_faces[face](img, ink)
        elif pips is not None:
            draw_pips(img, int(face), ink, *pips)
        else:
            draw_face(img, self.set.name, face, ink, style)
        # A soft highlight across the face: plastic is never flat-lit.
        yy, xx = np.mgrid[0:s, 0:s].astype(np.float32) / s
        g = 1.0 + rng.uniform(-0.12, 0.12) * (xx - 0.5) + rng.uniform(-0.12, 0.12) * (yy - 0.5)
        return np.clip(img.astype(np.float32) * g[..., None], 0, 255)

    def _die_sides(self, top: np.ndarray, x: float, y: float, s: float, body
                   ) -> tuple[np.ndarray, np.ndarray]:
        """The die's top mask swept down to its base, and the sides' shading.

        Seen from above the middle of the frame, the top (nearer the lens) lies further out
        than the base, so the sides facing the middle show; they are the body colour in
        shadow, darker lower down. (Pips drawn on the sides too made no measurable
        difference to the networks taught on these renders.)"""
        rng = self.rng
        h, w = self.height, self.width
        reach = self._lean * s / (0.5 * np.hypot(h, w))
        dx, dy = (w / 2 - x) * reach, (h / 2 - y) * reach
        big = top.shape[0]
        swept = top.copy()
        steps = max(1, int(np.ceil(np.hypot(dx, dy))))
        depth = np.zeros_like(top)
        for k in range(1, steps + 1):
            t = k / steps
            shifted = cv2.warpAffine(top, np.float32([[1, 0, dx * t], [0, 1, dy * t]]),
                                     (big, big))
            depth = np.where(shifted > swept, t, depth)
            swept = np.maximum(swept, shifted)
        shade = rng.uniform(0.45, 0.8) * (1.0 - 0.35 * depth)
        side_tile = np.float32(body)[None, None, :] * shade[..., None]
        return swept, side_tile

    # -- public ------------------------------------------------------------------------
    def render(self, n_dice: int | None = None, faces: list[str] | None = None,
               touching: float = 0.15, glare: float = 0.3,
               colours: list[str | None] | None = None) -> tuple[np.ndarray, list[TrueDie]]:
        """Render one frame; returns the BGR image and the dice drawn in it.

        ``colours`` (for a face set with die colours) gives each die's colour, one per face;
        None for a die leaves its colour to chance (a colour symbol picks its own colour).
        """
        rng = self.rng
        h, w = self.height, self.width
        if colours is not None and (faces is None or len(colours) != len(faces)):
            raise ValueError("give one colour per face (None: any colour)")
        if colours is not None:
            unknown = sorted({c for c in colours if c is not None} - set(self.set.colours))
            if unknown:
                raise ValueError(f"the {self.set.name} dice have no colour "
                                 f"{', '.join(unknown)}; colours: {', '.join(self.set.colours)}")
        if faces is not None:
            n_dice = len(faces)
        elif n_dice is None:
            n_dice = int(rng.integers(1, 9))
        if self.sides > 0 and (self._scene is None or not self.keep_scene):
            self._lean = rng.uniform(0.0, self.sides)  # one camera height per scene
        if self._scene is None or not self.keep_scene:
            self._scene = (*self._background(), rng.uniform(0, 2 * np.pi),
                           rng.uniform(*self.die_side) * min(h, w), self._lighting(),
                           np.array([rng.uniform(0.85, 1.1), 1.0, rng.uniform(0.85, 1.1)],
                                    np.float32), rng.uniform(0, 1.2), rng.uniform(1, 6))
        bg, wall, shadow_dir, side, light, temperature, blur, noise = self._scene
        img = bg.copy()
        placed: list[TrueDie] = []
        other = self.set.name == "d6" and self.other_dice > 0
        for i in range(n_dice):
            s = side * rng.uniform(0.92, 1.08)
            colour = None
            if self.set.colours:
                colour = list(self.set.colours)[int(rng.integers(len(self.set.colours)))]
                if faces and faces[i] in self.set.colours:
                    colour = faces[i]  # a colour's symbol is printed only on that colour's dice
                if colours is not None and colours[i] is not None:
                    colour = colours[i]
                body = np.clip(np.array(self.set.colours[colour]) + rng.normal(0, 12, 3),
                               0, 255)
                ink = (245, 245, 245) if body.mean() < 150 else (25, 25, 25)
            elif other and rng.random() < self.other_dice:
                body, ink = _other_die_colours(rng)
            else:
                body, ink = _BODIES[int(rng.integers(len(_BODIES)))]
            face = faces[i] if faces else self.set.faces_of(colour)[int(rng.integers(6))]
            # Pip size and spacing, and see-through plastic, differ between dice makers.
            pips = ((rng.uniform(0.07, 0.11), rng.uniform(0.23, 0.29))
                    if other and rng.random() < self.other_dice else None)
            opacity = (rng.uniform(0.45, 0.8)
                       if other and rng.random() < self.other_dice * 0.3
                       else 1.0)
            # Place inside the walls (a die may lie against one) without overlapping
            # another die; sometimes right against a neighbour.
            lo = wall + 0.75 * s
            for _ in range(300):
                x = rng.uniform(lo, w - lo)
                y = rng.uniform(lo, h - lo)
                angle = float(rng.uniform(0, 360))
                gap = min((np.hypot(x - d.x, y - d.y) - 0.5 * (s + d.side) * 1.42
                           for d in placed), default=1e9)
                if gap > 0:
                    break
                if rng.random() < touching and not any(
                        cv2.rotatedRectangleIntersection(
                            ((x, y), (s * 1.04, s * 1.04), angle),
                            ((d.x, d.y), (d.side * 1.04, d.side * 1.04), d.angle))[0]
                        for d in placed):
                    break
            placed.append(TrueDie(float(x), float(y), float(s), angle, face, colour))
            big = int(np.ceil(s * (1.6 + 2 * self.sides))) | 1
            tile = self._die_image(big, face, body, ink, pips)
            # Square die with rounded corners, drawn at its angle.
            mask = np.zeros((big, big), np.float32)
            r = int(s * 0.12)
            half = s / 2
            c = big / 2
            x0, x1 = int(c - half), int(c + half)
            cv2.rectangle(mask, (x0 + r, x0), (x1 - r, x1), 1.0, -1)
            cv2.rectangle(mask, (x0, x0 + r), (x1, x1 - r), 1.0, -1)
            for cx_, cy_ in ((x0 + r, x0 + r), (x1 - r, x0 + r), (x0 + r, x1 - r),
                             (x1 - r, x1 - r)):
                cv2.circle(mask, (cx_, cy_), r, 1.0, -1, cv2.LINE_AA)
            scale_face = s / (big / 1.6) if big else 1.0
            m = cv2.getRotationMatrix2D((c, c), angle, 1.0)
            m_face = cv2.getRotationMatrix2D((c, c), angle, scale_face * 0.62)
            # Glyph drawn on the whole tile; shrink it to the face area.
            tile = cv2.warpAffine(tile, m_face, (big, big), borderMode=cv2.BORDER_REPLICATE)
            mask = cv2.warpAffine(mask, m, (big, big))
            body_mask = mask
            if self.sides > 0:
                body_mask, side_tile = self._die_sides(mask, x, y, s, body)
            ox, oy = int(round(x - c)), int(round(y - c))
            ys = slice(max(0, oy), min(h, oy + big))
            xs = slice(max(0, ox), min(w, ox + big))
            ty = slice(ys.start - oy, ys.stop - oy)
            tx = slice(xs.start - ox, xs.stop - ox)
            # Shadow first: the mask blurred and shifted away from the light.
            sd = s * rng.uniform(0.05, 0.18)
            sm = np.roll(body_mask, (int(sd * np.sin(shadow_dir)),
                                     int(sd * np.cos(shadow_dir))), axis=(0, 1))
            sm = cv2.GaussianBlur(sm, (0, 0), max(0.5, s * 0.08))
            img[ys, xs] *= (1.0 - 0.45 * sm[ty, tx])[..., None]
            if self.sides > 0:
                a_side = body_mask[ty, tx][..., None]
                img[ys, xs] = img[ys, xs] * (1 - a_side) + side_tile[ty, tx] * a_side
            a = mask[ty, tx][..., None]
            if opacity < 1.0:
                # Translucent body, solid pips: the table shows through where there is no ink.
                ink_share = np.linalg.norm(tile[ty, tx] - np.float32(body), axis=2) / max(
                    1.0, float(np.linalg.norm(np.float32(ink) - np.float32(body))))
                a = a * (opacity + (1 - opacity) * np.clip(ink_share, 0, 1)[..., None])
            img[ys, xs] = img[ys, xs] * (1 - a) + tile[ty, tx] * a
            if rng.random() < glare:
                gx, gy = rng.uniform(-0.3, 0.3, 2) * s
                gl = np.zeros((big, big), np.float32)
                cv2.ellipse(gl, (int(c + gx), int(c + gy)),
                            (max(1, int(s * 0.12)), max(1, int(s * 0.06))),
                            float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
                gl = cv2.GaussianBlur(gl, (0, 0), max(0.5, s * 0.04)) * mask
                img[ys, xs] += (gl[ty, tx] * rng.uniform(60, 160))[..., None]
        img *= light[..., None]
        img *= temperature  # colour temperature of the room light
        if blur > 0.3:
            img = cv2.GaussianBlur(img, (0, 0), blur)
        img += rng.normal(0, noise, img.shape).astype(np.float32)
        return np.clip(img, 0, 255).astype(np.uint8), placed
