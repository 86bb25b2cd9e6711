"""Camera dice reader: frames in, settled readings out.

    capture (sources) -> tray (markers, zones) -> dice (detect, classify) -> settle

>>> from companion.vision import DiceReader, SyntheticTray
>>> image, truth = SyntheticTray("d6", seed=4).render(n_dice=3)
>>> len(DiceReader("d6").read(image))
3
"""

from .faces import FACE_SETS, FaceSet
from .profile import DiceProfile, ProfileError
from .reader import DiceReader, FrameResult
from .settle import MotionMeter, ObstructionMeter, Settler, SettleWatcher
from .sources import (
    CameraUnavailable,
    EndOfStream,
    FileSource,
    Frame,
    FrameError,
    FrameSource,
    OpenCVSource,
    Picamera2Source,
    SyntheticSource,
    load_image,
    open_source,
)
from .synth import SyntheticTray
from .tray import TrayNotFound, TrayView, make_marker_sheet
from .types import UNKNOWN, Die, Reading
from .zones import Zone, Zones

__all__ = [
    "FACE_SETS", "UNKNOWN", "CameraUnavailable", "DiceProfile", "DiceReader", "Die",
    "EndOfStream", "FaceSet", "FileSource", "Frame", "FrameError", "FrameResult",
    "FrameSource", "MotionMeter", "ObstructionMeter", "OpenCVSource", "Picamera2Source",
    "ProfileError", "Reading", "SettleWatcher", "Settler", "SyntheticSource", "SyntheticTray",
    "TrayNotFound", "TrayView", "Zone", "Zones", "load_image", "make_marker_sheet",
    "open_source",
]
