"""One conformance suite for every registered title (the State API contract, the demo pack, the
bot, the screens). A title that is registered is held to all of it at once."""

from __future__ import annotations

import json
import random
import re

import pytest
from conformance import (
    NAMES,
    PANEL_SIZES,
    check_apply_is_pure,
    check_bad_action,
    check_bot_finishes,
    check_demo_pack,
    check_legal_actions_apply,
    check_round_trip,
    check_screens_fit,
    check_secrets_stay_hidden,
    check_table_screens_read_across_the_table,
    check_winners,
    new_game,
    player_counts,
    playout,
    rule_panel,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import titles
from companion.content import demo_pack
from companion.display.cli import game_screens
from companion.display.draw import using
from companion.titles.api import RuleError

KEYS = titles.keys()
COUNTS = [(key, n) for key in KEYS for n in player_counts(key)]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)


@pytest.mark.parametrize("key,players", COUNTS)
@pytest.mark.parametrize("who", ["bot", "random"])
def test_every_state_of_a_game_keeps_the_contract(key, players, who):
    """A whole game of the title's bots, and the first 300 actions of random players (random
    games of some titles run to thousands of actions; test_random_playouts_end plays them out)."""
    engine = titles.rules(key)
    rng = random.Random(players)
    if who == "bot":
        states = playout(key, players, seed=players, bot=titles.get(key).bots.bot)
    else:
        states = playout(key, players, seed=players, stop_after=300)
    for state, action in states:
        before = check_round_trip(engine, state)
        check_winners(engine, state)
        check_secrets_stay_hidden(engine, state)
        check_legal_actions_apply(engine, state, rng, most=4)
        if action is not None:  # (checks the sampled legal actions left it alone too)
            check_apply_is_pure(engine, state, action, before)


@pytest.mark.slow
@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), data=st.data())
def test_random_playouts_end(key, seed, data):
    players = data.draw(st.sampled_from(player_counts(key)))
    *_, (final, none) = playout(key, players, seed)
    assert none is None and titles.rules(key).is_terminal(final)


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 200), data=st.data())
def test_any_json_as_an_action_applies_or_is_refused_with_a_reason(key, seed, steps, data):
    engine = titles.rules(key)
    states = playout(key, player_counts(key)[0], seed)
    state, _action = next(states)
    for state, _action in states:  # noqa: B007 - the state reached after `steps` actions
        steps -= 1
        if steps <= 0:
            break
    legal = engine.legal_actions(state)
    if engine.actor(state) == "chance":
        legal = [engine.sample_chance(state, random.Random(seed))]
    kind = data.draw(st.sampled_from(["any", "field", "drop", "type"]))
    if kind == "any" or not legal:
        action = data.draw(json_values)
    else:
        action = dict(data.draw(st.sampled_from(legal)))
        field = data.draw(st.sampled_from(sorted(action)))
        if kind == "field":
            action[field] = data.draw(json_values)
        elif kind == "drop":
            action.pop(field)
        else:
            action["type"] = data.draw(st.text(max_size=10) | json_values)
    json.dumps(action)
    check_bad_action(engine, state, action)


@pytest.mark.parametrize("key", KEYS)
def test_the_demo_pack_validates_and_serves_every_player_count(key):
    check_demo_pack(key)


@pytest.mark.parametrize("key,players", [(k, c[i]) for k in KEYS
                                         for c in [player_counts(k)] for i in (0, -1)])
def test_the_bot_finishes_a_game(key, players):
    check_bot_finishes(key, players, seed=11)


def screens_of(key: str) -> list:
    """A title's sample screens and those of bot games at its fewest and most players, drawn
    for the current panel."""
    images = list(titles.get(key).screens.catalogue())
    for count in (player_counts(key)[0], player_counts(key)[-1]):
        images += game_screens(key, players=count, seed=5, limit=150)
    return images


@pytest.mark.parametrize("size", list(PANEL_SIZES))
@pytest.mark.parametrize("key", KEYS)
def test_every_screen_the_title_can_produce_fits_the_panel(key, size):
    """docs/display.md: screens lay out by the panel's size (128x64, 256x64, 128x128)."""
    with using(PANEL_SIZES[size]):
        check_screens_fit(screens_of(key))


@pytest.mark.parametrize("size", [s for s in PANEL_SIZES if rule_panel(s)])
@pytest.mark.parametrize("key", KEYS)
def test_screens_the_whole_table_reads_are_big_enough(key, size):
    """docs/display.md: on the recommended panel of each size, the main line of whose turn,
    the roll, a ripple, a paradox, a stall, what to move and the winner is at least 6 mm tall
    and every other word on those screens 4 mm."""
    with using(PANEL_SIZES[size]):
        check_table_screens_read_across_the_table(key, screens_of(key), rule_panel(size))


def test_no_128x128_panel_keeps_the_rule_so_none_is_recommended():
    """docs/display.md: the largest 128x128 panel is 27 mm across; 6 mm letters would leave
    five of them a line, so the rule is held to the 128x64 and 256x64 panels only."""
    from companion.display.draw import PANELS, TABLE_MAIN_MM

    square = [p for p in PANELS.values() if (p.width, p.height) == (128, 128)]
    assert square and rule_panel("128x128") is None
    widest = max(p.width * p.pitch_mm for p in square)
    capitals = widest / (TABLE_MAIN_MM * 0.75)  # a bold capital is about 3/4 as wide as tall
    assert capitals < 6


@pytest.mark.parametrize("key", KEYS)
def test_facts_are_data(key):
    facts = titles.get(key).facts
    assert facts.key == key and facts.name
    assert 1 <= facts.min_players <= facts.max_players <= 6
    engine, state = new_game(key, facts.min_players)
    json.dumps(engine.view(state))
    assert set(engine.secrets(state)) == set(NAMES[:facts.min_players]), "secrets per player"
    json.dumps(facts.options)


@pytest.mark.parametrize("key", [k for k in KEYS if titles.get(k).facts.options])
def test_a_title_with_options_checks_them_before_a_game(key):
    engine = titles.get(key).rules
    assert engine.check_options({}) == titles.get(key).facts.options
    with pytest.raises(RuleError, match="unknown option"):
        engine.check_options({"no_such_option": 1})
    for option, default in titles.get(key).facts.options.items():
        if isinstance(default, bool):
            with pytest.raises(RuleError, match=option):
                engine.check_options({option: "yes"})
            assert engine.check_options({option: not default})[option] is (not default)
    # new_game refuses what check_options refuses
    with pytest.raises(RuleError, match="unknown option"):
        engine.new_game(NAMES[:titles.get(key).facts.min_players], {"no_such_option": 1},
                        demo_pack(key))


@pytest.mark.parametrize("key", KEYS)
def test_the_boot_plate_fits(key):
    from companion.display import screens as shared

    facts = titles.get(key).facts
    check_screens_fit([("boot", shared.boot(plate=(facts.plate or facts.name).upper()))])


class _Leaky:
    """An engine whose views show whatever ``shown`` holds (to check the check)."""

    def __init__(self, shown: dict) -> None:
        self.shown = shown

    def secrets(self, state):
        return {"A": ["card-7", 3], "B": ["card-17"]}

    def view(self, state, player):
        return self.shown.get(player, {"hand": ["x"]})


@pytest.mark.parametrize("shown, leaked", [
    ({None: {"log": ["A drew card-7"]}}, None),  # inside a longer text: not the card itself
    ({None: {"deck": ["card-7"]}}, "public view shows A's secrets ['card-7']"),
    ({"B": {"card-7": 1}}, "B's view shows A's secrets ['card-7']"),  # as a key too
    ({"A": {"seen": "card-17"}}, "A's view shows B's secrets ['card-17']"),
    ({"A": {"seen": ["card-17x", 3, "card-1"]}}, None),
])
def test_the_secrets_check_finds_a_secret_in_any_view(shown, leaked):
    if leaked is None:
        check_secrets_stay_hidden(_Leaky(shown), None)
    else:
        with pytest.raises(AssertionError, match=re.escape(leaked)):
            check_secrets_stay_hidden(_Leaky(shown), None)


def test_the_longest_card_game_seen_in_random_play_ends():
    """Seed 323 at 5 players: 21,565 actions of random play, the longest of 1,000 seeds."""
    *_, (final, none) = playout("timeline", 5, 323)
    assert none is None and titles.rules("timeline").is_terminal(final)
