"""The commands: read (JSON lines, errors, annotation), bench vision, calibrate."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from companion.vision import SyntheticTray
from companion.vision.faces import FACE_SETS

from .conftest import write_labeled


def test_read_prints_one_json_line_per_image(tmp_path: Path, capsys) -> None:
    tray = SyntheticTray("outatime", seed=14)
    image, truth = tray.render(n_dice=4, touching=0.0)
    cv2.imwrite(str(tmp_path / "roll.png"), image)
    (tmp_path / "broken.jpg").write_bytes(b"garbage")
    code = main(["read", "--dice", "outatime", "--annotate", str(tmp_path / "ann"),
                 str(tmp_path / "roll.png"), str(tmp_path / "broken.jpg")])
    assert code == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 2
    good, bad = lines
    assert good["image"].endswith("roll.png") and good["ms"] >= 0
    assert sorted(d["face"] for d in good["dice"]) == sorted(t.face for t in truth)
    for d in good["dice"]:
        assert set(d) >= {"x", "y", "w", "h", "face", "confidence"}
        t = min(truth, key=lambda t: (t.x - d["x"]) ** 2 + (t.y - d["y"]) ** 2)
        assert abs(t.x - d["x"]) < t.side * 0.3 and abs(t.y - d["y"]) < t.side * 0.3
    assert bad["image"].endswith("broken.jpg") and "not a readable image" in bad["error"]
    annotated = cv2.imread(str(tmp_path / "ann" / "roll.png"))
    assert annotated is not None and annotated.shape == image.shape


def test_annotating_into_the_photos_folder_never_writes_over_a_photo(tmp_path: Path,
                                                                     capsys) -> None:
    image, _ = SyntheticTray("d6", seed=3).render(n_dice=2, touching=0.0)
    for name in ("roll.png", "roll.jpg", "other.png"):
        cv2.imwrite(str(tmp_path / name), image)
    photos = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert main(["read", "--annotate", str(tmp_path), *(str(tmp_path / n) for n in photos)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name in photos} == photos
    written = sorted(p.name for p in tmp_path.iterdir() if p.name not in photos)
    assert written == ["other.png.png", "roll.jpg.png", "roll.png.png"]
    assert all(cv2.imread(str(tmp_path / n)) is not None for n in written)


def test_read_with_a_broken_profile_is_a_user_error(tmp_path: Path, capsys) -> None:
    (tmp_path / "p.json").write_text('{"format": 1')
    code = main(["read", "--profile", str(tmp_path / "p.json"), str(tmp_path)])
    assert code == 2
    err = capsys.readouterr().err
    assert "p.json" in err and "not valid JSON" in err and "calibrate dice" in err


def test_bench_vision_json(labeled_d6: Path, capsys) -> None:
    (labeled_d6 / "labels" / "tray_000.ignore.txt").write_text("-1 0.01 0.01 0.02 0.02\n")
    assert main(["bench", "vision", str(labeled_d6), "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    s = json.loads(out[-1])
    for key in ("recall", "precision", "die_accuracy", "roll_accuracy", "ms_median", "ms_p90",
                "confusion"):
        assert key in s
    assert s["images"] == 6 and s["labelled_dice"] == 30
    assert s["recall"] >= 0.9 and s["die_accuracy"] >= 0.85


def test_bench_vision_domains_scores_a_titles_dice_and_counts_phantoms(capsys) -> None:
    code = main(["bench", "vision-domains", "--dice", "back_in_time", "--frames", "2",
                 "--only", "render-cards", "--only", "bare-paper", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(out["domains"]) == {"render-cards", "bare-paper"}
    assert out["domains"]["bare-paper"]["labelled_dice"] == 0
    assert out["domains"]["render-cards"]["labelled_dice"] > 0
    assert out["unseen"]["dice"] == out["domains"]["render-cards"]["labelled_dice"]
    assert out["bare_tables"] == {"frames": 2,
                                  "phantoms": out["domains"]["bare-paper"]["phantoms"]}


def test_bench_vision_text_report(labeled_d6: Path, capsys) -> None:
    assert main(["bench", "vision", str(labeled_d6), "--limit", "2"]) == 0
    out = capsys.readouterr().out
    assert "per-die accuracy" in out and "confusion" in out


def test_bench_on_a_folder_without_labels(tmp_path: Path, capsys) -> None:
    assert main(["bench", "vision", str(tmp_path)]) == 2
    assert "no images/ folder" in capsys.readouterr().err


@pytest.mark.slow
def test_calibrate_from_labeled_photos(tmp_path: Path, capsys) -> None:
    folder = write_labeled(tmp_path / "bit", SyntheticTray("back_in_time", seed=3), 8,
                           list(FACE_SETS["back_in_time"].faces), n_dice=6)
    out = tmp_path / "bit.json"
    assert main(["calibrate", "dice", "--labeled", str(folder), "--out", str(out)]) == 0
    said = capsys.readouterr()
    assert "back_in_time profile" in said.out
    assert "dice finder: of " in said.err
    assert json.loads(out.read_text())["dice"] == "back_in_time"
    image, truth = SyntheticTray("back_in_time", seed=40).render(n_dice=5, touching=0.0)
    cv2.imwrite(str(tmp_path / "t.png"), image)
    assert main(["read", "--profile", str(out), str(tmp_path / "t.png")]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    assert sorted(d["face"] for d in dice) == sorted(t.face for t in truth)


def test_calibrate_guided_with_synthetic_camera_reports_progress(tmp_path: Path,
                                                                  capsys) -> None:
    out = tmp_path / "g.json"
    assert main(["calibrate", "dice", "--dice", "d6", "--camera", "synthetic:d6", "--yes",
                 "--samples", "2", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "[1/6]" in err and "2/2 samples" in err
    assert out.exists()


def test_calibrate_markers(tmp_path: Path, capsys) -> None:
    assert main(["calibrate", "markers", "--out", str(tmp_path), "--dpi", "60"]) == 0
    assert (tmp_path / "tray-markers.png").exists()


def test_calibrate_dice_says_where_the_profile_cannot_go_before_the_capture(tmp_path: Path,
                                                                            capsys) -> None:
    a_file = tmp_path / "taken"
    a_file.write_text("a file")
    for out, words in ((tmp_path, "a folder; give the profile's file name"),
                       (a_file / "p.json", "cannot make its folder")):
        # a camera that cannot be opened: the --out check comes first, nothing is captured
        assert main(["calibrate", "dice", "--camera", "opencv:99", "--yes",
                     "--out", str(out)]) == 2
        assert words in capsys.readouterr().err
    # a file that is not a profile (a photo of the labelled folder, its classes.txt)
    photo = tmp_path / "IMG_1.jpg"
    photo.write_bytes(b"\xff\xd8 a photo")
    assert main(["calibrate", "dice", "--camera", "opencv:99", "--yes",
                 "--out", str(photo)]) == 2
    assert "not a dice profile; it was left as it is" in capsys.readouterr().err
    assert photo.read_bytes() == b"\xff\xd8 a photo"
    for samples in ("0", "-3"):
        with pytest.raises(SystemExit):
            main(["calibrate", "dice", "--camera", "synthetic:d6", "--yes", "--samples",
                  samples, "--out", str(tmp_path / "s.json")])
        err = capsys.readouterr().err
        assert "--samples" in err and "a whole number from 1 to 1000" in err


def test_a_profile_that_cannot_be_written_leaves_the_old_one_whole(tmp_path: Path,
                                                                     monkeypatch) -> None:
    import errno

    from companion import files
    from companion.vision.profile import DiceProfile

    old = tmp_path / "mine.json"
    assert main(["calibrate", "dice", "--dice", "d6", "--camera", "synthetic:d6", "--yes",
                 "--samples", "1", "--out", str(old)]) == 0
    before = old.read_bytes()
    profile = DiceProfile.load(old)

    def full_disk(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "write", full_disk)  # the write beside it fails
    with pytest.raises(OSError) as caught:
        profile.save(old)
    monkeypatch.undo()
    assert caught.value.filename == str(old)
    assert old.read_bytes() == before and DiceProfile.load(old).dice == "d6"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.json"]  # nothing left beside


@pytest.mark.parametrize("args", [["read"], ["calibrate", "dice"]])
def test_usage_errors(args: list[str]) -> None:
    with pytest.raises(SystemExit):
        main(args)


@pytest.mark.parametrize("finder", ["net", "geometry"])
def test_read_with_either_finder(tmp_path: Path, capsys, finder: str) -> None:
    image, truth = SyntheticTray("d6", seed=61).render(n_dice=4, touching=0.0)
    cv2.imwrite(str(tmp_path / "t.png"), image)
    assert main(["read", "--finder", finder, str(tmp_path / "t.png")]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    assert sorted(d["face"] for d in dice) == sorted(t.face for t in truth)


def test_an_unknown_finder_is_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["read", "--finder", "magic", "x.png"])
    assert "invalid choice: 'magic'" in capsys.readouterr().err


def test_read_with_the_point_the_camera_looked_straight_down_at(tmp_path: Path, capsys) -> None:
    image, truth = SyntheticTray("d6", seed=62).render(n_dice=4, touching=0.0)
    cv2.imwrite(str(tmp_path / "t.png"), image)
    assert main(["read", "--nadir", "0.5,0.5", str(tmp_path / "t.png")]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    assert sorted(d["face"] for d in dice) == sorted(t.face for t in truth)
    # the config's limits (0..1 of the image: a point outside it is a camera at a slant)
    for bad in ("0.5", "a,b", "0.5,0.5,0.5", "nan,0.5", "1.5,0.5", "0.5,-0.1", "inf,0"):
        with pytest.raises(SystemExit):
            main(["read", "--nadir", bad, str(tmp_path / "t.png")])
        err = capsys.readouterr().err
        assert "--nadir" in err and "from 0 to 1" in err


def _area(a, b) -> int:
    return max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))


def test_annotation_labels_hide_neither_each_other_nor_the_dice_next_door() -> None:
    from companion.vision.cli import label_plates

    # A crowded row of dice with a second row just above it, as in a full tray: a label
    # above each box would cover the dice of the row above and its neighbours' labels.
    boxes = [(x, y, x + 30, y + 30) for y in (40, 76) for x in range(10, 330, 56)]
    sizes = [(48, 14)] * len(boxes)
    plates = label_plates(boxes, sizes, 400, 300)
    assert len(plates) == len(boxes)
    for k, p in enumerate(plates):
        assert 0 <= p[0] and p[2] <= 400 and 0 <= p[1] and p[3] <= 300, p
        assert (p[2] - p[0], p[3] - p[1]) == sizes[k]
        assert all(_area(p, q) == 0 for q in plates[:k]), (k, p)
    covered = sum(_area(p, b) for k, p in enumerate(plates)
                  for j, b in enumerate(boxes) if j != k)
    naive = [(b[0], b[1] - 15, b[0] + 48, b[1] - 1) for b in boxes]
    covered_naive = sum(_area(p, b) for k, p in enumerate(naive)
                        for j, b in enumerate(boxes) if j != k)
    assert covered == 0 < covered_naive, (covered, covered_naive)
    # A lone die at the top-left corner: its label stays inside the image, next to it.
    (p,) = label_plates([(0, 0, 30, 30)], [(48, 14)], 200, 200)
    assert p[0] >= 0 and p[1] >= 0 and _area(p, (0, 0, 30, 30)) == 0
