"""Random era-game playouts (2-6 players, two bots, basic and advanced rules, the demo pack and
random packs that bring every B side into play), invariants checked after every action."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.bots import play, random_bot
from companion.content import demo_pack
from companion.titles.api import CHANCE, TERMINAL, RuleError
from companion.titles.eras import bots, rules

NAMES = ["Ana", "Ben", "Cy", "Di", "Ed", "Flo"]
LIMIT = 30_000
DEMO = demo_pack("eras")
BOTS = {"random_bot": random_bot, "eras_bot": bots.bot}


def random_pack(seed: int) -> list[dict]:
    """Invented contents with every B side somewhere (for the tests only)."""
    rng = random.Random(seed)
    entries = []
    for i in range(rng.randint(60, 90)):
        entries.append({
            "id": f"c{i:03d}", "kind": "character", "role": rng.choice(rules.ROLES),
            "era": rng.choice(rules.ERAS + (rules.ANY,)), "power": rng.randint(0, 3),
            "clocks": rng.randint(0, 3), "vp": rng.randint(0, 3), "source": "demo",
        })
    for era in rules.ERAS:
        effects = [k for k, v in rules.EFFECTS.items() if era in v[0]]
        for i in range(3):
            entries.append({"id": f"e{era}-{i}", "kind": "event", "era": era,
                            "role": rng.choice(rules.ROLES), "effect": rng.choice(effects),
                            "source": "demo"})
            entries.append({"id": f"v{era}-{i}", "kind": "vp", "era": era,
                            "value": rng.randint(1, 6), "source": "demo"})
    return entries


def snapshot(state: rules.State) -> str:
    return json.dumps(rules.to_json(state), sort_keys=True)


def in_flight(state: rules.State) -> list[str]:
    """The card being played: out of the hand, not yet on the board."""
    return [s["card"] for s in state.pending
            if s["step"] in ("pay", "ripple", "draw") and s.get("for", "play") == "play"
            and "card" in s and (s["step"] != "draw" or s["why"] == "ripple")]


def check_invariants(state: rules.State, views: bool = True) -> None:
    """Every invariant of ``state``; the costly ones (the JSON round trip and every player's
    view) only with ``views``."""
    # every character card is in exactly one place
    places = list(state.pool) + list(state.discard) + in_flight(state)
    for p in state.players:
        places += p.hand + p.ripple + [c for era in rules.ERAS for c in p.board[era]]
    assert Counter(places) == Counter(list(state.cards)), "a card is lost or doubled"
    # the unplaced cards are the deck, the unseen cards in hands and the unnamed ripple cards
    unseen = sum(p.unseen + p.ripple_unseen for p in state.players)
    assert len(state.pool) == state.deck + unseen
    assert all(p.unseen >= 0 and p.ripple_unseen >= 0 for p in state.players)
    # every event and every VP token too
    events = [e for era in rules.ERAS for e in state.hidden[era]]
    events += [e for e in state.top.values() if e] + [e for p in state.players for e in p.events]
    assert Counter(events) == Counter(list(state.events))
    for era, event in state.top.items():
        assert event is None or state.events[event]["era"] == era
    tokens = [t for era in rules.ERAS for t in state.stacks[era]]
    tokens += [t for p in state.players for t in p.tokens]
    assert Counter(tokens) == Counter(list(state.vps))
    assert all(len(p.tokens) == len(p.events) for p in state.players)
    assert all(0 <= p.clocks <= rules.MAX_CLOCKS for p in state.players)
    assert state.delorean in rules.ERAS
    # roles: distinct, and everyone has one during the turns
    roles = [p.role for p in state.players if p.role]
    assert len(roles) == len(set(roles))
    if state.phase == "turn":
        assert len(roles) == len(state.players)
    # the end: winners only when it is over, and they hold the best total
    terminal = rules.actor(state) == TERMINAL
    assert terminal == rules.is_terminal(state) == (state.phase == "over")
    assert bool(rules.winners(state)) == terminal
    if terminal:
        totals = {p.name: rules.score(state, p)["total"] for p in state.players}
        assert {totals[w] for w in rules.winners(state)} == {max(totals.values())}
    if not views:
        return
    # the JSON form is complete
    data = rules.to_json(state)
    assert rules.to_json(rules.from_json(json.loads(json.dumps(data)))) == data
    # nobody sees another player's secrets; the public table sees none
    secrets = rules.secrets(state)
    for observer in [None] + [p.name for p in state.players]:
        shown = json.dumps(rules.view(state, observer))
        for owner, values in secrets.items():
            if owner != observer:
                assert not any(f'"{v}"' in shown for v in values), (observer, owner)


def check_actions(state: rules.State, rng: random.Random) -> str | None:
    """Legal actions exist unless the game is over; a sample of them applies, with a label."""
    legal = rules.legal_actions(state)
    who = rules.actor(state)
    if who == TERMINAL:
        assert legal == []
        return None
    assert legal, f"no legal action for {who}"
    json.dumps(legal)
    if who == CHANCE:
        candidates = [rules.sample_chance(state, rng)]
    else:
        assert all(rules.label(state, a) for a in legal)
        candidates = rng.sample(legal, min(3, len(legal)))
    before = snapshot(state)
    for action in candidates:
        try:
            rules.apply(state, action)
        except RuleError as exc:  # pragma: no cover - reported with the action
            raise AssertionError(f"legal action {action} refused: {exc}") from exc
    assert snapshot(state) == before, "apply changed its input state"
    return before  # the state's snapshot, for the caller's own check


def playout(seed: int, players: int, bot, advanced: bool, pack, view_every: int = 1
            ) -> rules.State:
    rng = random.Random(seed)
    check_rng = random.Random(seed + 1)
    state = rules.new_game(NAMES[:players], {"advanced": advanced}, pack)
    check_invariants(state)
    for step in range(LIMIT):
        if rules.actor(state) == TERMINAL:
            break
        before = check_actions(state, check_rng)
        who = rules.actor(state)
        action = rules.sample_chance(state, rng) if who == CHANCE else bot(rules, state, rng)
        old = state
        state, effects = rules.apply(old, action)
        assert snapshot(old) == before, f"apply({action}) changed its input state"
        json.dumps(action)
        json.dumps(effects)
        assert all(e["text"] and e["kind"] for e in effects)
        check_invariants(state, views=step % view_every == 0 or rules.is_terminal(state))
    else:
        raise AssertionError(f"game did not end within {LIMIT} actions")
    check_actions(state, check_rng)
    return state


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.integers(min_value=2, max_value=6),
    advanced=st.booleans(),
    demo=st.booleans(),
)
def test_bot_playouts_keep_every_invariant(seed, players, advanced, demo):
    pack = DEMO if demo else random_pack(seed)
    # the views and the JSON round trip every other action (test_conformance checks them
    # after every action of the demo pack's bot games, at every player count)
    state = playout(seed, players, bots.bot, advanced, pack, view_every=2)
    assert rules.actor(state) == TERMINAL and rules.winners(state)


@pytest.mark.slow
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.integers(min_value=2, max_value=6),
    advanced=st.booleans(),
)
def test_random_playouts_keep_every_invariant(seed, players, advanced):
    # random games run to thousands of actions: the views and the JSON round trip are
    # checked every 8th action (and at the end)
    state = playout(seed, players, random_bot, advanced, random_pack(seed), view_every=8)
    assert rules.actor(state) == TERMINAL and rules.winners(state)


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.integers(min_value=2, max_value=6),
    advanced=st.booleans(),
)
def test_same_seed_same_game_and_replay(seed, players, advanced):
    def run():
        rng = random.Random(seed)
        state = rules.new_game(NAMES[:players], {"advanced": advanced}, DEMO)
        steps = list(play(rules, state, rng, bot=bots.bot, limit=LIMIT))
        return [a for a, _, _ in steps], [e for _, _, e in steps], steps[-1][1]

    actions1, effects1, final1 = run()
    actions2, effects2, final2 = run()
    assert actions1 == actions2 and effects1 == effects2
    assert rules.to_json(final1) == rules.to_json(final2)
    state = rules.new_game(NAMES[:players], {"advanced": advanced}, DEMO)
    for action in json.loads(json.dumps(actions1)):  # what a journal holds
        state, _ = rules.apply(state, action)
    assert rules.to_json(state) == rules.to_json(final1)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3000) | st.floats(allow_nan=False)
    | st.text(max_size=8) | st.sampled_from(["1955", "1985", "2015", "any", "clock", "free",
                                             "marty-85-1", "Ana", "Ben"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=10,
)
KEYS = ["type", "card", "era", "to", "with", "pay", "ripple", "cards", "event", "role", "from",
        "player"]
TYPES = sorted(rules._HANDLERS) + ["", "nope"]


def _positions() -> list[rules.State]:
    """States where each kind of decision is open, from a few seeded games."""
    found: dict[str, rules.State] = {}
    for seed in range(6):
        rng = random.Random(seed)
        start = rules.new_game(NAMES[:3], {"advanced": seed % 2 == 0}, DEMO)
        for _, state, _ in play(rules, start, rng, bot=bots.bot, limit=LIMIT):
            step = state.pending[0]["step"] if state.pending else state.phase
            found.setdefault(step, state)
    return list(found.values())


POSITIONS = _positions()


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    index=st.integers(min_value=0, max_value=len(POSITIONS) - 1),
    action=st.one_of(
        JSON,
        st.fixed_dictionaries({"type": st.sampled_from(TYPES)},
                              optional={k: JSON for k in KEYS[1:]}),
    ),
)
def test_apply_accepts_any_json_and_refuses_with_a_reason(index, action):
    state = POSITIONS[index]
    before = snapshot(state)
    try:
        new, effects = rules.apply(state, action)
    except RuleError as exc:
        assert str(exc)
    else:
        json.dumps(effects)
        check_invariants(new)
    assert snapshot(state) == before


def test_positions_cover_every_kind_of_decision():
    kinds = {state.pending[0]["step"] if state.pending else state.phase for state in POSITIONS}
    assert {"roles", "turn", "pay", "ripple", "draw", "reveal", "over"} <= kinds


def test_both_rule_sets_play_out_with_every_b_side():
    seen = set()
    for seed in range(12):
        rng = random.Random(seed)
        pack = random_pack(seed)
        start = rules.new_game(NAMES[:4], {"advanced": True}, pack)
        for _, state, _ in play(rules, start, rng, bot=bots.bot, limit=LIMIT):
            effect = rules.active_effect(state)
            if effect:
                seen.add(effect)
        assert rules.winners(state)
    assert seen == set(rules.EFFECTS)


def test_bot_beats_random_players():
    wins = 0
    for seed in range(12):
        rng = random.Random(seed)
        players = 2 + seed % 3
        state = rules.new_game(NAMES[:players], {"advanced": seed % 2 == 1}, DEMO)
        while rules.actor(state) != TERMINAL:
            who = rules.actor(state)
            if who == CHANCE:
                action = rules.sample_chance(state, rng)
            elif who == "Ana":
                action = bots.bot(rules, state, rng)
            else:
                action = random_bot(rules, state, rng)
            state, _ = rules.apply(state, action)
        wins += "Ana" in rules.winners(state)
    assert wins >= 10, wins


def test_bot_games_finish_at_every_player_count():
    for players in range(rules.facts.min_players, rules.facts.max_players + 1):
        for advanced in (False, True):
            rng = random.Random(players)
            state = rules.new_game(NAMES[:players], {"advanced": advanced}, DEMO)
            steps = list(play(rules, state, rng, bot=bots.bot, limit=LIMIT))
            final = steps[-1][1]
            assert rules.is_terminal(final) and rules.winners(final)
            assert sum(len(p.events) for p in final.players) >= 6 or final.exhausted
