"""Back in Time setup and the Turn Tracker phase: one scenario per rule paragraph, and one per
written decision (docs/rules/back_in_time.md)."""

from __future__ import annotations

import pytest
from bit_table import END, NAMES, PACK, arrange, kinds, play, run, sections, table, texts

from companion.titles.api import CHANCE, TERMINAL, RuleError
from companion.titles.back_in_time import rules

# --------------------------------------------------------------------------- setup


def test_setup_takes_two_to_four_players():
    with pytest.raises(RuleError, match="2-4 players"):
        rules.new_game(["Ana"], {}, PACK)
    with pytest.raises(RuleError, match="2-4 players"):
        rules.new_game(list(NAMES) + ["Eve"], {}, PACK)
    for n in (2, 3, 4):
        assert rules.actor(rules.new_game(list(NAMES[:n]), {}, PACK)) == "Ana"


def test_setup_each_player_chooses_a_character_and_takes_its_five_starter_tiles_face_up():
    state = rules.new_game(["Ana", "Ben"], {}, PACK)
    with pytest.raises(RuleError, match="Ana must first choose a character"):
        rules.apply(state, END)
    with pytest.raises(RuleError, match="Ana chooses a character next"):
        rules.apply(state, {"type": "character", "player": "Ben", "character": "doc"})
    state = play(state, {"type": "character", "player": "Ana", "character": "doc"})
    assert [a["character"] for a in rules.legal_actions(state)] == ["marty", "jennifer",
                                                                    "einstein"]
    with pytest.raises(RuleError, match="already played by Ana"):
        rules.apply(state, {"type": "character", "player": "Ben", "character": "doc"})
    state = play(state, {"type": "character", "player": "Ben", "character": "einstein"})
    ana = state.player("Ana")
    assert ana.tiles == [f"doc-{i}" for i in range(1, 6)] and ana.down == []
    assert len(state.player("Ben").tiles) == 5


def test_setup_places_every_mover_track_part_meter_and_tracker():
    state = table(3)
    c = state.content
    assert all(p.place == "town-square" for p in state.players)
    assert state.npcs == {"george": "george-house", "lorraine": "lorraine-house",
                          "biff": "clock-tower"}
    assert rules.delorean_place(state) == "elm-st" and state.delorean == 0
    assert c.part_place == {"cable": "hill-valley-high", "gasoline": "south-shops",
                            "hook": "clock-tower"}
    assert state.parts == ()
    assert state.love == c.love_start == 4 and state.photos == 6  # the demo's Start
    assert state.tracker == c.trackers[3]["start"] == 4
    assert state.trouble is None and len(state.decks["tile"]) == 24
    assert not state.biff_down and state.tokens == 0


def test_setup_tracker_start_and_columns_follow_the_player_count():
    starts = {n: table(n).tracker for n in (2, 3, 4)}
    assert starts == {2: 3, 3: 4, 4: 3}  # the demo pack's invented starts


def test_setup_lays_out_three_opportunity_cards_at_their_places():
    state = play(rules.new_game(["Ana", "Ben"], {}, PACK),
                 {"type": "character", "player": "Ana", "character": "marty"},
                 {"type": "character", "player": "Ben", "character": "doc"})
    for card in ("opp-04", "opp-07"):
        assert rules.actor(state) == CHANCE
        assert rules.legal_actions(state) == [{"type": "draw", "deck": "opportunity"}]
        state = play(state, {"type": "draw", "deck": "opportunity", "card": card})
    with pytest.raises(RuleError, match="not in the Opportunity pile"):
        rules.apply(state, {"type": "draw", "deck": "opportunity", "card": "opp-04"})
    state, effects = run(state, {"type": "draw", "deck": "opportunity", "card": "opp-09"})
    assert state.opportunities == ("opp-04", "opp-07", "opp-09")
    assert "OPPORTUNITY Demo opportunity 9 at " in texts(effects)[0]
    assert rules.actor(state) == "Ana" and texts(effects)[-1] == "Ana's turn"


def test_setup_shuffles_movement_cards_and_each_trouble_level_into_its_own_pile():
    state = table(2)
    c = state.content
    assert sorted(state.decks["movement"]) == sorted(c.movement)
    for level in (1, 2, 3):
        pile = state.decks[f"trouble{level}"]
        assert sorted(pile) == sorted(t for t in c.trouble if c.trouble[t]["level"] == level)
    assert list(state.items_left) == c.item_order  # the Item stack is not shuffled
    # a level 2 icon draws from the level 2 pile only
    state = play(table(2, content=tracker_pack(["trouble2"])), END)
    with pytest.raises(RuleError, match="the card to draw now is a level 2 Trouble card"):
        rules.apply(state, {"type": "draw", "deck": "trouble1", "card": "tr1-1"})
    with pytest.raises(RuleError, match="'tr1-1' is not in the level 2 Trouble pile"):
        rules.apply(state, {"type": "draw", "deck": "trouble2", "card": "tr1-1"})
    state = play(state, {"type": "draw", "deck": "trouble2", "card": "tr2-1"})
    assert state.trouble == "tr2-1" and "tr2-1" not in state.decks["trouble2"]


# --------------------------------------------------------------------------- the tracker


def test_first_players_first_turn_has_no_tracker_phase():
    state = table(2)
    assert state.tracker == 3 and rules.actor(state) == "Ana"
    state, effects = run(state, END)
    assert state.tracker == 4  # the second turn begins with the tracker phase
    assert kinds(effects)[:3] == ["turn", "tracker", "draw"]


def tracker_pack(column: list[str], players: int = 2) -> dict:
    """The demo pack with ``column`` on the space after the start for ``players``."""
    s = sections()
    for t in s["tracker"]:
        if t["players"] == players:
            t["columns"] = [[] for _ in range(21)]
            t["columns"][t["start"]] = list(column)
    return s


def test_tracker_phase_resolves_the_column_top_to_bottom():
    state = table(2, content=tracker_pack(["trouble1", "move", "love"]))
    state, effects = run(state, END)
    assert rules.legal_actions(state) == [{"type": "draw", "deck": "trouble1"}]
    with pytest.raises(RuleError, match="first draw the level 1 Trouble card"):
        rules.apply(state, END)
    state, more = run(state, {"type": "draw", "deck": "trouble1", "card": "tr1-2"})
    effects += more
    assert rules.legal_actions(state) == [{"type": "draw", "deck": "movement"}]
    state, more = run(state, {"type": "draw", "deck": "movement", "card": "mv-02"})
    effects += more
    order = [k for k in kinds(effects) if k in ("trouble", "movement", "love_check")]
    assert order == ["trouble", "movement", "love_check"]
    assert rules.actor(state) == "Ben"


def test_new_trouble_card_takes_effect_at_once_and_replaces_the_unresolved_one():
    state = table(2, content=tracker_pack(["trouble1"]))
    state = arrange(state, trouble="tr1-3")  # an unresolved card is out
    state, effects = run(state, END, {"type": "draw", "deck": "trouble1", "card": "tr1-1"})
    assert state.trouble == "tr1-1"
    assert kinds(effects)[-4:] == ["draw", "trouble_discard", "trouble", "love"]
    assert state.love == state.content.love_start - 1  # tr1-1: love-1, at once
    assert "DISCARD Trouble Demo trouble 1-3" in texts(effects)[-3]


def test_movement_card_moves_george_lorraine_and_biff_in_order():
    state = table(2, content=tracker_pack(["move"]))
    # mv-02: george 1 pine-st, lorraine 1 george, biff 1 elm-st
    state, effects = run(state, END, {"type": "draw", "deck": "movement", "card": "mv-02"})
    moves = [e for e in effects if e["kind"] == "npc"]
    assert [e["npc"] for e in moves] == ["george", "lorraine", "biff"]
    assert state.npcs == {"george": "pine-st", "lorraine": "oak-st", "biff": "river-rd"}
    assert texts(moves) == ["GEORGE 1 step to Pine St", "LORRAINE 1 step to Oak St",
                            "BIFF 1 step to River Rd"]
    assert state.movement_discard == ("mv-02",)


def test_movement_icon_x2_draws_and_resolves_two_cards():
    state = table(2, content=tracker_pack(["move2"]))
    state = play(state, END, {"type": "draw", "deck": "movement", "card": "mv-02"})
    assert rules.legal_actions(state) == [{"type": "draw", "deck": "movement"}]
    state = play(state, {"type": "draw", "deck": "movement", "card": "mv-03"})
    assert rules.actor(state) == "Ben" and len(state.movement_discard) == 2


@pytest.mark.parametrize(("love", "flips"), [(0, 1), (12, 1), (5, 1), (-1, 2), (-3, 2),
                                             (13, 0), (15, 0)])
def test_love_check_flips_one_photo_in_0_to_12_two_below_0_none_in_the_heart_zone(love, flips):
    state = arrange(table(2, content=tracker_pack(["love"])), love=love)
    state, effects = run(state, END)
    assert state.photos == 6 - flips
    if flips:
        assert texts(effects)[-1] == ("FLIP 1 PHOTO" if flips == 1 else "FLIP 2 PHOTOS")
    else:
        assert texts(effects)[-1] == "LOVE CHECK: Heart Zone, no flip"


@pytest.mark.parametrize(("love", "photos"), [(-2, 2), (5, 4), (14, 6)])
def test_love_check_x2_checks_twice(love, photos):
    state = arrange(table(2, content=tracker_pack(["love2"])), love=love)
    state = play(state, END)
    assert state.photos == photos  # two checks: of two flips, of one, of none


def test_the_last_photo_face_down_loses_at_once():
    state = arrange(table(2, content=tracker_pack(["love", "move"])), photos=1)
    state, effects = run(state, END)
    assert rules.actor(state) == TERMINAL and state.result == "lost"
    assert rules.winners(state) == []
    assert "Marty fades away" in texts(effects)[-1]
    assert "draw" not in kinds(effects)  # the Movement icon below is never reached
    with pytest.raises(RuleError, match="the game is over"):
        rules.apply(state, END)


def test_decision_a_knocked_down_biff_ignores_movement_cards():
    state = arrange(table(2, content=tracker_pack(["move"])), biff_down=True, tokens=2)
    state, effects = run(state, END, {"type": "draw", "deck": "movement", "card": "mv-02"})
    assert state.npcs["biff"] == "clock-tower" and state.tokens == 2
    assert "BIFF is knocked down and stays" in texts(effects)


def test_decision_movement_cards_never_take_george_lorraine_or_biff_into_town_square():
    s = sections()
    s["movement"] = [{"id": "mv-x", "moves": ["george 6 town-square", "biff 6 maple-ave"],
                      "source": "demo"}]
    state = arrange(table(2, content=_with_column(s, ["move"])), biff="cedar-ln")
    state = play(state, END, {"type": "draw", "deck": "movement", "card": "mv-x"})
    c = state.content
    assert state.npcs["george"] in c.nbr["town-square"]  # next to it, never on it
    # Biff walks around Town Square: cedar-ln -> oak-st -> hill-valley-high -> elm-st -> maple
    assert state.npcs["biff"] == "maple-ave"


def _with_column(s: dict, column: list[str]) -> dict:
    for t in s["tracker"]:
        if t["players"] == 2:
            t["columns"] = [[] for _ in range(21)]
            t["columns"][t["start"]] = list(column)
    return s


def test_decision_an_empty_movement_pile_is_reshuffled_from_its_discards():
    s = sections()
    s["movement"] = [{"id": "only", "moves": ["george 1 elm-st"], "source": "demo"}]
    state = table(2, content=_with_column(s, ["move2"]))
    state, effects = run(state, END, {"type": "draw", "deck": "movement", "card": "only"})
    assert "SHUFFLE the Movement discards: a new pile" in texts(effects)
    state = play(state, {"type": "draw", "deck": "movement", "card": "only"})
    assert rules.actor(state) == "Ben"


def test_decision_an_empty_trouble_pile_draws_nothing():
    state = table(2, content=tracker_pack(["trouble3"]))
    state.decks["trouble3"] = []
    state, effects = run(state, END)
    assert "no level 3 Trouble card left" in texts(effects) and state.trouble is None


def test_tracker_reaches_the_last_space_and_lightning_strikes():
    state = arrange(table(2), tracker=20)
    state, effects = run(state, END)
    assert state.tracker == 21 and "10:04 p.m." in texts(effects)[1]
    # the last column (a Movement icon in the demo) is resolved before lightning strikes
    state, effects = run(state, {"type": "draw", "deck": "movement", "card": "mv-05"})
    assert rules.is_terminal(state) and "LIGHTNING" in " ".join(texts(effects))
