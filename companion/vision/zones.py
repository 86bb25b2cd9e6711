"""Zones of the tray: where on the table a die lies (rolling area, DeLorean card, ...).

Zones are rectangles or polygons in normalised tray coordinates: (0, 0) is the top-left
marker, (1, 1) the bottom-right one; without markers, the whole frame. A die outside every
zone is in the ``default`` zone.

Config (TOML or JSON; the daemon's config file holds the same table)::

    [vision.zones]
    default = "tray"
    [[vision.zones.zone]]
    name = "delorean"
    rect = [0.70, 0.0, 1.0, 0.35]          # x0, y0, x1, y1
    [[vision.zones.zone]]
    name = "discard"
    polygon = [[0, 0.8], [0.3, 0.8], [0.3, 1], [0, 1]]
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np


class ZoneError(ValueError):
    """A zone definition that cannot be used."""


@dataclass(frozen=True)
class Zone:
    name: str
    polygon: tuple[tuple[float, float], ...]

    def contains(self, x: float, y: float) -> bool:
        pts = np.array(self.polygon, np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(pts, (float(x), float(y)), False) >= 0


@dataclass(frozen=True)
class Zones:
    """A list of named zones, checked in order.

    >>> z = Zones.from_config({"zone": [{"name": "delorean", "rect": [0.7, 0, 1, 0.35]}]})
    >>> z.zone_of(0.8, 0.1), z.zone_of(0.2, 0.5)
    ('delorean', 'tray')
    """

    zones: tuple[Zone, ...] = field(default_factory=tuple)
    default: str = "tray"

    def zone_of(self, x: float, y: float) -> str:
        for z in self.zones:
            if z.contains(x, y):
                return z.name
        return self.default

    @classmethod
    def from_config(cls, cfg: dict | None) -> Zones:
        if not cfg:
            return cls()
        if not isinstance(cfg, dict):
            raise ZoneError("zones: expected a table with 'zone' entries")
        out = []
        for i, z in enumerate(cfg.get("zone", [])):
            where = f"zones.zone[{i}]"
            if not isinstance(z, dict) or not isinstance(z.get("name"), str):
                raise ZoneError(f"{where}: each zone needs a name")
            if "rect" in z:
                r = z["rect"]
                if not (isinstance(r, list) and len(r) == 4
                        and all(isinstance(v, (int, float)) for v in r)
                        and r[0] < r[2] and r[1] < r[3]):
                    raise ZoneError(f"{where}: rect must be [x0, y0, x1, y1] with x0<x1, y0<y1")
                x0, y0, x1, y1 = (float(v) for v in r)
                poly = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
            elif "polygon" in z:
                p = z["polygon"]
                if not (isinstance(p, list) and len(p) >= 3
                        and all(isinstance(q, list) and len(q) == 2 for q in p)):
                    raise ZoneError(f"{where}: polygon must be a list of at least 3 [x, y]")
                poly = tuple((float(q[0]), float(q[1])) for q in p)
            else:
                raise ZoneError(f"{where}: give 'rect' or 'polygon' (normalised 0..1)")
            out.append(Zone(z["name"], poly))
        return cls(tuple(out), str(cfg.get("default", "tray")))
