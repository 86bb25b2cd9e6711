"""``companion read``, ``companion calibrate dice|markers`` and ``companion bench vision``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

from companion.argtypes import whole_number

from .faces import FACE_SETS

DICE_CHOICES = list(FACE_SETS)


# A frame spread over fewer grey levels than FLAT shows nothing; one whose mean is over
# BRIGHT is washed out by too much light, not too little.
FLAT = 4.0
BRIGHT = 200.0


def _user_error(msg: str) -> Exception:
    from companion.cli import UserError

    return UserError(msg)


def _reader(args: argparse.Namespace):
    from companion.i18n import _

    from .profile import ProfileError
    from .reader import DiceReader

    profile = getattr(args, "profile", None)
    if profile and not Path(profile).is_file():  # a typo, a folder, /dev/zero: said at once
        raise _user_error(_("--profile {path}: not a profile file (make one with {command})")
                          .format(path=profile, command="`companion calibrate dice`"))
    try:
        return DiceReader(args.dice, args.profile, views=getattr(args, "views", 1),
                          unknown_below=getattr(args, "unknown_below", None),
                          finder=getattr(args, "finder", None),
                          nadir=getattr(args, "nadir", None))
    except (ProfileError, ValueError) as exc:
        raise _user_error(str(exc)) from None


def _point(text: str) -> tuple[float, float]:
    """``X,Y`` as two shares of the image, 0..1 as in the config (argparse reports the error)."""
    from companion.i18n import _

    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        x = y = float("nan")
    if not (0 <= x <= 1 and 0 <= y <= 1):  # also refuses nan
        raise argparse.ArgumentTypeError(_("{text}: write two numbers from 0 to 1, e.g. "
                                           "0.5,0.5").format(text=repr(text)))
    return x, y


def _inputs(paths: list[str]) -> list[Path]:
    from companion.i18n import _

    from .labeled import IMAGE_SUFFIXES

    missing = [p for p in paths if not Path(p).exists()]
    if missing:  # a typo: said before anything is read, exit code 2
        raise _user_error(_("no such file or folder: {paths}").format(paths=", ".join(missing)))
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            inner = p / "images" if (p / "images").is_dir() else p
            out += sorted(q for q in inner.iterdir() if q.suffix.lower() in IMAGE_SUFFIXES)
        else:
            out.append(p)
    return out


def _within(kind, low, high):
    """An argparse type: a ``kind`` number from ``low`` to ``high`` (a sheet a printer takes)."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text}: give a number from {low} to {high}")
        return value

    return parse


ANNOTATED_DIE = 40  # pixels: small dice are drawn enlarged to about this, so labels fit


def label_plates(boxes: list[tuple[int, int, int, int]], sizes: list[tuple[int, int]],
                 width: int, height: int) -> list[tuple[int, int, int, int]]:
    """Where each die's label goes (x0, y0, x1, y1): above its box, else below, right or
    left, whichever covers the fewest pixels of labels placed already and of dice (a crowded
    tray's labels would hide each other and the dice next door), inside the image."""
    def overlap(a, b) -> int:
        return max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))

    placed: list[tuple[int, int, int, int]] = []
    for (x0, y0, x1, y1), (tw, th) in zip(boxes, sizes, strict=True):
        best, cost = None, None
        for px, py in ((x0, y0 - th - 1), (x0, y1 + 1), (x1 + 1, y0), (x0 - tw - 1, y0),
                       (x1 - tw, y0 - th - 1), (x1 - tw, y1 + 1)):
            px = min(max(px, 0), max(width - tw, 0))
            py = min(max(py, 0), max(height - th, 0))
            plate = (px, py, px + tw, py + th)
            c = 4 * sum(overlap(plate, p) for p in placed) + sum(
                overlap(plate, b) for b in boxes)
            if cost is None or c < cost:
                best, cost = plate, c
            if c == 0:
                break
        placed.append(best)
    return placed


def annotate(image, dice, path: Path) -> None:
    """Draw each die's box, face and confidence; unsure dice in red. A photo of small dice
    is enlarged first (up to 4 times), or the labels would hide the dice."""
    import cv2
    import numpy as np

    sides = [min(d.w, d.h) for d in dice]
    grow = float(np.clip(ANNOTATED_DIE / np.median(sides), 1.0, 4.0)) if sides else 1.0
    img = image.copy()
    if grow > 1.0:
        img = cv2.resize(img, None, fx=grow, fy=grow, interpolation=cv2.INTER_NEAREST)
        dice = [replace(d, x=d.x * grow, y=d.y * grow, w=d.w * grow, h=d.h * grow)
                for d in dice]
    thick = max(1, round(min(img.shape[:2]) / 400))
    scale = max(0.4, min(img.shape[:2]) / 1200)
    boxes = [(int(d.x - d.w / 2), int(d.y - d.h / 2), int(d.x + d.w / 2), int(d.y + d.h / 2))
             for d in dice]
    labels = []
    for d in dice:
        label = f"{d.face} {d.confidence:.2f}" + (f" {d.colour}" if d.colour else "")
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        labels.append((label, tw, th + base, base))
    plates = label_plates(boxes, [(tw, h) for _, tw, h, _ in labels], img.shape[1], img.shape[0])
    colours = [(0, 0, 255) if d.face == "?" else (0, 220, 0) for d in dice]
    for (x0, y0, x1, y1), colour in zip(boxes, colours, strict=True):
        cv2.rectangle(img, (x0, y0), (x1, y1), colour, thick)
    # Labels after every box, so no box line crosses a label.
    for colour, (label, _, _, base), (px, py, qx, qy) in zip(colours, labels, plates,
                                                               strict=True):
        # Dark plate behind the label: readable on any table.
        cv2.rectangle(img, (px, py), (qx, qy), (0, 0, 0), -1)
        cv2.putText(img, label, (px, qy - base), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1,
                    cv2.LINE_AA)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), img)


def _light_note(spread: float, mean: float) -> str:
    """What to do about a frame whose grey spreads over fewer than ``WASHED_OUT`` levels."""
    from .crops import WASHED_OUT

    if spread < FLAT:  # nothing in it at all: no light could mend that, look at the camera
        shade = "black" if mean < 64 else "white" if mean > 192 else "grey"
        return (f"nothing to read: the photo is one flat {shade} (its grey spreads over "
                f"{spread:.0f} levels); is the lens covered, the camera in the dark or blinded "
                "by a light, or the image empty?")
    fix = ("less light on the tray (or a shorter exposure)" if mean > BRIGHT
           else "more light on the tray")
    return (f"a washed-out photo: its grey spreads over {spread:.0f} levels (under "
            f"{WASHED_OUT:.0f}), so it was read with its contrast stretched; {fix} reads the "
            "dice more surely")


def cmd_read(args: argparse.Namespace) -> int:
    from .crops import WASHED_OUT, grey_spread
    from .reader import SMALL_SIDE, SMALLEST_READ
    from .sources import FrameError, load_image

    if args.expect is not None and args.expect < 0:
        raise _user_error(f"--expect {args.expect}: give the number of dice rolled (0 or more)")
    reader = _reader(args)
    files = _inputs(args.inputs)
    if not files:
        raise _user_error("no images given (or the folders hold no images)")
    empty = None
    if args.empty:
        try:
            empty = load_image(Path(args.empty))
        except FrameError as exc:
            raise _user_error(f"--empty {args.empty}: {exc}; give a photo of the tray "
                              "without dice, taken by the same camera") from None
    if args.annotate:
        from companion.i18n import _

        try:
            Path(args.annotate).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _user_error(_("--annotate {path}: cannot make the folder ({reason})").format(
                path=args.annotate, reason=exc.strerror or exc)) from None
    errors = 0
    taken = {f.resolve() for f in files}  # never written over: the photos, their annotations
    for path in files:
        try:
            image = load_image(path)
        except FrameError as exc:
            errors += 1
            print(json.dumps({"image": str(path), "error": str(exc)}), flush=True)
            continue
        same = empty is not None and empty.shape[:2] == image.shape[:2]
        result = reader.analyse(image, expected=args.expect,
                                background=empty if same else None)
        out = {"image": str(path), "dice": [d.as_json() for d in result.dice],
               "ms": round(result.ms, 1)}
        if empty is not None and not same:
            out["empty"] = (f"not used: the empty tray is {empty.shape[1]}x{empty.shape[0]} "
                            f"pixels and this image {image.shape[1]}x{image.shape[0]}; "
                            "photograph both from the same camera and place")
        if result.count_differs:
            out["expected"] = result.expected
            out["seen"] = result.seen
        if result.obstruction > 0.01:
            out["obstruction"] = round(result.obstruction, 3)
        spread, mean = grey_spread(image)
        if spread < WASHED_OUT:
            out["light"] = _light_note(spread, mean)
        if result.dice and result.die_side < SMALL_SIDE:
            out["note"] = (f"the dice are about {result.die_side:.0f} pixels across: under "
                           f"{SMALL_SIDE:.0f} a die is read only when the reader is sure, under "
                           f"{SMALLEST_READ:.0f} never; bring the camera closer or use a higher "
                           "resolution")
        print(json.dumps(out), flush=True)
        if args.annotate:
            annotate(image, result.dice, annotated_path(Path(args.annotate), path, taken))
    return 1 if errors and errors == len(files) else 0


def annotated_path(folder: Path, photo: Path, taken: set[Path]) -> Path:
    """Where ``photo``'s annotated copy goes: ``NAME.png`` in ``folder``, or ``NAME.jpg.png``
    (then ``NAME.jpg-2.png``, ...) where that is a photo read or an annotation already written
    in this run; the chosen path joins ``taken``."""
    names = [f"{photo.stem}.png", f"{photo.name}.png"]
    names += [f"{photo.name}-{n}.png" for n in range(2, len(taken) + 3)]
    out = next(folder / n for n in names if (folder / n).resolve() not in taken)
    taken.add(out.resolve())
    return out


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty() or done == total or done % 20 == 0:
        print(f"\r{done}/{total}", end="\n" if done == total else "", file=sys.stderr,
              flush=True)


def _is_profile(path: Path) -> bool:
    """Whether ``path`` holds a dice profile (only a profile is ever written over)."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    from .profile import FORMAT

    return f'"{FORMAT}"'.encode() in head


def cmd_calibrate_dice(args: argparse.Namespace) -> int:
    from .calibrate import CalibrationError, capture_profile, learn_profile
    from .labeled import LabelError

    out = Path(args.out)
    # Said before the capture, which would otherwise be lost: where the profile cannot go.
    if out.is_dir():
        raise _user_error(f"--out {args.out}: a folder; give the profile's file name, e.g. "
                          "mydice.json")
    if out.exists() and not _is_profile(out):  # a photo, classes.txt, any other file
        from companion.i18n import _

        raise _user_error(_("--out {path}: an existing file that is not a dice profile; it was "
                            "left as it is: give the profile another name").format(path=args.out))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _user_error(f"--out {args.out}: cannot make its folder "
                          f"({exc.strerror or exc})") from None
    try:
        if args.labeled:
            profile = learn_profile(args.labeled, args.dice, progress=_progress,
                                    report=lambda m: print(m, file=sys.stderr))
        else:
            from .sources import open_source

            dice = args.dice or "d6"
            source = open_source(args.camera)

            def ask(face: str, i: int, n: int) -> None:
                msg = f"[{i}/{n}] Put dice in the tray with face {face!r} up"
                if args.yes:
                    print(msg, file=sys.stderr)
                else:
                    input(msg + ", then press Enter ")

            with source:
                profile = capture_profile(source, dice, args.samples, ask,
                                          lambda m: print(m, file=sys.stderr))
    except (LabelError, CalibrationError, ValueError) as exc:
        raise _user_error(str(exc)) from None
    profile.save(out)
    n = {f: len(t) for f, t in profile.templates.items()}
    print(f"wrote {out}: {profile.dice} profile, templates per face {n}")
    return 0


def cmd_calibrate_markers(args: argparse.Namespace) -> int:
    from .tray import make_marker_sheet

    for p in make_marker_sheet(args.out, dpi=args.dpi, marker_mm=args.marker_mm):
        print(f"wrote {p}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from . import bench
    from .labeled import LabelError, load_labeled_dir

    reader = _reader(args)
    try:
        classes, items = load_labeled_dir(args.folder)
    except LabelError as exc:
        raise _user_error(str(exc)) from None
    if args.half:
        # Photos grouped by session (the date in IMG_YYYYMMDD_ names, else file order).
        keys = sorted({it.image.name.split("_")[1] if it.image.name.count("_") >= 2
                       else "" for it in items})
        if len(keys) >= 2:
            want = keys[0] if args.half == "first" else keys[1]
            items = [it for it in items if it.image.name.split("_")[1] == want]
        else:
            mid = len(items) // 2
            items = items[:mid] if args.half == "first" else items[mid:]
    if args.limit:
        items = items[:args.limit]
    t0 = time.time()
    score = bench.run(reader, items, progress=None if args.json else _progress,
                      expect=args.expect)
    s = score.summary()
    s["seconds"] = round(time.time() - t0, 1)
    s["dice"] = reader.dice
    if args.json:
        s["mistakes"] = score.mistakes[:200]
        print(json.dumps(s))
    else:
        print(bench.format_report(s, classes))
    return 0


def cmd_bench_synthetic(args: argparse.Namespace) -> int:
    from . import bench

    reader = _reader(args)
    score = bench.run_synthetic(reader, args.frames, args.seed, args.width, args.height,
                                progress=None if args.json else _progress)
    s = score.summary()
    s["dice"] = reader.dice
    if args.json:
        s["mistakes"] = score.mistakes[:200]
        print(json.dumps(s))
    else:
        print(bench.format_report(s, list(FACE_SETS[reader.dice].faces)))
    return 0


def cmd_bench_domains(args: argparse.Namespace) -> int:
    import cv2

    from .bench import memory_mb
    from .scenes import FAMILIES
    from .targets import bare_tables, pooled, score_domains, unseen

    if args.threads:
        cv2.setNumThreads(args.threads)
    reader = _reader(args)
    if args.dev and not (Path(args.dev) / "images").is_dir():
        raise _user_error(f"{args.dev}: no images/ folder; give the labelled dev photos")

    def line(name: str, s: dict) -> None:
        if not args.json:
            print(f"{name:26s} dice {s['labelled_dice']:5d}  found {s['recall']:.3f}  "
                  f"precision {s['precision']:.3f}  per die {s['die_accuracy']:.4f}  "
                  f"per roll {s['roll_accuracy']:.3f}  phantoms {s['phantoms']:3d}  "
                  f"ms {s['ms_median']:.1f}", flush=True)

    out = score_domains(reader, args.dev, args.frames, args.seed, expect=args.expect,
                        names=args.only or None, progress=line, empty=args.empty)
    names = unseen(list(out))
    p = pooled(out, names) if names else {}
    bare = bare_tables(list(out), FAMILIES)
    phantoms = {"frames": sum(out[n]["images"] for n in bare),
                "phantoms": sum(out[n]["phantoms"] for n in bare)}
    peak = memory_mb("VmHWM")
    if args.json:
        print(json.dumps({"domains": {n: {k: v for k, v in s.items() if k != "confusion"}
                                      for n, s in out.items()}, "unseen": p,
                          "bare_tables": phantoms, "peak_rss_mb": peak}))
        return 0
    if p:
        print(f"{'unseen (held families)':26s} dice {p['dice']:5d}  precision "
              f"{p['precision']:.3f}  per die {p['die']:.4f}  per roll {p['roll']:.3f}")
    if bare:
        print(f"{'bare tables':26s} frames {phantoms['frames']:4d}  phantoms "
              f"{phantoms['phantoms']}")
    if peak is not None:
        print(f"{'peak memory':26s} {peak:.0f} MB (the process: the reader and the frames it "
              "made)")
    return 0


def cmd_bench_targets(args: argparse.Namespace) -> int:
    from .targets import measure

    if not (Path(args.dev) / "images").is_dir():
        raise _user_error(f"{args.dev}: no images/ folder; give the labelled dev photos "
                          "(../shared/data/dice-photos/d6-tray-dev)")
    numbers = measure(args.dev, args.frames,
                      report=(lambda m: None) if args.json else
                      (lambda m: print(m, flush=True)))
    if args.json:
        print(json.dumps(numbers))
    return 0


def register(commands, bench_commands) -> None:
    r = commands.add_parser("read", help="read the dice in photos; one JSON line per image")
    r.add_argument("inputs", nargs="+", metavar="IMAGE_OR_DIR")
    r.add_argument("--dice", choices=DICE_CHOICES, default=None,
                   help="face set (default: the profile's, else d6)")
    r.add_argument("--profile", help="dice profile JSON from 'companion calibrate dice'")
    r.add_argument("--annotate", metavar="OUTDIR",
                   help="write each image with dice drawn, as NAME.png in OUTDIR (NAME.jpg.png "
                        "where that would be a photo read or another's annotation)")
    r.add_argument("--finder", choices=["net", "geometry"], default=None,
                   help="how dice are found: the dice-centre network (default) or geometry")
    r.add_argument("--expect", type=int, default=None, metavar="N",
                   help="N dice were rolled: propose the N places most surely read as dice "
                        "(seeing fewer, look again with the image larger), and say "
                        "(\"expected\", \"seen\") when the reader sees another number")
    r.add_argument("--nadir", type=_point, default=None, metavar="X,Y",
                   help="where the camera looked straight down, as shares of the image's "
                        "width and height, each 0 to 1 (0.5,0.5: a camera above the middle, as "
                        "the table's); dice away from it are read with their outer side up. "
                        "Default: a photo taken at a slant, the top of each die up")
    r.add_argument("--empty", metavar="IMAGE",
                   help="a photo of the tray without dice from the same camera and place: "
                        "what was there before the roll (print, stains) is not read as a die")
    r.set_defaults(handler=cmd_read)

    c = commands.add_parser("calibrate", help="teach the camera your dice; print tray markers")
    cs = c.add_subparsers(dest="calibrate_command", metavar="WHAT")
    cs.required = True
    d = cs.add_parser("dice", help="make a dice profile (guided capture or labelled photos)")
    d.add_argument("--dice", choices=DICE_CHOICES, default=None)
    d.add_argument("--labeled", metavar="DIR",
                   help="learn from DIR/images, DIR/labels (YOLO) and DIR/classes.txt")
    d.add_argument("--out", required=True, metavar="PROFILE.json")
    d.add_argument("--camera", default="picamera2",
                   help="picamera2 | opencv:N | files:PATH | synthetic:SET (guided capture)")
    d.add_argument("--samples", type=whole_number(1, 1000), default=6,
                   help="die crops per face (guided), 1 to 1000")
    d.add_argument("--yes", action="store_true", help="do not wait for Enter between faces")
    d.set_defaults(handler=cmd_calibrate_dice)
    m = cs.add_parser("markers", help="write the printable ArUco tray marker sheet")
    m.add_argument("--out", default="calibration", metavar="DIR")
    m.add_argument("--dpi", type=_within(int, 30, 1200), default=200, help="30-1200")
    m.add_argument("--marker-mm", type=_within(float, 10, 90), default=40.0,
                   help="10-90 (two fit across an A4 sheet)")
    m.set_defaults(handler=cmd_calibrate_markers)

    b = bench_commands.add_parser("vision", help="score the dice reader on labelled photos")
    b.add_argument("folder", metavar="DIR")
    b.add_argument("--dice", choices=DICE_CHOICES, default=None)
    b.add_argument("--profile")
    b.add_argument("--json", action="store_true", help="end with one JSON line")
    b.add_argument("--half", choices=["first", "second"],
                   help="only the first or second photo session (held-out checks)")
    b.add_argument("--limit", type=int, default=0)
    b.add_argument("--views", type=int, default=1,
                   help="average the face network over N turned copies of every die "
                        "(default 1: a second look at unsure dice only)")
    b.add_argument("--unknown-below", type=float, default=None,
                   help="confidence under which a die is reported as '?'")
    b.add_argument("--finder", choices=["net", "geometry"], default=None,
                   help="how dice are found: the dice-centre network (default) or geometry")
    b.add_argument("--expect", action="store_true",
                   help="tell the reader how many dice each photo holds (its label count)")
    b.set_defaults(handler=cmd_bench)

    bd = bench_commands.add_parser(
        "vision-domains", help="score the reader on held-apart domains (other tables, light, "
                               "cameras; the photo shoots, altered, turned and cut close; dice "
                               "as cubes through a camera at a slant)")
    bd.add_argument("dev", nargs="?", default=None, metavar="DEV_DIR",
                    help="the labelled dev photos (without: rendered domains only)")
    bd.add_argument("--dice", choices=DICE_CHOICES, default="d6",
                    help="d6 (default), or a title's set: its dice on each table family "
                         "(render-FAMILY) and the bare tables (bare-FAMILY)")
    bd.add_argument("--profile")
    bd.add_argument("--frames", type=int, default=30, help="frames per scene domain")
    bd.add_argument("--seed", type=int, default=0, help="held-apart scene seed offset")
    bd.add_argument("--expect", action="store_true",
                    help="tell the reader how many dice each frame holds")
    bd.add_argument("--empty", action="store_true",
                    help="read the table domains with the bare table before the roll known")
    bd.add_argument("--only", action="append", metavar="DOMAIN", help="score this domain")
    bd.add_argument("--threads", type=int, default=1, help="OpenCV threads (0: its default)")
    bd.add_argument("--json", action="store_true")
    bd.set_defaults(handler=cmd_bench_domains)

    bt = bench_commands.add_parser("vision-targets",
                                   help="measure the reader's targets and say which are met")
    bt.add_argument("dev", metavar="DEV_DIR", help="the labelled dev photos")
    bt.add_argument("--frames", type=int, default=30, help="frames per scene domain")
    bt.add_argument("--json", action="store_true")
    bt.set_defaults(handler=cmd_bench_targets)

    bs = bench_commands.add_parser("vision-synthetic",
                                   help="score the dice reader on rendered trays")
    bs.add_argument("--dice", choices=DICE_CHOICES, default=DICE_CHOICES[1],
                    help=f"face set to render (default {DICE_CHOICES[1]}: the first title's)")
    bs.add_argument("--profile")
    bs.add_argument("--frames", type=whole_number(1, 100_000), default=200)
    bs.add_argument("--seed", type=int, default=1000,
                    help="render seed (training renders use small seeds)")
    bs.add_argument("--width", type=whole_number(64, 8192), default=640)
    bs.add_argument("--height", type=whole_number(64, 8192), default=480)
    bs.add_argument("--json", action="store_true")
    bs.add_argument("--views", type=int, default=1)
    bs.add_argument("--finder", choices=["net", "geometry"], default=None,
                    help="how dice are found: the dice-centre network (default) or geometry")
    bs.set_defaults(handler=cmd_bench_synthetic)
