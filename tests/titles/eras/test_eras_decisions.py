"""The decisions written in docs/rules/eras.md where the summary is silent or ambiguous, and the
engine's promises to the table (small payment menus, refusals that say why, what a view hides).
The cards are test cards."""

from __future__ import annotations

import json

import pytest
from eras_table import char, counted, filler, outcome, play, table, texts, types

from companion.titles.api import CHANCE, TERMINAL, RuleError
from companion.titles.eras import rules

X1 = char("x1", "biff", 2015, power=0, clocks=0, vp=1)
X2 = char("x2", "biff", 2015, power=0, clocks=0, vp=2)
T1 = char("t1", "biff", 2015, power=0, clocks=1, vp=0)
T1B = char("t1b", "biff", 2015, power=0, clocks=1, vp=0)
T2 = char("t2", "biff", 2015, power=0, clocks=2, vp=0)
ROLES = {"Ana": "marty", "Ben": "doc"}


def test_one_shared_delorean_stays_where_the_last_player_left_it():
    state = table(roles={"Ana": "doc", "Ben": "marty"})
    state, _ = play(state, {"type": "move", "to": "1955"}, {"type": "end"})
    assert rules.actor(state) == "Ben" and state.delorean == "1955"
    assert rules.view(state)["delorean"] == "1955"
    state, _ = play(state, {"type": "end"})  # the next round starts where it was left too
    assert state.phase == "roles" and state.delorean == "1955"


def test_payment_offers_only_cards_that_keep_it_payable():
    d55 = char("d55", "doc", 1955, clocks=2)
    state = table(hands={"Ana": [d55, T2, T1, T1B]}, delorean="1955",
                  roles={"Ana": "doc", "Ben": "marty"})
    state, _ = rules.apply(state, {"type": "play", "card": "d55"})
    # 2 time and 2 ripple cards from t2, t1, t1b: paying with a 1-clock card would need the
    # other 1-clock card too and leave one card for two ripples
    assert rules.legal_actions(state) == [{"type": "pay", "with": "t2"}]
    with pytest.raises(RuleError, match="would leave too few cards for the 2 ripple card"):
        rules.apply(state, {"type": "pay", "with": "t1"})
    state, _ = play(state, {"type": "pay", "with": "t2"}, {"type": "ripple", "card": "t1"},
                    {"type": "ripple", "card": "t1b"})
    assert state.player("Ana").board["1955"] == ["d55"]


def test_payment_never_offers_cards_that_pay_nothing():
    d85 = char("d85", "doc", 1985, clocks=1)
    state = table(hands={"Ana": [d85, T1, X1, char("p3", "biff", 2015, power=3, clocks=0)]},
                  roles={"Ana": "lorraine", "Ben": "doc"})
    state, _ = rules.apply(state, {"type": "move", "to": "2015"})
    assert rules.legal_actions(state) == [{"type": "pay", "with": "d85"},
                                          {"type": "pay", "with": "p3"}]
    with pytest.raises(RuleError, match="t1 has no power: it pays nothing"):
        rules.apply(state, {"type": "pay", "with": "t1"})
    doc = table(hands={"Ana": [d85, T1, X1, X2]}, roles={"Ana": "doc", "Ben": "marty"})
    doc, _ = rules.apply(doc, {"type": "play", "card": "d85"})
    assert rules.legal_actions(doc) == [{"type": "pay", "with": "t1"}]
    with pytest.raises(RuleError, match="x1 shows no clock: it pays no time"):
        rules.apply(doc, {"type": "pay", "with": "x1"})


def test_played_card_cannot_pay_its_own_cost():
    d85 = char("d85", "doc", 1985, clocks=1)
    state = table(hands={"Ana": [d85, X1]}, roles={"Ana": "doc", "Ben": "marty"})
    with pytest.raises(RuleError, match="d85 costs 1 time; Ana has 0"):
        rules.apply(state, {"type": "play", "card": "d85"})


def test_time_is_paid_before_ripple_and_a_card_pays_only_once():
    d85 = char("d85", "doc", 1985, clocks=1)
    state = table(hands={"Ana": [d85, T1]}, roles={"Ana": "doc", "Ben": "marty"})
    with pytest.raises(RuleError, match="1985 needs 1 ripple card: Ana would have 0 card"):
        rules.apply(state, {"type": "play", "card": "d85"})
    state = table(hands={"Ana": [d85, T1, X1]}, roles={"Ana": "doc", "Ben": "marty"})
    state, _ = rules.apply(state, {"type": "play", "card": "d85"})
    with pytest.raises(RuleError, match="Ana must first pay 1 time more"):
        rules.apply(state, {"type": "ripple", "card": "x1"})
    state, _ = rules.apply(state, {"type": "pay", "with": "t1"})
    with pytest.raises(RuleError, match="one of the cards in Ana's hand"):
        rules.apply(state, {"type": "ripple", "card": "t1"})  # already discarded


def test_refusals_say_why():
    d55 = char("d55", "doc", 1955, clocks=0)
    state = table(hands={"Ana": [d55, X1]}, delorean="1955", roles={"Ana": "doc", "Ben": "marty"})
    with pytest.raises(RuleError, match="1955 needs 2 ripple cards: Ana has 1 other card"):
        rules.apply(state, {"type": "play", "card": "d55"})
    with pytest.raises(RuleError, match="it is Ana's decision now, not Ben's"):
        rules.apply(state, {"type": "end", "player": "Ben"})
    with pytest.raises(RuleError, match="unknown action type 'fly'"):
        rules.apply(state, {"type": "fly"})
    with pytest.raises(RuleError, match="f00 is not in Ana's hand"):
        rules.apply(state, {"type": "play", "card": "f00"})  # a card of the game: in the deck
    with pytest.raises(RuleError, match="is not an era"):
        rules.apply(state, {"type": "move", "to": "1984"})


def test_an_id_no_card_has_is_refused_as_no_such_card_with_where_the_ids_are():
    d55 = char("d55", "doc", 1955, clocks=1)
    named = table(hands={"Ana": [d55, T1, X1, X2]}, delorean="1955",
                  roles={"Ana": "doc", "Ben": "marty"})
    for state in (named, counted(named, "Ana")):  # at the table Ana's hand is a count
        with pytest.raises(RuleError) as refused:
            rules.apply(state, {"type": "play", "card": "nosuch", "era": "1955"})
        assert str(refused.value) == (
            "no card 'nosuch' in this game; see `companion cards list --title eras --demo`")
        assert "hand" not in str(refused.value)
        with pytest.raises(RuleError, match="no card 'nosuch' in this game"):
            play(state, {"type": "play", "card": "d55", "pay": ["nosuch"]})
        with pytest.raises(RuleError, match="no card 'nosuch' in this game"):
            play(state, {"type": "play", "card": "d55", "pay": ["t1"], "ripple": ["nosuch"]})
    # an event's id is an id of the game: still "not in the hand"
    with pytest.raises(RuleError, match="e55a is not in Ana's hand"):
        rules.apply(named, {"type": "play", "card": "e55a"})


def test_a_pack_of_the_owner_names_the_command_without_demo():
    pack = [{**c, "source": "owner"} for c in (char("d85", "doc", 1985, clocks=0), X1)]
    deck = [{**c, "source": "owner"} for c in filler(20)]
    state = table(hands={"Ana": pack}, roles={"Ana": "doc", "Ben": "marty"}, deck=deck)
    assert {c["source"] for c in state.cards.values()} == {"owner"}
    with pytest.raises(RuleError) as refused:
        rules.apply(state, {"type": "play", "card": "nosuch"})
    assert str(refused.value).endswith("see `companion cards list --title eras`")


def test_a_ripple_card_named_twice_is_refused_as_already_under_the_token():
    m55 = char("m55", "marty", 1955, clocks=0)
    state = table(hands={"Ana": [m55, X1, X2]}, delorean="1955", roles=ROLES)
    with pytest.raises(RuleError, match="x1 is already under Ana's ripple token"):
        rules.apply(state, {"type": "play", "card": "m55", "ripple": ["x1", "x1"]})
    state, _ = rules.apply(state, {"type": "play", "card": "m55"})
    state, _ = rules.apply(state, {"type": "ripple", "card": "x1"})
    with pytest.raises(RuleError) as refused:
        rules.apply(state, {"type": "ripple", "card": "x1"})
    assert str(refused.value) == (
        "x1 is already under Ana's ripple token: lay another card from the hand")
    state, _ = rules.apply(state, {"type": "ripple", "card": "x2"})
    assert state.player("Ana").ripple == ["x1", "x2"]


def test_event_uses_one_card_per_era_one_of_them_its_role():
    boards = {"Ana": {"1955": [char("m55", "marty", 1955), char("g55", "george", 1955)],
                      "1985": [char("m85", "marty", 1985)],
                      "2015": [char("b15", "biff", 2015)]}}
    state = table(boards=boards, roles={"Ana": "doc", "Ben": "marty"})
    stepwise, _ = rules.apply(state, {"type": "complete", "event": "e55a"})
    assert rules.legal_actions(stepwise) == [{"type": "use", "card": "m55"},
                                             {"type": "use", "card": "m85"}]
    stepwise, _ = rules.apply(stepwise, {"type": "use", "card": "m85"})
    assert rules.legal_actions(stepwise) == [{"type": "use", "card": "m55"},
                                             {"type": "use", "card": "g55"}]
    stepwise, _ = rules.apply(stepwise, {"type": "use", "card": "g55"})  # 2015: no choice
    assert stepwise.player("Ana").board == {"1955": ["m55"], "1985": [], "2015": []}
    with pytest.raises(RuleError, match="one card of each era"):
        rules.apply(state, {"type": "complete", "event": "e55a", "cards": ["g55", "m85"]})
    with pytest.raises(RuleError, match="one card of each era"):
        rules.apply(state, {"type": "complete", "event": "e55a",
                            "cards": ["m55", "g55", "b15"]})
    whole, _ = rules.apply(state, {"type": "complete", "event": "e55a",
                                   "cards": ["g55", "m85", "b15"]})
    assert whole.player("Ana").board == stepwise.player("Ana").board


def test_event_can_be_completed_wherever_the_delorean_is():
    boards = {"Ana": {"1955": [char("m55", "marty", 1955)], "1985": [char("b85", "biff", 1985)],
                      "2015": [char("b15", "biff", 2015)]}}
    for era in rules.ERAS:
        state = table(boards=boards, delorean=era, roles={"Ana": "doc", "Ben": "marty"})
        assert {"type": "complete", "event": "e55a"} in rules.legal_actions(state)


def test_only_the_top_event_of_an_era_can_be_completed():
    boards = {"Ana": {"1955": [char("d55", "doc", 1955)], "1985": [char("b85", "biff", 1985)],
                      "2015": [char("b15", "biff", 2015)]}}
    state = table(boards=boards, roles={"Ana": "marty", "Ben": "lorraine"})
    with pytest.raises(RuleError, match="e55b is not an event in play"):
        rules.apply(state, {"type": "complete", "event": "e55b"})  # a Doc event, face down


def test_empty_deck_reshuffles_the_discard_pile():
    state = table(delorean="1955", roles=ROLES, deck=filler(1), discard=filler(2, start=1))
    state, _ = rules.apply(state, {"type": "end"})
    with pytest.raises(RuleError, match="the deck still has 1 card"):
        rules.apply(state, {"type": "draw", "cards": ["f01", "f02"]})
    state, effects = rules.apply(state, {"type": "draw", "cards": ["f00", "f02"]})
    assert "SHUFFLE the discard pile: it is the new deck" in texts(effects)
    assert state.pool == ["f01"] and state.deck == 1 and state.discard == []
    assert state.player("Ana").hand == ["f00", "f02"] and not state.exhausted


def test_no_cards_left_ends_the_game_at_the_end_of_the_round():
    state = table(roles=ROLES, deck=[])
    state, effects = rules.apply(state, {"type": "end"})  # 1985: one card due, none to draw
    assert "The deck is empty: the game ends after this round" in texts(effects)
    assert state.exhausted and rules.actor(state) == "Ben"  # the round goes on
    state, _ = rules.apply(state, {"type": "clock"})
    state, _ = rules.apply(state, {"type": "end"})
    assert rules.actor(state) == TERMINAL and rules.winners(state) == ["Ben"]
    short = table(roles=ROLES, delorean="1955", deck=filler(1))  # 2 due, 1 left to draw
    short, effects = play(short, {"type": "end"})
    assert short.player("Ana").hand == ["f00"] and short.exhausted
    assert "The deck is empty: the game ends after this round" in texts(effects)


def test_tie_goes_to_more_events_then_shared():
    zero = {"1955": [char("g55", "george", 1955, vp=0), char("x55", "biff", 1955, vp=0)],
            "1985": [char("b85a", "biff", 1985, vp=0), char("b85b", "biff", 1985, vp=0)],
            "2015": [char("d15", "doc", 2015, vp=0), char("b15", "biff", 2015, vp=0)]}
    boards = {"Ana": zero, "Ben": {"2015": [char("v15", "biff", 2015, vp=8)]}}
    short = {"1955": [("e55a", "george", None)], "2015": [("e15a", "doc", None)]}
    state = table(boards=boards, roles=ROLES, events=short)
    state, _ = play(state, {"type": "complete", "event": "e15a", "cards": ["x55", "b85a", "d15"]},
                    {"type": "complete", "event": "e55a", "cards": ["g55", "b85b", "b15"]},
                    {"type": "end"}, {"type": "end"})
    assert rules.actor(state) == TERMINAL
    scores = {p.name: rules.score(state, p) for p in state.players}
    assert scores["Ana"]["total"] == scores["Ben"]["total"] == 8
    assert rules.winners(state) == ["Ana"]  # two events completed against none
    boards = {"Ana": {"1985": [char("a85", "biff", 1985, vp=2)]},
              "Ben": {"2015": [char("v15", "biff", 2015, vp=2)]}}
    state = table(boards=boards, roles=ROLES, deck=[])
    state, effects = play(state, {"type": "end"}, {"type": "end"})
    assert rules.winners(state) == ["Ana", "Ben"]
    assert "Ana & Ben WIN(S) with 2 VP" in texts(effects)


def test_view_hides_hands_and_ripple_until_the_end():
    d85 = char("d85", "doc", 1985, clocks=0, vp=1)
    state = table(hands={"Ana": [d85, X2, char("secret", "biff", 2015)]},
                  roles={"Ana": "doc", "Ben": "marty"}, deck=[])
    state, _ = play(state, {"type": "play", "card": "d85", "ripple": ["x2"]})
    public = json.dumps(rules.view(state))
    assert '"secret"' not in public and '"x2"' not in public
    ana_public = rules.view(state)["players"][0]
    assert ana_public["hand"] == 1 and ana_public["ripple"] == 1
    assert ana_public["score"]["ripple"] is None and ana_public["score"]["total"] == 1
    mine = rules.view(state, "Ana")
    assert mine["you"]["hand"] == ["secret"] and mine["you"]["ripple"] == ["x2"]
    assert mine["players"][0]["score"]["total"] == 3
    assert '"secret"' not in json.dumps(rules.view(state, "Ben"))
    assert rules.secrets(state) == {"Ana": ["secret", "x2"], "Ben": []}
    state, _ = play(state, {"type": "end"}, {"type": "end"})  # no cards left: the game ends
    assert rules.view(state)["players"][0]["score"] == {
        "tokens": 0, "cards": 1, "clocks": 0, "ripple": 2, "total": 3, "events": 0}


def test_refill_option_changes_the_draws():
    state = table(roles=ROLES, delorean="2015", options={"refill": [0, 1, 2]})
    state, _ = rules.apply(state, {"type": "end"})
    assert rules.legal_actions(state) == [{"type": "draw", "player": "Ana", "count": 2}]
    with pytest.raises(RuleError, match="option refill"):
        table(options={"refill": [2, 1]})


def test_compact_actions_equal_the_steps():
    d85 = char("d85", "doc", 1985, clocks=3)
    state = table(hands={"Ana": [d85, T2, T1, X1, X2]}, roles={"Ana": "doc", "Ben": "marty"})
    steps, step_effects = play(state, {"type": "play", "card": "d85"},
                               {"type": "pay", "with": "t2"}, {"type": "pay", "with": "t1"},
                               {"type": "ripple", "card": "x2"})
    whole, whole_effects = play(state, {"type": "play", "card": "d85", "pay": ["t2", "t1"],
                                        "ripple": ["x2"]})
    assert rules.to_json(steps) == rules.to_json(whole)
    assert step_effects == whole_effects
    with pytest.raises(RuleError, match="pay the time before the ripple cards"):
        rules.apply(state, {"type": "play", "card": "d85", "ripple": ["x2"]})


def test_a_decision_waits_for_its_player():
    state = table(hands={"Ana": [char("p3", "biff", 2015, power=3)]}, roles=ROLES)
    state, _ = rules.apply(state, {"type": "move", "to": "1955"})
    with pytest.raises(RuleError, match="Ana must first pay 3 power more"):
        rules.apply(state, {"type": "end"})
    state, _ = rules.apply(state, {"type": "pay", "with": "p3"})
    state, _ = rules.apply(state, {"type": "end"})
    assert rules.actor(state) == CHANCE
    with pytest.raises(RuleError, match="Ana must first draw 2 card"):
        rules.apply(state, {"type": "end"})
    state, _ = rules.apply(state, outcome(state))
    assert rules.actor(state) == "Ben"


def test_effects_say_what_to_do_with_the_parts():
    board = {"1955": [char("m55", "marty", 1955)], "1985": [char("b85", "biff", 1985)],
             "2015": [char("b15", "biff", 2015)]}
    state = table(hands={"Ana": [char("p3", "biff", 2015, power=3)]}, boards={"Ana": board},
                  roles={"Ana": "lorraine", "Ben": "doc"})
    state, effects = play(state, {"type": "move", "to": "1955", "pay": ["p3"]},
                          {"type": "complete", "event": "e55a"})
    said = texts(effects)
    assert "Ana: DISCARD p3 (3)" in said
    assert "MOVE the DeLorean to 1955" in said
    assert "TAKE the 1955 event and its top VP token (5); DISCARD m55, b85, b15" in said
    state, effects = play(state, {"type": "end"})
    assert "Ana: DRAW 2" in texts(effects)


def test_labels_are_short_menu_lines():
    d_any = char("dany", "doc", "any", clocks=1)
    p3 = char("p3", "biff", 2015, power=3, clocks=0)
    state = table(hands={"Ana": [d_any, T1, X1, X2, p3]},
                  clocks={"Ana": 1}, roles={"Ana": "doc", "Ben": "marty"})
    labels = [rules.label(state, a) for a in rules.legal_actions(state)]
    assert "MOVE TO 1955 (free)" in labels and "END TURN" in labels
    assert "1955: dany 1T 2R" in labels and "TAKE CLOCK TOKEN" in labels
    state, _ = rules.apply(state, {"type": "play", "card": "dany", "era": "1985"})
    assert [rules.label(state, a) for a in rules.legal_actions(state)] == [
        "t1 (1)", "CLOCK TOKEN"]
    assert all(len(label) <= 21 for label in labels)
    assert types(state) == {"pay"}


def test_event_with_one_card_in_each_era_asks_nothing():
    boards = {"Ana": {"1955": [char("m55", "marty", 1955)], "1985": [char("m85", "marty", 1985)],
                      "2015": [char("m15", "marty", 2015)]}}
    state = table(boards=boards, roles={"Ana": "doc", "Ben": "marty"})
    state, effects = rules.apply(state, {"type": "complete", "event": "e55a"})
    assert "DISCARD m55, m85, m15" in texts(effects)
    assert state.player("Ana").events == ["e55a"]
