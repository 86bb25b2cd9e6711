"""Golden images through luma's dummy device, and the rules every screen keeps.

Set UPDATE_GOLDEN=1 to rewrite tests/titles/outatime/golden/*.png after a deliberate change
(then look at them). The goldens are drawn for the recommended 2.42" panel (128x64); the
256x64 ones are in golden/256x64/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from luma.core.device import dummy
from PIL import Image, ImageChops

from companion.display import screens as shared
from companion.display.cli import game_screens as title_game_screens
from companion.display.draw import PANELS, panel, readability_problems, text_boxes, using
from companion.titles.outatime import screens as s
from companion.titles.outatime.screens import (
    catalogue,
    lock_summary,
    named_screens_for,
    screens_for,
)
from companion.titles.outatime.screens import sample_view as _view


def game_screens(**kwargs):
    return title_game_screens("outatime", **kwargs)


GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
CATALOGUE = catalogue()
GAME = game_screens(players=4, seed=1985, limit=60)
with using(PANELS["ssd1322-3.12"]):
    WIDE = catalogue()


def on_dummy(image: Image.Image) -> Image.Image:
    device = dummy(width=image.width, height=image.height, mode="1")
    from companion.display.backends import draw_on

    draw_on(device, image)
    return device.image


GOLDENS = [("", n, i) for n, i in CATALOGUE] + [("256x64", n, i) for n, i in WIDE]


@pytest.mark.parametrize("folder,name,image", GOLDENS,
                         ids=[f"{f or '128x64'}-{n}" for f, n, _ in GOLDENS])
def test_golden(folder, name, image):
    shown = on_dummy(image)
    path = GOLDEN / folder / f"{name}.png"
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        shown.save(path)
    assert path.exists(), f"no golden for {name}: run with UPDATE_GOLDEN=1 and look at it"
    golden = Image.open(path).convert("1")
    diff = ImageChops.difference(shown.convert("L"), golden.convert("L")).getbbox()
    assert diff is None, f"{name} differs from {path} in box {diff}"


def assert_on_panel(name, image):
    width, height = panel().size
    assert image.size == (width, height) and image.mode == "1", name
    for text, (x0, y0, x1, y1) in text_boxes(image):
        assert 0 <= x0 and 0 <= y0 and x1 <= width and y1 <= height, (name, text, (x0, y0, x1, y1))


@pytest.mark.parametrize("name,image", CATALOGUE + GAME, ids=[n for n, _ in CATALOGUE + GAME])
def test_text_stays_on_the_panel(name, image):
    assert_on_panel(name, image)


def test_every_screen_draws_text_it_records():
    for name, image in CATALOGUE:
        if name.startswith(("boot", "stall_", "paradox_")):
            continue
        assert text_boxes(image), name


def words(image):
    return " ".join(t for t, _ in text_boxes(image)).replace("-", " ").split()


def test_long_error_wraps_over_pages_and_keeps_every_word():
    message = (
        "the 4 is not needed now: Ana's card needs a 2 next (number dice go on in order "
        "of need). Move the 4 back to the tray and CONFIRM again."
    )
    pages = shared.error(message)
    assert len(pages) >= 2
    shown = []
    for page in pages:
        assert_on_panel("error", page)
        shown += [w for w in words(page) if not (w[0].isdigit() and "/" in w)]
    # every word of the message is on some page, in order, none cut
    body = [w for w in shown if w != "CHECK"]
    assert " ".join(body) == " ".join(message.replace("-", " ").split())


def test_a_word_wider_than_the_panel_is_split_with_a_visible_hyphen():
    pages = shared.error("Supercalifragilisticexpialidociouslyfluxcapacitating")
    lines = [t for p in pages for t, _ in text_boxes(p) if t != "CHECK"]
    assert len(lines) >= 2 and all(line.endswith("-") for line in lines[:-1])
    assert "".join(line.rstrip("-") for line in lines) == (
        "Supercalifragilisticexpialidociouslyfluxcapacitating"
    )


def test_long_names_wrap_on_the_turn_screen():
    img = s.turn("Maximiliana Esmeralda")
    assert_on_panel("turn", img)
    texts = [t for t, _ in text_boxes(img)]
    assert len(texts) >= 2 and "Maximiliana" in texts  # wrapped, not cut; capitals too wide
    assert not readability_problems(img)


@pytest.mark.parametrize("where", ["ssd1309-2.42", "ssd1322-3.12", "ssd1327-1.5"])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_the_scoreboard_shows_every_player_whole_over_as_few_screens_as_it_takes(n, where):
    view = _view(n)
    with using(PANELS[where]):
        images = s.players(view)
        for img in images:
            assert_on_panel("players", img)
    texts = [t for img in images for t, _ in text_boxes(img)]
    for row in view["players"]:
        assert f"{row['cards_completed']}/5" in texts
    names = [t for img in images for t, (x0, _, _, _) in text_boxes(img)
             if t in [r["name"] for r in view["players"]]]
    assert names == [r["name"] for r in view["players"]], "every name, whole, in seat order"
    if where == "ssd1309-2.42":  # four rows a screen; 4 players on one, 6 on two
        assert len(images) == -(-n // 4)
        assert all(not readability_problems(img) for img in images)


def test_the_scoreboard_highlights_whose_turn_it_is():
    view = _view(6)
    view["turn"] = "Esmeralda"
    first, second = s.players(view)
    assert first.tobytes() == s.players({**view, "turn": None})[0].tobytes()
    assert second.tobytes() != s.players({**view, "turn": None})[1].tobytes()


def test_roll_marks_unknown_dice():
    known = s.roll(["2", "3", "4"], "Ana")
    unsure = s.roll(["2", None, "?"], "Ana")
    assert [t for t, _ in text_boxes(unsure)].count("?") == 2
    assert "?" not in [t for t, _ in text_boxes(known)]


@pytest.mark.parametrize("frames", [s.paradox("Ana", 1, [("Ben", 1)]), s.stall("Ana", 1, 1)])
def test_animations_have_several_distinct_frames(frames):
    assert len(frames) >= 3
    distinct = {f.tobytes() for f in frames}
    assert len(distinct) == len(frames)


def test_menu_scrolls_to_keep_the_selection_visible():
    items = [f"item {i}" for i in range(10)]
    for selected in range(10):
        texts = [t for t, _ in text_boxes(shared.menu("LIST", items, selected))]
        assert f"item {selected}" in texts
        assert f"{selected + 1}/10" in texts


def effects_of(*kinds_and_data):
    return [{"kind": k, "text": k, **d} for k, d in kinds_and_data]


def base_view(**extra):
    view = _view(3)
    view.update(extra)
    return view


def test_screens_for_merges_ripples_of_one_number_and_instructions_per_player():
    effects = effects_of(
        ("lock", {"player": "Ana", "dice": ["4", "4", "3"]}),
        ("advance", {"player": "Ana", "number": 4}),
        ("ripple", {"player": "Ben", "number": 4}),
        ("instruction", {"player": "Ben", "spaces": 1}),
        ("advance", {"player": "Ana", "number": 4}),
        ("ripple", {"player": "Ben", "number": 4}),
        ("instruction", {"player": "Ben", "spaces": 1}),
        ("ripple", {"player": "Clara", "number": 4}),
        ("instruction", {"player": "Clara", "spaces": 1}),
        ("advance", {"player": "Ana", "number": 3}),
    )
    named = named_screens_for(base_view(phase="place"), effects)
    names = [n for n, _ in named]
    assert names.count("ripple_0") == 1 and "ripple_1" not in names
    assert names.count("instruction") == 2
    ripple = dict(named)["ripple_0"]
    items = [i for t, _ in text_boxes(ripple)[1:] for i in t.split(", ")]
    assert items == ["Ben +2", "Clara +1"]
    lock = dict(named)["lock"]
    assert "ANA +3" in [t for t, _ in text_boxes(lock)]
    assert lock_summary(effects) == {
        "dice": ["4", "4", "3"],
        "steps": 3,
        "player": "Ana",
        "ripples": [("Ben", 2), ("Clara", 1)],
        "paradox": 0,
    }


def test_screens_for_ends_with_the_decision_or_the_odds():
    odds = {"free_dice": 3, "stall": 0.3, "expected_steps": 0.8, "stall_loss": 1}
    assert [n for n, _ in named_screens_for(base_view(odds=odds), [])] == ["odds"]
    pending = [{"decision": "target", "player": "Ana", "options": ["Ben", "Clara"]}]
    named = named_screens_for(
        base_view(pending=pending), effects_of(("paradox", {"player": "Ana", "size": 1}))
    )
    assert [n for n, _ in named][-1] == "menu_target"
    assert sum(1 for n, _ in named if n.startswith("paradox_")) >= 3


def test_screens_for_a_whole_bot_game_with_six_players():
    screens = game_screens(players=6, seed=7, limit=400)
    assert len(screens) > 50
    for name, image in screens:
        assert_on_panel(name, image)
    assert any(n.endswith("_win") for n, _ in screens)


def test_screens_for_returns_images():
    images = screens_for(base_view(), effects_of(("turn", {"player": "Ana"})))
    assert images and all(isinstance(i, Image.Image) for i in images)


@pytest.mark.parametrize("where", ["ssd1309-2.42", "ssd1322-3.12", "ssd1327-1.5"])
def test_lock_with_many_ripples_and_a_paradox_still_fits(where):
    many = [("Doc", 1), ("Jennifer", 1), ("Biff", 1), ("Lorraine", 1), ("George", 2)]
    with using(PANELS[where]):
        for ripples in (many[:1], many[:2], many):
            for paradox in (0, 1, 2):
                image = s.lock(["flux", "flux", "2", "88", "88"], 1, "Marty", ripples, paradox)
                assert_on_panel("lock", image)
                if where != "ssd1327-1.5":
                    assert not readability_problems(image)


def test_a_proposal_always_asks_for_confirm_and_a_lock_says_whose_steps():
    texts = [t for t, _ in text_boxes(s.lock(["2", "3"], 2, "Ana", [("Ben", 1)]))]
    assert "CONFIRM?" in texts and "ANA +2" in texts
    texts = [t for t, _ in text_boxes(s.lock(["2"], 1, "Esmeralda", confirmed=True))]
    assert "CONFIRM?" not in texts and "Esmeralda +1" in texts  # capitals are too wide


def test_a_stall_says_what_happened_once():
    lost = s.stall("Ana", 1, 1)[-1]
    kept = s.stall("Ben", 2, 0)[-1]
    assert [t for t, _ in text_boxes(lost)] == ["STALL", "ANA -1"]
    words = [t for t, _ in text_boxes(kept)]
    assert words[:2] == ["STALL", "BEN"] and "-2" not in " ".join(words)
    assert "no loss" in " ".join(words)


def test_details_that_do_not_fit_go_on_a_following_screen_in_the_main_lines_letters():
    from companion.display.draw import cap_height
    from companion.display.screens import announce, main_sizes

    first, *rest = announce("STALL", "ANA -1", ["at card start: no loss",
                                                "the turn passes to Ben"])
    assert rest, "two details do not fit one 64-pixel screen in 4 mm letters"
    shown = [t for img in (first, *rest) for t, _ in text_boxes(img)]
    assert "ANA -1" in shown and "to Ben" in " ".join(shown) and "no loss" in " ".join(shown)
    for img in rest:
        assert max(c for _t, c in img.info["text_caps"]) >= cap_height(main_sizes()[-1])
        assert not readability_problems(img)
