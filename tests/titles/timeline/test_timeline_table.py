"""The Card Game at the table: the menus a player walks, what they record, what they refuse.

The table never sees a hand: draws and ID cards are recorded as counts, and a card is named
only when it is played, from a menu by type, then name, then target.
"""

from __future__ import annotations

import pytest
from timeline_table import sections

from companion.buttons import BACK, CONFIRM, END, MENU, NEXT, PREV, UNDO
from companion.content import Pack
from companion.journal import Journal
from companion.session import Session
from companion.titles.timeline import rules as tl

PLAYERS = ("Ana", "Ben", "Cy")


def scenario_pack() -> Pack:
    """The rule scenarios' pack (timeline_table.py) as a content pack."""
    return Pack("timeline", "test", "demo", sections=sections())


@pytest.fixture
def journal():
    j = Journal(":memory:")
    yield j
    j.close()


def press(session, *names):
    update = None
    for name in names:
        update = session.press(name)
    return update


def pick(session, label):
    """Select the menu item ``label`` with NEXT, then CONFIRM (a label ending with ":" picks
    the item that starts with it: the number of players)."""
    for _ in range(64):
        prompt = session.prompt()
        item = prompt.options[prompt.selected]
        if item == label or (label.endswith(":") and item.startswith(label)):
            return session.press(CONFIRM)
        session.press(NEXT)
    raise AssertionError(f"no menu item {label!r} in {session.prompt().options}")


def actions(session):
    return session.journal.actions(session.match.game)


def start(journal, players=PLAYERS, keep=True, dealer=None) -> Session:
    """A table game: players chosen, the cards and IDs dealt (CONFIRM), everyone keeps.
    With ``dealer`` (a simulation) the cards drawn are named."""
    session = Session(journal, list(players), lambda title: scenario_pack(), title="timeline")
    pick(session, f"{len(players)}:")
    session.table.dealer = dealer
    assert session.prompt().kind == "deal"
    session.press(CONFIRM)
    if keep:
        pick(session, "ALL KEEP")
    return session


def play_turn_start(session) -> None:
    """The current player draws (CONFIRM)."""
    assert session.prompt().kind == "draw"
    session.press(CONFIRM)


# --------------------------------------------------------------------------- setup


def test_the_deal_is_one_confirm_and_names_no_card(journal):
    session = Session(journal, list(PLAYERS), lambda title: scenario_pack(), title="timeline")
    pick(session, "3:")
    prompt = session.prompt()
    assert prompt.kind == "deal" and prompt.lines[1:3] == ["DEAL", "3 cards and an ID card each"]
    assert press(session, NEXT).prompt.kind == "deal" and actions(session) == []
    session.press(CONFIRM)
    recorded = actions(session)
    assert [a["type"] for a in recorded] == ["draw"] * 9 + ["deal_id"] * 3
    assert all("card" not in a and "id" not in a for a in recorded)
    prompt = session.prompt()
    assert prompt.title == "KEEP YOUR IDs?"
    assert prompt.options == ["ALL KEEP", "ANA: NEW ID", "BEN: NEW ID", "CY: NEW ID"]


def test_mulligan_from_the_menu_records_the_new_id_then_all_keep_starts_the_game(journal):
    session = start(journal, keep=False)
    update = pick(session, "BEN: NEW ID")
    assert actions(session)[-2:] == [{"type": "mulligan", "player": "Ben"},
                                     {"type": "deal_id", "player": "Ben"}]
    assert "Ben: SET your ID card aside and take another" in [e["text"] for e in update.effects]
    assert session.prompt().options == ["ALL KEEP", "ANA: NEW ID", "CY: NEW ID"]
    update = pick(session, "ALL KEEP")
    assert actions(session)[-1] == {"type": "keep"}
    assert update.effects[-1]["kind"] == "turn" and update.effects[-1]["player"] == "Ana"
    prompt = session.prompt()
    assert (prompt.kind, prompt.title, prompt.lines) == (
        "draw", "ANA: DRAW 1", ["ANA", "DRAW 1", "then CONFIRM"])


# --------------------------------------------------------------------------- a play


def test_a_play_by_type_then_name_then_target_is_recorded_only_at_the_last_choice(journal):
    session = start(journal)
    play_turn_start(session)
    assert actions(session)[-1] == {"type": "draw", "player": "Ana"}
    prompt = session.prompt()
    assert prompt.title == "ANA: PLAY"
    assert prompt.options == ["Item", "Time Machine", "DoubleBack", "Action", "Power Action",
                              "DRAW INSTEAD"]
    before = len(actions(session))
    pick(session, "Time Machine")
    prompt = session.prompt()
    assert prompt.title == "TIME MACHINE?"
    assert prompt.options == ["Time Train", "Tm", "Tm A2 Only", "Tm No B1", "Tm Plutonium"]
    pick(session, "Time Train")
    prompt = session.prompt()
    assert prompt.kind == "target" and prompt.title == "FLIP WHICH LINCHPIN?"
    assert prompt.options[:3] == ["A-1 then B-6", "A-2 then A-6", "A-3 then A-4"]
    assert "B-2 then B-3" not in prompt.options  # only the Almanac's holder may change B-2
    assert prompt.options[-1] == "B-1: un-invent time travel"
    assert len(actions(session)) == before  # nothing recorded while choosing
    update = pick(session, "A-2 then A-6")
    assert actions(session)[-1] == {"type": "play", "player": "Ana", "card": "time-train",
                                    "event": "A-2"}
    assert [e["kind"] for e in update.effects] == ["play", "target", "pending"]
    prompt = session.prompt()
    assert prompt.kind == "window" and prompt.title == "MEMO?"
    assert prompt.options == ["NO MEMO", "Ben", "Cy"]
    assert prompt.lines == ["Time Train on A-2", "CONFIRM: none"]
    update = session.press(CONFIRM)  # nobody plays a Memo
    assert actions(session)[-1] == {"type": "pass"}
    flip = next(e for e in update.effects if e["kind"] == "flip")
    assert flip["flips"] == ["A-2", "A-6"] and flip["text"] == "FLIP A-2 · then A-6"
    assert session.prompt().title == "ANA: PLAY"  # the Time Train's extra play


def test_a_card_without_a_target_is_recorded_when_chosen(journal):
    session = start(journal)
    play_turn_start(session)
    pick(session, "Item")
    assert session.prompt().options == ["Almanac", "Fax", "Plutonium", "Ravine Map", "Reactor",
                                        "Rock", "Telegram"]
    pick(session, "Ravine Map")
    assert actions(session)[-1] == {"type": "play", "player": "Ana", "card": "ravine-map"}
    update = session.press(CONFIRM)
    assert update.effects[0]["kind"] == "item" and update.effects[0]["name"] == "Ravine Map"


def test_a_refused_play_says_why_and_the_menu_stays_on_the_card(journal):
    session = start(journal)
    play_turn_start(session)
    pick(session, "DRAW INSTEAD")  # Ana changes nothing this turn
    assert actions(session)[-2:] == [{"type": "draw_instead", "player": "Ana"},
                                     {"type": "draw", "player": "Ana"}]
    play_turn_start(session)  # Ben
    pick(session, "Action")
    before = len(actions(session))
    update = pick(session, "Hitch")
    assert update.error == "Hitch: Ana did not change the TimeLine"
    assert len(actions(session)) == before
    prompt = session.prompt()
    assert prompt.title == "ACTION?" and prompt.options[prompt.selected] == "Hitch"
    press(session, BACK)
    pick(session, "Time Machine")
    update = pick(session, "Tm Plutonium")
    assert update.error == "Tm Plutonium needs Plutonium in front of you"


def test_back_steps_back_through_the_menu_and_keeps_the_choice_selected(journal):
    session = start(journal)
    play_turn_start(session)
    pick(session, "DoubleBack")
    assert session.prompt().title == "DOUBLEBACK?"
    prompt = press(session, BACK).prompt
    assert prompt.title == "ANA: PLAY" and prompt.options[prompt.selected] == "DoubleBack"
    pick(session, "Time Machine")
    pick(session, "Tm")
    assert session.prompt().kind == "target"
    prompt = press(session, BACK).prompt
    assert prompt.title == "TIME MACHINE?" and prompt.options[prompt.selected] == "Tm"
    prompt = press(session, BACK, BACK).prompt  # BACK on the first menu changes nothing
    assert prompt.title == "ANA: PLAY"
    assert actions(session)[-1] == {"type": "draw", "player": "Ana"}


def test_undo_in_the_middle_of_a_menu_drops_the_choices_and_the_last_action(journal):
    session = start(journal)
    play_turn_start(session)
    pick(session, "Time Machine")
    pick(session, "Tm")
    update = session.press(UNDO)
    assert update.undone == {"type": "draw", "player": "Ana"}
    assert update.effects[0]["text"] == "UNDONE: a card dealt or drawn"
    assert session.prompt().kind == "draw"
    play_turn_start(session)
    assert session.prompt().title == "ANA: PLAY"  # the half-made choice is gone


def test_end_turn_selects_the_second_draw_option_and_confirm_records_it(journal):
    session = start(journal)
    play_turn_start(session)
    pick(session, "Time Machine")
    prompt = press(session, END).prompt
    assert prompt.title == "ANA: PLAY" and prompt.options[prompt.selected] == "DRAW INSTEAD"
    assert actions(session)[-1] == {"type": "draw", "player": "Ana"}  # nothing recorded yet
    again = press(session, END)  # pressed again: it says what CONFIRM does, never nothing
    assert again.error == "END TURN: DRAW INSTEAD is selected; CONFIRM draws instead of playing"
    assert again.prompt.options[again.prompt.selected] == "DRAW INSTEAD"
    session.press(CONFIRM)
    assert actions(session)[-2:] == [{"type": "draw_instead", "player": "Ana"},
                                     {"type": "draw", "player": "Ana"}]
    assert session.prompt().title == "BEN: DRAW 1"


def test_a_restarted_session_resumes_at_the_same_decision(journal):
    session = start(journal)
    play_turn_start(session)
    pick(session, "Time Machine")
    pick(session, "Tm")
    pick(session, "A-3 then A-4")
    assert session.prompt().kind == "window"
    again = Session(journal, list(PLAYERS), lambda title: scenario_pack(), title="timeline")
    prompt = again.prompt()
    assert (prompt.kind, prompt.options) == ("window", ["NO MEMO", "Ben", "Cy"])
    assert again.match.state.stack[-1]["event"] == "A-3"


# --------------------------------------------------------------------------- Memos


def to_window(session, card="Tm", event="A-2 then A-6") -> None:
    play_turn_start(session)
    pick(session, "Time Machine")
    pick(session, card)
    pick(session, event)


def test_any_player_raises_a_memo_from_the_menu(journal):
    session = start(journal)
    to_window(session)
    prompt = press(session, NEXT, NEXT).prompt  # the window's menu: NO MEMO, Ben, Cy
    assert prompt.kind == "window" and prompt.options[prompt.selected] == "Cy"
    session.press(CONFIRM)
    prompt = session.prompt()
    assert prompt.title == "CY: WHICH?"
    assert prompt.options == ["Memo", "PLAY Insight", "PLAY Snatch"]
    update = pick(session, "Memo")
    assert actions(session)[-1] == {"type": "memo", "player": "Cy", "card": "memo"}
    memo = next(e for e in update.effects if e["kind"] == "memo")
    assert memo["against_name"] == "Tm" and memo["event"] == "A-2"
    assert session.prompt().lines == ["Cy's Memo", "CONFIRM: none"]  # a Memo may be memo'd
    update = session.press(CONFIRM)
    assert [e["kind"] for e in update.effects][:1] == ["cancel"]
    assert tl.view(session.match.state)["altered"] == []


def test_a_long_press_raises_a_memo_and_memo_items_are_offered_to_their_holder(journal):
    session = start(journal, players=("Ana", "Ben"))
    play_turn_start(session)
    pick(session, "Item")
    pick(session, "Fax")
    session.press(CONFIRM)  # Ben lets the Fax go in front of Ana
    play_turn_start(session)  # Ben's turn
    to_window_ben = ("Time Machine", "Tm", "A-3 then A-4")
    for label in to_window_ben:
        pick(session, label)
    prompt = press(session, MENU).prompt  # one player may answer: straight to their choice
    assert prompt.title == "ANA: WHICH?"
    assert prompt.options == ["Memo", "Fax (in front)", "PLAY Insight", "PLAY Snatch"]
    assert press(session, BACK).prompt.kind == "window"  # BACK: the window again
    press(session, MENU)
    pick(session, "Fax (in front)")
    assert actions(session)[-1] == {"type": "memo", "player": "Ana", "card": "fax"}


def test_with_several_players_a_long_press_asks_who_plays_the_memo(journal):
    session = start(journal)
    to_window(session)
    prompt = press(session, MENU).prompt
    assert prompt.title == "WHO PLAYS A MEMO?" and prompt.options == ["Ben", "Cy"]
    pick(session, "Ben")
    assert session.prompt().title == "BEN: WHICH?"


def test_an_out_of_turn_card_with_a_target_asks_for_it(journal):
    session = start(journal, players=("Ana", "Ben"))
    play_turn_start(session)
    pick(session, "Item")
    pick(session, "Almanac")  # pending: Ben may answer
    pick(session, "Ben")
    pick(session, "PLAY Insight")
    assert actions(session)[-1] == {"type": "play", "player": "Ben", "card": "insight"}
    assert session.prompt().kind == "window"


# --------------------------------------------------------------------------- B-1 and claims


def test_b1_asks_for_memos_with_the_odds_then_for_the_card_turned_over(journal):
    session = start(journal)
    to_window(session, event="B-1: un-invent time travel")
    prompt = session.prompt()
    assert prompt.lines == ["Tm on B-1", "clock: 20%", "CONFIRM: none"]
    session.press(CONFIRM)
    prompt = session.prompt()
    assert prompt.kind == "reveal" and prompt.title == "B-1 CARD? (20% CLOCK)"
    assert prompt.options == ["MYSTERIOUS FORCES", "THE CLOCK"]
    update = pick(session, "MYSTERIOUS FORCES")
    assert actions(session)[-1] == {"type": "reveal", "card": "dud"}
    assert [e["kind"] for e in update.effects][:1] == ["dud"]
    assert session.match.view()["b1"]["clock_odds"] == 0.25


def test_after_the_clock_each_player_picks_their_id_and_hears_what_is_wrong(journal):
    session = start(journal)
    to_window(session, event="B-1: un-invent time travel")
    session.press(CONFIRM)
    pick(session, "THE CLOCK")
    prompt = session.prompt()
    assert prompt.kind == "claim" and prompt.title == "ANA: YOUR ID?"
    assert prompt.options == ["Jay", "Kim", "Lou", "Max", "Ned", "Ola", "Verne Brown",
                              "NOT MET"]
    update = pick(session, "Verne Brown")
    assert actions(session)[-1] == {"type": "claim", "player": "Ana", "id": "verne"}
    claim = update.effects[0]
    assert claim["kind"] == "claim" and claim["wrong"] == ["A-1", "A-5"]
    assert claim["text"] == ("Ana is Verne Brown: still wrong: A-1 (needs altered), "
                             "A-5 (needs altered)")
    prompt = session.prompt()
    assert prompt.title == "BEN: YOUR ID?" and "Verne Brown" not in prompt.options
    pick(session, "NOT MET")
    assert actions(session)[-1] == {"type": "pass", "player": "Ben"}
    update = session.press(UNDO)
    assert update.effects[0]["text"] == "UNDONE: Ben: NOT MET"
    assert session.press(UNDO).effects[0]["text"] == "UNDONE: Ana: Verne Brown"


def test_an_id_shown_at_an_earlier_clock_is_offered_again_and_wins_once_met(journal):
    # The first clock finds nobody met (Ana shows Verne Brown); once the TimeLine meets her
    # ID, the next clock must let her show it again and win.
    session = start(journal)
    to_window(session, event="B-1: un-invent time travel")
    session.press(CONFIRM)
    pick(session, "THE CLOCK")
    pick(session, "Verne Brown")
    pick(session, "NOT MET")
    pick(session, "NOT MET")
    assert session.match.state.winner is None
    to_window(session, event="A-1 then B-6")  # Ben
    session.press(CONFIRM)
    play_turn_start(session)  # Cy
    pick(session, "Action")
    pick(session, "Hitch")
    pick(session, "A-2 then A-6")
    session.press(CONFIRM)
    play_turn_start(session)  # Ana
    pick(session, "Time Machine")
    pick(session, "Time Train")
    pick(session, "A-3 then A-4, A-5")
    session.press(CONFIRM)
    pick(session, "Time Machine")
    pick(session, "Tm")
    pick(session, "B-1: un-invent time travel")
    session.press(CONFIRM)
    pick(session, "THE CLOCK")
    assert tl.check_identity(session.match.state, "verne") == []
    prompt = session.prompt()
    assert prompt.title == "ANA: YOUR ID?" and prompt.options == ["Verne Brown", "NOT MET"]
    pick(session, "Verne Brown")
    assert session.match.state.winner == "Ana"


# --------------------------------------------------------------------------- hidden cards


def test_menus_show_only_what_the_table_knows_even_when_the_engine_knows_the_hands(journal):
    """A simulation names the cards drawn (the table's dealer); the menus are the same as at a
    table where they are counts, so the public OLED never shows a hand."""
    import random

    other = Journal(":memory:")
    try:
        rng = random.Random(4)
        sim = start(journal, dealer=lambda state: tl.sample_chance(state, rng))
        table = start(other)
        sim.press(CONFIRM)
        table.press(CONFIRM)
        assert sim.match.state.players[0].hand and not table.match.state.players[0].hand
        for label in ("Item", "Time Machine", "Power Action"):
            for s in (sim, table):
                pick(s, label)
            assert sim.prompt().options == table.prompt().options
            press(sim, BACK)
            press(table, BACK)
    finally:
        other.close()


def test_a_simulations_dealer_names_every_draw_and_id(journal):
    import random

    session = Session(journal, list(PLAYERS), lambda title: scenario_pack(), title="timeline")
    pick(session, "3:")
    rng = random.Random(1)
    session.table.dealer = lambda state: tl.sample_chance(state, rng)
    session.press(CONFIRM)
    recorded = actions(session)
    assert all("card" in a for a in recorded if a["type"] == "draw")
    assert all("id" in a for a in recorded if a["type"] == "deal_id")
    assert all(len(p.hand) == 3 and p.identity for p in session.match.state.players)


def test_the_menu_labels_lead_to_every_action_the_bots_choose(journal):
    """``path`` names the menu items that record an action; each is on the menus in turn."""
    session = start(journal)
    play_turn_start(session)
    action = {"type": "play", "player": "Ana", "card": "tm#2", "event": "C-1"}
    path = session.table.path(action)
    assert path == ["Time Machine", "Tm", "C-1 then C-2, C-3"]
    for label in path:
        pick(session, label)
    assert actions(session)[-1] == {"type": "play", "player": "Ana", "card": "tm",
                                    "event": "C-1"}
    assert session.table.path({"type": "memo", "player": "Ben", "card": "memo#1"}) == [
        "Ben", "Memo"]
    assert session.table.path({"type": "pass", "player": "Ben"}) == ["NO MEMO"]


def test_prev_moves_back_round_the_menu(journal):
    session = start(journal)
    play_turn_start(session)
    prompt = press(session, PREV).prompt
    assert prompt.options[prompt.selected] == "DRAW INSTEAD"


# --------------------------------------------------------------------------- cards in two steps


def next_turn_of(session, name: str) -> None:
    """Everyone else draws instead of playing until it is ``name``'s turn to play."""
    for _ in range(12):
        if session.prompt().kind == "draw":
            session.press(CONFIRM)
        if session.prompt().title == f"{name.upper()}: PLAY":
            return
        pick(session, "DRAW INSTEAD")
    raise AssertionError(f"not {name}'s turn: {session.prompt().title}")


def test_a_doubleback_with_its_item_offers_a_second_flip_or_none(journal):
    session = start(journal, players=("Ana", "Ben"))
    play_turn_start(session)
    pick(session, "Item")
    pick(session, "Ravine Map")
    session.press(CONFIRM)
    next_turn_of(session, "Ana")
    pick(session, "DoubleBack")
    pick(session, "Db A2")
    session.press(CONFIRM)
    prompt = session.prompt()
    assert prompt.kind == "target" and prompt.title == "ANA: DISCARD RAVINE MAP TO FLIP?"
    assert prompt.options[0] == "A-1 then B-6" and prompt.options[-1] == "NO 2ND FLIP"
    assert "A-2 then A-6" not in prompt.options  # another Linchpin than the first
    pick(session, "A-3 then A-4, A-5")
    assert actions(session)[-1] == {"type": "use", "player": "Ana", "card": "ravine-map",
                                    "event": "A-3"}
    assert session.prompt().lines[0] == "2nd flip on A-3"


def test_a_rewind_asks_for_the_card_then_that_cards_target(journal):
    session = start(journal, players=("Ana", "Ben"))
    play_turn_start(session)
    pick(session, "Time Machine")
    pick(session, "Tm")
    pick(session, "A-2 then A-6")
    session.press(CONFIRM)
    next_turn_of(session, "Ana")
    pick(session, "Power Action")
    pick(session, "Rewind")
    prompt = session.prompt()
    assert prompt.title == "REPLAY WHICH CARD?" and prompt.options == ["Tm"]
    pick(session, "Tm")
    assert actions(session)[-1] == {"type": "play", "player": "Ana", "card": "rewind",
                                    "pick": "tm#1"}
    session.press(CONFIRM)
    prompt = session.prompt()
    assert prompt.kind == "target" and prompt.title == "FLIP WHICH LINCHPIN?"
    assert "A-2 then A-6" in prompt.options  # A-2 is altered: this restores it and A-6
    pick(session, "A-2 then A-6")
    assert actions(session)[-1] == {"type": "target", "player": "Ana", "event": "A-2"}


def test_undo_takes_back_what_one_confirm_recorded_and_redo_puts_it_back(journal):
    """The deal is one CONFIRM (a card at a time round the table, then the IDs): one UNDO
    takes it all back, and one REDO puts it all back; a draw and DRAW INSTEAD alike."""
    from companion.buttons import REDO

    session = start(journal, keep=False)
    dealt = list(actions(session))
    assert len(dealt) > 1 and session.prompt().kind != "deal"
    update = press(session, UNDO)
    assert actions(session) == [] and session.prompt().kind == "deal"
    assert update.effects[0]["text"] == (f"UNDONE: {session.table.describe(dealt[0])} (and "
                                         f"{len(dealt) - 1} actions with it)")
    update = press(session, REDO)
    assert actions(session) == dealt and update.redone == dealt[0]
    assert update.effects[0]["text"].endswith(f"(and {len(dealt) - 1} actions with it)")
    pick(session, "ALL KEEP")
    play_turn_start(session)
    before = list(actions(session))
    press(session, END, CONFIRM)  # DRAW INSTEAD and its draw: one CONFIRM, two actions
    assert actions(session)[:len(before)] == before and len(actions(session)) == len(before) + 2
    press(session, UNDO)
    assert actions(session) == before and session.prompt().title == "ANA: PLAY"


def test_next_and_end_in_a_menu_of_one_choice_say_confirm_goes_on(journal):
    session = start(journal)
    prompt = session.prompt()
    assert prompt.kind == "draw" and len(prompt.options) == 1
    for name, button in ((NEXT, "NEXT"), (PREV, "PREV"), (END, "END TURN")):
        update = press(session, name)
        assert update.error == (f"{button}: not now; one choice here: CONFIRM "
                                f"{prompt.options[0]}")
        assert update.prompt == prompt  # nothing moved, nothing recorded


def test_a_long_press_outside_a_memo_window_chooses_nothing_and_says_why(journal):
    """Ben holds CONFIRM to raise a Memo while Ana is still choosing her target: nothing is
    recorded for Ana (a long press was a CONFIRM of the selected Linchpin)."""
    session = start(journal)
    play_turn_start(session)
    pick(session, "Time Machine")
    pick(session, "Tm")
    before, prompt = list(actions(session)), session.prompt()
    update = press(session, MENU)
    assert update.error == "long CONFIRM raises a Memo only while a card is pending; CONFIRM " \
                           "chooses"
    assert actions(session) == before and update.prompt == prompt
