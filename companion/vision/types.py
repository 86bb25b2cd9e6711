"""Plain data passed out of the vision package: dice seen in one frame and a settled reading."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

# Photos the reader and a labelled folder take, by file suffix.
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")

UNKNOWN = "?"


@dataclass(frozen=True)
class Die:
    """One die seen in a frame.

    ``x, y`` is the die centre and ``w, h`` its box size, in pixels of the original image.
    ``face`` is a face name of the face set, or ``"?"`` when the reader is unsure.

    >>> Die(x=10, y=20, w=30, h=30, face="3", confidence=0.97).as_json()["face"]
    '3'
    """

    x: float
    y: float
    w: float
    h: float
    face: str
    confidence: float
    colour: str | None = None
    zone: str | None = None
    angle: float = 0.0

    @property
    def known(self) -> bool:
        return self.face != UNKNOWN

    @property
    def label(self) -> str:
        """The die as the table session takes it: the face, or ``"colour:face"`` for dice read
        with a colour (either part ``"?"`` when unsure; ``"?"`` alone when both are).

        >>> Die(0, 0, 9, 9, "wild", 0.9, colour="love").label
        'love:wild'
        >>> Die(0, 0, 9, 9, "?", 0.2, colour="?").label, Die(0, 0, 9, 9, "4", 0.9).label
        ('?', '4')
        """
        if self.colour is None:
            return self.face
        if self.colour == UNKNOWN and self.face == UNKNOWN:
            return UNKNOWN
        return f"{self.colour}:{self.face}"

    def as_json(self) -> dict:
        out = {
            "x": round(self.x, 1),
            "y": round(self.y, 1),
            "w": round(self.w, 1),
            "h": round(self.h, 1),
            "face": self.face,
            "confidence": round(float(self.confidence), 3),
        }
        if self.colour is not None:
            out["colour"] = self.colour
        if self.zone is not None:
            out["zone"] = self.zone
        return out


@dataclass(frozen=True)
class Reading:
    """The dice on the table once they have settled.

    >>> r = Reading(dice=(Die(0, 0, 9, 9, "3", 0.9), Die(20, 0, 9, 9, "?", 0.3)))
    >>> r.faces(), r.complete
    (['3', '?'], False)
    """

    dice: tuple[Die, ...]
    frame_index: int = 0
    timestamp: float = 0.0
    extra: dict = field(default_factory=dict)

    def faces(self, zone: str | None = None) -> list[str]:
        return [d.face for d in self.dice if zone is None or d.zone == zone]

    def labels(self, zone: str | None = None) -> list[str]:
        """Each die's ``label``: its face, with its colour for dice read with one.

        >>> Reading(dice=(Die(0, 0, 9, 9, "biff", 0.9, colour="speed"),)).labels()
        ['speed:biff']
        """
        return [d.label for d in self.dice if zone is None or d.zone == zone]

    @property
    def complete(self) -> bool:
        """True when every die was read with confidence (no ``"?"``)."""
        return all(d.known for d in self.dice)

    def as_json(self) -> dict:
        return {
            "dice": [d.as_json() for d in self.dice],
            "frame": self.frame_index,
            "timestamp": self.timestamp,
            **({"extra": dict(self.extra)} if self.extra else {}),
        }


def _dataclass_dict(obj) -> dict:  # pragma: no cover - debugging helper
    return asdict(obj)
