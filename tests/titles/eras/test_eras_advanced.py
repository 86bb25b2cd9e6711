"""The advanced rules: one scenario per B-side effect the rulebook summary lists, and for when
an effect is in force (docs/rules/eras.md cites each test). The cards are test cards."""

from __future__ import annotations

import pytest
from eras_table import char, filler, outcome, play, table, texts, types

from companion.titles.api import CHANCE, RuleError
from companion.titles.eras import rules

X1 = char("x1", "biff", 2015, power=0, clocks=0, vp=1)
X2 = char("x2", "biff", 2015, power=0, clocks=0, vp=2)
X3 = char("x3", "biff", 2015, power=0, clocks=0, vp=3)
ROLES = {"Ana": "marty", "Ben": "doc"}


def events(era: str, *effects: str, roles: tuple[str, ...] = ("marty", "doc", "george")):
    """An era's event stack, top first, with the B sides given."""
    return {era: [(f"e{era[2:]}{i}", roles[i], effect) for i, effect in enumerate(effects)]}


def ripple_range(state: rules.State) -> tuple[int, int]:
    step = state.pending[0]
    assert step["step"] == "ripple", step
    return step["low"], step["high"]


# --------------------------------------------------------------------------- when they apply


def test_b_sides_only_with_the_advanced_option():
    m15 = char("m15", "marty", 2015, clocks=0)
    kw = dict(hands={"Ana": [m15, X1]}, delorean="2015", roles=ROLES,
              events=events("2015", "ripple-backwards", "none", "none"))
    basic = table(**kw)
    assert rules.view(basic)["effect"] is None
    placed, _ = rules.apply(basic, {"type": "play", "card": "m15"})
    assert placed.player("Ana").board["2015"] == ["m15"]  # no ripple in 2015
    advanced = table(advanced=True, **kw)
    assert rules.view(advanced)["effect"]["key"] == "ripple-backwards"
    state, _ = rules.apply(advanced, {"type": "play", "card": "m15"})
    assert ripple_range(state) == (1, 1)


def test_advanced_rules_need_every_b_side_registered():
    with pytest.raises(RuleError, match="B side of every event; not registered for: e5"):
        table(advanced=True, events=events("1955", "draw-1", None, None))  # type: ignore[arg-type]


def test_b_side_applies_only_while_the_delorean_is_in_its_era():
    m_any = char("many", "marty", "any", clocks=3)
    evs = events("1955", "cost-minus-2", "draw-1", "draw-1")
    away = table(hands={"Ana": [m_any, X1, X2]}, advanced=True, events=evs, roles=ROLES,
                 clocks={"Ana": 2})
    state, effects = rules.apply(away, {"type": "play", "card": "many", "era": "1955"})
    assert "3 time" in texts(effects)  # the DeLorean is in 1985: the 1955 B side is asleep
    there = table(hands={"Ana": [m_any, X1, X2]}, advanced=True, events=evs, roles=ROLES,
                  delorean="1955", clocks={"Ana": 2})
    state, effects = rules.apply(there, {"type": "play", "card": "many", "era": "1955"})
    assert "1 time" in texts(effects)
    state, effects = rules.apply(there, {"type": "play", "card": "many", "era": "1985"})
    assert "3 time" in texts(effects)  # only cards played into 1955 are cheaper


def test_b_side_is_announced_when_the_delorean_arrives():
    evs = events("2015", "ripple-backwards", "none", "none")
    state = table(advanced=True, events=evs, roles={"Ana": "doc", "Ben": "marty"})
    state, effects = rules.apply(state, {"type": "move", "to": "2015"})
    assert "2015: a card played into 2015 needs 1 ripple card" in texts(effects)


def test_next_event_effect_is_active_at_once():
    board = {"1955": [char("b55", "biff", 1955)], "1985": [char("b85", "biff", 1985)],
             "2015": [char("m15a", "marty", 2015)]}
    m15 = char("m15", "marty", 2015, clocks=0)
    evs = events("2015", "none", "ripple-backwards", "none", roles=("marty", "doc", "biff"))
    state = table(hands={"Ana": [m15, X1]}, boards={"Ana": board}, delorean="2015",
                  advanced=True, events=evs, roles=ROLES)
    state, _ = rules.apply(state, {"type": "complete", "event": "e150"})
    assert rules.actor(state) == CHANCE
    state, effects = rules.apply(state, {"type": "reveal", "era": "2015", "event": "e151"})
    assert "When you play a character, you must pay a Ripple backwards in time" in texts(effects)
    assert rules.view(state)["effect"]["key"] == "ripple-backwards"
    state, _ = rules.apply(state, {"type": "play", "card": "m15"})  # the same turn
    assert ripple_range(state) == (1, 1)


# --------------------------------------------------------------------------- 1955


def test_b_draw_1_may_draw_one_more_at_the_end():
    state = table(advanced=True, events=events("1955", "draw-1", "draw-1", "draw-1"),
                  delorean="1955", roles=ROLES)
    state, _ = rules.apply(state, {"type": "end"})
    assert rules.legal_actions(state) == [{"type": "extra"}, {"type": "pass"}]
    more, _ = rules.apply(state, {"type": "extra"})
    assert rules.legal_actions(more) == [{"type": "draw", "player": "Ana", "count": 3}]
    usual, _ = rules.apply(state, {"type": "pass"})
    assert rules.legal_actions(usual) == [{"type": "draw", "player": "Ana", "count": 2}]


def test_b_cost_minus_2_in_1955():
    three = char("m3", "marty", 1955, clocks=3)
    two = char("m2", "marty", 1955, clocks=2)
    state = table(hands={"Ana": [three, two, X1, X2, X3, char("x4", "biff", 2015)]},
                  advanced=True, events=events("1955", "cost-minus-2", "draw-1", "draw-1"),
                  delorean="1955", roles={"Ana": "lorraine", "Ben": "doc"})
    assert rules.play_cost(state, "m3", "1955")["time"] == 1
    assert rules.play_cost(state, "m2", "1955")["time"] == 0


def test_discounts_stack_and_never_go_below_zero():
    three = char("m3", "marty", 1955, clocks=3)
    state = table(hands={"Ana": [three, X1, X2]}, advanced=True,
                  events=events("1955", "cost-minus-2", "draw-1", "draw-1"), delorean="1955",
                  roles={"Ana": "jennifer", "Ben": "doc"})
    assert rules.play_cost(state, "m3", "1955")["time"] == 0  # 3 - 1 (Jennifer) - 2
    state, _ = rules.apply(state, {"type": "play", "card": "m3"})
    assert state.pending[0]["step"] == "ripple"  # nothing to pay, nothing paid back


def test_b_clock_anyway_after_a_play():
    m55 = char("m55", "marty", 1955, clocks=0)
    evs = events("1955", "clock-anyway", "draw-1", "draw-1")
    state = table(hands={"Ana": [m55, X1, X2]}, advanced=True, events=evs, delorean="1955",
                  roles=ROLES)
    state, _ = play(state, {"type": "play", "card": "m55", "ripple": ["x1", "x2"]})
    assert "clock" in types(state)
    state, _ = rules.apply(state, {"type": "clock"})
    assert state.player("Ana").clocks == 1
    full = table(hands={"Ana": [m55, X1, X2]}, advanced=True, events=evs, delorean="1955",
                 roles=ROLES, clocks={"Ana": 2})
    full, _ = play(full, {"type": "play", "card": "m55", "ripple": ["x1", "x2"]})
    with pytest.raises(RuleError, match="already has 2 clock tower tokens"):
        rules.apply(full, {"type": "clock"})


def test_b_clock_anyway_token_comes_at_the_end_of_the_turn():
    m55 = char("m55", "marty", 1955, clocks=0)
    p3 = char("p3", "biff", 2015, power=3, clocks=0)
    evs = events("1955", "clock-anyway", "draw-1", "draw-1")
    state = table(hands={"Ana": [m55, X1, X2, p3]}, advanced=True, events=evs, delorean="1955",
                  roles=ROLES)
    state, _ = play(state, {"type": "play", "card": "m55", "ripple": ["x1", "x2"]},
                    {"type": "clock"})
    assert rules.legal_actions(state) == [{"type": "end"}]  # the DeLorean stays in 1955
    with pytest.raises(RuleError, match="END TURN: Ana has already taken a clock tower token"):
        rules.apply(state, {"type": "move", "to": "2015", "pay": ["p3"]})
    # without a play the token is the basic one, and a trip may follow it
    plain = table(hands={"Ana": [p3]}, advanced=True, events=evs, delorean="1955", roles=ROLES)
    plain, _ = play(plain, {"type": "clock"}, {"type": "move", "to": "2015", "pay": ["p3"]})
    assert plain.delorean == "2015" and plain.player("Ana").clocks == 1


def test_b_skip_second_ripple_pays_one_or_two():
    m55 = char("m55", "marty", 1955, clocks=0)
    evs = events("1955", "skip-second-ripple", "draw-1", "draw-1")
    state = table(hands={"Ana": [m55, X1, X2]}, advanced=True, events=evs, delorean="1955",
                  roles=ROLES)
    state, _ = rules.apply(state, {"type": "play", "card": "m55"})
    assert ripple_range(state) == (1, 2)
    assert "pass" not in types(state)
    state, _ = rules.apply(state, {"type": "ripple", "card": "x1"})
    assert {"type": "pass"} in rules.legal_actions(state)
    one, _ = rules.apply(state, {"type": "pass"})
    assert one.player("Ana").ripple == ["x1"] and one.player("Ana").board["1955"] == ["m55"]
    two, _ = rules.apply(state, {"type": "ripple", "card": "x2"})
    assert two.player("Ana").ripple == ["x1", "x2"] and two.player("Ana").board["1955"] == ["m55"]
    alone = table(hands={"Ana": [m55, X1]}, advanced=True, events=evs, delorean="1955",
                  roles=ROLES)
    assert {"type": "play", "card": "m55", "era": "1955"} in rules.legal_actions(alone)


# --------------------------------------------------------------------------- 1985 and 2015


@pytest.mark.parametrize("era", ["1985", "2015"])
def test_b_no_effect_changes_nothing(era):
    card = char("m", "marty", era, clocks=1)
    kw = dict(hands={"Ana": [card, char("t", "biff", 2015, clocks=1), X1]}, delorean=era,
              roles=ROLES, events=events(era, "none", "none", "none"))
    basic, advanced = table(**kw), table(advanced=True, **kw)
    assert rules.legal_actions(basic) == rules.legal_actions(advanced)
    a, _ = play(basic, {"type": "play", "card": "m", "pay": ["t"]})
    b, _ = play(advanced, {"type": "play", "card": "m", "pay": ["t"]})
    assert a.pending == b.pending
    a, _ = rules.apply(basic, {"type": "end"})
    b, _ = rules.apply(advanced, {"type": "end"})
    assert rules.legal_actions(a) == rules.legal_actions(b)


def test_b_ripple_from_deck():
    m85 = char("m85", "marty", 1985, clocks=0)
    evs = events("1985", "ripple-from-deck", "none", "none")
    state = table(hands={"Ana": [m85]}, advanced=True, events=evs, roles=ROLES)
    assert {"type": "play", "card": "m85", "era": "1985"} in rules.legal_actions(state)
    state, _ = rules.apply(state, {"type": "play", "card": "m85"})
    assert rules.legal_actions(state) == [{"type": "draw", "player": "Ana", "count": 1}]
    state, effects = rules.apply(state, {"type": "draw", "cards": ["f03"]})
    assert "RIPPLE: 1 card(s) from the deck face down" in texts(effects)
    ana = state.player("Ana")
    assert ana.ripple == ["f03"] and ana.hand == [] and ana.board["1985"] == ["m85"]
    assert "f03" not in state.pool


def test_b_ripple_from_deck_needs_cards_to_draw():
    m85 = char("m85", "marty", 1985, clocks=0)
    evs = events("1985", "ripple-from-deck", "none", "none")
    state = table(hands={"Ana": [m85, X1]}, advanced=True, events=evs, roles=ROLES, deck=[])
    assert "play" not in types(state)
    with pytest.raises(RuleError, match="1985 needs 1 ripple card from the deck and the deck is "
                                        "empty"):
        rules.apply(state, {"type": "play", "card": "m85"})
    # Paid with a card, the time goes to the discard pile first: the ripple draws it.
    d85 = char("d85", "doc", 1985, clocks=1)
    t = char("t", "doc", 1955, clocks=1)
    state = table(hands={"Ana": [d85, t]}, advanced=True, events=evs,
                  roles={"Ana": "doc", "Ben": "marty"}, deck=[])
    state, _ = rules.apply(state, {"type": "play", "card": "d85", "pay": ["t"]})
    assert rules.legal_actions(state) == [{"type": "draw", "player": "Ana", "count": 1}]
    state, effects = rules.apply(state, {"type": "draw", "cards": ["t"]})
    assert state.player("Ana").ripple == ["t"] and state.player("Ana").board["1985"] == ["d85"]


def test_b_second_ripple_may_ripple_one_more():
    m85 = char("m85", "marty", 1985, clocks=0)
    m_any = char("many", "marty", "any", clocks=0)
    evs = events("1985", "second-ripple", "none", "none")
    state = table(hands={"Ana": [m85, m_any, X1, X2, X3]}, advanced=True, events=evs,
                  roles=ROLES)
    one, _ = rules.apply(state, {"type": "play", "card": "m85"})
    assert ripple_range(one) == (1, 2)
    one, _ = rules.apply(one, {"type": "ripple", "card": "x1"})
    assert {"type": "pass"} in rules.legal_actions(one)
    two, _ = rules.apply(one, {"type": "ripple", "card": "x2"})
    assert two.player("Ana").ripple == ["x1", "x2"] and two.player("Ana").board["1985"] == ["m85"]
    back, _ = rules.apply(state, {"type": "play", "card": "many", "era": "1955"})
    assert ripple_range(back) == (2, 3)  # a 1955 play pays the 1985 ripple too
    into_2015, _ = rules.apply(state, {"type": "play", "card": "many", "era": "2015"})
    assert not into_2015.pending  # no ripple paid, none to double


def test_b_draw_2_keep_1():
    evs = events("1985", "draw-2-keep-1", "none", "none")
    state = table(advanced=True, events=evs, roles=ROLES, deck=filler(6))
    state, _ = rules.apply(state, {"type": "end"})
    assert rules.legal_actions(state) == [{"type": "draw", "player": "Ana", "count": 2}]
    state, _ = rules.apply(state, {"type": "draw", "cards": ["f00", "f01"]})
    assert rules.legal_actions(state) == [{"type": "keep", "cards": ["f00"]},
                                          {"type": "keep", "cards": ["f01"]}]
    with pytest.raises(RuleError, match="keep 1 of the cards just drawn"):
        rules.apply(state, {"type": "keep", "cards": ["f00", "f01"]})
    state, effects = rules.apply(state, {"type": "keep", "cards": ["f01"]})
    assert state.player("Ana").hand == ["f01"] and state.discard == ["f00"]
    assert "DISCARD f00 (not kept)" in texts(effects)
    assert rules.actor(state) == "Ben"


def test_b_draw_3_keep_2():
    evs = events("2015", "draw-3-keep-2", "none", "none")
    state = table(advanced=True, events=evs, roles=ROLES, delorean="2015", deck=filler(6))
    state, _ = rules.apply(state, {"type": "end"})
    assert rules.legal_actions(state) == [{"type": "draw", "player": "Ana", "count": 3}]
    state, _ = rules.apply(state, outcome(state))
    keeps = [a["cards"] for a in rules.legal_actions(state)]
    assert keeps == [["f00", "f01"], ["f00", "f02"], ["f01", "f02"]]
    state, _ = rules.apply(state, {"type": "keep", "cards": ["f00", "f02"]})
    assert state.player("Ana").hand == ["f00", "f02"] and state.discard == ["f01"]


def test_b_ripple_backwards_in_2015():
    m15 = char("m15", "marty", 2015, clocks=0)
    evs = events("2015", "ripple-backwards", "none", "none")
    state = table(hands={"Ana": [m15, X1]}, advanced=True, events=evs, roles=ROLES,
                  delorean="2015")
    state, _ = rules.apply(state, {"type": "play", "card": "m15"})
    assert ripple_range(state) == (1, 1)
    state, _ = rules.apply(state, {"type": "ripple", "card": "x1"})
    assert state.player("Ana").board["2015"] == ["m15"] and state.player("Ana").ripple == ["x1"]
    alone = table(hands={"Ana": [m15]}, advanced=True, events=evs, roles=ROLES, delorean="2015")
    with pytest.raises(RuleError, match="2015 needs 1 ripple card: Ana has 0 other card"):
        rules.apply(alone, {"type": "play", "card": "m15"})


def test_b_then_1955_moves_the_delorean_after_drawing():
    evs = {**events("2015", "then-1955", "none", "none"),
           **events("1955", "draw-1", "draw-1", "draw-1")}
    state = table(advanced=True, events=evs, roles=ROLES, delorean="2015", deck=filler(8))
    state, _ = rules.apply(state, {"type": "end"})
    assert rules.legal_actions(state) == [{"type": "draw", "player": "Ana", "count": 2}]
    state, effects = rules.apply(state, outcome(state))
    assert "MOVE the DeLorean to 1955 (the 2015 event)" in texts(effects)
    assert state.delorean == "1955" and len(state.player("Ana").hand) == 2
    assert rules.actor(state) == "Ben"  # Ana's turn is over: 1955's "Draw 1" was not hers
    state, _ = rules.apply(state, {"type": "end"})
    assert rules.legal_actions(state) == [{"type": "extra"}, {"type": "pass"}]  # it is Ben's
