"""One scenario per answer of the rulebook's "Common Questions" (and the Memo FAQ items)."""

from __future__ import annotations

import pytest
from timeline_table import PASS, do, make_table, place, play, set_altered, texts

from companion.titles.api import RuleError
from companion.titles.timeline import rules as tl

IDS = {"Ana": "verne", "Ben": "jay", "Cy": "kim"}
VERNE = ("A-1", "A-2", "A-3")  # Verne Brown met (A-1 alt, A-5 alt, C-5 original)


def clock(altered=(), ids=None, players=("Ana", "Ben", "Cy")):
    """Ana flips B-1 with a Time Machine and turns over the clock."""
    state = make_table(players, hands={"Ana": ["tm"]}, ids=ids or IDS)
    state = set_altered(state, *altered)
    state, _ = do(state, play("Ana", "tm", event="B-1"), PASS, {"type": "reveal", "card": "clock"})
    return state


def test_faq_two_players_met_the_player_whose_turn_it_is_wins():
    # Verne (Ana) and Kim (Cy: A-4 alt, B-3 alt, C-5 original) are both met.
    state = clock(altered=(*VERNE, "B-2"))
    assert tl.check_identity(state, "kim") == [] and tl.check_identity(state, "verne") == []
    state, effects = tl.apply(state, {"type": "claim", "player": "Ana", "id": "verne"})
    assert tl.winners(state) == ["Ana"] and tl.is_terminal(state)  # Cy is never asked


def test_faq_exactly_one_other_player_met_wins():
    state = clock(altered=("A-3", "B-2"))  # Kim (Cy) met; Verne (Ana) and Jay (Ben) not
    state, effects = do(
        state,
        {"type": "claim", "player": "Ana", "id": "verne"},
        {"type": "pass", "player": "Ben"},
        {"type": "claim", "player": "Cy", "id": "kim"},
    )
    assert "Ana is Verne Brown: still wrong: A-1 (needs altered), A-5 (needs altered)" in texts(
        effects
    )
    assert effects[-1]["text"] == "Cy WINS! Reality is frozen"
    assert tl.winners(state) == ["Cy"]


def test_faq_two_other_players_met_nobody_wins_and_play_goes_on():
    ids = {"Ana": "verne", "Ben": "kim", "Cy": "ola"}  # Ola: A-2 alt, A-3 alt, B-6 original
    state = clock(altered=("A-2", "A-3", "B-2"), ids=ids)
    state, effects = do(
        state,
        {"type": "pass", "player": "Ana"},
        {"type": "claim", "player": "Ben", "id": "kim"},
        {"type": "claim", "player": "Cy", "id": "ola"},
    )
    assert tl.winners(state) == [] and state.phase == "play"
    assert "NO WINNER: SHUFFLE the 5 B-1 cards and put them back at B-1" in texts(effects)


def test_faq_nobody_met_reshuffle_b1_without_the_set_aside_duds_and_the_next_player_goes():
    state = make_table(("Ana", "Ben", "Cy"), hands={"Ana": ["time-train", "tm"]}, ids=IDS)
    state, _ = do(state, play("Ana", "time-train", event="B-1"), PASS,
                  {"type": "reveal", "card": "dud"}, play("Ana", "tm", event="B-1"), PASS,
                  {"type": "reveal", "card": "clock"})
    assert tl.view(state)["b1"] == {"left": 4, "aside": 1, "clock_odds": 0.25}
    state, effects = do(state, {"type": "pass"}, {"type": "pass"}, {"type": "pass"})
    assert "NO WINNER: SHUFFLE the 4 B-1 cards and put them back at B-1" in texts(effects)
    assert tl.view(state)["b1"] == {"left": 4, "aside": 1, "clock_odds": 0.25}
    assert state.current.name == "Ben" and effects[-1]["text"] == "Ben: DRAW 1, PLAY 1"


def test_faq_a_ripplepoint_turns_over_only_indirectly():
    state = make_table(hands={"Ana": ["tm", "hitch"]})
    with pytest.raises(RuleError, match="A-5 is a Ripplepoint"):
        tl.apply(state, play("Ana", "tm", event="A-5"))
    state, effects = do(state, play("Ana", "tm", event="A-2"), PASS)
    flip = next(e for e in effects if e["kind"] == "flip")
    assert flip["flips"] == ["A-2", "A-6"]  # A-6 turned over because A-2 was flipped


def test_faq_a_memo_can_stop_another_memo():
    state = make_table(hands={"Ana": ["tm", "memo"], "Ben": ["memo"]})
    state, effects = do(
        state,
        play("Ana", "tm", event="A-2"),
        {"type": "memo", "player": "Ben", "card": "memo"},
        {"type": "memo", "player": "Ana", "card": "memo"},
        PASS,
    )
    assert "MEMO: Ben's Memo is cancelled" in texts(effects)
    assert tl.view(state)["altered"] == ["A-2", "A-6"]


def test_faq_a_memo_item_can_stop_a_memo_too():
    state = place(make_table(hands={"Ana": ["tm"], "Ben": ["memo"]}), "Ana", "telegram")
    state, _ = do(state, play("Ana", "tm", event="A-2"),
                  {"type": "memo", "player": "Ben", "card": "memo"},
                  {"type": "memo", "player": "Ana", "card": "telegram"}, PASS)
    assert tl.view(state)["altered"] == ["A-2", "A-6"] and "telegram" in state.discard


def test_faq_a_memo_item_cannot_stop_its_own_theft():
    state = place(make_table(hands={"Ana": ["steal"], "Ben": ["memo"]}), "Ben", "fax", "telegram")
    state, _ = tl.apply(state, play("Ana", "steal", item="fax"))
    options = tl.legal_actions(state)
    assert {"type": "memo", "player": "Ben", "card": "fax"} not in options
    assert {"type": "memo", "player": "Ben", "card": "telegram"} in options  # another Item may
    assert {"type": "memo", "player": "Ben", "card": "memo#1"} in options  # and a Memo card
    with pytest.raises(RuleError, match="Fax cannot stop the card that takes it away"):
        tl.apply(state, {"type": "memo", "player": "Ben", "card": "fax"})
    state, effects = do(state, PASS)
    assert state.player("Ana").items == ("fax",)


def test_a_memo_item_whose_theft_waits_may_stop_another_card_in_the_chain():
    # Decision 37: Cy's Memo stops Ana's steal of Ben's Fax, Ana's Memo stops Cy's. The Fax
    # may not stop the steal itself (FAQ), but it may stop Ana's Memo, another card; it then
    # leaves play with that Memo, and the steal finds nothing to take (decision 36).
    hands = {"Ana": ["steal", "memo"], "Cy": ["memo"]}
    state = place(make_table(("Ana", "Ben", "Cy"), hands=hands), "Ben", "fax")
    state, _ = tl.apply(state, play("Ana", "steal", item="fax"))
    state, _ = tl.apply(state, {"type": "pass", "player": "Ben"})
    for name in ("Cy", "Ana"):
        memo = next(a for a in tl.legal_actions(state) if a["type"] == "memo")
        assert memo["player"] == name
        state, _ = tl.apply(state, memo)
    fax = {"type": "memo", "player": "Ben", "card": "fax"}
    assert fax in tl.legal_actions(state)
    state, _ = do(state, fax, PASS)
    assert "fax" in state.discard and not state.player("Ana").items
    assert not state.player("Ben").items


def test_faq_draw_pile_runs_out_shuffle_the_discard_only_when_a_draw_finds_none():
    state = make_table(hands={"Ana": ["tm"]})
    data = tl.to_json(state)
    deck = data["deck"]
    data["deck"] = 0  # every other card is out of the game for this scenario
    state = tl.from_json(data)
    state, effects = do(state, play("Ana", "tm", event="A-2"), PASS)
    assert state.discard == ("tm#1",) and state.deck == 0  # no early shuffle
    assert tl.legal_actions(state) == [{"type": "draw", "player": "Ben"}]
    state, effects = tl.apply(state, {"type": "draw", "player": "Ben", "card": "tm"})
    assert effects[0]["text"] == "SHUFFLE the discard pile (1 card): it is the new draw pile"
    assert state.deck == 0 and state.discard == () and "tm#1" in state.player("Ben").hand
    assert deck > 0


def test_an_action_is_discarded_after_its_draws_so_they_never_reshuffle_it():
    """"When you play an Action card, do whatever it says, then discard it": a Draw 2 played
    with the draw pile empty is not shuffled into a new pile and drawn back by its player."""
    state = make_table(hands={"Ana": ["draw-2"]})
    data = tl.to_json(state)
    data["deck"] = 0  # every other card is out of the game for this scenario
    state = tl.from_json(data)
    state, effects = do(state, play("Ana", "draw-2"), PASS)
    assert "Ana: DRAW 2 cards" in texts(effects)
    assert state.discard == ("draw-2#1",)  # discarded, and held out of its own draws
    assert tl.legal_actions(state) == [{"type": "draw", "player": "Ana"}]
    with pytest.raises(tl.RuleError, match="no card to draw"):
        tl.apply(state, {"type": "draw", "player": "Ana", "card": "draw-2"})
    state, effects = tl.apply(state, {"type": "draw", "player": "Ana"})
    assert texts(effects)[0] == "no card left to draw" and not any(
        "SHUFFLE" in t for t in texts(effects))
    assert "draw-2#1" not in state.player("Ana").hand and state.discard == ("draw-2#1",)
    # a Power Action ("a lot like regular Actions") too
    state = make_table(hands={"Ana": ["insight"]})
    data = tl.to_json(state)
    data["deck"] = 0
    state = tl.from_json(data)
    state, effects = do(state, play("Ana", "insight"), PASS, {"type": "draw"}, {"type": "draw"})
    assert texts(effects).count("no card left to draw") == 2
    assert state.discard == ("insight",) and "insight" not in state.player("Ana").hand



def test_a_rewind_is_discarded_after_the_card_it_replays_so_its_draws_never_reshuffle_it():
    """Rewind too is done only when the card it plays again is: that card's draws, or a Power
    Action's played while it is pending, never shuffle the Rewind back to its player."""
    data = tl.to_json(make_table(hands={"Ana": ["rewind"], "Ben": ["insight"]}))
    data["deck"], data["discard"] = 0, ["draw-2#1"]
    state = tl.from_json(data)
    state, effects = do(state, play("Ana", "rewind", pick="draw-2"), PASS)
    assert "Ana plays Draw 2 from the discard pile" in texts(effects)
    assert state.discard == ("rewind#1",)
    state, effects = do(state, play("Ben", "insight"), PASS, {"type": "draw"}, {"type": "draw"})
    assert texts(effects).count("no card left to draw") == 2  # the Rewind stayed out
    assert texts(effects)[-1] == "Ana: DRAW 2 cards" and state.discard == (
        "rewind#1", "insight", "draw-2#1")
    state, effects = do(state, {"type": "draw"}, {"type": "draw"})
    assert texts(effects)[:3] == [  # only the Insight, done, is shuffled in
        "SHUFFLE the discard pile (1 card): it is the new draw pile", "Ana draws a card",
        "no card left to draw"]
    assert sorted(state.discard) == ["draw-2#1", "rewind#1"]

def test_faq_mysterious_forces_count_as_a_change_for_hitch_a_ride():
    state = make_table(hands={"Ana": ["tm"], "Ben": ["hitch"]})
    state, _ = do(state, play("Ana", "tm", event="B-1"), PASS, {"type": "reveal", "card": "dud"})
    assert tl.view(state)["altered"] == [] and state.last_changed
    state, _ = do(state, {"type": "draw"}, play("Ben", "hitch", event="C-1"), PASS)
    assert "C-1" in tl.view(state)["altered"]


def test_faq_rewind_replays_the_time_train_as_its_extra_play():
    state = make_table(hands={"Ana": ["time-train", "rewind"]})
    state, _ = do(state, play("Ana", "time-train", event="A-2"), PASS)
    assert tl.actor(state) == "Ana"  # the Time Train's extra play
    state, effects = do(state, play("Ana", "rewind", pick="time-train"), PASS,
                        {"type": "target", "event": "A-3"}, PASS)
    assert "Ana plays Time Train from the discard pile" in texts(effects)
    assert tl.view(state)["altered"] == ["A-2", "A-3", "A-4", "A-5", "A-6"]
    assert effects[-1]["text"] == "Ana: 1 more play"  # the replayed Time Train gives one again
    assert tl.actor(state) == "Ana"


def test_faq_second_draw_option_when_you_do_not_want_to_play():
    state = make_table(hands={"Ana": ["tm", "time-train", "hitch"]})
    assert {"type": "draw_instead", "player": "Ana"} in tl.legal_actions(state)
    state, effects = do(state, {"type": "draw_instead", "player": "Ana"}, {"type": "draw"})
    assert texts(effects)[0] == "Ana draws instead of playing"
    assert state.player("Ana").cards == 5 and state.current.name == "Ben"
