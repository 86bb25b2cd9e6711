"""The table session: the camera proposes, a person confirms, the journal records."""

from __future__ import annotations

import pytest
from titles.outatime.positions import DEFAULT_STEPS, KIND, OTHER_STEPS

from companion.content import Pack
from companion.journal import Journal
from companion.session import Session


def make_pack() -> Pack:
    cards = []
    for index, name in enumerate(("Ana", "Ben", "Cy")):
        steps = DEFAULT_STEPS if index == 0 else OTHER_STEPS
        for slot, kind in KIND.items():
            cards.append({"id": f"{name}-{slot}", "kind": kind, "steps": steps[slot],
                          "source": "demo"})
    return Pack(title="outatime", name="test", source="demo", cards=tuple(cards))


def press(session, *names):
    update = None
    for name in names:
        update = session.press(name)
    return update


def pick(session, label_start):
    """Press NEXT until the menu item starting with ``label_start`` is selected, then CONFIRM."""
    for _ in range(64):
        prompt = session.prompt()
        if prompt.options[prompt.selected].startswith(label_start):
            return session.press("confirm")
        session.press("next")
    raise AssertionError(f"no menu item {label_start!r} in {session.prompt().options}")


def set_up(journal, players=("Ana", "Ben")):
    """The table's setup: the players menu, then each player's Active and Next card, each by
    its kind and then the card."""
    session = Session(journal, list(players), lambda title: make_pack(), title="outatime")
    assert session.prompt().title.endswith("PLAYERS")
    pick(session, f"{len(players)}:")
    for name in players:
        assert session.prompt().title == f"{name.upper()}: ACTIVE CARD"
        assert session.prompt().options == ["0.2", "0.3", "0.4"]  # never the TD card
        pick(session, "0.2")
        assert session.prompt().title == f"{name.upper()}: ACTIVE 0.2"
        pick(session, f"{name}-02\t")
        assert session.prompt().title == f"{name.upper()}: NEXT CARD"
        assert session.prompt().options == ["0.3", "0.4"]  # one 0.2 a hand
        pick(session, "0.3")
        pick(session, f"{name}-03a\t")
    assert session.prompt().kind == "roll"
    return session


@pytest.fixture
def journal():
    j = Journal(":memory:")
    yield j
    j.close()


def test_setup_by_menus_then_a_read_roll_is_only_recorded_after_confirm(journal):
    session = set_up(journal)
    update = session.dice(["flux", "2", "88", "5", "5", "5"])
    assert update.prompt.kind == "propose" and update.prompt.title == "ROLL: flux 2 88 5 5 5"
    game = session.match.game
    before = len(journal.actions(game))
    assert session.press("next").prompt.kind == "propose"  # nothing else recorded
    assert len(journal.actions(game)) == before
    update = session.press("confirm")
    assert journal.actions(game)[-1] == {"type": "roll", "dice": ["flux", "2", "88", "5", "5", "5"]}
    assert "Ana rolled flux 2 88 5 5 5" in [e["text"] for e in update.effects]


def test_an_unknown_die_is_asked_for_never_guessed(journal):
    session = set_up(journal)
    update = session.dice(["flux", "?", "88", "5", "5", "5"])
    assert update.prompt.title == "DIE 2: WHICH FACE?"
    assert update.prompt.options == ["flux", "2", "3", "4", "5", "88"]
    assert session.match.state.phase == "roll"  # nothing recorded yet
    update = press(session, "next", "confirm")  # flux -> 2
    assert update.prompt.title == "ROLL: flux 2 88 5 5 5"
    press(session, "confirm")
    assert session.match.state.roll == ("flux", "2", "88", "5", "5", "5")


def test_the_wrong_number_of_dice_is_explained(journal):
    session = set_up(journal)
    update = session.dice(["flux", "2", "88", "5", "5"])
    assert "I see 5 dice, expect 6" in update.error
    assert session.match.state.phase == "roll"


def test_dice_leaving_the_tray_are_proposed_as_a_lock_with_its_outcome(journal):
    session = set_up(journal)
    session.dice(["flux", "2", "3", "88", "5", "5"])
    session.press("confirm")
    update = session.dice(["88", "5", "5"])  # flux, 2 and 3 were moved onto the DeLorean
    assert update.prompt.kind == "propose"
    assert update.prompt.title.startswith("LOCK flux 2 3: +2")
    update = session.press("confirm")
    assert session.match.state.delorean == ("2", "3", "flux")
    assert any(e["kind"] == "advance" for e in update.effects)


def test_a_refused_lock_says_why_and_records_nothing(journal):
    session = set_up(journal)
    session.dice(["flux", "2", "3", "88", "5", "5"])
    session.press("confirm")
    update = session.dice(["flux", "2", "88", "5", "5"])  # only the 3 was moved: not needed yet
    assert "needs a 2 next" in update.error
    assert update.prompt.kind != "propose"
    assert session.match.state.delorean == ()


def test_a_new_roll_of_the_free_dice_is_proposed_as_roll_again(journal):
    session = set_up(journal)
    session.dice(["flux", "2", "3", "88", "5", "5"])
    session.press("confirm")
    session.dice(["88", "5", "5"])
    session.press("confirm")
    update = session.dice(["4", "88", "5"])
    assert update.prompt.title == "ROLL AGAIN: 4 88 5"
    session.press("confirm")
    assert session.match.state.roll == ("4", "88", "5")
    assert session.match.state.rolls_this_turn == 2


def test_end_button_ends_the_turn_only_when_the_rules_allow(journal):
    session = set_up(journal)
    session.dice(["flux", "2", "3", "88", "5", "5"])
    session.press("confirm")
    session.press("end")  # nothing locked yet: ignored
    assert session.match.state.current.name == "Ana"
    session.dice(["88", "5", "5"])
    session.press("confirm")
    update = session.press("end")
    assert session.match.state.current.name == "Ben"
    assert "Ben - ROLL!" in [e["text"] for e in update.effects]


def test_locks_can_be_chosen_with_buttons_biggest_first(journal):
    session = set_up(journal)
    session.dice(["flux", "2", "3", "88", "5", "5"])
    session.press("confirm")
    prompt = session.prompt()
    assert prompt.kind == "place"
    assert prompt.options[0] == "LOCK flux 2 3 88"
    session.press("confirm")
    assert sorted(session.match.state.delorean) == sorted(["flux", "2", "3", "88"])


def test_long_press_undo_takes_back_the_last_action_any_time(journal):
    session = set_up(journal)
    session.dice(["flux", "2", "3", "88", "5", "5"])
    session.press("confirm")
    session.dice(["88", "5", "5"])
    session.press("confirm")
    update = session.press("undo")
    assert update.effects[0]["text"] == "UNDONE: LOCK flux 2 3"
    assert session.match.state.delorean == () and session.match.state.roll[0] == "flux"
    update = session.press("undo")
    assert update.effects[0]["text"].startswith("UNDONE: ROLL")
    assert session.match.state.phase == "roll"


def test_doubleback_is_read_when_the_number_dice_are_rolled_back_into_the_tray(journal):
    session = set_up(journal)
    session.dice(["flux", "2", "3", "88", "88", "88"])
    session.press("confirm")
    session.dice([])
    assert session.prompt().title.startswith("LOCK")  # all six onto the DeLorean
    session.press("confirm")
    update = session.dice(["4", "5"])  # the 2 and 3 came back and were rolled
    assert update.prompt.title == "ROLL AGAIN: 4 5"
    session.press("confirm")
    state = session.match.state
    assert state.doubleback and state.roll == ("4", "5")


def test_a_paradox_target_is_chosen_from_a_menu(journal):
    session = set_up(journal, ("Ana", "Ben", "Cy"))
    session.dice(["flux", "flux", "88", "88", "5", "5"])
    session.press("confirm")
    update = session.dice(["5", "5"])
    assert "PARADOX" in update.prompt.title
    session.press("confirm")
    prompt = session.prompt()
    assert prompt.title == "ANA: PARADOX: WHO -1?" and prompt.options == ["Ben", "Cy"]
    pick(session, "Cy")
    assert session.match.state.current.name == "Ben"


def test_a_restarted_session_resumes_the_unfinished_game(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    session = set_up(journal)
    session.dice(["flux", "2", "3", "88", "5", "5"])
    session.press("confirm")
    journal.close()
    again = Session(Journal(path), ["Ana", "Ben"], lambda title: make_pack(), title="outatime")
    assert again.match is not None and again.match.state.roll[0] == "flux"
    assert again.prompt().kind == "place"


def test_buttons_at_the_wrong_moment_change_nothing(journal):
    session = set_up(journal)
    game = session.match.game
    before = journal.actions(game)
    for name in ("confirm", "end", "back", "next", "prev", "menu", "next", "back"):
        session.press(name)  # MENU opens the roll entry by hand; BACK leaves it
    assert journal.actions(game) == before and session.prompt().kind == "roll"


def test_a_roll_the_camera_cannot_read_is_entered_with_the_buttons(journal):
    session = set_up(journal)
    assert session.press("menu").prompt.title == "DIE 1: WHICH FACE?"
    for steps in (0, 1, 5, 4, 4, 3):  # flux 2 88 5 5 4, each from the top of the list
        press(session, *["next"] * steps, "confirm")
    assert session.prompt().title == "ROLL: flux 2 88 5 5 4"
    session.press("confirm")
    assert session.match.state.roll == ("flux", "2", "88", "5", "5", "4")


def test_setup_takes_two_cards_a_player_and_back_steps_back(journal):
    session = Session(journal, ["Ana", "Ben"], lambda title: make_pack(), title="outatime")
    assert session.prompt().options[session.prompt().selected].startswith("2:")  # everyone
    press(session, "confirm")
    pick(session, "0.3")
    assert session.prompt().options[:2] == ["Ana-03a\t3-3-5-2", "Ana-03b\t4-5-2-3"]
    press(session, "back")  # the kind again
    assert session.prompt().title == "ANA: ACTIVE CARD"
    pick(session, "0.2")
    pick(session, "Ana-02\t")
    press(session, "back")  # the Active card again
    assert session.prompt().title == "ANA: ACTIVE CARD"
    pick(session, "0.2")
    pick(session, "Ben-02\t")  # a card of the pack nobody holds yet
    pick(session, "0.4")
    pick(session, "Ana-04\t")
    deal = journal.actions(session.match.game)[-1]
    assert deal == {"type": "deal", "player": "Ana", "cards": ["Ben-02", "Ana-04"],
                    "active": "Ben-02", "next": "Ana-04"}
    assert session.prompt().title == "BEN: ACTIVE CARD"
    assert session.prompt().options == ["0.2", "0.3", "0.4"]
    pick(session, "0.2")
    assert "Ben-02\t5-2-3" not in session.prompt().options  # Ana holds it
    update = press(session, "undo")  # a recorded choice is taken back like any action
    assert update.effects[0]["text"] == "UNDONE: DEAL"
    assert session.prompt().title == "ANA: ACTIVE CARD"


def test_a_rematch_takes_the_same_cards_in_one_press(journal):
    first = set_up(journal)
    journal.finish(first.match.game)
    session = Session(journal, ["Ana", "Ben"], lambda title: make_pack(), title="outatime")
    press(session, "confirm")  # both players
    prompt = session.prompt()
    assert prompt.options[0] == "SAME CARDS AS LAST GAME" and prompt.selected == 0
    press(session, "confirm")
    assert session.prompt().kind == "roll"
    ana = session.match.state.player("Ana")
    assert (ana.active, ana.next) == ("Ana-02", "Ana-03a")


def test_the_game_menu_starts_at_the_game_played_last(journal):
    from companion import titles

    first = set_up(journal)
    journal.finish(first.match.game)
    session = Session(journal, ["Ana", "Ben"], lambda title: make_pack())
    prompt = session.prompt()
    assert prompt.options[prompt.selected] == titles.get("outatime").facts.name


def test_the_players_menu_starts_on_everyone_and_back_steps_back_to_the_game_menu(journal):
    from companion import titles

    session = Session(journal, ["Ana", "Ben", "Cy"], lambda title: make_pack())
    assert session.prompt().title == "CHOOSE GAME"
    press(session, "confirm")
    prompt = session.prompt()
    assert prompt.title.endswith("PLAYERS") and prompt.options[prompt.selected].startswith("3:")
    press(session, "back")
    prompt = session.prompt()
    assert prompt.title == "CHOOSE GAME"
    assert prompt.options[prompt.selected] == titles.get("outatime").facts.name


def test_undo_before_the_first_action_corrects_the_number_of_players(journal):
    session = Session(journal, ["Ana", "Ben", "Cy"], lambda title: make_pack(), title="outatime")
    press(session, "confirm")  # three players, though two meant to play
    first = session.match.game
    assert session.prompt().title == "ANA: ACTIVE CARD"
    update = press(session, "undo")
    assert update.effects == [{"kind": "undo", "text": "UNDONE: NEW GAME"}]
    assert session.match is None and session.prompt().title.endswith("PLAYERS")
    pick(session, "2:")
    assert session.match.game != first and len(session.match.state.players) == 2
    assert journal.unfinished() == session.match.game  # the empty game is never resumed
    # Once something is recorded, UNDO takes it back first, then leaves the game.
    second = session.match.game
    pick(session, "0.2")
    pick(session, "Ana-02\t")
    pick(session, "0.3")
    pick(session, "Ana-03a\t")
    assert press(session, "undo").effects[0]["text"] == "UNDONE: DEAL"
    assert session.match.game == second and session.prompt().title == "ANA: ACTIVE CARD"
    press(session, "undo")
    assert session.match is None and journal.unfinished() is None


def test_a_card_kind_menu_starts_on_the_kind_a_hand_holds_most(journal):
    session = Session(journal, ["Ana", "Ben"], lambda title: make_pack(), title="outatime")
    press(session, "confirm")
    prompt = session.prompt()
    assert prompt.options == ["0.2", "0.3", "0.4"] and prompt.options[prompt.selected] == "0.3"


def test_redo_puts_back_what_undo_took_back_and_says_so(journal):
    session = set_up(journal)
    session.dice(["flux", "2", "3", "88", "5", "5"])
    session.press("confirm")
    session.dice(["88", "5", "5"])
    session.press("confirm")
    locked = session.match.to_json()
    session.press("undo")
    session.press("undo")
    assert session.match.state.phase == "roll"
    update = session.press("redo")
    assert update.effects[0] == {"kind": "redo",
                                 "text": "REDONE: ROLL flux 2 3 88 5 5"}
    assert update.redone["type"] == "roll" and session.match.state.roll[0] == "flux"
    update = session.press("redo")
    assert update.effects[0]["text"] == "REDONE: LOCK flux 2 3"
    # what the lock did the first time is announced again after the REDONE line
    assert len(update.effects) > 1 and update.error is None
    assert session.match.to_json() == locked
    update = session.press("redo")  # nothing left to put back: said, nothing changes
    assert update.error.startswith("nothing to redo") and session.match.to_json() == locked


def test_a_new_action_after_undo_ends_the_redo_history(journal):
    session = set_up(journal)
    session.dice(["flux", "2", "3", "88", "5", "5"])
    session.press("confirm")
    session.press("undo")
    session.dice(["4", "4", "5", "5", "88", "2"])  # rolled again instead
    session.press("confirm")
    update = session.press("redo")
    assert update.error.startswith("nothing to redo") and update.redone is None
    assert session.match.state.roll == ("4", "4", "5", "5", "88", "2")


def test_redo_survives_a_restart(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    session = set_up(journal)
    session.dice(["flux", "2", "3", "88", "5", "5"])
    session.press("confirm")
    session.press("undo")
    journal.close()
    again = Session(Journal(path), ["Ana", "Ben"], lambda title: make_pack(), title="outatime")
    update = again.press("redo")
    assert update.effects[0]["text"] == "REDONE: ROLL flux 2 3 88 5 5"
    again.journal.close()


def test_a_press_that_does_nothing_now_says_why(journal):
    session = set_up(journal)
    update = session.press("end")  # the roll is not in yet: the rules' reason
    assert update.error == "END TURN: cannot end the turn now: Ana is to roll 6 dice"
    update = session.press("confirm")  # nothing to confirm: what the table waits for
    assert update.error.startswith("CONFIRM: not now; the table waits for: ")
    assert "ROLL" in update.error
    session.dice(["flux", "2", "3", "88", "5", "5"])
    update = session.press("end")  # a proposal is up
    assert update.error == "END TURN: not now; CONFIRM records the proposal, BACK says no"
    session.press("confirm")
    update = session.press("end")  # nothing locked yet
    assert update.error.startswith("END TURN: ") and session.match.state.current.name == "Ana"
    update = session.press("back")  # a menu with nothing to go back to
    assert update.error == "BACK: not now; choose with NEXT/PREV, then CONFIRM"


def test_a_wrong_press_in_the_face_picker_and_the_title_menus_says_why(journal):
    session = Session(journal, ["Ana", "Ben"], lambda title: make_pack(), title="menu")
    update = session.press("end")
    assert update.error == "END TURN: not now; choose with NEXT/PREV, then CONFIRM"
    assert session.press("undo").error == "nothing to undo: no game is in play"
    assert session.press("redo").error == "nothing to redo: no game is in play"
    session = set_up(journal)
    session.press("menu")  # the face picker
    update = session.press("end")
    assert update.error.startswith("END TURN: not now; pick the face")
    assert update.prompt.title == "DIE 1: WHICH FACE?"  # still picking


def test_undo_after_the_game_ended_reopens_it_without_its_last_action(tmp_path):
    """Everything recorded can be taken back: the winning action too, after CONFIRM left the
    winner's screen and after a restart, until a new game starts."""
    import random

    from companion.bots import play

    path = tmp_path / "journal.db"
    journal = Journal(path)
    session = Session(journal, ["Ana", "Ben"], lambda title: make_pack(), title="outatime")
    pick(session, "2:")
    match = session.match
    moves = list(play(match.engine, match.state, random.Random(5)))
    for action, _state, _effects in moves[:-1]:
        match.push(action)
    session.match.state = match.state
    update = session.push([moves[-1][0]])
    assert update.prompt.kind == "over" and journal.games()[-1]["finished"] is not None
    press(session, "confirm")  # leaves the winner for the title's players menu
    assert session.match is None and session.prompt().title.endswith("PLAYERS")
    update = press(session, "undo")
    assert update.effects[0]["text"].startswith("UNDONE:") and update.undone == moves[-1][0]
    assert session.match.actor() != "terminal" and journal.games()[-1]["finished"] is None
    assert len(journal.actions(session.match.game)) == len(moves) - 1
    update = press(session, "redo")  # and it can be put back
    assert update.prompt.kind == "over" and journal.games()[-1]["finished"] is not None
    journal.close()

    journal = Journal(path)  # the table restarted after the win: the game is not resumed
    session = Session(journal, ["Ana", "Ben"], lambda title: make_pack(), title="outatime")
    assert session.match is None
    update = press(session, "undo")
    assert update.undone == moves[-1][0] and session.match.actor() != "terminal"
    press(session, "redo")
    press(session, "confirm")
    pick(session, "2:")  # a new game: UNDO no longer reaches the one before
    update = press(session, "undo")
    assert update.effects[0]["text"] == "UNDONE: NEW GAME" and session.match is None
    assert press(session, "undo").error == "nothing to undo: no game is in play"
    journal.close()


def test_a_clear_reading_while_the_face_picker_is_up_replaces_it():
    """The picker asked for die 3; the camera then reads it clearly: the roll proposed is the
    camera's, never the picker's first offer for a die it no longer asks about."""
    journal = Journal(":memory:")
    session = set_up(journal)
    update = session.dice(["flux", "2", "?", "88", "5", "5"])
    assert update.prompt.title == "DIE 3: WHICH FACE?"
    update = session.dice(["flux", "2", "3", "88", "5", "5"])
    assert update.prompt.kind == "propose" and update.prompt.title == "ROLL: flux 2 3 88 5 5"
    press(session, "confirm")
    assert journal.actions(session.match.game)[-1]["dice"] == ["flux", "2", "3", "88", "5", "5"]


def test_the_players_menu_is_titled_with_the_short_name_that_fits_the_panel():
    from companion.content import demo_pack
    from companion.display.draw import text_boxes
    from companion.display.screens import menu

    for title, expected in (("timeline", "CARD GAME: PLAYERS"), ("eras", "1955-2015: PLAYERS"),
                            ("outatime", "OUTATIME: PLAYERS")):
        session = Session(Journal(":memory:"), ["Ana", "Ben", "Cy"], demo_pack, title=title)
        prompt = session.prompt()
        assert prompt.title == expected
        shown = [text for text, _box in text_boxes(menu(prompt.title, prompt.options))]
        assert shown[0] == expected  # whole, not "Back to the Future: The Car."
