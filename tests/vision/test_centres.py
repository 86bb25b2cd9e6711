"""The dice-centre network: finds dice of every face set, at any camera scale, and falls back
to geometry when its model file is missing; profiles carry a learned classifier."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from companion.vision import DiceProfile, DiceReader, ProfileError, SyntheticTray, centres
from companion.vision.calibrate import learn_profile
from companion.vision.centres import INPUT_SIDE, CentreFinder, fit_blob, fit_blobs
from companion.vision.classify import HeadClassifier, TemplateClassifier, fit_head
from companion.vision.defaults import default_profile
from companion.vision.detect import byte_medians, obstruction_share
from companion.vision.faces import FACE_SETS
from companion.vision.sources import SyntheticSource

from .conftest import extra_dice, speckle, write_labeled


def _score(blobs, truth) -> tuple[int, int, list[float]]:
    """(found, extra, size ratios) matching blob centres to true dice within half a die."""
    used: set[int] = set()
    ratios = []
    extra = 0
    for b in blobs:
        hit = next((j for j, t in enumerate(truth)
                    if j not in used and np.hypot(b.cx - t.x, b.cy - t.y) < 0.5 * t.side), None)
        if hit is None:
            extra += 1
        else:
            used.add(hit)
            ratios.append(b.side / truth[hit].side)
    return len(used), extra, ratios


@pytest.mark.parametrize("dice", list(FACE_SETS))
def test_finds_rendered_dice_of_every_set(dice: str) -> None:
    finder = CentreFinder()
    reader = DiceReader(dice)
    tray = SyntheticTray(dice, seed=501)
    found = extra = sure_extra = total = miscounted = 0
    ratios: list[float] = []
    for _ in range(12):
        image, truth = tray.render()
        blobs = finder.find(image).blobs
        f, e, r = _score(blobs, truth)
        found, extra, total = found + f, extra + e, total + len(truth)
        sure_extra += _score([b for b in blobs if b.heat >= 0.5], truth)[1]
        miscounted += len(reader.read(image)) != len(truth)
        ratios += r
    assert found / total >= 0.97, (found, total)
    # The finder proposes; the faces and the judge decide. A place it is fairly sure of is
    # rarely not a die, and the few weak places (heat 0.3-0.5: a token, a shadow) are
    # turned down: the reader counts the dice of every frame right.
    assert sure_extra <= 0.03 * total and extra <= 0.08 * total, (sure_extra, extra)
    assert miscounted == 0
    # Sizes are rough (the axis-aligned box of a turned die), never wildly off.
    assert 0.8 <= min(ratios) and max(ratios) <= 1.9, (min(ratios), max(ratios))


def test_found_dice_are_fitted_to_tight_turned_squares() -> None:
    image, truth = SyntheticTray("d6", seed=502).render(n_dice=6, touching=0.0)
    det = CentreFinder().find(image)
    fits = [fit_blob(image, b, det.die_side) for b in det.blobs]
    assert sum(ok for _, ok in fits) >= 4  # the others are read upright in their own box
    for blob, ok in fits:
        if ok:
            true = min(truth, key=lambda t: np.hypot(t.x - blob.cx, t.y - blob.cy))
            assert abs(blob.side / true.side - 1) < 0.15
            turn = (blob.angle + true.angle) % 90.0  # the renderer turns the other way
            assert min(turn, 90.0 - turn) < 8.0, (blob.angle, true.angle)
            # Of a square's four ways up, the one nearest the frame's: a die seen at a
            # slant is read with its top above its sides.
            assert -45.0 <= blob.angle < 45.0, blob.angle


def test_a_frame_of_places_is_fitted_together_as_each_alone() -> None:
    image, _ = SyntheticTray("d6", seed=504).render(n_dice=7, touching=0.3)
    det = CentreFinder().find(image)
    assert len(det.blobs) >= 5
    assert fit_blobs(image, det.blobs, det.die_side) == \
        [fit_blob(image, b, det.die_side) for b in det.blobs]
    assert fit_blobs(image, [], det.die_side) == []


@pytest.mark.parametrize("k", [1, 2, 7, 1024])
def test_byte_medians_are_numpys_medians(k: int) -> None:
    values = np.random.default_rng(k).integers(0, 256, (4, k, 3), dtype=np.uint8)
    assert np.array_equal(byte_medians(values), np.median(values, axis=1))


def test_dice_close_to_the_camera_are_read_whole_not_as_their_pips() -> None:
    # Two dice a quarter to a third of the frame's height: at the frame's scale the network
    # sees their pips as small dice (4 of these 20 frames were read right before the frame
    # was also read at a third of its scale).
    reader = DiceReader("d6")
    right = 0
    for share in (0.25, 0.35):
        for seed in range(600, 610):
            tray = SyntheticTray("d6", width=640, height=480, seed=seed,
                                 die_side=(0.95 * share, share))
            image, truth = tray.render(n_dice=2, touching=0.0)
            dice = reader.analyse(image).dice
            right += sorted(d.face for d in dice) == sorted(t.face for t in truth)
    assert right >= 14, right


def _pips(cx: float, cy: float, side: float, heat: float = 0.8,
          share: float = 0.2) -> list[tuple[float, ...]]:
    """Five places where a five's pips lie on a die of ``side`` centred at ``cx, cy``, each
    ``share`` of its side (a pip's place is about a fifth; dice in a cluster a third or more)."""
    d = 0.28 * side
    return [(cx + dx, cy + dy, share * side, share * side, heat)
            for dx, dy in ((-d, -d), (d, -d), (0, 0), (-d, d), (d, d))]


@pytest.mark.parametrize("case, replaced", [
    ("a five's pips", True),
    ("a five's pips, more places around it than inside", True),
    ("ten pip places inside", True),
    ("fifteen pip places inside", False),
    ("dice a third its size, as many around it as inside", True),
    ("dice a third its size, more around it than inside", False),
    ("ten places a third its size inside", False),
    ("places half its size", False),
    ("the die found whole at the frame's scale, a speck on it", False),
])
def test_a_large_sure_die_replaces_only_places_that_look_like_its_pips(
        monkeypatch: pytest.MonkeyPatch, case: str, replaced: bool) -> None:
    # Places a fifth of the die's size are its pips whatever lies around it (a close photo
    # shows other dice cut by its edge); places a third of it may be dice of a tray that
    # looks like one large die, replaced only when few dice lie outside it.
    image = np.zeros((640, 640, 3), np.uint8)
    die = (320.0, 320.0, 250.0, 60.0, 0.9)
    inside = _pips(320, 320, 250, share=0.35 if "a third" in case else 0.2)
    kept = list(inside)
    around = {"as many around": 5, "more around": 6, "more places around": 6}
    for words, n in around.items():
        if words in case:
            kept += [(60.0, 60.0 + 90 * k, 50.0, 12.0, 0.9) for k in range(n)]
    copies = {"ten": 1, "fifteen": 2}.get(case.split()[0], 0)
    for k in range(copies):
        inside += [(x + 20 * (k + 1), y + 20 * (k + 1), *rest) for x, y, *rest in kept[:5]]
    kept = inside + kept[5:]
    if case == "places half its size":
        kept = [(x, y, 130.0, 31.0, h) for x, y, _, _, h in kept]
        inside = kept
    if case.startswith("the die found whole"):  # a patterned cloth's dot on a found die
        inside = [(360.0, 290.0, 25.0, 6.0, 0.5)]
        dots = [(60.0, 60.0 + 60 * k, 25.0, 6.0, 0.5) for k in range(6)]
        kept = [(322.0, 318.0, 240.0, 58.0, 0.95)] + inside + dots
    finder = CentreFinder()

    def coarse(frame, scale, threshold=None, net=None):
        assert net is not None and net is not finder.net  # its own copy, one input size
        assert scale < 0.5 * INPUT_SIDE / 640
        return [die]

    monkeypatch.setattr(finder, "_peaks", coarse)
    out, _ = finder._whole_dice(image, INPUT_SIDE / 640, kept, [], {})
    assert (die in out and not set(out) & set(inside)) == replaced
    assert (out == kept) == (not replaced)


def test_small_dice_in_a_large_frame_are_found_at_a_finer_scale() -> None:
    # A high camera: dice of ~20 px in a 1920 x 1080 frame (7 px at the usual scale).
    tray = SyntheticTray("d6", width=1920, height=1080, seed=503, die_side=(0.018, 0.02))
    image, truth = tray.render(n_dice=8, touching=0.0)
    found, extra, _ = _score(CentreFinder().find(image).blobs, truth)
    assert found >= 7 and extra <= 1, (found, extra)


def test_dice_at_any_angle_whose_boxes_look_small_are_read_larger() -> None:
    # Dice 19-20 px wide at any angle: their upright boxes are 19-28 px at the usual scale,
    # where the network misses dice turned near 45 degrees; the frame is read again larger.
    tray = SyntheticTray("d6", width=640, height=480, seed=506, die_side=(0.04, 0.042))
    image, truth = tray.render(n_dice=8, touching=0.0)
    finder = CentreFinder()
    found, extra, _ = _score(finder.find(image).blobs, truth)
    assert finder.scale > 1.2 * INPUT_SIDE / 480 and found == len(truth) and extra == 0


def test_large_dice_are_found_at_a_coarser_scale() -> None:
    # A close camera: dice a fifth of the frame high.
    tray = SyntheticTray("outatime", width=640, height=480, seed=504, die_side=(0.2, 0.22))
    image, truth = tray.render(n_dice=3, touching=0.0)
    found, extra, _ = _score(CentreFinder().find(image).blobs, truth)
    assert found == len(truth) and extra == 0


def test_an_empty_table_has_no_dice() -> None:
    image, _ = SyntheticTray("d6", seed=505).render(n_dice=0)
    # At most a weak place for the faces to turn down, and no die read.
    assert all(b.heat < 0.5 for b in CentreFinder().find(image).blobs)
    assert DiceReader("d6").read(image) == []


def test_a_hand_is_an_obstruction_and_a_few_dice_are_not() -> None:
    source = SyntheticSource("outatime", seed=3, hand_every=2)
    shares = {False: [], True: []}
    for _ in range(4 * (source.roll_frames + source.settle_frames)):
        frame = source.read()
        still = source._phase > source.roll_frames
        hand = still and source._roll % 2 == 0
        if still:
            side = float(np.median([t.side for t in source.truth])) if source.truth else 30.0
            shares[hand].append(obstruction_share(frame.image, side))
    assert max(shares[False]) < 0.01
    assert min(shares[True]) > 0.05


def test_reader_falls_back_to_geometry_without_the_model(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(centres, "MODEL", tmp_path / "missing.onnx")
    import companion.vision.reader as reader_module

    monkeypatch.setattr(reader_module, "CENTRES_MODEL", tmp_path / "missing.onnx")
    reader = DiceReader("d6")
    assert reader.finder is None
    image, truth = SyntheticTray("d6", seed=507).render(n_dice=4, touching=0.0)
    assert len(reader.read(image)) == 4
    with pytest.raises(ValueError, match="unknown dice finder 'magic'"):
        DiceReader("d6", finder="magic")


def test_both_finders_read_the_roll() -> None:
    # A pale die on a pale table: the network finds it, geometry may not; neither invents.
    image, truth = SyntheticTray("d6", seed=508).render(n_dice=5, touching=0.0)
    want = sorted(t.face for t in truth)
    assert sorted(d.face for d in DiceReader("d6", finder="net").read(image)) == want
    geometric = [d.face for d in DiceReader("d6", finder="geometry").read(image)]
    assert len(geometric) >= 4
    assert all(geometric.count(f) <= want.count(f) for f in geometric)


# -- the learned classifier in a profile -----------------------------------------------------

def test_fit_head_separates_classes() -> None:
    rng = np.random.default_rng(0)
    a = rng.normal(0, 1, (60, 8)) + 3
    b = rng.normal(0, 1, (60, 8)) - 3
    head = fit_head(np.vstack([a, b]), ["a"] * 60 + ["b"] * 60, ["a", "b"], "test")
    w, bias = np.array(head["weights"]), np.array(head["bias"])
    z = (np.vstack([a, b]) - head["mean"]) / np.array(head["scale"])
    pred = (z @ w.T + bias).argmax(axis=1)
    assert (pred[:60] == 0).all() and (pred[60:] == 1).all()
    json.dumps(head)  # plain JSON numbers


@pytest.fixture(scope="module")
def learned_outatime(tmp_path_factory) -> Path:
    """A profile learned from 8 labelled renders of OUTATIME's dice, saved (learned once:
    it takes seconds)."""
    root = tmp_path_factory.mktemp("learned")
    folder = write_labeled(root / "o", SyntheticTray("outatime", seed=509), 8,
                           list(FACE_SETS["outatime"].faces), n_dice=6)
    learn_profile(folder).save(root / "o.json")
    return root / "o.json"


@pytest.mark.slow
def test_learned_profile_has_a_head_and_the_reader_uses_it(learned_outatime: Path,
                                                           tmp_path: Path) -> None:
    profile = DiceProfile.load(learned_outatime)
    assert profile.head is not None
    assert profile.head["classes"][-1] == "none"
    assert profile.head["features"] == "d6_pips+outatime_faces"
    profile.save(tmp_path / "o.json")
    saved = json.loads((tmp_path / "o.json").read_text())
    assert saved["version"] == 2 and "head" in saved
    reader = DiceReader(profile=tmp_path / "o.json")
    assert isinstance(reader.classifier, HeadClassifier)
    image, truth = SyntheticTray("outatime", seed=510).render(n_dice=6, touching=0.0)
    assert sorted(d.face for d in reader.read(image)) == sorted(t.face for t in truth)


def test_version_1_profiles_still_read_with_templates(tmp_path: Path) -> None:
    data = default_profile("d6").to_json()
    data["version"] = 1
    (tmp_path / "v1.json").write_text(json.dumps(data))
    reader = DiceReader(profile=tmp_path / "v1.json")
    assert isinstance(reader.classifier, TemplateClassifier)


@pytest.mark.parametrize("change, message", [
    (lambda h: h.update(weights=h["weights"][:-1]), "head.weights should be 2 rows of 3"),
    (lambda h: h.update(scale=[1.0]), "head.scale should be 3 numbers"),
    (lambda h: h.update(classes=["a"]), "head.classes should list at least two"),
    (lambda h: h.update(bias="x"), "head.bias should be 2 numbers"),
    (lambda h: h.update(features=3), "head.features should name the face networks"),
    (lambda h: h["mean"].__setitem__(0, "nan"), "head.mean should be a list of numbers"),
    (lambda h: h.update(turns={"d6_pips": [4]}), "head.turns should map network names"),
    (lambda h: h.update(turns=[0]), "head.turns should map network names"),
])
def test_a_damaged_head_is_refused_clearly(tmp_path: Path, change, message) -> None:
    data = default_profile("d6").to_json()
    head = {"features": "d6_pips", "classes": ["1", "none"], "mean": [0.0, 0.0, 0.0],
            "scale": [1.0, 1.0, 1.0], "weights": [[0.0] * 3, [0.0] * 3], "bias": [0.0, 0.0]}
    change(head)
    data["head"] = head
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ProfileError) as err:
        DiceProfile.load(path)
    assert message in str(err.value) and str(path) in str(err.value)


def test_a_head_naming_a_missing_network_says_so(tmp_path: Path) -> None:
    data = default_profile("d6").to_json()
    data["head"] = {"features": "no_such_net", "classes": ["1", "none"], "mean": [0.0],
                    "scale": [1.0], "weights": [[0.0], [0.0]], "bias": [0.0, 0.0]}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ProfileError, match="no_such_net.*calibrate dice"):
        DiceReader(profile=path)


@pytest.mark.slow
def test_a_head_taught_on_other_networks_is_refused(learned_outatime: Path,
                                                    tmp_path: Path) -> None:
    profile = DiceProfile.load(learned_outatime)
    assert len(profile.head["fingerprint"]) == 16
    profile.head["fingerprint"] = "0" * 16
    profile.save(tmp_path / "old.json")
    with pytest.raises(ProfileError, match="another version of the face networks"):
        DiceReader(profile=tmp_path / "old.json")


def test_specks_of_dirt_are_not_found_as_tiny_dice() -> None:
    # A speck is found as a die a few pixels wide; it must not set the scale the frame is
    # read at, nor the window the dice are read through.
    finder = CentreFinder()
    tray = SyntheticTray("d6", seed=1502)
    rng = np.random.default_rng(1502)
    smallest = []
    for _ in range(12):
        image, truth = tray.render(n_dice=3, glare=0.0)
        det = finder.find(speckle(image, truth, rng, clusters=10))
        side = float(np.median([t.side for t in truth]))
        smallest.append(min(b.side for b in det.blobs) / side)
        assert 0.8 < det.die_side / side < 2.0, (det.die_side, side)
    assert min(smallest) > 0.5, smallest


def test_many_sure_specks_do_not_set_the_die_size() -> None:
    # Three dice 56 pixels wide and eight specks the network is as sure of, each found as a
    # die 12 pixels wide: by count the specks are the median, by area the dice are.
    dice = [(100.0 * k, 50.0, 56.0, 56.0, 0.95) for k in range(3)]
    specks = [(30.0 * k, 300.0, 12.0, 12.0, 0.85) for k in range(8)]
    assert centres._dice_side(dice + specks, 2) == 56.0
    # Unsure centres do not count while sure ones are there.
    assert centres._dice_side(dice + [(0.0, 0.0, 200.0, 200.0, 0.4)] * 5, 2) == 56.0
    assert centres._dice_side([(0.0, 0.0, 30.0, 30.0, 0.4)], 2) == 30.0


def test_a_reader_with_a_judge_weighs_small_places_itself(monkeypatch) -> None:
    # Big printed spaces the finder is sure of set the size; a real die 0.4 of it is
    # dropped by the plain finder but kept for the judge to weigh; a speck 0.2 of it is
    # dropped by both.
    big = [(100.0 * k, 50.0, 60.0, 32.0, 0.9) for k in range(4)]
    small = [(200.0, 300.0, 24.0, 13.0, 0.6), (400.0, 300.0, 12.0, 6.5, 0.6)]
    finder = CentreFinder()
    monkeypatch.setattr(finder, "_peaks", lambda *a, **k: [*big, *small])
    image = np.zeros((480, 640, 3), np.uint8)
    assert sorted(b.side for b in finder.find(image).blobs) == [60.0] * 4
    finder.speck = centres.SPECK_JUDGED
    assert sorted(b.side for b in finder.find(image).blobs) == [24.0] + [60.0] * 4
    assert DiceReader("d6").finder.speck == centres.SPECK_JUDGED
    assert DiceReader("d6", judge=False).finder.speck == centres.SPECK


def test_specks_of_dirt_stay_out_of_a_judged_reading() -> None:
    # With the speck rule off, the judge alone keeps dirt from being read as dice.
    reader = DiceReader("d6")
    assert reader.judge is not None
    tray = SyntheticTray("d6", seed=1503)
    rng = np.random.default_rng(1503)
    phantoms = right = total = 0
    for _ in range(12):
        image, truth = tray.render(n_dice=3, glare=0.0)
        dice = reader.read(speckle(image, truth, rng, clusters=10))
        phantoms += extra_dice(dice, truth)
        faces = sorted(d.face for d in dice)
        right += sum(min(faces.count(f), [t.face for t in truth].count(f)) for f in set(faces))
        total += len(truth)
    assert phantoms <= 1, phantoms
    assert right >= 0.9 * total, (right, total)


def test_a_frame_full_of_dots_reads_only_the_surest_places(monkeypatch) -> None:
    # A polka-dot cloth can give hundreds of places; no frame may take seconds to read.
    rng = np.random.default_rng(7)
    dots = [(float(x), float(y), 30.0, 30.0, float(h)) for x, y, h in zip(
        rng.uniform(0, 640, 400), rng.uniform(0, 480, 400), rng.uniform(0.3, 0.9, 400),
        strict=True)]
    finder = CentreFinder()
    monkeypatch.setattr(centres, "_suppress", lambda peaks: peaks)
    monkeypatch.setattr(finder, "_peaks", lambda image, scale, threshold=None, net=None: dots)
    blobs = finder.find(np.zeros((480, 640, 3), np.uint8)).blobs
    assert len(blobs) == centres.MAX_PLACES
    assert min(b.heat for b in blobs) >= sorted(d[4] for d in dots)[-centres.MAX_PLACES]


def test_one_centre_per_die_the_strongest_and_no_pip_of_a_large_die() -> None:
    # (x, y, side, side in input pixels, heat)
    die = (100.0, 100.0, 40.0, 40.0, 0.9)
    echo = (110.0, 104.0, 38.0, 38.0, 0.6)  # the same die found again, weaker
    pip = (108.0, 92.0, 12.0, 12.0, 0.95)  # a pip of the die, found as a tiny die
    other = (200.0, 100.0, 40.0, 40.0, 0.5)
    neighbour = (125.0, 100.0, 40.0, 40.0, 0.8)  # touching dice: 25 px apart, not half a die
    kept = centres._suppress([echo, pip, other, die, neighbour])
    assert sorted(kept) == sorted([die, other, neighbour])
    assert centres._suppress([]) == []


def test_a_pass_enlarges_a_frame_to_a_megapixel_at_most_and_never_shrinks_it_for_that(
) -> None:
    # The dots of a patterned cloth, taken for small dice, asked for 640x480 frames read at
    # 2-3 megapixels (the network's memory grows with its input).
    finder = CentreFinder()
    small = np.zeros((480, 640, 3), np.uint8)
    _, _, sx, sy = finder.maps(small, 3.2)
    assert 1.5 < sx < 3.2 and 640 * sx * 480 * sy <= centres.MAX_PIXELS * 1.03
    # a frame larger than that is read as it came, not shrunk, when asked to enlarge it
    large = np.zeros((1200, 1600, 3), np.uint8)
    assert finder.maps(large, 1.5)[2] == 1.0
    # and a shrinking pass is as asked (a phone photo of small dice)
    huge = np.zeros((3000, 4000, 3), np.uint8)
    assert finder.maps(huge, 0.5)[2] == 0.5


def test_suppression_of_many_centres_is_the_greedy_one_pair_by_pair() -> None:
    # Thousands of centres (a patterned cloth) are compared a block at a time; the result
    # must be what the plain greedy rule gives, across the blocks' edges too.
    rng = np.random.default_rng(3)
    n = 3 * centres._BLOCK + 17
    peaks = [(float(x), float(y), float(s), float(s), float(h)) for x, y, s, h in zip(
        rng.uniform(0, 400, n), rng.uniform(0, 300, n), rng.uniform(4, 50, n),
        rng.uniform(0.2, 1.0, n).round(2), strict=True)]
    kept: list[tuple[float, ...]] = []
    for p in sorted(peaks, key=lambda p: -p[4]):
        if all(np.hypot(p[0] - q[0], p[1] - q[1]) > centres.SUPPRESS * min(p[2], q[2])
               for q in kept):
            kept.append(p)
    expected = [p for p in kept if not any(
        q[2] >= 1.8 * p[2] and max(abs(p[0] - q[0]), abs(p[1] - q[1])) < 0.4 * q[2]
        for q in kept)]
    assert centres._suppress(peaks) == expected
    assert 100 < len(expected) < n


def test_the_finder_offers_the_judge_the_places_it_is_less_sure_of(monkeypatch) -> None:
    # A reader with a judge asks the finder for weaker places too; the usual ones stay as
    # they are, and the judge decides which of the weaker ones are dice.
    from companion.vision import reader as reader_module
    from companion.vision.reader import JUDGED_HEAT
    from companion.vision.scenes import SceneMaker

    reader = DiceReader("d6")
    usual = reader.finder.threshold
    assert JUDGED_HEAT < usual
    maker = SceneMaker(seed=12, families=("paper",))
    for _ in range(14):  # a table where the judge takes a place the finder was unsure of
        image = maker.render(n_dice=6).image
        c = reader._judged(reader._view(image), JUDGED_HEAT)
        if any(b.heat <= usual and p >= reader.judge.die_below
               for b, p in zip(c.blobs, c.p_die, strict=True)):
            break
    else:
        raise AssertionError("no such place in 14 scenes")
    low = reader.finder.find(image, threshold=JUDGED_HEAT)
    plain = reader.finder.find(image)
    assert all(b.heat > JUDGED_HEAT for b in low.blobs)
    assert all(b.heat > usual for b in plain.blobs)
    # the usual places are found exactly as without the lower threshold, and the window too
    assert [b for b in low.blobs if b.heat > usual] == list(plain.blobs)
    assert len(low.blobs) > len(plain.blobs) and low.die_side == plain.die_side
    calls = []
    find = reader.finder.find
    monkeypatch.setattr(reader.finder, "find", lambda *a, **k: calls.append(a[2:]) or find(*a, **k))
    alone = reader.analyse(image)
    told = reader.analyse(image, expected=6)
    assert len(calls) >= 2 and set(calls) == {(JUDGED_HEAT,)}  # (told, it may look again)
    assert told.seen == len(alone.dice)
    monkeypatch.setattr(reader_module, "JUDGED_HEAT", usual)  # the finder's usual places only
    assert len(reader.analyse(image).dice) == len(alone.dice) - 1


def _frame_heat(places, long=None) -> np.ndarray:
    """A finder heat map (640 x 480 frame read at scale 1): a round spot on each place, and
    a ridge ``long = (x0, x1, y)`` where two touching dice came out as one."""
    heat = np.zeros((120, 160), np.float32)
    for x, y, *_ in places:
        heat[int(y) // 4 - 1:int(y) // 4 + 2, int(x) // 4 - 1:int(x) // 4 + 2] = 0.8
    if long is not None:
        x0, x1, y = long
        heat[y // 4 - 1:y // 4 + 2, x0 // 4:x1 // 4 + 1] = 0.6
    return heat


@pytest.mark.parametrize("closer, split", [
    ("two whole dice", True),
    ("one die and a weak place", False),  # heat under SPLIT_HEAT
    ("one die and a piece of it", False),  # side under SPLIT_SIDE of the place
    ("one die", False),
])
def test_a_long_place_larger_than_the_dice_is_looked_at_closer(monkeypatch, closer: str,
                                                              split: bool) -> None:
    # (x, y, side, side in input pixels, heat): four dice, and two touching dice the frame's
    # scale gave one centre with a side too large
    dice = [(100.0, 100.0, 30.0, 30.0, 0.9), (300.0, 100.0, 30.0, 30.0, 0.9),
            (500.0, 100.0, 30.0, 30.0, 0.9), (100.0, 300.0, 30.0, 30.0, 0.9)]
    pair = (310.0, 300.0, 40.0, 40.0, 0.8)
    finder = CentreFinder()
    finder.last_heat = (_frame_heat(dice, long=(296, 328, 300)), 1.0, 1.0)
    frame_pass = finder.last
    image = np.zeros((480, 640, 3), np.uint8)
    looks = []

    def look(crop, scale, threshold=None, net=None):
        # what the network finds in the window, in the window's pixels (centred on the pair)
        assert net is not None and net is not finder.net  # its own copy, one input size
        looks.append(crop.shape)
        mid = crop.shape[1] / 2
        left = (mid - 14, mid, 30.0, 44.0, 0.85)
        right = {"two whole dice": (mid + 15, mid + 2, 29.0, 43.0, 0.7),
                 "one die and a weak place": (mid + 15, mid + 2, 29.0, 43.0, 0.4),
                 "one die and a piece of it": (mid + 15, mid + 2, 12.0, 18.0, 0.7),
                 "one die": None}[closer]
        return [left] + ([right] if right else [])

    monkeypatch.setattr(finder, "_peaks", look)
    kept = finder._split_pairs(image, dice + [pair], {})
    assert len(looks) == 1
    assert finder.last is frame_pass  # the frame's features stay for the judge
    assert [p for p in kept if p in dice] == dice
    others = [p for p in kept if p not in dice]
    if split:
        assert len(others) == 2 and all(abs(p[1] - 300) < 5 for p in others)
        left, right = sorted(p[0] for p in others)  # in frame pixels
        assert abs(left - 296) < 1.5 and abs(right - 325) < 1.5
    else:
        assert others == [pair]


def test_a_round_place_is_not_looked_at_again(monkeypatch) -> None:
    # A die larger than the others (nearer the camera) whose heat is round: no closer look.
    dice = [(100.0, 100.0, 30.0, 30.0, 0.9), (300.0, 100.0, 30.0, 30.0, 0.9),
            (500.0, 100.0, 30.0, 30.0, 0.9), (310.0, 300.0, 40.0, 40.0, 0.8)]
    finder = CentreFinder()
    finder.last_heat = (_frame_heat(dice), 1.0, 1.0)
    monkeypatch.setattr(finder, "_peaks", lambda *a, **k: pytest.fail("looked closer"))
    assert finder._split_pairs(np.zeros((480, 640, 3), np.uint8), dice, {}) == dice
