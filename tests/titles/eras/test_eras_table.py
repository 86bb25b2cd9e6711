"""The era card game at the table: the menus, their refusals, BACK and UNDO in the middle of a
menu in steps, a restarted session, and the same menus over a simulated (every card named)
game. The cards stay in the players' hands: draws are counted, never named."""

from __future__ import annotations

import random

import pytest

from companion.content import demo_pack
from companion.journal import Journal
from companion.match import Match
from companion.session import Session
from companion.titles.api import CHANCE, TERMINAL, RuleError
from companion.titles.eras import bots, rules
from companion.titles.eras.table import FLAT, ErasTable

PACK = demo_pack("eras")
EVENTS = [{"type": "reveal", "era": "1955", "event": "event-55-a"},
          {"type": "reveal", "era": "1985", "event": "event-85-b"},
          {"type": "reveal", "era": "2015", "event": "event-15-a"}]


def deals(*players: str) -> list[dict]:
    return [{"type": "deal", "player": p} for p in players]


def roles(*chosen: str) -> list[dict]:
    return [{"type": "role", "role": r} for r in chosen]


def at(journal: Journal, actions: list[dict], players=("Ana", "Ben"), options=None) -> Session:
    """A session resumed at the position these recorded actions reach."""
    match = Match.new(journal, "eras", list(players), options or {}, PACK)
    for action in actions:
        match.push(action)
    return Session(journal, list(players), lambda title: PACK, title="eras")


def press(session: Session, *names: str):
    update = None
    for name in names:
        update = session.press(name)
    return update


def pick(session: Session, label: str):
    """Select the menu line ``label`` (or the first starting with it) and CONFIRM."""
    prompt = session.prompt()
    assert prompt.kind == "menu", prompt
    options = prompt.options
    index = options.index(label) if label in options else next(
        (i for i, o in enumerate(options) if o.startswith(label)), None)
    assert index is not None, f"no line {label!r} in {options}"
    for _ in range((index - prompt.selected) % len(options)):
        session.press("next")
    return session.press("confirm")


def recorded(session: Session) -> list[dict]:
    return session.journal.actions(session.match.game)


@pytest.fixture
def journal():
    j = Journal(":memory:")
    yield j
    j.close()


def test_setup_asks_which_event_turned_up_then_counts_the_deal(journal):
    session = Session(journal, ["Ana", "Ben"], lambda title: PACK, title="eras")
    pick(session, "2:")
    prompt = session.prompt()
    assert prompt.title == "NEW 1955 EVENT?"
    assert prompt.options == ["event-55-a (Marty)", "event-55-b (George)",
                              "event-55-c (Lorraine)"]
    pick(session, "event-55-b")
    pick(session, "event-85-a")
    pick(session, "event-15-c")
    assert [a["event"] for a in recorded(session)] == ["event-55-b", "event-85-a", "event-15-c"]
    prompt = session.prompt()
    assert prompt.title == "DEAL 5 TO ANA" and prompt.options == ["DONE"]
    pick(session, "DONE")
    assert recorded(session)[-1] == {"type": "deal", "player": "Ana"}  # no card is named
    pick(session, "DONE")
    ana = session.match.state.player("Ana")
    assert ana.hand == [] and ana.unseen == 5
    prompt = session.prompt()
    assert prompt.title == "ANA: ROLE?"
    assert prompt.options == ["Marty", "Doc", "George", "Lorraine", "Biff", "Jennifer"]
    pick(session, "Doc")
    assert "Doc" not in session.prompt().options  # one tile each


def test_the_turn_menu_says_whose_turn_and_where_the_delorean_is(journal):
    session = at(journal, EVENTS + deals("Ana", "Ben") + roles("marty", "doc"))
    prompt = session.prompt()
    assert prompt.title == "ANA - 1985"
    assert prompt.options == ["PLAY A CARD", "COMPLETE AN EVENT", "MOVE THE DELOREAN",
                              "TAKE A CLOCK TOKEN", "END TURN", "SCORES"]
    pick(session, "SCORES")
    assert session.prompt().options == ["Ana 0 VP", "Ben 0 VP"]
    pick(session, "Ana")  # any line goes back
    assert session.prompt().title == "ANA - 1985" and len(recorded(session)) == 7


def test_a_play_is_chosen_by_era_then_card_and_recorded_only_with_the_card(journal):
    session = at(journal, EVENTS + deals("Ana", "Ben") + roles("marty", "doc"))
    before = len(recorded(session))
    pick(session, "PLAY A CARD")
    prompt = session.prompt()
    assert prompt.title == "PLAY INTO?"
    assert prompt.options == ["1955", "1985 (DeLorean)", "2015"]
    assert prompt.selected == 1  # the DeLorean's era first
    session.press("confirm")
    prompt = session.prompt()
    assert prompt.title == "PLAY INTO 1985"
    # Marty's 1985 cards and Marty's infinity cards: any of them may be in Ana's hand
    assert len(prompt.options) == 6 <= FLAT
    assert prompt.options[0] == "Marty 85 P2 T1 VP2"
    assert len(recorded(session)) == before  # nothing recorded while choosing
    pick(session, "Marty 85 P2 T1 VP2")
    assert recorded(session)[-1] == {"type": "play", "card": "marty-85-1", "era": "1985"}
    assert session.prompt().title == "ANA: PAY 1 TIME"


def test_a_refused_choice_says_why_and_records_nothing(journal):
    session = at(journal, EVENTS + deals("Ana", "Ben") + roles("marty", "doc"),
                 options={"hand": 2})
    before = recorded(session)
    pick(session, "PLAY A CARD")
    pick(session, "1955")  # only the infinity cards go there
    assert session.prompt().options == ["any P1 T2 VP1", "any P0 T3 VP2"]
    update = pick(session, "any P1 T2 VP1")
    assert update.error == "1955 needs 2 ripple cards: Ana has 1 other card(s)"
    assert recorded(session) == before
    assert session.prompt().title == "PLAY INTO 1955"  # the same menu, the same line
    assert session.prompt().options[session.prompt().selected] == "any P1 T2 VP1"
    press(session, "back", "back")
    update = pick(session, "COMPLETE AN EVENT") and pick(session, "1955")
    assert update.error.startswith("event-55-a needs a card in every era of Ana's board")
    assert recorded(session) == before


def test_the_play_menu_and_the_engine_give_the_same_fix_for_the_delorean(journal):
    """An era away from the DeLorean: the menu's refusal and the engine's both say to move it
    there first, in the engine's words (docs/titles/eras.md quotes them)."""
    session = at(journal, EVENTS + deals("Ana", "Ben") + roles("doc", "marty"))
    state = session.match.state
    p = state.current
    menu = ErasTable._no_play(state, p, "1955", here=False)
    assert menu == rules.delorean_elsewhere(state, "1955")
    assert menu.startswith("the DeLorean is in 1985: move it to 1955 first")
    assert "infinity mark" in menu
    state = rules.new_game(["Ana", "Ben"], {}, PACK)
    for action in EVENTS + [{"type": "deal", "player": "Ana", "cards": [
            "doc-55-2", "doc-15-1", "biff-85-2", "george-15-1", "lorraine-85-3"]},
            {"type": "deal", "player": "Ben"}] + roles("doc", "marty"):
        state, _ = rules.apply(state, action)
    with pytest.raises(RuleError) as refused:
        rules.apply(state, {"type": "play", "card": "doc-55-2", "era": "1955"})
    assert str(refused.value) == (
        "the DeLorean is in 1985: move it to 1955 first, then play doc-55-2")


def test_only_payments_that_may_finish_the_cost_are_offered_in_steps(journal):
    session = at(journal, EVENTS + deals("Ana", "Ben") + roles("marty", "doc"))
    pick(session, "MOVE THE DELOREAN")
    assert session.prompt().options == ["TO 1955 (3 power)", "TO 2015 (3 power)"]
    update = pick(session, "TO 1955")
    assert [e["kind"] for e in update.effects] == ["cost"]
    prompt = session.prompt()
    assert prompt.title == "ANA: PAY 3 POWER"
    assert [o.split(" (")[0] for o in prompt.options] == [
        "1955", "1985", "2015", "ANY ERA", "CAN'T PAY: TAKE BACK"]
    legal = {a["with"] for a in session.match.legal_actions()}
    assert "marty-any-2" not in legal  # 0 power pays nothing: never offered
    offered = []
    table = session.table
    for item in table.tree().items[:4]:
        for sub in item.items:
            offered += [leaf.action["with"] for leaf in (sub.items or [sub])]
    assert set(offered) == legal
    pick(session, "2015")
    assert session.prompt().title == "2015: WHOSE?"
    session.press("back")  # BACK goes up one step
    assert session.prompt().title == "ANA: PAY 3 POWER"
    pick(session, "2015")
    pick(session, "Marty")
    assert session.prompt().title == "MARTY 2015?"
    pick(session, "P3 T1 VP1")
    assert recorded(session)[-1] == {"type": "pay", "with": "marty-15-1"}
    assert session.match.state.delorean == "1955"


def test_cant_pay_takes_back_the_payment_and_the_trip(journal):
    session = at(journal, EVENTS + deals("Ana", "Ben") + roles("marty", "doc"))
    before = recorded(session)
    pick(session, "MOVE THE DELOREAN")
    pick(session, "TO 1955")
    pick(session, "2015")
    pick(session, "Marty")
    pick(session, "P1 T1 VP1")  # 1 power: 2 still due
    assert session.prompt().title == "ANA: PAY 2 POWER"
    update = pick(session, "CAN'T PAY")
    assert update.effects[0]["text"] == "TAKEN BACK: MOVE TO 1955 (3 power), and the cards paid"
    assert recorded(session) == before
    assert session.prompt().title == "ANA - 1985"


def test_undo_in_the_middle_of_a_menu_in_steps(journal):
    session = at(journal, EVENTS + deals("Ana", "Ben") + roles("marty", "doc"))
    pick(session, "PLAY A CARD")
    pick(session, "1985")
    assert session.prompt().title == "PLAY INTO 1985"
    update = session.press("undo")  # takes back Ben's role, and leaves the half-made choice
    assert update.undone == {"type": "role", "role": "doc"}
    assert session.prompt().title == "BEN: ROLE?"
    pick(session, "Doc")
    assert session.prompt().title == "ANA - 1985"  # the play menu starts from the top again


def test_end_turn_button_then_the_draw_is_counted(journal):
    session = at(journal, EVENTS + deals("Ana", "Ben") + roles("marty", "doc"))
    session.press("end")
    prompt = session.prompt()
    assert prompt.title == "ANA: DRAW 1" and prompt.options == ["CARDS DRAWN"]
    pick(session, "CARDS DRAWN")
    assert recorded(session)[-1] == {"type": "draw", "player": "Ana"}
    assert session.match.state.player("Ana").unseen == 6
    assert session.prompt().title == "BEN - 1985"
    session.press("end")  # a draw is due: END does nothing else
    assert session.prompt().title == "BEN: DRAW 1"


def test_ripple_cards_are_laid_face_down_and_never_named(journal):
    session = at(journal, EVENTS + deals("Ana", "Ben") + roles("marty", "doc"))
    pick(session, "PLAY A CARD")
    pick(session, "1985")
    pick(session, "Marty 85 P2 T1 VP2")
    pick(session, "FREE (MARTY)")
    prompt = session.prompt()
    assert prompt.title == "ANA: RIPPLE 1/1" and prompt.options == ["1 CARD FACE DOWN"]
    update = pick(session, "1 CARD FACE DOWN")
    assert recorded(session)[-1] == {"type": "ripple"}
    assert [e["kind"] for e in update.effects] == ["ripple", "placed"]
    ana = session.match.state.player("Ana")
    assert ana.ripple_unseen == 1 and ana.board["1985"] == ["marty-85-1"]


def test_a_restarted_session_resumes_in_the_same_decision(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    session = at(journal, EVENTS + deals("Ana", "Ben") + roles("marty", "doc"))
    pick(session, "MOVE THE DELOREAN")
    pick(session, "TO 2015")
    journal.close()
    again = Session(Journal(path), ["Ana", "Ben"], lambda title: PACK, title="eras")
    assert again.prompt().title == "ANA: PAY 3 POWER"
    assert again.match.state.player("Ana").unseen == 5


def _table_actions(players: int, seed: int, stop_at_tally: bool = True) -> list[dict]:
    """A bot game's actions as the table records them (up to the end's ripple count)."""
    names = ["Ana", "Ben", "Cy", "Di"][:players]
    sim = rules.new_game(names, {}, PACK)
    rng = random.Random(seed)
    out = []
    while rules.actor(sim) != TERMINAL:
        action = (rules.sample_chance(sim, rng) if rules.actor(sim) == CHANCE
                  else bots.bot(rules, sim, rng))
        out.append(bots.at_the_table(action, sim))
        sim, _ = rules.apply(sim, action)
    return out


def test_at_the_end_each_player_adds_up_the_ripple_cards(journal):
    session = at(journal, _table_actions(2, 4))
    state = session.match.state
    assert state.phase == "tally"
    who = rules.actor(state)
    prompt = session.prompt()
    assert prompt.title == f"{who.upper()}: RIPPLE VP?"
    low, high = rules._tally_range(state, state.player(who))
    assert prompt.options[0] == f"{low} VP" and prompt.options[-1] == f"{high} VP"
    assert prompt.selected > 0  # starts near the likely sum, not at the lowest
    while session.match.actor() != TERMINAL:
        session.press("confirm")
    assert session.prompt().kind == "over"
    assert all(a["type"] != "tally" or "vp" in a for a in recorded(session))


def test_the_menus_serve_a_simulated_game_too(journal):
    """A game recorded with every card named (a simulation): the menus list the hand itself,
    and the table goes on counting the next draws."""
    sim = rules.new_game(["Ana", "Ben"], {}, PACK)
    rng = random.Random(2)
    actions = []
    while not (sim.phase == "turn" and not sim.pending):
        action = (rules.sample_chance(sim, rng) if rules.actor(sim) == CHANCE
                  else bots.bot(rules, sim, rng))
        actions.append(action)
        sim, _ = rules.apply(sim, action)
    session = at(journal, actions)
    me = session.match.state.current
    assert me.name == "Ana" and me.role == "jennifer" and me.unseen == 0
    assert me.hand == ["lorraine-85-1", "doc-85-4", "george-15-4", "george-85-1",
                       "jennifer-85-4"]
    pick(session, "MOVE THE DELOREAN")
    pick(session, "TO 1955")
    prompt = session.prompt()
    # the five cards of the hand, in one list (each pays power), then CAN'T PAY
    state = session.match.state
    assert prompt.options == [rules.face_line(rules.face(state, c)) for c in me.hand] + [
        "CAN'T PAY: TAKE BACK"]
    assert prompt.options[0] == "Lorraine 85 P3 T1 VP1"
    pick(session, "Lorraine 85 P3 T1 VP1")
    assert session.match.state.delorean == "1955"
    session.press("end")
    pick(session, "CARDS DRAWN")  # the table counts the draw
    assert recorded(session)[-1] == {"type": "draw", "player": "Ana"}
    ana = session.match.state.player("Ana")
    assert ana.unseen == 2 and len(ana.hand) == 4


def test_labels_are_the_engine_words_and_undo_says_what_it_took_back(journal):
    session = at(journal, EVENTS + deals("Ana", "Ben") + roles("marty", "doc"))
    table = session.table
    assert table.label({"type": "end"}) == "END TURN"
    assert table.describe({"type": "move", "to": "1955"}) == "MOVE TO 1955 (3 power)"
    update = session.press("undo")
    assert update.effects[0]["text"] == "UNDONE: Doc"


def test_george_draws_then_may_swap_a_card_picked_in_steps(journal):
    session = at(journal, EVENTS + deals("Ana", "Ben"))
    pick(session, "George")
    assert session.prompt().title == "ANA: DRAW 1"
    pick(session, "CARDS DRAWN")
    prompt = session.prompt()
    assert prompt.title == "ANA: SWAP?" and prompt.options == ["KEEP HAND", "SWAP A CARD"]
    pick(session, "SWAP A CARD")
    assert session.prompt().title == "ANA: DISCARD?"
    pick(session, "1955")
    pick(session, "Doc")
    pick(session, "P2 T1 VP2")
    assert recorded(session)[-1] == {"type": "discard", "card": "doc-55-1"}
    assert session.prompt().title == "ANA: DRAW 1"  # the card swapped in
    pick(session, "CARDS DRAWN")
    assert session.match.state.player("Ana").unseen == 6
    assert session.prompt().title == "BEN: ROLE?"


def test_biff_picks_whom_to_rob_and_the_card_taken_stays_unseen(journal):
    session = at(journal, EVENTS + deals("Ana", "Ben", "Cy"), players=("Ana", "Ben", "Cy"))
    pick(session, "Biff")
    prompt = session.prompt()
    assert prompt.title == "ANA: ROB WHOM?"
    assert prompt.options == ["Ben (5 cards)", "Cy (5 cards)"]
    pick(session, "Cy")
    assert session.prompt().title == "ANA: TAKE 1 CARD"
    pick(session, "TAKEN FROM Cy")
    assert recorded(session)[-2:] == [{"type": "steal", "from": "Cy"},
                                      {"type": "stolen", "from": "Cy"}]
    state = session.match.state
    assert (state.player("Ana").unseen, state.player("Cy").unseen) == (6, 4)


def test_lorraine_moves_a_played_card_to_an_adjacent_era(journal):
    match = Match.new(journal, "eras", ["Ana", "Ben"], {}, PACK)
    for action in EVENTS + deals("Ana", "Ben") + roles("lorraine", "doc"):
        match.push(action)
    match.push({"type": "play", "card": "lorraine-85-1", "era": "1985"})
    while match.state.pending:  # pay and ripple as the menus allow
        match.push(next(a for a in match.legal_actions() if a.get("with") != "clock"))
    session = Session(journal, ["Ana", "Ben"], lambda title: PACK, title="eras")
    pick(session, "LORRAINE: MOVE A CARD")
    prompt = session.prompt()
    assert prompt.title == "MOVE WHICH?"
    assert prompt.options == ["1985: Lorraine 85 " + rules.face_words(
        rules.face(session.match.state, "lorraine-85-1"))]
    session.press("confirm")
    assert session.prompt().options == ["TO 1955", "TO 2015"]
    pick(session, "TO 2015")
    assert recorded(session)[-1] == {"type": "shift", "card": "lorraine-85-1", "to": "2015"}
    assert "LORRAINE: MOVE A CARD" not in session.prompt().options  # once a turn


def test_draw_2_keep_1_asks_for_the_card_given_back(journal):
    events = [EVENTS[0], {"type": "reveal", "era": "1985", "event": "event-85-c"}, EVENTS[2]]
    session = at(journal, events + deals("Ana", "Ben") + roles("marty", "doc"),
                 options={"advanced": True})
    session.press("end")
    assert session.prompt().title == "ANA: DRAW 2"
    pick(session, "CARDS DRAWN")
    prompt = session.prompt()
    assert prompt.title == "ANA: GIVE BACK?"
    assert [o.split(" (")[0] for o in prompt.options] == ["1955", "1985", "2015", "ANY ERA"]
    pick(session, "ANY ERA")
    pick(session, "Jennifer")
    pick(session, "P1 T2 VP1")
    assert recorded(session)[-1] == {"type": "keep", "discard": ["jennifer-any-2"]}
    assert session.match.state.player("Ana").unseen == 6


def test_after_a_clock_token_the_menu_offers_no_card_or_event():
    """"No card or event may follow it": a public fact, so the menu does not offer them only
    to refuse them at the last step."""
    session = at(Journal(":memory:"), EVENTS + deals("Ana", "Ben") + roles("marty", "doc"))
    assert {"PLAY A CARD", "COMPLETE AN EVENT"} <= set(session.prompt().options)
    session = at(Journal(":memory:"),
                 EVENTS + deals("Ana", "Ben") + roles("marty", "doc") + [{"type": "clock"}])
    options = session.prompt().options
    assert "PLAY A CARD" not in options and "COMPLETE AN EVENT" not in options
    assert "MOVE THE DELOREAN" in options and "END TURN" in options
