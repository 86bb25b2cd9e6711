"""Back in Time at the table: the session's menus, readings of the coloured dice, proposals,
refusals, undo and resume, with the demo pack (its invented board is drawn in bit_table.py)."""

from __future__ import annotations

import pytest
from bit_table import PACK, table_session

from companion.content import Pack
from companion.journal import Journal
from companion.session import Session
from companion.titles.back_in_time import odds, rules

NAMES = ["Ana", "Ben", "Cy", "Dee"]
OPENING = ("opp-01", "opp-02", "opp-03")  # opp-01 lies at the Clock Tower: knowledge 1


def start(journal, characters=("marty", "doc"), cards=OPENING, actions=()):
    return table_session(journal, characters, cards, actions)


def pick(session, label):
    """NEXT until the item starting with ``label`` is selected, then CONFIRM."""
    for _ in range(80):
        prompt = session.prompt()
        if prompt.options and prompt.options[prompt.selected].startswith(label):
            return session.press("confirm")
        session.press("next")
    raise AssertionError(f"no item {label!r} in {session.prompt().options}")


def recorded(session):
    return session.journal.actions(session.match.game)


TO_CLOCK_TOWER = [{"type": "move", "tile": "marty-4"}, {"type": "step", "to": "clock-tower"}]
FIGHT = [*TO_CLOCK_TOWER, {"type": "challenge", "challenge": "biff"},
         {"type": "add", "tile": "marty-2"}, {"type": "add", "tile": "marty-3"}, {"type": "ready"}]


@pytest.fixture
def journal():
    j = Journal(":memory:")
    yield j
    j.close()


# --------------------------------------------------------------------------- setup and draws


def test_setup_is_menus_characters_then_each_card_drawn_in_two_small_steps(journal):
    session = Session(journal, NAMES[:2], lambda key: PACK, title="back_in_time")
    pick(session, "2:")
    assert session.prompt().title == "ANA: WHO?"
    assert session.prompt().options == ["MARTY", "DOC", "JENNIFER", "EINSTEIN"]
    pick(session, "DOC")
    assert session.prompt().options == ["MARTY", "JENNIFER", "EINSTEIN"]
    pick(session, "MARTY")
    # 24 Opportunity cards: four groups of six, named by what differs ("Demo opportunity 1")
    prompt = session.prompt()
    assert prompt.title == "DRAWN: OPPORTUNITY?"
    assert prompt.options == ["1 - 6", "7 - 12", "13 - 18", "19 - 24"]
    before = len(recorded(session))
    pick(session, "7 - 12")
    assert len(recorded(session)) == before  # opening a group records nothing
    assert session.prompt().options[:2] == ["Demo opportunity 7", "Demo opportunity 8"]
    pick(session, "Demo opportunity 9")
    assert recorded(session)[-1] == {"type": "draw", "deck": "opportunity", "card": "opp-09"}
    assert session.match.state.opportunities == ("opp-09",)


def test_back_goes_up_one_step_and_keeps_the_group_selected(journal):
    session = Session(journal, NAMES[:2], lambda key: PACK, title="back_in_time")
    pick(session, "2:")
    pick(session, "MARTY")
    pick(session, "DOC")
    pick(session, "13 - 18")
    assert session.prompt().options[0] == "Demo opportunity 13"
    session.press("next")
    update = session.press("back")
    assert update.prompt.options[update.prompt.selected] == "13 - 18"
    assert len(recorded(session)) == 2  # the two characters only


def test_undo_in_the_middle_of_a_menu_in_steps_takes_back_the_last_action(journal):
    session = start(journal)
    assert session.prompt().title == "ANA: CHOOSE"
    pick(session, "MOVE")
    assert session.prompt().title == "ANA: MOVE WITH"
    update = session.press("undo")
    assert update.undone == {"type": "draw", "deck": "opportunity", "card": "opp-03"}
    prompt = session.prompt()  # the third card is to be drawn again, from the first step
    assert prompt.title == "DRAWN: OPPORTUNITY?" and prompt.options[0] == "3 - 8"
    assert len(session.match.state.opportunities) == 2


def test_a_restarted_session_resumes_the_game_and_the_decision(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    session = start(journal, actions=TO_CLOCK_TOWER)
    prompt = session.prompt()
    journal.close()
    again = Session(Journal(path), NAMES[:2], lambda key: PACK, title="back_in_time")
    assert again.prompt().title == prompt.title and again.prompt().options == prompt.options
    assert again.match.state.current.place == "clock-tower"
    again.journal.close()


# --------------------------------------------------------------------------- the turn


def test_the_turn_menu_holds_moves_challenges_and_powers_in_groups(journal):
    session = start(journal)
    assert session.prompt().options == ["MOVE", "THIS IS HEAVY", "END TURN"]
    pick(session, "MOVE")
    assert session.prompt().options == ["marty-1: 3 SPACES", "marty-2: 2 SPACES",
                                        "marty-3: 4 SPACES", "marty-4: 1 SPACE",
                                        "marty-5: 2 SPACES"]
    pick(session, "marty-4")
    assert recorded(session)[-1] == {"type": "move", "tile": "marty-4"}
    prompt = session.prompt()
    assert prompt.title == "ANA: 1 STEP LEFT"
    # while moving, the steps come first, then stopping, then the rest of the turn
    assert prompt.options[:5] == ["TO Hill Valley High", "TO Maple Ave", "TO Cedar Ln",
                                  "TO Clock Tower", "STOP MOVING"]
    pick(session, "TO Clock Tower")
    assert session.prompt().options[0] == "CHALLENGE"
    pick(session, "CHALLENGE")
    assert session.prompt().options == ["FIGHT BIFF", "PART: HOOK", "OPP: Demo opportunity 1"]


def test_escorting_is_offered_while_moving_where_george_or_lorraine_stands(journal):
    session = start(journal, actions=[
        {"type": "move", "tile": "marty-3"}, {"type": "step", "to": "hill-valley-high"},
        {"type": "step", "to": "elm-st"}, {"type": "step", "to": "george-house"}])
    assert session.prompt().options[:3] == ["TO Elm St", "TO Pine St", "ESCORT GEORGE"]
    pick(session, "ESCORT GEORGE")
    assert recorded(session)[-1] == {"type": "escort", "who": "george"}
    assert "LEAVE GEORGE" in session.prompt().options
    update = pick(session, "TO Pine St")
    assert [e["text"] for e in update.effects] == ["Ana and GEORGE to Pine St",
                                                   "GEORGE stays at Pine St"]
    assert session.match.state.npcs["george"] == "pine-st"


JENNIFER_AWAY = [{"type": "move", "tile": "jennifer-2"},
                 {"type": "step", "to": "hill-valley-high"}, {"type": "step", "to": "elm-st"}]


def test_a_power_that_calls_one_of_several_players_asks_who_then_where(journal):
    # Jennifer walks two spaces off; FOLLOW ME then asks for Ben or Cy, then where to
    session = start(journal, characters=("jennifer", "doc", "marty"), actions=JENNIFER_AWAY)
    pick(session, "FOLLOW ME")
    assert session.prompt().options == ["BEN", "CY"]
    pick(session, "CY")
    assert session.prompt().title == "CY: TO WHERE?"
    places = session.prompt().options
    assert places == ["TO Hill Valley High", "TO Maple Ave", "TO Elm St"]
    pick(session, "TO Elm St")
    assert recorded(session)[-1] == {"type": "power", "who": "Cy", "to": "elm-st"}
    assert session.match.state.player("Cy").place == "elm-st"


def test_with_one_player_to_call_the_power_names_them_in_each_item(journal):
    session = start(journal, characters=("jennifer", "doc"), actions=JENNIFER_AWAY)
    pick(session, "FOLLOW ME")
    assert session.prompt().options == ["BEN TO Hill Valley High", "BEN TO Maple Ave",
                                        "BEN TO Elm St"]


def test_the_end_button_ends_the_turn_only_when_the_rules_allow(journal):
    session = start(journal, actions=FIGHT[:3])  # in a challenge: no turn end
    before = len(recorded(session))
    session.press("end")
    assert len(recorded(session)) == before
    session.press("back")  # out of nothing: changes nothing either
    pick(session, "CALL OFF")
    update = session.press("end")
    assert recorded(session)[-2:] == [{"type": "cancel"}, {"type": "end"}]
    assert "Ben's turn" in [e["text"] for e in update.effects]


def test_a_player_over_the_tile_limit_returns_one_from_a_menu(journal):
    # a pack whose opp-01 gives four Power Tiles: 5 + 4 is one over the limit of 8
    sections = {k: [dict(e) for e in v] for k, v in PACK.sections.items()}
    for card in sections["opportunity"]:
        if card["id"] == "opp-01":
            card["reward"] = ["tile+4"]
    pack = Pack("back_in_time", "test", "demo", sections=sections)
    draws = [{"type": "draw", "deck": "tile", "card": t}
             for t in ("std-17", "std-20", "std-22", "std-01")]
    session = table_session(journal, actions=[
        *TO_CLOCK_TOWER, {"type": "challenge", "challenge": "opportunity", "card": "opp-01"},
        {"type": "add", "tile": "marty-5"}, {"type": "ready"},
        {"type": "roll", "dice": ["knowledge:knowledge"]}, {"type": "resolve"}, *draws],
        pack=pack)
    prompt = session.prompt()
    assert prompt.title == "ANA: RETURN A TILE"
    assert prompt.options[:2] == ["marty-1 move 3 speed", "marty-2 move 2 courage"]
    assert "std-17 to wild" in prompt.options and "std-22 reroll all" in prompt.options
    pick(session, "std-01")
    assert recorded(session)[-1] == {"type": "discard", "player": "Ana", "tile": "std-01"}
    assert session.prompt().title == "DRAWN: OPPORTUNITY?"  # opp-01's replacement


# --------------------------------------------------------------------------- the dice


def test_choosing_the_dice_shows_the_exact_odds_and_the_players_who_can_add_one(journal):
    # Ana and Ben (Doc) walk to Hill Valley High; Ana prepares the Cable (2 knowledge), Ben
    # assists with his knowledge tiles
    session = start(journal, actions=[
        {"type": "move", "tile": "marty-4"}, {"type": "step", "to": "hill-valley-high"},
        {"type": "end"}, {"type": "move", "tile": "doc-3"},
        {"type": "step", "to": "hill-valley-high"}, {"type": "end"},
        {"type": "challenge", "challenge": "part", "part": "cable"}])
    prompt = session.prompt()
    assert prompt.title == "ANA: PREPARE DELOREAN"
    layout = session.match.state.content.faces
    one = odds.chance(layout, ["knowledge"], {"knowledge": 2})
    assert prompt.options[0] == f"+KNOWLEDGE {round(100 * one)}%"  # the colour needed
    assert prompt.options[-1] == "CALL OFF"
    pick(session, "+KNOWLEDGE")  # Ana's tile and Ben's two: a second step says whose
    assert session.prompt().options == ["marty-5 (move 2)", "Ben: doc-1 (move 2)",
                                        "Ben: doc-2 (move 3)"]
    pick(session, "Ben: doc-1")
    assert recorded(session)[-1] == {"type": "add", "tile": "doc-1", "player": "Ben"}
    # Ana must roll a die of her own: no ROLL item before she adds one
    assert not any(o.startswith("ROLL") for o in session.prompt().options)
    pick(session, "+KNOWLEDGE")
    assert session.prompt().options == ["marty-5 (move 2)", "Ben: doc-2 (move 3)"]
    pick(session, "marty-5")
    assert recorded(session)[-1] == {"type": "add", "tile": "marty-5"}
    two = odds.chance(layout, ["knowledge", "knowledge"], {"knowledge": 2})
    options = session.prompt().options
    assert options[0] == f"ROLL 2 DICE: {round(100 * two)}%"
    assert not any("KNOWLEDGE" in o for o in options)  # two dice of a colour at most


def test_a_die_only_one_tile_gives_is_added_in_one_step(journal):
    session = start(journal, actions=FIGHT[:3])  # Ana alone at the Clock Tower, Fight Biff
    layout = session.match.state.content.faces
    p = round(100 * odds.chance(layout, ["courage"], {"courage": 1}))
    assert session.prompt().options[0] == f"+COURAGE {p}% marty-2"
    session.press("confirm")
    assert recorded(session)[-1] == {"type": "add", "tile": "marty-2"}


def test_the_roll_is_read_as_colour_and_face_and_recorded_only_after_confirm(journal):
    session = start(journal, actions=FIGHT)
    prompt = session.prompt()
    assert prompt.kind == "roll" and prompt.title == "ANA: ROLL!"
    assert prompt.dice == ["courage", "love"]
    before = len(recorded(session))
    update = session.dice(["love:biff", "courage:courage"])
    assert update.prompt.kind == "propose"
    assert len(recorded(session)) == before
    update = session.press("confirm")
    assert recorded(session)[-1] == {"type": "roll", "dice": ["love:biff", "courage:courage"]}
    assert [e["kind"] for e in update.effects] == ["roll", "lock"]
    view = session.match.view()["challenge"]
    assert [(d["colour"], d["face"], d["locked"]) for d in view["dice"]] == [
        ("courage", "courage", False), ("love", "biff", True)]


def test_readings_that_do_not_fit_the_roll_say_why_and_record_nothing(journal):
    session = start(journal, actions=FIGHT)
    before = len(recorded(session))
    update = session.dice(["love:love"])
    assert update.error == ("I see 1 die, expect 2 (COURAGE, LOVE): move them apart in the "
                            "tray")
    update = session.dice(["speed:speed", "love:love"])
    assert update.error == ("I see SPEED SPEED, LOVE LOVE; the dice to roll are COURAGE, LOVE")
    update = session.dice(["courage:love", "love:love"])  # no love face on a courage die
    assert update.error.startswith("the courage die has no love face")
    update = session.dice(["courage:wild", "love:love", "speed:speed"])
    assert update.error.endswith("set the others aside")
    assert session.press("confirm").prompt.kind == "roll"  # nothing to confirm
    assert len(recorded(session)) == before


def test_an_unsure_face_is_asked_for_with_only_its_colours_faces(journal):
    session = start(journal, actions=FIGHT)
    update = session.dice(["courage:?", "love:wild"])
    assert update.prompt.kind == "menu" and update.prompt.title == "DIE 1: WHICH FACE?"
    assert update.prompt.options == ["COURAGE COURAGE", "COURAGE WILD", "COURAGE BIFF"]
    session.press("next")
    update = session.press("confirm")
    assert update.prompt.kind == "propose"
    session.press("confirm")
    assert recorded(session)[-1] == {"type": "roll", "dice": ["courage:wild", "love:wild"]}


def test_an_unsure_colour_is_the_one_left_or_asked_for(journal):
    session = start(journal, actions=FIGHT)
    # one colour is left to roll: it is that die's
    assert session.dice(["?:courage", "love:love"]).prompt.kind == "propose"
    assert session.proposal[0]["dice"] == ["courage:courage", "love:love"]
    # both are unsure: the picker offers the colours being rolled that show that face
    update = session.dice(["?:wild", "?:biff"])
    assert update.prompt.options == ["COURAGE WILD", "LOVE WILD"]


def test_menu_while_rolling_enters_the_roll_by_hand_die_by_die(journal):
    session = start(journal, actions=FIGHT)
    update = session.press("menu")
    assert update.prompt.options == ["COURAGE COURAGE", "COURAGE WILD", "COURAGE BIFF"]
    session.press("confirm")
    assert session.prompt().options == ["LOVE LOVE", "LOVE WILD", "LOVE BIFF"]
    session.press("prev")
    session.press("confirm")
    session.press("confirm")
    assert recorded(session)[-1] == {"type": "roll", "dice": ["courage:courage", "love:biff"]}


# --------------------------------------------------------------------------- reroll, resolve


def rolled(journal, *dice):
    session = start(journal, actions=FIGHT)
    session.dice(list(dice))
    session.press("confirm")
    return session


def test_the_best_reroll_is_proposed_first_with_its_odds_and_marked_dice(journal):
    session = rolled(journal, "courage:courage", "love:love")
    prompt = session.prompt()
    assert prompt.kind == "rolled" and prompt.dice == ["courage:courage", "love:love"]
    best = rules.odds_now(session.match.state)
    assert best["reroll"] == [1]
    assert prompt.options[0] == f"REROLL LOVE: {round(100 * best['chance_after'])}%"
    # the other die alone may be rerolled too ("reroll any unlocked dice")
    assert prompt.options[1:] == ["REROLL 2 DICE", "RESOLVE: 1 COURAGE", "REROLL COURAGE"]
    session.press("confirm")
    assert recorded(session)[-1] == {"type": "reroll", "dice": [1]}
    assert session.prompt().title == "ANA: ROLL AGAIN!"


@pytest.mark.parametrize("tray", [
    ["love:wild"],  # the kept die set aside
    ["courage:courage", "love:wild"],  # the kept die left in the tray
])
def test_a_reroll_is_read_beside_or_without_the_kept_dice(journal, tray):
    session = rolled(journal, "courage:courage", "love:love")
    session.press("confirm")  # REROLL LOVE
    update = session.dice(tray)
    assert update.prompt.kind == "propose" and session.proposal[0]["dice"] == ["love:wild"]
    session.press("confirm")
    assert session.match.state.challenge["stage"] == "modify"
    prompt = session.prompt()
    assert prompt.options[0] == "RESOLVE: 2 COURAGE"
    update = session.dice(["courage:biff", "love:wild"])  # rolled again: no second reroll
    assert update.error == "the reroll is used: MODIFY or RESOLVE"
    update = session.press("confirm")
    assert [e["kind"] for e in update.effects] == ["result", "knockdown", "tokens"]


def test_the_reader_is_told_the_count_only_when_every_die_of_the_challenge_is_rolled(journal):
    session = start(journal, actions=FIGHT)
    assert session.dice_expected() == 2  # the first roll: the two dice chosen, nothing else
    session.dice(["courage:courage", "love:love"])
    session.press("confirm")
    assert session.dice_expected() is None  # deciding: no roll due
    session.press("confirm")  # REROLL LOVE
    assert session.dice_expected() is None  # the kept courage die may lie in the tray too


def test_while_the_dice_to_reroll_are_picked_up_the_table_waits_quietly(journal):
    session = rolled(journal, "courage:courage", "love:love")
    session.press("confirm")  # REROLL LOVE
    update = session.dice(["courage:courage"])  # the love die is in a hand
    assert update.error is None and update.prompt.kind == "roll"
    assert session.dice([]).prompt.kind == "roll"  # an empty tray: nothing either


def test_locked_biff_dice_in_the_tray_are_told_apart_from_the_reroll(journal):
    # Fight Biff with three dice: the love die shows Biff (locked), the speed die is rerolled
    session = start(journal, actions=[*FIGHT[:-1], {"type": "add", "tile": "marty-1"},
                                      {"type": "ready"}])
    session.dice(["courage:courage", "love:biff", "speed:speed"])
    session.press("confirm")
    assert session.prompt().options[0].startswith("REROLL SPEED")
    session.press("confirm")
    update = session.dice(["love:biff", "speed:biff", "courage:courage"])
    assert session.proposal[0]["dice"] == ["speed:biff"], update.error
    session.press("confirm")
    assert [d["face"] for d in session.match.state.challenge["dice"]] == [
        "courage", "biff", "biff"]


THREE = [*FIGHT[:-1], {"type": "add", "tile": "marty-1"}, {"type": "ready"}]


def test_any_set_of_unlocked_dice_is_rerolled_through_choose_dice(journal):
    session = start(journal, actions=THREE)
    session.dice(["courage:courage", "love:love", "speed:speed"])
    session.press("confirm")
    top = session.prompt().options
    pick(session, "CHOOSE DICE")
    prompt = session.prompt()
    assert prompt.title == "ANA: REROLL WHICH?"
    # the seven sets of three dice, less those on the menu itself
    assert len(prompt.options) == 7 - sum(1 for o in top if o.startswith("REROLL"))
    assert "SPEED" in prompt.options and "COURAGE + LOVE" in prompt.options, top
    pick(session, "SPEED")
    assert recorded(session)[-1] == {"type": "reroll", "dice": [2]}
    update = session.dice(["courage:courage", "love:love", "speed:wild"])
    assert session.proposal[0]["dice"] == ["speed:wild"], update.error
    session.press("confirm")
    assert [d["face"] for d in session.match.state.challenge["dice"]] == [
        "courage", "love", "wild"]


def test_undoing_a_reroll_names_how_many_dice(journal):
    session = rolled(journal, "courage:courage", "love:love")
    session.press("confirm")  # REROLL LOVE
    assert session.press("undo").effects[0]["text"] == "UNDONE: REROLL 1 DIE"
    pick(session, "REROLL 2 DICE")
    assert session.press("undo").effects[0]["text"] == "UNDONE: REROLL 2 DICE"


def test_the_menu_leaves_off_rerolls_of_a_wild_die(journal):
    # Legal, never useful: a wild die counts as any symbol already.
    session = rolled(journal, "courage:wild", "love:love")
    options = session.prompt().options
    assert "CHOOSE DICE" not in options and "REROLL COURAGE" not in options
    assert [o.split(":")[0] for o in options if o.startswith("REROLL")] == ["REROLL LOVE"]
    assert {"type": "reroll", "dice": [0]} in session.match.legal_actions()


def test_many_other_rerolls_are_grouped_by_how_many_dice(journal, monkeypatch):
    from companion.titles.back_in_time import table as bit_table
    monkeypatch.setattr(bit_table, "OTHER_REROLLS_FLAT", 2)
    session = start(journal, actions=THREE)
    session.dice(["courage:courage", "love:love", "speed:speed"])
    session.press("confirm")
    pick(session, "CHOOSE DICE")
    assert session.prompt().options[0] == "1 DIE"
    pick(session, "2 DICE")
    assert all(" + " in o for o in session.prompt().options)
    pick(session, "COURAGE + SPEED")
    assert recorded(session)[-1] == {"type": "reroll", "dice": [0, 2]}


def test_dice_that_change_after_the_roll_without_reroll_are_refused(journal):
    session = rolled(journal, "courage:courage", "love:biff")
    assert session.dice(["courage:courage"]).error is None  # the Biff set aside: fine
    update = session.dice(["courage:wild", "love:biff"])
    assert update.error == "to reroll, choose REROLL on the menu first, then roll those dice"
    assert recorded(session)[-1]["type"] == "roll"


def test_a_modifier_is_a_menu_of_its_source_then_the_die(journal):
    # Ana wins opp-01 (a Power Tile), draws std-17 (Change to Wild), then fights Biff
    session = start(journal, actions=[
        *TO_CLOCK_TOWER, {"type": "challenge", "challenge": "opportunity", "card": "opp-01"},
        {"type": "add", "tile": "marty-5"}, {"type": "ready"},
        {"type": "roll", "dice": ["knowledge:knowledge"]}, {"type": "resolve"},
        {"type": "draw", "deck": "tile", "card": "std-17"}, *FIGHT[2:]])
    session.dice(["courage:courage", "love:love"])
    session.press("confirm")
    prompt = session.prompt()
    assert prompt.options[-1] == "MODIFY"
    pick(session, "MODIFY")
    assert session.prompt().options == ["TO WILD: std-17"]
    pick(session, "TO WILD")
    assert session.prompt().options == ["DIE 1: COURAGE COURAGE", "DIE 2: LOVE LOVE"]
    pick(session, "DIE 2")
    assert recorded(session)[-1] == {"type": "modify", "tile": "std-17", "die": 1}
    prompt = session.prompt()
    assert prompt.dice == ["courage:courage", "love:wild"] and prompt.options == [
        "RESOLVE: 2 COURAGE"]


def test_the_refusals_the_title_page_quotes_are_the_tables_own(journal):
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs/titles/back_in_time.md").read_text()
    doc = " ".join(doc.split())
    session = start(journal, actions=FIGHT)
    for reading in (["love:love"], ["speed:speed", "love:love"], ["courage:love", "love:love"]):
        message = session.dice(reading).error
        assert f"`{message.split(' (its faces')[0].split('; check')[0]}`" in doc, message
    session.dice(["courage:courage", "love:biff"])
    session.press("confirm")
    message = session.dice(["courage:wild", "love:biff"]).error
    assert f"`{message}`" in doc


def test_a_lost_game_is_said_game_over_not_nobody_wins():
    """Lost together, nobody wins: the prompt in words (the terminal, the log) says GAME OVER
    as the panel's GAME LOST does, never "nobody WINS!"."""
    from bit_table import END, arrange, run, table
    from test_back_in_time_setup import tracker_pack

    session = table_session(Journal(":memory:"))
    lost, _effects = run(arrange(table(2, content=tracker_pack(["love", "move"])), photos=1),
                         END)
    assert lost.result == "lost" and rules.winners(lost) == []
    session.match.state = lost  # the game as the tracker's last photo leaves it
    prompt = session.prompt()
    assert (prompt.kind, prompt.title, prompt.lines) == ("over", "GAME OVER",
                                                         ["CONFIRM: new game"])
