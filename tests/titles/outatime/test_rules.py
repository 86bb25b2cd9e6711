"""One scenario per rule paragraph of the OUTATIME rulebook, and one per written decision
(docs/rules/outatime.md). Every test fails if its rule is broken."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content import demo_pack
from companion.titles.api import CHANCE, TERMINAL, RuleError
from companion.titles.outatime import rules as outatime
from titles.outatime.positions import (
    DOUBLEBACK,
    END,
    REROLL,
    card_id,
    kinds,
    lock,
    make_table,
    play,
    progress,
    roll,
)

# --------------------------------------------------------------------------- Setup


def test_setup_deal_must_follow_the_rulebook_hand():
    state = outatime.new_game(["Ana", "Ben"], {}, demo_pack("outatime"))
    three_02 = ["demo-02-01", "demo-02-02", "demo-02-03", "demo-03-01", "demo-td-01"]
    with pytest.raises(RuleError, match="one 0.2, two 0.3, one 0.4"):
        outatime.apply(state, {"type": "deal", "player": "Ana", "cards": three_02})
    good = ["demo-02-01", "demo-03-01", "demo-03-02", "demo-04-01", "demo-td-01"]
    state, _ = outatime.apply(state, {"type": "deal", "player": "Ana", "cards": good})
    again = ["demo-02-02", "demo-03-01", "demo-03-03", "demo-04-02", "demo-td-02"]
    with pytest.raises(RuleError, match="already dealt"):
        outatime.apply(state, {"type": "deal", "player": "Ben", "cards": again})


def test_setup_each_player_chooses_active_and_next_but_never_temporal_displacement():
    state = outatime.new_game(["Ana", "Ben"], {}, demo_pack("outatime"))
    rng = __import__("random").Random(3)
    state, _ = outatime.apply(state, outatime.sample_chance(state, rng))
    state, _ = outatime.apply(state, outatime.sample_chance(state, rng))
    assert state.phase == "choose" and outatime.actor(state) == "Ana"
    hand = state.player("Ana").hand
    td = next(c for c in hand if state.cards[c]["kind"] == "td")
    other = [c for c in hand if c != td]
    with pytest.raises(RuleError, match="Temporal Displacement"):
        outatime.apply(state, {"type": "choose", "player": "Ana", "active": td, "next": other[0]})
    with pytest.raises(RuleError, match="Temporal Displacement"):
        outatime.apply(state, {"type": "choose", "player": "Ana", "active": other[0], "next": td})
    assert all(td not in (a["active"], a["next"]) for a in outatime.legal_actions(state))
    state, _ = outatime.apply(
        state, {"type": "choose", "player": "Ana", "active": other[0], "next": other[1]}
    )
    ana = state.player("Ana")
    assert (ana.active, ana.next) == (other[0], other[1])
    assert sorted(ana.hand) == sorted(other[2:] + [td])  # the other three wait to the side


def partial_table(players=("Ana", "Ben")):
    """Every player dealt only the Active and the Next card at setup (the table's quick way)."""
    state = make_table(players)  # for the cards; dealt again below
    state = outatime.new_game(list(players), {}, list(state.cards.values()))
    effects = []
    for name in players:
        state, more = outatime.apply(state, {
            "type": "deal", "player": name, "cards": [card_id(name, "02"), card_id(name, "03a")],
            "active": card_id(name, "02"), "next": card_id(name, "03a")})
        effects += more
    return state, effects


def test_setup_a_deal_may_name_only_the_active_and_next_card_the_rest_later():
    state, effects = partial_table()
    assert state.phase == "roll" and outatime.actor(state) == CHANCE
    assert [e["kind"] for e in effects] == ["turn"]  # no choose phase: chosen at the deal
    ana = state.player("Ana")
    assert (ana.active, ana.next, ana.hand) == ("Ana-02", "Ana-03a", [])
    assert ana.unknown == {"0.3": 1, "0.4": 1, "td": 1}
    assert outatime.from_json(outatime.to_json(state)).player("Ana").unknown == ana.unknown
    fresh = outatime.new_game(["Ana", "Ben"], {}, list(state.cards.values()))
    with pytest.raises(RuleError, match="names the Active and the Next card"):
        outatime.apply(fresh, {"type": "deal", "player": "Ana", "cards": ["Ana-02", "Ana-03a"]})
    with pytest.raises(RuleError, match="one 0.2, two 0.3"):
        outatime.apply(fresh, {"type": "deal", "player": "Ana", "cards": ["Ana-02", "Ben-02"],
                               "active": "Ana-02", "next": "Ben-02"})
    with pytest.raises(RuleError, match="Temporal Displacement"):
        outatime.apply(fresh, {"type": "deal", "player": "Ana", "cards": ["Ana-02", "Ana-td"],
                               "active": "Ana-02", "next": "Ana-td"})


def test_a_card_named_later_is_one_of_the_kinds_dealt_that_nobody_holds():
    state, _ = partial_table()
    state, effects = play(state, roll(2, 3, 4, 5, "flux", 88), lock(2, 3, 4))
    assert "complete" in [e["kind"] for e in effects]
    decision = state.pending[0]
    assert decision["player"] == "Ana"
    # Ana was dealt a 0.3 (besides her Next card), a 0.4 and the TD card, none named yet: any
    # 0.3 or 0.4 card no one holds may be it; the TD card waits until it is the last.
    assert decision["options"] == ["Ana-03b", "Ana-04", "Ben-03b", "Ben-04"]
    state, effects = play(state, {"type": "next", "player": "Ana", "card": "Ben-04"})
    ana = state.player("Ana")
    assert ana.next == "Ben-04" and ana.unknown == {"0.3": 1, "td": 1}
    assert "Ben-04" not in outatime.next_options(state, state.player("Ben"))


def test_a_card_named_by_one_player_leaves_the_other_players_open_choice():
    state, _ = partial_table()
    state.pending = (
        {"decision": "next", "player": "Ana", "options": ["Ana-03b", "Ben-03b"]},
        {"decision": "next", "player": "Ben", "options": ["Ana-03b", "Ben-03b"]},
    )
    state.player("Ana").next = state.player("Ben").next = None  # both completed a card
    state, _ = play(state, {"type": "next", "player": "Ana", "card": "Ben-03b"})
    assert state.pending[0]["options"] == ["Ana-03b"]
    with pytest.raises(RuleError, match="may choose Ana-03b"):
        outatime.apply(state, {"type": "next", "player": "Ben", "card": "Ben-03b"})


def test_a_full_deal_and_a_deal_naming_two_cards_mix_in_one_game():
    # An old journal's five-card deal and choose, beside the table's two-card deal.
    full = make_table(("Ana", "Ben"))
    state = outatime.new_game(["Ana", "Ben"], {}, list(full.cards.values()))
    hand = [card_id("Ana", s) for s in ("02", "03a", "03b", "04", "td")]
    state, _ = play(state, {"type": "deal", "player": "Ana", "cards": hand},
                    {"type": "deal", "player": "Ben", "cards": ["Ben-02", "Ben-03a"],
                     "active": "Ben-02", "next": "Ben-03a"})
    assert state.phase == "choose" and outatime.actor(state) == "Ana"  # only Ana chooses
    with pytest.raises(RuleError, match="already chosen"):
        outatime.apply(state, {"type": "choose", "player": "Ben", "active": "Ben-02",
                               "next": "Ben-03a"})
    state, effects = play(state, {"type": "choose", "player": "Ana", "active": "Ana-02",
                                  "next": "Ana-03a"})
    assert state.phase == "roll" and [e["kind"] for e in effects] == ["turn"]
    assert state.player("Ana").unknown is None and state.player("Ben").unknown == {
        "0.3": 1, "0.4": 1, "td": 1}


@pytest.mark.parametrize("seed", range(6))
def test_games_dealt_two_cards_a_player_play_to_the_end(seed):
    """Every player names only the Active and Next card; random play to the end: every card a
    player completes is one they could have been dealt, and the winner completed five."""
    import random

    rng = random.Random(seed)
    names = ["Ana", "Ben", "Cat", "Dan", "Eve", "Fay"][:2 + seed % 5]
    state = outatime.new_game(names, {}, demo_pack("outatime"))
    for name in names:
        free = [c for c in sorted(state.cards) if c not in outatime.held(state)
                and state.cards[c]["kind"] != outatime.TD]
        active = rng.choice(free)
        nxt = rng.choice([c for c in free if c != active
                          and (state.cards[c]["kind"] != state.cards[active]["kind"]
                               or state.cards[c]["kind"] == "0.3")])
        state, _ = outatime.apply(state, {"type": "deal", "player": name,
                                          "cards": [active, nxt], "active": active,
                                          "next": nxt})
    for _step in range(20_000):
        if outatime.actor(state) == TERMINAL:
            break
        if outatime.actor(state) == CHANCE:
            action = outatime.sample_chance(state, rng)
        else:
            action = rng.choice(outatime.legal_actions(state))
        before = outatime.to_json(state)
        state, _ = outatime.apply(state, action)
        assert outatime.to_json(outatime.from_json(outatime.to_json(state))) == \
            outatime.to_json(state)
        assert before != outatime.to_json(state)
    assert outatime.actor(state) == TERMINAL
    winner = state.player(state.winner)
    kinds = sorted(state.cards[c]["kind"] for c in winner.completed)
    assert kinds == ["0.2", "0.3", "0.3", "0.4", "td"]  # the rulebook's hand, named as it went
    named = [c for p in state.players for c in (*p.completed, p.active, p.next) if c]
    assert len(named) == len(set(named))  # no card in two places


def test_setup_first_player_rolls_all_six_dice():
    state = make_table(("Ana", "Ben", "Cy"))
    assert state.phase == "roll" and state.current.name == "Ana"
    assert outatime.actor(state) == CHANCE and state.free_dice == 6
    with pytest.raises(RuleError, match="6 dice are to be rolled"):
        play(state, roll(2, 3))


def test_a_turn_action_naming_another_player_is_refused():
    """The rulebook's turn passes seat by seat: a script naming who acts must name the
    player whose turn it is (naming them is optional, and accepted)."""
    state = make_table(("Ana", "Ben", "Cy"))
    with pytest.raises(RuleError, match="it is Ana's turn, not Ben's"):
        play(state, {**roll("flux", 88, 5, 5, 5, 5), "player": "Ben"})
    state, _ = play(state, {**roll("flux", 88, 5, 5, 5, 5), "player": "Ana"})
    for action in (lock("flux", player="Cy"), {**END, "player": "Ben"},
                   {**REROLL, "player": "Ben"}, {**DOUBLEBACK, "player": 7}):
        with pytest.raises(RuleError, match="it is Ana's turn, not"):
            play(state, action)
    with pytest.raises(RuleError, match="it is Ana's turn, not Ben's"):  # not the reroll's
        play(state, {**roll(2, 2, 2, 2, 2, 2), "player": "Ben"})  # reasons, which are Ana's
    state, _ = play(state, lock("flux", player="Ana"), {**END, "player": "Ana"})
    assert state.current.name == "Ben"


def test_more_numbers_than_the_last_card_needs_says_those_dice_win():
    state = make_table()
    ana = state.player("Ana")
    ana.completed = tuple(card_id("Ana", s) for s in ("02", "03a", "03b", "td"))
    ana.active, ana.next, ana.hand = card_id("Ana", "04"), None, []  # 5 4 3 2 2 to win
    state, _ = play(state, roll(5, 4, 3, 2, 2, 3))
    with pytest.raises(RuleError, match="5 4 3 2 2 complete Ana's last card and win: lock "
                                        "those alone"):
        play(state, lock(5, 4, 3, 2, 2, 3))
    state, effects = play(state, lock(5, 4, 3, 2, 2))
    assert state.winner == "Ana" and "win" in kinds(effects)


def test_setup_needs_two_to_six_players():
    with pytest.raises(RuleError, match="2-6 players"):
        make_table(("Ana",))
    with pytest.raises(RuleError, match="2-6 players"):
        outatime.new_game([f"P{i}" for i in range(7)], {}, demo_pack("outatime"))


# --------------------------------------------------------------------------- Flux capacitor


def test_flux_capacitor_must_be_locked_before_rolling_again_or_ending():
    state = make_table()
    state, _ = play(state, roll("flux", 88, 5, 5, 5, 5))
    state, _ = play(state, lock(88))
    for action in (END, REROLL):
        with pytest.raises(RuleError, match="flux capacitor must be locked"):
            play(state, action)
    state, _ = play(state, lock("flux"))
    state, _ = play(state, END)
    assert state.current.name == "Ben"


def test_a_locked_flux_alone_lets_the_turn_continue():
    state = make_table()
    state, _ = play(state, roll("flux", 5, 5, 5, 5, 5), lock("flux"))
    assert {"type": "reroll"} in outatime.legal_actions(state)
    state, _ = play(state, roll(5, 5, 5, 5, "flux"))
    assert state.delorean.count("flux") == 1 and len(state.roll) == 5


# --------------------------------------------------------------------------- Numbers


def test_number_advances_only_the_next_step_of_the_active_card():
    state = make_table()  # Ana's active card needs 2, 3, 4
    state, _ = play(state, roll(3, 2, 88, 5, 5, 5))
    with pytest.raises(RuleError, match="needs a 2 next"):
        play(state, lock(3))
    state, effects = play(state, lock(2))
    assert progress(state, "Ana") == (0, 1)
    assert "advance" in kinds(effects)


def test_several_numbers_from_one_roll_advance_in_order():
    state = make_table()
    state, _ = play(state, roll(4, 3, 2, 5, 5, 5), lock(4, 3, 2))  # listed in any order
    assert progress(state, "Ana") == (1, 0)  # 2-3-4 completed the 0.2 card
    assert state.delorean[:3] == ("2", "3", "4")  # used in order of need


def test_numbers_cannot_be_saved_for_later_and_may_only_be_added_when_needed():
    state = make_table()
    state, _ = play(state, roll(2, 4, 5, 5, 5, 5))
    with pytest.raises(RuleError, match="needs a 3 next"):
        play(state, lock(2, 4))  # the 4 is not needed until a 3 is placed
    with pytest.raises(RuleError, match="needs a 2 next"):
        play(state, lock(5))


def test_numbers_in_order_may_be_locked_one_after_another_from_the_same_roll():
    state = make_table()
    state, _ = play(state, roll(2, 3, 88, 5, 5, 5), lock(2), lock(3))
    assert progress(state, "Ana") == (0, 2)


def test_only_dice_of_the_latest_roll_can_be_locked():
    state = make_table()
    state, _ = play(state, roll(2, 5, 5, 5, 5, 5))
    with pytest.raises(RuleError, match="no free 88"):
        play(state, lock(88))


# --------------------------------------------------------------------------- Ripple


def test_ripple_advances_every_other_player_whose_next_step_is_that_number():
    steps = {"Ben": {"02": [2, 5, 5]}, "Cy": {"02": [3, 5, 5]}, "Dee": {"02": [2, 2, 5]}}
    state = make_table(("Ana", "Ben", "Cy", "Dee"), steps)
    state, effects = play(state, roll(2, 5, 5, 5, 5, 5), lock(2))
    assert progress(state, "Ben") == (0, 1)
    assert progress(state, "Cy") == (0, 0)
    assert progress(state, "Dee") == (0, 1)
    assert [e["player"] for e in effects if e["kind"] == "ripple"] == ["Ben", "Dee"]


def test_ripple_applies_per_die_in_the_order_used():
    steps = {"Ben": {"02": [2, 3, 5]}}
    state = make_table(("Ana", "Ben"), steps)
    state, _ = play(state, roll(2, 3, 88, 5, 5, 5), lock(2, 3))
    assert progress(state, "Ben") == (0, 2)


def test_ripple_only_when_the_roller_actually_uses_the_number():
    state = make_table(("Ana", "Ben"), {"Ben": {"02": [5, 5, 5]}})
    state, _ = play(state, roll(88, 5, 5, 5, 5, 5), lock(88))
    assert progress(state, "Ben") == (0, 0)  # fives rolled but not used by Ana


def test_ripple_never_moves_a_temporal_displacement_card():
    state = make_table(("Ana", "Ben"), {"Ben": {"td": [2, 2, 2, 2]}})
    ben = state.player("Ben")
    ben.completed = (card_id("Ben", "02"), card_id("Ben", "03a"), card_id("Ben", "03b"),
                     card_id("Ben", "04"))
    ben.active, ben.next, ben.hand = card_id("Ben", "td"), None, []
    state, effects = play(state, roll(2, 5, 5, 5, 5, 5), lock(2))
    assert progress(state, "Ben") == (4, 0)
    assert "ripple" not in kinds(effects)


def test_ripple_can_complete_another_players_card():
    state = make_table(("Ana", "Ben"), {"Ben": {"02": [2]}})
    state, effects = play(state, roll(2, 5, 5, 5, 5, 5), lock(2))
    assert progress(state, "Ben") == (1, 0)
    assert state.player("Ben").active == card_id("Ben", "03a")
    # Ben now chooses his new Next card before play goes on.
    assert outatime.actor(state) == "Ben"
    with pytest.raises(RuleError, match="Ben must first choose"):
        play(state, END)
    state, _ = play(state, {"type": "next", "player": "Ben", "card": card_id("Ben", "04")})
    assert state.player("Ben").next == card_id("Ben", "04")
    assert outatime.actor(state) == "Ana"


def test_ripple_stops_once_it_has_made_a_temporal_displacement_card_active():
    # Ben's last step of his 0.4 card is a 2; his TD card (now Next) starts with a 2 too.
    state = make_table(("Ana", "Ben"), {"Ana": {"02": [2, 2, 4]},
                                        "Ben": {"04": [2], "td": [2, 5, 5, 5]}})
    ben = state.player("Ben")
    ben.completed = (card_id("Ben", "02"), card_id("Ben", "03a"), card_id("Ben", "03b"))
    ben.active, ben.next, ben.hand = card_id("Ben", "04"), card_id("Ben", "td"), []
    state, effects = play(state, roll(2, 2, 88, 5, 5, 5), lock(2, 2))
    # The first 2 completes his 0.4 card; the second finds the TD card Active: no ripple.
    assert state.player("Ben").active == card_id("Ben", "td")
    assert progress(state, "Ben") == (4, 0)
    assert kinds(effects).count("ripple") == 1


def test_numbers_of_a_doubleback_roll_ripple_too():
    state = make_table(("Ana", "Ben"), {"Ana": {"02": [2, 3, 4, 5]}, "Ben": {"02": [4, 5, 5]}})
    state, _ = play(state, roll("flux", 2, 3, 88, 88, 88), lock("flux", 2, 3, 88, 88, 88))
    assert progress(state, "Ben") == (0, 0)
    state, effects = play(state, DOUBLEBACK, roll(4, 88), lock(4))
    assert progress(state, "Ana") == (0, 3) and progress(state, "Ben") == (0, 1)
    assert [e["player"] for e in effects if e["kind"] == "ripple"] == ["Ben"]


# --------------------------------------------------------------------------- 88 MPH


def test_88_may_be_locked_or_kept_for_rerolling():
    state = make_table()
    state, _ = play(state, roll(88, 88, 2, 5, 5, 5), lock(2))
    assert state.roll.count("88") == 2  # kept: they are rolled again
    state, _ = play(state, REROLL, roll(88, 88, 5, 5, 5))
    state, _ = play(state, lock(88))
    assert state.delorean.count("88") == 1


def test_adding_numbers_is_optional():
    state = make_table()
    state, _ = play(state, roll(2, 88, 5, 5, 5, 5), lock(88), END)
    assert progress(state, "Ana") == (0, 0) and state.current.name == "Ben"


# --------------------------------------------------------------------------- Paradox


def test_paradox_two_flux_two_88_gains_one_and_the_chosen_opponent_loses_one():
    state = make_table(("Ana", "Ben", "Cy"))
    for name in ("Ben", "Cy"):
        state.player(name).progress = 2
    state.player("Ana").progress = 1
    state, _ = play(state, roll("flux", "flux", 88, 88, 5, 5), lock("flux", "flux", 88))
    assert state.phase == "place"  # one 88 is not yet a paradox
    state, effects = play(state, lock(88))
    assert "paradox" in kinds(effects)
    assert progress(state, "Ana") == (0, 2)
    assert outatime.actor(state) == "Ana"  # chooses the opponent
    state, effects = play(state, {"type": "target", "player": "Cy"})
    assert progress(state, "Cy") == (0, 1) and progress(state, "Ben") == (0, 2)
    assert state.current.name == "Ben"  # the turn ended immediately


def test_paradox_target_given_with_the_lock():
    state = make_table(("Ana", "Ben", "Cy"))
    state.player("Cy").progress = 2
    state, _ = play(state, roll("flux", "flux", 88, 88, 5, 5),
                    lock("flux", "flux", 88, 88, target="Cy"))
    assert progress(state, "Cy") == (0, 1) and state.current.name == "Ben"


def test_paradox_with_one_opponent_needs_no_choice():
    state = make_table()
    state.player("Ben").progress = 1
    state, _ = play(state, roll("flux", "flux", 88, 88, 5, 5), lock("flux", "flux", 88, 88))
    assert progress(state, "Ben") == (0, 0) and state.current.name == "Ben"


def test_big_paradox_three_and_three_gains_two_and_every_opponent_loses_two():
    state = make_table(("Ana", "Ben", "Cy"), {"Ana": {"02": [2, 3, 4, 5]}})
    state.player("Ben").progress = 3
    state.player("Cy").progress = 1  # only one space to lose
    state, _ = play(state, roll("flux", "flux", "flux", 88, 88, 88))
    state, effects = play(state, lock("flux", "flux", "flux", 88, 88, 88))
    assert [e["size"] for e in effects if e["kind"] == "paradox"] == [2]
    assert progress(state, "Ana") == (0, 2)
    assert progress(state, "Ben") == (0, 1)
    assert progress(state, "Cy") == (0, 0)  # never below the card's start
    assert state.current.name == "Ben"


def test_paradox_loss_at_card_start_has_no_effect_and_completed_cards_are_safe():
    state = make_table()
    state.player("Ben").completed = (card_id("Ben", "02"),)
    state.player("Ben").active = card_id("Ben", "03a")
    state.player("Ben").next = card_id("Ben", "03b")
    state.player("Ben").hand = [card_id("Ben", "04"), card_id("Ben", "td")]
    state, effects = play(state, roll("flux", "flux", 88, 88, 5, 5), lock("flux", "flux", 88, 88))
    assert progress(state, "Ben") == (1, 0)
    assert any(e["kind"] == "paradox_loss" and e["moved"] == 0 for e in effects)


def test_a_loss_larger_than_the_progress_moves_back_to_the_card_start_only():
    # Decision 14: a player one space in who loses two goes back that one space, no further.
    state = make_table()
    state.player("Ben").progress = 1
    state, effects = play(state, roll("flux", "flux", 88, 88, 5, 5), lock("flux", "flux", 88, 88))
    assert progress(state, "Ben")[1] == 0
    assert [e["moved"] for e in effects if e["kind"] == "paradox_loss"] == [1]


def test_at_least_two_counts_as_two_for_the_paradox():
    state = make_table()
    state, _ = play(state, roll("flux", "flux", 88, 88, 88, 5))
    state, effects = play(state, lock("flux", "flux", 88, 88, 88))  # 2 flux + 3 x 88
    assert [e["size"] for e in effects if e["kind"] == "paradox"] == [1]


def test_reaching_three_and_three_in_one_lock_is_only_the_big_paradox():
    state = make_table(("Ana", "Ben"), {"Ana": {"02": [2, 3, 4, 5]}})
    state.player("Ben").progress = 2
    state, _ = play(state, roll("flux", 88, 5, 5, 5, 5), lock("flux", 88), REROLL)
    state, _ = play(state, roll("flux", "flux", 88, 88))
    state, effects = play(state, lock("flux", "flux", 88, 88))
    assert [e["size"] for e in effects if e["kind"] == "paradox"] == [2]
    assert progress(state, "Ana") == (0, 2)  # +2, not +1 then +2
    assert progress(state, "Ben") == (0, 0)


def test_numbers_and_ripples_in_the_paradox_lock_count_before_the_turn_ends():
    state = make_table(("Ana", "Ben"), {"Ben": {"02": [2, 5, 5]}})
    state, _ = play(state, roll("flux", "flux", 88, 88, 2, 5))
    state, effects = play(state, lock("flux", "flux", 88, 88, 2))
    order = kinds(effects)
    assert order.index("ripple") < order.index("paradox")
    assert progress(state, "Ana") == (0, 2)  # +1 from the 2, +1 from the paradox
    assert progress(state, "Ben") == (0, 0)  # rippled +1, then -1 from the paradox
    assert state.current.name == "Ben"


def test_a_paradox_with_all_six_dice_on_the_delorean_ends_the_turn_without_a_doubleback():
    state = make_table(("Ana", "Ben"), {"Ana": {"02": [2, 3, 4, 5]}})
    state, effects = play(state, roll("flux", "flux", 88, 88, 2, 3))
    state, effects = play(state, lock("flux", "flux", 88, 88, 2, 3))
    assert "paradox" in kinds(effects) and "six" not in kinds(effects)
    assert state.current.name == "Ben" and state.phase == "roll" and state.free_dice == 6
    assert progress(state, "Ana") == (0, 3)  # 2 and 3, then +1 for the paradox


def test_paradox_losses_reach_an_opponents_temporal_displacement_card():
    # Only ripples are barred from the TD card; a paradox moves every Active card.
    state = make_table(("Ana", "Ben", "Cy"))
    for name in ("Ben", "Cy"):
        p = state.player(name)
        p.completed = tuple(card_id(name, s) for s in ("02", "03a", "03b", "04"))
        p.active, p.next, p.hand, p.progress = card_id(name, "td"), None, [], 3
    state, _ = play(state, roll("flux", "flux", 88, 88, 5, 5),
                    lock("flux", "flux", 88, 88, target="Cy"))
    assert progress(state, "Cy") == (4, 2) and progress(state, "Ben") == (4, 3)
    state, _ = play(state, roll(88, 3, 3, 3, 3, 3), lock(88), END)  # Ben
    state, _ = play(state, roll(88, 3, 3, 3, 3, 3), lock(88), END)  # Cy
    state, _ = play(state, roll("flux", "flux", "flux", 88, 88, 88))  # Ana
    state, _ = play(state, lock("flux", "flux", "flux", 88, 88, 88))
    assert progress(state, "Ben") == (4, 1) and progress(state, "Cy") == (4, 0)


# --------------------------------------------------------------------------- Power of luck


def test_at_least_one_die_must_be_added_before_rolling_again_or_ending():
    state = make_table()
    state, _ = play(state, roll(2, 88, 5, 5, 5, 5))
    for action in (END, REROLL):
        with pytest.raises(RuleError, match="at least one die"):
            play(state, action)


def test_ending_the_turn_passes_the_dice_to_the_left():
    state = make_table(("Ana", "Ben", "Cy"))
    state, effects = play(state, roll(2, 5, 5, 5, 5, 5), lock(2), END)
    assert state.current.name == "Ben" and state.free_dice == 6 and state.delorean == ()
    state, _ = play(state, roll(5, 2, 2, 2, 2, 2), lock(5), END)
    assert state.current.name == "Cy"
    state, _ = play(state, roll(88, 2, 2, 2, 2, 2), lock(88), END)
    assert state.current.name == "Ana"


def test_rerolling_rolls_only_the_dice_not_on_the_delorean():
    state = make_table()
    state, _ = play(state, roll(2, 3, 5, 5, 5, 5), lock(2, 3), REROLL)
    assert state.free_dice == 4
    with pytest.raises(RuleError, match="4 dice are to be rolled, not 6"):
        play(state, roll(4, 5, 5, 5, 5, 5))
    state, _ = play(state, roll(4, 5, 5, 5))
    assert state.phase == "place"


def test_a_roll_action_in_the_placing_phase_means_roll_again():
    state = make_table()
    state, _ = play(state, roll(2, 3, 5, 5, 5, 5), lock(2, 3), roll(5, 5, 5, 88))
    assert state.roll == ("5", "5", "5", "88")


def test_stall_costs_the_roller_one_and_keeps_others_ripple_gains():
    state = make_table(("Ana", "Ben"), {"Ben": {"02": [2, 5, 5]}})
    state, _ = play(state, roll(2, 3, 88, 88, 5, 5), lock(2, 3), REROLL)
    assert progress(state, "Ana") == (0, 2) and progress(state, "Ben") == (0, 1)
    state, effects = play(state, roll(2, 3, 5, 5))  # needs a 4: nothing can be added
    assert "stall" in kinds(effects)
    assert progress(state, "Ana") == (0, 1)
    assert progress(state, "Ben") == (0, 1)  # the ripple gain stays
    assert state.current.name == "Ben"  # the stall ended the turn
    assert {"kind": "instruction", "text": "ANA: Next card 1 left", "player": "Ana",
            "spaces": -1} in effects


def test_stall_never_goes_below_the_card_start():
    state = make_table()
    state, _ = play(state, roll(88, 5, 5, 5, 5, 5), lock(88), REROLL)
    state, effects = play(state, roll(3, 3, 3, 3, 3))
    assert "stall" in kinds(effects) and progress(state, "Ana") == (0, 0)


def test_first_roll_with_nothing_to_add_passes_the_turn_without_a_stall():
    state = make_table()
    state, effects = play(state, roll(3, 3, 4, 4, 5, 5))  # needs a 2; no flux, no 88
    assert "stall" not in kinds(effects) and "no_die" in kinds(effects)
    assert state.current.name == "Ben" and progress(state, "Ana") == (0, 0)


def test_option_first_roll_stalls_makes_the_first_roll_a_stall_too():
    state = make_table(options={"first_roll_stalls": True})
    state.player("Ana").progress = 1  # needs a 3 next
    state, effects = play(state, roll(2, 2, 4, 4, 5, 5))
    assert "stall" in kinds(effects) and progress(state, "Ana") == (0, 0)


def test_unknown_option_is_refused():
    with pytest.raises(RuleError, match="unknown option"):
        make_table(options={"house_rule": 1})


# --------------------------------------------------------------------------- Doubleback


def _six_on_the_delorean():
    """Ana has locked all six dice (2, 3 used; flux and three 88s)."""
    state = make_table(("Ana", "Ben"), {"Ana": {"02": [2, 3, 4, 5]}})
    state, _ = play(state, roll("flux", 2, 3, 88, 88, 88), lock("flux", 2, 3, 88))
    state, _ = play(state, lock(88, 88))  # 1 flux: no paradox
    return state


def test_doubleback_only_when_all_six_dice_are_on_the_delorean():
    state = make_table()
    state, _ = play(state, roll(2, 5, 5, 5, 5, 5), lock(2))
    with pytest.raises(RuleError, match="all six dice"):
        play(state, DOUBLEBACK)
    state = _six_on_the_delorean()
    assert state.free_dice == 0
    assert {"type": "doubleback"} in outatime.legal_actions(state)
    assert {"type": "reroll"} not in outatime.legal_actions(state)


def test_doubleback_takes_back_only_the_number_dice():
    state = _six_on_the_delorean()
    state, effects = play(state, DOUBLEBACK)
    assert sorted(state.delorean) == ["88", "88", "88", "flux"]
    assert state.free_dice == 2 and state.phase == "roll"
    assert progress(state, "Ana") == (0, 2)  # progress made stays


def test_doubleback_stall_costs_two():
    state = _six_on_the_delorean()
    state, effects = play(state, DOUBLEBACK, roll(2, 2))  # needs a 4
    assert [e["loss"] for e in effects if e["kind"] == "stall"] == [2]
    assert progress(state, "Ana") == (0, 0)


def test_later_rolls_of_a_doubleback_also_stall_for_two():
    state = make_table(("Ana", "Ben"), {"Ana": {"02": [2, 3, 4, 5, 5]}})
    state, _ = play(state, roll("flux", 2, 3, 88, 88, 88), lock("flux", 2, 3, 88, 88, 88))
    state, _ = play(state, DOUBLEBACK, roll(4, 88), lock(4), REROLL)
    state, effects = play(state, roll(2))  # needs a 5
    assert [e["loss"] for e in effects if e["kind"] == "stall"] == [2]
    assert progress(state, "Ana") == (0, 1)


def test_all_six_again_after_a_doubleback_ends_the_turn():
    state = _six_on_the_delorean()
    state, effects = play(state, DOUBLEBACK, roll(4, 5), lock(4, 5))
    assert progress(state, "Ana") == (1, 0)
    assert "six" in kinds(effects)
    # Ana completed her card with it: she chooses her new Next, then the turn passes.
    assert outatime.actor(state) == "Ana" and state.pending[0]["decision"] == "next"
    state, _ = play(state, {"type": "next", "player": "Ana", "card": card_id("Ana", "04")})
    assert state.current.name == "Ben" and state.phase == "roll"


def test_doubleback_needs_a_number_die_to_take_back():
    state = make_table()
    state, _ = play(state, roll("flux", 88, 88, 88, 88, 88), lock("flux", 88, 88, 88, 88, 88))
    assert state.free_dice == 0
    with pytest.raises(RuleError, match="no number dice"):
        play(state, DOUBLEBACK)
    with pytest.raises(RuleError, match=r"no free dice to roll: END the turn \(no number dice "
                                        r"on the DeLorean to take back\)$"):
        play(state, REROLL)  # the hint never offers the doubleback refused just above
    state, _ = play(state, END)
    assert state.current.name == "Ben"


def test_with_all_six_dice_on_the_delorean_the_doubleback_is_a_choice():
    state = _six_on_the_delorean()
    assert {"type": "end"} in outatime.legal_actions(state)
    state, effects = play(state, END)
    assert "doubleback" not in kinds(effects)
    assert state.current.name == "Ben" and progress(state, "Ana") == (0, 2)


def test_a_doubleback_stall_with_one_space_to_lose_moves_one():
    state = make_table(("Ana", "Ben"), {"Ana": {"02": [2, 4, 4, 5]}})
    state, _ = play(state, roll("flux", 2, 88, 88, 88, 88), lock("flux", 2, 88, 88, 88, 88))
    state, effects = play(state, DOUBLEBACK, roll(3))  # needs a 4
    assert [(e["loss"], e["moved"]) for e in effects if e["kind"] == "stall"] == [(2, 1)]
    assert progress(state, "Ana") == (0, 0) and state.current.name == "Ben"


# --------------------------------------------------------------------------- Completing


def test_completing_a_card_makes_next_active_and_asks_for_a_new_next():
    state = make_table()
    state, effects = play(state, roll(2, 3, 4, 5, 5, 5), lock(2, 3, 4))
    ana = state.player("Ana")
    assert ana.completed == (card_id("Ana", "02"),)
    assert ana.active == card_id("Ana", "03a") and ana.progress == 0
    assert outatime.actor(state) == "Ana"
    options = {a["card"] for a in outatime.legal_actions(state)}
    assert options == {card_id("Ana", "03b"), card_id("Ana", "04")}  # never the TD card yet
    with pytest.raises(RuleError, match="may choose"):
        play(state, {"type": "next", "player": "Ana", "card": card_id("Ana", "td")})
    state, _ = play(state, {"type": "next", "player": "Ana", "card": card_id("Ana", "04")})
    assert state.player("Ana").next == card_id("Ana", "04")


def test_when_only_one_card_is_left_besides_td_it_is_taken_without_asking():
    state = make_table()
    ana = state.player("Ana")
    ana.completed = (card_id("Ana", "03b"),)
    ana.hand = [card_id("Ana", "04"), card_id("Ana", "td")]
    state, effects = play(state, roll(2, 3, 4, 5, 5, 5), lock(2, 3, 4))
    assert state.player("Ana").next == card_id("Ana", "04")
    assert not state.pending


def test_numbers_overflow_onto_the_new_active_card():
    state = make_table()  # 02: 2-3-4, then 03a: 3-3-5-2
    state, _ = play(state, roll(2, 3, 4, 3, 5, 5), lock(2, 3, 4, 3))
    assert progress(state, "Ana") == (1, 1)


def test_paradox_gain_overflows_onto_the_new_active_card():
    state = make_table(("Ana", "Ben"), {"Ana": {"02": [2, 3, 4, 5]}})
    state.player("Ana").progress = 3
    state, _ = play(state, roll("flux", "flux", "flux", 88, 88, 88))
    state, _ = play(state, lock("flux", "flux", "flux", 88, 88, 88))
    assert progress(state, "Ana") == (1, 1)


def test_completed_cards_are_safe_from_stalls():
    state = make_table()
    state, _ = play(state, roll(2, 3, 4, 5, 5, 5), lock(2, 3, 4))
    state, _ = play(state, {"type": "next", "player": "Ana", "card": card_id("Ana", "04")})
    state, effects = play(state, REROLL, roll(2, 2, 2))  # needs a 3
    assert "stall" in kinds(effects)
    assert progress(state, "Ana") == (1, 0)


# --------------------------------------------------------------------------- TD and winning


def _on_last_card(state, name):
    p = state.player(name)
    p.completed = tuple(card_id(name, s) for s in ("02", "03a", "03b", "04"))
    p.active, p.next, p.hand, p.progress = card_id(name, "td"), None, [], 0
    return state


def test_temporal_displacement_is_completed_bottom_to_top_as_registered():
    state = _on_last_card(make_table(), "Ana")  # TD steps bottom-to-top: 2, 5, 3, 4
    state, _ = play(state, roll(5, 2, 88, 88, 3, 3))
    with pytest.raises(RuleError, match="needs a 2 next"):
        play(state, lock(5))
    state, _ = play(state, lock(2, 5, 3))
    assert progress(state, "Ana") == (4, 3)


def test_completing_all_five_cards_wins_and_ends_the_game():
    state = make_table()
    state = _on_last_card(state, "Ana")
    state.player("Ana").progress = 3
    state, effects = play(state, roll(4, 5, 5, 5, 5, 5), lock(4))
    assert state.winner == "Ana" and outatime.actor(state) == TERMINAL
    assert outatime.winners(state) == ["Ana"] and "win" in kinds(effects)
    assert outatime.legal_actions(state) == []
    with pytest.raises(RuleError, match="game is over"):
        play(state, END)


def test_the_winning_lock_ends_at_once_without_ripples_after_it():
    state = make_table(("Ana", "Ben"), {"Ben": {"02": [4, 5, 5]}})
    state = _on_last_card(state, "Ana")
    state.player("Ana").progress = 3
    state, effects = play(state, roll(4, 5, 5, 5, 5, 5), lock(4))
    assert state.winner == "Ana"
    assert progress(state, "Ben") == (0, 0)


def test_only_the_roller_can_win_because_the_last_card_ignores_ripples():
    state = make_table()
    state = _on_last_card(state, "Ben")
    state.player("Ben").progress = 3  # needs a 4 to win
    state.player("Ana").progress = 2  # Ana also needs a 4
    state, _ = play(state, roll(4, 5, 5, 5, 5, 5), lock(4))
    assert state.winner is None and progress(state, "Ben") == (4, 3)


def test_a_stall_moves_the_temporal_displacement_card_back_too():
    state = _on_last_card(make_table(), "Ana")  # TD steps bottom-to-top: 2, 5, 3, 4
    state, _ = play(state, roll(2, 5, 88, 3, 3, 3), lock(2, 5), REROLL)
    state, effects = play(state, roll(2, 2, 4, 4))  # needs a 3
    assert [e["moved"] for e in effects if e["kind"] == "stall"] == [1]
    assert progress(state, "Ana") == (4, 1)


def test_a_paradox_moves_the_rollers_temporal_displacement_card_and_can_win():
    state = _on_last_card(make_table(), "Ana")
    state.player("Ana").progress = 2  # two of its four steps done
    state, _ = play(state, roll("flux", "flux", 88, 88, 5, 5), lock("flux", "flux", 88, 88))
    assert progress(state, "Ana") == (4, 3) and state.winner is None
    state, _ = play(state, roll(88, 3, 3, 3, 3, 3), lock(88), END)  # Ben
    state, effects = play(state, roll("flux", "flux", 88, 88, 5, 5))
    state, effects = play(state, lock("flux", "flux", 88, 88))
    assert state.winner == "Ana" and "win" in kinds(effects)


# --------------------------------------------------------------------------- errors


def test_errors_say_what_is_wrong_and_leave_the_state_alone():
    state = make_table()
    before = outatime.to_json(state)
    with pytest.raises(RuleError, match="not an OUTATIME die face"):
        play(state, roll(1, 2, 3, 4, 5, 6))
    with pytest.raises(RuleError, match="unknown action type"):
        play(state, {"type": "teleport"})
    with pytest.raises(RuleError, match='"type"'):
        play(state, ["roll"])
    with pytest.raises(RuleError, match="cannot lock dice now"):
        play(state, lock(2))
    assert outatime.to_json(state) == before


def test_face_aliases_written_by_people_are_understood():
    assert [outatime.face(x) for x in ("F", "Flux Capacitor", 88, "88mph", 3)] == [
        "flux", "flux", "88", "88", "3"]


def test_numbers_beyond_a_card_whose_successor_is_not_chosen_yet_wait_for_the_choice():
    state = make_table(("Ana", "Ben"), {"Ana": {"02": [2], "03a": [3]}})
    state, _ = play(state, roll(2, 3, 4, 88, 88, 88))
    with pytest.raises(RuleError, match="choose the next Power card, then lock the rest"):
        play(state, lock(2, 3, 4))
    state, _ = play(state, lock(2, 3))  # completes 02, then 03a
    assert progress(state, "Ana") == (2, 0)
    state, _ = play(state, {"type": "next", "player": "Ana", "card": card_id("Ana", "04")})
    ana = state.player("Ana")
    assert ana.active == card_id("Ana", "04") and ana.next == card_id("Ana", "03b")
    state, _ = play(state, lock(88))
    assert state.phase == "place"


def test_gains_while_the_next_card_is_being_chosen_are_kept():
    state = make_table(("Ana", "Ben"), {"Ana": {"02": [2], "03a": [3]}})
    state, _ = play(state, roll(2, 3, "flux", "flux", 88, 88))
    state, effects = play(state, lock(2, 3, "flux", "flux", 88, 88))  # two cards, then paradox
    assert "paradox" in kinds(effects) and state.player("Ana").carry == 1
    state, _ = play(state, {"type": "next", "player": "Ana", "card": card_id("Ana", "04")})
    assert progress(state, "Ana") == (2, 1)  # the paradox step lands on the new card
    assert state.current.name == "Ben"


def _two_completions_table() -> outatime.State:
    """Ana's 3, 5 and 4 complete two of Ben's cards and then ripple onto his third."""
    return make_table(("Ana", "Ben"), {"Ana": {"02": [3, 5, 4, 2]},
                                       "Ben": {"02": [3], "03a": [5], "03b": [4, 2, 2]}})


def test_a_ripple_after_an_opponent_completes_two_cards_in_one_lock_waits_for_his_choice():
    ben_03b = {"type": "next", "player": "Ben", "card": card_id("Ben", "03b")}
    state, _ = play(_two_completions_table(), roll(3, 5, 4, 88, 88, 88))
    joined, effects = play(state, lock(3, 5, 4))
    # Ben completed his 0.2 on the 3 and his 0.3 on the 5: he chooses before the 4 goes on.
    assert progress(joined, "Ben") == (2, 0) and joined.player("Ben").active is None
    assert outatime.actor(joined) == "Ben" and kinds(effects).count("ripple") == 2
    with pytest.raises(RuleError, match="Ben must first choose"):
        play(joined, END)
    joined, effects = play(joined, ben_03b)
    assert [e["number"] for e in effects if e["kind"] == "ripple"] == [4]
    assert progress(joined, "Ben") == (2, 1) and progress(joined, "Ana") == (0, 3)
    assert outatime.actor(joined) == "Ana" and joined.lock_rest is None
    # The same dice locked one at a time end in the same place.
    split, _ = play(state, lock(3), ben_03b, lock(5), lock(4))
    assert outatime.to_json(split) == outatime.to_json(joined)


def test_a_lock_waiting_for_a_choice_survives_the_journal_round_trip():
    state, _ = play(_two_completions_table(), roll(3, 5, 4, 88, 88, 88), lock(3, 5, 4))
    again = outatime.from_json(outatime.to_json(state))
    assert again.lock_rest == {"numbers": ["4"], "before": 0, "target": None}
    state, _ = play(again, {"type": "next", "player": "Ben", "card": card_id("Ben", "03b")})
    assert progress(state, "Ben") == (2, 1)


_STEP = st.lists(st.sampled_from([2, 3, 4, 5]), min_size=1, max_size=3)


@settings(max_examples=150, deadline=None)
@given(ana=st.lists(st.sampled_from([2, 3, 4, 5]), min_size=3, max_size=6),
       others=st.lists(st.fixed_dictionaries({"02": _STEP, "03a": _STEP, "03b": _STEP}),
                       min_size=1, max_size=2),
       pick=st.integers(0, 1))
def test_a_lock_and_the_same_dice_locked_one_at_a_time_end_alike(ana, others, pick):
    """Rules note 6: ripples, completions and choices do not depend on how the dice of one
    roll are split into locks."""
    names = ("Ana", "Ben", "Cy")[: len(others) + 1]
    steps = {"Ana": {"02": ana}, **dict(zip(names[1:], others, strict=True))}
    dice = [str(n) for n in ana[:6]] + ["88"] * (6 - min(len(ana), 6))
    state, _ = play(make_table(names, steps), roll(*dice))
    chain = [str(n) for n in ana[:3]]  # Ana's 0.2 card: her first numbers, in order

    def choose(s):
        while s.pending:  # every choice takes the same option in both ways of locking
            d = s.pending[0]
            option = d["options"][min(pick, len(d["options"]) - 1)]
            s, _ = play(s, {"type": "next", "player": d["player"], "card": option})
        return s

    joined = choose(play(state, lock(*chain))[0])
    split = state
    for number in chain:
        split = choose(play(split, lock(number))[0])
    assert outatime.to_json(split) == outatime.to_json(joined)


def test_every_die_of_the_winning_lock_is_placed_on_the_delorean():
    state = _on_last_card(make_table(), "Ana")
    state.player("Ana").progress = 3
    state, _ = play(state, roll(4, "flux", 88, 5, 5, 5), lock(4, "flux", 88))
    assert state.winner == "Ana"
    assert sorted(state.delorean) == ["4", "88", "flux"] and len(state.roll) == 3
