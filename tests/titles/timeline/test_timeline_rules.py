"""One scenario per rule paragraph of The Card Game's rulebook, and one per written decision
(docs/rules/timeline.md). Every test fails if its rule is broken. The FAQ answers are in
test_timeline_faq.py."""

from __future__ import annotations

import pytest
from timeline_table import (
    PASS,
    do,
    give,
    kinds,
    make_table,
    place,
    play,
    sections,
    set_altered,
    texts,
)

from companion.titles.api import CHANCE, TERMINAL, RuleError
from companion.titles.timeline import rules as tl

# --------------------------------------------------------------------------- Setup


def test_setup_timeline_starts_original_side_up_with_the_b1_stack_of_five():
    state = tl.new_game(["Ana", "Ben"], {}, sections())
    view = tl.view(state)
    assert view["altered"] == []
    assert view["map"][1][0] == "#"  # B-1 holds the stack
    assert all(cell in ".# " for row in view["map"] for cell in row)
    assert view["b1"] == {"left": 5, "aside": 0, "clock_odds": 0.2}
    assert [c["id"] for c in view["timeline"][0]] == ["A-1", "A-2", "A-3", "A-4", "A-5", "A-6"]
    assert [row[0]["id"] for row in view["timeline"]] == ["A-1", "B-1", "C-1", "D-1"]


def test_setup_deals_three_game_cards_then_one_id_card_to_each_player():
    state = tl.new_game(["Ana", "Ben", "Cy"], {}, sections())
    deck = state.deck
    dealt = []
    while tl.legal_actions(state)[0]["type"] == "draw":
        dealt.append(tl.actor(state) == CHANCE and tl.legal_actions(state)[0]["player"])
        state, _ = tl.apply(state, tl.legal_actions(state)[0])  # table: the card is not named
    assert dealt == ["Ana", "Ben", "Cy"] * 3  # one at a time, round the table
    assert state.deck == deck - 9
    assert [p.cards for p in state.players] == [3, 3, 3]
    assert [p.unknown for p in state.players] == [3, 3, 3]  # counts: nobody named a card
    ids = []
    while tl.legal_actions(state)[0]["type"] == "deal_id":
        ids.append(tl.legal_actions(state)[0]["player"])
        state, _ = tl.apply(state, tl.legal_actions(state)[0])
    assert ids == ["Ana", "Ben", "Cy"]
    assert all(p.has_id and p.identity is None for p in state.players)


def test_setup_the_first_seat_goes_first_drawing_one_card():
    state = make_table(("Ana", "Ben", "Cy"), first_draw=None)
    assert state.phase == "play" and state.current.name == "Ana"
    assert tl.actor(state) == CHANCE
    assert tl.legal_actions(state) == [{"type": "draw", "player": "Ana"}]


def test_setup_needs_two_to_six_players_and_an_id_card_each():
    with pytest.raises(RuleError, match="2-6 players"):
        tl.new_game(["Ana"], {}, sections())
    with pytest.raises(RuleError, match="2-6 players"):
        tl.new_game([f"P{i}" for i in range(7)], {}, sections())
    few = sections()
    few["identity"] = few["identity"][:2]
    with pytest.raises(RuleError, match="3 players need 3 ID cards; the pack has 2"):
        tl.new_game(["Ana", "Ben", "Cy"], {}, few)


def test_setup_wants_the_whole_pack_not_a_card_list():
    with pytest.raises(RuleError, match="whole content pack"):
        tl.new_game(["Ana", "Ben"], {}, sections()["card"])


def test_identity_mulligan_once_sets_the_old_id_aside():
    state = tl.new_game(["Ana", "Ben"], {}, sections())
    for name in ("Ana", "Ben") * 3:
        state, _ = tl.apply(state, {"type": "draw", "player": name, "card": "rock"})
    state, _ = do(state, {"type": "deal_id", "player": "Ana", "id": "verne"},
                  {"type": "deal_id", "player": "Ben", "id": "jay"})
    assert tl.actor(state) == "Ana"
    assert {a["type"] for a in tl.legal_actions(state)} == {"keep", "mulligan"}
    state, effects = tl.apply(state, {"type": "mulligan", "player": "Ana"})
    assert kinds(effects) == ["mulligan"]
    assert tl.legal_actions(state) == [{"type": "deal_id", "player": "Ana"}]
    with pytest.raises(RuleError, match="already out"):
        tl.apply(state, {"type": "deal_id", "player": "Ana", "id": "verne"})  # set aside
    state, _ = tl.apply(state, {"type": "deal_id", "player": "Ana", "id": "kim"})
    ana = state.player("Ana")
    assert ana.identity == "kim" and ana.aside == ("verne",)
    assert tl.actor(state) == "Ben"  # Ana does not get a second try
    with pytest.raises(RuleError, match="already decided"):
        tl.apply(state, {"type": "mulligan", "player": "Ana"})
    state, _ = tl.apply(state, {"type": "keep", "player": "Ben"})
    assert state.phase == "play"
    with pytest.raises(RuleError, match="only at the start"):
        tl.apply(state, {"type": "mulligan", "player": "Ben"})


def test_mulligan_is_skipped_when_no_id_card_is_left():
    two_ids = sections()
    two_ids["identity"] = two_ids["identity"][:2]
    state = tl.new_game(["Ana", "Ben"], {}, two_ids)
    while state.phase == "setup":
        state, _ = tl.apply(state, tl.legal_actions(state)[0])
        assert tl.legal_actions(state)[0]["type"] != "mulligan"
    assert state.phase == "play"
    # asked for all the same, the reason is the ID cards, not the moment
    with pytest.raises(RuleError, match="no ID card is left to take instead"):
        tl.apply(state, {"type": "mulligan", "player": "Ben"})
    state, _ = do(state, {"type": "draw"}, {"type": "draw_instead"}, {"type": "draw"})
    with pytest.raises(RuleError, match="only at the start of the game"):
        tl.apply(state, {"type": "mulligan", "player": "Ben"})


# --------------------------------------------------------------------------- How to play


def test_turn_is_draw_one_then_play_one_then_the_next_player():
    state = make_table(first_draw=None)
    state, effects = tl.apply(state, {"type": "draw", "player": "Ana", "card": "draw-2"})
    assert state.player("Ana").cards == 4 and tl.actor(state) == "Ana"
    assert tl.legal_actions(state)[-1] == {"type": "draw_instead", "player": "Ana"}
    state, effects = do(state, play("Ana", "rock"), PASS)
    assert "item" in kinds(effects)
    assert effects[-1]["kind"] == "turn" and effects[-1]["text"] == "Ben: DRAW 1, PLAY 1"
    assert state.current.name == "Ben" and tl.actor(state) == CHANCE


def test_second_draw_option_instead_of_playing():
    state = make_table(hands={"Ana": ["tm"]})
    state, effects = tl.apply(state, {"type": "draw_instead", "player": "Ana"})
    assert kinds(effects) == ["draw_instead"]
    assert tl.legal_actions(state) == [{"type": "draw", "player": "Ana"}]
    state, effects = tl.apply(state, {"type": "draw", "player": "Ana", "card": "memo"})
    assert state.player("Ana").cards == 5 and state.current.name == "Ben"  # the play is used


def test_second_draw_option_is_open_for_every_play_owed_including_extra_plays():
    state = make_table(hands={"Ana": ["play-2"]})
    state, _ = do(state, play("Ana", "play-2"), PASS)
    assert state.current.name == "Ana" and tl.actor(state) == "Ana"
    assert {"type": "draw_instead", "player": "Ana"} in tl.legal_actions(state)
    state, _ = do(state, {"type": "draw_instead", "player": "Ana"}, {"type": "draw"})
    assert state.current.name == "Ben"


def test_extra_plays_from_cards_that_grant_them():
    state = make_table(hands={"Ana": ["time-train", "play-2", "tm"]})
    state, effects = do(state, play("Ana", "play-2"), PASS)
    assert "extra_play" in kinds(effects) and tl.actor(state) == "Ana"
    state, effects = do(state, play("Ana", "time-train", event="A-2"), PASS)
    assert effects[-1]["text"] == "Ana: 1 more play"
    state, _ = do(state, play("Ana", "tm", event="A-3"), PASS)
    assert state.current.name == "Ben"  # three plays: play-2, time train, tm


def test_only_the_current_player_plays_on_their_turn():
    state = make_table(hands={"Ben": ["tm"]})
    with pytest.raises(RuleError, match="Ben cannot do that now"):
        tl.apply(state, play("Ben", "tm", event="A-2"))


# --------------------------------------------------------------------------- Time travel


def test_turn_a_changing_a2_also_flips_a6():
    state = make_table(hands={"Ana": ["tm"]})
    state, effects = do(state, play("Ana", "tm", event="A-2"), PASS)
    flip = next(e for e in effects if e["kind"] == "flip")
    assert flip["text"] == "FLIP A-2 · then A-6"
    assert flip["flips"] == ["A-2", "A-6"] and flip["to"] == "altered"
    assert tl.view(state)["altered"] == ["A-2", "A-6"]  # A-5 still a funeral


def test_turn_b_restoring_a2_restores_a6_while_a3_ripples_a4_and_a5_stays():
    state = set_altered(make_table(hands={"Ana": ["tm"], "Ben": ["tm"]}), "A-2")
    state, effects = do(state, play("Ana", "tm", event="A-2"), PASS)
    flip = next(e for e in effects if e["kind"] == "flip")
    assert flip["flips"] == ["A-2", "A-6"] and flip["to"] == "original"
    state, _ = do(state, {"type": "draw", "card": "rock"}, play("Ben", "tm", event="A-3"), PASS)
    assert tl.view(state)["altered"] == ["A-3", "A-4"]  # A-5 unchanged throughout


def test_turn_h_a2_and_a3_altered_host_the_wedding_at_a5():
    """The rulebook's Turn H (its text names A-3 twice, a known erratum; A-4 is meant)."""
    state = set_altered(make_table(hands={"Ana": ["tm"]}), "A-3")
    state, effects = do(state, play("Ana", "tm", event="A-2"), PASS)
    flip = next(e for e in effects if e["kind"] == "flip")
    assert flip["text"] == "FLIP A-2 · then A-6, A-5"
    view = tl.view(state)
    assert view["altered"] == ["A-2", "A-3", "A-4", "A-5", "A-6"]
    assert view["map"][0] == ".XXXXX"


def test_and_pair_restores_when_either_linchpin_is_restored():
    state = set_altered(make_table(hands={"Ana": ["tm"]}), "A-2", "A-3")
    state, effects = do(state, play("Ana", "tm", event="A-3"), PASS)
    flip = next(e for e in effects if e["kind"] == "flip")
    assert flip["flips"] == ["A-3", "A-4", "A-5"]
    assert tl.view(state)["altered"] == ["A-2", "A-6"]


def test_or_pair_changes_when_either_linchpin_is_altered():
    state = make_table(hands={"Ana": ["tm"], "Ben": ["tm"]})
    state, effects = do(state, play("Ana", "tm", event="C-1"), PASS)
    assert next(e for e in effects if e["kind"] == "flip")["flips"] == ["C-1", "C-2", "C-3"]
    state, effects = do(state, {"type": "draw"}, play("Ben", "tm", event="B-4"), PASS)
    assert next(e for e in effects if e["kind"] == "flip")["flips"] == ["B-4", "B-5"]  # C-3 stays
    assert "C-3" in tl.view(state)["altered"]


def test_restoring_a_linchpin_restores_its_ripples():
    state = make_table(hands={"Ana": ["time-train", "tm"]})
    state, _ = do(state, play("Ana", "time-train", event="B-4"), PASS)
    assert tl.view(state)["altered"] == ["B-4", "B-5", "C-3"]
    state, effects = do(state, play("Ana", "tm", event="B-4"), PASS)
    flip = next(e for e in effects if e["kind"] == "flip")
    assert flip["flips"] == ["B-4", "B-5", "C-3"] and flip["to"] == "original"
    assert tl.view(state)["altered"] == []


def test_ripplepoints_are_never_flipped_directly():
    state = make_table(hands={"Ana": ["tm"]})
    with pytest.raises(RuleError, match="A-6 is a Ripplepoint: only Linchpins are flipped"):
        tl.apply(state, play("Ana", "tm", event="A-6"))
    state, _ = tl.apply(state, play("Ana", "tm"))
    assert all(a["event"] != "A-6" for a in tl.legal_actions(state))
    with pytest.raises(RuleError, match="Ripplepoint"):
        tl.apply(state, {"type": "target", "event": "A-6"})


def test_flip_preview_and_instruction_in_order():
    state = set_altered(make_table(), "A-3")
    assert tl.flip_preview(state, "A-2") == ["A-2", "A-6", "A-5"]
    assert tl.flip_text(tl.flip_preview(state, "A-2")) == "FLIP A-2 · then A-6, A-5"
    assert tl.flip_preview(state, "B-1") == ["B-1"]
    with pytest.raises(RuleError, match="not a Linchpin"):
        tl.flip_preview(state, "A-6")
    assert tl.view(state)["altered"] == ["A-3", "A-4"]  # a preview changes nothing


# --------------------------------------------------------------------------- Card types


def test_item_goes_in_front_of_the_player_and_stays():
    state = make_table(hands={"Ana": ["almanac"]})
    state, effects = do(state, play("Ana", "almanac"), PASS)
    assert effects[-2]["text"] == "Ana: PUT Almanac in front of you"
    assert state.player("Ana").items == ("almanac",)
    assert tl.view(state)["players"][0]["items"] == [{"card": "almanac", "name": "Almanac"}]
    assert "almanac" not in state.discard


def test_time_machine_flips_any_linchpin_then_is_discarded():
    state = make_table(hands={"Ana": ["tm"]})
    state, _ = tl.apply(state, play("Ana", "tm"))
    targets = [a["event"] for a in tl.legal_actions(state)]
    assert set(targets) == {"A-1", "A-2", "A-3", "B-4", "C-1", "C-4", "B-1"}  # B-2: Almanac
    state, _ = do(state, {"type": "target", "event": "C-4"}, PASS)
    assert "tm#1" in state.discard and tl.view(state)["altered"] == ["C-4", "C-5"]


def test_time_machine_fine_print_only_never_and_needs():
    state = make_table(hands={"Ana": ["tm-no-b1", "tm-a2-only", "tm-plutonium"]})
    with pytest.raises(RuleError, match="Tm No B1 cannot flip B-1"):
        tl.apply(state, play("Ana", "tm-no-b1", event="B-1"))
    with pytest.raises(RuleError, match="Tm A2 Only cannot flip A-3: it flips one of A-2$"):
        tl.apply(state, play("Ana", "tm-a2-only", event="A-3"))
    with pytest.raises(RuleError, match="Tm Plutonium needs Plutonium in front of you"):
        tl.apply(state, play("Ana", "tm-plutonium"))
    assert {"type": "play", "player": "Ana", "card": "tm-plutonium"} not in tl.legal_actions(
        state
    )
    state = place(state, "Ana", "plutonium")
    state, _ = do(state, play("Ana", "tm-plutonium", event="A-1"), PASS)
    assert "A-1" in tl.view(state)["altered"]
    assert state.player("Ana").items == ("plutonium",)  # needed, not used up


def test_action_does_what_it_says_then_is_discarded():
    state = make_table(hands={"Ana": ["draw-2"]})
    state, effects = do(state, play("Ana", "draw-2"), PASS)
    assert effects[-1]["text"] == "Ana: DRAW 2 cards"
    assert tl.legal_actions(state) == [{"type": "draw", "player": "Ana"}]
    state, _ = do(state, {"type": "draw"}, {"type": "draw"})
    assert "draw-2#1" in state.discard and state.player("Ana").cards == 5


def test_doubleback_alone_flips_only_its_linchpin():
    state = make_table(hands={"Ana": ["db-a2"]})
    state, effects = do(state, play("Ana", "db-a2"))
    assert [e["kind"] for e in effects] == ["play", "pending"]
    assert effects[-1]["text"] == "Db A2: FLIP A-2 · then A-6 - MEMO? (Ben)"
    state, effects = do(state, PASS)
    assert next(e for e in effects if e["kind"] == "flip")["event"] == "A-2"
    assert state.current.name == "Ben"  # no Item: no second flip
    with pytest.raises(RuleError, match="cannot use an Item for a second flip now"):
        tl.apply(state, {"type": "use", "event": "A-3"})


def test_doubleback_with_its_item_discards_it_for_a_second_flip():
    state = place(make_table(hands={"Ana": ["db-a2"]}), "Ana", "ravine-map")
    state, effects = do(state, play("Ana", "db-a2"), PASS)
    assert tl.actor(state) == "Ana"
    options = tl.legal_actions(state)
    assert {"type": "skip", "player": "Ana"} in options
    assert all(a.get("event") != "A-2" for a in options)  # another Linchpin
    state, effects = do(state, {"type": "use", "player": "Ana", "card": "ravine-map",
                                "event": "A-3"})
    assert effects[0]["text"] == (
        "Ana: DISCARD Ravine Map for a second flip: FLIP A-3 · then A-4, A-5"
    )
    assert state.player("Ana").items == ()  # given up; it is discarded with the flip
    state, effects = do(state, PASS)
    assert tl.view(state)["altered"] == ["A-2", "A-3", "A-4", "A-5", "A-6"]
    assert "ravine-map" in state.discard


def test_doubleback_second_flip_is_another_linchpin_and_may_be_skipped():
    state = place(make_table(hands={"Ana": ["db-a2"]}), "Ana", "ravine-map")
    state, _ = do(state, play("Ana", "db-a2"), PASS)
    with pytest.raises(RuleError, match="another Linchpin, not A-2 again"):
        tl.apply(state, {"type": "use", "event": "A-2"})
    state, effects = tl.apply(state, {"type": "skip"})
    assert state.player("Ana").items == ("ravine-map",)  # kept
    assert state.current.name == "Ben"


def test_a_doubleback_flips_its_own_linchpin_never_another_one_named():
    """"Used alone, a DoubleBack only lets you flip the associated Linchpin": a play that names
    another event is refused, not quietly turned into a flip of A-2."""
    state = make_table(hands={"Ana": ["db-a2"]})
    with pytest.raises(RuleError, match="Db A2 cannot flip A-3"):
        tl.apply(state, play("Ana", "db-a2", event="A-3"))
    state, effects = do(state, play("Ana", "db-a2", event="A-2"), PASS)
    assert next(e for e in effects if e["kind"] == "flip")["flips"] == ["A-2", "A-6"]


def test_hitch_a_ride_needs_a_change_by_the_previous_player():
    state = make_table(hands={"Ana": ["hitch"], "Ben": ["hitch"]})
    with pytest.raises(RuleError, match="Hitch: no one has changed the TimeLine before"):
        tl.apply(state, play("Ana", "hitch", event="A-2"))
    state, _ = do(state, {"type": "draw_instead"}, {"type": "draw"}, {"type": "draw"})
    with pytest.raises(RuleError, match="Hitch: Ana did not change the TimeLine"):
        tl.apply(state, play("Ben", "hitch", event="A-2"))
    assert all(a.get("card", "").split("#")[0] != "hitch" for a in tl.legal_actions(state))


def test_hitch_a_ride_after_a_change_flips_any_linchpin():
    state = make_table(hands={"Ana": ["tm"], "Ben": ["hitch"]})
    state, _ = do(state, play("Ana", "tm", event="A-2"), PASS, {"type": "draw"})
    state, effects = do(state, play("Ben", "hitch", event="C-1"), PASS)
    assert "C-1" in tl.view(state)["altered"]
    assert "hitch#1" in state.discard


def test_hitch_a_ride_looks_only_at_the_previous_player():
    """Ana changed the TimeLine, Ben did not: Cy, after Ben, may not hitch a ride."""
    state = make_table(("Ana", "Ben", "Cy"), hands={"Ana": ["tm"], "Cy": ["hitch"]})
    state, _ = do(state, play("Ana", "tm", event="A-2"), PASS,
                  {"type": "draw"}, {"type": "draw_instead"}, {"type": "draw"}, {"type": "draw"})
    assert state.current.name == "Cy" and tl.view(state)["altered"] == ["A-2", "A-6"]
    with pytest.raises(RuleError, match="Hitch: Ben did not change the TimeLine"):
        tl.apply(state, play("Cy", "hitch", event="A-3"))


def test_hitch_a_ride_counts_a_change_that_was_flipped_back():
    state = make_table(hands={"Ana": ["time-train", "tm"], "Ben": ["hitch"]})
    state, _ = do(state, play("Ana", "time-train", event="A-2"), PASS,
                  play("Ana", "tm", event="A-2"), PASS)
    assert tl.view(state)["altered"] == [] and state.last_changed
    state, _ = do(state, {"type": "draw"}, play("Ben", "hitch", event="A-3"), PASS)
    assert "A-3" in tl.view(state)["altered"]


def test_a_cancelled_change_is_no_change_for_hitch_a_ride():
    state = make_table(hands={"Ana": ["tm"], "Ben": ["memo", "hitch"]})
    state, _ = do(state, play("Ana", "tm", event="A-2"),
                  {"type": "memo", "player": "Ben", "card": "memo"}, PASS)
    assert state.current.name == "Ben" and not state.last_changed
    state, _ = tl.apply(state, {"type": "draw"})
    with pytest.raises(RuleError, match="Ana did not change the TimeLine"):
        tl.apply(state, play("Ben", "hitch", event="A-3"))


def test_power_actions_may_be_played_out_of_turn_while_a_card_is_pending():
    state = make_table(hands={"Ana": ["tm"], "Ben": ["insight", "tm"]})
    state, _ = tl.apply(state, play("Ana", "tm", event="A-2"))
    assert {"type": "play", "player": "Ben", "card": "insight"} in tl.legal_actions(state)
    assert {"type": "play", "player": "Ben", "card": "tm#2"} not in tl.legal_actions(state)
    with pytest.raises(RuleError, match="cannot be played when it is not your turn"):
        tl.apply(state, play("Ben", "tm"))
    state, effects = do(state, play("Ben", "insight"))
    assert kinds(effects) == ["play", "pending"]
    state, effects = do(state, PASS)
    assert effects[0]["text"] == "Ben: DRAW 2 cards"
    state, effects = do(state, {"type": "draw"}, {"type": "draw"})
    assert next(e for e in effects if e["kind"] == "flip")["event"] == "A-2"  # Ana's card goes on
    assert state.player("Ben").cards == 4 and state.current.name == "Ben"  # 3 - 1 + 2
    with pytest.raises(RuleError, match="Ben cannot do that now: Ana is to play a card"):
        tl.apply(make_table(hands={"Ben": ["insight"]}), play("Ben", "insight"))



def test_on_your_own_turn_a_power_action_is_one_of_your_plays():
    """Power Actions may be played "when it's not your turn"; on your own turn, "Play 1"."""
    state = make_table(hands={"Ana": ["tm", "insight"], "Ben": ["memo"]})
    state, _ = do(state, play("Ana", "tm", event="A-2"),
                  {"type": "memo", "player": "Ben", "card": "memo"})
    assert tl.actor(state) == "Ana"  # asked about Ben's Memo: she may memo it back
    assert {"type": "play", "player": "Ana", "card": "insight"} not in tl.legal_actions(state)
    with pytest.raises(RuleError, match="Insight: on your own turn it is a play, and Ana has "
                                        "no play left this turn"):
        tl.apply(state, play("Ana", "insight"))
    data = tl.to_json(make_table(hands={"Ana": ["tm", "insight"], "Ben": ["memo"]}))
    data["plays"] = 2  # a play left: the Power Action uses it
    state, _ = do(tl.from_json(data), play("Ana", "tm", event="A-2"),
                  {"type": "memo", "player": "Ben", "card": "memo"})
    state, effects = do(state, play("Ana", "insight"))
    assert "Ana plays Insight (Power Action)" in texts(effects) and state.plays == 0


def test_refusals_name_the_true_reason_and_what_to_do():
    state = make_table(hands={"Ana": ["memo"], "Ben": ["insight"]})
    with pytest.raises(RuleError, match="claims come only after the clock is turned over at B-1"):
        tl.apply(state, {"type": "claim", "player": "Ana", "id": "verne"})
    with pytest.raises(RuleError, match="Memo is played against a card being played, never as "
                                        "your play"):
        tl.apply(state, play("Ana", "memo"))
    with pytest.raises(RuleError, match="Ana does not hold Insight: it is in another player's "
                                        "hand"):
        tl.apply(state, play("Ana", "insight"))  # the panel never says whose
    data = tl.to_json(state)
    data["players"][0]["hand"] = []
    with pytest.raises(RuleError, match="Ana has no cards in hand: draw instead"):
        tl.apply(tl.from_json(data), play("Ana", "tm", event="A-2"))

def test_rewind_and_quick_trip_cannot_choose_power_actions():
    state = make_table(hands={"Ana": ["rewind", "quick-trip", "play-2"]})
    data = tl.to_json(state)
    data["discard"] = ["insight", "memo#3"]
    state = tl.from_json(data)
    with pytest.raises(RuleError, match="there is no card it may replay \\(never a Power Action"):
        tl.apply(state, play("Ana", "rewind"))
    data["discard"] = ["insight", "tm#3"]
    state = tl.from_json(data)
    state, _ = tl.apply(state, play("Ana", "rewind"))
    assert tl.legal_actions(state) == [{"type": "target", "player": "Ana", "pick": "tm#3"}]
    with pytest.raises(RuleError, match="Rewind may replay one of: Tm"):
        tl.apply(state, {"type": "target", "pick": "insight"})
    state = make_table(hands={"Ana": ["quick-trip"]})
    state, _ = tl.apply(state, play("Ana", "quick-trip"))
    picks = [state.content.entry[a["pick"]]["type"] for a in tl.legal_actions(state)]
    assert picks and "power_action" not in picks
    with pytest.raises(RuleError, match="may replay one of"):
        tl.apply(state, {"type": "target", "pick": "insight"})


def test_rewind_replays_a_card_from_the_discard_pile():
    state = make_table(hands={"Ana": ["rewind"]})
    data = tl.to_json(state)
    data["discard"] = ["tm#3"]
    state = tl.from_json(data)
    state, effects = do(state, play("Ana", "rewind", pick="tm"), PASS)
    assert effects[-1]["text"] == "Ana plays Tm from the discard pile"
    assert tl.actor(state) == "Ana"  # the replayed Time Machine's target
    state, effects = do(state, {"type": "target", "event": "A-3"}, PASS)
    assert "A-3" in tl.view(state)["altered"]
    assert sorted(state.discard) == ["rewind#1", "tm#3"]
    assert state.current.name == "Ben"  # Rewind was the play


def test_quick_trip_plays_a_card_from_the_draw_pile():
    state = make_table(hands={"Ana": ["quick-trip"]})
    deck = state.deck
    state, effects = do(state, play("Ana", "quick-trip", pick="almanac"), PASS)
    assert effects[-2]["text"] == (
        "Ana plays Almanac from the draw pile, then SHUFFLE the draw pile"
    )
    state, _ = do(state, PASS)
    assert state.player("Ana").items == ("almanac",) and state.deck == deck - 1
    data = tl.to_json(make_table(hands={"Ana": ["quick-trip"]}))
    data["deck"] = 0
    with pytest.raises(RuleError, match="Quick Trip: the draw pile is empty$"):
        tl.apply(tl.from_json(data), play("Ana", "quick-trip"))


def test_only_the_almanac_holder_may_change_b2():
    """Official FAQ (a public fact beyond the rulebook): only the Almanac's holder changes B-2."""
    state = make_table(hands={"Ana": ["tm", "db-b2"]})
    with pytest.raises(RuleError, match="only the holder of Almanac may change B-2"):
        tl.apply(state, play("Ana", "tm", event="B-2"))
    with pytest.raises(RuleError, match="only the holder of Almanac may change B-2"):
        tl.apply(state, play("Ana", "db-b2"))
    state = place(state, "Ana", "almanac")
    state, _ = do(state, play("Ana", "tm", event="B-2"), PASS)
    assert "B-3" in tl.view(state)["altered"]


def test_steal_takes_an_item_from_in_front_of_another_player():
    state = place(make_table(hands={"Ana": ["steal"]}), "Ben", "almanac", "fax")
    state, effects = do(state, play("Ana", "steal"))
    assert sorted(a["item"] for a in tl.legal_actions(state)) == ["almanac", "fax"]
    state, effects = do(state, {"type": "target", "item": "almanac"})
    assert effects[-1]["text"] == "Steal: take Almanac (Ben) - MEMO? (Ben)"
    state, effects = do(state, PASS)
    assert effects[0]["text"] == "Ana TAKES Almanac from Ben"
    assert state.player("Ana").items == ("almanac",) and state.player("Ben").items == ("fax",)


def test_trash_makes_another_player_discard_an_item():
    state = place(make_table(hands={"Ana": ["trash"]}), "Ben", "almanac")
    state, effects = do(state, play("Ana", "trash", item="almanac"), PASS)
    assert "Ben: DISCARD Almanac" in texts(effects)
    assert state.player("Ben").items == () and "almanac" in state.discard


def test_steal_needs_an_item_in_front_of_another_player():
    state = place(make_table(hands={"Ana": ["steal"]}), "Ana", "almanac")
    with pytest.raises(RuleError, match="no other player has an Item"):
        tl.apply(state, play("Ana", "steal"))


# --------------------------------------------------------------------------- Winning and B-1


def b1_table(**kw):
    """Ana holds a Time Machine and her ID (Verne Brown) is met."""
    state = make_table(hands={"Ana": ["time-train", "tm", "play-2"]}, **kw)
    return set_altered(state, "A-1", "A-2", "A-3")


def test_b1_attempt_asks_every_other_player_for_a_memo_first():
    state = b1_table(players=("Ana", "Ben", "Cy"))
    state, effects = tl.apply(state, play("Ana", "tm", event="B-1"))
    assert effects[-1]["text"] == "B-1! Ana tries to un-invent time travel: MEMO now or never"
    assert effects[-1]["responders"] == ["Ben", "Cy"]
    assert tl.actor(state) == "Ben"
    state, _ = tl.apply(state, {"type": "pass", "player": "Ben"})
    assert tl.actor(state) == "Cy"
    state, effects = tl.apply(state, {"type": "pass", "player": "Cy"})
    assert effects[-1]["kind"] == "b1" and tl.actor(state) == CHANCE
    assert effects[-1]["text"] == "B-1: TURN OVER the top B-1 card (5 left, 1 ends the game)"
    assert tl.legal_actions(state) == [{"type": "reveal", "card": "dud"},
                                       {"type": "reveal", "card": "clock"}]


def test_a_memo_on_a_b1_attempt_turns_no_b1_card_over():
    """"Each time someone tries to flip this linchpin (and isn't stopped by another player's
    Memo) the topmost card at B-1 is flipped": stopped, no B-1 card is turned over."""
    state = give(b1_table(), "Ben", "memo")
    state, effects = do(state, play("Ana", "tm", event="B-1"),
                        {"type": "memo", "player": "Ben", "card": "memo"}, PASS)
    assert "b1" not in kinds(effects) and "reveal" not in [s["step"] for s in state.agenda]
    assert tl.view(state)["b1"] == {"left": 5, "aside": 0, "clock_odds": 0.2}
    assert state.current.name == "Ben" and not state.last_changed  # no change: no hitch


def test_b1_dud_is_set_aside_and_play_goes_on():
    state = b1_table()
    state, _ = do(state, play("Ana", "time-train", event="B-1"), PASS)
    state, effects = tl.apply(state, {"type": "reveal", "card": "dud"})
    assert effects[0]["text"] == "MYSTERIOUS FORCES: SET the B-1 card aside (4 left)"
    assert tl.view(state)["b1"] == {"left": 4, "aside": 1, "clock_odds": 0.25}
    assert tl.actor(state) == "Ana" and state.phase == "play"  # her extra play remains


def test_b1_clock_ends_the_game_and_the_current_player_wins_if_met():
    state = b1_table()
    state, _ = do(state, play("Ana", "tm", event="B-1"), PASS)
    state, effects = tl.apply(state, {"type": "reveal", "card": "clock"})
    assert effects[0]["text"] == "EMMETT BROWN HANGS A CLOCK! Time travel is un-invented"
    assert state.phase == "claims" and tl.actor(state) == "Ana"
    assert tl.legal_actions(state) == [{"type": "claim", "player": "Ana", "id": "verne"}]
    state, effects = tl.apply(state, {"type": "claim", "player": "Ana", "id": "verne"})
    assert effects[0]["text"] == "Ana is Verne Brown: every event is set"
    assert effects[-1]["text"] == "Ana WINS! Reality is frozen"
    assert tl.is_terminal(state) and tl.winners(state) == ["Ana"] and tl.actor(state) == TERMINAL
    with pytest.raises(RuleError, match="the game is over: Ana has won"):
        tl.apply(state, PASS)


def test_victory_is_claimed_at_the_end_of_your_turn_the_clock_ends_it_at_once():
    state = b1_table()
    state, _ = do(state, play("Ana", "time-train", event="B-1"), PASS)
    dud, effects = tl.apply(state, {"type": "reveal", "card": "dud"})
    assert effects[-1]["text"] == "Ana: 1 more play" and tl.actor(dud) == "Ana"
    state, effects = tl.apply(state, {"type": "reveal", "card": "clock"})
    assert "extra_play" not in kinds(effects)  # the Time Train's extra play is lost
    assert state.plays == 0 and state.phase == "claims"  # the turn is over
    with pytest.raises(RuleError, match="cannot play a card now"):
        tl.apply(state, play("Ana", "tm", event="A-2"))
    with pytest.raises(RuleError, match="cannot claim victory now"):
        tl.apply(b1_table(), {"type": "claim", "player": "Ana", "id": "verne"})


def test_b1_stack_may_be_shortened_to_three_or_two():
    """Official FAQ: the B-1 pile may be shortened for a shorter game (option b1_cards)."""
    for size in (3, 2):
        state = b1_table(options={"b1_cards": size})
        assert tl.view(state)["b1"]["left"] == size
        assert tl.clock_odds(state) == 1 / size
    with pytest.raises(RuleError, match="b1_cards is the size of the B-1 stack: a whole number "
                                        "from 2 to 5"):
        b1_table(options={"b1_cards": 1})
    assert tl.view(b1_table(options={"b1_cards": 4}))["b1"]["left"] == 4
    with pytest.raises(RuleError, match="unknown option"):
        b1_table(options={"b1": 3})


def test_the_last_b1_card_is_always_the_clock():
    state = b1_table(options={"b1_cards": 2})
    state, _ = do(state, play("Ana", "time-train", event="B-1"), PASS,
                  {"type": "reveal", "card": "dud"}, play("Ana", "tm", event="B-1"), PASS)
    assert tl.clock_odds(state) == 1.0
    assert tl.legal_actions(state) == [{"type": "reveal", "card": "clock"}]
    with pytest.raises(RuleError, match="only the clock is left"):
        tl.apply(state, {"type": "reveal", "card": "dud"})


def test_clock_odds_are_one_over_the_cards_left():
    assert [tl.b1_odds(n) for n in (5, 4, 3, 2, 1)] == [0.2, 0.25, 1 / 3, 0.5, 1.0]
    assert tl.b1_odds(0) == 0.0


# --------------------------------------------------------------------------- ID cards


def test_verne_brown_needs_alt_a1_alt_a5_and_original_c5():
    state = make_table()
    wrong = tl.check_identity(state, "verne")
    assert [(w["event"], w["needs"]) for w in wrong] == [("A-1", "altered"), ("A-5", "altered")]
    state = set_altered(state, "A-1", "A-2")
    assert [w["event"] for w in tl.check_identity(state, "verne")] == ["A-5"]
    state = set_altered(state, "A-1", "A-2", "A-3", "C-4")
    assert [(w["event"], w["needs"]) for w in tl.check_identity(state, "verne")] == [
        ("C-5", "original")
    ]
    state = set_altered(state, "A-1", "A-2", "A-3")
    assert tl.check_identity(state, "verne") == []


def test_events_not_on_your_id_do_not_matter():
    state = set_altered(make_table(), "A-1", "A-2", "A-3", "B-4", "C-1")
    assert tl.check_identity(state, "verne") == []


def test_a_failed_claim_says_which_events_are_still_wrong():
    state = set_altered(make_table(hands={"Ana": ["tm"]}), "A-1")
    state, _ = do(state, play("Ana", "tm", event="B-1"), PASS,
                  {"type": "reveal", "card": "clock"})
    state, effects = tl.apply(state, {"type": "claim", "player": "Ana", "id": "verne"})
    assert effects[0]["text"] == "Ana is Verne Brown: still wrong: A-5 (needs altered)"
    assert effects[0]["wrong"] == ["A-5"] and not effects[0]["met"]
    assert tl.view(state)["players"][0]["identity"]["character"] == "Verne Brown"  # shown


def test_own_id_in_the_view_shows_what_is_still_wrong():
    state = set_altered(make_table(), "A-1")
    me = tl.view(state, "Ana")["me"]
    assert me["identity"]["character"] == "Verne Brown"
    assert me["identity"]["wrong"] == ["A-5"]
    assert "me" not in tl.view(state) and tl.view(state)["players"][0]["identity"] is None


# --------------------------------------------------------------------------- Memos


def test_memo_cancels_and_discards_the_card_and_the_turn_stays():
    state = make_table(hands={"Ana": ["tm"], "Ben": ["memo"]})
    state, effects = do(state, play("Ana", "tm", event="A-2"),
                        {"type": "memo", "player": "Ben", "card": "memo"})
    assert "MEMO! Ben cancels Tm: FLIP A-2 · then A-6" in texts(effects)
    state, effects = do(state, PASS)
    assert effects[0]["text"] == "MEMO: Tm is cancelled - DISCARD it"
    assert tl.view(state)["altered"] == []
    assert sorted(state.discard) == ["memo#1", "tm#1"]
    assert state.current.name == "Ben" and state.turns == 1  # Ana's turn ended as normal


def test_a_cancelled_item_is_discarded_not_put_in_front():
    """"Playing a Memo just cancels and discards the card being played", an Item too."""
    state = make_table(hands={"Ana": ["almanac"], "Ben": ["memo"]})
    state, _ = do(state, play("Ana", "almanac"),
                  {"type": "memo", "player": "Ben", "card": "memo"}, PASS)
    assert state.player("Ana").items == () and "almanac" in state.discard
    assert state.current.name == "Ben"


def test_memo_may_be_played_by_any_other_player_in_any_order():
    state = make_table(("Ana", "Ben", "Cy"), hands={"Ana": ["tm"], "Cy": ["memo"]})
    state, _ = tl.apply(state, play("Ana", "tm", event="A-2"))
    assert tl.actor(state) == "Ben"
    state, effects = tl.apply(state, {"type": "memo", "player": "Cy", "card": "memo"})
    assert effects[0]["kind"] == "memo"
    state2, _ = tl.apply(make_table(hands={"Ana": ["tm", "memo"]}),
                         play("Ana", "tm", event="A-2"))
    with pytest.raises(RuleError, match="Ana played that card"):
        tl.apply(state2, {"type": "memo", "player": "Ana", "card": "memo"})


def test_memo_is_too_late_once_another_card_is_played():
    state = make_table(("Ana", "Ben", "Cy"), hands={"Ana": ["tm"], "Ben": ["memo"],
                                                   "Cy": ["memo"]})
    state, _ = do(state, play("Ana", "tm", event="A-2"),
                  {"type": "memo", "player": "Ben", "card": "memo"})
    # The Time Machine can no longer be cancelled; Cy can only answer Ben's Memo.
    assert state.agenda[0]["step"] == "respond" and state.stack[-1]["kind"] == "memo"
    state, effects = do(state, {"type": "memo", "player": "Cy", "card": "memo"}, PASS)
    assert "MEMO: Ben's Memo is cancelled" in texts(effects)
    assert next(e for e in effects if e["kind"] == "flip")["event"] == "A-2"  # no new window


def test_memo_on_a_doubleback_cancels_it_whole_and_the_item_is_kept():
    state = place(make_table(hands={"Ana": ["db-a2"], "Ben": ["memo"]}), "Ana", "ravine-map")
    state, _ = do(state, play("Ana", "db-a2"), {"type": "memo", "player": "Ben", "card": "memo"},
                  PASS)
    assert tl.view(state)["altered"] == []
    assert state.player("Ana").items == ("ravine-map",)
    assert state.current.name == "Ben"


def test_memo_on_the_second_flip_the_first_change_stands_and_the_item_is_lost():
    state = place(make_table(hands={"Ana": ["db-a2"], "Ben": ["memo"]}), "Ana", "ravine-map")
    state, _ = do(state, play("Ana", "db-a2"), PASS)
    state, effects = do(state, {"type": "use", "card": "ravine-map", "event": "A-3"},
                        {"type": "memo", "player": "Ben", "card": "memo"}, PASS)
    assert "MEMO: the second flip is cancelled; A-3 stays" in texts(effects)
    assert tl.view(state)["altered"] == ["A-2", "A-6"]
    assert state.player("Ana").items == () and "ravine-map" in state.discard


def test_memo_cannot_stop_victory_itself():
    state = b1_table()
    state = give(state, "Ben", "memo")
    state, _ = do(state, play("Ana", "tm", event="B-1"), {"type": "pass", "player": "Ben"},
                  {"type": "reveal", "card": "clock"})
    assert state.agenda[0]["step"] == "claim"
    with pytest.raises(RuleError, match="cannot play a Memo now"):
        tl.apply(state, {"type": "memo", "player": "Ben", "card": "memo"})


def test_memo_items_act_as_memos_from_in_front_of_you():
    state = place(make_table(hands={"Ana": ["tm"]}), "Ben", "fax")
    state, _ = tl.apply(state, play("Ana", "tm", event="A-2"))
    assert {"type": "memo", "player": "Ben", "card": "fax"} in tl.legal_actions(state)
    state, _ = do(state, {"type": "memo", "player": "Ben", "card": "fax"}, PASS)
    assert tl.view(state)["altered"] == [] and "fax" in state.discard
    assert state.player("Ben").items == ()


def test_a_memo_item_in_the_hand_cannot_cancel_a_card():
    """Decision 12: the Fax, Telegram and Newspaper cancel from in front of their holder; in the
    hand the Fax is an Item, played on its holder's own turn."""
    state = make_table(hands={"Ana": ["tm"], "Ben": ["fax"]})
    state, _ = tl.apply(state, play("Ana", "tm", event="A-2"))
    assert tl.legal_actions(state) == [{"type": "pass", "player": "Ben"}]
    for action in ({"type": "memo", "player": "Ben", "card": "fax"},
                   {"type": "play", "player": "Ben", "card": "fax"}):
        with pytest.raises(RuleError, match="Fax cancels only from in front of you"):
            tl.apply(state, action)
    state, _ = do(state, PASS)
    assert tl.view(state)["altered"] == ["A-2", "A-6"] and "fax" in state.player("Ben").hand


def test_a_memo_in_hand_cannot_be_played_as_your_play():
    state = make_table(hands={"Ana": ["memo"]})
    with pytest.raises(RuleError, match="played against a card being played"):
        tl.apply(state, play("Ana", "memo"))


# --------------------------------------------------------------------------- the claims


def claims_table(players=("Ana", "Ben", "Cy"), ids=None, altered=()):
    ids = ids or {"Ana": "verne", "Ben": "jay", "Cy": "kim"}
    state = make_table(players, hands={"Ana": ["tm"]}, ids=ids)
    state = set_altered(state, *altered)
    state, _ = do(state, play("Ana", "tm", event="B-1"), PASS, {"type": "reveal", "card": "clock"})
    return state


def test_claims_go_round_the_table_from_the_current_player():
    state = claims_table()
    order = []
    while state.phase == "claims":
        order.append(tl.actor(state))
        state, _ = tl.apply(state, {"type": "pass", "player": tl.actor(state)})
    assert order == ["Ana", "Ben", "Cy"]


def test_a_player_whose_id_is_met_may_not_pass_in_a_simulation():
    state = claims_table(altered=("A-1", "A-2", "A-3"))
    assert tl.legal_actions(state) == [{"type": "claim", "player": "Ana", "id": "verne"}]
    with pytest.raises(RuleError, match="Ana's ID is met: show it"):
        tl.apply(state, {"type": "pass", "player": "Ana"})
    with pytest.raises(RuleError, match="not Ana's ID card"):
        tl.apply(state, {"type": "claim", "player": "Ana", "id": "jay"})


def test_no_winner_clock_counts_as_a_change_and_ends_the_turn():
    state = claims_table()
    state, effects = do(state, {"type": "pass"}, {"type": "pass"}, {"type": "pass"})
    assert "NO WINNER: SHUFFLE the 5 B-1 cards and put them back at B-1" in texts(effects)
    assert state.current.name == "Ben" and state.last_changed and state.phase == "play"


def test_a_cancelled_rewind_puts_its_pick_back():
    state = make_table(hands={"Ana": ["rewind"], "Ben": ["memo"]})
    data = tl.to_json(state)
    data["discard"] = ["tm#3"]
    state = tl.from_json(data)
    state, _ = tl.apply(state, play("Ana", "rewind", pick="tm"))
    assert state.discard == ()  # taken out while the Rewind is pending
    state, _ = do(state, {"type": "memo", "player": "Ben", "card": "memo"}, PASS)
    assert sorted(state.discard) == ["memo#1", "rewind#1", "tm#3"]


def test_a_cancelled_quick_trip_shuffles_its_pick_back():
    state = make_table(hands={"Ana": ["quick-trip"], "Ben": ["memo"]})
    deck = state.deck
    state, _ = tl.apply(state, play("Ana", "quick-trip", pick="almanac"))
    assert state.deck == deck - 1
    state, effects = do(state, {"type": "memo", "player": "Ben", "card": "memo"}, PASS)
    assert "Ana: SHUFFLE Almanac back into the draw pile" in texts(effects)
    assert state.deck == deck and "almanac" not in state.discard


# --------------------------------------------------------------------------- more decisions


def test_a_refused_play_says_why():
    state = make_table(hands={"Ana": ["tm"], "Ben": ["hitch"]})
    state, _ = do(state, {"type": "draw_instead"}, {"type": "draw"}, {"type": "draw"})
    assert tl.play_refusal(state, "Ben", "hitch") == "Hitch: Ana did not change the TimeLine"
    assert tl.play_refusal(state, "Ben", "rock") is None
    assert tl.play_refusal(state, "Ben", "flux") == (
        "no card 'flux' in this game; see `companion cards list --title timeline`"
    )


def test_a_memo_item_cannot_stop_a_card_that_makes_its_holder_discard_it():
    state = place(make_table(hands={"Ana": ["trash"]}), "Ben", "fax")
    state, _ = tl.apply(state, play("Ana", "trash", item="fax"))
    assert {"type": "memo", "player": "Ben", "card": "fax"} not in tl.legal_actions(state)
    with pytest.raises(RuleError, match="Fax cannot stop the card that takes it away"):
        tl.apply(state, {"type": "memo", "player": "Ben", "card": "fax"})


def test_a_steal_takes_its_item_from_whoever_holds_it_and_nothing_if_it_left_play():
    players = ("Ana", "Ben", "Cy")
    state = place(make_table(players, hands={"Ana": ["steal"], "Cy": ["snatch"]}),
                  "Ben", "almanac")
    state, _ = tl.apply(state, play("Ana", "steal", item="almanac"))
    state, effects = do(state, play("Cy", "snatch", item="almanac"), PASS)
    assert texts(effects)[3:5] == ["Cy TAKES Almanac from Ben", "Ana TAKES Almanac from Cy"]
    assert state.player("Ana").items == ("almanac",)
    # Gone from play (Ben uses the Telegram against Cy's Snatch): Ana's steal does nothing.
    state = place(make_table(players, hands={"Ana": ["steal"], "Cy": ["snatch"]}),
                  "Ben", "almanac", "telegram")
    state, _ = tl.apply(state, play("Ana", "steal", item="telegram"))
    state, effects = do(state, play("Cy", "snatch", item="almanac"),
                        {"type": "memo", "player": "Ben", "card": "telegram"}, PASS)
    assert "Telegram is no longer there" in texts(effects)
    assert state.player("Ana").items == () and state.player("Ben").items == ("almanac",)


def test_with_no_card_in_either_pile_a_draw_is_skipped():
    state = make_table(hands={"Ana": ["draw-2"]})
    data = tl.to_json(state)
    data["players"][0]["unknown"] = data["deck"]  # every other card is in Ana's hand
    data["deck"] = 0
    state = tl.from_json(data)
    state, effects = do(state, play("Ana", "draw-2"), PASS)
    # the discard holds only the Draw 2, which is discarded after its draws (then discard
    # it): neither of them finds a card
    assert tl.legal_actions(state) == [{"type": "draw", "player": "Ana"}]
    for _ in range(2):
        state, effects = do(state, {"type": "draw"})
        assert effects[0]["text"] == "no card left to draw"
    assert state.current.name == "Ben" and "draw-2#1" not in state.player("Ana").hand
    state, effects = do(state, {"type": "draw", "card": "draw-2"})  # Ben's: shuffled now
    assert kinds(effects)[:2] == ["reshuffle", "draw"] and state.discard == ()
    assert "draw-2#1" in state.player("Ben").hand


def test_items_that_draw_more_add_draws_at_the_start_of_your_turn():
    state = place(make_table(hands={"Ben": ["rock"]}), "Ben", "reactor")
    state, effects = do(state, {"type": "draw_instead"}, {"type": "draw"})
    assert effects[-1]["text"] == "Ben: DRAW 1 (+1 for your Items), PLAY 1"
    assert tl.legal_actions(state) == [{"type": "draw", "player": "Ben"}]
    state, _ = do(state, {"type": "draw"}, {"type": "draw"})
    assert tl.actor(state) == "Ben" and state.player("Ben").cards == 5


def test_every_choice_on_a_menu_has_a_short_label():
    state = place(make_table(hands={"Ana": ["tm", "db-a2", "memo"], "Ben": ["memo"]}),
                  "Ana", "ravine-map")
    assert [tl.label(state, a) for a in tl.legal_actions(state)] == [
        "PLAY Tm", "PLAY Db A2", "PLAY Rock", "DRAW instead of playing"]
    state, _ = tl.apply(state, play("Ana", "tm"))
    labels = [tl.label(state, a) for a in tl.legal_actions(state)]
    assert "FLIP A-2 · then A-6" in labels and "B-1, un-invent time travel" in labels
    state, _ = tl.apply(state, {"type": "target", "event": "A-2"})
    assert [tl.label(state, a) for a in tl.legal_actions(state)] == ["MEMO with Memo", "no Memo"]
    state, _ = do(state, PASS, {"type": "draw"}, {"type": "draw_instead"}, {"type": "draw"},
                  {"type": "draw"}, play("Ana", "db-a2"), PASS)
    assert [tl.label(state, a) for a in tl.legal_actions(state)][-1] == "no second flip"
    assert tl.label(state, tl.legal_actions(state)[0]).startswith("2nd flip: FLIP A-1")


def test_a_replayed_card_whose_target_went_while_the_rewind_was_pending_takes_no_effect():
    """Decision 36: Ana's Rewind picks Steal while Ben has the Fax; Ben's Memo (the Fax) is
    cancelled by Ana's, so the Rewind resolves, but the Fax is gone: Steal takes no effect, is
    discarded, and the turn goes on (before, the game waited for a target nobody could name)."""
    state = make_table(hands={"Ana": ["rewind", "memo"]})
    state = place(state, "Ben", "fax")
    data = tl.to_json(state)
    data["discard"] = ["steal#1"]
    state = tl.from_json(data)
    state, _ = tl.apply(state, play("Ana", "rewind", pick="steal"))
    state, _ = do(state, {"type": "memo", "player": "Ben", "card": "fax"},
                  {"type": "memo", "player": "Ana", "card": "memo"})
    state, effects = do(state, PASS)
    assert ("fizzle", "Steal: no other player has an Item in front of them") in [
        (e["kind"], e["text"]) for e in effects]
    assert sorted(state.discard) == ["fax", "memo#1", "rewind#1", "steal#1"]
    assert state.current.name == "Ben" and tl.legal_actions(state)
