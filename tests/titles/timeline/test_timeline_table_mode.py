"""At the table the companion never sees a hidden card until it is played: draws and ID deals
are counts, plays name the card. The same engine also serves simulations, where draws name the
card and each player's hand is a secret of that player. And any JSON is refused with words."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from timeline_table import PASS, do, make_table, place, play, sections, set_altered

from companion.content import demo_pack
from companion.titles.api import CHANCE, RuleError
from companion.titles.timeline import rules as tl

PLAYERS = ["Ana", "Ben", "Cy"]


def table_game(players=PLAYERS, pack=None) -> tl.State:
    """A game as the companion records it at the table: no hidden card is ever named."""
    state = tl.new_game(list(players), {}, pack or sections())
    while state.phase == "setup":
        state, _ = tl.apply(state, tl.legal_actions(state)[0])  # draws, deals, keeps
    state, _ = tl.apply(state, {"type": "draw"})
    return state


def test_at_the_table_hands_are_counts_and_ids_are_unknown():
    state = table_game()
    assert [p.cards for p in state.players] == [4, 3, 3]
    assert all(p.hand == () and p.identity is None for p in state.players)
    assert tl.secrets(state) == {"Ana": [], "Ben": [], "Cy": []}
    view = tl.view(state, "Ana")
    assert view["me"]["hand"] == [] and view["me"]["unknown"] == 4
    assert view["me"]["identity"] is None


def test_at_the_table_a_play_names_the_card_and_it_becomes_public():
    state = table_game()
    menu = tl.legal_actions(state)
    assert {"type": "play", "player": "Ana", "card": "time-train"} in menu  # any unseen card
    state, effects = do(state, play("Ana", "time-train", event="A-2"))
    assert effects[0]["text"] == "Ana plays Time Train (Time Machine)"
    assert state.player("Ana").cards == 3
    state, effects = do(state, PASS)
    assert "time-train" in state.discard and tl.view(state)["altered"] == ["A-2", "A-6"]


def test_at_the_table_a_card_seen_elsewhere_cannot_be_played_again():
    state = table_game()
    state, _ = do(state, play("Ana", "time-train", event="A-2"), PASS,
                  {"type": "draw_instead"}, {"type": "draw"}, {"type": "draw"})
    assert state.current.name == "Ben"
    with pytest.raises(RuleError, match="Ben does not hold Time Train: it is in the discard pile"):
        tl.apply(state, play("Ben", "time-train", event="A-3"))
    assert {"type": "play", "player": "Ben", "card": "time-train"} not in tl.legal_actions(state)


def test_at_the_table_any_player_may_raise_a_memo_and_pass_closes_the_window():
    state = table_game()
    state, _ = tl.apply(state, play("Ana", "tm", event="A-2"))
    assert tl.view(state)["waiting"]["responders"] == ["Ben", "Cy"]
    closed, _ = tl.apply(state, PASS)  # nobody raised a Memo: one confirm for everyone
    assert tl.view(closed)["altered"] == ["A-2", "A-6"]
    state, effects = do(state, {"type": "memo", "player": "Cy", "card": "memo"}, PASS)
    assert tl.view(state)["altered"] == [] and state.player("Cy").cards == 2


def test_at_the_table_a_player_without_cards_cannot_play_one():
    state = table_game()
    data = tl.to_json(state)
    data["players"][1]["unknown"] = 0
    data["deck"] += 3
    state = tl.from_json(data)
    state, _ = tl.apply(state, play("Ana", "tm", event="A-2"))
    assert tl.view(state)["waiting"]["responders"] == ["Cy"]  # Ben holds nothing to answer
    with pytest.raises(RuleError, match="Ben is not asked about a Memo now"):
        tl.apply(state, {"type": "pass", "player": "Ben"})


def test_at_the_table_claims_name_the_id_shown_and_the_companion_checks_it():
    state = set_altered(table_game(), "A-1", "A-2", "A-3")
    state, _ = do(state, play("Ana", "tm", event="B-1"), PASS, {"type": "reveal", "card": "clock"})
    claims = tl.legal_actions(state)
    assert {"type": "pass", "player": "Ana"} in claims  # the companion cannot know
    assert {"type": "claim", "player": "Ana", "id": "verne"} in claims
    state, effects = tl.apply(state, {"type": "claim", "player": "Ana", "id": "verne"})
    assert effects[0]["text"] == "Ana is Verne Brown: every event is set"
    assert tl.winners(state) == ["Ana"]


def test_at_the_table_an_id_shown_by_one_player_cannot_be_claimed_by_another():
    state = table_game()
    state, _ = do(state, play("Ana", "tm", event="B-1"), PASS, {"type": "reveal", "card": "clock"},
                  {"type": "claim", "player": "Ana", "id": "verne"})
    assert {"type": "claim", "player": "Ben", "id": "verne"} not in tl.legal_actions(state)
    with pytest.raises(RuleError, match="not Ben's: it is out elsewhere"):
        tl.apply(state, {"type": "claim", "player": "Ben", "id": "verne"})


def test_at_the_table_draws_without_a_name_reshuffle_when_the_pile_is_empty():
    state = table_game()
    data = tl.to_json(state)
    data["discard"] = ["rock#1", "rock#2"]
    data["players"][0]["unknown"] += data["deck"] - 2
    data["deck"] = 0
    state = tl.from_json(data)
    state, _ = do(state, {"type": "draw_instead"})
    state, effects = tl.apply(state, {"type": "draw"})
    assert effects[0]["kind"] == "reshuffle" and state.deck == 1 and state.discard == ()


def test_in_a_simulation_draws_name_the_card_for_its_holder_only():
    state = tl.new_game(PLAYERS, {}, demo_pack("timeline"))
    rng = random.Random(5)
    while tl.actor(state) == CHANCE:
        action = tl.sample_chance(state, rng)
        assert "card" in action or "id" in action
        state, effects = tl.apply(state, action)
        assert all("card" not in e for e in effects)  # the announcement names no card
    secrets = tl.secrets(state)
    assert all(len(values) == 4 for values in secrets.values())  # 3 cards and the ID
    ana = tl.view(state, "Ana")
    assert [c["card"] for c in ana["me"]["hand"]] == list(state.player("Ana").hand)
    public = json.dumps(tl.view(state))
    for value in secrets["Ben"]:
        assert json.dumps(value) not in public
        assert json.dumps(value) not in json.dumps(ana)


def test_a_table_game_and_a_simulated_game_take_the_same_actions():
    """A simulated game's actions, with every card and ID name removed from the draws and deals,
    replay as a table game and reach the same public table."""
    rng = random.Random(11)
    state = tl.new_game(PLAYERS, {}, demo_pack("timeline"))
    from companion.bots import play as run
    from companion.titles.timeline.bots import bot

    actions = [a for a, _, _ in run(tl, state, rng, bot=bot)]
    final_sim = tl.new_game(PLAYERS, {}, demo_pack("timeline"))
    final_table = tl.new_game(PLAYERS, {}, demo_pack("timeline"))
    for action in actions:
        final_sim, _ = tl.apply(final_sim, action)
        counted = {k: v for k, v in action.items()
                   if not (action["type"] in ("draw", "deal_id") and k in ("card", "id"))}
        final_table, _ = tl.apply(final_table, counted)
    sim, table = tl.view(final_sim), tl.view(final_table)
    for key in ("altered", "b1", "discard", "winner", "turns", "deck"):
        assert sim[key] == table[key]
    assert [p["hand"] for p in sim["players"]] == [p["hand"] for p in table["players"]]


# --------------------------------------------------------------------------- any JSON


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)
TYPES = sorted(tl._HANDLERS)
FIELDS = ["player", "card", "event", "item", "pick", "id"]


def _states() -> list[tl.State]:
    """A few positions: setup, a play, a pending card, a target choice, a claim."""
    start = tl.new_game(PLAYERS, {}, sections())
    table = make_table(tuple(PLAYERS), hands={"Ana": ["tm", "db-a2", "rewind"], "Ben": ["memo"]})
    pending, _ = tl.apply(table, play("Ana", "tm", event="A-2"))
    target, _ = tl.apply(table, play("Ana", "tm"))
    claims, _ = do(table, play("Ana", "tm", event="B-1"), PASS, {"type": "reveal", "card": "clock"})
    mulligan = start
    while mulligan.agenda[0]["step"] != "mulligan":
        mulligan, _ = tl.apply(mulligan, tl.legal_actions(mulligan)[0])
    second, _ = do(place(table, "Ana", "ravine-map"), play("Ana", "db-a2"), PASS)
    assert second.agenda[0]["step"] == "use"
    return [start, table, pending, target, claims, mulligan, second]


STATES = _states()


@settings(max_examples=300, deadline=None)
@given(
    which=st.integers(min_value=0, max_value=len(STATES) - 1),
    action=JSON
    | st.fixed_dictionaries(
        {"type": st.sampled_from(TYPES)},
        optional={f: JSON | st.sampled_from(PLAYERS + ["tm", "memo", "A-2", "B-1", "verne"])
                  for f in FIELDS},
    ),
)
def test_apply_takes_any_json_and_refuses_with_words_never_a_crash(which, action):
    state = STATES[which]
    before = json.dumps(tl.to_json(state), sort_keys=True)
    try:
        new, effects = tl.apply(state, action)
    except RuleError as exc:
        assert str(exc)
    else:
        json.dumps(effects)
        json.dumps(tl.to_json(new))
    assert json.dumps(tl.to_json(state), sort_keys=True) == before


@pytest.mark.parametrize(
    "action, words",
    [
        ([], 'an action is a JSON object with a "type"'),
        ({"type": "fly"}, "unknown action type 'fly'"),
        ({"type": "play", "player": "Ana", "card": "flux"}, "no card 'flux' in this game"),
        ({"type": "play", "player": "Zed", "card": "tm"}, "no player called 'Zed'"),
        ({"type": "play", "player": "Ana", "card": "memo"}, "Ana does not hold Memo"),
        ({"type": "play", "player": "Ana", "card": "tm", "event": "A-9"}, "Tm flips one of"),
        ({"type": "reveal", "card": "dud"}, "cannot turn over a B-1 card now: Ana is to play"),
        ({"type": "claim", "player": "Ana", "id": "verne"}, "cannot claim victory now"),
    ],
)
def test_bad_actions_say_what_is_wrong(action, words):
    with pytest.raises(RuleError, match=words.replace("(", r"\(")):
        tl.apply(STATES[1], action)
