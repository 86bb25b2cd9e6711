"""Profiles: JSON round trip, clear errors for broken files, learning from labelled photos."""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import DiceProfile, DiceReader, ProfileError, SyntheticTray
from companion.vision.calibrate import CalibrationError, capture_profile, learn_profile
from companion.vision.dataset import match_blobs
from companion.vision.defaults import default_profile
from companion.vision.detect import Blob
from companion.vision.faces import FACE_SETS, draw_star
from companion.vision.labeled import Box, LabelError, load_labeled_dir
from companion.vision.sources import Frame, FrameSource

from .conftest import read_speckled, write_labeled


def test_round_trip(tmp_path: Path) -> None:
    p = default_profile("back_in_time")
    p.save(tmp_path / "p.json")
    q = DiceProfile.load(tmp_path / "p.json")
    assert q.faces == p.faces and q.colours == p.colours
    for f in p.faces:
        assert all(
            np.array_equal(a, b) for a, b in zip(p.templates[f], q.templates[f], strict=True)
        )
    text = (tmp_path / "p.json").read_text()
    assert text.startswith("{") and "pickle" not in text


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "line 1 column 2: not valid JSON"),
        ("[]", "expected a JSON object"),
        ('{"format": "something-else"}', "not a dice profile"),
        ('{"format": "companion-dice-profile", "version": 9}', "profile version 9"),
        ('{"format": "companion-dice-profile", "version": 1, "dice": "d20"}', "'d20'"),
        (
            '{"format": "companion-dice-profile", "version": 1, "dice": "d6", "templates": '
            '{"1": [[1, 2, 3]]}}',
            "576 integers",
        ),
    ],
)
def test_broken_profile_says_what_where_and_what_to_do(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "broken.json"
    path.write_text(content)
    with pytest.raises(ProfileError) as err:
        DiceProfile.load(path)
    assert message in str(err.value)
    assert str(path) in str(err.value)


def test_a_profile_with_any_field_of_the_wrong_type_is_refused_in_words() -> None:
    # Every field and the first items of every list, set to values of other JSON types:
    # a ProfileError, never another exception (a traceback, or a daemon that stops).
    shipped = Path(__file__).parents[2] / "calibration" / "profiles" / "outatime.json"
    base = json.loads(shipped.read_text())
    wrong = [None, True, -1, 1.5, "x", [], ["1"], {}, {"a": 1}, [[1]]]

    def places(node, at=()):
        items = node.items() if isinstance(node, dict) else enumerate(node[:2]) \
            if isinstance(node, list) else ()
        for key, value in items:
            yield at + (key,)
            yield from places(value, at + (key,))

    tried = 0
    for place in places(base):
        for value in wrong:
            data = json.loads(json.dumps(base))
            node = data
            for key in place[:-1]:
                node = node[key]
            node[place[-1]] = value
            tried += 1
            try:
                DiceProfile.from_json(data, "P")
            except ProfileError as exc:
                assert str(exc).startswith("P: ")
    assert tried > 300


def test_a_profile_whose_numbers_would_only_read_nonsense_is_refused(tmp_path: Path) -> None:
    """Finite but absurd numbers read every die as NaN "1" (head) or lose them all (finder):
    refused on loading, naming the key; as is a file no profile can be."""
    from companion.vision.classify import HeadClassifier

    shipped = Path(__file__).parents[2] / "calibration" / "profiles" / "outatime.json"
    base = json.loads(shipped.read_text())
    classes = [*base["faces"], "none"]
    base["head"] = {"features": "d6_pips+outatime_faces", "classes": classes,
                    "turns": {"outatime_faces": [0]}, "mean": [0.0] * 192, "scale": [1.0] * 192,
                    "weights": [[0.0] * 192 for _ in classes], "bias": [0.0] * len(classes)}
    base["finder"] = {"weights": [0.0] * 24, "bias": -4.0, "fingerprint": "0123abcd"}
    assert DiceProfile.from_json(json.loads(json.dumps(base)), "P").head  # sound as it is

    def changed(change) -> dict:
        data = json.loads(json.dumps(base))
        change(data)
        return data

    cases = [
        (lambda d: d["head"].__setitem__("scale", [0.0] * len(d["head"]["scale"])),
         "head.scale"),
        (lambda d: d["head"]["weights"][0].__setitem__(0, 1e300), "head.weights"),
        (lambda d: d["head"]["mean"].__setitem__(0, 10 ** 400), "head.mean"),
        (lambda d: d["head"].__setitem__("turns", {"d6_pips": [0, 1, 2, 3] * 1000}), "head.turns"),
        (lambda d: d["head"].__setitem__("features", "../../elsewhere"), "head.features"),
        (lambda d: d["finder"].__setitem__("bias", 1e308), "finder.bias"),
        (lambda d: d["finder"]["weights"].__setitem__(0, 1e38), "finder.weights"),
        (lambda d: d["head"]["classes"].__setitem__(0, "6"), "head.classes names '6'"),
        (lambda d: d.__setitem__("version", True), "profile version True"),
    ]
    for change, key in cases:
        with pytest.raises(ProfileError, match=key.replace(".", r"\.")):
            DiceProfile.from_json(changed(change), "P")
    short = changed(lambda d: [d["head"].__setitem__(k, d["head"][k][:5])
                               for k in ("mean", "scale")]
                    + [d["head"].__setitem__("weights", [r[:5] for r in d["head"]["weights"]])])
    with pytest.raises(ProfileError, match="has 5 inputs, but its face networks"):
        HeadClassifier(DiceProfile.from_json(short, "P").head)
    for name, text in (("nested.json", "[" * 100_000), ("digits.json", "1" * 5000)):
        (tmp_path / name).write_text(text)
        with pytest.raises(ProfileError, match=f"{name}: not a dice profile"):
            DiceProfile.load(tmp_path / name)


def test_missing_profile(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="no such profile file.*calibrate dice"):
        DiceProfile.load(tmp_path / "nope.json")


@pytest.mark.slow
def test_profile_teaches_an_emblem_face_from_14_photos(tmp_path: Path) -> None:
    # A d6 whose 6 is a logo (a star) instead of six pips.
    logo = {"6": draw_star}
    faces = list(FACE_SETS["d6"].faces)
    train = write_labeled(
        tmp_path / "train", SyntheticTray("d6", seed=21, custom_faces=logo), 14, faces, n_dice=6
    )
    profile = learn_profile(train)
    profile.save(tmp_path / "logo.json")
    reader = DiceReader(profile=tmp_path / "logo.json")
    tray = SyntheticTray("d6", seed=99, custom_faces=logo)
    right = total = sixes = all_sixes = 0
    for _ in range(30):
        image, truth = tray.render(n_dice=6)
        dice = reader.read(image)
        blobs = [Blob(d.x, d.y, d.w, d.h, 0.0) for d in dice]
        matched, _ = match_blobs(
            blobs, [Box(t.x, t.y, t.side * 1.3, t.side * 1.3, t.face) for t in truth]
        )
        total += len(truth)
        all_sixes += sum(t.face == "6" for t in truth)
        for i, j in matched.items():
            right += dice[i].face == truth[j].face
            sixes += truth[j].face == "6" and dice[i].face == "6"
    # A star is one mark on a plain face: the pip network's features alone read 5 in 29 of
    # these sixes as a "1"; the OUTATIME network's (numerals, emblems) tell them apart.
    assert sixes >= 0.95 * all_sixes, (sixes, all_sixes)
    assert right / total >= 0.98, (right, total)
    assert profile.head is not None and profile.head["turns"] == {"outatime_faces": [0]}


@pytest.mark.slow
def test_profile_reads_specks_of_dirt_as_no_die(tmp_path: Path) -> None:
    # The profile learns "none" from its photos' empty table with specks drawn on.
    faces = list(FACE_SETS["d6"].faces)
    train = write_labeled(tmp_path / "train", SyntheticTray("d6", seed=31), 14, faces,
                          n_dice=6)
    reader = DiceReader(profile=learn_profile(train))
    right, total, extra = read_speckled(reader, SyntheticTray("d6", seed=1501), seed=16)
    assert right / total >= 0.95, (right, total)
    assert extra <= 2, extra  # of 48 clusters of specks


def test_labels_that_do_not_match_their_image(tmp_path: Path) -> None:
    folder = write_labeled(
        tmp_path / "set", SyntheticTray("d6", seed=1), 1, ["1", "2", "3", "4", "5", "6"]
    )
    label = folder / "labels" / "tray_000.txt"
    label.write_text("9 0.5 0.5 0.1 0.1\n")
    with pytest.raises(LabelError, match=r"tray_000.txt:1: class 9 but classes.txt"):
        load_labeled_dir(folder)
    label.write_text("0 320 240 30 30\n")
    with pytest.raises(LabelError, match="not normalised"):
        load_labeled_dir(folder)
    label.write_text("0 0.5 0.5\n")
    with pytest.raises(LabelError, match="expected 'class cx cy w h'"):
        load_labeled_dir(folder)
    label.write_bytes(b"\xff\xfe 0.5 0.5 0.1 0.1\n")
    with pytest.raises(LabelError, match=r"tray_000.txt: not UTF-8 text"):
        load_labeled_dir(folder)
    label.unlink()
    label.mkdir()
    with pytest.raises(LabelError, match=r"tray_000.txt: cannot be read"):
        load_labeled_dir(folder)
    label.rmdir()
    for line in ("inf 0.5 0.5 0.1 0.1", "nan 0.5 0.5 0.1 0.1", "0 nan 0.5 0.1 0.1"):
        label.write_text(line + "\n")
        with pytest.raises(LabelError, match=r"tray_000.txt:1: (not numbers|box)"):
            load_labeled_dir(folder)
    label.write_text("0.9 0.5 0.5 0.1 0.1\n")
    with pytest.raises(LabelError, match=r"tray_000.txt:1: class 0.9 is not a whole number"):
        load_labeled_dir(folder)
    label.write_text("\ufeff0 0.5 0.5 0.1 0.1\n")  # a byte-order mark, as some editors save
    assert load_labeled_dir(folder)[1][0].boxes[0].face == "1"
    classes = folder / "classes.txt"
    classes.write_text("\ufeff1\n2\n3\n4\n5\n6\n")
    assert load_labeled_dir(folder)[0][0] == "1"
    classes.write_text("1\n2\n2\n3\n4\n5\n6\n")
    with pytest.raises(LabelError, match="'2' written twice"):
        load_labeled_dir(folder)
    classes.write_text("1\n2\n3\n4\n5\n6\n")
    label.unlink()
    os.mkfifo(label)  # a pipe would never end: refused before it is opened
    with pytest.raises(LabelError, match=r"tray_000.txt: not a file"):
        load_labeled_dir(folder)
    label.unlink()
    label.write_text("0 0.5 0.5 0.1 0.1\n" * 100_000)
    with pytest.raises(LabelError, match=r"tray_000.txt: more than 1 MB"):
        load_labeled_dir(folder)
    label.write_text("0 0.5 0.5 0.1 0.1\n")
    image = folder / "images" / "tray_000.png"
    cv2.imwrite(str(image), np.zeros((8000, 8000, 3), np.uint8))  # 64 megapixels
    with pytest.raises(LabelError, match="more than the dice reader reads"):
        load_labeled_dir(folder)
    (folder / "classes.txt").unlink()
    with pytest.raises(LabelError, match="classes.txt"):
        load_labeled_dir(folder)


def test_a_photo_turned_by_its_exif_orientation_is_labelled_as_it_is_shown(tmp_path: Path
                                                                            ) -> None:
    """Phones store a photo sideways and say how to turn it (EXIF); every reader decodes it
    turned, so its labels' sizes are those of the turned photo."""
    from PIL import Image

    folder = write_labeled(tmp_path / "set", SyntheticTray("d6", seed=3), 1,
                           list(FACE_SETS["d6"].faces), n_dice=4)
    shown = cv2.imread(str(folder / "images" / "tray_000.png"))
    assert shown.shape[0] != shown.shape[1]  # not square: a turn changes the size
    (folder / "images" / "tray_000.png").unlink()
    stored = Image.fromarray(cv2.rotate(shown, cv2.ROTATE_90_COUNTERCLOCKWISE)[..., ::-1])
    exif = stored.getexif()
    exif[0x0112] = 6  # turn 90 degrees clockwise to show
    stored.save(folder / "images" / "tray_000.jpg", exif=exif, quality=95)
    _, items = load_labeled_dir(folder)
    h, w = shown.shape[:2]
    seen = cv2.imread(str(items[0].image))
    assert seen.shape[:2] == (h, w)
    lines = (folder / "labels" / "tray_000.txt").read_text().split("\n")
    wanted = [(float(v[1]) * w, float(v[2]) * h) for v in (ln.split() for ln in lines) if v]
    # each box on its die as the reader sees the photo (read unturned, they were not)
    assert [(round(b.cx, 1), round(b.cy, 1)) for b in items[0].boxes] == [
        (round(x, 1), round(y, 1)) for x, y in wanted]


def test_ignore_files_are_not_labels(tmp_path: Path) -> None:
    folder = write_labeled(
        tmp_path / "set", SyntheticTray("d6", seed=2), 2, list(FACE_SETS["d6"].faces), n_dice=2
    )
    (folder / "labels" / "tray_000.ignore.txt").write_text("-1 0.1 0.1 0.05 0.05\n")
    _, items = load_labeled_dir(folder)
    assert len(items) == 2
    assert len(items[0].ignore) == 1 and len(items[1].ignore) == 0


def test_face_names_outside_every_set(tmp_path: Path) -> None:
    folder = write_labeled(
        tmp_path / "set", SyntheticTray("d6", seed=2), 1, list(FACE_SETS["d6"].faces)
    )
    (folder / "classes.txt").write_text("one\ntwo\nthree\nfour\nfive\nsix\n")
    with pytest.raises(CalibrationError, match="not all in one face set"):
        learn_profile(folder)


class _ShowFace(FrameSource):
    """A camera over a tray where the player puts dice showing the face asked for."""

    def __init__(self) -> None:
        self.tray = SyntheticTray("outatime", seed=8, keep_scene=True, style="numerals")
        self.face = "flux"

    def read(self) -> Frame:
        image, _ = self.tray.render(faces=[self.face] * 3, touching=0.0)
        return self._frame(image)


@pytest.mark.slow
def test_guided_capture_builds_a_working_profile() -> None:
    cam = _ShowFace()
    asked: list[str] = []

    def ask(face: str, i: int, n: int) -> None:
        asked.append(f"{i}/{n}")
        cam.face = face

    messages: list[str] = []
    profile = capture_profile(cam, "outatime", samples=6, ask=ask, progress=messages.append)
    assert asked == [f"{i}/6" for i in range(1, 7)]
    assert any("6/6 samples" in m for m in messages)
    image, truth = SyntheticTray("outatime", seed=31, style="numerals").render(
        faces=["flux", "2", "3", "4", "5", "88"], touching=0.0
    )
    dice = DiceReader(profile=profile).read(image)
    assert sorted(d.face for d in dice) == sorted(t.face for t in truth)


def test_profile_json_is_plain(tmp_path: Path) -> None:
    p = default_profile("outatime")
    p.save(tmp_path / "o.json")
    data = json.loads((tmp_path / "o.json").read_text())
    assert data["format"] == "companion-dice-profile" and data["dice"] == "outatime"
