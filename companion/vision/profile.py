"""Dice profiles: what the faces of one kind of die look like, stored as JSON.

A profile holds, for each face, one or more small templates of the face's marks (grey maps of
"how far from the body colour" each spot is, 24 x 24, values 0..255), optionally the body
colour of each die colour, and (version 2) a small linear classifier learned on the features
the built-in face network computes for a die crop. Profiles are plain JSON so a person can
read and diff them; nothing is ever unpickled.

Format (version 2; version 1 files, without "head", are still read)::

    {
      "format": "companion-dice-profile", "version": 2,
      "dice": "d6",                       # face set: d6, or one a title declares
      "faces": ["flux", "2", ...],        # face names the templates use
      "templates": {"flux": [[576 ints], ...], ...},
      "colours": {"speed": [B, G, R], ...},   # optional
      "unknown_below": 0.5,               # optional: confidence under which a face is "?"
      "source": "how it was made",
      "head": {                           # optional: the learned classifier
        "features": "d6_pips+outatime_faces",  # networks whose features it reads
        "turns": {"outatime_faces": [0]}, # optional: quarter turns a network averages
                                          # (others: 0 and 2)
        "classes": ["flux", ..., "none"], # "none": not a die
        "mean": [96 floats], "scale": [96 floats],
        "weights": [[96 floats], ...],    # one row per class
        "bias": [floats],
        "fingerprint": "0123abcd..."      # which exact networks (sha256 of their files)
      },
      "finder": {                         # optional: the dice finder's heat layer, taught
        "weights": [24 floats],           # on the labelled photos (centres.fit_heat)
        "bias": float,
        "fingerprint": "0123abcd..."      # which exact finder network
      }
    }
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.files import write_atomically

from .faces import FACE_SETS

FORMAT = "companion-dice-profile"
VERSION = 2
READS = (1, 2)
TEMPLATE = 24  # side of a face template in pixels
FINDER_FEATURES = 24  # features per cell the dice finder's heat layer reads


def _byte(v: object) -> bool:
    """An integer 0..255 (JSON's true and false are not numbers here)."""
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255


MAX_PROFILE_BYTES = 8 * 2**20


class ProfileError(ValueError):
    """A profile file that cannot be used; the message says what, where and what to do."""


@dataclass
class DiceProfile:
    """Templates and colours for one kind of die.

    >>> p = DiceProfile("d6", {"1": [np.zeros((24, 24), np.uint8)]})
    >>> DiceProfile.from_json(p.to_json()).faces
    ['1']
    """

    dice: str
    templates: dict[str, list[np.ndarray]]
    colours: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    unknown_below: float = 0.5
    source: str = ""
    head: dict | None = None
    finder: dict | None = None

    @property
    def faces(self) -> list[str]:
        return list(self.templates)

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
            "dice": self.dice,
            "faces": self.faces,
            "templates": {
                f: [np.asarray(t, np.uint8).ravel().tolist() for t in ts]
                for f, ts in self.templates.items()
            },
            "colours": {c: [int(v) for v in bgr] for c, bgr in self.colours.items()},
            "unknown_below": self.unknown_below,
            "source": self.source,
            **({"head": self.head} if self.head else {}),
            **({"finder": self.finder} if self.finder else {}),
        }

    def save(self, path: str | Path) -> None:
        """Written beside ``path`` and renamed over it: a failed write (a full disk, a size
        limit) leaves the old profile whole. OSError names the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.to_json(), separators=(",", ":"))
        write_atomically(path, (text + "\n").encode("utf-8"))

    @classmethod
    def from_json(cls, data: object, where: str = "profile") -> DiceProfile:
        fix = "re-create it with 'companion calibrate dice'"
        if not isinstance(data, dict):
            raise ProfileError(f"{where}: expected a JSON object at the top; {fix}")
        if data.get("format") != FORMAT:
            raise ProfileError(
                f"{where}: not a dice profile (\"format\" should be {FORMAT!r}); {fix}"
            )
        if isinstance(data.get("version"), bool) or data.get("version") not in READS:
            raise ProfileError(
                f"{where}: profile version {data.get('version')!r}, this reader knows "
                f"{' and '.join(map(str, READS))}; {fix}"
            )
        dice = data.get("dice")
        if not isinstance(dice, str) or dice not in FACE_SETS:
            raise ProfileError(
                f"{where}: \"dice\" is {dice!r}, expected one of {', '.join(FACE_SETS)}"
            )
        raw = data.get("templates")
        if not isinstance(raw, dict) or not raw:
            raise ProfileError(f"{where}: \"templates\" is missing or empty; {fix}")
        templates: dict[str, list[np.ndarray]] = {}
        for face, ts in raw.items():
            if not isinstance(ts, list) or not ts:
                raise ProfileError(f"{where}: templates[{face!r}] should be a non-empty list")
            arrs = []
            for i, t in enumerate(ts):
                ok = (isinstance(t, list) and len(t) == TEMPLATE * TEMPLATE
                      and all(_byte(v) for v in t))
                if not ok:
                    raise ProfileError(
                        f"{where}: templates[{face!r}][{i}] should be {TEMPLATE * TEMPLATE} "
                        f"integers 0..255 ({TEMPLATE}x{TEMPLATE}); {fix}"
                    )
                arrs.append(np.array(t, np.uint8).reshape(TEMPLATE, TEMPLATE))
            templates[str(face)] = arrs
        colours = {}
        raw_colours = data.get("colours") or {}
        if not isinstance(raw_colours, dict):
            raise ProfileError(f"{where}: \"colours\" should be an object of colour names to "
                               "[B, G, R]; " + fix)
        for c, bgr in raw_colours.items():
            if not (isinstance(bgr, list) and len(bgr) == 3
                    and all(_byte(v) for v in bgr)):
                raise ProfileError(f"{where}: colours[{c!r}] should be [B, G, R] in 0..255")
            colours[str(c)] = (bgr[0], bgr[1], bgr[2])
        ub = data.get("unknown_below", 0.5)
        if isinstance(ub, bool) or not isinstance(ub, (int, float)) or not 0 <= ub <= 1:
            raise ProfileError(f"{where}: \"unknown_below\" should be a number from 0 to 1")
        head = _check_head(data.get("head"), where, fix)
        if head is not None:
            strange = [c for c in head["classes"] if c not in templates and c != "none"]
            if strange:  # the classifier would name faces the profile's dice do not have
                raise ProfileError(f"{where}: head.classes names {', '.join(map(repr, strange))}, "
                                   f"not faces of these dice; {fix}")
        finder = _check_finder(data.get("finder"), where, fix)
        source = data.get("source", "")
        if not isinstance(source, str):
            raise ProfileError(f"{where}: \"source\" should be a text; {fix}")
        return cls(dice, templates, colours, float(ub), source, head, finder)

    @classmethod
    def load(cls, path: str | Path) -> DiceProfile:
        """Read a profile file; raises ProfileError naming the file and the problem."""
        path = Path(path)
        try:
            if path.is_file() and path.stat().st_size > MAX_PROFILE_BYTES:
                raise ProfileError(f"{path}: more than {MAX_PROFILE_BYTES // 2**20} MB, not a "
                                   "dice profile (one is about 100 KB)")
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ProfileError(
                f"{path}: no such profile file; make one with "
                "'companion calibrate dice --out PROFILE.json'"
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ProfileError(f"{path}: cannot be read ({exc})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ProfileError(
                f"{path}: line {exc.lineno} column {exc.colno}: not valid JSON ({exc.msg}); "
                "re-create it with 'companion calibrate dice'"
            ) from None
        except (ValueError, RecursionError) as exc:  # a number of thousands of digits, nesting
            raise ProfileError(f"{path}: not a dice profile ({str(exc)[:80]}); re-create it "
                               "with 'companion calibrate dice'") from None
        return cls.from_json(data, str(path))


MODEST = 1e6  # a taught layer's numbers are far smaller; larger ones only overflow to NaN


def _modest(x: object) -> bool:
    """A number a taught layer can hold: finite, and not so large that reading overflows."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return False
    try:
        return abs(float(x)) <= MODEST
    except OverflowError:  # an integer of hundreds of digits
        return False


def _check_head(head: object, where: str, fix: str) -> dict | None:
    """Validate the learned classifier's shapes so a damaged file fails here, clearly."""
    if head is None:
        return None

    def numbers(v: object, n: int | None = None) -> bool:
        return isinstance(v, list) and (n is None or len(v) == n) and all(map(_modest, v))

    if not isinstance(head, dict):
        raise ProfileError(f"{where}: \"head\" should be an object; {fix}")
    classes = head.get("classes")
    if not (isinstance(classes, list) and len(classes) >= 2
            and all(isinstance(c, str) for c in classes)):
        raise ProfileError(f"{where}: head.classes should list at least two face names; {fix}")
    if not (isinstance(head.get("features"), str)
            and re.fullmatch(r"\w+(\+\w+)*", head["features"], re.ASCII)):
        raise ProfileError(f"{where}: head.features should name the face networks (e.g. "
                           f"d6_pips+outatime_faces); {fix}")
    if not isinstance(head.get("fingerprint", ""), str):
        raise ProfileError(f"{where}: head.fingerprint should be a string; {fix}")
    turns = head.get("turns", {})
    if not (isinstance(turns, dict) and all(
            isinstance(v, list) and v and len(set(v)) == len(v)
            and all(t in (0, 1, 2, 3) and not isinstance(t, bool) for t in v)
            for v in turns.values())):
        raise ProfileError(f"{where}: head.turns should map network names to lists of quarter "
                           f"turns (0-3); {fix}")
    mean = head.get("mean")
    if not numbers(mean) or not mean:
        raise ProfileError(f"{where}: head.mean should be a list of numbers; {fix}")
    n = len(mean)
    if not numbers(head.get("scale"), n) or not all(abs(x) > 1e-9 for x in head["scale"]):
        raise ProfileError(f"{where}: head.scale should be {n} numbers, none 0, like head.mean; "
                           f"{fix}")
    w = head.get("weights")
    if not (isinstance(w, list) and len(w) == len(classes) and all(numbers(r, n) for r in w)):
        raise ProfileError(
            f"{where}: head.weights should be {len(classes)} rows of {n} numbers; {fix}")
    if not numbers(head.get("bias"), len(classes)):
        raise ProfileError(f"{where}: head.bias should be {len(classes)} numbers; {fix}")
    return head


def _check_finder(finder: object, where: str, fix: str) -> dict | None:
    """Validate the finder's heat layer: 24 weights, a bias and the network it fits."""
    if finder is None:
        return None
    fix = fix.replace("dice'", "dice --labeled'")
    if not isinstance(finder, dict):
        raise ProfileError(f"{where}: \"finder\" should be an object; {fix}")
    w = finder.get("weights")
    if not (isinstance(w, list) and len(w) == FINDER_FEATURES and all(map(_modest, w))):
        raise ProfileError(
            f"{where}: finder.weights should be {FINDER_FEATURES} numbers; {fix}")
    b = finder.get("bias")
    if not _modest(b):
        raise ProfileError(f"{where}: finder.bias should be a number; {fix}")
    if not isinstance(finder.get("fingerprint"), str):
        raise ProfileError(f"{where}: finder.fingerprint should name the finder network; {fix}")
    return finder
