"""Back in Time's action phase: moving with Power Tiles, escorting, the characters' powers and
the Items. One scenario per rule paragraph and FAQ answer."""

from __future__ import annotations

import pytest
from bit_table import END, arrange, give, kinds, next_turn, play, run, table, texts

from companion.titles.api import RuleError
from companion.titles.back_in_time import rules

STOP = {"type": "stop"}


def step(to: str) -> dict:
    return {"type": "step", "to": to}


def move(tile: str, **extra) -> dict:
    return {"type": "move", "tile": tile, **extra}


# --------------------------------------------------------------------------- moving


def test_a_power_tile_moves_up_to_its_value_and_turns_face_down():
    state = table(2)  # Ana is Marty; marty-5 moves 2
    state, effects = run(state, move("marty-5"), step("maple-ave"))
    assert state.player("Ana").place == "maple-ave" and state.moving == {"left": 1,
                                                                        "escort": None}
    assert "marty-5" in state.player("Ana").down
    assert texts(effects) == ["Ana may move up to 2 spaces", "Ana to Maple Ave"]
    state = play(state, step("pine-st"))
    assert state.moving is None  # the tile's 2 spaces are used up
    with pytest.raises(RuleError, match="not moving"):
        rules.apply(state, step("george-house"))
    with pytest.raises(RuleError, match="face down"):
        rules.apply(state, move("marty-5"))


def test_moving_less_than_the_value_is_allowed():
    state = play(table(2), move("marty-3"), step("cedar-ln"), STOP)
    assert state.player("Ana").place == "cedar-ln" and state.moving is None


def test_diagonal_places_are_not_adjacent():
    state = play(table(2), move("marty-3"))
    with pytest.raises(RuleError, match="diagonal spaces are not adjacent"):
        rules.apply(state, step("elm-st"))  # up-left of Town Square
    assert {a["to"] for a in rules.legal_actions(state) if a["type"] == "step"} == {
        "hill-valley-high", "maple-ave", "cedar-ln", "clock-tower"}


def test_faq_movement_ends_when_you_stop_to_take_an_action():
    """FAQ: you cannot pause a move to use a Power Tile or a power; use another tile after."""
    state = arrange(table(2), Ana="oak-st")  # Marty next to Lorraine's House
    state = play(state, move("marty-3"), step("hill-valley-high"))
    state, effects = run(state, {"type": "power", "to": "oak-st"})  # pull Lorraine 1 closer
    assert state.moving is None and state.npcs["lorraine"] == "oak-st"
    with pytest.raises(RuleError, match="not moving"):
        rules.apply(state, step("elm-st"))
    state = play(state, move("marty-1"), step("elm-st"))  # another tile continues
    assert state.player("Ana").place == "elm-st"


def test_a_move_path_may_be_given_in_one_action():
    state = play(table(2), move("marty-3", path=["clock-tower", "river-rd", "doc-house"]))
    assert state.player("Ana").place == "doc-house" and state.moving["left"] == 1
    with pytest.raises(RuleError, match="longer than the 2 spaces"):
        rules.apply(table(2), move("marty-5", path=["clock-tower", "river-rd", "doc-house"]))


def test_tiles_turn_face_up_at_the_end_of_the_players_turn():
    state = play(table(2), move("marty-5"), STOP)
    state, effects = run(state, END)
    assert state.player("Ana").down == []
    assert "Ana: TURN your tiles and items face up" in texts(effects)


# --------------------------------------------------------------------------- escorting


def test_escorting_george_moves_him_with_the_player():
    state = arrange(table(2), Ana="elm-st")
    state, effects = run(state, move("marty-3"), step("george-house"),
                         {"type": "escort", "who": "george"}, step("elm-st"),
                         step("hill-valley-high"))
    assert state.npcs["george"] == "hill-valley-high"
    assert texts(effects)[-1] == "Ana and GEORGE to Hill Valley High"
    state, effects = run(state, {"type": "drop"}, step("oak-st"))
    assert state.npcs["george"] == "hill-valley-high" and state.player("Ana").place == "oak-st"


def test_escort_may_start_with_the_move_and_stays_where_the_move_ends():
    state = arrange(table(2), Ana="george-house")
    state, effects = run(state, move("marty-5", escort="george", path=["elm-st",
                                                                       "hill-valley-high"]))
    assert state.npcs["george"] == "hill-valley-high" and state.moving is None
    assert texts(effects)[-1] == "GEORGE stays at Hill Valley High"


def test_faq_biff_cannot_be_escorted():
    state = play(arrange(table(2), Ana="clock-tower"), move("marty-3"))
    with pytest.raises(RuleError, match="Biff cannot be escorted: only George or Lorraine"):
        rules.apply(state, {"type": "escort", "who": "biff"})


def test_escort_one_at_a_time():
    state = arrange(table(2), Ana="elm-st", george="elm-st", lorraine="elm-st")
    state = play(state, move("marty-3"), {"type": "escort", "who": "george"})
    with pytest.raises(RuleError, match="one at a time: drop George first"):
        rules.apply(state, {"type": "escort", "who": "lorraine"})
    state = play(state, {"type": "drop"}, {"type": "escort", "who": "lorraine"}, step("maple-ave"))
    assert state.npcs == {"george": "elm-st", "lorraine": "maple-ave", "biff": "clock-tower"}


def test_escorting_a_second_mover_who_is_elsewhere_says_where_they_are_first():
    state = play(table(2), move("marty-3", path=["hill-valley-high", "elm-st", "george-house"]),
                 {"type": "escort", "who": "george"})
    with pytest.raises(RuleError, match="^Lorraine is at Lorraine's House, not with Ana$"):
        rules.apply(state, {"type": "escort", "who": "lorraine"})


def test_escort_needs_the_npc_at_the_players_place_and_a_move():
    state = table(2)
    with pytest.raises(RuleError, match="while moving"):
        rules.apply(state, {"type": "escort", "who": "george"})
    state = play(state, move("marty-3"))
    with pytest.raises(RuleError, match="George is at George's House, not with Ana"):
        rules.apply(state, {"type": "escort", "who": "george"})


def test_cannot_escort_through_or_into_town_square():
    state = arrange(table(2), Ana="maple-ave", george="maple-ave")
    state = play(state, move("marty-3"), {"type": "escort", "who": "george"})
    with pytest.raises(RuleError, match="George cannot be escorted into or through Town Square"):
        rules.apply(state, step("town-square"))
    assert step("town-square") not in rules.legal_actions(state)
    state = play(state, {"type": "drop"}, step("town-square"))  # alone, the player may
    assert state.player("Ana").place == "town-square"


# --------------------------------------------------------------------------- powers


def test_marty_moves_lorraine_up_to_two_spaces_toward_him_never_through_town_square():
    state = arrange(table(2), Ana="maple-ave", lorraine="cedar-ln")
    options = {a["to"] for a in rules.legal_actions(state) if a["type"] == "power"}
    # cedar-ln to maple-ave is 2 through Town Square, which Lorraine may not cross: she goes
    # around (oak-st, then hill-valley-high) or (walnut-st, then clock-tower)
    assert options == {"oak-st", "walnut-st", "hill-valley-high", "clock-tower"}
    with pytest.raises(RuleError, match="never through Town Square"):
        rules.apply(state, {"type": "power", "to": "town-square"})
    state, effects = run(state, {"type": "power", "to": "hill-valley-high"})
    assert state.npcs["lorraine"] == "hill-valley-high"
    assert texts(effects) == ["THIS IS HEAVY! LORRAINE to Hill Valley High"]


def test_a_power_whose_mover_is_already_there_says_so():
    # Marty's power with Lorraine already at his place (as Doc's: "already at the DeLorean")
    state = play(table(2), move("marty-3", path=["hill-valley-high", "oak-st", "lorraine-house"]))
    assert not [a for a in rules.legal_actions(state) if a["type"] == "power"]
    with pytest.raises(RuleError, match="^Lorraine is already with Marty at Lorraine's House: "
                                        "THIS IS HEAVY has nothing to do$"):
        rules.apply(state, {"type": "power", "to": "oak-st"})
    # Marty in Town Square, Lorraine beside it: she never enters it, so she cannot come nearer
    beside = arrange(table(2), Ana="town-square", lorraine="cedar-ln")
    assert not [a for a in rules.legal_actions(beside) if a["type"] == "power"]
    with pytest.raises(RuleError, match="Lorraine never enters Town Square: she is as near "
                                        "Marty as THIS IS HEAVY can bring her"):
        rules.apply(beside, {"type": "power", "to": "town-square"})
    # Jennifer's power on a player already with her
    state = table(2, characters=("jennifer", "marty"))
    assert state.player("Ben").place == state.player("Ana").place == "town-square"
    with pytest.raises(RuleError, match="^Ben is already with Jennifer at Town Square: "
                                        "FOLLOW ME moves a player who is elsewhere$"):
        rules.apply(state, {"type": "power", "who": "Ben", "to": "town-square"})


def test_a_special_power_is_used_once_per_turn():
    state = arrange(table(2), Ana="maple-ave", lorraine="cedar-ln")
    state = play(state, {"type": "power", "to": "oak-st"})
    with pytest.raises(RuleError, match="once per turn"):
        rules.apply(state, {"type": "power", "to": "hill-valley-high"})
    assert not [a for a in rules.legal_actions(state) if a["type"] == "power"]
    state = next_turn(state, 2)  # Ben's turn, then Ana's again
    assert [a for a in rules.legal_actions(state) if a["type"] == "power"]


def test_doc_moves_to_the_delorean_and_cannot_escort_on_the_way():
    state = arrange(table(2, characters=("doc", "marty")), Ana="george-house")
    state = play(state, {"type": "move", "tile": "doc-1"}, {"type": "escort", "who": "george"})
    state, effects = run(state, {"type": "power"})
    assert state.player("Ana").place == "elm-st"  # the DeLorean's place
    assert state.npcs["george"] == "george-house"  # George stays behind
    assert kinds(effects) == ["drop", "power"]
    with pytest.raises(RuleError, match="once per turn"):
        rules.apply(state, {"type": "power"})


def test_jennifer_moves_marty_doc_or_einstein_up_to_two_spaces_toward_her():
    state = table(3, characters=("jennifer", "marty", "einstein"))
    state = arrange(state, Ana="oak-st", Ben="main-st-3", Cy="town-square")
    options = {(a["who"], a["to"]) for a in rules.legal_actions(state) if a["type"] == "power"}
    assert ("Cy", "hill-valley-high") in options and ("Cy", "cedar-ln") in options
    assert ("Ben", "clock-tower") in options and ("Ben", "town-square") in options
    with pytest.raises(RuleError, match="moves another player's mover"):
        rules.apply(state, {"type": "power", "who": "Ana", "to": "oak-st"})
    with pytest.raises(RuleError, match='name them, e.g. "who": "Ben"'):
        rules.apply(state, {"type": "power", "to": "town-square"})
    state = play(state, {"type": "power", "who": "Ben", "to": "town-square"})
    assert state.player("Ben").place == "town-square"  # players may cross Town Square


def test_einstein_moves_biff_within_one_space_up_to_two_spaces_never_through_town_square():
    state = arrange(table(2, characters=("einstein", "marty")), Ana="river-rd")
    options = {a["to"] for a in rules.legal_actions(state) if a["type"] == "power"}
    # one step: river-rd, walnut-st, main-st-3 (Town Square, above, is never entered);
    # two steps: around Town Square only
    assert options == {"river-rd", "walnut-st", "main-st-3", "doc-house", "maple-ave",
                       "main-st-2", "cedar-ln", "south-shops", "main-st-4"}
    state = play(state, {"type": "power", "to": "south-shops"})
    assert state.npcs["biff"] == "south-shops"
    far = arrange(table(2, characters=("einstein", "marty")), Ana="elm-st")
    with pytest.raises(RuleError, match="Biff within 1 space"):
        rules.apply(far, {"type": "power", "to": "river-rd"})


def test_faq_einstein_may_bark_at_a_knocked_down_biff_who_stays_down_with_his_tokens():
    state = arrange(table(2, characters=("einstein", "marty")), Ana="clock-tower",
                    biff_down=True, tokens=2)
    state = play(state, {"type": "power", "to": "main-st-3"})
    assert state.npcs["biff"] == "main-st-3" and state.biff_down and state.tokens == 2


def test_faq_special_powers_cannot_be_used_to_assist():
    """FAQ: a power is used only in its player's own turn, never while assisting."""
    state = table(2, characters=("marty", "einstein"))
    state = arrange(state, Ana="clock-tower", Ben="clock-tower")
    with pytest.raises(RuleError, match="special powers are used only in your own turn"):
        rules.apply(state, {"type": "power", "player": "Ben", "to": "river-rd"})
    state = play(state, {"type": "challenge", "challenge": "biff"})
    with pytest.raises(RuleError, match="during a challenge"):
        rules.apply(state, {"type": "power", "to": "lorraine-house"})


# --------------------------------------------------------------------------- items


def test_an_item_is_gained_face_down_and_cannot_be_used_that_turn():
    state = give(table(2), "Ana", items=())
    state.items_left = tuple(i for i in state.items_left if i != "demo-bicycle")
    p = state.player("Ana")
    p.items.append("demo-bicycle")
    p.items_down.append("demo-bicycle")  # as a reward leaves it
    with pytest.raises(RuleError, match="face down: used this turn, or gained this turn"):
        rules.apply(state, {"type": "move", "item": "demo-bicycle"})
    state = next_turn(state, 2)
    state = play(state, {"type": "move", "item": "demo-bicycle"}, step("maple-ave"))
    assert state.player("Ana").place == "maple-ave"


def test_an_item_is_used_once_per_turn():
    state = give(table(2), "Ana", items=["demo-bicycle"])
    state = play(state, {"type": "move", "item": "demo-bicycle"}, STOP)
    with pytest.raises(RuleError, match="face down"):
        rules.apply(state, {"type": "move", "item": "demo-bicycle"})
    state = play(state, END)
    assert state.player("Ana").items_down == []


def test_an_item_is_used_only_its_own_way():
    state = give(table(2), "Ana", items=["skateboard"])
    with pytest.raises(RuleError, match="not used that way"):
        rules.apply(state, {"type": "move", "item": "skateboard"})


def test_power_tile_limit_is_eight_and_a_ninth_is_discarded():
    state = give(table(2), "Ana", tiles=["std-01", "std-02", "std-03"])  # 8 tiles
    state.opportunities = ("opp-01",)  # clock-tower: need knowledge 1, reward a tile
    state = arrange(state, Ana="clock-tower", biff="main-st-3")
    state, effects = run(state, {"type": "challenge", "challenge": "opportunity",
                                 "card": "opp-01"}, {"type": "add", "tile": "marty-5"},
                         {"type": "ready"}, {"type": "roll", "dice": ["knowledge:knowledge"]},
                         {"type": "resolve"}, {"type": "draw", "deck": "tile", "card": "std-10"})
    assert rules.actor(state) == "Ana" and len(state.player("Ana").tiles) == 9
    assert texts(effects)[-1] == "Ana: DISCARD 1 Power Tile (max 8)"
    assert {a["type"] for a in rules.legal_actions(state)} == {"discard"}
    with pytest.raises(RuleError, match="must first discard one"):
        rules.apply(state, END)
    state = play(state, {"type": "discard", "player": "Ana", "tile": "marty-1"})
    assert len(state.player("Ana").tiles) == 8 and "marty-1" not in state.player("Ana").tiles
    # and the Opportunity card is replaced after the reward
    assert rules.legal_actions(state) == [{"type": "draw", "deck": "opportunity"}]


def test_the_backpack_holds_two_extra_tiles_and_is_never_exhausted():
    state = give(table(2), "Ana", tiles=["std-01", "std-02", "std-03", "std-05", "std-06"],
                 items=["backpack"])
    assert len(state.player("Ana").tiles) == 10 and state.limit(state.player("Ana")) == 10
    assert not [a for a in rules.legal_actions(state) if a.get("item") == "backpack"]
    with pytest.raises(RuleError, match="not used that way"):
        rules.apply(state, {"type": "move", "item": "backpack"})


def test_decision_a_tile_is_used_once_for_a_move_or_a_die_or_a_modifier():
    state = arrange(table(2), Ana="oak-st", george="oak-st", lorraine="oak-st")
    state = play(state, move("marty-3"), STOP, {"type": "challenge", "challenge": "love"})
    with pytest.raises(RuleError, match="Power Tile marty-3 is face down"):
        rules.apply(state, {"type": "add", "tile": "marty-3"})
    assert {"type": "add", "tile": "marty-3"} not in rules.legal_actions(state)
    state = play(state, {"type": "add", "tile": "marty-4"}, {"type": "ready"},
                 {"type": "roll", "dice": ["love:love"]}, {"type": "resolve"})
    with pytest.raises(RuleError, match="Power Tile marty-4 is face down"):
        rules.apply(state, move("marty-4"))  # its die was rolled: no move from it this turn


def test_decision_no_limit_on_spaces_per_turn_only_on_each_tiles_value():
    state = give(table(2), "Ana", tiles=["std-16"])  # move 6
    state = play(state, move("std-16", path=["maple-ave", "pine-st", "doc-house", "main-st-1",
                                             "main-st-2", "main-st-3"]))
    state = play(state, move("marty-3", path=["main-st-4", "main-st-5"]))
    assert state.player("Ana").place == "main-st-5"  # eight spaces in one turn


def test_decision_the_backpack_counts_even_while_face_down():
    state = give(table(2), "Ana", items=["backpack"])
    state.player("Ana").items_down.append("backpack")  # gained this turn
    assert state.limit(state.player("Ana")) == 10
