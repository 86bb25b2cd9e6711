"""Retrain the face classifiers that ``companion read`` uses without a profile.

Reproducible from public inputs: synthetic trays rendered by ``companion.vision.synth`` and,
for d6, the dev photos (YOLO-labelled folder). The photos are split by the date in their file
name (IMG_YYYYMMDD_*), so a model can be trained on one day and scored on the other.

    pip install torch==2.13.0 onnx      # training only; reading needs just OpenCV
    python calibration/train_face_model.py --dice d6 \
        --dev ../shared/data/dice-photos/d6-tray-dev --train all --threads 1 \
        --families wood,fabric,felt,paper --epochs 18 --cache d6-crops.npz --out d6.onnx
    # then 5 epochs more with patterned cloth among the scenes (the default families)
    python calibration/train_face_model.py --dice d6 \
        --dev ../shared/data/dice-photos/d6-tray-dev --train all --threads 1 \
        --init d6.onnx --rest 1.0 --lr 1e-3 --epochs 5 --cache d6-crops5.npz --out d6-5.onnx
    # then 5 more once the scenes marked the mirrored copies of dice at a tilted frame's
    # border (the two runs above taught them as "not a die"), cut by the shipped finder;
    # the scenes now show the bare table in that border instead of marking copies
    python calibration/train_face_model.py --dice d6 \
        --dev ../shared/data/dice-photos/d6-tray-dev --train all --threads 1 \
        --init d6-5.onnx --rest 1.0 --lr 1e-3 --epochs 5 --cache d6-crops6.npz \
        --out companion/vision/models/d6_faces.onnx
    python calibration/export_features.py companion/vision/models/d6_faces.onnx
    python calibration/train_face_model.py --dice outatime --threads 1 \
        --out companion/vision/models/outatime_faces.onnx
    python calibration/train_face_model.py --dice back_in_time --threads 1 \
        --out companion/vision/models/back_in_time_faces.onnx

The rendered sets (outatime, back_in_time) learn from more renders than d6: 640 x 480 and
1280 x 720 frames, more glare, and extra copies of each die cut as a poor detector fit would
cut it (off centre, too large or small, a little turned). Their defaults are set below; d6
keeps its own: half its rendered dice are unlike the photos' (any colour, other pip sizes,
see-through plastic: --other-dice). Every set also learns from copies with a thin glare streak
across the die (lamp light on an edge), which players never take for a pip, and from copies at
30-85 % of their contrast (dim or flat light), which are still dice, and "none" from pieces
of each photo's and render's empty table, most with specks of dirt drawn on (--table-pieces):
a network that saw only a clean table reads two specks as a 2. --jpeg SHARE puts that share
of each batch through JPEG at quality 20-80, anew each epoch (a webcam's or a phone's
compression over a die a few 8 x 8 blocks wide). Renders use seeds from --seed
upwards; the benchmark seed (1000) is never used for training.

d6 also learns from domain-randomised tables (``companion.vision.scenes``, --scenes: wood,
cloth, felt, paper and patterned cloth, never the held families: cards, boards and stone):
real dice of the photos
and rendered dice, cut where the shipped finder finds them, and the places the finder
proposes where no die lies (grain, print, art: its surest mistakes first) as "none".

The networks are small (plain, the shipped ones: about 160k weights; --arch separable: about
38k, a third of the time per crop; --arch narrow: 128k, 0.6 of the time; both read fewer
dice right) and run through cv2.dnn at reading time. d6 profiles read the features of the
network trained with --scenes 0 --epochs 30 (models/d6_pips.features.onnx, cut by
export_features.py and renamed).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.vision.dataset import (  # noqa: E402
    CROP,
    NONE,
    labelled_crops,
    scene_crops,
    synthetic_crops,
)
from companion.vision.faces import FACE_SETS  # noqa: E402
from companion.vision.labeled import load_labeled_dir  # noqa: E402
from companion.vision.scenes import LEARNED_FAMILIES, photo_dice  # noqa: E402

CLASSES: list[str] = []


def split(items, which: str):
    days = sorted({it.image.name.split("_")[1] for it in items})
    if which == "all":
        return items
    day = days[0] if which == "A" else days[1]
    return [it for it in items if it.image.name.split("_")[1] == day]


def arrays(pairs):
    xs, ys = [], []
    for crop, face in pairs:
        xs.append(crop)
        ys.append(CLASSES.index(face))
    return np.array(xs, np.uint8).reshape(-1, CROP, CROP, 3), np.array(ys, np.int64)


def build_model(arch: str = "plain", folded: bool = False):
    """``folded``: the layers as an exported network has them, batch norm folded into each
    convolution (to fine-tune a shipped network from its ONNX file)."""
    import torch.nn as nn

    def block(i, o):
        if folded:
            return [nn.Conv2d(i, o, 3, padding=1), nn.ReLU()]
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]

    def sep(i, o):
        # depthwise then pointwise: a fifth of a full 3 x 3 layer's work
        return [nn.Conv2d(i, i, 3, padding=1, groups=i, bias=False), nn.BatchNorm2d(i),
                nn.ReLU(), nn.Conv2d(i, o, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]

    if arch == "separable":
        return nn.Sequential(
            *block(3, 32), *sep(32, 32), nn.MaxPool2d(2),
            *sep(32, 64), *sep(64, 64), nn.MaxPool2d(2),
            *sep(64, 96), *sep(96, 96), nn.MaxPool2d(2),
            *sep(96, 96), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2),
            nn.Linear(96, len(CLASSES)),
        )
    if arch == "narrow":
        # the plain network with half the channels where the crop is still large: the
        # full-size layers cost most of its time
        return nn.Sequential(
            *block(3, 16), *block(16, 16), nn.MaxPool2d(2),
            *block(16, 32), *block(32, 32), nn.MaxPool2d(2),
            *block(32, 64), *block(64, 64), nn.MaxPool2d(2),
            *block(64, 96), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2),
            nn.Linear(96, len(CLASSES)),
        )
    return nn.Sequential(
        *block(3, 24), *block(24, 24), nn.MaxPool2d(2),
        *block(24, 48), *block(48, 48), nn.MaxPool2d(2),
        *block(48, 64), *block(64, 64), nn.MaxPool2d(2),
        *block(64, 96), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2),
        nn.Linear(96, len(CLASSES)),
    )


def photometric(xb, share: float):
    """A ``share`` of the batch seen anew each time (blob scale, -0.5..0.5): colours swapped
    between channels, light and dark swapped, grey, contrast, brightness and gamma, a
    little blur and sensor noise. None of it changes what a pip face shows or that a piece
    of table is no die, and it shows the network dice of colours and light no crop has."""
    import torch
    import torch.nn.functional as F

    pick = torch.nonzero(torch.rand(len(xb)) < share).flatten()
    if not len(pick):
        return xb
    x = xb[pick] + 0.5
    m = len(x)

    def each(lo, hi):
        return torch.empty(m, 1, 1, 1).uniform_(lo, hi)

    order = torch.argsort(torch.rand(m, 3), dim=1)
    x = torch.gather(x, 1, order[:, :, None, None].expand_as(x))
    flip = torch.rand(m, 1, 1, 1) < 0.25
    x = torch.where(flip, 1.0 - x, x)
    grey = torch.rand(m, 1, 1, 1) < 0.15
    x = torch.where(grey, x.mean(1, keepdim=True).expand_as(x), x)
    mean = x.mean((1, 2, 3), keepdim=True)
    x = ((x - mean) * each(0.5, 1.2) + mean + each(-0.15, 0.15)).clamp(1e-4, 1.0)
    x = x ** torch.exp(each(-0.4, 0.4))
    soft = torch.rand(m, 1, 1, 1) < 0.3
    x = torch.where(soft, F.avg_pool2d(F.pad(x, (1, 1, 1, 1), mode="replicate"), 3, 1), x)
    x = (x + torch.randn_like(x) * each(0.0, 0.04)).clamp(0.0, 1.0)
    out = xb.clone()
    out[pick] = x - 0.5
    return out


def jpeg(xb, share: float):
    """A ``share`` of the batch through JPEG at quality 20-80, anew each time: a webcam's
    or a phone's compression (8 x 8 blocks, colour at half resolution) over a die only a
    few blocks wide. The dev photos read at quality 40 lose about 3 points of their dice
    (99.7 to 97.0 %)."""
    import torch

    pick = torch.nonzero(torch.rand(len(xb)) < share).flatten()
    if not len(pick):
        return xb
    out = xb.clone()
    crops = ((xb[pick] + 0.5).clamp(0.0, 1.0) * 255.0).round().byte().permute(0, 2, 3, 1)
    for j, crop in zip(pick.tolist(), crops.numpy(), strict=True):
        quality = int(torch.randint(20, 81, (1,)))
        _, buf = cv2.imencode(".jpg", np.ascontiguousarray(crop),
                              [cv2.IMWRITE_JPEG_QUALITY, quality])
        back = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        out[j] = torch.from_numpy(back).permute(2, 0, 1).float() / 255.0 - 0.5
    return out


def load_folded(model, path: str) -> None:
    """Copy an exported network's weights (convolutions with batch norm folded in, then the
    last linear layer) into ``build_model(folded=True)``, layer by layer in order."""
    import onnx
    import torch
    from onnx import numpy_helper

    graph = onnx.load(path).graph
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    params = [inits[n.input[k]] for n in graph.node if n.op_type in ("Conv", "Gemm")
              for k in (1, 2)]
    mine = [p for m in model.modules() if isinstance(m, (torch.nn.Conv2d, torch.nn.Linear))
            for p in (m.weight, m.bias)]
    if [tuple(p.shape) for p in mine] != [a.shape for a in params]:
        raise SystemExit(f"{path}: not a network of this shape (--arch)")
    with torch.no_grad():
        for p, a in zip(mine, params, strict=True):
            p.copy_(torch.from_numpy(a.copy()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--dice", choices=list(FACE_SETS), default="d6")
    ap.add_argument("--dev", help="YOLO-labelled photo folder of this face set (optional)")
    ap.add_argument("--train", choices=["A", "B", "all"], default="all",
                    help="photos to learn from (A = first day, B = second day)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--copies", type=int, default=12, help="jittered copies per photo die")
    ap.add_argument("--synthetic-frames", type=int, default=None,
                    help="640 x 480 renders (d6: 800, rendered sets: 2000)")
    ap.add_argument("--hd-frames", type=int, default=None,
                    help="1280 x 720 renders (d6: 0, rendered sets: 500)")
    ap.add_argument("--synthetic-copies", type=int, default=None,
                    help="crops per rendered die, the first as the detector cut it "
                         "(d6: 2, rendered sets: 3)")
    ap.add_argument("--glare", type=float, default=None,
                    help="share of rendered dice with a highlight (d6: renderer default 0.3, "
                         "rendered sets: 0.5)")
    ap.add_argument("--other-dice", type=float, default=0.5,
                    help="d6: share of rendered dice of any colour, pip size and "
                         "see-through plastic (dice unlike the photos)")
    ap.add_argument("--sides", type=float, default=0.0,
                    help="d6: largest lean of a rendered die's top over its base (sides seen "
                         "by a low camera), as a share of the die side")
    ap.add_argument("--table-pieces", type=int, default=8,
                    help="crops of empty table per photo, most with specks of dirt, "
                         "taught as not a die (a quarter as many per render)")
    ap.add_argument("--scenes", type=int, default=None,
                    help="d6: 640 x 480 domain-randomised tables (companion.vision.scenes) "
                         "with real dice cut from the photos learned from and rendered dice, "
                         "and their hard negatives (default 1500; rendered sets: 0)")
    ap.add_argument("--families", default=",".join(LEARNED_FAMILIES),
                    help="table families the scenes draw from (default: all but "
                         "scenes.HELD_FAMILIES, kept as the unseen-table test)")
    ap.add_argument("--scene-copies", type=int, default=2, help="crops per scene die")
    ap.add_argument("--scene-negatives", type=int, default=6,
                    help="places per scene the finder proposes where no die lies (wood grain, "
                         "print, art), the surest first, taught as not a die")
    ap.add_argument("--scene-other-sets", action="store_true",
                    help="d6: the scenes' rendered dice also show the titles' numerals and "
                         "symbols, taught as not a d6 face (printed numbers are no pips)")
    ap.add_argument("--solid", type=float, default=0.0,
                    help="d6: share of scenes seen through a camera at a slant, the dice as "
                         "cubes whose sides show their own pips; their crops keep the "
                         "frame's up, where the top shows above the sides")
    ap.add_argument("--marbled", type=float, default=None,
                    help="share of the scenes' rendered dice with a marbled body (default "
                         "the scenes' own, 0.12)")
    ap.add_argument("--epochs", type=int, default=None, help="d6: 30, rendered sets: 14")
    ap.add_argument("--checkpoint-every", type=int, default=5,
                    help="write the network so far beside --out every so many epochs "
                         "(NAME.epochN.onnx); 0: never")
    ap.add_argument("--arch", choices=["plain", "narrow", "separable"], default="plain",
                    help="plain: full 3 x 3 layers; narrow: the same with fewer channels "
                         "where the crop is large, about 0.6 of the time per crop; separable: "
                         "depthwise-separable layers, about a quarter of the work per crop")
    ap.add_argument("--init", help="fine-tune this exported network (same --arch) instead of "
                                   "starting afresh: every photo crop, a share --rest of "
                                   "the others, peak learning rate --lr")
    ap.add_argument("--rest", type=float, default=0.5,
                    help="with --init: share of the rendered and scene crops kept")
    ap.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    ap.add_argument("--photometric", type=float, default=0.0,
                    help="d6: share of each batch shown with its colours swapped, light and "
                         "dark swapped, other contrast, light, blur and noise, anew each "
                         "epoch (pip faces only: the rendered sets' colours mean something)")
    ap.add_argument("--jpeg", type=float, default=0.0,
                    help="share of each batch shown through JPEG at quality 20-80, anew "
                         "each epoch (a webcam's or a phone's compression)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=None, help="torch CPU threads")
    ap.add_argument("--cache", help="rendered sets: .npz of the training crops, written "
                                    "the first time and read after (same options only)")
    args = ap.parse_args()
    rendered = args.dice != "d6"
    defaults = dict(synthetic_frames=(2000, 800), hd_frames=(500, 0),
                    synthetic_copies=(3, 2), epochs=(14, 30), scenes=(0, 1500))
    for key, (for_rendered, for_d6) in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, for_rendered if rendered else for_d6)
    if args.glare is None and rendered:
        args.glare = 0.5
    if rendered and args.photometric:
        ap.error("--photometric is for pip faces (d6) only")
    if rendered and {args.seed, args.seed + 1} & {1000, 2000}:
        ap.error("seeds 1000 and 2000 are kept for benchmarks")

    import torch
    import torch.nn.functional as F

    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    CLASSES[:] = [*FACE_SETS[args.dice].faces, NONE]
    # Pip faces read the same in a mirror; numerals and emblems do not.
    mirror_ok = args.dice == "d6"
    t0 = time.time()
    held = []
    train_items = []
    xr = np.zeros((0, CROP, CROP, 3), np.uint8)
    yr = np.zeros((0,), np.int64)
    cached = None
    if not rendered and args.cache and Path(args.cache).exists():
        with np.load(args.cache) as z:
            cached = (z["x"], z["y"], int(z["photo"]) if "photo" in z else 0,
                      int(z["upright"]) if "upright" in z else 0)
    if args.dev:
        _, items = load_labeled_dir(args.dev)
        train_items = split(items, args.train)
        held = [] if args.train == "all" else split(items, "B" if args.train == "A" else "A")
        # Photos: other dice colours (hue turned) and the reader's poorer fits too.
        if cached is None:
            xr, yr = arrays(labelled_crops(train_items, CLASSES, copies=args.copies,
                                           seed=args.seed, colour=True, fit_jitter=True,
                                           table_pieces=args.table_pieces))
    if rendered and args.cache and Path(args.cache).exists():
        with np.load(args.cache) as z:
            xs, ys = z["x"], z["y"]
    elif rendered:
        pairs = [*synthetic_crops(args.dice, args.synthetic_frames, seed=args.seed,
                                  copies=args.synthetic_copies, glare=args.glare,
                                  fit_jitter=True, table_pieces=args.table_pieces // 4),
                 *synthetic_crops(args.dice, args.hd_frames, seed=args.seed + 1,
                                  copies=args.synthetic_copies, width=1280, height=720,
                                  glare=args.glare, fit_jitter=True,
                                  table_pieces=args.table_pieces // 4)]
        xs, ys = arrays(pairs)
        if args.cache:
            np.savez(args.cache, x=xs, y=ys)
    elif cached is None:
        xs, ys = arrays(synthetic_crops(args.dice, args.synthetic_frames, seed=args.seed,
                                        copies=args.synthetic_copies, glare=args.glare,
                                        other_dice=args.other_dice, sides=args.sides,
                                        table_pieces=args.table_pieces // 4))
    xn = np.zeros((0, CROP, CROP, 3), np.uint8)
    yn = np.zeros((0,), np.int64)
    families = [f for f in args.families.split(",") if f]
    n_upright = 0  # the last crops, of dice seen at a slant: never given quarter turns
    if cached is not None:
        x, y, n_photo, n_upright = cached
        print(f"{len(x)} crops from {args.cache}", flush=True)
    else:
        if args.scenes and families:
            # Real dice of the photos learned from (none of the other shoot's), on tables
            # the photos never show; seeds apart from the judge's and the benchmarks'.
            bank = photo_dice(train_items) if train_items else []
            n_solid = round(args.scenes * args.solid)

            def crops(n: int, seed: int, solid: float):
                return arrays(scene_crops(n, seed=seed + args.seed * 1000, photo=bank,
                                          families=families, copies=args.scene_copies,
                                          negatives=args.scene_negatives,
                                          other_sets=args.scene_other_sets, solid=solid,
                                          dice_set=args.dice if rendered else None,
                                          marbled=args.marbled))
            # Frames at a slant last: their crops keep the frame's up (``upright``).
            (xf, yf), (xu, yu) = crops(args.scenes - n_solid, 200_000, 0.0), crops(
                n_solid, 300_000, 1.0)
            xn, yn, n_upright = np.concatenate([xf, xu]), np.concatenate([yf, yu]), len(xu)
        n_photo = len(xr)
        x = np.concatenate([xr, xs, xn])
        y = np.concatenate([yr, ys, yn])
        print(f"{len(xr)} photo crops, {len(xs)} synthetic crops, {len(xn)} scene crops "
              f"({int((yn == CLASSES.index(NONE)).sum())} not a die) "
              f"({time.time() - t0:.0f}s)", flush=True)
        if args.cache and not rendered:
            np.savez(args.cache, x=x, y=y, photo=len(xr), upright=n_upright)
    if held:
        xh, yh = arrays(labelled_crops(held, CLASSES, copies=1, seed=args.seed + 7,
                                       negatives=False))
    upright = np.arange(len(x)) >= len(x) - n_upright
    if args.init:
        # Fine-tuning: the photos' crops all, the others' a share (--rest).
        rng = np.random.default_rng(args.seed)
        keep = np.concatenate([np.arange(n_photo), n_photo + np.flatnonzero(
            rng.random(len(x) - n_photo) < args.rest)])
        x, y, upright = x[keep], y[keep], upright[keep]
        print(f"fine-tuning {args.init} on {len(x)} crops ({n_photo} from photos)", flush=True)
    xt = torch.from_numpy(x).permute(0, 3, 1, 2).float() / 255.0 - 0.5
    yt = torch.from_numpy(y)
    upt = torch.from_numpy(upright)[:, None, None, None]
    model = build_model(args.arch, folded=bool(args.init))
    if args.init:
        load_folded(model, args.init)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * ((len(xt) + 127) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(xt))
        total = correct = 0
        for i in range(0, len(xt), 128):
            idx = perm[i:i + 128]
            xb, yb = xt[idx], yt[idx]
            # Quarter turns and mirror images leave a pip face's value unchanged; a die
            # seen at a slant keeps the frame's up, where its top is (mirrored left to right).
            k = int(torch.randint(0, 4, (1,)))
            xb = torch.where(upt[idx], xb, torch.rot90(xb, k, (2, 3)))
            if mirror_ok and torch.rand(1) < 0.5:
                xb = torch.flip(xb, (3,))
            if args.photometric:
                xb = photometric(xb, args.photometric)
            if args.jpeg:
                xb = jpeg(xb, args.jpeg)
            out = model(xb)
            loss = F.cross_entropy(out, yb, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += len(yb)
            correct += int((out.argmax(1) == yb).sum())
        msg = f"epoch {epoch + 1}/{args.epochs} train acc {correct / total:.4f}"
        if held:
            model.eval()
            with torch.no_grad():
                xe = torch.from_numpy(xh).permute(0, 3, 1, 2).float() / 255.0 - 0.5
                pe = model(xe).argmax(1).numpy()
            msg += f" held-out crop acc {(pe == yh).mean():.4f} ({len(yh)})"
        print(msg, flush=True)
        if args.checkpoint_every and (epoch + 1) % args.checkpoint_every == 0 \
                and epoch + 1 < args.epochs:
            stem = Path(args.out).with_suffix("")
            export(model, stem.with_name(f"{stem.name}.epoch{epoch + 1}.onnx"))
    out = Path(args.out)
    export(model, out)
    print(f"wrote {out} ({out.stat().st_size // 1024} KB) in {time.time() - t0:.0f} s")
    return 0


def export(model, out: Path) -> None:
    """The network as the reader loads it (``cv2.dnn``), with its classes beside it."""
    import torch

    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, CROP, CROP), str(out), input_names=["crop"],
                      output_names=["logits"], dynamic_axes={"crop": {0: "n"}, "logits": {0: "n"}},
                      opset_version=13, dynamo=False)
    out.with_suffix(".classes.txt").write_text("\n".join(CLASSES) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
