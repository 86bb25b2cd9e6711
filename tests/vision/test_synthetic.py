"""The reader on synthetic trays: every face set, varied light and rotation, unsure dice."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import DiceReader, SyntheticTray
from companion.vision.classify import MODELS, NetClassifier
from companion.vision.crops import die_crop
from companion.vision.dataset import CROP, MARGIN, match_blobs
from companion.vision.detect import Blob
from companion.vision.faces import FACE_SETS
from companion.vision.labeled import Box

from .conftest import read_speckled


def score(set_name: str, frames: int, seed: int) -> tuple[int, int, int, int]:
    reader = DiceReader(set_name)
    tray = SyntheticTray(set_name, seed=seed)
    right = total = extra = colour_wrong = 0
    for _ in range(frames):
        image, truth = tray.render()
        dice = reader.read(image)
        blobs = [Blob(d.x, d.y, d.w, d.h, 0.0) for d in dice]
        boxes = [Box(t.x, t.y, t.side * 1.3, t.side * 1.3, t.face) for t in truth]
        matched, unmatched = match_blobs(blobs, boxes)
        extra += len(unmatched)
        total += len(truth)
        for i, j in matched.items():
            right += dice[i].face == truth[j].face
            if truth[j].colour is not None and dice[i].face != "?":
                colour_wrong += dice[i].colour != truth[j].colour
    return right, total, extra, colour_wrong


@pytest.mark.parametrize("set_name", ["d6", "outatime", "back_in_time"])
def test_each_face_set_reads_synthetic_trays(set_name: str) -> None:
    right, total, extra, colour_wrong = score(set_name, frames=12, seed=2024)
    assert total > 40
    assert right / total >= 0.97, (right, total)
    assert extra <= 1
    assert colour_wrong == 0


def test_every_face_of_each_set_is_read() -> None:
    for set_name, faces in [
        ("outatime", ["flux", "2", "3", "4", "5", "88"]),
        ("back_in_time", ["speed", "knowledge", "courage", "love", "wild", "biff"]),
    ]:
        tray = SyntheticTray(set_name, seed=7)
        image, truth = tray.render(faces=faces, touching=0.0)
        read = sorted(d.face for d in DiceReader(set_name).read(image))
        assert read == sorted(faces)


def test_outatime_numerals_and_pips_both_read() -> None:
    for style in ("pips", "numerals"):
        tray = SyntheticTray("outatime", seed=5, style=style)
        image, truth = tray.render(faces=["2", "3", "4", "5"], touching=0.0)
        assert sorted(d.face for d in DiceReader("outatime").read(image)) == ["2", "3", "4", "5"]


def test_unsure_die_is_reported_as_unknown_not_guessed() -> None:
    tray = SyntheticTray("d6", seed=3)
    image, truth = tray.render(n_dice=3, touching=0.0)
    # Smear one die beyond recognition: it must come back as "?", never as a guess.
    t = truth[0]
    r = int(t.side * 0.6)
    y0, x0 = int(t.y) - r, int(t.x) - r
    patch = image[y0 : y0 + 2 * r, x0 : x0 + 2 * r]
    body = np.median(patch.reshape(-1, 3), axis=0).astype(np.uint8)
    patch[:] = body  # a die-shaped blank: no marks to read
    image[y0 : y0 + 2 * r, x0 : x0 + 2 * r] = patch
    dice = DiceReader("d6").read(image)
    near = [d for d in dice if np.hypot(d.x - t.x, d.y - t.y) < t.side]
    assert all(d.face == "?" and d.confidence < 0.6 for d in near)
    others = [d for d in dice if d not in near]
    assert sorted(d.face for d in others) == sorted(x.face for x in truth[1:])


def test_a_die_read_unsure_is_read_again_mirrored() -> None:
    # Only dice the network is unsure of cost a second pass; their reading is then the
    # average of the crop and its mirrored quarter turn, as two views of every die would be.
    model = MODELS / "d6_faces.onnx"
    once, twice = NetClassifier(model, 1, mirror=True), NetClassifier(model, 2, mirror=True)
    tray = SyntheticTray("d6", seed=31)
    crops = []
    for k in range(8):
        image, truth = tray.render(n_dice=6)
        if k % 2:  # washed out and blurred: some dice become hard to read
            f = image.astype(np.float32)
            image = np.clip(f.mean() + (f - f.mean()) * 0.12, 0, 255).astype(np.uint8)
            image = cv2.GaussianBlur(image, (0, 0), 1.5)
        crops += [die_crop(image, t.x, t.y, t.side * MARGIN, t.angle, CROP) for t in truth]
    first = once._mean(crops, once.turns[:1])
    unsure = first.max(axis=1) < NetClassifier.SECOND_LOOK
    assert 0 < unsure.sum() < len(crops) // 2, unsure.sum()
    got = once.probabilities(crops)
    np.testing.assert_allclose(got[unsure], twice.probabilities(crops)[unsure], atol=1e-5)
    np.testing.assert_allclose(got[~unsure], first[~unsure], atol=1e-6)


def test_empty_tray_reads_no_dice() -> None:
    tray = SyntheticTray("d6", seed=9)
    image, _ = tray.render(faces=[])
    assert DiceReader("d6").read(image) == []


def test_bad_frames_are_refused_with_a_message() -> None:
    reader = DiceReader("d6")
    with pytest.raises(ValueError, match="not an image"):
        reader.analyse(np.zeros((0, 0, 3), np.uint8))
    # Grey or BGRA frames are accepted.
    assert reader.read(np.full((120, 160), 128, np.uint8)) == []
    assert reader.read(np.full((120, 160, 4), 128, np.uint8)) == []
    assert reader.read(np.full((120, 160, 1), 128, np.uint8)) == []
    # Pixels of another depth (a 16-bit camera, floats from other code) or two channels are
    # refused with what to do, not a failure deep inside OpenCV.
    for frame in (np.full((120, 160, 3), 128.0, np.float32), np.full((120, 160), 300, np.uint16),
                  np.zeros((120, 160, 3), bool)):
        with pytest.raises(ValueError, match=f"8-bit pixels .uint8., not {frame.dtype}"):
            reader.analyse(frame)
    with pytest.raises(ValueError, match="1, 3 or 4 colour channels"):
        reader.analyse(np.zeros((120, 160, 2), np.uint8))


def test_lettering_does_not_depend_on_opencv_fonts(monkeypatch: pytest.MonkeyPatch) -> None:
    # OpenCV 5 changed cv2.putText's lettering; the renders must look the same under the
    # OpenCV the Pi runs (4.11), so numerals, "88" and "B" are drawn with the project's strokes.
    import cv2

    from companion.vision import faces

    def no_fonts(*args, **kwargs):
        raise AssertionError("cv2.putText used for a die face")

    monkeypatch.setattr(faces.cv2, "putText", no_fonts)
    monkeypatch.setattr(faces.cv2, "getTextSize", no_fonts)
    drawn = {}
    for set_name, face in [("outatime", "2"), ("outatime", "3"), ("outatime", "4"),
                           ("outatime", "5"), ("outatime", "88"), ("back_in_time", "biff")]:
        img = np.zeros((32, 32, 3), np.uint8)
        faces.draw_face(img, set_name, face, (255, 255, 255), "numerals")
        ink = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        assert 40 < int((ink > 128).sum()) < 600, face  # lettering, not a blot or nothing
        drawn[face] = ink.astype(int)
    names = list(drawn)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert np.abs(drawn[a] - drawn[b]).mean() > 10, (a, b)  # every glyph differs


def test_dice_of_other_makers_are_read() -> None:
    # Any body colour, other pip sizes and spacing, see-through plastic.
    reader = DiceReader("d6")
    tray = SyntheticTray("d6", seed=77, other_dice=1.0)
    right = total = 0
    for _ in range(10):
        image, truth = tray.render()
        faces = sorted(d.face for d in reader.read(image))
        total += len(truth)
        right += sum(min(faces.count(f), [t.face for t in truth].count(f)) for f in set(faces))
    assert total > 30
    assert right / total >= 0.97, (right, total)


@pytest.mark.slow
def test_dice_under_flat_light_are_read() -> None:
    # A dim room or a washed-out camera: a fifth of the contrast, marks close to the body.
    # Three seeds: in one, a few dice of nearly the table's colour make the share swing by
    # a point with the scale the frame is read at.
    reader = DiceReader("d6")
    trays = [SyntheticTray("d6", seed=seed) for seed in (1001, 1002, 1003)]
    right = total = 0
    for k in range(120):
        image, truth = trays[k % 3].render(n_dice=6)
        f = image.astype(np.float32)
        image = np.clip(f.mean() + (f - f.mean()) * 0.2, 0, 255).astype(np.uint8)
        faces = sorted(d.face for d in reader.read(image))
        total += len(truth)
        right += sum(min(faces.count(f), [t.face for t in truth].count(f)) for f in set(faces))
    # 100 % since a washed-out frame is read stretched (test_washed_out.py); before, 95.3 %
    # with the face network taught on dice seen at a slant, 97.5 % before it (with the
    # scenes' mirrored copies marked), 96.0 % before that, 97.5 % before the scenes
    # (docs/vision.md); without the faces taught under flat light, 86 %.
    assert right / total >= 0.99, (right, total)


def test_glare_streak_is_a_thin_bright_line() -> None:
    from companion.vision.dataset import glare_streak

    rng = np.random.default_rng(4)
    for _ in range(50):
        crop = np.full((32, 32, 3), 90.0, np.float32)
        out = glare_streak(crop, rng)
        changed = np.abs(out - crop).max(axis=2) > 20
        assert 0 < changed.mean() < 0.2  # a line, never a blot over the face
        assert (out >= crop - 1e-3).all()  # light added, never ink
        assert out.max() > 130


def test_tone_curve_keeps_pips_apart_and_makes_negatives() -> None:
    from companion.vision.dataset import tone_curve

    rng = np.random.default_rng(5)
    ramp = np.repeat(np.arange(256, dtype=np.uint8)[None, :, None], 3, axis=2)
    negatives = 0
    for _ in range(60):
        out = tone_curve(ramp, rng).astype(int)[0]
        for c in range(3):
            step = np.diff(out[:, c])
            # each channel rises or falls all the way: ink and body never swap partly
            assert (step >= 0).all() or (step <= 0).all()
            assert abs(out[-1, c] - out[0, c]) >= 120  # and keeps its contrast
        negatives += int((out[-1] < out[0]).sum() >= 2)
    assert 15 <= negatives <= 45  # white dice often become dark ones, not always


def test_dice_sides_show_towards_the_middle_of_the_frame() -> None:
    def outside_top(sides: float, seed: int) -> tuple[int, int]:
        """Die pixels beyond the top face: (towards the middle, away from it)."""
        tray = SyntheticTray("d6", 640, 480, seed=seed, sides=sides, die_side=(0.2, 0.2))
        tray._background = lambda: (np.full((480, 640, 3), 200.0, np.float32), 0)
        tray._lighting = lambda: np.ones((480, 640), np.float32)
        image, (die,) = tray.render(n_dice=1, glare=0.0)
        ys, xs = np.nonzero(np.abs(image.astype(int) - 200).max(axis=2) > 60)
        beyond = np.hypot(xs - die.x, ys - die.y) > 0.75 * die.side
        inward = (np.c_[xs - die.x, ys - die.y] @ [320 - die.x, 240 - die.y]) > 0
        return int((beyond & inward).sum()), int((beyond & ~inward).sum())

    flat = np.sum([outside_top(0.0, seed) for seed in range(8)], axis=0)
    leaning = np.sum([outside_top(0.6, seed) for seed in range(8)], axis=0)
    assert leaning[0] > 5 * max(1, leaning[1])  # the sides facing the lens show
    assert leaning[0] > 5 * max(1, flat[0])  # and only when the camera is low


def test_some_training_crops_are_under_flat_or_dim_light(monkeypatch) -> None:
    from companion.vision import dataset

    rng = np.random.default_rng(8)
    crop = np.full((32, 32, 3), 200, np.uint8)
    crop[:, :16] = 40  # half dark, half light: blur leaves the contrast alone

    def flat_share() -> float:
        flat = 0
        for _ in range(400):
            out = dataset.photometric(crop, rng).astype(np.float32)
            # light and channel gains alone keep at least 0.7 * 0.85 of the contrast
            flat += out.std() < 0.5 * crop.std()
        return flat / 400

    assert 0.04 <= flat_share() <= 0.25
    monkeypatch.setattr(dataset, "LOW_CONTRAST", 0.0)
    assert flat_share() == 0.0


def test_table_pieces_hold_no_die_and_most_carry_specks(monkeypatch) -> None:
    from companion.vision import dataset

    monkeypatch.setattr(dataset, "photometric", lambda crop, rng, colour=False: crop)
    table = np.full((480, 640, 3), 200, np.uint8)
    dice = [(100.0, 100.0, 40.0), (320.0, 240.0, 40.0), (500.0, 380.0, 40.0)]
    for x, y, s in dice:  # black dice: any piece reaching into one shows black
        table[int(y - s / 2):int(y + s / 2), int(x - s / 2):int(x + s / 2)] = 0
    rng = np.random.default_rng(3)

    def marked_shares(speckled: float) -> list[float]:
        monkeypatch.setattr(dataset, "SPECKLED", speckled)
        crops = list(dataset.speckled_table(table, dice, 40, rng))
        assert len(crops) == 40
        return [float((np.abs(c.astype(int) - 200).max(axis=2) > 30).mean()) for c in crops]

    assert max(marked_shares(0.0)) == 0.0  # clean table, no die reaching in
    shares = np.array(marked_shares(1.0))
    assert (shares > 0).mean() >= 0.9  # nearly every speckled piece shows a mark
    assert np.median(shares) < 0.15  # small marks, not a die's body
    assert list(dataset.speckled_table(table, [], 5, rng)) == []  # no dice: no size to cut


@pytest.mark.parametrize("set_name", ["d6", "outatime", "back_in_time"])
def test_specks_of_dirt_on_the_table_are_not_dice(set_name: str) -> None:
    # Two or three specks a pip apart look like a 2 or a 3 to a reader that never learned
    # that pips count only on a die's body.
    right, total, extra = read_speckled(DiceReader(set_name), SyntheticTray(set_name, seed=1500),
                                        seed=15)
    assert right / total >= 0.95, (right, total)
    assert extra <= 1, extra  # of 48 clusters of specks


def test_a_sure_find_barely_called_not_a_die_is_reported_unsure() -> None:
    # A die much like the table: the finder is sure of it, the faces barely say "none".
    # It is reported as "?", never dropped silently; a clear "none" is still dropped.
    # (The rule of a reader without a judge: a judge decides with its calibrated p_die.)
    image, truth = SyntheticTray("d6", seed=5).render(n_dice=3, glare=0.0)
    reader = DiceReader("d6", judge=False)

    class Says:
        def __init__(self, conf: float) -> None:
            self.conf = conf

        def classify(self, crops):
            return [("none", self.conf) for _ in crops]

    reader.classifier = Says(0.3)
    dice = reader.read(image)
    assert len(dice) == 3 and {d.face for d in dice} == {"?"}
    reader.classifier = Says(0.9)
    assert reader.read(image) == []


def test_scene_crops_can_teach_other_sets_dice_as_no_d6_face() -> None:
    # A d6 reader must not take a printed number for a pip face: with ``other_sets`` the
    # scenes' rendered dice also show numerals and symbols, and those are taught as "none".
    from companion.vision.dataset import NONE, scene_crops

    def faces(other: bool) -> list[str]:
        return [face for _, face in scene_crops(6, seed=11, families=("felt",), copies=1,
                                                 negatives=0, table_pieces=0,
                                                 other_sets=other)]

    plain, mixed = faces(False), faces(True)
    assert plain and NONE not in plain  # only dice, no negatives asked for
    assert mixed.count(NONE) >= 1 and len(set(mixed) - {NONE}) >= 3


def test_scene_crops_can_teach_a_title_s_own_dice() -> None:
    # ``dice_set``: every die in the scenes is one of that title's, labelled with its face,
    # so the title's face network learns its dice on tables as well as on trays.
    from companion.vision.dataset import NONE, scene_crops

    got = [face for _, face in scene_crops(4, seed=13, families=("wood",), copies=1,
                                           negatives=2, table_pieces=0,
                                           dice_set="outatime")]
    dice = [f for f in got if f != NONE]
    assert len(dice) >= 5 and set(dice) <= set(FACE_SETS["outatime"].faces), got
    assert len(set(dice)) >= 3


def test_table_pieces_are_not_cut_from_a_frame_a_die_fills() -> None:
    # A die seen close through a slanted camera can be as large as the frame: there is no
    # piece of table beside it to cut, and asking for one must not fail.
    from companion.vision import dataset

    table = np.full((120, 160, 3), 200, np.uint8)
    rng = np.random.default_rng(1)
    assert list(dataset.speckled_table(table, [(80.0, 60.0, 70.0)], 5, rng)) == []


def test_scene_crops_can_teach_dice_seen_at_a_slant() -> None:
    # ``solid``: the frames come through a camera at a slant, the dice as cubes; every
    # die still gives a crop labelled with its top face.
    from companion.vision.dataset import scene_crops

    got = list(scene_crops(3, seed=12, families=("wood",), copies=1, negatives=0,
                           table_pieces=0, solid=1.0))
    assert got and {face for _, face in got} <= {"1", "2", "3", "4", "5", "6"}
    assert all(crop.shape == got[0][0].shape for crop, _ in got)


def test_crops_of_dice_seen_at_a_slant_keep_the_frames_up() -> None:
    # A die seen at a slant shows its top above its sides: its crops may turn a little,
    # never a quarter turn, so the face network learns which face is the top. A mark in
    # the upper part of a die stays there; without ``upright`` it goes all round.
    from companion.vision import dataset

    image = np.full((200, 200, 3), 90, np.uint8)
    cv2.rectangle(image, (70, 70), (130, 130), (230, 230, 230), -1)
    cv2.rectangle(image, (90, 74), (110, 86), (0, 0, 255), -1)  # the mark, near the top
    rng = np.random.default_rng(3)

    def mark_row(crop: np.ndarray) -> float | None:
        # None where the crop's light turned the red mark to another colour
        red = (crop[..., 2] > 150) & (crop[..., 1] < 100)
        return float(np.nonzero(red)[0].mean()) / crop.shape[0] if red.any() else None

    for upright in (True, False):
        rows = [mark_row(dataset.jittered_crop(image, 100, 100, 60, 0.0, rng, jitter=True,
                                               upright=upright)) for _ in range(40)]
        rows += [mark_row(dataset._fit_jittered(image, 100, 100, 60, 0.0, rng,
                                                upright=upright)) for _ in range(40)]
        rows = [r for r in rows if r is not None]
        assert len(rows) >= 30
        if upright:
            assert max(rows) < 0.5, max(rows)  # above the middle, even a bad fit
        else:
            assert max(rows) > 0.6, max(rows)
