"""Shared screens after a player-eye review: a menu item gets smaller letters or two lines
before it is cut, and the winner says what to press (reusable by every title)."""

from __future__ import annotations

from companion.display import screens
from companion.display.draw import readability_problems, text_boxes


def words(image) -> list[str]:
    return [text for text, _box in text_boxes(image)]


def test_a_long_menu_item_is_smaller_or_on_two_lines_before_it_is_cut_but_stays_readable():
    from companion.display.draw import cap_height

    items = ["ROLL 1 DIE: 83%", "+LOVE 97% marty-3", "+KNOWLEDGE 92% marty-5", "CALL OFF"]
    for selected in range(len(items)):
        image = screens.menu("ANA: INFLUENCE LOVE", items, selected)
        shown = words(image)[1:]
        assert "+LOVE 97% marty-3" in shown  # smaller, whole
        boxes = [box for _text, box in text_boxes(image)]
        for i, a in enumerate(boxes):
            assert 0 <= a[0] and 0 <= a[1] and a[2] <= image.width and a[3] <= image.height
            for b in boxes[i + 1:]:
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), shown
        # never letters of 5-pixel capitals: too long even so, an item is shortened visibly
        assert min(cap for _text, cap in image.info["text_caps"]) >= cap_height(9)
    image = screens.menu("ANA: INFLUENCE LOVE", items, 2)
    assert "+KNOWLEDGE 92% m." in words(image)


def test_the_winner_says_what_to_press_small_at_the_bottom():
    image = screens.winner("Esmeralda")
    boxes = dict(text_boxes(image))
    assert "ESMERALDA" in boxes and "WINS!" in boxes
    hint = boxes["CONFIRM: new game"]
    assert hint[3] <= image.height
    assert all(box[3] <= hint[1] for text, box in boxes.items() if text != "CONFIRM: new game")
    assert not readability_problems(image)
    assert words(screens.winner("Ana", hint=""))[-1] != "CONFIRM: new game"
    assert "press START" in words(screens.winner("Ana", hint="press START"))
