"""Frame sources behind one small interface, picked by config like gpiozero picks pins.

* ``Picamera2Source``: the Pi camera (picamera2 is imported only when the source opens).
* ``OpenCVSource``: a USB webcam through cv2.VideoCapture.
* ``FileSource``: image files, folders of images and video files (replay).
* ``SyntheticSource``: rendered rolls (dice tumbling, settling, an occasional hand).

``read()`` returns a ``Frame`` or raises ``CameraUnavailable`` (unplugged, not found): the
caller shows it and simply calls ``read()`` again later; the source reopens by itself.
``EndOfStream`` ends a finite source.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .types import IMAGE_SUFFIXES

VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".h264", ".webm", ".mjpeg")


class CameraUnavailable(RuntimeError):
    """No frame now (camera missing, unplugged or busy). Try ``read()`` again later."""


class EndOfStream(Exception):
    """A finite source (files, a video) has no more frames."""


class FrameError(ValueError):
    """One input could not be decoded (the source skips it and goes on)."""


@dataclass(frozen=True)
class Frame:
    image: np.ndarray  # BGR uint8
    index: int
    timestamp: float
    name: str = ""


class FrameSource(ABC):
    """Base class: ``read()`` one frame; iterate for all; use as a context manager.

    >>> src = SyntheticSource("d6", seed=0, roll_frames=2, settle_frames=2)
    >>> with src:
    ...     frame = src.read()
    >>> frame.image.shape
    (480, 640, 3)
    """

    index = 0

    def open(self) -> None:  # noqa: B027 - optional hook
        """Acquire the device (called by ``__enter__`` and lazily by ``read``)."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release the device."""

    @abstractmethod
    def read(self) -> Frame:
        ...

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __iter__(self) -> Iterator[Frame]:
        while True:
            try:
                yield self.read()
            except EndOfStream:
                return

    def _frame(self, image: np.ndarray, name: str = "") -> Frame:
        f = Frame(image, self.index, time.monotonic(), name)
        self.index += 1
        return f


class _Reconnecting(FrameSource):
    """A live camera that reopens itself after being unplugged, at most every ``retry_s``."""

    def __init__(self, retry_s: float = 1.0) -> None:
        self.retry_s = retry_s
        self._dev = None
        self._next_try = 0.0

    @abstractmethod
    def _open_device(self):
        ...

    @abstractmethod
    def _grab(self, dev) -> np.ndarray | None:
        ...

    def _close_device(self, dev) -> None:
        pass

    def open(self) -> None:
        if self._dev is None:
            self._dev = self._open_device()

    def close(self) -> None:
        if self._dev is not None:
            try:
                self._close_device(self._dev)
            finally:
                self._dev = None

    def read(self) -> Frame:
        if self._dev is None:
            now = time.monotonic()
            if now < self._next_try:
                raise CameraUnavailable(f"{self}: waiting to retry the camera")
            self._next_try = now + self.retry_s
            try:
                self._dev = self._open_device()
            except CameraUnavailable:
                raise
            except Exception as exc:  # any driver error means "no camera now"
                raise CameraUnavailable(f"{self}: cannot open camera ({exc})") from exc
        try:
            image = self._grab(self._dev)
        except Exception as exc:
            image = None
            err = exc
        else:
            err = None
        if image is None or image.size == 0:
            self.close()
            self._next_try = time.monotonic() + self.retry_s
            raise CameraUnavailable(
                f"{self}: no frame from the camera (unplugged?); will retry"
                + (f" ({err})" if err else "")
            )
        return self._frame(image)


class OpenCVSource(_Reconnecting):
    """A USB webcam through OpenCV.

    >>> cam = OpenCVSource(device=99, retry_s=0)   # no such camera here
    >>> try:
    ...     cam.read()
    ... except CameraUnavailable as exc:
    ...     print("unavailable")
    unavailable
    """

    def __init__(self, device: int | str = 0, width: int | None = None,
                 height: int | None = None, retry_s: float = 1.0) -> None:
        super().__init__(retry_s)
        self.device, self.width, self.height = device, width, height

    def __repr__(self) -> str:
        return f"OpenCVSource({self.device!r})"

    def _open_device(self):
        cap = cv2.VideoCapture(self.device)
        if not cap.isOpened():
            cap.release()
            raise CameraUnavailable(f"camera {self.device!r} not found")
        if self.width:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        if self.height:
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        return cap

    def _grab(self, dev) -> np.ndarray | None:
        ok, image = dev.read()
        return image if ok else None

    def _close_device(self, dev) -> None:
        dev.release()


class Picamera2Source(_Reconnecting):
    """The Raspberry Pi camera via picamera2, imported only when opened."""

    def __init__(self, width: int = 1280, height: int = 720, retry_s: float = 1.0) -> None:
        super().__init__(retry_s)
        self.width, self.height = width, height

    def __repr__(self) -> str:
        return "Picamera2Source()"

    def _open_device(self):
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise CameraUnavailable(
                "picamera2 is not installed (it comes with Raspberry Pi OS: "
                "sudo apt install python3-picamera2)"
            ) from exc
        cam = Picamera2()
        cfg = cam.create_video_configuration(
            main={"size": (self.width, self.height), "format": "RGB888"})
        cam.configure(cfg)
        cam.start()
        return cam

    def _grab(self, dev) -> np.ndarray | None:
        # picamera2's "RGB888" is laid out B, G, R in memory: what OpenCV expects.
        return dev.capture_array("main")

    def _close_device(self, dev) -> None:
        dev.stop()
        dev.close()


class FileSource(FrameSource):
    """Images, folders of images and video files, in order (replay).

    An unreadable file raises ``FrameError`` naming it; the next ``read()`` goes on with
    the following file. ``loop=True`` starts again at the end.
    """

    def __init__(self, *paths: str | Path, loop: bool = False) -> None:
        self.items: list[Path] = []
        for p in map(Path, paths):
            if p.is_dir():
                self.items += sorted(q for q in p.iterdir()
                                     if q.suffix.lower() in IMAGE_SUFFIXES + VIDEO_SUFFIXES)
            else:
                self.items.append(p)
        self.loop = loop
        self._pos = 0
        self._video: cv2.VideoCapture | None = None

    def __repr__(self) -> str:
        return f"FileSource({len(self.items)} inputs)"

    def close(self) -> None:
        if self._video is not None:
            self._video.release()
            self._video = None

    def read(self) -> Frame:
        while True:
            if self._video is not None:
                ok, image = self._video.read()
                if ok:
                    return self._frame(image, str(self.items[self._pos - 1]))
                self.close()
            if self._pos >= len(self.items):
                if self.loop and self.items:
                    self._pos = 0
                else:
                    raise EndOfStream()
            path = self.items[self._pos]
            self._pos += 1
            if path.suffix.lower() in VIDEO_SUFFIXES:
                cap = cv2.VideoCapture(str(path))
                if not cap.isOpened():
                    cap.release()
                    raise FrameError(f"{path}: cannot open as a video")
                self._video = cap
                continue
            image = load_image(path)
            return self._frame(image, str(path))


# The largest image read: a 48-megapixel phone photo reads; a decompression bomb (a small file
# that decodes to gigabytes) is refused from its header, before any pixel is decoded.
MAX_PIXELS = 50_000_000
MAX_FILE_BYTES = 256 * 2**20  # a photo or a camera frame is tens of MB at most


def image_size(path: str | Path) -> tuple[int, int] | None:
    """(width, height) from the file's header alone, or None when Pillow cannot tell."""
    import warnings

    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                return im.size
    except Image.DecompressionBombError as exc:  # bigger than Pillow opens at all
        import re

        numbers = re.findall(r"\d+", str(exc))  # "Image size (400000000 pixels) exceeds..."
        return (int(numbers[0]), 1) if numbers else (MAX_PIXELS + 1, 1)
    except Exception:  # noqa: BLE001 - not a format Pillow knows: OpenCV decides
        return _opencv_only_size(path)


def _opencv_only_size(path: str | Path) -> tuple[int, int] | None:
    """(width, height) of the formats OpenCV decodes and Pillow does not (Radiance HDR, PFM),
    from their text header: a few kilobytes of run-length HDR can decode to gigabytes."""
    import re

    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return None
    if head.startswith((b"#?RADIANCE", b"#?RGBE")):
        found = re.search(rb"\n\n[-+]Y (\d+) [-+]X (\d+)", head)
        return (int(found[2]), int(found[1])) if found else (MAX_PIXELS + 1, 1)
    if head[:3] in (b"PF\n", b"Pf\n"):
        found = re.match(rb"P[Ff]\n\s*(\d+)\s+(\d+)", head)
        return (int(found[1]), int(found[2])) if found else (MAX_PIXELS + 1, 1)
    return None


def load_image(path: str | Path) -> np.ndarray:
    """Read an image as BGR; raises FrameError with the reason when it cannot."""
    from companion.i18n import _

    path = Path(path)
    if not path.exists():
        raise FrameError(f"{path}: no such file")
    if path.is_dir():
        raise FrameError(f"{path}: is a folder, not an image")
    if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
        raise FrameError(_("{path}: not an image file (a device, a pipe, or more than {most} "
                           "MB)").format(path=path, most=MAX_FILE_BYTES // 2**20))
    size = image_size(path)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        megapixels = round(size[0] * size[1] / 1_000_000)
        shown = (_("{width}x{height} pixels").format(width=size[0], height=size[1])
                 if size[1] > 1 else _("{count} megapixels").format(count=f"{megapixels:,}"))
        raise FrameError(_("{path}: {size} is more than the dice reader reads (at most {most} "
                           "megapixels); scale the photo down, e.g. to 4000 pixels "
                           "across").format(path=path, size=shown,
                                            most=MAX_PIXELS // 1_000_000))
    try:
        data = np.fromfile(str(path), np.uint8)
    except OSError as exc:
        raise FrameError(f"{path}: cannot be read ({exc.strerror})") from None
    if data.size == 0:
        raise FrameError(f"{path}: empty file")
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise FrameError(f"{path}: not a readable image (corrupt or unsupported format)")
    return image


class SyntheticSource(FrameSource):
    """Rendered rolls: ``roll_frames`` of tumbling dice (moving, blurred), then
    ``settle_frames`` of the same dice at rest; ``hand_every`` > 0 puts a hand over the tray
    every that many rolls. ``truth`` holds the dice of the current roll.

    ``unplug_at`` (frame indices) simulates a camera pulled out for ``unplug_for`` reads.

    ``follow = True`` makes it a tray at a table instead (what ``[camera] source =
    "synthetic"`` runs): it starts empty and rolls only when the table asks, through
    ``expect_roll(count, turn, dice)``, called before each read. A roll of ``count`` dice lands
    (tumbling for ``roll_frames``, then at rest) when a roll is expected and ``turn`` (any
    object that changes when the game moves on) is not the one the last roll was made for; the
    dice then lie still, so the camera reads them once and the table can ask about them (the
    face picker, a proposal) without the tray changing under it.

        >>> camera = SyntheticSource("d6", seed=1, follow=True, roll_frames=1)
        >>> camera.read() is not None, camera.truth
        (True, [])
        >>> turn = object()
        >>> camera.expect_roll(3, turn); _moving = camera.read(); still = camera.read()
        >>> len(camera.truth), bool((camera.read().image == still.image).all())
        (3, True)
        >>> first = camera.truth
        >>> camera.expect_roll(3, turn); camera.expect_roll(None, object())
        >>> camera.read().image is still.image and camera.truth is first
        True
    """

    def __init__(self, dice: str = "d6", n_dice: int | None = None, seed: int | None = None,
                 roll_frames: int = 6, settle_frames: int = 8, hand_every: int = 0,
                 width: int = 640, height: int = 480, unplug_at: tuple[int, ...] = (),
                 unplug_for: int = 3, follow: bool = False) -> None:
        from .synth import SyntheticTray

        self.tray = SyntheticTray(dice, width, height, seed=seed, keep_scene=True)
        self.seed, self.width, self.height = seed, width, height
        self.follow = follow
        self._rolled_for: Any = None  # the ``turn`` the last roll was made for (follow)
        self._count = 0
        self.n_dice = n_dice
        self.roll_frames, self.settle_frames = roll_frames, settle_frames
        self.hand_every = hand_every
        self.rng = np.random.default_rng(seed)
        self.unplug_at, self.unplug_for = set(unplug_at), unplug_for
        self._unplugged = 0
        self._reads = 0
        self._phase = 0
        self._roll = 0
        self._still: np.ndarray | None = None
        self.truth: list = []

    def __repr__(self) -> str:
        return f"SyntheticSource({self.tray.set.name!r})"

    def expect_roll(self, count: int | None, turn: Any, dice: str | None = None) -> None:
        """What the table expects now (``follow``): ``count`` dice rolled for ``turn`` (None:
        no roll is due, the dice stay as they lie), of the face set ``dice``. Without
        ``follow`` the source rolls by itself and this changes nothing."""
        if not self.follow:
            return
        if dice and dice != self.tray.set.name:
            from .synth import SyntheticTray

            self.tray = SyntheticTray(dice, self.width, self.height, seed=self.seed,
                                      keep_scene=True)
            self._still, self.truth = None, []
        if count is None or turn is self._rolled_for:
            return
        self._rolled_for = turn
        self._count = count
        self._new_roll(count)

    def _new_roll(self, count: int | None = None) -> None:
        self._still, self.truth = self.tray.render(count if count is not None else self.n_dice)
        self._roll += 1
        self._phase = 0
        self._hand_x = float(self.rng.uniform(0.3, 0.7))

    def _hand(self, image: np.ndarray) -> np.ndarray:
        """A still hand and wrist over the tray, entering from the bottom edge."""
        out = image.copy()
        h, w = out.shape[:2]
        cx = int(self._hand_x * w)
        skin = (110, 140, 200)
        cv2.ellipse(out, (cx, int(h * 0.55)), (int(w * 0.14), int(h * 0.2)), 0, 0, 360, skin,
                    -1, cv2.LINE_AA)
        cv2.rectangle(out, (cx - int(w * 0.09), int(h * 0.6)), (cx + int(w * 0.09), h), skin, -1)
        return cv2.GaussianBlur(out, (0, 0), 2.0)

    def read(self) -> Frame:
        self._reads += 1
        if self._reads - 1 in self.unplug_at:
            self._unplugged = self.unplug_for
        if self._unplugged > 0:
            self._unplugged -= 1
            raise CameraUnavailable(f"{self}: camera unplugged (simulated)")
        if self.follow:
            if self._still is None:  # an empty tray until a roll is expected
                self._still, self.truth = self.tray.render(faces=[])
                self._phase = self.roll_frames
        elif self._still is None or self._phase >= self.roll_frames + self.settle_frames:
            self._new_roll()
        assert self._still is not None
        self._phase += 1
        if self._phase <= self.roll_frames:
            # Tumbling: the dice somewhere else each frame, smeared by motion blur.
            moving, _ = self.tray.render(len(self.truth))
            k = int(self.rng.integers(5, 15))
            image = cv2.blur(moving, (k, 1) if self.rng.random() < 0.5 else (1, k))
        else:
            image = self._still
        if self.hand_every and self._roll % self.hand_every == 0 and \
                self._phase > self.roll_frames:
            image = self._hand(image)
        return self._frame(image)


def open_source(spec: str) -> FrameSource:
    """Make a source from a config string.

    ``picamera2`` | ``opencv:0`` | ``files:PATH[,PATH...]`` | ``synthetic:SET``

    >>> open_source("synthetic:d6")
    SyntheticSource('d6')
    """
    kind, _, arg = spec.partition(":")
    if kind == "picamera2":
        return Picamera2Source()
    if kind == "opencv":
        return OpenCVSource(int(arg) if arg.isdigit() else (arg or 0))
    if kind == "files":
        return FileSource(*arg.split(","))
    if kind == "synthetic":
        return SyntheticSource(arg or "d6")
    raise ValueError(
        f"unknown camera {spec!r}; use picamera2, opencv:N, files:PATH or synthetic:SET"
    )
