"""Teach the judge (``companion/vision/models/NAME_judge.json``): is it a die, which face.

The finder and the face network propose and read; on a table they never learned they are
fooled by wood grain, print and art. The judge learns, from what both networks make of
every place the finder proposes, which of them are dice:

1. **Mine.** The reader's finder runs, at its own threshold, over domain-randomised tables
   (``companion.vision.scenes``: wood, cloth, felt, paper, patterned cloth, game tokens,
   with real dice cut from the labelled photos and rendered dice of every colour, clutter,
   hands, shadows, light, tilted cameras) and over the labelled photos. Every proposal
   matched to a die is a positive; every other one (knots, print, dots on a board, coins)
   a hard negative.
2. **Fit** a small layer (logistic, or one hidden layer with ``--hidden``) on the training
   scenes and photos.
3. **Calibrate** on held-apart scenes (other seeds): Platt scaling of the die logit, and a
   temperature for the face network's logits (temperature scaling), so the reader's
   confidence is a probability. The reliability of both is printed, and ``--plot`` draws it.

Reproducible from seeds; a few minutes on one core:

    python calibration/train_judge.py --dev ../shared/data/dice-photos/d6-tray-dev \\
        --weigh tokens=0.4 --out companion/vision/models/d6_judge.json \\
        --plot docs/vision-reliability.png
    # a title's set: scenes of its own dice only (SceneMaker(dice_set=...)), no photos
    python calibration/train_judge.py --dice back_in_time \\
        --out companion/vision/models/back_in_time_judge.json
    # OUTATIME's dice are numerals on squares, as game tokens are: its judge leaves them out
    python calibration/train_judge.py --dice outatime --leave-out tokens \\
        --out companion/vision/models/outatime_judge.json

Cards, boards and stone (``scenes.HELD_FAMILIES``) are never mined: no part of the reader learns
from them, so their scenes test it on tables it never saw.
``--leave-out NAME`` (a learned table family, or ``shoot-1`` / ``shoot-2``) fits without that
domain, for the leave-one-domain-out protocol (``calibration/generalisation.py``). The
mined candidates are cached (``--cache``), so fits that leave out other domains reuse them.
The judge is tied to the finder and face networks it was mined with (fingerprints):
retraining either means running this again.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.vision.centres import MODEL as FINDER  # noqa: E402
from companion.vision.centres import model_fingerprint  # noqa: E402
from companion.vision.classify import MODELS  # noqa: E402
from companion.vision.domains import shoots  # noqa: E402
from companion.vision.judge import (  # noqa: E402
    EXTRA,
    expected_calibration_error,
    fit_layers,
    fit_platt,
    fit_temperature,
    reliability,
    sigmoid,
    softmax,
)
from companion.vision.labeled import (  # noqa: E402
    LabeledImage,
    load_labeled_dir,
    match_blobs,  # noqa: E402
)
from companion.vision.reader import DiceReader  # noqa: E402
from companion.vision.scenes import (  # noqa: E402
    LEARNED_FAMILIES,
    SceneMaker,
    photo_dice,
    scene_item,
)

CALIBRATION_SEEDS = 500_000  # scenes for calibration: apart from training and scoring seeds


def mine_frame(reader: DiceReader, image: np.ndarray, item: LabeledImage, faces: list[str]):
    """Rows of one frame: the judge's inputs, the face logits, is-a-die, the true face
    (-1 if not a die or not known)."""
    c = reader.candidates(image)
    if not c.blobs:
        return None
    matched, unmatched = match_blobs(c.blobs, item.boxes)
    keep, y, face = [], [], []
    for i in range(len(c.blobs)):
        if i in matched:
            keep.append(i)
            y.append(1)
            f = item.boxes[matched[i]].face
            face.append(faces.index(f) if f in faces else -1)
        elif not any(g.contains(c.blobs[i].cx, c.blobs[i].cy, 0.1) for g in item.ignore):
            keep.append(i)
            y.append(0)
            face.append(-1)
    if not keep:
        return None
    return (c.inputs[keep], c.logits[keep], np.array(y), np.array(face),
            np.array([c.blobs[i].heat for i in keep]))


def mine(reader: DiceReader, frames, tag: str, faces: list[str], rows: dict) -> None:
    for image, item in frames:
        got = mine_frame(reader, image, item, faces)
        if got is None:
            continue
        for key, val in zip(("x", "logits", "y", "face", "heat"), got, strict=True):
            rows.setdefault(key, []).append(val)
        rows.setdefault("tag", []).append(np.array([tag] * len(got[2])))


def scenes(families, n: int, seed: int, bank, width=640, height=480, solid: float = 0.0,
           dice: str = "d6"):
    """``n`` scenes of each family: two in three from the whole (harsh) range, one in three
    as ordinary photos of a game night (``SceneMaker(harsh=False)``); ``solid`` of them
    through a camera at a slant, the dice as cubes. ``dice``: a title's set, every die
    one of its own (rendered: the photos' dice are d6 dice)."""
    for k, family in enumerate(families):
        makers = [SceneMaker(seed=seed + k + 100 * h, families=(family,), photo=bank,
                             photo_share=0.5, d6_only=True, harsh=h == 0, solid=solid,
                             dice_set=None if dice == "d6" else dice)
                  for h in (0, 1)]
        for j in range(n):
            maker = makers[int(j % 3 == 2)]
            scene = maker.render(width, height, n_dice=int(maker.rng.integers(0, 10)))
            yield family, scene.image, scene_item(scene, f"{family}-{seed}-{j}")


def build_cache(args, reader: DiceReader, faces: list[str]) -> dict:
    t0 = time.time()
    train: dict = {}
    calib: dict = {}
    bank_items: dict[str, list[LabeledImage]] = {}
    if args.dev and args.dice == "d6":  # the photos' dice are d6 dice
        _, items = load_labeled_dir(args.dev)
        bank_items = shoots(items)
    for shoot, its in bank_items.items():
        frames = ((cv2.imread(str(it.image)), it) for it in its)
        mine(reader, frames, shoot, faces, train)
        print(f"mined {shoot}: {len(its)} photos ({time.time() - t0:.0f} s)", flush=True)
    # Scenes of each family carry dice cut from each shoot's photos, tagged by both, so a
    # fit can leave out a family or a shoot.
    for shoot, its in bank_items.items() or {"": []}.items():
        bank = photo_dice(its) if its else []
        for family, image, item in scenes(LEARNED_FAMILIES,
                                          args.scenes // max(len(bank_items), 1),
                                          args.seed + 1000 * len(shoot), bank,
                                          solid=args.solid, dice=args.dice):
            mine(reader, [(image, item)], f"{family}|{shoot}", faces, train)
        print(f"mined training scenes with {shoot or 'rendered'} dice "
              f"({time.time() - t0:.0f} s)", flush=True)
        for family, image, item in scenes(LEARNED_FAMILIES,
                                          args.calibration // max(len(bank_items), 1),
                                          CALIBRATION_SEEDS + 1000 * len(shoot), bank,
                                          solid=args.solid, dice=args.dice):
            mine(reader, [(image, item)], f"{family}|{shoot}", faces, calib)
        print(f"mined calibration scenes ({time.time() - t0:.0f} s)", flush=True)
    out = {}
    for name, rows in (("train", train), ("calib", calib)):
        for key, val in rows.items():
            out[f"{name}_{key}"] = np.concatenate(val)
    return out


def left_out(tags: np.ndarray, name: str | None) -> np.ndarray:
    """Rows that belong to domain ``name`` (a family or a shoot)."""
    if not name:
        return np.zeros(len(tags), bool)
    return np.array([name in str(t).split("|") for t in tags])


def _weighing(text: str) -> tuple[str, float]:
    name, _, w = text.partition("=")
    try:
        return name, float(w)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give DOMAIN=WEIGHT, e.g. tokens=0.5") from None


def fit(cache: dict, args, faces: list[str]) -> tuple[dict, dict]:
    drop_tr = left_out(cache["train_tag"], args.leave_out)
    drop_ca = left_out(cache["calib_tag"], args.leave_out)
    x, y = cache["train_x"][~drop_tr], cache["train_y"][~drop_tr]
    # Each source weighs as much in all as its share of frames: photos and scenes alike.
    weight = np.ones(len(y))
    for name, w in (args.weigh or []):
        rows = left_out(cache["train_tag"], name)
        if not rows.any():
            raise SystemExit(f"--weigh {name}={w}: no mined places of that table family or "
                             "shoot (a learned family, or shoot-1 / shoot-2)")
        weight[rows[~drop_tr]] = w  # (none left when it is the domain left out)
    mean, scale, layers = fit_layers(x, y, weight, hidden=args.hidden, l2=args.l2,
                                     steps=args.steps, seed=args.seed)
    xc, yc = cache["calib_x"][~drop_ca], cache["calib_y"][~drop_ca]

    def raw(xx):
        z = (xx - mean) / scale
        for k, (w, b) in enumerate(layers):
            z = z @ w.T + b
            if k < len(layers) - 1:
                z = np.maximum(z, 0.0)
        return z[:, 0]

    a, b = fit_platt(raw(xc), yc)
    p_die = sigmoid(a * raw(xc) + b)
    lc, fc = cache["calib_logits"][~drop_ca], cache["calib_face"][~drop_ca]
    dice = (yc == 1) & (fc >= 0)
    face_logits = lc[dice][:, :len(faces)]
    temperature = fit_temperature(face_logits, fc[dice])
    p_face = softmax(face_logits / temperature)
    right = p_face.argmax(axis=1) == fc[dice]
    conf = p_die[dice] * p_face.max(axis=1)
    # what the reader reports: every candidate it proposes (p_die over the line), with its
    # confidence; right when it is a die and its face is right
    reported_conf = p_die * 0.0
    reported_right = np.zeros(len(yc), bool)
    reported_conf[dice] = conf
    reported_right[dice] = right
    others = ~dice
    reported_conf[others] = p_die[others] * softmax(lc[others][:, :len(faces)]
                                                    / temperature).max(axis=1)
    judge = {
        "format": "companion-dice-judge", "version": 1,
        "classes": [*faces, "none"],
        "inputs": ["face features"] * 96 + ["finder features"] * 24 + list(EXTRA),
        "mean": [round(float(v), 6) for v in mean],
        "scale": [round(float(v), 6) for v in scale],
        "layers": [[[[round(float(v), 6) for v in row] for row in w],
                    [round(float(v), 6) for v in bb]] for w, bb in layers],
        "platt": [round(a, 6), round(b, 6)],
        "temperature": round(temperature, 4),
        "die_below": args.die_below,
        "unknown_below": args.unknown_below,
        "fingerprints": {"finder": model_fingerprint(FINDER),
                         "faces": model_fingerprint(MODELS / f"{args.dice}_faces.onnx")},
        "source": (f"mined from {int((~drop_tr).sum())} proposals (training scenes and "
                   f"photos), calibrated on {int((~drop_ca).sum())} of held-apart scenes"
                   + (f"; left out: {args.leave_out}" if args.leave_out else "")),
    }
    report = {
        "train_rows": int((~drop_tr).sum()), "train_dice": int(y.sum()),
        "calib_rows": int(len(yc)), "calib_dice": int(yc.sum()),
        "platt": [a, b], "temperature": temperature,
        "die_ece": expected_calibration_error(p_die, yc),
        "die_reliability": reliability(p_die, yc),
        "face_ece_raw": expected_calibration_error(softmax(face_logits).max(axis=1), right),
        "face_ece": expected_calibration_error(p_face.max(axis=1), right),
        "face_reliability": reliability(p_face.max(axis=1), right),
        "reading_ece": expected_calibration_error(reported_conf, reported_right),
        "reading_reliability": reliability(reported_conf, reported_right),
        "raw_reliability": reliability(cache["calib_heat"][~drop_ca], yc),
    }
    return judge, report


def plot(report: dict, path: Path) -> None:
    """A reliability plot: confidence against the share right, per bin (the diagonal is a
    perfect calibration), for the finder's raw heat and the judge's calibrated readings."""
    size, pad = 420, 50
    img = np.full((size + 2 * pad, size + 2 * pad + 230, 3), 255, np.uint8)

    def pt(c, r):
        return int(pad + c * size), int(pad + (1 - r) * size)

    cv2.rectangle(img, pt(0, 0), pt(1, 1), (0, 0, 0), 1)
    for k in range(1, 10):
        cv2.line(img, pt(k / 10, 0), pt(k / 10, 1), (230, 230, 230), 1)
        cv2.line(img, pt(0, k / 10), pt(1, k / 10), (230, 230, 230), 1)
    cv2.line(img, pt(0, 0), pt(1, 1), (150, 150, 150), 1, cv2.LINE_AA)
    series = [("finder heat (raw): is a die", report["raw_reliability"], (60, 60, 220)),
              ("judge p_die", report["die_reliability"], (200, 120, 30)),
              ("reading confidence", report["reading_reliability"], (40, 150, 40))]
    for k, (name, rel, colour) in enumerate(series):
        pts = [pt(m, r) for m, r, _ in rel]
        for p0, p1 in zip(pts[:-1], pts[1:], strict=True):
            cv2.line(img, p0, p1, colour, 2, cv2.LINE_AA)
        for (_, _, n), p in zip(rel, pts, strict=True):
            cv2.circle(img, p, 3 + int(np.log10(max(n, 1))), colour, -1, cv2.LINE_AA)
        cv2.putText(img, name, (size + 2 * pad - 20, pad + 20 + 22 * k),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1, cv2.LINE_AA)
    for k in range(0, 11, 2):
        cv2.putText(img, f"{k / 10:.1f}", (pt(k / 10, 0)[0] - 10, size + pad + 18),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1, cv2.LINE_AA)
        cv2.putText(img, f"{k / 10:.1f}", (8, pt(0, k / 10)[1] + 4),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1, cv2.LINE_AA)
    cv2.putText(img, "confidence", (pad + size // 2 - 40, size + pad + 38),
                cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1, cv2.LINE_AA)
    cv2.putText(img, "share right", (size + 2 * pad - 20, pad + 100),
                cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1, cv2.LINE_AA)
    cv2.putText(img, "(held-apart scenes)", (size + 2 * pad - 20, pad + 120),
                cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1, cv2.LINE_AA)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), img)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--dice", default="d6", help="face set (its face network is read)")
    ap.add_argument("--dev", help="YOLO-labelled photo folder (split by shoot)")
    ap.add_argument("--out", required=True, help="judge JSON to write")
    ap.add_argument("--cache", help=".npz of mined candidates: written once, read after")
    ap.add_argument("--scenes", type=int, default=240, help="training scenes per family")
    ap.add_argument("--calibration", type=int, default=80,
                    help="held-apart calibration scenes per family")
    ap.add_argument("--leave-out", help="a table family or shoot-N to fit without")
    ap.add_argument("--weigh", action="append", type=_weighing, metavar="DOMAIN=W",
                    help="weigh a table family's or shoot's places W times (repeatable)")
    ap.add_argument("--solid", type=float, default=0.0,
                    help="share of scenes seen through a camera at a slant, dice as cubes")
    ap.add_argument("--hidden", type=int, default=32, help="hidden units (0: logistic)")
    ap.add_argument("--l2", type=float, default=1e-3)
    ap.add_argument("--steps", type=int, default=800)
    ap.add_argument("--die-below", type=float, default=0.5,
                    help="a place less likely than this to be a die is not proposed")
    ap.add_argument("--unknown-below", type=float, default=0.5,
                    help="a reading less likely than this to be right is reported as '?'")
    ap.add_argument("--plot", help="write the reliability plot (PNG) here")
    ap.add_argument("--report", help="write the calibration report (JSON) here")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.leave_out and args.leave_out not in (*LEARNED_FAMILIES, "shoot-1", "shoot-2"):
        ap.error(f"--leave-out: one of {', '.join(LEARNED_FAMILIES)}, shoot-1, shoot-2")
    cv2.setNumThreads(1)
    reader = DiceReader(args.dice, judge=False)  # mines what the networks see, unjudged
    faces = list(reader.set.faces)
    if args.cache and Path(args.cache).exists():
        with np.load(args.cache) as z:
            cache = {k: z[k] for k in z.files}
    else:
        cache = build_cache(args, reader, faces)
        if args.cache:
            np.savez_compressed(args.cache, **cache)
    judge, report = fit(cache, args, faces)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(judge) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in report.items() if "reliability" not in k}))
    for key in ("die_reliability", "reading_reliability"):
        print(key, [(round(m, 3), round(r, 3), n) for m, r, n in report[key]])
    if args.report:
        Path(args.report).write_text(json.dumps(report) + "\n", encoding="utf-8")
    if args.plot:
        plot(report, Path(args.plot))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
