"""OUTATIME's screens after a player-eye review: the players table holds names with
descenders and marks in their rows, a lock's dice that do not fit never read like a gain, the
main line's descenders clear the line under it, and the game-over prompt says what to press."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.display import draw
from companion.display.draw import text_boxes
from companion.session import Prompt
from companion.titles.outatime import screens

TRUETYPE = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
NAMES = ["Marty", "Doc", "Wolfgang", "Gypsy", "Jürgen", "Ægir"]


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def table_of(names):
    view = screens.sample_view(len(names))
    for row, name in zip(view["players"], names, strict=True):
        row["name"] = name
    view["turn"] = names[0]
    return view


@pytest.mark.parametrize("font", [None, TRUETYPE], ids=["default", "truetype"])
def test_names_with_descenders_and_marks_keep_to_their_rows(font):
    if font is not None and not font.exists():
        pytest.skip(f"no TrueType font at {font}")
    draw.set_font(str(font) if font else None)
    try:
        for names in (NAMES, NAMES[:4], NAMES[2:5], ["Gypsy", "Jürgen"]):
            view = table_of(names)
            images = screens.players(view)
            for image in images:
                boxes = text_boxes(image)
                named = [(text, box) for text, box in boxes if text in names]
                assert named, boxes
                for text, box in boxes:  # inside the panel
                    assert 0 <= box[0] and 0 <= box[1] and box[2] <= image.width \
                        and box[3] <= image.height, (names, text, box)
                # each name's box touches no other name's, nor the words beside it
                for i, (text, box) in enumerate(named):
                    for other, other_box in named[i + 1:]:
                        assert not overlap(box, other_box), (text, box, other, other_box)
                    for other, other_box in boxes:
                        if other in names or other_box[1] >= box[3] or other_box[3] <= box[1]:
                            continue
                        assert other_box[0] >= box[2], (text, box, other, other_box)
                # the highlighted name lies inside the highlight bar (column 0 is lit only
                # by the bar: the names start at x=2)
                for text, (_x0, y0, _x1, y1) in named:
                    if text == view["turn"]:
                        assert all(image.getpixel((0, y)) for y in range(y0, y1)), (text, y0, y1)
    finally:
        draw.set_font(None)


def test_the_rows_of_a_table_never_share_a_pixel_row():
    images = screens.players(table_of(NAMES))
    for image in images:
        named = sorted(box for text, box in text_boxes(image) if text in NAMES)
        spans = sorted((box[1], box[3]) for box in named)
        for (_a0, a1), (b0, _b1) in zip(spans, spans[1:], strict=False):
            assert a1 <= b0, spans


def test_dice_that_do_not_fit_are_never_a_bare_plus_count():
    for confirmed in (False, True):
        image = screens.lock(list("444533"), 6, "Marty", [("Doc", 1), ("Biff", 1)],
                             confirmed=confirmed)
        words = [text for text, _box in text_boxes(image)]
        gains = [w for w in words if re.fullmatch(r"\+\d+", w)]
        assert not gains, words  # "LOCKED 4 4 +4 / MARTY +6" read as two gains
        assert "MARTY +6" in words
        # what is shown says more dice: the dice drawn and "N more" add up to six, or an
        # ellipsis (three dots, no words) follows the dice
        more = [w for w in words if w.endswith(" more")]
        if more:
            shown = sum(1 for w in words if w in "12345688")
            assert shown + int(more[0].split()[0]) == 6, words


def test_the_main_line_descenders_clear_the_line_under_it():
    image = screens.lock(["flux", "4", "4", "3"], 3, "Jennifer", [("Gypsy", 1)], 1)
    boxes = dict(text_boxes(image))
    main = boxes["Jennifer +3"]
    under = min((box for text, box in text_boxes(image) if box[1] >= main[1] + 4
                 and text != "Jennifer +3"), key=lambda b: b[1])
    assert under[1] - main[3] >= 2, (main, under)


def test_the_game_over_prompt_says_what_to_press():
    view = screens.sample_view(2)
    view["winner"] = "Esmeralda"
    prompt = Prompt("over", "Esmeralda WINS!", ["CONFIRM: new game"])
    image = screens.prompt_screen(prompt, view, None)
    words = [text for text, _box in text_boxes(image)]
    assert "ESMERALDA" in words and "CONFIRM: new game" in words
    hint = dict(text_boxes(image))["CONFIRM: new game"]
    assert all(hint[1] >= box[3] for text, box in text_boxes(image)
               if text != "CONFIRM: new game")  # small, at the bottom


def test_the_player_chosen_to_lose_1_after_a_paradox_is_told_even_with_nothing_to_lose():
    from companion.titles.outatime import rules
    from titles.outatime.positions import lock, make_table, play, roll

    state = make_table(("Ana", "Ben", "Cy"))
    state, _ = play(state, roll("flux", "flux", 88, 88, 5, 5), lock("flux", "flux", 88, 88))
    state, effects = play(state, {"type": "target", "player": "Ben"})
    named = screens.named_screens_for(rules.view(state), effects)
    assert [n for n, _img in named][:2] == ["paradox_loss", "players_0"]
    said = " ".join(t for t, _box in text_boxes(named[0][1]))
    assert "PARADOX" in said and "BEN" in said and "at card start, no effect" in said
