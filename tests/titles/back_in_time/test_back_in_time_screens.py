"""Back in Time's screens: big enough for the whole table, nothing cut, the roll with its locked
Biff dice, the tracker phase and a challenge's outcome announced step by step, in order."""

from __future__ import annotations

from bit_table import END, next_turn, play, run, table, table_session

from companion.display.draw import Panel, readability_problems, text_boxes, using
from companion.journal import Journal
from companion.titles.back_in_time import rules, screens
from companion.titles.back_in_time.table import BackInTimeTable

FIGHT = [{"type": "move", "tile": "marty-4"}, {"type": "step", "to": "clock-tower"},
         {"type": "challenge", "challenge": "biff"}, {"type": "add", "tile": "marty-2"}]


def words(images) -> list[str]:
    return [text for image in images for text, _box in text_boxes(image)]


def names(view, effects) -> list[str]:
    return [name for name, _img in screens.named_screens_for(view, effects)]


def test_a_long_instruction_goes_on_following_screens_each_big_enough_nothing_cut():
    detail = ("the DeLorean is not in the Ready Zone; Love is not in the Heart Zone; the last "
              "photo is face down")
    images = screens.say("GAME LOST", *screens._pieces(detail))
    assert len(images) >= 2
    for image in images:
        assert not readability_problems(image)
        assert "GAME LOST" in words([image])  # every screen keeps its big line
    told = " ".join(w for w in words(images) if w != "GAME LOST")
    assert told.split() == detail.replace(";", ",").replace(",", "").split()


def test_screens_lay_out_by_the_panel_they_are_drawn_for():
    with using(Panel(256, 64)):
        wide = screens.say("FLIP 1 PHOTO", "5 left face up")
    with using(Panel(128, 128)):
        tall = screens.say("FLIP 1 PHOTO", "a long detail " * 6)
    assert wide[0].size == (256, 64) and words(wide)[0] == "FLIP 1 PHOTO"  # one line there
    assert tall[0].size == (128, 128) and len(tall) == 1
    for image in wide + tall:
        for _text, (x0, y0, x1, y1) in text_boxes(image):
            assert 0 <= x0 and 0 <= y0 and x1 <= image.width and y1 <= image.height


def test_the_roll_shows_what_it_gives_and_fills_in_the_locked_biff_dice():
    image = screens.roll({"symbol": "courage", "need": {"courage": 1}},
                         ["courage:courage", "love:biff", "speed:wild"])
    assert words([image]) == ["2 COURAGE", "B", "1 BIFF: LOCKED"]
    assert not readability_problems(image)
    # the Biff die (the middle one) is drawn filled in; the others are outlines
    def lit(x0, x1):
        return sum(image.getpixel((x, y)) > 0 for x in range(x0, x1) for y in range(20, 40))

    third = image.width // 3
    assert lit(third + 10, 2 * third - 10) > 2 * lit(2 * third + 5, image.width - 10)


def test_a_fight_is_announced_as_what_to_do_with_biff():
    state = table()
    state = play(state, {"type": "move", "tile": "marty-4"}, {"type": "step", "to": "clock-tower"})
    state, _ = run(state, {"type": "challenge", "challenge": "biff"},
                   {"type": "add", "tile": "marty-2"}, {"type": "add", "tile": "marty-3"},
                   {"type": "ready"}, {"type": "roll", "dice": ["courage:courage", "love:wild"]})
    state, effects = run(state, {"type": "resolve"})
    view = rules.view(state)
    shown = screens.named_screens_for(view, effects)
    assert [n for n, _i in shown] == ["knockdown", "tokens"]  # the count is on them
    assert words([i for _n, i in shown]) == ["BIFF DOWN!", "lay his mover down", "+1 TOKENS",
                                             "put 1 Knockdown", "Token on Biff"]


def test_biff_dice_and_the_love_check_are_merged_into_the_move_they_cause():
    effects = [
        {"kind": "result", "text": "2 love symbols", "count": 2},
        {"kind": "love", "text": "LOVE +2", "delta": 2, "space": 7},
        {"kind": "biff_love", "text": "BIFF die: Biff is with George"},
        {"kind": "love", "text": "LOVE -1", "delta": -1, "space": 6},
        {"kind": "love_check", "text": "LOVE CHECK: 1 photo", "zone": "plain"},
        {"kind": "photo", "text": "FLIP 1 PHOTO", "count": 1, "left": 5},
    ]
    shown = screens.named_screens_for({}, effects)
    assert [n for n, _i in shown] == ["love", "love", "photo"]
    assert words([shown[1][1]]) == ["LOVE -1", "Biff is with them", "cube to space 6"]
    assert words([shown[2][1]]) == ["FLIP 1", "PHOTO", "love check, 5 left"]


def test_the_tracker_phase_is_announced_step_by_step():
    state = next_turn(table(), 1)  # Ben's turn, tracker on space 4
    state, effects = run(state, END)  # Ana's turn: space 5 of the demo's 2-player column, move2
    assert names(rules.view(state), effects) == ["turn", "tracker", "draw"]
    state, effects = run(state, {"type": "draw", "deck": "movement", "card": "mv-02"})
    shown = screens.named_screens_for(rules.view(state), effects)
    assert [n for n, _i in shown] == ["movement", "npc", "npc", "npc", "draw"]
    assert [words([i]) for _n, i in shown[1:4]] == [
        ["GEORGE", "1 step to", "George's House"], ["LORRAINE", "1 step to", "Elm St"],
        ["BIFF", "1 step to", "Elm St"]]
    assert words([shown[-1][1]]) == ["DRAW", "1 Movement card"]  # the second card of move2
    for _name, image in shown:
        assert not readability_problems(image)


def test_the_rolled_menu_underlines_the_dice_the_selected_reroll_takes():
    journal = Journal(":memory:")
    session = table_session(journal, actions=[
        *FIGHT, {"type": "add", "tile": "marty-3"}, {"type": "ready"},
        {"type": "roll", "dice": ["courage:courage", "love:love"]}])
    assert isinstance(session.table, BackInTimeTable)
    prompt = session.prompt()
    view = session.match.view()
    first = screens.prompt_screen(prompt, view, session)  # REROLL LOVE: the love die
    session.press("next")
    second = screens.prompt_screen(session.prompt(), view, session)  # REROLL 2 DICE: both
    under = [[first.getpixel((x, 18)) for x in range(first.width)],
             [second.getpixel((x, 18)) for x in range(second.width)]]
    assert 0 < sum(map(bool, under[0])) < sum(map(bool, under[1]))
    session.press("next")
    third = screens.prompt_screen(session.prompt(), view, session)  # RESOLVE: nothing
    assert not any(third.getpixel((x, 18)) for x in range(third.width))
    journal.close()


def test_the_face_picker_speaks_words_not_readings():
    journal = Journal(":memory:")
    session = table_session(journal, actions=[*FIGHT, {"type": "ready"}])
    update = session.dice(["courage:?"])
    # the shared menu draws the picker; its items are the words of the faces offered
    assert screens.prompt_screen(update.prompt, session.match.view(), session) is None
    assert update.prompt.options == ["COURAGE COURAGE", "COURAGE WILD", "COURAGE BIFF"]
    journal.close()


def test_the_catalogue_names_every_screen_the_table_reads():
    named = {name.rsplit("_", 1)[0] if name.rsplit("_", 1)[-1].isdigit() else name
             for name, _img in screens.catalogue()}
    for kind in ("turn", "tracker", "draw", "npc", "love", "photo", "roll", "roll_prompt",
                 "propose", "win", "lose"):
        assert kind in named and kind in screens.TABLE_SCREENS


def test_the_roll_prompt_is_one_screen_with_the_odds_and_shorter_words_for_a_long_name():
    challenge = {"odds": {"chance": 0.5833, "need": {"knowledge": 2}}}
    image = screens.roll_prompt("ANA: ROLL!", ["knowledge", "knowledge"], challenge, "Ana")
    assert words([image]) == ["ANA: ROLL!", "2 KNOWLEDGE", "58% to succeed"]
    image = screens.roll_prompt("ESMERALDA: ROLL AGAIN!", ["speed"], None, "Esmeralda", True)
    assert words([image]) == ["ESMERALDA:", "ROLL AGAIN!", "1 SPEED"]  # two big lines fit
    image = screens.roll_prompt("ESMERALDA: ROLL AGAIN!", ["speed", "courage"], None,
                                "Esmeralda", True)
    assert words([image]) == ["ROLL!", "Esmeralda, again", "1 SPEED, 1", "COURAGE"]
    assert not readability_problems(image)


def test_an_opportunity_won_is_announced_card_first_then_the_reward_to_draw():
    state = play(table(), {"type": "move", "tile": "marty-4"},
                 {"type": "step", "to": "clock-tower"},
                 {"type": "challenge", "challenge": "opportunity", "card": "opp-01"},
                 {"type": "add", "tile": "marty-5"}, {"type": "ready"},
                 {"type": "roll", "dice": ["knowledge:knowledge"]})
    state, effects = run(state, {"type": "resolve"})
    shown = screens.named_screens_for(rules.view(state), effects)
    assert [(n, words([i])) for n, i in shown] == [
        ("result", ["SUCCESS!"]), ("discard", ["DISCARD", "Demo opportunity 1"]),
        ("draw", ["DRAW", "Ana: 1 Power Tile"])]


def test_the_game_over_prompt_says_what_to_press():
    from companion.session import Prompt

    for view in ({"result": "won"}, {"result": "lost", "reason": "Love is not in the Heart "
                                     "Zone; the DeLorean is not in the Ready Zone"}):
        image = screens.prompt_screen(Prompt("over", "WINS!", ["CONFIRM: new game"]), view,
                                      None)
        boxes = text_boxes(image)
        assert boxes[0][0] == "CONFIRM: new game" or "CONFIRM: new game" in words([image])
        hint = dict(boxes)["CONFIRM: new game"]
        assert all(box[3] <= hint[1] for text, box in boxes if text != "CONFIRM: new game")
        for _text, (x0, y0, x1, y1) in boxes:
            assert 0 <= x0 and 0 <= y0 and x1 <= image.width and y1 <= image.height


def test_a_reroll_says_it_or_them_by_the_dice_rolled_again():
    view = {"challenge": {"dice": [{"colour": "courage"}, {"colour": "love"}]}}
    one = screens.named_screens_for(view, [{"kind": "reroll", "text": "", "dice": [0]}])
    two = screens.named_screens_for(view, [{"kind": "reroll", "text": "", "dice": [0, 1]}])
    assert words([one[0][1]])[-1] == "roll it again"
    assert words([two[0][1]])[-1] == "roll them again"
