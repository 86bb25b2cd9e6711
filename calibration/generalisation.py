"""The leave-one-domain-out protocol: how the reader does on domains its judge never saw.

For every domain unit (a table family of ``companion.vision.scenes``, or a photo shoot of
the dev photos), the judge (``train_judge.py``) is fitted with that unit left out, from the
same mined candidates, and the reader with that judge is scored on the unit's held-apart
frames (``companion.vision.domains``: ``render-F`` and ``photo-dice-on-F`` for a family,
``shoot-N`` and ``altered-shoot-N`` for a shoot), without and with the number of dice
given. The reader without a judge (the finder and face networks alone) is scored too.

    python calibration/train_judge.py --dev DEV --cache judge-cache.npz --out /tmp/j.json
    python calibration/generalisation.py --dev DEV --cache judge-cache.npz \\
        --json generalisation.json

What each score is held out from: the finder and the face network learned from both photo
shoots (so ``shoot-N`` rows are not held out for them) and from the scenes of the learned
families (``scenes.LEARNED_FAMILIES``: those rows are held out for the judge only). The
``held`` unit is the families nothing learned from (``scenes.HELD_FAMILIES``): it is scored
with the shipped judge, and is held out for every part of the reader. Scene frames come
from seeds no training or calibration uses.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.vision.reader import DiceReader  # noqa: E402
from companion.vision.scenes import HELD_FAMILIES, LEARNED_FAMILIES  # noqa: E402
from companion.vision.targets import pooled, score_domains  # noqa: E402

UNITS = {**{f: [f"render-{f}", f"photo-dice-on-{f}"] for f in LEARNED_FAMILIES},
         "shoot-1": ["shoot-1", "altered-shoot-1"], "shoot-2": ["shoot-2", "altered-shoot-2"],
         "held": [f"{kind}-{f}" for f in HELD_FAMILIES for kind in ("render", "photo-dice-on")]}
KEYS = ("recall", "precision", "die_accuracy", "roll_accuracy", "labelled_dice", "images")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--dev", required=True, help="the labelled dev photos")
    ap.add_argument("--cache", required=True, help="mined candidates (train_judge.py --cache)")
    ap.add_argument("--frames", type=int, default=30, help="frames per scene domain")
    ap.add_argument("--units", default=",".join(UNITS), help="units to leave out in turn")
    ap.add_argument("--json", help="write every number here")
    ap.add_argument("--judge-options", default="",
                    help="more train_judge.py options for the fits, e.g. '--hidden 0', to "
                         "choose the judge's form on the learned families, not the held ones")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    out: dict = {}
    here = Path(__file__).with_name("train_judge.py")
    with tempfile.TemporaryDirectory() as tmp:
        for unit in args.units.split(","):
            names = UNITS[unit]
            if unit == "held":  # nothing learned from them: the shipped judge
                judge = None
            else:
                judge = Path(tmp) / f"judge-{unit}.json"
                subprocess.run([sys.executable, str(here), "--dev", args.dev, "--cache",
                                args.cache, "--leave-out", unit, "--out", str(judge),
                                *args.judge_options.split()],
                               check=True, stdout=subprocess.DEVNULL)
            row: dict = {}
            for label, reader in (("networks alone", DiceReader("d6", judge=False)),
                                  ("judge, left out", DiceReader("d6", judge=judge))):
                for expect in (False, True):
                    s = score_domains(reader, args.dev, args.frames, expect=expect,
                                      names=names)
                    key = label + (", count given" if expect else "")
                    row[key] = {n: {k: s[n][k] for k in KEYS} for n in s}
                    p = pooled(s, list(s))
                    row[key]["pooled"] = p
                    print(f"{unit:8s} {key:30s} dice {p['dice']:5d} precision "
                          f"{p['precision']:.3f} per die {p['die']:.4f} per roll "
                          f"{p['roll']:.3f}  "
                          + "  ".join(f"{n} {s[n]['die_accuracy']:.3f}/"
                                      f"{s[n]['precision']:.3f}" for n in s), flush=True)
            out[unit] = row
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
