"""The Card Game's screens: they fit every panel size, the table can read them, they say what
happened in order, and the map shows the TimeLine as it stands."""

from __future__ import annotations

import pytest
from timeline_table import sections

from companion.content import Pack
from companion.display.cli import game_screens
from companion.display.draw import Panel, readability_problems, text_boxes, using
from companion.journal import Journal
from companion.session import Session
from companion.titles.timeline import rules as tl
from companion.titles.timeline import screens

PANELS = [Panel(), Panel(256, 64), Panel(128, 128)]


def words(image) -> list[str]:
    return [text for text, _box in text_boxes(image)]


def fits(image, panel: Panel) -> list[str]:
    problems = []
    if image.size != (panel.width, panel.height):
        problems.append(f"size {image.size}")
    for text, (x0, y0, x1, y1) in text_boxes(image):
        if x0 < 0 or y0 < 0 or x1 > panel.width or y1 > panel.height:
            problems.append(f"{text!r} at {(x0, y0, x1, y1)}")
    return problems


def kind(name: str) -> str:
    parts = name.split("_")
    if parts[0] == "game":
        parts = parts[3:]
    if len(parts) > 1 and parts[-1].isdigit():
        parts = parts[:-1]
    return "_".join(parts)


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: f"{p.width}x{p.height}")
def test_every_screen_fits_every_panel_and_table_screens_are_big_enough(panel):
    with using(panel):
        images = screens.catalogue() + game_screens("timeline", players=6, seed=2, limit=120)
        problems = []
        for name, image in images:
            problems += [f"{name}: {p}" for p in fits(image, panel)]
            if kind(name) in screens.TABLE_SCREENS:
                problems += [f"{name}: {p}" for p in readability_problems(image)]
    assert not problems, "\n".join(problems[:20])


def test_every_table_screen_kind_has_a_sample_in_the_catalogue():
    names = {kind(name) for name, _image in screens.catalogue()}
    shown_only_with_game_data = {"fizzle", "no_card", "undo", "redo", "setup", "put_back",
                                 "draw_instead", "mulligan"}
    missing = screens.TABLE_SCREENS - names - shown_only_with_game_data
    assert not missing


def test_the_flip_screen_says_what_to_turn_in_order_and_marks_it_on_the_map():
    grid = ["XXXXXX", "#.....", "......", "......"]
    image = screens.flip(["A-2", "A-6", "A-5"], grid)
    assert words(image)[:3] == ["FLIP A-2", "then A-6,", "A-5"]
    # The map: A-1 altered is filled; B-2 original is an empty frame; A-2 (to turn) has a dot
    # of the other colour in the middle.
    cells = image.info["map_cells"]

    def centre(eid: str) -> int:
        x0, y0, x1, y1 = cells[eid]
        return image.getpixel(((x0 + x1) // 2, (y0 + y1) // 2))

    def corner(eid: str) -> int:
        x0, y0, _x1, _y1 = cells[eid]
        return image.getpixel((x0 + 1, y0 + 1))

    assert centre("A-1") and corner("A-1")  # altered
    assert not centre("B-2") and not corner("B-2")  # original: an empty frame
    assert not centre("A-2") and corner("A-2")  # altered, to turn now: a hole in the middle
    assert centre("B-1") and corner("B-1")  # the B-1 stack is crossed
    x0, _y0, x1, _y1 = cells["A-6"]
    assert x1 < image.width and cells["A-1"][0] < x0  # left to right, on the panel


def test_a_flip_with_a_long_list_of_ripples_also_gives_the_whole_list_in_words():
    flips = ["C-1", "C-2", "C-3", "D-3", "D-4", "D-5", "D-6", "C-5", "C-6"]
    named = screens.flip_screens(flips, ["......"] * 4)
    assert [n for n, _i in named][:2] == ["flip", "flip_1"]
    said = " ".join(w for _n, image in named[1:] for w in words(image))
    for event in flips[1:]:
        assert event in said


def test_announcements_follow_the_effects_in_order_merged_where_they_repeat():
    state = tl.new_game(["Ana", "Ben"], {}, sections())
    while state.phase == "setup":
        state, _effects = tl.apply(state, tl.legal_actions(state)[0])
    state, effects = tl.apply(state, {"type": "draw"})
    assert screens.named_screens_for(tl.view(state), effects) == []  # the prompt asks
    state, effects = tl.apply(state, {"type": "play", "card": "time-train", "event": "A-2"})
    named = screens.named_screens_for(tl.view(state), effects)
    assert [n for n, _i in named] == ["play"]  # the card, its target, the Memo call: one
    assert words(named[0][1]) == ["ANA PLAYS", "Time Train", "on A-2"]
    state, effects = tl.apply(state, {"type": "pass"})
    named = screens.named_screens_for(tl.view(state), effects)
    assert [n for n, _i in named] == ["flip", "extra"]
    state, _effects = tl.apply(state, {"type": "draw_instead"})
    state, effects = tl.apply(state, {"type": "draw"})
    named = screens.named_screens_for(tl.view(state), effects)
    assert [n for n, _i in named] == ["turn"]
    assert words(named[0][1])[:3] == ["BEN", "DRAW 1,", "PLAY 1"]


def test_b1_screens_give_the_odds_and_the_claim_says_what_is_still_wrong():
    assert words(screens.b1(4, 0.25)[0]) == ["B-1!", "TURN OVER the top", "card",
                                             "clock: 1 in 4 (25%)"]
    assert words(screens.dud(3)[0]) == ["Mysterious", "Forces", "set it aside: 3 left"]
    image = screens.claim("Ana", "Verne Brown", ["A-5", "C-5"])[0]
    assert words(image) == ["ANA: Verne Brown", "NOT MET", "still wrong: A-5, C-5"]
    assert words(screens.claim("Ana", "Verne Brown", [])[0])[1] == "ID MET!"


def test_every_prompt_of_a_game_has_its_screen():
    """Walk a table game through a prompt of every kind and draw each with the title's
    screens (the table's own prompt_screen)."""
    from companion.table import Table

    journal = Journal(":memory:")
    try:
        session = Session(journal, ["Ana", "Ben"], lambda title: Pack(
            "timeline", "test", "demo", sections=sections()), title="timeline")
        table = Table(session)
        seen = {}

        def show(prompt) -> None:
            image = table.prompt_screen(prompt, session.match.view() if session.match else {})
            assert image.size == (128, 64) and words(image), prompt
            seen.setdefault(prompt.kind, words(image))

        def choose(label: str) -> None:
            for _ in range(40):
                prompt = session.prompt()
                show(prompt)
                if prompt.options[prompt.selected].startswith(label):
                    show(session.press("confirm").prompt)
                    return
                show(session.press("next").prompt)
            raise AssertionError(label)

        for label in ("2:", "DEALT", "ALL KEEP", "DONE", "Time Machine", "Tm", "B-1",
                      "NO MEMO", "THE CLOCK", "Jay"):
            choose(label)
        show(session.prompt())
        assert {"deal", "menu", "draw", "target", "window", "reveal", "claim"} <= set(seen)
        assert seen["deal"] == ["DEAL", "3 cards and an ID", "card each", "then CONFIRM"]
        assert seen["draw"] == ["ANA", "DRAW 1", "then CONFIRM"]
        assert seen["target"][0] == "FLIP A-1?"
        assert seen["window"] == ["MEMO?", "Tm on B-1", "clock: 20%", "CONFIRM: none"]
    finally:
        journal.close()


def test_the_winner_keeps_a_long_name_whole_and_the_over_prompt_says_what_to_press():
    from companion.session import Prompt

    image = screens.winner("Esmeralda")
    shown = [text for text, _box in text_boxes(image)]
    assert "ESMERALDA" in shown or "Esmeralda" in shown, shown  # not "ESMERA."
    assert not any(w.endswith(".") for w in shown)
    over = screens.prompt_screen(Prompt("over", "Esmeralda WINS!", ["CONFIRM: new game"]),
                                 {"winner": "Esmeralda"}, None)
    assert "CONFIRM: new game" in [text for text, _box in text_boxes(over)]
