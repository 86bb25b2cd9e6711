"""Frame sources: files with bad entries, cameras that are missing or unplugged."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import (
    CameraUnavailable,
    EndOfStream,
    FileSource,
    FrameError,
    OpenCVSource,
    Picamera2Source,
    SyntheticSource,
    load_image,
    open_source,
)


def test_file_source_skips_a_corrupt_file_with_a_message(tmp_path: Path) -> None:
    good = np.full((40, 60, 3), 90, np.uint8)
    cv2.imwrite(str(tmp_path / "a.png"), good)
    (tmp_path / "b.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    (tmp_path / "c.png").write_bytes(b"")
    cv2.imwrite(str(tmp_path / "d.png"), good)
    src = FileSource(tmp_path)
    assert src.read().name.endswith("a.png")
    with pytest.raises(FrameError, match="b.jpg: not a readable image"):
        src.read()
    with pytest.raises(FrameError, match="c.png: empty file"):
        src.read()
    assert src.read().name.endswith("d.png")
    with pytest.raises(EndOfStream):
        src.read()


def test_load_image_messages(tmp_path: Path) -> None:
    with pytest.raises(FrameError, match="no such file"):
        load_image(tmp_path / "missing.png")
    with pytest.raises(FrameError, match="is a folder"):
        load_image(tmp_path)


def test_video_file_replay(tmp_path: Path) -> None:
    path = tmp_path / "roll.avi"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    if not out.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for i in range(4):
        out.write(np.full((48, 64, 3), i * 40, np.uint8))
    out.release()
    frames = list(FileSource(path))
    assert len(frames) == 4


def test_missing_webcam_is_reported_not_crashed() -> None:
    cam = OpenCVSource(device=97, retry_s=0)
    for _ in range(2):
        with pytest.raises(CameraUnavailable):
            cam.read()


def test_picamera2_absent_is_camera_unavailable() -> None:
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(CameraUnavailable, match="picamera2"):
            Picamera2Source(retry_s=0).read()
    else:  # pragma: no cover - on a Pi
        pytest.skip("picamera2 is installed here")


def test_unplugged_camera_resumes() -> None:
    src = SyntheticSource("d6", seed=1, unplug_at=(2,), unplug_for=2)
    src.read()
    src.read()
    for _ in range(2):
        with pytest.raises(CameraUnavailable):
            src.read()
    assert src.read().image.shape == (480, 640, 3)


def test_open_source_specs() -> None:
    assert isinstance(open_source("synthetic:back_in_time"), SyntheticSource)
    assert isinstance(open_source("opencv:3"), OpenCVSource)
    with pytest.raises(ValueError, match="unknown camera"):
        open_source("webcam")


def test_live_camera_unplugged_mid_game_reopens_itself() -> None:
    from companion.vision.sources import _Reconnecting

    class FlakyCam(_Reconnecting):
        """Gives two frames, is unplugged for a while, then comes back."""

        def __init__(self) -> None:
            super().__init__(retry_s=0)
            self.plugged = True
            self.opens = 0

        def _open_device(self):
            if not self.plugged:
                raise OSError("no such device")
            self.opens += 1
            return object()

        def _grab(self, dev):
            return np.zeros((4, 4, 3), np.uint8) if self.plugged else None

    cam = FlakyCam()
    assert cam.read().index == 0
    cam.plugged = False
    with pytest.raises(CameraUnavailable, match="unplugged"):
        cam.read()
    with pytest.raises(CameraUnavailable, match="cannot open camera"):
        cam.read()
    cam.plugged = True
    assert cam.read().index == 1
    assert cam.opens == 2
