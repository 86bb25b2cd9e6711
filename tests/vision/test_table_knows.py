"""What the table knows helps the reader: the number of dice rolled and the tray before the
roll (``DiceReader.analyse(expected=, background=)``, ``SettleWatcher.expect``)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from itertools import islice

import cv2
import numpy as np
import pytest

from companion.vision import DiceReader, Settler, SettleWatcher, SyntheticTray
from companion.vision.detect import Blob
from companion.vision.domains import scene_frames
from companion.vision.labeled import match_blobs

from .conftest import extra_dice, tray_before_and_after


def test_told_the_count_the_reader_proposes_that_many_and_says_what_it_saw() -> None:
    _, after, old, added = tray_before_and_after()
    reader = DiceReader("d6")
    alone = reader.analyse(after)
    assert len(alone.dice) == 4 and alone.expected is None and not alone.count_differs
    told = reader.analyse(after, expected=2)
    assert len(told.dice) == 2
    assert told.expected == 2 and told.seen == 4 and told.count_differs
    right = reader.analyse(after, expected=4)
    assert len(right.dice) == 4 and right.seen == 4 and not right.count_differs
    assert reader.analyse(after, expected=0).dice == ()


def test_told_the_count_a_clear_face_outranks_a_place_like_no_face(monkeypatch) -> None:
    # Print on a board can look a little like a die and like no face at all: told the count,
    # the reader takes the places most surely read (a die, and its face), not the most die-like.
    _, after, _, _ = tray_before_and_after()
    reader = DiceReader("d6")
    c = reader._judged(reader._view(after))
    assert len(c.p_die) >= 2
    c.p_die[:] = 0.1
    c.p_die[0], c.p_die[1] = 0.95, 0.85
    c.p_faces[0] = 1.0 / c.p_faces.shape[1]  # no face stands out
    c.p_faces[1] = 0.002
    c.p_faces[1, 4] = 1.0 - 0.002 * (c.p_faces.shape[1] - 1)
    monkeypatch.setattr(reader, "_judged", lambda view, threshold=None: c)
    told = reader.analyse(after, expected=1)
    (die,) = told.dice
    assert (die.x, die.y) == pytest.approx(c.fitted[1][0].bbox()[:2])
    assert die.face == reader.set.faces[4]
    alone = reader.analyse(after)  # on its own the reader proposes both, the faceless one "?"
    assert sorted(d.face for d in alone.dice) == sorted(["?", reader.set.faces[4]])


@pytest.mark.slow
def test_told_of_more_dice_than_it_sees_the_reader_looks_again_with_them_larger() -> None:
    # Cards with art, a table nothing learned: the reader on its own sees one of the two
    # dice. Told there are two, it looks again with the frame larger and reads both, with
    # no phantom; without that look it reads one. (The frame this test read before, seven
    # dice, is read six right and one phantom since the judge learned game tokens, with or
    # without the look: "What the table knows" in docs/vision.md counts both ways.)
    *_, (image, item) = islice(scene_frames("cards", 9, 5), 9)
    reader = DiceReader("d6")

    def right(dice) -> tuple[int, int]:
        matched, extra = match_blobs([Blob(d.x, d.y, d.w, d.h, 0.0) for d in dice], item.boxes)
        return sum(dice[i].face == item.boxes[j].face for i, j in matched.items()), len(extra)

    alone = reader.analyse(image)
    assert len(item.boxes) == 2 and len(alone.dice) == 1 and right(alone.dice) == (1, 0)
    told = reader.analyse(image, expected=2)
    assert told.seen == 1 and right(told.dice) == (2, 0)
    # not short of dice: no second look, the same places and faces
    same = reader.analyse(image, expected=1).dice
    assert [(d.x, d.y, d.face) for d in same] == [(d.x, d.y, d.face) for d in alone.dice]
    reader._look_again = lambda view, bg, threshold, c, p_die, checked: (c, p_die, checked)
    assert right(reader.analyse(image, expected=2).dice) == (1, 0)


def test_a_blob_that_was_there_before_the_roll_is_not_proposed() -> None:
    before, after, old, added = tray_before_and_after()
    reader = DiceReader("d6")
    result = reader.analyse(after, background=before)
    assert len(result.dice) == 3
    assert extra_dice(result.dice, added) == 0
    assert sorted(d.face for d in result.dice) == sorted(d.face for d in added)


def test_the_watcher_learns_the_tray_before_an_announced_roll() -> None:
    before, after, old, added = tray_before_and_after()
    watcher = SettleWatcher(DiceReader("d6"), Settler(frames=2))
    watcher.expect(3)
    for _ in range(3):
        watcher.feed(before)  # still, before the roll: the tray as it was
    assert watcher.background is not None
    moving = np.zeros_like(before)
    watcher.feed(moving)  # the roll: everything moves
    readings = [r for _ in range(4) if (r := watcher.feed(after))]
    assert len(readings) == 1
    assert sorted(readings[0].faces()) == sorted(d.face for d in added)
    assert "seen" not in readings[0].extra


def test_the_watcher_says_when_it_sees_another_number_than_rolled() -> None:
    before, after, _, _ = tray_before_and_after()
    watcher = SettleWatcher(DiceReader("d6"), Settler(frames=2))
    watcher.expect(2)
    for _ in range(2):
        watcher.feed(before)  # the tray before the roll, with one die lying in it
    readings = [r for _ in range(4) if (r := watcher.feed(after))]
    assert len(readings) == 1
    assert len(readings[0].dice) == 2
    # three new dice where two were rolled (the one lying there before is not counted)
    assert readings[0].extra == {"expected": 2, "seen": 3}


def test_an_empty_still_tray_becomes_the_background() -> None:
    tray = SyntheticTray("d6", seed=9, keep_scene=True)
    empty, _ = tray.render(n_dice=0)
    watcher = SettleWatcher(DiceReader("d6"))
    for _ in range(3):
        watcher.feed(empty)
    assert watcher.background is not None
    assert np.abs(watcher.background - empty).max() < 1.0
    watcher.feed(cv2.resize(empty, (320, 240)))  # another camera size: learnt again
    assert watcher.background is None or watcher.background.shape[:2] == (240, 320)


def test_expect_refuses_a_count_that_is_not_one() -> None:
    watcher = SettleWatcher(DiceReader("d6"))
    with pytest.raises(ValueError, match="whole number"):
        watcher.expect(-1)
    watcher.expect(None)
    assert watcher.expected is None


def test_read_expect_on_the_command_line(tmp_path) -> None:
    _, after, _, _ = tray_before_and_after()
    path = tmp_path / "tray.png"
    cv2.imwrite(str(path), after)
    out = subprocess.run([sys.executable, "-m", "companion", "read", "--expect", "3",
                          str(path)], capture_output=True, text=True, check=True)
    line = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(line["dice"]) == 3
    assert line["expected"] == 3 and line["seen"] == 4
    bad = subprocess.run([sys.executable, "-m", "companion", "read", "--expect", "-2",
                          str(path)], capture_output=True, text=True)
    assert bad.returncode != 0
    assert "--expect -2" in bad.stderr and "Traceback" not in bad.stderr


def test_read_empty_on_the_command_line(tmp_path, capsys) -> None:
    from companion.cli import main

    before, after, old, _ = tray_before_and_after()
    for name, image in (("before", before), ("after", after), ("small", before[:200, :200])):
        cv2.imwrite(str(tmp_path / f"{name}.png"), image)

    def read(*extra: str) -> dict:
        assert main(["read", *extra, str(tmp_path / "after.png")]) == 0
        return json.loads(capsys.readouterr().out.strip().splitlines()[-1])

    assert len(read()["dice"]) == 4  # the die left lying is read too
    known = read("--empty", str(tmp_path / "before.png"))
    assert len(known["dice"]) == 3 and "empty" not in known
    assert all(np.hypot(d["x"] - old[0].x, d["y"] - old[0].y) > old[0].side
               for d in known["dice"])
    other = read("--empty", str(tmp_path / "small.png"))  # another camera's size: said, unused
    assert len(other["dice"]) == 4 and "not used" in other["empty"]
    assert main(["read", "--empty", str(tmp_path / "none.png"), str(tmp_path / "after.png")]) == 2
    err = capsys.readouterr().err
    assert "--empty" in err and "without dice" in err and "Traceback" not in err


def test_a_scene_can_come_with_its_table_before_the_roll() -> None:
    from companion.vision.scenes import SceneMaker

    plain = SceneMaker(seed=8, families=("board",), d6_only=True)
    known = SceneMaker(seed=8, families=("board",), d6_only=True)
    for _ in range(3):
        a, b = plain.render(n_dice=4), known.render(n_dice=4, empty=True)
        assert a.empty is None and b.empty is not None
        assert np.array_equal(a.image, b.image)  # the same scene, with or without it
        assert b.empty.shape == b.image.shape
        # the dice are not on the bare table; the print away from them is
        lab = [cv2.cvtColor(x, cv2.COLOR_BGR2Lab).astype(np.float32) for x in (b.image, b.empty)]
        diff = np.sqrt(((lab[0] - lab[1]) ** 2).sum(axis=2))
        on_dice = np.zeros(diff.shape, bool)
        for d in b.dice:
            r = int(d.side * 0.3)
            on_dice[max(0, int(d.y) - r):int(d.y) + r, max(0, int(d.x) - r):int(d.x) + r] = True
        away = np.ones(diff.shape, bool)
        for d in b.dice:
            r = int(d.side * 1.5)
            away[max(0, int(d.y) - r):int(d.y) + r, max(0, int(d.x) - r):int(d.x) + r] = False
        assert diff[on_dice].mean() > 3 * max(diff[away].mean(), 1.0)


def test_a_plain_die_filling_its_place_is_not_taken_for_the_table() -> None:
    # A die of one colour with one small pip: compared within its own place alone, all of
    # it changed alike and would look like a change of light.
    from companion.vision.detect import Blob
    from companion.vision.reader import static_blobs

    rng = np.random.default_rng(3)
    table = np.clip(rng.normal(150, 6, (240, 320, 3)), 0, 255).astype(np.uint8)
    die = table.copy()
    cv2.rectangle(die, (140, 100), (180, 140), (200, 120, 60), -1)
    cv2.circle(die, (160, 120), 2, (20, 20, 20), -1)
    blob = [Blob(160.0, 120.0, 40.0, 40.0, 0.0)]
    assert not static_blobs(die, table, blob, 40.0)[0]  # rolled onto the table
    assert static_blobs(die, die, blob, 40.0)[0]  # lying there before the roll
    for light in ((0.8, 0.8, 0.8), (0.7, 0.9, 1.1)):  # and the light dimmer or warmer since
        changed = np.clip(die * np.array(light), 0, 255).astype(np.uint8)
        assert static_blobs(changed, die, blob, 40.0)[0], light
        assert not static_blobs(changed, table, blob, 40.0)[0], light


def test_two_places_fitted_onto_one_die_are_proposed_once(monkeypatch) -> None:
    # The finder may keep a die and a piece of it apart; fitted, both boxes land on the die.
    _, after, _, _ = tray_before_and_after()
    reader = DiceReader("d6")
    c = reader._judged(reader._view(after))
    assert len(c.p_die) >= 3
    die, ok = c.fitted[0]
    c.fitted[1] = (replace(die, cx=die.cx + 2.0, cy=die.cy - 1.0), ok)
    c.p_die[:] = 0.01
    c.p_die[0], c.p_die[1], c.p_die[2] = 0.9, 0.95, 0.8
    monkeypatch.setattr(reader, "_judged", lambda *a, **k: c)
    # the surer of the two places on one die, and the other die
    wanted = np.array(sorted(c.fitted[k][0].bbox()[:2] for k in (1, 2)))
    alone = reader.analyse(after)
    assert np.allclose(sorted((d.x, d.y) for d in alone.dice), wanted)
    assert alone.seen is None
    told = reader.analyse(after, expected=2)  # the other die, not the first one again
    assert np.allclose(sorted((d.x, d.y) for d in told.dice), wanted)
    assert told.seen == 2


def test_a_second_look_keeps_the_surer_reading_of_each_place() -> None:
    from companion.vision.reader import Candidates, _merged

    def candidates(places: list[tuple[float, float, float, float]]) -> Candidates:
        """Places (x, y, side, p_die), each read as face 0 for sure."""
        n = len(places)
        faces = np.zeros((n, 6))
        faces[:, 0] = 1.0
        blobs = [Blob(x, y, s, s, 0.0) for x, y, s, _ in places]
        return Candidates(blobs, [(b, True) for b in blobs], [np.zeros((32, 32, 3))] * n,
                          np.zeros((n, 3)), np.zeros((n, 7)), np.array([p for *_, p in places]),
                          faces, 30.0)

    first = candidates([(50, 50, 60, 0.3), (200, 50, 30, 0.9)])  # a big place, a die
    again = candidates([(45, 55, 20, 0.95), (200, 52, 30, 0.6), (300, 300, 30, 0.7)])
    merged, p_die, checked = _merged(first, first.p_die, np.ones(2, bool), again, again.p_die,
                                     np.ones(3, bool))
    # the small die on the big place replaces it, the die stays as first read, a new one joins
    assert [(b.cx, b.cy) for b in merged.blobs] == [(200, 50), (45, 55), (300, 300)]
    assert list(p_die) == [0.9, 0.95, 0.7] and checked.all() and merged.die_side == 30.0


def test_a_tray_still_empty_when_a_roll_is_announced_is_not_read_again(monkeypatch) -> None:
    # The table tells the count before the dice land: while the tray looks as it did empty
    # (a camera's noise aside), there is nothing to look again for. A die on it is new.
    from companion.vision.reader import unchanged

    tray = SyntheticTray("d6", seed=3, keep_scene=True)
    empty, _ = tray.render(faces=[])
    later, _ = tray.render(faces=[])  # the same tray, another frame's sensor grain
    one, _ = tray.render(n_dice=1)
    assert unchanged(later, empty) and not unchanged(one, empty)
    reader = DiceReader("d6")
    passes = []
    judged = reader._judged
    monkeypatch.setattr(reader, "_judged", lambda *a, **k: passes.append(k) or judged(*a, **k))
    assert reader.analyse(later, expected=3, background=empty).dice == ()
    assert len(passes) == 1
    assert reader.analyse(later, expected=3).dice == ()  # no empty tray known: it looks again
    assert len(passes) > 2


def test_an_empty_board_told_of_dice_is_compared_with_itself_once(monkeypatch) -> None:
    # A printed board gives the finder dozens of places; on the bare board none is new, so
    # none is kept and there is no best place left out to rate a kept one against: the
    # places are compared with the empty board in one go, not again one by one.
    import companion.vision.reader as reader_module

    _, _, bare = next(iter(scene_frames("board", 1, 5, empty=True)))
    calls = []
    static = reader_module.static_blobs
    monkeypatch.setattr(reader_module, "static_blobs",
                        lambda view, bg, blobs, side: calls.append(len(blobs))
                        or static(view, bg, blobs, side))
    reading = DiceReader("d6").analyse(bare, expected=3, background=bare)
    assert reading.dice == () and reading.seen == 0
    assert len(calls) == 1 and calls[0] > 0
