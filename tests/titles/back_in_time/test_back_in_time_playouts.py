"""Random Back in Time playouts (2-4 players, the random and the cooperative bot), every
invariant checked after every action; any JSON value as an action; the State API contract."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from bit_table import PACK
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.bots import play, random_bot
from companion.titles.api import CHANCE, TERMINAL, RuleError
from companion.titles.back_in_time import rules
from companion.titles.back_in_time.bots import bot as team_bot
from companion.titles.back_in_time.data import PARTS, TRACKER_SPACES

NAMES = ["Ana", "Ben", "Cy", "Dee"]
LIMIT = 20_000
BOTS = {"random_bot": random_bot, "team_bot": team_bot}


def snapshot(state: rules.State) -> str:
    """The whole changing state (the content pack's entries never change: they are shared)."""
    data = rules.to_json(state)
    assert data.pop("content") is state.content.sections
    return json.dumps(data, sort_keys=True)


def check_invariants(state: rules.State, round_trip: bool = True) -> None:
    c = state.content
    assert 0 <= state.photos <= 6
    assert c.love_bottom <= state.love <= rules.TOP
    assert 0 <= state.delorean <= len(c.track) - 1
    if len(state.parts) < len(PARTS):
        assert state.delorean <= c.doc_index, "the DeLorean passed Doc's House without Parts"
    assert len(set(state.parts)) == len(state.parts) and set(state.parts) <= set(PARTS)
    assert 0 <= state.tokens <= 3 and (state.tokens == 0 or state.biff_down)
    assert c.trackers[len(state.players)]["start"] <= state.tracker <= TRACKER_SPACES
    assert state.phase in ("characters", "play", "over")
    if state.phase != "characters":
        # George, Lorraine and Biff never stand on Town Square
        assert c.town not in state.npcs.values()
        # every Power Tile is in exactly one place: a player's stand, the pile, or the box
        held = [t for p in state.players for t in p.tiles]
        assert len(held) == len(set(held))
        assert not set(held) & set(state.decks["tile"])
        for p in state.players:
            assert set(p.down) <= set(p.tiles) and len(p.down) == len(set(p.down))
            assert set(p.items_down) <= set(p.items)
            queued = [s for s in state.queue if s.get("player") == p.name]
            if not queued:
                assert len(p.tiles) <= state.limit(p)
        items = [i for p in state.players for i in p.items] + list(state.items_left)
        assert Counter(items) == Counter(c.item_order)
        # Opportunity cards: face up, in the pile, or discarded after success (never twice)
        seen = list(state.opportunities) + state.decks["opportunity"]
        assert len(seen) == len(set(seen)) and len(state.opportunities) <= 3
        moves = list(state.movement_discard) + state.decks["movement"]
        assert sorted(moves) == sorted(c.movement)
    ch = state.challenge
    if ch is not None:
        colours = Counter(d["colour"] for d in ch["dice"])
        assert all(n <= 2 for n in colours.values())
        assert ch["stage"] in ("dice", "roll", "rolled", "modify")
        if ch["stage"] in ("rolled", "modify"):
            assert all(d["face"] in c.faces[d["colour"]] or d["face"] == "wild"
                       for d in ch["dice"])
    terminal = rules.actor(state) == TERMINAL
    assert terminal == rules.is_terminal(state) == (state.phase == "over")
    assert bool(rules.winners(state)) == (state.result == "won")
    if terminal:
        assert state.result in ("won", "lost") and state.reason
        if state.result == "won":
            assert rules.zone(state) == "heart" and state.delorean in c.ready
            assert state.photos > 0 and state.tracker == TRACKER_SPACES
    if round_trip:  # rebuilding the pack's lookups is slow: not after every action
        data = rules.to_json(state)
        assert rules.to_json(rules.from_json(json.loads(json.dumps(data)))) == data
    view = rules.view(state)
    json.dumps(view)
    assert rules.secrets(state) == {p.name: [] for p in state.players}


def check_actions(state: rules.State, rng: random.Random) -> None:
    legal = rules.legal_actions(state)
    who = rules.actor(state)
    if who == TERMINAL:
        assert legal == []
        return
    assert legal, f"no legal action for {who}"
    candidates = [rules.sample_chance(state, rng)] if who == CHANCE else legal
    before = snapshot(state)
    for action in candidates:
        try:
            rules.apply(state, action)
        except RuleError as exc:  # pragma: no cover - reported with the action
            raise AssertionError(f"legal action {action} refused: {exc}") from exc
    assert snapshot(state) == before, "apply changed its input state"


def playout(seed: int, players: int, bot) -> rules.State:
    rng = random.Random(seed)
    check_rng = random.Random(seed + 1)
    state = rules.new_game(NAMES[:players], {}, PACK)
    check_invariants(state)
    for n in range(LIMIT):
        who = rules.actor(state)
        if who == TERMINAL:
            break
        check_actions(state, check_rng)
        if who == CHANCE:
            action = rules.sample_chance(state, rng)
        else:
            action = bot(rules, state, rng)
            assert action in rules.legal_actions(state), action
        before = snapshot(state)
        new, effects = rules.apply(state, action)
        assert snapshot(state) == before
        json.dumps(effects)
        assert all(isinstance(e["text"], str) and e["text"] and e["kind"] for e in effects)
        state = new
        check_invariants(state, round_trip=n % 10 == 0 or rules.is_terminal(state))
    else:
        raise AssertionError(f"game did not end within {LIMIT} actions")
    return state


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1),
       players=st.integers(min_value=2, max_value=4),
       bot=st.sampled_from(sorted(BOTS)))
@example(seed=1, players=2, bot="random_bot")
@example(seed=2, players=3, bot="team_bot")
@example(seed=3, players=4, bot="random_bot")
@example(seed=4, players=4, bot="team_bot")
def test_random_playouts_keep_every_invariant_and_end(seed, players, bot):
    state = playout(seed, players, BOTS[bot])
    assert rules.is_terminal(state)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=12)
    | st.sampled_from(["marty-1", "std-17", "elm-st", "love", "love:wild", "opp-01", "Ana",
                       "george", "cable", "movement", "biff"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["type", "tile", "item", "to", "who", "player", "die", "dice", "card",
                         "part", "challenge", "deck", "path", "escort", "character", "colour",
                         "face"]), inner, max_size=4),
    max_leaves=10,
)
TYPES = st.sampled_from(["character", "draw", "move", "step", "escort", "drop", "stop", "power",
                         "challenge", "add", "cancel", "ready", "roll", "reroll", "modify",
                         "resolve", "discard", "end", "nonsense"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 150), junk=st.lists(
    st.one_of(JSON, st.builds(lambda t, d: {**(d if isinstance(d, dict) else {}), "type": t},
                              TYPES, JSON)), min_size=1, max_size=8))
def test_any_json_value_is_applied_or_refused_with_a_rule_error(seed, steps, junk):
    rng = random.Random(seed)
    state = rules.new_game(NAMES[: 2 + seed % 3], {}, PACK)
    for _ in range(steps):
        if rules.is_terminal(state):
            break
        if rules.actor(state) == CHANCE:
            action = rules.sample_chance(state, rng)
        else:
            action = random_bot(rules, state, rng)
        state, _ = rules.apply(state, action)
    before = snapshot(state)
    for action in junk:
        try:
            rules.apply(state, action)
        except RuleError as exc:
            assert str(exc)
    assert snapshot(state) == before


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), players=st.integers(2, 4))
def test_same_seed_same_game_and_the_actions_replay_without_randomness(seed, players):
    def run():
        state = rules.new_game(NAMES[:players], {}, PACK)
        steps = list(play(rules, state, random.Random(seed), bot=team_bot, limit=LIMIT))
        return [a for a, _, _ in steps], [e for _, _, e in steps], steps[-1][1]

    actions1, effects1, final1 = run()
    actions2, effects2, final2 = run()
    assert actions1 == actions2 and effects1 == effects2
    state = rules.new_game(NAMES[:players], {}, PACK)
    for action in json.loads(json.dumps(actions1)):
        state, _ = rules.apply(state, action)
    assert rules.to_json(state) == rules.to_json(final1)


def test_the_team_bot_finishes_every_game_and_wins_some():
    results = Counter()
    for seed in range(24):
        state = rules.new_game(NAMES[: 2 + seed % 3], {}, PACK)
        final = list(play(rules, state, random.Random(seed), bot=team_bot, limit=LIMIT))[-1][1]
        assert rules.is_terminal(final)
        results[final.result] += 1
    assert results["won"] >= 6, results  # a quarter at least with the demo pack
    assert results["lost"] >= 1, results  # and the game is not a walkover


def test_the_team_bot_plays_better_than_chance():
    wins = {"random_bot": 0, "team_bot": 0}
    for name, bot in BOTS.items():
        for seed in range(12):
            state = rules.new_game(NAMES[:3], {}, PACK)
            final = list(play(rules, state, random.Random(seed), bot=bot, limit=LIMIT))[-1][1]
            wins[name] += final.result == "won"
    assert wins["team_bot"] > wins["random_bot"] + 3, wins
