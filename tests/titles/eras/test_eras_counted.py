"""Hands the companion counts: at the table the cards stay in the players' hands, so draws, the
card Biff takes and ripple cards laid face down are recorded without naming the card. A card is
named when it comes face up. These tests hold that mode to the same rules as a simulation, where
every card is named (docs/rules/eras.md, "Hidden cards at the table")."""

from __future__ import annotations

import json
import random

import pytest
from eras_table import char, counted, filler, table, texts, unnamed
from test_eras_playouts import check_invariants

from companion.content import demo_pack
from companion.titles.api import CHANCE, TERMINAL, RuleError
from companion.titles.eras import bots, rules

M55 = char("m55", "marty", 1955, power=1, clocks=0, vp=2)
M55B = char("m55b", "marty", 1955, power=1, clocks=2, vp=2)
P1 = char("p1", "biff", 2015, power=1, clocks=0, vp=0)
P3 = char("p3", "biff", 2015, power=3, clocks=0, vp=0)
T2 = char("t2", "biff", 2015, power=0, clocks=2, vp=0)
X1 = char("x1", "biff", 2015, power=0, clocks=0, vp=1)
X3 = char("x3", "biff", 2015, power=0, clocks=0, vp=3)
ROLES = {"Ana": "marty", "Ben": "doc"}


def placed(state: rules.State) -> None:
    """Every unplaced card is in the deck, an unseen hand or an unnamed ripple pile."""
    unseen = sum(p.unseen + p.ripple_unseen for p in state.players)
    assert len(state.pool) == state.deck + unseen


def test_a_draw_may_name_its_cards_or_count_them():
    state = rules.new_game(["Ana", "Ben"], {}, demo_pack("eras"))
    rng = random.Random(3)
    for _era in rules.ERAS:
        state, _ = rules.apply(state, rules.sample_chance(state, rng))
    state, effects = rules.apply(state, {"type": "deal", "player": "Ana"})
    ana = state.player("Ana")
    assert ana.hand == [] and ana.unseen == 5 and rules.held(ana) == 5
    assert state.deck == 84 - 5 and len(state.pool) == 84  # nobody knows which five
    assert texts(effects) == "DEAL 5 cards to Ana"
    assert rules.view(state)["players"][0]["hand"] == 5
    placed(state)


def test_sample_chance_names_cards_only_while_every_card_is_known():
    state = rules.new_game(["Ana", "Ben"], {}, demo_pack("eras"))
    rng = random.Random(4)
    for _era in rules.ERAS:
        state, _ = rules.apply(state, rules.sample_chance(state, rng))
    named = rules.sample_chance(state, rng)
    assert len(named["cards"]) == 5  # a simulation: the cards are named
    state, _ = rules.apply(state, {"type": "deal", "player": "Ana"})
    assert "cards" not in rules.sample_chance(state, rng)  # one hand is counted: count all


def test_a_counted_hand_plays_any_unplaced_card_of_its_role():
    boards = {"Ben": {"1955": [char("g55", "marty", 1955)]}}
    state = counted(table(hands={"Ana": [M55, X1, X3]}, boards=boards, delorean="1955",
                          roles=ROLES), "Ana")
    plays = [a for a in rules.legal_actions(state) if a["type"] == "play"]
    assert plays == [{"type": "play", "card": "m55", "era": "1955"}]  # g55 is on Ben's board
    with pytest.raises(RuleError, match="g55 is on Ben's 1955: it cannot be in Ana's hand"):
        rules.apply(state, {"type": "play", "card": "g55", "era": "1955"})
    state, _ = rules.apply(state, {"type": "play", "card": "m55", "era": "1955"})
    assert rules.legal_actions(state) == [{"type": "ripple"}]  # laid face down, never named
    state, _ = rules.apply(state, {"type": "ripple"})
    state, effects = rules.apply(state, {"type": "ripple"})
    ana = state.player("Ana")
    assert ana.board["1955"] == ["m55"] and "m55" not in state.pool
    assert ana.unseen == 0 and ana.ripple_unseen == 2 and ana.ripple == []
    assert "PUT m55 on your 1955" in texts(effects)
    assert rules.view(state)["players"][0]["ripple"] == 2
    placed(state)


def test_a_counted_hand_is_refused_a_play_it_cannot_pay_with_the_reason():
    state = counted(table(hands={"Ana": [M55]}, delorean="1955", roles=ROLES), "Ana")
    with pytest.raises(RuleError, match="1955 needs 2 ripple cards: Ana has 0 other card"):
        rules.apply(state, {"type": "play", "card": "m55", "era": "1955"})
    assert not [a for a in rules.legal_actions(state) if a["type"] == "play"]


def test_a_counted_hand_is_offered_only_payments_that_may_finish_the_cost():
    # One unseen card must pay 3 power alone: only a card of 3 power or more can.
    state = counted(table(hands={"Ana": [P3]}, roles=ROLES), "Ana")
    state, _ = rules.apply(state, {"type": "move", "to": "1955"})
    assert rules.legal_actions(state) == [{"type": "pay", "with": "p3"}]
    with pytest.raises(RuleError, match="f00 pays 1: Ana's other cards and tokens cannot pay "
                                        "the 2 power left"):
        rules.apply(state, {"type": "pay", "with": "f00"})
    # Two unseen cards: a 1-power card may start the payment (the other may hold 3).
    state = counted(table(hands={"Ana": [P1, P3]}, roles=ROLES), "Ana")
    state, _ = rules.apply(state, {"type": "move", "to": "1955"})
    options = {a["with"] for a in rules.legal_actions(state)}
    assert {"p1", "p3", "f00"} <= options
    state, _ = rules.apply(state, {"type": "pay", "with": "p1"})
    assert rules.legal_actions(state) == [{"type": "pay", "with": "p3"}]  # 2 due, one card
    state, effects = rules.apply(state, {"type": "pay", "with": "p3"})
    assert state.delorean == "1955" and state.discard == ["p1", "p3"]
    assert "MOVE the DeLorean to 1955" in texts(effects)
    placed(state)


def test_a_time_payment_with_a_counted_hand_keeps_cards_for_the_ripple():
    # m55b costs 2 time in 1955 and 2 ripple cards: with 3 other cards, one must pay it all.
    state = counted(table(hands={"Ana": [M55B, T2, X1, X3]}, delorean="1955",
                          roles={"Ana": "doc", "Ben": "marty"}), "Ana")
    state = rules.from_json({**rules.to_json(state), "cards": {
        **state.cards, "m55b": {**state.cards["m55b"], "role": "doc"}}})
    state, _ = rules.apply(state, {"type": "play", "card": "m55b", "era": "1955"})
    options = {a["with"] for a in rules.legal_actions(state)}
    assert "f00" in state.pool and state.cards["f00"]["clocks"] == 1
    assert "t2" in options and "f00" not in options  # a 1-clock card would need a second one
    with pytest.raises(RuleError, match="would leave too few cards for the 2 ripple card"):
        rules.apply(state, {"type": "pay", "with": "f00"})
    state, _ = rules.apply(state, {"type": "pay", "with": "t2"})
    assert rules.view(state)["due"]["step"] == "ripple"


def test_a_blind_steal_at_the_table_moves_a_count():
    state = table(hands={"Ana": [X1], "Ben": [X3, M55]}, roles={"Ana": "biff"}, resolve=False)
    assert rules.legal_actions(state) == [{"type": "stolen", "from": "Ben"}]
    state, effects = rules.apply(state, {"type": "stolen"})
    ana, ben = state.player("Ana"), state.player("Ben")
    assert ana.hand == ["x1"] and ana.unseen == 1 and rules.held(ana) == 2
    assert ben.hand == [] and ben.unseen == 1  # which card is left is unknown now
    assert {"x3", "m55"} <= set(state.pool)
    assert "takes 1 card from Ben's hand, blind" in texts(effects)
    placed(state)
    known = table(hands={"Ana": [X1], "Ben": [X3]}, roles={"Ana": "biff"}, resolve=False)
    assert rules.sample_chance(known, random.Random(1))["card"] == "x3"  # a simulation
    assert "card" not in rules.sample_chance(counted(known, "Ben"), random.Random(1))


def test_draw_2_keep_1_at_the_table_names_the_card_given_back():
    events = {"1985": [("e85a", "lorraine", "draw-2-keep-1"), ("e85b", "biff", "none"),
                       ("e85c", "jennifer", "none")]}
    state = table(roles=ROLES, events=events, advanced=True)
    state, _ = rules.apply(state, {"type": "end"})
    state, _ = rules.apply(state, {"type": "draw"})
    assert state.pending[0]["step"] == "keep"
    legal = rules.legal_actions(state)
    assert {"type": "keep", "discard": ["f00"]} in legal and len(legal) == len(state.pool)
    with pytest.raises(RuleError, match="name the 1 card of those just drawn that Ana does not"):
        rules.apply(state, {"type": "keep", "cards": ["f00"]})
    state, effects = rules.apply(state, {"type": "keep", "discard": ["f05"]})
    assert state.discard == ["f05"] and state.player("Ana").unseen == 1
    assert "DISCARD f05 (not kept)" in texts(effects)
    placed(state)


def test_ripple_cards_nobody_named_are_turned_up_and_added_up_at_the_end():
    state = counted(table(hands={"Ana": [M55, X1, X3]}, delorean="1955", roles=ROLES), "Ana")
    state = rules.from_json({**rules.to_json(state), "last_round": True})
    for action in ({"type": "play", "card": "m55", "era": "1955"}, {"type": "ripple"},
                   {"type": "ripple"}, {"type": "end"}, {"type": "draw"}, {"type": "end"},
                   {"type": "draw"}):
        state, effects = rules.apply(state, action)
    assert state.phase == "tally" and rules.actor(state) == "Ana"
    assert "GAME OVER: turn up your ripple cards and add up their VP" in texts(effects)
    # the unplaced cards hold VP 0 (fillers), 1 (x1) and 3 (x3): two of them make 0 to 4
    assert rules.legal_actions(state) == [{"type": "tally", "vp": v} for v in range(5)]
    with pytest.raises(RuleError, match="Ana's 2 ripple cards added up: 0 to 4"):
        rules.apply(state, {"type": "tally", "vp": 5})
    # turned up, not yet added: not counted yet, as during play
    assert rules.view(state)["players"][0]["score"]["ripple"] is None
    state, effects = rules.apply(state, {"type": "tally", "vp": 4})
    assert rules.actor(state) == TERMINAL
    assert rules.score(state, state.player("Ana")) == {
        "tokens": 0, "cards": 2, "ripple": 4, "clocks": 0, "total": 6, "events": 0}
    assert "Ana: ripple cards 4 VP" in texts(effects) and rules.winners(state) == ["Ana"]


def test_the_view_counts_ripple_cards_at_the_end_only_once_added_up():
    """In the tally the ripple cards not yet added up show as during play (None, the total
    without them); once added up, or when all of them were named, they count."""
    d55 = char("d55", "doc", 1955, power=1, clocks=0, vp=1)
    j55 = char("j55", "jennifer", 1955, power=1, clocks=1, vp=1)
    y1 = char("y1", "biff", 2015, power=0, clocks=0, vp=1)
    y2 = char("y2", "biff", 2015, power=0, clocks=0, vp=1)
    players = ("Ana", "Ben", "Cy")
    state = table(players, hands={"Ana": [M55, X1, X3], "Ben": [d55, P1, T2],
                                  "Cy": [j55, y1, y2]}, delorean="1955",
                  roles={"Ana": "marty", "Ben": "doc", "Cy": "jennifer"})
    state = counted(state, "Ana", "Ben")  # Cy's cards named: a simulated hand
    state = rules.from_json({**rules.to_json(state), "last_round": True})
    for card in ("m55", "d55"):  # Ana's turn, then Ben's
        state, _ = rules.apply(state, {"type": "play", "card": card, "era": "1955"})
        for _ in range(2):
            state, _ = rules.apply(state, {"type": "ripple"})
        assert rules.view(state)["players"][0]["score"]["ripple"] is None  # during play
        state, _ = rules.apply(state, {"type": "end"})
        state, _ = rules.apply(state, {"type": "draw"})
    state, _ = rules.apply(state, {"type": "play", "card": "j55", "era": "1955",
                                   "ripple": ["y1", "y2"]})
    state, _ = rules.apply(state, {"type": "end"})
    state, _ = rules.apply(state, {"type": "draw"})
    assert state.phase == "tally" and rules.actor(state) == "Ana"
    ana, ben, cy = (p["score"] for p in rules.view(state)["players"])
    assert (ana["ripple"], ana["total"]) == (None, 2)  # m55 only: not counted yet
    assert (ben["ripple"], ben["total"]) == (None, 1)
    assert (cy["ripple"], cy["total"]) == (2, 3)  # named, turned up: counted
    state, _ = rules.apply(state, {"type": "tally", "vp": 4})
    assert state.phase == "tally" and rules.actor(state) == "Ben"
    ana, ben, _cy = (p["score"] for p in rules.view(state)["players"])
    assert (ana["ripple"], ana["total"]) == (4, 6)  # added up: counted
    assert (ben["ripple"], ben["total"]) == (None, 1)


def test_an_unnamed_ripple_card_from_a_named_hand_forgets_which_cards_are_left():
    state = table(hands={"Ana": [M55, X1, X3]}, delorean="1955", roles=ROLES)
    state, _ = rules.apply(state, {"type": "play", "card": "m55", "era": "1955"})
    state, _ = rules.apply(state, {"type": "ripple", "card": "x1"})  # named: a simulation
    state, _ = rules.apply(state, {"type": "ripple"})  # then one nobody names
    ana = state.player("Ana")
    assert ana.ripple == ["x1"] and ana.ripple_unseen == 1 and ana.hand == []
    assert ana.unseen == 0 and "x3" in state.pool
    placed(state)


def _table_game(players: int, seed: int, advanced: bool):
    """A bot game as a simulation records it, and the same game as the table records it."""
    pack = demo_pack("eras")
    names = ["Ana", "Ben", "Cy", "Di", "Ed", "Flo"][:players]
    sim = rules.new_game(names, {"advanced": advanced}, pack)
    at_table = rules.new_game(names, {"advanced": advanced}, pack)
    rng = random.Random(seed)
    while rules.actor(sim) != TERMINAL:
        if rules.actor(sim) == CHANCE:
            action = rules.sample_chance(sim, rng)
        else:
            action = bots.bot(rules, sim, rng)
        seen = unnamed(action, sim)
        assert seen in rules.legal_actions(at_table) or rules.actor(at_table) == CHANCE, seen
        sim, _ = rules.apply(sim, action)
        at_table, _ = rules.apply(at_table, seen)
        assert not any(p.hand for p in at_table.players), "the table named a card in a hand"
        if rules.actor(sim) != TERMINAL:
            assert json.dumps(rules.view(sim), sort_keys=True) == json.dumps(
                rules.view(at_table), sort_keys=True)
    return sim, at_table


@pytest.mark.parametrize("players,seed,advanced", [(2, 1, False), (4, 2, True), (6, 3, False)])
def test_a_table_game_and_a_simulated_game_show_the_same_table_and_score_the_same(
        players, seed, advanced):
    sim, at_table = _table_game(players, seed, advanced)
    while rules.actor(at_table) != TERMINAL:  # the ripple cards turned up and added
        step = at_table.pending[0]
        true = rules.score(sim, sim.player(step["player"]))["ripple"]
        at_table, _ = rules.apply(at_table, {"type": "tally", "vp": true})
    assert rules.winners(at_table) == rules.winners(sim)
    for p in sim.players:
        assert rules.score(at_table, at_table.player(p.name)) == rules.score(sim, p)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_recorded_at_the_table_keep_every_invariant(players):
    for seed in range(2):
        rng = random.Random(players * 10 + seed)
        state = rules.new_game(["Ana", "Ben", "Cy", "Di", "Ed", "Flo"][:players],
                               {"advanced": seed == 1}, demo_pack("eras"))
        count = 0
        while rules.actor(state) != TERMINAL:
            legal = rules.legal_actions(state)
            assert legal, f"no legal action for {rules.actor(state)}"
            if rules.actor(state) == CHANCE:
                action = unnamed(rules.sample_chance(state, rng))
            else:
                moves = [a for a in legal if a["type"] != "end"]
                action = rng.choice(moves if moves and rng.random() < 0.8 else legal)
            state, _ = rules.apply(state, action)
            check_invariants(state, views=count % 8 == 0)
            assert not any(p.hand for p in state.players)
            count += 1
            assert count < 20_000
        assert rules.winners(state)


def test_deck_and_pool_are_separate_and_reshuffled_together():
    state = counted(table(delorean="1955", roles=ROLES, deck=filler(1),
                          discard=filler(2, start=1)), "Ana")
    state, _ = rules.apply(state, {"type": "end"})
    state, effects = rules.apply(state, {"type": "draw"})
    assert "SHUFFLE the discard pile: it is the new deck" in texts(effects)
    assert state.deck == 1 and state.discard == [] and state.player("Ana").unseen == 2
    assert sorted(state.pool) == ["f00", "f01", "f02"]
    placed(state)
