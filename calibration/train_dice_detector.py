"""Retrain the dice finder (``companion/vision/models/dice_centres.onnx``).

The finder is a small fully convolutional network: for every 4 x 4 pixel cell of its input it
says how likely a die's centre lies there, how big that die is and where in the cell its centre
falls. Reading needs only OpenCV (``cv2.dnn``); training needs torch:

    pip install torch==2.13.0 onnx      # training only
    python calibration/train_dice_detector.py \
        --dev ../shared/data/dice-photos/d6-tray-dev --train all --threads 1 \
        --families wood,fabric,felt,paper --out finder.onnx
    # then nearer the photos, from the last checkpoint (step 6,500: finder.state.pt)
    python calibration/train_dice_detector.py \
        --dev ../shared/data/dice-photos/d6-tray-dev --train all --threads 1 \
        --init finder.state.pt --lr 5e-4 --steps 1500 --scenes 0.2 --seed 5 \
        --families wood,fabric,felt,paper \
        --checkpoint-every 0 --out companion/vision/models/dice_centres.onnx

The shipped finder learned four table families: patterned cloth came later, and the finder
taught again with it found fewer dev dice (docs/vision.md), so it was kept as it was. It was
taught again with these two commands once the scenes marked the mirrored copies of dice at a
tilted frame's border, which the version before learned as no die (the scenes now show the
bare table in that border instead, so the same commands teach slightly other scenes today).

Reproducible from public inputs: the YOLO-labelled photo folder (split by the date in the
file names, IMG_YYYYMMDD_*, so ``--train A`` learns from the first day and is scored on the
second) and trays rendered by ``companion.vision.synth`` for every face set, with seeds fixed.
Every photo is shown at random die sizes, quarter turns, mirrorings, and with its colours,
light, blur and noise changed (some through random tone curves, often as a negative: white
dice turn black, a light table dark), so that the finder learns "a die" rather than this
tray. Half the rendered d6 dice are of any colour, pip size and plastic (``--other-dice``),
and rendered dice show their sides as a camera not far above the table sees them
(``--sides``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.vision.centres import heat_targets  # noqa: E402
from companion.vision.dataset import tone_curve  # noqa: E402
from companion.vision.labeled import load_labeled_dir  # noqa: E402
from companion.vision.scenes import LEARNED_FAMILIES, SceneMaker, photo_dice  # noqa: E402
from companion.vision.synth import SyntheticTray  # noqa: E402

STRIDE = 4  # output cell size in input pixels
CROP = 224  # training crop side
SIZES = (10.0, 60.0)  # die sides (input pixels) the finder is mostly taught
LARGE = (60.0, 110.0)  # and sometimes (a close camera): seen large, the frame is re-read
LARGE_SHARE = 0.2
SETS = ("d6", "outatime", "back_in_time")
TONE_CURVES = 0.3  # share of samples through dataset.tone_curve (negatives, other colours)


def build_model():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    def cbr(i, o, s=1):
        return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o),
                             nn.ReLU(inplace=True))

    def dws(i, o, s=1):
        return nn.Sequential(
            nn.Conv2d(i, i, 3, s, 1, groups=i, bias=False), nn.BatchNorm2d(i),
            nn.ReLU(inplace=True),
            nn.Conv2d(i, o, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))

    class DiceCentres(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = cbr(3, 12, 2)
            self.s4 = nn.Sequential(cbr(12, 24, 2), dws(24, 24))
            self.s8 = nn.Sequential(dws(24, 48, 2), dws(48, 48))
            self.s16 = nn.Sequential(dws(48, 64, 2), dws(64, 64), dws(64, 64), dws(64, 64))
            self.l8, self.t16, self.p8 = nn.Conv2d(48, 32, 1), nn.Conv2d(64, 32, 1), dws(32, 32)
            self.l4, self.t8, self.p4 = nn.Conv2d(24, 24, 1), nn.Conv2d(32, 24, 1), dws(24, 24)
            self.head = nn.Conv2d(24, 4, 1)
            self.head.bias.data[0] = -4.0
            # Exported files also give the features the heat is read from: a dice profile
            # may carry its own heat layer over them (centres.fit_heat).
            self.with_features = False

        def forward(self, x):
            f4 = self.s4(self.stem(x))
            f8 = self.s8(f4)
            f16 = self.s16(f8)
            up = dict(scale_factor=2.0, mode="nearest")
            p8 = self.p8(self.l8(f8) + F.interpolate(self.t16(f16), **up))
            p4 = self.p4(self.l4(f4) + F.interpolate(self.t8(p8), **up))
            h = self.head(p4)
            # heat (0..1), log die side in input pixels, centre offset within the cell
            maps = torch.cat([torch.sigmoid(h[:, :1]), h[:, 1:]], 1)
            return (maps, p4) if self.with_features else maps

    return DiceCentres()


# ---------------------------------------------------------------------------------------
# Training samples: (BGR crop, [(x, y, side)], [(x0, y0, x1, y1) ignore boxes])

def photometric(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Another table, light and camera: hue, saturation, level, cast, blur, noise."""
    if rng.random() < TONE_CURVES:
        img = tone_curve(img, rng)
    if rng.random() < 0.7:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.int16)
        hsv[..., 0] = (hsv[..., 0] + int(rng.integers(0, 180))) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.5, 1.5), 0, 255)
        img = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    f = img.astype(np.float32)
    if rng.random() < 0.1:
        f[:] = f.mean(axis=2, keepdims=True)
    f = f * rng.uniform(0.6, 1.4) + rng.uniform(-40, 40)
    f *= rng.uniform(0.8, 1.2, 3).astype(np.float32)
    if rng.random() < 0.5:
        g = rng.uniform(0.7, 1.4)
        f = 255.0 * (np.clip(f, 0, 255) / 255.0) ** g
    if rng.random() < 0.3:
        # uneven light: a gradient across the crop
        yy, xx = np.mgrid[0:f.shape[0], 0:f.shape[1]].astype(np.float32) / f.shape[0]
        f *= (1 + rng.uniform(-0.4, 0.4) * (xx - 0.5) + rng.uniform(-0.4, 0.4) * (yy - 0.5)
              )[..., None]
    if rng.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.4, 1.5))
    f += rng.normal(0, rng.uniform(0, 8), f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


def photo_sample(image, dice, ignore, rng, any_turn=False):
    """A random window of a labelled photo at a random die size, turned and mirrored.

    ``any_turn``: turned by any angle, not only quarter turns. The photos' dice lie square
    to the picture (nearly all within 10 degrees), while dice on a table land at any angle;
    a die turned by ``a`` is labelled with the side of its upright box, as rendered dice are.
    """
    med = float(np.median([s for _, _, s in dice])) if dice else 40.0
    scale = rng.uniform(*(LARGE if rng.random() < LARGE_SHARE else SIZES)) / med
    turn = int(rng.integers(4))
    if any_turn:
        angle = float(rng.uniform(0.0, 360.0))
        boxed = abs(np.cos(np.deg2rad(angle))) + abs(np.sin(np.deg2rad(angle)))
    else:
        angle = 90.0 * turn + (rng.uniform(-8, 8) if rng.random() < 0.5 else 0.0)
        boxed = 1.0
    h, w = image.shape[:2]
    if dice and rng.random() < 0.7:
        px, py, _ = dice[int(rng.integers(len(dice)))]
    else:
        px, py = rng.uniform(0, w), rng.uniform(0, h)
    px += rng.normal(0, 0.25) * CROP / scale
    py += rng.normal(0, 0.25) * CROP / scale
    m = cv2.getRotationMatrix2D((float(px), float(py)), angle, scale)
    m[0, 2] += CROP / 2 - px
    m[1, 2] += CROP / 2 - py
    if rng.random() < 0.5:  # mirror
        m = np.array([[-1, 0, CROP], [0, 1, 0]], np.float64) @ np.vstack([m, [0, 0, 1]])
    fill = tuple(int(v) for v in rng.integers(0, 256, 3))
    crop = cv2.warpAffine(image, m, (CROP, CROP), flags=cv2.INTER_AREA if scale < 1
                          else cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                          borderValue=fill)
    pts = [(m @ np.array([x, y, 1.0]), s * scale) for x, y, s in dice]
    out = [(float(p[0]), float(p[1]), float(s * boxed)) for p, s in pts]
    ign = []
    for x0, y0, x1, y1 in ignore:
        corners = np.array([[x0, y0, 1], [x1, y0, 1], [x0, y1, 1], [x1, y1, 1]], float) @ m.T
        ign.append((*corners.min(axis=0), *corners.max(axis=0)))
    return crop, out, ign


def render_sample(rng, other_dice=0.0, sides=0.0):
    set_name = SETS[int(rng.integers(len(SETS)))]
    large = rng.random() < LARGE_SHARE
    lo, hi = LARGE if large else SIZES
    tray = SyntheticTray(set_name, width=CROP, height=CROP, seed=int(rng.integers(1 << 30)),
                         die_side=(lo / CROP / 1.2, hi / CROP / 1.3), other_dice=other_dice,
                         sides=sides)
    image, truth = tray.render(n_dice=int(rng.integers(0, 3 if large else 16)), touching=0.4)
    if rng.random() < 0.7:
        image = distractors(image, truth, rng)
    dice = []
    for d in truth:
        a = np.deg2rad(d.angle)
        dice.append((d.x, d.y, d.side * (abs(np.cos(a)) + abs(np.sin(a)))))
    return image, dice, []


def scene_sample(maker: SceneMaker, rng, pairs: float = 0.0):
    """A domain-randomised table (``companion.vision.scenes``, of the --families given),
    with real dice cut from the photos and rendered ones, clutter, hands,
    shadows, light and a tilted camera. Most of what is on these tables is not a die."""
    large = rng.random() < LARGE_SHARE
    side = float(rng.uniform(*(LARGE if large else SIZES)))
    scene = maker.render(CROP, CROP, die_side=side, pairs=pairs,
                         n_dice=int(rng.integers(0, 3 if large else 12)))
    dice = [(d.x, d.y, d.side) for d in scene.dice]
    return scene.image, dice, list(scene.ignore)


def distractors(image, truth, rng):
    """Things on a table that are not dice: coins, holes, rings, dots, lines, card edges."""
    img = image.copy()
    side = float(np.median([d.side for d in truth])) if truth else rng.uniform(*SIZES)
    for _ in range(int(rng.integers(1, 6))):
        for _ in range(20):
            x, y = rng.uniform(0, CROP, 2)
            if all(np.hypot(x - d.x, y - d.y) > 0.8 * (d.side + side) for d in truth):
                break
        else:
            continue
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        kind = int(rng.integers(5))
        r = int(side * rng.uniform(0.25, 0.6))
        if kind == 0:  # coin or hole
            cv2.circle(img, (int(x), int(y)), r, colour, -1, cv2.LINE_AA)
        elif kind == 1:  # ring
            cv2.circle(img, (int(x), int(y)), r, colour, max(1, r // 4), cv2.LINE_AA)
        elif kind == 2:  # a few loose dots
            for _ in range(int(rng.integers(1, 4))):
                q = rng.normal(0, side * 0.3, 2)
                cv2.circle(img, (int(x + q[0]), int(y + q[1])), max(1, int(side * 0.08)),
                           colour, -1, cv2.LINE_AA)
        elif kind == 3:  # a line (card edge, scratch)
            a = rng.uniform(0, np.pi)
            d = side * rng.uniform(1, 4)
            cv2.line(img, (int(x - d * np.cos(a)), int(y - d * np.sin(a))),
                     (int(x + d * np.cos(a)), int(y + d * np.sin(a))), colour,
                     int(rng.integers(1, 4)), cv2.LINE_AA)
        else:  # an elongated token
            cv2.ellipse(img, (int(x), int(y)), (r * 2, max(1, r // 2)), float(rng.uniform(0, 180)),
                        0, 360, colour, -1, cv2.LINE_AA)
    return img


def targets(dice, ignore, size=CROP):
    """Heat map (Gaussian at each centre), weights (0 inside ignore boxes), regression."""
    n = size // STRIDE
    heat, centre, weight = heat_targets(dice, ignore, n, n)
    reg = np.zeros((3, n, n), np.float32)
    for x, y, s in dice:
        cx, cy = x / STRIDE, y / STRIDE
        if 0 <= cx < n and 0 <= cy < n:
            reg[:, int(cy), int(cx)] = (np.log(s), cx - int(cx), cy - int(cy))
    return heat, weight, reg, centre.astype(np.float32)


def to_tensor_batch(crops):
    x = np.stack(crops).astype(np.float32) / 255.0
    return x.transpose(0, 3, 1, 2)


# ---------------------------------------------------------------------------------------

class _Item:
    """The labelled dice of one loaded photo, as ``scenes.photo_dice`` reads them."""

    def __init__(self, path, dice):
        from companion.vision.labeled import Box

        self.image = path
        self.boxes = [Box(x, y, s, s, face) for x, y, s, face in dice]


def load_photos(folder: str, which: str):
    _, items = load_labeled_dir(folder)
    days = sorted({it.image.name.split("_")[1] for it in items})
    out = []
    for it in items:
        day = it.image.name.split("_")[1]
        if which != "all" and day != days[0 if which == "A" else 1]:
            continue
        img = cv2.imread(str(it.image))
        dice = [(b.cx, b.cy, float(np.sqrt(b.w * b.h))) for b in it.boxes]
        ign = [(g.cx - g.w / 2, g.cy - g.h / 2, g.cx + g.w / 2, g.cy + g.h / 2)
               for g in it.ignore]
        out.append((img, dice, ign, it.image, [b.face for b in it.boxes]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--dev", help="YOLO-labelled photo folder (optional; renders only without)")
    ap.add_argument("--train", choices=["A", "B", "all"], default="all",
                    help="photos to learn from (A = first day, B = second day)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--steps", type=int, default=7000)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--renders", type=float, default=0.35,
                    help="share of training samples that are renders")
    ap.add_argument("--other-dice", type=float, default=0.5,
                    help="share of rendered d6 dice of any colour, pip size and see-through "
                         "plastic (see docs/vision.md for what it trades)")
    ap.add_argument("--sides", type=float, default=0.5,
                    help="renders: largest lean of a die's top over its base (sides seen "
                         "by a low camera), as a share of the die side")
    ap.add_argument("--pairs", type=float, default=0.0,
                    help="chance that a scene die is laid against one already down (touching "
                         "dice are where a finder gives one centre for two)")
    ap.add_argument("--scenes", type=float, default=0.4,
                    help="share of training samples that are domain-randomised tables "
                         "(companion.vision.scenes), taken from the renders' and photos' shares")
    ap.add_argument("--families", default=",".join(LEARNED_FAMILIES),
                    help="table families the scenes draw from (default: all but "
                         "scenes.HELD_FAMILIES, kept as the unseen-table test)")
    ap.add_argument("--solid", type=float, default=0.0,
                    help="share of scenes seen through a camera at a slant, the dice as "
                         "cubes whose sides show (scenes.SceneMaker(solid=...))")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--checkpoint-every", type=int, default=500,
                    help="every so many steps, write the network so far beside --out "
                         "(NAME.stepN.onnx, usable as it is) and the training state "
                         "(NAME.state.pt, for --resume); 0: never")
    ap.add_argument("--resume", help="a NAME.state.pt written by --checkpoint-every: go on "
                                     "from its step (same options)")
    ap.add_argument("--any-turn", action="store_true",
                    help="turn photo windows by any angle, not only quarter turns")
    ap.add_argument("--init-onnx", help="an exported finder (.onnx, e.g. the shipped one): "
                    "start from its weights; its batch norms are folded into the convolutions, "
                    "so they stay frozen while it learns")
    ap.add_argument("--init", help="a NAME.state.pt: start from its weights with a new "
                                   "schedule of --steps (fine-tuning, e.g. with --lr 5e-4)")
    ap.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    args = ap.parse_args()

    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    photos = load_photos(args.dev, args.train) if args.dev else []
    print(f"{len(photos)} photos, {sum(len(p[1]) for p in photos)} dice", flush=True)
    families = [f for f in args.families.split(",") if f]
    bank = photo_dice([_Item(p[3], [(*d, f) for d, f in zip(p[1], p[4], strict=True)])
                             for p in photos]) if photos else []
    # Scenes draw from seeds below scenes.HELD_SEEDS: those above are kept for scoring.
    maker = SceneMaker(seed=args.seed + 17, families=families, photo=bank, solid=args.solid)
    print(f"scenes of {', '.join(families)}, {len(bank)} photo dice", flush=True)
    model = build_model()
    if args.init:
        model.load_state_dict(torch.load(args.init, weights_only=False)["model"])
    frozen_norms = bool(args.init_onnx)
    if frozen_norms:
        load_onnx_weights(model, Path(args.init_onnx))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps,
                                                pct_start=0.1)
    t0 = time.time()
    first = 0
    if args.resume:
        state = torch.load(args.resume, weights_only=False)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        rng.bit_generator.state = state["rng"]
        maker.rng.bit_generator.state = state["maker_rng"]
        torch.set_rng_state(state["torch_rng"])
        first = state["step"] + 1
        print(f"resumed after step {state['step']}", flush=True)
    dest = Path(args.out)

    def train_mode():
        model.train()
        if frozen_norms:  # folded: each norm is the identity after its convolution
            for m in model.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.eval()

    train_mode()
    for step in range(first, args.steps):
        crops, tg = [], []
        for _ in range(args.batch):
            roll = rng.random()
            if families and roll < args.scenes:
                crop, d, g = scene_sample(maker, rng, args.pairs)
            elif photos and (roll - args.scenes) / (1 - args.scenes) >= args.renders:
                img, dice, ign, *_ = photos[int(rng.integers(len(photos)))]
                crop, d, g = photo_sample(img, dice, ign, rng, args.any_turn)
            else:
                crop, d, g = render_sample(rng, args.other_dice, args.sides)
            crops.append(photometric(crop, rng))
            tg.append(targets(d, g))
        x = torch.from_numpy(to_tensor_batch(crops))
        heat = torch.from_numpy(np.stack([t[0] for t in tg]))[:, None]
        weight = torch.from_numpy(np.stack([t[1] for t in tg]))[:, None]
        reg = torch.from_numpy(np.stack([t[2] for t in tg]))
        regmask = torch.from_numpy(np.stack([t[3] for t in tg]))[:, None]
        out = model(x)
        p = out[:, :1].clamp(1e-4, 1 - 1e-4)
        pos = (heat >= 1.0).float()
        # focal loss on the heat map (positives at centres, Gaussian-damped negatives)
        lp = -((1 - p) ** 2) * torch.log(p) * pos
        ln = -((1 - heat) ** 4) * (p ** 2) * torch.log(1 - p) * (1 - pos)
        npos = pos.sum().clamp(min=1.0)
        loss_heat = ((lp + ln) * weight).sum() / npos
        loss_reg = (torch.abs(out[:, 1:] - reg) * regmask).sum() / npos
        loss = loss_heat + loss_reg
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == args.steps - 1:
            print(f"step {step} heat {loss_heat.item():.3f} reg {loss_reg.item():.3f} "
                  f"{time.time() - t0:.0f}s", flush=True)
        if args.checkpoint_every and (step + 1) % args.checkpoint_every == 0 \
                and step + 1 < args.steps:
            stem = dest.with_suffix("")
            export(model, stem.with_name(f"{stem.name}.step{step + 1}.onnx"))
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                        "sched": sched.state_dict(), "rng": rng.bit_generator.state,
                        "maker_rng": maker.rng.bit_generator.state,
                        "torch_rng": torch.get_rng_state(), "step": step},
                       stem.with_name(f"{stem.name}.state.pt"))
            train_mode()
    export(model, dest)
    print(f"wrote {dest} ({dest.stat().st_size // 1024} KB) in {time.time() - t0:.0f} s")
    return 0


def load_onnx_weights(model, path: Path) -> None:
    """Set ``model`` to the weights of an exported finder. Export folds each batch norm
    into the convolution before it: the convolution takes the folded weights, and its norm
    becomes the identity carrying the folded bias (no statistics: kept in eval mode)."""
    import onnx
    import torch
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    modules = dict(model.named_modules())
    done = 0
    for node in graph.node:
        if node.op_type != "Conv":
            continue
        # "/s4/s4.1/s4.1.3/Conv" is the module "s4.1.3"
        name = node.name.strip("/").split("/")[-2]
        conv = modules[name]
        w = torch.from_numpy(weights[node.input[1]].copy())
        b = torch.from_numpy(weights[node.input[2]].copy()) if len(node.input) > 2 else None
        with torch.no_grad():
            conv.weight.copy_(w)
            if conv.bias is not None:
                conv.bias.copy_(b)
            else:
                parent, index = name.rsplit(".", 1)
                norm = modules[f"{parent}.{int(index) + 1}"]
                norm.weight.fill_(1.0)
                norm.bias.copy_(b)
                norm.running_mean.zero_()
                norm.running_var.fill_(1.0 - norm.eps)
        done += 1
    convs = sum(isinstance(m, torch.nn.Conv2d) for m in model.modules())
    if done != convs:
        raise SystemExit(f"{path}: {done} convolutions for the finder's {convs}")


def export(model, out: Path) -> None:
    """The network as the reader loads it (``cv2.dnn``): maps and features, any input size.
    Leaves the model in eval mode."""
    import torch

    model.eval()
    model.with_features = True
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, 320, 320), str(out), input_names=["image"],
                      output_names=["maps", "features"], opset_version=17, dynamo=False,
                      dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "h", 3: "w"},
                                    "features": {2: "h", 3: "w"}})
    model.with_features = False


if __name__ == "__main__":
    sys.exit(main())
