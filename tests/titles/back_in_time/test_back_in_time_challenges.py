"""Back in Time's challenges, the dice (Biff locks, the one reroll, modifiers, Biff's dice),
assisting, and the end at 10:04 p.m. One scenario per rule paragraph and FAQ answer."""

from __future__ import annotations

import pytest
from bit_table import (
    END,
    READY,
    RESOLVE,
    add,
    arrange,
    attempt,
    challenge,
    give,
    kinds,
    next_turn,
    play,
    roll,
    run,
    table,
    texts,
)

from companion.titles.api import CHANCE, TERMINAL, RuleError
from companion.titles.back_in_time import rules

# Ana is Marty: marty-1 speed (move 3), marty-2 courage (2), marty-3 love (4), marty-4 love (1),
# marty-5 knowledge (2). Ben is Doc: doc-1, doc-2 knowledge, doc-3, doc-4 speed, doc-5 courage.


def couple(place: str = "oak-st", **more):
    """Ana (Marty) with George and Lorraine at ``place``; Love on 5 unless told."""
    return arrange(table(2), Ana=place, george=place, lorraine=place, **{"love": 5, **more})


# --------------------------------------------------------------------------- challenge types


def test_influence_love_moves_the_meter_one_space_per_love_or_wild():
    state, effects = attempt(couple(), "love", ["marty-3", "marty-4"], ["love:love", "love:wild"])
    state, effects = run(state, RESOLVE)
    assert state.love == 7
    assert texts(effects) == ["2 love symbols", "LOVE +2"]


def test_influence_love_needs_george_and_lorraine_both_there():
    state = arrange(table(2), Ana="oak-st", george="oak-st")
    with pytest.raises(RuleError, match="needs George and Lorraine both at Oak St"):
        rules.apply(state, challenge("love"))
    assert challenge("love") not in rules.legal_actions(state)


def test_faq_influence_love_at_the_top_of_the_heart_zone_does_nothing():
    state, _ = attempt(couple(love=15), "love", ["marty-3"], ["love:love"])
    state, effects = run(state, RESOLVE)
    assert state.love == 15 and "LOVE is at the top: no change" in texts(effects)
    state, _ = attempt(couple(love=14), "love", ["marty-3", "marty-4"], ["love:love",
                                                                         "love:love"])
    assert play(state, RESOLVE).love == 15  # it never goes above the top Heart Zone space


def test_move_delorean_moves_it_one_space_per_speed_or_wild():
    state = give(arrange(table(2), Ana="elm-st"), "Ana", tiles=["std-01"])
    state, _ = attempt(state, "delorean", ["marty-1", "std-01"], ["speed:wild", "speed:speed"])
    state, effects = run(state, RESOLVE)
    assert state.delorean == 2 and rules.delorean_place(state) == "pine-st"
    assert texts(effects)[-1] == "DELOREAN +2 to Pine St"


def test_move_delorean_needs_the_player_at_the_delorean():
    with pytest.raises(RuleError, match="the DeLorean is at Elm St"):
        rules.apply(table(2), challenge("delorean"))


def test_the_delorean_cannot_move_past_doc_house_without_all_three_parts():
    state = give(arrange(table(2), Ana="pine-st", delorean=2, parts=("cable", "hook")), "Ana",
                 tiles=["std-01"])
    ready, _ = attempt(state, "delorean", ["marty-1", "std-01"], ["speed:speed", "speed:wild"])
    state, effects = run(ready, RESOLVE)
    assert rules.delorean_place(state) == "doc-house"
    assert texts(effects)[-1] == "DELOREAN stops at Doc's House: it needs all 3 Parts"
    ready.parts = ("cable", "hook", "gasoline")
    assert rules.delorean_place(play(ready, RESOLVE)) == "main-st-1"


def test_fight_biff_first_courage_knocks_him_down_each_further_one_a_token_at_most_three():
    state = arrange(table(2), Ana="clock-tower")
    state = give(state, "Ana", tiles=["std-03"])
    state, _ = attempt(state, "biff", ["marty-2", "std-03"], ["courage:courage", "courage:wild"])
    state, effects = run(state, RESOLVE)
    assert state.biff_down and state.tokens == 1
    assert texts(effects)[1:] == ["KNOCK BIFF DOWN (lay his mover down)",
                                  "PUT 1 KNOCKDOWN TOKEN on Biff"]
    many = give(arrange(table(2), Ana="clock-tower"), "Ana", tiles=["std-03"])
    many, _ = attempt(many, "biff", ["marty-2", "std-03", "marty-3", "marty-4", "marty-1"],
                      ["courage:courage", "courage:courage", "love:wild", "love:wild",
                       "speed:wild"])
    many = play(many, RESOLVE)
    assert many.biff_down and many.tokens == 3  # five symbols: down, and three tokens at most


def test_fight_biff_needs_biff_standing_there():
    with pytest.raises(RuleError, match="Biff is at Clock Tower"):
        rules.apply(table(2), challenge("biff"))
    down = arrange(table(2), Ana="clock-tower", biff_down=True)
    with pytest.raises(RuleError, match="knocked down"):
        rules.apply(down, challenge("biff"))


def test_prepare_delorean_takes_the_part_with_its_knowledge_cost_to_doc_house():
    state = give(arrange(table(2), Ana="hill-valley-high"), "Ana", tiles=["std-02"])
    failed, _ = attempt(state, "part", ["marty-5", "std-02"], ["knowledge:knowledge",
                                                               "knowledge:biff"], part="cable")
    assert play(failed, RESOLVE).parts == ()  # cost 2 in the demo pack
    state, _ = attempt(state, "part", ["marty-5", "std-02"], ["knowledge:knowledge",
                                                              "knowledge:wild"], part="cable")
    state, effects = run(state, RESOLVE)
    assert state.parts == ("cable",)
    assert "FLIP the Cable tile and put it at Doc's House" in texts(effects)
    with pytest.raises(RuleError, match="already at Doc's House"):
        rules.apply(state, challenge("part", part="cable"))
    # the view names places by id, a Part at Doc's House too (not by its role, doc_house)
    view = rules.view(state)
    assert view["parts"] == {"cable": "doc-house", "gasoline": "south-shops",
                             "hook": "clock-tower"}
    assert all(place in view["places"] for place in view["parts"].values())


def test_opportunity_success_gives_the_reward_and_a_new_card_replaces_it():
    state = give(arrange(table(2), Ana="hill-valley-high"), "Ana", tiles=["std-04"])
    # opp-03 at hill-valley-high: need 2 love, reward an Item
    state, _ = attempt(state, "opportunity", ["marty-3", "std-04"], ["love:love", "love:wild"],
                       card="opp-03")
    state, effects = run(state, RESOLVE)
    assert state.player("Ana").items == ["skateboard"]  # the top of the Item stack
    assert state.player("Ana").items_down == ["skateboard"]  # gained face down
    assert state.opportunities == ("opp-01", "opp-02")
    assert rules.legal_actions(state) == [{"type": "draw", "deck": "opportunity"}]
    state = play(state, {"type": "draw", "deck": "opportunity", "card": "opp-10"})
    assert state.opportunities == ("opp-01", "opp-02", "opp-10")


def test_a_failed_opportunity_stays_where_it_is():
    state = arrange(table(2), Ana="hill-valley-high")
    state, _ = attempt(state, "opportunity", ["marty-3"], ["love:love"], card="opp-03")
    state = play(state, RESOLVE)
    assert "opp-03" in state.opportunities and state.player("Ana").items == []


def test_an_opportunity_with_a_character_requirement_needs_that_character_there():
    state = table(2, characters=("marty", "jennifer"), opportunities=("opp-06", "opp-01",
                                                                      "opp-02"))
    state = arrange(state, Ana="cedar-ln")  # opp-06 at cedar-ln needs Doc
    with pytest.raises(RuleError, match="needs Doc at Cedar Ln"):
        rules.apply(state, challenge("opportunity", card="opp-06"))
    with_doc = table(2, characters=("marty", "doc"), opportunities=("opp-06", "opp-01",
                                                                    "opp-02"))
    with_doc = arrange(with_doc, Ana="cedar-ln", Ben="cedar-ln")
    assert challenge("opportunity", card="opp-06") in rules.legal_actions(with_doc)


def test_a_failed_trouble_stays_out_and_is_attempted_only_at_its_place():
    state = arrange(table(2), Ana="main-st-2", trouble="tr1-2")  # tr1-2 at main-st-1
    with pytest.raises(RuleError, match="Trouble Demo trouble 1-2 is at Main St 1"):
        rules.apply(state, challenge("trouble"))
    state = arrange(state, Ana="main-st-1")
    state, _ = attempt(state, "trouble", ["marty-1"], ["speed:speed"])  # need 1 love
    state, effects = run(state, RESOLVE)
    assert texts(effects) == ["FAILED"] and state.trouble == "tr1-2"
    assert challenge("trouble", card="tr1-2") in rules.legal_actions(state)


def test_a_trouble_challenge_needs_the_trouble_card_that_is_out():
    state = arrange(table(2), Ana="main-st-1")
    assert state.trouble is None
    with pytest.raises(RuleError, match="^no Trouble card is out: choose another challenge$"):
        rules.apply(state, challenge("trouble"))
    state = arrange(state, trouble="tr1-2")
    with pytest.raises(RuleError, match="the Trouble card out is tr1-2, not tr1-3"):
        rules.apply(state, challenge("trouble", card="tr1-3"))
    assert play(state, challenge("trouble", card="tr1-2")).challenge["target"] == "tr1-2"


def test_trouble_success_gives_the_reward_and_no_card_replaces_it():
    state = arrange(table(2), Ana="main-st-1", trouble="tr1-2", photos=4)
    # tr1-2 at main-st-1: need 1 love, reward photo+1
    state, _ = attempt(state, "trouble", ["marty-3"], ["love:love"], card="tr1-2")
    state, effects = run(state, RESOLVE)
    assert state.trouble is None and state.photos == 5
    assert "DISCARD Trouble Demo trouble 1-2 (no new one)" in texts(effects)
    assert "FLIP 1 PHOTO face up" in texts(effects)
    assert not state.queue and rules.actor(state) == "Ana"


def test_a_challenge_needs_a_die_to_roll():
    state = arrange(table(2), Ana="clock-tower")
    state.player("Ana").down = list(state.player("Ana").tiles)
    with pytest.raises(RuleError, match="no face-up Power Tile or Item that gives a die"):
        rules.apply(state, challenge("biff"))


def test_faq_several_challenges_in_one_turn():
    state = couple("clock-tower", biff="clock-tower")
    state, _ = attempt(state, "love", ["marty-3"], ["love:love"])
    state = play(state, RESOLVE)
    assert state.love == 6
    state, _ = attempt(state, "biff", ["marty-2"], ["courage:courage"])
    state = play(state, RESOLVE)
    assert state.love == 6 and state.biff_down and rules.actor(state) == "Ana"


# --------------------------------------------------------------------------- dice


def test_dice_come_from_face_up_tiles_at_most_two_per_colour_and_the_tiles_turn_down():
    state = give(couple(), "Ana", tiles=["std-04"])
    state = play(state, challenge("love"), add("marty-3"), add("marty-4"))
    assert state.player("Ana").down == ["marty-3", "marty-4"]
    with pytest.raises(RuleError, match="at most 2 love dice"):
        rules.apply(state, add("std-04"))
    assert add("std-04") not in rules.legal_actions(state)
    with pytest.raises(RuleError, match="shows no die|face down"):
        rules.apply(state, add("marty-3"))
    state, effects = run(state, READY)
    assert texts(effects) == ["ROLL 2 love"] and rules.actor(state) == CHANCE
    assert rules.legal_actions(state) == [{"type": "roll"}]  # the camera's reading is due
    with pytest.raises(RuleError, match="cannot move during a challenge"):
        rules.apply(state, {"type": "move", "tile": "marty-1"})


def test_a_challenge_may_be_called_off_until_ready_and_the_tiles_turn_back_up():
    state = play(couple(), challenge("love"), add("marty-3"))
    called_off = play(state, {"type": "cancel"})
    assert called_off.challenge is None and called_off.player("Ana").down == []
    # once READY is pressed the dice are rolled: too late, and the message says what to do
    state = play(state, READY)
    assert {"type": "cancel"} not in rules.legal_actions(state)
    with pytest.raises(RuleError, match=r"too late to call off: READY was pressed; roll the "
                                        r"dice and enter them \(or UNDO READY\)"):
        rules.apply(state, {"type": "cancel"})


def test_the_roll_must_be_the_chosen_dice_with_faces_their_dice_have():
    state = play(couple(), challenge("love"), add("marty-3"), add("marty-1"), READY)
    with pytest.raises(RuleError, match="2 dice are to be rolled"):
        rules.apply(state, roll("love:love"))
    with pytest.raises(RuleError, match="the dice to roll are love, speed, not courage, love"):
        rules.apply(state, roll("love:love", "courage:wild"))
    with pytest.raises(RuleError, match="the love die has no speed face"):
        rules.apply(state, roll("love:speed", "speed:speed"))
    with pytest.raises(RuleError, match="not a Back in Time die face"):
        rules.apply(state, roll("love:flux", "speed:speed"))
    state = play(state, roll("speed:wild", "love:heart"))  # any order; "heart" is love
    assert [d["face"] for d in state.challenge["dice"]] == ["love", "wild"]


def test_biff_faces_lock_and_are_never_rerolled_and_the_reroll_comes_once():
    state = give(couple(), "Ana", tiles=["std-04"])
    state, effects = attempt(state, "love", ["marty-3", "std-04"], ["love:biff", "love:biff"])
    assert texts(effects)[-1] == "LOCK 2 BIFF dice: set them aside"
    with pytest.raises(RuleError, match="Biff dice are locked and are never rerolled"):
        rules.apply(state, {"type": "reroll", "dice": [0]})
    state = give(couple(), "Ana", tiles=["std-04"])
    state, _ = attempt(state, "love", ["marty-3", "std-04"], ["love:biff", "love:love"])
    state, effects = run(state, {"type": "reroll", "dice": [1]}, roll("love:biff"))
    assert texts(effects)[-1] == "LOCK 1 BIFF die: set it aside"  # a new Biff locks too
    with pytest.raises(RuleError, match="the reroll is used"):
        rules.apply(state, {"type": "reroll", "dice": [1]})


def test_the_reroll_may_take_any_set_of_unlocked_dice_never_a_biff():
    # "Reroll any unlocked dice": every non-empty set of the dice that are not Biffs is legal.
    state = give(couple(), "Ana", tiles=["std-04"])
    state, _ = attempt(state, "love", ["marty-3", "std-04"], ["love:love", "love:wild"])
    sets = [a["dice"] for a in rules.legal_actions(state) if a["type"] == "reroll"]
    assert sorted(sets) == [[0], [0, 1], [1]]  # the wild die too: it is not locked
    state = give(couple(), "Ana", tiles=["std-04"])
    state, _ = attempt(state, "love", ["marty-3", "std-04"], ["love:biff", "love:love"])
    sets = [a["dice"] for a in rules.legal_actions(state) if a["type"] == "reroll"]
    assert sets == [[1]]  # the Biff is locked
    state, _ = run(state, {"type": "reroll", "dice": [1]}, roll("love:wild"))
    assert [d["face"] for d in state.challenge["dice"]] == ["biff", "wild"]


def test_faq_biff_dice_are_rerolled_only_with_a_reroll_all_tile():
    state = give(couple(), "Ana", tiles=["std-22", "std-23"])  # two Reroll All tiles
    state, _ = attempt(state, "love", ["marty-3", "marty-4"], ["love:biff", "love:love"])
    state, effects = run(state, {"type": "modify", "tile": "std-22"})
    assert texts(effects) == ["REROLL ALL 2 dice, Biffs too"] and state.challenge["roll"] == [0,
                                                                                            1]
    state = play(state, roll("love:wild", "love:biff"), {"type": "modify", "tile": "std-23"},
                 roll("love:love", "love:wild"))
    state, effects = run(state, RESOLVE)
    assert state.love == 7 and "biff" not in kinds(effects)


def test_change_to_wild_turns_a_die_wild_but_never_a_biff():
    state = give(couple(), "Ana", tiles=["std-17"])
    state, _ = attempt(state, "love", ["marty-3", "marty-1"], ["love:biff", "speed:speed"])
    with pytest.raises(RuleError, match="Biff dice are locked"):
        rules.apply(state, {"type": "modify", "tile": "std-17", "die": 0})
    state, effects = run(state, {"type": "modify", "tile": "std-17", "die": 1})
    assert texts(effects) == ["TURN the speed die to WILD"]
    with pytest.raises(RuleError, match="MODIFY or RESOLVE"):
        rules.apply(state, {"type": "reroll", "dice": [1]})  # modifying ends the reroll step
    state = play(state, RESOLVE)
    assert state.love == 6  # +1; the Biff die then moves Biff, who is not with the couple
    assert state.npcs["biff"] == "walnut-st"


def test_a_reroll_1_modifier_rerolls_the_chosen_die_only_never_a_biff():
    state = give(couple(), "Ana", tiles=["std-20"])  # Reroll 1
    state, _ = attempt(state, "love", ["marty-3", "marty-1"], ["love:biff", "speed:speed"])
    with pytest.raises(RuleError, match="Biff dice are locked"):
        rules.apply(state, {"type": "modify", "tile": "std-20", "die": 0})
    state, effects = run(state, {"type": "modify", "tile": "std-20", "die": 1})
    assert texts(effects) == ["REROLL the speed die"] and state.challenge["roll"] == [1]
    assert "std-20" in state.player("Ana").down
    with pytest.raises(RuleError, match="1 dice are to be rolled: speed"):
        rules.apply(state, roll("love:love", "speed:wild"))  # only the chosen die is rerolled
    state = play(state, roll("speed:wild"))
    with pytest.raises(RuleError, match="the reroll is used"):
        rules.apply(state, {"type": "reroll", "dice": [1]})  # modifying ends the reroll step
    state, effects = run(state, RESOLVE)
    assert texts(effects)[:2] == ["1 love symbol", "LOVE +1"] and state.love == 6


def test_each_biff_die_moves_biff_one_step_toward_the_nearer_of_george_and_lorraine():
    state = arrange(table(2), Ana="hill-valley-high")
    state, _ = attempt(state, "opportunity", ["marty-3"], ["love:biff"], card="opp-03")
    state, effects = run(state, RESOLVE)
    # Biff is 4 steps from both: George first on a tie (rules note); board order on a path tie
    assert state.npcs["biff"] == "river-rd"
    assert texts(effects)[-1] == "BIFF 1 step to George (River Rd)"
    assert effects[-1]["place"] == "river-rd"


def test_a_biff_die_with_biff_at_george_or_lorraine_lowers_love_by_one():
    state = couple("lorraine-house", biff="lorraine-house")
    state, _ = attempt(state, "love", ["marty-3", "marty-4"], ["love:love", "love:biff"])
    state, effects = run(state, RESOLVE)
    assert state.love == 5  # +1, then -1
    assert texts(effects)[-2:] == ["BIFF die: Biff is with George and Lorraine", "LOVE -1"]


def test_a_biff_die_with_biff_at_only_one_of_george_and_lorraine_lowers_love_and_he_stays():
    """Rulebook: "If Biff is already with one or both, each Biff lowers Love Meter by 1"."""
    state = arrange(table(2), Ana="clock-tower", george="clock-tower", lorraine="oak-st",
                    love=5)
    state, _ = attempt(state, "biff", ["marty-2"], ["courage:biff"])
    state, effects = run(state, RESOLVE)
    assert state.love == 4 and state.npcs["biff"] == "clock-tower"
    assert texts(effects)[-2:] == ["BIFF die: Biff is with George", "LOVE -1"]


def test_faq_biff_with_both_george_and_lorraine_lowers_love_by_one_per_biff_die():
    state = couple("oak-st", biff="oak-st")
    state = give(state, "Ana", tiles=["std-04"])
    state, _ = attempt(state, "love", ["marty-3", "std-04"], ["love:biff", "love:biff"])
    state = play(state, RESOLVE)
    assert state.love == 3  # two Biff dice: -2, not -4


def test_biff_dice_take_tokens_off_a_knocked_down_biff_then_stand_him_up():
    state = couple("oak-st", biff_down=True, tokens=1)
    state = give(state, "Ana", tiles=["std-04", "std-08"])
    state, _ = attempt(state, "love", ["marty-3", "std-04", "marty-1"],
                       ["love:biff", "love:biff", "speed:biff"])
    state, effects = run(state, RESOLVE)
    assert texts(effects) == ["0 love symbols", "BIFF die: TAKE 1 KNOCKDOWN TOKEN off Biff",
                              "BIFF die: BIFF STANDS UP", "BIFF 1 step to George (Walnut St)"]
    assert not state.biff_down and state.tokens == 0


def test_the_challenge_resolves_before_the_biff_dice():
    state = arrange(table(2), Ana="clock-tower")
    state, _ = attempt(state, "biff", ["marty-2", "marty-1"], ["courage:courage", "speed:biff"])
    state, effects = run(state, RESOLVE)
    # knocked down with no token, then the Biff die stands him straight back up
    assert kinds(effects) == ["result", "knockdown", "biff_up"] and not state.biff_down


# --------------------------------------------------------------------------- assisting


def test_players_at_the_same_place_may_assist_with_dice_and_their_tiles_stay_down():
    state = couple("oak-st", Ben="oak-st")
    state = play(state, challenge("love"), add("marty-3"))
    assert add("jennifer-1", player="Ben") not in rules.legal_actions(state)  # Ben is Doc
    state = play(state, add("doc-4", player="Ben"), READY, roll("love:love", "speed:wild"))
    state = play(state, RESOLVE)
    assert state.love == 7
    assert state.player("Ben").down == ["doc-4"]
    state = next_turn(state)  # Ana's turn ends: her tiles turn up, Ben's stay down
    assert state.player("Ana").down == [] and state.player("Ben").down == ["doc-4"]
    assert rules.actor(state) == "Ben"
    with pytest.raises(RuleError, match="face down"):
        rules.apply(state, {"type": "move", "tile": "doc-4"})
    state = next_turn(state)  # after the assisting player's own next turn
    assert state.player("Ben").down == []


def test_an_assisting_player_may_modify_with_a_tile_or_an_item_and_both_stay_down():
    """Assisting players "use Power Tiles or Item Cards to modify rolls"; they are "unavailable
    until after assisting player's next turn"."""
    state = give(couple("oak-st", Ben="oak-st"), "Ben", tiles=["std-17"],
                 items=["video-recorder"])
    state = play(state, challenge("love"), add("marty-3"), add("marty-4"), add("marty-1"), READY,
                 roll("love:love", "love:biff", "speed:speed"))
    state = play(state, {"type": "modify", "tile": "std-17", "player": "Ben", "die": 2},
                 {"type": "modify", "item": "video-recorder", "player": "Ben", "die": 0})
    assert [d["face"] for d in state.challenge["dice"]] == ["wild", "biff", "wild"]
    state = play(state, RESOLVE)
    assert state.love == 7
    state = next_turn(state)  # Ben's turn: what he used to assist is still face down
    assert rules.actor(state) == "Ben"
    ben = state.player("Ben")
    assert ben.down == ["std-17"] and ben.items_down == ["video-recorder"]
    state = next_turn(state)  # after his own turn, both turn up
    assert ben is not state.player("Ben")
    assert state.player("Ben").down == [] and state.player("Ben").items_down == []


def test_only_players_at_the_same_place_may_assist():
    state = play(couple("oak-st", Ben="elm-st"), challenge("love"))
    with pytest.raises(RuleError, match="Ben is at Elm St: only players at Oak St may assist"):
        rules.apply(state, add("doc-4", player="Ben"))


def test_the_active_player_must_roll_at_least_one_die():
    state = play(couple("oak-st", Ben="oak-st"), challenge("love"), add("doc-4", player="Ben"))
    assert READY not in rules.legal_actions(state)
    with pytest.raises(RuleError, match="Ana must roll at least 1 die"):
        rules.apply(state, READY)


def test_faq_only_the_assist_items_may_be_used_while_assisting():
    state = give(couple("oak-st", Ben="oak-st"), "Ben", items=["skateboard", "demo-guitar",
                                                               "video-recorder"])
    state = play(state, challenge("love"), add("marty-3"))
    with pytest.raises(RuleError, match="Guitar \\(demo\\) cannot be used to assist"):
        rules.apply(state, add(item="demo-guitar", player="Ben"))
    state = play(state, add(item="skateboard", player="Ben"), READY,
                 roll("love:love", "speed:speed"))
    state, effects = run(state, {"type": "modify", "item": "video-recorder", "player": "Ben",
                                 "die": 1})
    assert [d["face"] for d in state.challenge["dice"]] == ["love", "wild"]
    assert state.player("Ben").items_down == ["skateboard", "video-recorder"]


def test_rewards_go_to_the_active_player_only():
    state = arrange(table(2), Ana="hill-valley-high", Ben="hill-valley-high")
    state = play(state, challenge("opportunity", card="opp-03"), add("marty-3"),
                 add("marty-4"), READY, roll("love:love", "love:love"), RESOLVE)
    assert state.player("Ana").items == ["skateboard"] and state.player("Ben").items == []


def test_an_assisting_player_cannot_take_the_active_players_decisions():
    state = play(couple("oak-st", Ben="oak-st"), challenge("love"), add("marty-3"))
    with pytest.raises(RuleError, match="it is Ana's turn"):
        rules.apply(state, {"type": "ready", "player": "Ben"})


# --------------------------------------------------------------------------- the end


def last_turn(love: int, delorean: int, **more) -> rules.State:
    state = arrange(table(2), tracker=20, love=love, delorean=delorean, **more)
    return play(state, END, {"type": "draw", "deck": "movement", "card": "mv-07"})


def test_win_at_1004_with_love_in_the_heart_zone_and_the_delorean_in_the_ready_zone():
    state = last_turn(love=13, delorean=6)
    assert rules.actor(state) == TERMINAL and state.result == "won"
    assert rules.winners(state) == ["Ana", "Ben"]


@pytest.mark.parametrize(("love", "delorean", "why"), [
    (12, 8, "Love is not in the Heart Zone"),
    (15, 5, "the DeLorean is not in the Ready Zone"),
    (-2, 0, "Love is not in the Heart Zone; the DeLorean is not in the Ready Zone"),
])
def test_lose_at_1004_when_either_condition_fails(love, delorean, why):
    state = last_turn(love=love, delorean=delorean)
    assert state.result == "lost" and state.reason == why and rules.winners(state) == []


def test_the_game_does_not_end_early_when_the_conditions_are_met():
    state = arrange(table(2), love=15, delorean=8, parts=("cable", "gasoline", "hook"))
    state = next_turn(state, 3)
    assert rules.actor(state) not in (TERMINAL,) and state.result is None
    assert rules.winners(state) == []


def test_option_final_turn_actions_gives_the_last_player_a_turn_before_lightning():
    state = arrange(table(2, options={"final_turn_actions": True}), tracker=20, love=12,
                    delorean=6, Ben="oak-st", george="oak-st", lorraine="oak-st")
    state = give(state, "Ben", tiles=["std-04"])
    state = play(state, END, {"type": "draw", "deck": "movement", "card": "mv-07"})
    assert rules.actor(state) == "Ben" and state.final_turn and state.result is None
    state = arrange(state, george="oak-st", lorraine="oak-st")
    state, _ = attempt(state, "love", ["std-04"], ["love:love"])
    state, effects = run(state, RESOLVE, END)
    assert state.love == 13 and state.result == "won"
    assert "10:04 p.m.: LIGHTNING STRIKES THE CLOCK TOWER" in texts(effects)
    without = arrange(table(2), tracker=20, love=12, delorean=6)
    without = play(without, END, {"type": "draw", "deck": "movement", "card": "mv-07"})
    assert without.result == "lost"  # by default lightning strikes as the tracker arrives


def test_decision_biff_dice_resolve_one_at_a_time():
    # Biff one step from the couple: the first Biff die takes him there, the second costs Love
    state = couple("oak-st", biff="cedar-ln")
    state = give(state, "Ana", tiles=["std-04"])
    state, _ = attempt(state, "love", ["marty-3", "std-04"], ["love:biff", "love:biff"])
    state, effects = run(state, RESOLVE)
    assert state.npcs["biff"] == "oak-st" and state.love == 4
    assert texts(effects)[1:] == ["BIFF 1 step to George (Oak St)",
                                  "BIFF die: Biff is with George and Lorraine", "LOVE -1"]


def test_decision_two_dice_per_colour_counts_the_assisting_players_dice_too():
    state = give(couple("oak-st", Ben="oak-st"), "Ben", tiles=["std-04"])
    state = play(state, challenge("love"), add("marty-3"), add("marty-4"))
    with pytest.raises(RuleError, match="at most 2 love dice"):
        rules.apply(state, add("std-04", player="Ben"))


def test_decision_love_never_goes_below_the_bottom_space():
    state = couple("oak-st", biff="oak-st", love=-3)
    state, _ = attempt(state, "love", ["marty-3"], ["love:biff"])
    state, effects = run(state, RESOLVE)
    assert state.love == -3 and "LOVE is at the bottom: no change" in texts(effects)


def test_decision_a_knocked_down_biff_ignores_trouble_effects_that_move_him():
    state = arrange(table(2), biff_down=True, tokens=1)
    state = give(state, "Ana", tiles=[])
    state.queue = ({"step": "draw", "deck": "trouble1"},)
    state, effects = run(state, {"type": "draw", "deck": "trouble1", "card": "tr1-2"})
    assert state.npcs["biff"] == "clock-tower"  # tr1-2: biff+1
    assert "BIFF is knocked down and stays" in texts(effects)
