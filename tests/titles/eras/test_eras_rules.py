"""One scenario per rule sentence of the era game's rulebook summary (docs/rules/eras.md cites
each test by name). Every test fails if its rule is broken. The cards are test cards."""

from __future__ import annotations

import random

import pytest
from eras_table import char, filler, outcome, play, settle, table, texts, types

from companion.content import demo_pack
from companion.titles.api import CHANCE, TERMINAL, RuleError
from companion.titles.eras import rules

# Test cards: p<n> pays n power, t<n> pays n time, x is a plain card to ripple or keep.
P1 = char("p1", "biff", 2015, power=1, clocks=0, vp=0)
P2 = char("p2", "biff", 2015, power=2, clocks=0, vp=0)
P2B = char("p2b", "biff", 2015, power=2, clocks=0, vp=0)
P3 = char("p3", "biff", 2015, power=3, clocks=0, vp=0)
P4 = char("p4", "biff", 2015, power=4, clocks=0, vp=0)
T1 = char("t1", "biff", 2015, power=0, clocks=1, vp=0)
T1B = char("t1b", "biff", 2015, power=0, clocks=1, vp=0)
T2 = char("t2", "biff", 2015, power=0, clocks=2, vp=0)
T2B = char("t2b", "biff", 2015, power=0, clocks=2, vp=0)
X1 = char("x1", "biff", 2015, power=0, clocks=0, vp=1)
X2 = char("x2", "biff", 2015, power=0, clocks=0, vp=2)
X3 = char("x3", "biff", 2015, power=0, clocks=0, vp=3)


def hand(state: rules.State, name: str) -> list[str]:
    return list(state.player(name).hand)


def board(state: rules.State, name: str) -> dict[str, list[str]]:
    return {era: list(cards) for era, cards in state.player(name).board.items()}


# --------------------------------------------------------------------------- setup


def test_setup_turns_up_one_event_per_era_and_deals_hands():
    pack = demo_pack("eras")
    state = rules.new_game(["Ana", "Ben"], {}, pack)
    rng = random.Random(5)
    for era in rules.ERAS:
        assert rules.actor(state) == CHANCE
        assert rules.legal_actions(state) == [{"type": "reveal", "era": era}]
        with pytest.raises(RuleError, match="still face down"):
            rules.apply(state, {"type": "reveal", "era": era, "event": "vp-55-1"})
        state, effects = rules.apply(state, rules.sample_chance(state, rng))
        assert state.events[state.top[era]]["era"] == era
        assert len(state.hidden[era]) == 2  # three events per era, one face up
        assert effects[0]["kind"] == "event"
    assert rules.legal_actions(state) == [{"type": "deal", "player": "Ana", "count": 5}]
    state, _ = rules.apply(state, rules.sample_chance(state, rng))
    state, _ = rules.apply(state, rules.sample_chance(state, rng))
    assert [len(p.hand) for p in state.players] == [5, 5]
    assert state.phase == "roles" and rules.actor(state) == "Ana"


def test_setup_delorean_starts_in_1985():
    state = rules.new_game(["Ana", "Ben"], {}, demo_pack("eras"))
    assert state.delorean == "1985"
    assert rules.view(state)["delorean"] == "1985"


def test_setup_deals_five_cards_each_unless_the_hand_option_says():
    pack = demo_pack("eras")
    state = settle(rules.new_game(["Ana", "Ben"], {}, pack))
    assert [len(p.hand) for p in state.players] == [5, 5]
    state = settle(rules.new_game(["Ana", "Ben"], {"hand": 7}, pack))
    assert [len(p.hand) for p in state.players] == [7, 7]
    state = rules.new_game(["Ana", "Ben"], {}, pack)
    for _ in range(3):
        state, _ = rules.apply(state, outcome(state))
    with pytest.raises(RuleError, match="draws 5 card"):
        rules.apply(state, {"type": "deal", "player": "Ana", "cards": state.pool[:4]})


def test_two_to_six_players():
    pack = demo_pack("eras")
    with pytest.raises(RuleError, match="2-6 players"):
        rules.new_game(["Ana"], {}, pack)
    with pytest.raises(RuleError, match="2-6 players"):
        rules.new_game([f"P{i}" for i in range(7)], {}, pack)
    state = settle(rules.new_game([f"P{i}" for i in range(6)], {}, pack))
    assert state.phase == "roles" and len(state.players) == 6


# --------------------------------------------------------------------------- rounds and roles


def test_roles_chosen_in_order_from_the_start_player_one_tile_each():
    state = table(("Ana", "Ben", "Cy"))
    assert state.phase == "roles" and rules.actor(state) == "Ana"
    assert [a["role"] for a in rules.legal_actions(state)] == list(rules.ROLES)
    with pytest.raises(RuleError, match="Ana's decision"):
        rules.apply(state, {"type": "role", "player": "Ben", "role": "doc"})
    state, effects = rules.apply(state, {"type": "role", "role": "doc"})
    assert "Ana takes Doc" in texts(effects)
    assert rules.actor(state) == "Ben"
    with pytest.raises(RuleError, match="Ana has already taken Doc"):
        rules.apply(state, {"type": "role", "role": "doc"})
    state, _ = rules.apply(state, {"type": "role", "role": "marty"})
    assert [a["role"] for a in rules.legal_actions(state)] == [
        "george", "lorraine", "biff", "jennifer"]
    state, effects = rules.apply(state, {"type": "role", "role": "lorraine"})
    assert state.phase == "turn" and rules.actor(state) == "Ana"
    assert effects[-1]["kind"] == "turn"


def test_six_players_the_last_takes_the_last_tile():
    names = ("Ana", "Ben", "Cy", "Di", "Ed", "Flo")
    state = table(names)
    for role in ("marty", "doc", "lorraine", "jennifer", "george"):
        state, _ = play(state, {"type": "role", "role": role})
        while state.pending:  # George's swap: keep the hand
            state, _ = play(state, {"type": "pass"})
    assert rules.actor(state) == "Flo"
    assert rules.legal_actions(state) == [{"type": "role", "player": "Flo", "role": "biff"}]


def test_turns_go_clockwise_from_the_start_player():
    roles = {"Ana": "marty", "Ben": "doc", "Cy": "lorraine"}
    state = table(("Ana", "Ben", "Cy"), roles=roles, start=1)
    assert rules.actor(state) == "Ben"
    order = []
    for _ in range(3):
        order.append(rules.actor(state))
        state, _ = play(state, {"type": "end"})
    assert order == ["Ben", "Cy", "Ana"]


def test_round_end_returns_roles_and_passes_the_start_player():
    state = table(("Ana", "Ben", "Cy"), roles={"Ana": "marty", "Ben": "doc", "Cy": "lorraine"})
    for _ in range(3):
        state, effects = play(state, {"type": "end"})
    assert "RETURN the role tiles" in texts(effects)
    assert "START PLAYER token to Ben" in texts(effects)
    assert state.phase == "roles" and state.round == 2
    assert all(p.role is None for p in state.players)
    assert rules.actor(state) == "Ben"
    assert len(rules.legal_actions(state)) == 6  # every tile is back


def test_moves_plays_and_events_in_any_order_and_as_often_as_paid():
    m85 = char("m85", "marty", 1985, clocks=0, vp=1)
    m55 = char("m55", "marty", 1955, clocks=0, vp=2)
    boards = {"Ana": {"1955": [char("b55", "biff", 1955)], "2015": [char("b15", "biff", 2015)]}}
    state = table(hands={"Ana": [m85, m55, P3, P4, X1, X2, X3]}, boards=boards,
                  roles={"Ana": "marty", "Ben": "doc"})
    state, _ = play(state, {"type": "play", "card": "m85", "era": "1985", "ripple": ["x1"]})
    state, _ = play(state, {"type": "complete", "event": "e55a"})  # Marty event: m85 is one
    assert state.player("Ana").events == ["e55a"]
    state, _ = play(state, {"type": "move", "to": "1955", "pay": ["p3"]})
    state, _ = play(state, {"type": "play", "card": "m55", "ripple": ["x2", "x3"]})
    state, _ = play(state, {"type": "move", "to": "2015", "pay": ["p4"]})
    assert state.delorean == "2015" and state.turn["played"] == 2
    assert board(state, "Ana") == {"1955": ["m55"], "1985": [], "2015": []}  # event used 3
    assert rules.actor(state) == "Ana" and "end" in types(state)


# --------------------------------------------------------------------------- moving


def test_move_to_any_era_costs_three_power():
    state = table(hands={"Ana": [P2, P2B, P1]}, roles={"Ana": "lorraine", "Ben": "marty"})
    moves = [a for a in rules.legal_actions(state) if a["type"] == "move"]
    assert moves == [{"type": "move", "to": "1955"}, {"type": "move", "to": "2015"}]
    with pytest.raises(RuleError, match="already in 1985"):
        rules.apply(state, {"type": "move", "to": "1985"})
    state, effects = rules.apply(state, {"type": "move", "to": "2015"})
    assert state.delorean == "1985" and "pay 3 power" in texts(effects)
    assert [a["with"] for a in rules.legal_actions(state)] == ["p2", "p2b", "p1"]
    state, _ = rules.apply(state, {"type": "pay", "with": "p2"})
    assert state.pending[0]["due"] == 1
    state, effects = rules.apply(state, {"type": "pay", "with": "p1"})
    assert state.delorean == "2015" and "MOVE the DeLorean to 2015" in texts(effects)
    assert hand(state, "Ana") == ["p2b"] and state.discard == ["p2", "p1"]
    with pytest.raises(RuleError, match="costs 3 power; Ana has 2"):
        rules.apply(state, {"type": "move", "to": "1955"})


def test_move_between_1955_and_2015_is_one_trip():
    state = table(hands={"Ana": [P3]}, delorean="1955", roles={"Ana": "marty", "Ben": "doc"})
    # Marty's free card pays a Marty card's time, never a trip's power: said as such
    with pytest.raises(RuleError, match="never a trip's power"):
        rules.apply(state, {"type": "move", "to": "2015", "pay": ["free"]})
    state, _ = play(state, {"type": "move", "to": "2015", "pay": ["p3"]})
    assert state.delorean == "2015" and hand(state, "Ana") == []


def test_move_is_paid_by_discarding_power_at_least_three():
    state = table(hands={"Ana": [P2, P4]}, roles={"Ana": "marty", "Ben": "doc"})
    with pytest.raises(RuleError, match="1 power still due"):
        rules.apply(state, {"type": "move", "to": "1955", "pay": ["p2"]})
    with pytest.raises(RuleError, match="more than the cost"):
        rules.apply(state, {"type": "move", "to": "1955", "pay": ["p4", "p2"]})
    paid, _ = rules.apply(state, {"type": "move", "to": "1955", "pay": ["p4"]})
    assert paid.delorean == "1955" and hand(paid, "Ana") == ["p2"]
    over, _ = rules.apply(state, {"type": "move", "to": "1955", "pay": ["p2", "p4"]})
    assert over.delorean == "1955" and hand(over, "Ana") == []  # 6 power for 3 is allowed


# --------------------------------------------------------------------------- playing cards


def test_play_needs_own_role():
    d85 = char("d85", "doc", 1985, clocks=0)
    state = table(hands={"Ana": [d85, X1]}, roles={"Ana": "marty", "Ben": "doc"})
    assert "play" not in types(state)
    with pytest.raises(RuleError, match="d85 is a Doc card: Ana plays Marty this round"):
        rules.apply(state, {"type": "play", "card": "d85"})


def test_play_needs_the_delorean_in_the_cards_era():
    m55 = char("m55", "marty", 1955, clocks=0)
    state = table(hands={"Ana": [m55, X1, X2]}, roles={"Ana": "marty", "Ben": "doc"})
    assert "play" not in types(state)
    with pytest.raises(RuleError, match="the DeLorean is in 1985: move it to 1955 first, "
                                        "then play m55"):
        rules.apply(state, {"type": "play", "card": "m55"})
    with pytest.raises(RuleError, match="m55 can only be played into 1955"):
        rules.apply(state, {"type": "play", "card": "m55", "era": "1985"})


def test_play_needs_a_payable_cost():
    d85 = char("d85", "doc", 1985, clocks=3)
    state = table(hands={"Ana": [d85, T1, X1]}, clocks={"Ana": 0},
                  roles={"Ana": "doc", "Ben": "marty"})
    assert "play" not in types(state)
    with pytest.raises(RuleError, match="d85 costs 3 time; Ana has 1"):
        rules.apply(state, {"type": "play", "card": "d85"})
    rich = table(hands={"Ana": [d85, T1, X1]}, clocks={"Ana": 1},
                 roles={"Ana": "doc", "Ben": "marty"})  # a clock token adds 2 time
    assert {"type": "play", "card": "d85", "era": "1985"} in rules.legal_actions(rich)


def test_played_card_goes_to_its_era_on_the_board():
    m85 = char("m85", "marty", 1985, clocks=1)
    state = table(hands={"Ana": [m85, T1, X1]}, roles={"Ana": "marty", "Ben": "doc"})
    assert {"type": "play", "card": "m85", "era": "1985"} in rules.legal_actions(state)
    state, effects = play(state, {"type": "play", "card": "m85"}, {"type": "pay", "with": "t1"},
                          {"type": "ripple", "card": "x1"})
    assert board(state, "Ana")["1985"] == ["m85"]
    assert "Ana: PUT m85 on your 1985" in texts(effects)
    assert hand(state, "Ana") == [] and state.player("Ana").ripple == ["x1"]


def test_infinity_card_goes_into_any_era():
    m_any = char("many", "marty", "any", clocks=0)
    state = table(hands={"Ana": [m_any, X1, X2]}, roles={"Ana": "marty", "Ben": "doc"})
    plays = [a for a in rules.legal_actions(state) if a["type"] == "play"]
    assert [a["era"] for a in plays] == ["1955", "1985", "2015"]  # the DeLorean is in 1985
    into_2015, _ = play(state, {"type": "play", "card": "many", "era": "2015"})
    assert board(into_2015, "Ana")["2015"] == ["many"] and into_2015.player("Ana").ripple == []
    into_1955, _ = play(state, {"type": "play", "card": "many", "era": "1955",
                                "ripple": ["x1", "x2"]})
    assert board(into_1955, "Ana")["1955"] == ["many"]  # ripple by the era played into
    assert into_1955.player("Ana").ripple == ["x1", "x2"]


def test_time_cost_paid_with_clock_icons_at_least_the_cost():
    d85 = char("d85", "doc", 1985, clocks=3)
    state = table(hands={"Ana": [d85, T2, T2B, T1, X1]}, roles={"Ana": "doc", "Ben": "marty"})
    state, effects = rules.apply(state, {"type": "play", "card": "d85"})
    assert "3 time, 1 ripple" in texts(effects)
    assert {a["with"] for a in rules.legal_actions(state)} == {"t2", "t2b", "t1"}
    state, _ = rules.apply(state, {"type": "pay", "with": "t2"})
    assert state.pending[0]["due"] == 1
    state, _ = rules.apply(state, {"type": "pay", "with": "t2b"})  # 4 clocks for 3 is allowed
    assert state.pending[0]["step"] == "ripple"
    assert state.discard == ["t2", "t2b"] and "t1" in hand(state, "Ana")


def test_ripple_cost_two_in_1955_one_in_1985_none_in_2015():
    cards = [char(f"m{i}", "marty", "any", clocks=0) for i in range(3)]
    state = table(hands={"Ana": cards + [X1, X2, X3]}, roles={"Ana": "marty", "Ben": "doc"})
    state, _ = rules.apply(state, {"type": "play", "card": "m0", "era": "1955"})
    assert (state.pending[0]["low"], state.pending[0]["high"]) == (2, 2)
    state, _ = rules.apply(state, {"type": "ripple", "card": "x1"})
    assert "pass" not in types(state)
    with pytest.raises(RuleError, match="1955 needs 2 ripple card"):
        rules.apply(state, {"type": "pass"})
    state, effects = rules.apply(state, {"type": "ripple", "card": "x2"})
    assert "face down under the ripple token" in texts(effects)
    assert "x1" not in texts(effects)  # face down: the card is never announced
    state, _ = rules.apply(state, {"type": "play", "card": "m1", "era": "1985"})
    state, _ = rules.apply(state, {"type": "ripple", "card": "x3"})
    state, _ = rules.apply(state, {"type": "play", "card": "m2", "era": "2015"})
    assert not state.pending
    assert board(state, "Ana") == {"1955": ["m0"], "1985": ["m1"], "2015": ["m2"]}
    assert state.player("Ana").ripple == ["x1", "x2", "x3"]


def test_ripple_cards_score_their_vp_at_the_end():
    m55 = char("m55", "marty", 1955, clocks=0, vp=0)
    state = table(hands={"Ana": [m55, X2, X3, X1]}, delorean="1955",
                  roles={"Ana": "marty", "Ben": "doc"})
    state, _ = play(state, {"type": "play", "card": "m55", "ripple": ["x2", "x3"]})
    assert rules.score(state, state.player("Ana"))["ripple"] == 5


# --------------------------------------------------------------------------- events

EVENT_BOARD = {"1955": [char("m55", "marty", 1955, vp=2)],
               "1985": [char("b85", "biff", 1985, vp=1)],
               "2015": [char("b15", "biff", 2015, vp=1)]}


def test_event_gives_the_top_vp_token_of_its_era():
    state = table(boards={"Ana": EVENT_BOARD}, roles={"Ana": "doc", "Ben": "marty"})
    assert {"type": "complete", "event": "e55a"} in rules.legal_actions(state)
    state, effects = rules.apply(state, {"type": "complete", "event": "e55a"})
    assert "+5 VP" in texts(effects) and "TAKE the 1955 event and its top VP token (5)" in texts(
        effects)
    ana = state.player("Ana")
    assert ana.events == ["e55a"] and ana.tokens == ["vp55-1"]
    assert state.stacks["1955"] == ["vp55-2", "vp55-3"]
    assert rules.actor(state) == CHANCE  # the next 1955 event is turned up at once
    state, _ = rules.apply(state, outcome(state))
    assert state.top["1955"] == "e55b"
    assert rules.view(state)["eras"]["1955"]["next_vp"] == 4


def test_event_needs_a_card_in_every_era():
    boards = {"Ana": {"1955": EVENT_BOARD["1955"], "1985": EVENT_BOARD["1985"]}}
    state = table(boards=boards, roles={"Ana": "doc", "Ben": "marty"})
    assert "complete" not in types(state)
    with pytest.raises(RuleError, match="needs a card in every era of Ana's board; 2015 empty"):
        rules.apply(state, {"type": "complete", "event": "e55a"})


def test_event_needs_its_role_in_play():
    boards = {"Ana": {**EVENT_BOARD, "1955": [char("d55", "doc", 1955)]}}
    state = table(boards=boards, roles={"Ana": "marty", "Ben": "doc"})
    with pytest.raises(RuleError, match="needs a Marty card in play on Ana's board"):
        rules.apply(state, {"type": "complete", "event": "e55a"})
    # the Doc event of 2015 is complete-able: its role is on the board, whatever Ana plays
    assert {"type": "complete", "event": "e15a"} in rules.legal_actions(state)


def test_event_discards_the_cards_used_and_keeps_the_rest():
    boards = {"Ana": {"1955": [char("m55", "marty", 1955), char("g55", "george", 1955)],
                      "1985": [char("b85", "biff", 1985), char("d85", "doc", 1985)],
                      "2015": [char("b15", "biff", 2015)]}}
    state = table(boards=boards, roles={"Ana": "doc", "Ben": "marty"})
    state, _ = rules.apply(state, {"type": "complete", "event": "e55a"})
    # the Marty card and the 2015 card leave no choice; 1985 has two cards
    assert rules.legal_actions(state) == [{"type": "use", "card": "b85"},
                                          {"type": "use", "card": "d85"}]
    state, effects = rules.apply(state, {"type": "use", "card": "d85"})
    assert "DISCARD m55, d85, b15" in texts(effects)
    assert board(state, "Ana") == {"1955": ["g55"], "1985": ["b85"], "2015": []}
    assert state.discard == ["m55", "d85", "b15"]


# --------------------------------------------------------------------------- clock tower tokens


def test_clock_token_only_on_a_turn_without_play_or_event():
    m85 = char("m85", "marty", 1985, clocks=0)
    state = table(hands={"Ana": [m85, X1]}, roles={"Ana": "marty", "Ben": "doc"})
    assert "clock" in types(state)
    state, _ = play(state, {"type": "play", "card": "m85", "ripple": ["x1"]})
    assert "clock" not in types(state)
    with pytest.raises(RuleError, match="no card played and no event completed"):
        rules.apply(state, {"type": "clock"})
    state, _ = play(state, {"type": "end"})
    state, effects = rules.apply(state, {"type": "clock"})
    assert state.player("Ben").clocks == 1 and "Ben: TAKE a clock tower token" in texts(effects)
    with pytest.raises(RuleError, match="already taken a clock tower token this turn"):
        rules.apply(state, {"type": "clock"})


def test_at_most_two_clock_tokens():
    state = table(clocks={"Ana": 2}, roles={"Ana": "marty", "Ben": "doc"})
    assert "clock" not in types(state)
    with pytest.raises(RuleError, match="already has 2 clock tower tokens"):
        rules.apply(state, {"type": "clock"})


def test_clock_token_pays_three_power_or_two_time():
    m85 = char("m85", "marty", 1985, clocks=2)
    state = table(hands={"Ana": [m85, X1]}, clocks={"Ana": 2},
                  roles={"Ana": "marty", "Ben": "doc"})
    state, _ = rules.apply(state, {"type": "play", "card": "m85"})
    assert rules.legal_actions(state) == [{"type": "pay", "with": "clock"},
                                          {"type": "pay", "with": "free"}]
    state, effects = rules.apply(state, {"type": "pay", "with": "clock"})
    assert "RETURN 1 clock tower token (2)" in texts(effects)
    assert state.pending[0]["step"] == "ripple"  # 2 time paid in full
    state, _ = play(state, {"type": "ripple", "card": "x1"},
                    {"type": "move", "to": "1955"}, {"type": "pay", "with": "clock"})
    assert state.delorean == "1955" and state.player("Ana").clocks == 0


def test_clock_token_taken_this_turn_pays_a_move_but_no_card():
    m85 = char("m85", "marty", 1985, clocks=2)
    state = table(hands={"Ana": [m85, X1]}, roles={"Ana": "marty", "Ben": "doc"})
    state, _ = rules.apply(state, {"type": "clock"})
    assert types(state) == {"move", "end"}
    with pytest.raises(RuleError, match="cannot pay card costs"):
        rules.apply(state, {"type": "play", "card": "m85"})
    state, _ = play(state, {"type": "move", "to": "1955", "pay": ["clock"]})
    assert state.delorean == "1955" and state.player("Ana").clocks == 0


def test_clock_tokens_score_one_each():
    state = table(clocks={"Ana": 2, "Ben": 1}, roles={"Ana": "marty", "Ben": "doc"})
    assert rules.score(state, state.player("Ana"))["clocks"] == 2
    assert rules.score(state, state.player("Ana"))["total"] == 2
    assert rules.score(state, state.player("Ben"))["total"] == 1


# --------------------------------------------------------------------------- refill


@pytest.mark.parametrize("era, count", [("1955", 2), ("1985", 1), ("2015", 0)])
def test_refill_by_the_deloreans_era(era, count):
    state = table(delorean=era, roles={"Ana": "marty", "Ben": "doc"})
    state, _ = rules.apply(state, {"type": "end"})
    if count:
        assert rules.actor(state) == CHANCE
        assert rules.legal_actions(state) == [{"type": "draw", "player": "Ana", "count": count}]
        state, effects = rules.apply(state, outcome(state))
        assert f"Ana: DRAW {count}" in texts(effects)
    assert len(hand(state, "Ana")) == count
    assert rules.actor(state) == "Ben"


# --------------------------------------------------------------------------- the six roles


def test_marty_plays_one_marty_card_without_time_but_pays_ripple():
    big = char("big", "marty", 1985, clocks=3)
    small = char("small", "marty", 1985, clocks=1)
    state = table(hands={"Ana": [big, small, T1, X1, X2]}, roles={"Ana": "marty", "Ben": "doc"})
    state, _ = rules.apply(state, {"type": "play", "card": "big"})
    assert {"type": "pay", "with": "free"} in rules.legal_actions(state)
    state, effects = rules.apply(state, {"type": "pay", "with": "free"})
    assert "MARTY: big is played without its time cost" in texts(effects)
    assert state.pending[0]["step"] == "ripple"  # the ripple is still paid
    state, _ = rules.apply(state, {"type": "ripple", "card": "x1"})
    state, _ = rules.apply(state, {"type": "play", "card": "small"})  # more cards as usual
    assert rules.legal_actions(state) == [{"type": "pay", "with": "t1"}]  # no second free card
    state, _ = play(state, {"type": "pay", "with": "t1"}, {"type": "ripple", "card": "x2"})
    assert board(state, "Ana")["1985"] == ["big", "small"]


def test_marty_free_card_used_already_is_refused_with_the_time_to_pay():
    first = char("first", "marty", "any", clocks=2)
    second = char("second", "marty", 1985, clocks=1)
    state = table(hands={"Ana": [first, second, T1, X1, X2]},
                  roles={"Ana": "marty", "Ben": "doc"})
    state, _ = rules.apply(state, {"type": "play", "card": "first", "era": "2015",
                                   "pay": ["free"]})
    with pytest.raises(RuleError) as refused:
        rules.apply(state, {"type": "play", "card": "second", "era": "1985", "pay": ["free"]})
    assert str(refused.value) == (
        "Marty's free card is already used this turn: pay the 1 time of second")
    state, _ = rules.apply(state, {"type": "play", "card": "second", "era": "1985"})
    with pytest.raises(RuleError, match="free card is already used this turn: pay the 1 time"):
        rules.apply(state, {"type": "pay", "with": "free"})
    # another player's Marty card is still the other reason
    dear = char("dear", "marty", 1985, clocks=2)  # Jennifer's first card: 1 time off
    jen = table(hands={"Ana": [dear, T1, X1]}, roles={"Ana": "jennifer", "Ben": "doc"})
    jen, _ = rules.apply(jen, {"type": "play", "card": "dear", "era": "1985"})
    with pytest.raises(RuleError, match="only Marty's player pays no time"):
        rules.apply(jen, {"type": "pay", "with": "free"})


def test_doc_moves_once_free_then_pays():
    state = table(hands={"Ana": [P3]}, roles={"Ana": "doc", "Ben": "marty"})
    state, effects = rules.apply(state, {"type": "move", "to": "1955"})
    assert "DOC: Ana moves the DeLorean for free" in texts(effects)
    assert state.delorean == "1955" and hand(state, "Ana") == ["p3"] and not state.pending
    state, _ = rules.apply(state, {"type": "move", "to": "2015"})
    assert state.pending[0]["step"] == "pay" and state.pending[0]["due"] == 3
    state, _ = rules.apply(state, {"type": "pay", "with": "p3"})
    assert state.delorean == "2015"
    with pytest.raises(RuleError, match="costs 3 power"):
        rules.apply(state, {"type": "move", "to": "1985"})


def test_lorraine_moves_one_played_card_to_an_adjacent_era():
    boards = {"Ana": {"1955": [char("l55", "lorraine", 1955)],
                      "1985": [char("b85", "biff", 1985)],
                      "2015": [char("b15", "biff", 2015)]}}
    state = table(boards=boards, roles={"Ana": "lorraine", "Ben": "marty"})
    shifts = [(a["card"], a["to"]) for a in rules.legal_actions(state) if a["type"] == "shift"]
    assert shifts == [("l55", "1985"), ("b85", "1955"), ("b85", "2015"), ("b15", "1985")]
    with pytest.raises(RuleError, match="l55 is in 1955: it may move to 1985 only"):
        rules.apply(state, {"type": "shift", "card": "l55", "to": "2015"})
    state, effects = rules.apply(state, {"type": "shift", "card": "b85", "to": "2015"})
    assert "LORRAINE: Ana moves b85 from 1985 to 2015" in texts(effects)
    assert board(state, "Ana") == {"1955": ["l55"], "1985": [], "2015": ["b15", "b85"]}
    with pytest.raises(RuleError, match="one card a turn"):
        rules.apply(state, {"type": "shift", "card": "l55", "to": "1985"})
    state, _ = play(state, {"type": "end"})
    with pytest.raises(RuleError, match="only Lorraine's player"):
        rules.apply(state, {"type": "shift", "card": "l55", "to": "1985"})


def test_george_draws_then_may_swap_one_card():
    state = table(hands={"Ana": [X1]}, deck=filler(5), roles={"Ana": "george"}, resolve=False)
    assert rules.legal_actions(state) == [{"type": "draw", "player": "Ana", "count": 1}]
    state, _ = rules.apply(state, {"type": "draw", "player": "Ana", "cards": ["f00"]})
    assert hand(state, "Ana") == ["x1", "f00"] and rules.actor(state) == "Ana"
    assert rules.legal_actions(state) == [{"type": "discard", "card": "x1"},
                                          {"type": "discard", "card": "f00"}, {"type": "pass"}]
    swapped, effects = rules.apply(state, {"type": "discard", "card": "f00"})  # the drawn card
    assert "GEORGE: Ana discards f00" in texts(effects)
    swapped, _ = rules.apply(swapped, {"type": "draw", "cards": ["f01"]})
    assert hand(swapped, "Ana") == ["x1", "f01"] and swapped.discard == ["f00"]
    assert rules.actor(swapped) == "Ben"  # the next player chooses a role
    kept, _ = rules.apply(state, {"type": "pass"})
    assert hand(kept, "Ana") == ["x1", "f00"] and rules.actor(kept) == "Ben"


def test_georges_swap_never_draws_back_the_card_given_up():
    """「別のカードを1枚引く」(draw another card): with the deck empty, the discard pile is
    shuffled without the card George just gave up (decision 38)."""
    state = table(hands={"Ana": [X1]}, deck=filler(1), roles={"Ana": "george"}, resolve=False)
    state, _ = rules.apply(state, {"type": "draw", "player": "Ana", "cards": ["f00"]})
    assert state.deck == 0 and state.discard == []
    swapped, _ = rules.apply(state, {"type": "discard", "card": "x1"})
    # nothing else to draw: the swap gives nothing, and the next player chooses a role
    assert hand(swapped, "Ana") == ["f00"] and swapped.discard == ["x1"]
    assert swapped.exhausted and rules.actor(swapped) == "Ben"
    # with another card in the discard pile, that one is drawn, never the one given up
    state = table(hands={"Ana": [X1]}, deck=filler(1), discard=[X2], roles={"Ana": "george"},
                  resolve=False)
    state, _ = rules.apply(state, {"type": "draw", "player": "Ana", "cards": ["f00"]})
    swapped, _ = rules.apply(state, {"type": "discard", "card": "x1"})
    with pytest.raises(RuleError, match="x1 not in the deck"):
        rules.apply(swapped, {"type": "draw", "cards": ["x1"]})
    swapped, effects = rules.apply(swapped, {"type": "draw", "cards": ["x2"]})
    assert hand(swapped, "Ana") == ["f00", "x2"] and swapped.discard == ["x1"]
    assert "SHUFFLE the discard pile: it is the new deck" in texts(effects)
    # unnamed, at the table: one card drawn, the card given up still face up
    unnamed, _ = rules.apply(rules.apply(state, {"type": "discard", "card": "x1"})[0],
                             {"type": "draw"})
    assert unnamed.discard == ["x1"] and unnamed.player("Ana").unseen == 1


def test_biff_steals_a_card_from_another_hand():
    hands = {"Ben": [char("b1", "doc")], "Cy": [char("c1", "doc"), char("c2", "doc")]}
    state = table(("Ana", "Ben", "Cy"), hands=hands, roles={"Ana": "biff"}, resolve=False)
    assert rules.legal_actions(state) == [{"type": "steal", "from": "Ben"},
                                          {"type": "steal", "from": "Cy"}]
    state, _ = rules.apply(state, {"type": "steal", "from": "Cy"})
    assert rules.actor(state) == CHANCE  # drawn blind from Cy's hand
    with pytest.raises(RuleError, match="one of the cards in Cy's hand"):
        rules.apply(state, {"type": "stolen", "card": "b1"})
    state, effects = rules.apply(state, {"type": "stolen", "card": "c2"})
    assert "BIFF: Ana takes 1 card from Cy's hand, blind" in texts(effects)
    assert "c2" not in texts(effects)
    assert hand(state, "Ana") == ["c2"] and hand(state, "Cy") == ["c1"]
    assert rules.actor(state) == "Ben"


def test_biff_with_one_victim_needs_no_choice_and_with_none_steals_nothing():
    state = table(hands={"Ben": [char("b1", "doc")]}, roles={"Ana": "biff"}, resolve=False)
    assert rules.legal_actions(state) == [{"type": "stolen", "from": "Ben"}]
    state = table(roles={"Ana": "biff"}, resolve=False)  # Ben's hand is empty
    assert rules.actor(state) == "Ben"


def test_jennifer_plays_any_role_and_the_first_costs_one_less():
    d85 = char("d85", "doc", 1985, clocks=2)
    g85 = char("g85", "george", 1985, clocks=2)
    state = table(hands={"Ana": [d85, g85, T1, T2, X1, X2]},
                  roles={"Ana": "jennifer", "Ben": "marty"})
    plays = {a["card"] for a in rules.legal_actions(state) if a["type"] == "play"}
    assert plays == {"d85", "g85"}
    state, effects = rules.apply(state, {"type": "play", "card": "d85"})
    assert "2 time" not in texts(effects) and "1 time" in texts(effects)
    state, _ = play(state, {"type": "pay", "with": "t1"}, {"type": "ripple", "card": "x1"})
    state, effects = rules.apply(state, {"type": "play", "card": "g85"})
    assert "2 time" in texts(effects)  # only the first card is cheaper
    state, _ = play(state, {"type": "pay", "with": "t2"}, {"type": "ripple", "card": "x2"})
    assert board(state, "Ana")["1985"] == ["d85", "g85"]


# --------------------------------------------------------------------------- the end

ENDGAME_BOARD = {"1955": [char("m55", "marty", 1955, vp=1), char("b55", "biff", 1955, vp=1)],
                 "1985": [char("l85", "lorraine", 1985, vp=2), char("b85", "biff", 1985, vp=2)],
                 "2015": [char("b15a", "biff", 2015, vp=0), char("b15b", "biff", 2015, vp=3)]}
SHORT = {"1955": [("e55a", "marty", None)], "1985": [("e85a", "lorraine", None)]}


def endgame(**kw):
    return table(boards={"Ana": ENDGAME_BOARD}, events=SHORT,
                 roles={"Ana": "jennifer", "Ben": "doc"}, **kw)


def test_game_ends_at_the_end_of_the_round_in_which_a_second_era_runs_out():
    state = endgame()
    state, effects = play(state, {"type": "complete", "event": "e55a",
                                  "cards": ["m55", "b85", "b15a"]})
    assert "1955 has no events left" in texts(effects) and not state.last_round
    state, effects = play(state, {"type": "complete", "event": "e85a",
                                  "cards": ["b55", "l85", "b15b"]})
    assert "LAST ROUND" in texts(effects) and state.last_round
    state, _ = play(state, {"type": "end"})
    assert rules.actor(state) == "Ben"  # the round is finished first
    state, effects = play(state, {"type": "clock"}, {"type": "end"})
    assert rules.actor(state) == TERMINAL and rules.is_terminal(state)
    assert "RETURN the role tiles" in texts(effects)
    assert rules.winners(state) == ["Ana"]
    assert rules.legal_actions(state) == []
    with pytest.raises(RuleError, match="the game is over"):
        rules.apply(state, {"type": "end"})


def test_score_adds_tokens_cards_ripple_and_clocks():
    m85 = char("m85", "marty", 1985, clocks=0, vp=2)
    state = table(hands={"Ana": [m85, X3]}, boards={"Ana": ENDGAME_BOARD}, events=SHORT,
                  clocks={"Ana": 1}, roles={"Ana": "jennifer", "Ben": "doc"})
    state, _ = play(
        state,
        {"type": "complete", "event": "e55a", "cards": ["m55", "b85", "b15a"]},  # 5 VP
        {"type": "complete", "event": "e85a", "cards": ["b55", "l85", "b15b"]},  # 4 VP
        {"type": "play", "card": "m85", "ripple": ["x3"]},  # 2 VP on the board, 3 VP ripple
        {"type": "end"}, {"type": "clock"}, {"type": "end"},
    )
    ana = rules.score(state, state.player("Ana"))
    assert ana == {"tokens": 9, "cards": 2, "ripple": 3, "clocks": 1, "total": 15, "events": 2}
    assert rules.view(state)["players"][0]["score"]["total"] == 15


def test_highest_total_wins():
    state = endgame()
    state, effects = play(
        state, {"type": "complete", "event": "e55a", "cards": ["m55", "b85", "b15a"]},
        {"type": "complete", "event": "e85a", "cards": ["b55", "l85", "b15b"]},
        {"type": "end"}, {"type": "clock"}, {"type": "end"})
    totals = {p.name: rules.score(state, p)["total"] for p in state.players}
    assert totals == {"Ana": 9, "Ben": 1}
    assert rules.winners(state) == ["Ana"] and "Ana WIN(S) with 9 VP" in texts(effects)
