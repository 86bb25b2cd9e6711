"""Tray markers: a printable ArUco sheet and the homography to a top-down tray image.

Print the sheet, cut out the four markers and stick them at the tray corners: id 0 top-left,
1 top-right, 2 bottom-right, 3 bottom-left (as seen by the camera). The rolling area is the
quadrilateral of the markers' inner corners.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

DICTIONARY = cv2.aruco.DICT_4X4_50
CORNER_IDS = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left
# Which corner of each marker points into the tray (ArUco corners run TL, TR, BR, BL).
_INNER = {0: 2, 1: 3, 2: 0, 3: 1}


class TrayNotFound(RuntimeError):
    """The tray markers are not (all) visible in the frame."""


def _dictionary():
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    return cv2.aruco.generateImageMarker(_dictionary(), marker_id, side_px)


def make_marker_sheet(out_dir: str | Path, dpi: int = 200, marker_mm: float = 40.0
                      ) -> list[Path]:
    """Write ``tray-markers.png`` and ``tray-markers.pdf`` (A4) into ``out_dir``.

    >>> import tempfile; paths = make_marker_sheet(tempfile.mkdtemp(), dpi=50)
    >>> sorted(p.suffix for p in paths)
    ['.pdf', '.png']
    """
    from PIL import Image

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    mm = dpi / 25.4
    w, h = int(210 * mm), int(297 * mm)
    sheet = np.full((h, w), 255, np.uint8)
    side = int(marker_mm * mm)
    quiet = int(8 * mm)  # white border ArUco needs around each marker
    cells = [(quiet, quiet), (w - quiet - side, quiet), (w - quiet - side, h // 2),
             (quiet, h // 2)]
    names = ["0 top-left", "1 top-right", "2 bottom-right", "3 bottom-left"]
    for mid, (x, y), name in zip(CORNER_IDS, cells, names, strict=True):
        sheet[y:y + side, x:x + side] = marker_image(mid, side)
        text, scale, thick = f"tray corner {name}", 0.12 * mm, max(1, int(0.3 * mm))
        (tw, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        tx = min(x, w - quiet - tw)  # keep the label on the page
        cv2.putText(sheet, text, (tx, y + side + int(6 * mm)), cv2.FONT_HERSHEY_SIMPLEX,
                    scale, 0, thick)
    lines = ["companion tray markers (ArUco 4x4_50, ids 0-3).",
             f"Print at 100% scale: each marker is {marker_mm:.0f} mm.",
             "Cut out and stick at the tray corners, ids as labelled, inner corner",
             "of each marker on the corner of the rolling area."]
    for i, text in enumerate(lines):
        cv2.putText(sheet, text, (quiet, int(h * 0.88) + i * int(7 * mm)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.1 * mm, 0, max(1, int(0.25 * mm)))
    png = out_dir / "tray-markers.png"
    pdf = out_dir / "tray-markers.pdf"
    cv2.imwrite(str(png), sheet)
    Image.fromarray(sheet).save(pdf, "PDF", resolution=float(dpi))
    return [png, pdf]


def detect_markers(frame: np.ndarray) -> dict[int, np.ndarray]:
    """ArUco markers in a frame: {id: 4x2 corner array (TL, TR, BR, BL)}."""
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    detector = cv2.aruco.ArucoDetector(_dictionary(), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}


@dataclass(frozen=True)
class TrayView:
    """Homography between a camera frame and a top-down image of the rolling area.

    >>> import numpy as np
    >>> view = TrayView(np.eye(3), (100, 80))
    >>> view.to_tray_norm([(50, 40)]).round(2).tolist()
    [[0.5, 0.5]]
    """

    homography: np.ndarray  # frame pixels -> tray pixels
    size: tuple[int, int]  # tray image (width, height)

    @classmethod
    def from_frame(cls, frame: np.ndarray, width: int | None = None) -> TrayView:
        """Find the four corner markers; raises TrayNotFound naming the missing ones."""
        found = detect_markers(frame)
        missing = [i for i in CORNER_IDS if i not in found]
        if missing:
            raise TrayNotFound(
                f"tray markers {missing} not seen (found {sorted(found) or 'none'}); check "
                "they are stuck at the tray corners, lit and not covered"
            )
        src = np.array([found[i][_INNER[i]] for i in CORNER_IDS], np.float32)
        top = np.linalg.norm(src[1] - src[0])
        left = np.linalg.norm(src[3] - src[0])
        # Keep about the camera's own pixel density so die sizes stay comparable.
        w = int(width or max(top, np.linalg.norm(src[2] - src[3])))
        h = int(w * max(left, np.linalg.norm(src[2] - src[1])) / max(top, 1.0))
        dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        return cls(cv2.getPerspectiveTransform(src, dst), (w, h))

    def warp(self, frame: np.ndarray) -> np.ndarray:
        return cv2.warpPerspective(frame, self.homography, self.size, flags=cv2.INTER_LINEAR)

    def to_frame(self, pts) -> np.ndarray:
        """Tray pixels -> frame pixels."""
        p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(p, np.linalg.inv(self.homography)).reshape(-1, 2)

    def to_tray(self, pts) -> np.ndarray:
        """Frame pixels -> tray pixels."""
        p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(p, self.homography).reshape(-1, 2)

    def to_tray_norm(self, pts) -> np.ndarray:
        return self.to_tray(pts) / np.array(self.size, np.float64)
