"""Dice as solid cubes seen by a pinhole camera held at a slant over the table.

A die is a cube: from straight above only its top shows, but a phone held at a slant sees
the sides facing it too, with their own pips (at 45 degrees a side shows about as tall as
the top). A printed square tilted with the table, as a plane's perspective warp draws it,
never shows them. ``Camera`` maps the table plane (z = 0, table pixels) and points above
it into the frame; ``draw_cube`` paints a die's visible faces, far faces first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

# The four faces round each top face, in turn (a d6's opposite faces add up to 7).
AROUND = {1: (2, 3, 5, 4), 2: (1, 4, 6, 3), 3: (1, 2, 6, 5), 4: (1, 5, 6, 2),
          5: (1, 3, 6, 4), 6: (2, 4, 5, 3)}


@dataclass(frozen=True)
class Camera:
    """A pinhole camera ``distance`` table pixels from the point ``centre`` of the table,
    tilted ``tilt`` radians from straight down towards the direction ``heading`` (radians in
    the table plane), with focal length ``focal`` in pixels and a ``size`` (w, h) frame."""

    centre: tuple[float, float]
    distance: float
    tilt: float
    heading: float
    focal: float
    size: tuple[int, int]

    @property
    def position(self) -> np.ndarray:
        back = np.array([np.sin(self.heading), np.cos(self.heading)])  # towards the near side
        return np.array([*(np.array(self.centre) + self.distance * np.sin(self.tilt) * back),
                         self.distance * np.cos(self.tilt)])

    @property
    def matrix(self) -> np.ndarray:
        """The 3 x 4 projection of table points (x, y, height)."""
        c = self.position
        forward = np.array([*self.centre, 0.0]) - c
        forward /= np.linalg.norm(forward)
        far = np.array([-np.sin(self.heading), -np.cos(self.heading), 0.0])  # frame's up
        right = np.cross(forward, far)
        right /= np.linalg.norm(right)
        down = np.cross(forward, right)
        rot = np.stack([right, down, forward])
        w, h = self.size
        k = np.array([[self.focal, 0, w / 2], [0, self.focal, h / 2], [0, 0, 1]])
        return k @ np.hstack([rot, (-rot @ c)[:, None]])

    def plane(self, height: float = 0.0) -> np.ndarray:
        """The homography from the plane at ``height`` above the table to the frame."""
        p = self.matrix
        return np.column_stack([p[:, 0], p[:, 1], p[:, 2] * height + p[:, 3]])

    def project(self, points: np.ndarray) -> np.ndarray:
        p = self.matrix @ np.hstack([points, np.ones((len(points), 1))]).T
        return (p[:2] / p[2]).T

    def on_table(self, u: float, v: float) -> tuple[float, float]:
        """The table point seen at frame pixel (u, v)."""
        q = np.linalg.solve(self.plane(), np.array([u, v, 1.0]))
        return float(q[0] / q[2]), float(q[1] / q[2])


def cube_faces(x: float, y: float, side: float, angle: float, top: int
               ) -> list[tuple[np.ndarray, int, np.ndarray]]:
    """The top and four sides of a die standing at (x, y) on the table, turned ``angle``
    radians: (corners in a face tile's order, the face's number, its outward normal)."""
    ex = np.array([np.cos(angle), np.sin(angle), 0.0]) * side / 2
    ey = np.array([-np.sin(angle), np.cos(angle), 0.0]) * side / 2
    up = np.array([0.0, 0.0, side])
    base = np.array([x, y, 0.0])
    top_corners = [base + up - ex - ey, base + up + ex - ey, base + up + ex + ey,
                   base + up - ex + ey]
    out = [(np.array(top_corners), top, np.array([0.0, 0.0, 1.0]))]
    for k, (a, b) in enumerate(((0, 1), (1, 2), (2, 3), (3, 0))):
        p, q = top_corners[a], top_corners[b]
        mid = (p + q) / 2 - up / 2
        normal = (mid - base - up / 2) / (side / 2)
        out.append((np.array([p, q, q - up, p - up]), AROUND[top][k], normal))
    return out


def draw_cube(img: np.ndarray, camera: Camera, x: float, y: float, side: float,
              angle: float, top: int, paint: Callable[[int], np.ndarray],
              light: np.ndarray) -> tuple[float, float, float, float] | None:
    """Paint the visible faces of a die (``paint(face)`` gives a square BGR float tile of
    a face) onto ``img`` in place, shaded by the unit ``light`` direction; returns the
    die's box in the frame (x0, y0, x1, y1), or None when no face shows."""
    h, w = img.shape[:2]
    eye = camera.position
    # A cube is convex: the faces turned to the camera never hide one another.
    faces = [f for f in cube_faces(x, y, side, angle, top) if f[2] @ (eye - f[0].mean(0)) > 0]
    seen = []
    for corners, face, normal in faces:
        quad = camera.project(corners).astype(np.float32)
        x0, y0 = np.floor(quad.min(0)).astype(int) - 1
        x1, y1 = np.ceil(quad.max(0)).astype(int) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            continue
        tile = paint(face) * (0.45 + 0.55 * max(0.0, float(normal @ light)))
        t = tile.shape[0]
        m = cv2.getPerspectiveTransform(np.float32([[0, 0], [t, 0], [t, t], [0, t]]),
                                        quad - np.float32([x0, y0]))
        size = (x1 - x0, y1 - y0)
        colour = cv2.warpPerspective(tile, m, size, flags=cv2.INTER_AREA)
        alpha = cv2.warpPerspective(np.ones((t, t), np.float32), m, size, flags=cv2.INTER_AREA)
        roi = img[y0:y1, x0:x1]
        roi[:] = roi * (1 - alpha[..., None]) + colour * alpha[..., None]
        seen.append(quad)
    if not seen:
        return None
    pts = np.vstack(seen)
    x0, y0 = pts.min(0)
    x1, y1 = pts.max(0)
    return float(x0), float(y0), float(x1), float(y1)
