"""Random Card Game playouts (2-6 players, random and sensible bots), invariants checked after
every action; games end; the same seed gives the same game; hidden cards stay hidden."""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.bots import play, random_bot
from companion.content import demo_pack
from companion.titles.api import CHANCE, TERMINAL, RuleError
from companion.titles.timeline import rules as tl
from companion.titles.timeline.bots import bot as timeline_bot

NAMES = ["Ana", "Ben", "Cat", "Dan", "Eve", "Fay"]
LIMIT = 60_000
PACK = demo_pack("timeline")


def snapshot(state: tl.State) -> str:
    """The whole state but its content (which no action can change), as text."""
    data = tl.to_json(state)
    del data["content"]
    return json.dumps(data, sort_keys=True)


def appearing(values: list[str], shown_to: object) -> list[str]:
    """The ``values`` that appear as whole text values (or keys) in a JSON-ready value."""
    text = json.dumps(shown_to)
    return [v for v in values if _quoted(v) in text]


@cache
def _quoted(value: str) -> str:
    """``value`` as a JSON string (the same few card ids are looked for at every action)."""
    return json.dumps(value)


def check_invariants(
    state: tl.State, effects: list[dict] | None = None, round_trip: bool = True
) -> None:
    content = state.content
    # every game card copy is in exactly one place, or unseen (draw pile or an unseen hand)
    placed = list(state.discard)
    for p in state.players:
        placed += list(p.hand) + list(p.items)
        assert p.unknown >= 0
    placed += [e["card"] for e in state.stack] + [e["pick"] for e in state.stack if "pick" in e]
    counts = Counter(placed)
    assert all(n == 1 for n in counts.values()), counts.most_common(3)
    assert set(placed) <= set(content.instances)
    unseen = len(content.instances) - len(placed)
    assert state.deck >= 0
    assert state.deck + sum(p.unknown for p in state.players) == unseen
    # the B-1 stack: the clock and the duds not yet set aside
    assert 1 <= state.b1_left <= state.options["b1_cards"]
    assert state.b1_left + state.b1_aside == state.options["b1_cards"]
    # the TimeLine: only Linchpins are stored; ripples always follow them
    assert state.altered <= set(content.graph.linchpins)
    shown = tl.sides(state)
    for eid, parents in content.graph.parents.items():
        if parents:
            on = [p in shown for p in parents]
            pair = content.graph.events[eid].get("pair")
            expect = on[0] if len(on) == 1 else (all(on) if pair == "and" else any(on))
            assert (eid in shown) == expect, eid
    # ID cards: each out at most once
    known = [p.identity for p in state.players if p.identity] + [
        i for p in state.players for i in p.aside
    ]
    assert len(known) == len(set(known)) and state.ids_out <= len(content.identities)
    # at most one winner, and only at the end
    won = tl.winners(state)
    terminal = tl.actor(state) == TERMINAL
    assert len(won) <= 1 and bool(won) == terminal == (state.phase == "over")
    if won:
        winner = state.player(won[0])
        assert tl.check_identity(state, winner.identity) == []
    else:
        assert state.agenda, "a game that is not over always waits for something"
    # hidden cards stay hidden: no view shows another player's secrets, nor does an effect
    secrets = tl.secrets(state)
    everyone = [v for values in secrets.values() for v in values]
    assert not appearing(everyone, tl.view(state)), appearing(everyone, tl.view(state))
    for p in state.players:
        others = [v for name, values in secrets.items() if name != p.name for v in values]
        assert not appearing(others, tl.view(state, p.name)), (p.name, others)
    if effects is not None:
        assert not appearing(everyone, effects), appearing(everyone, effects)
    # the JSON form is complete
    if round_trip:
        data = tl.to_json(state)
        assert tl.to_json(tl.from_json(json.loads(json.dumps(data)))) == data


def check_actions(state: tl.State, rng: random.Random, sample: int = 4) -> str | None:
    """Legal actions exist unless the game is over, and (a sample of) them apply."""
    legal = tl.legal_actions(state)
    who = tl.actor(state)
    if who == TERMINAL:
        assert legal == []
        return None
    assert legal, f"no legal action for {who} in {tl.to_json(state)}"
    if who == CHANCE:
        candidates = legal + [tl.sample_chance(state, rng)]
    else:
        candidates = rng.sample(legal, min(sample, len(legal)))
    before = snapshot(state)
    for action in candidates:
        try:
            tl.apply(state, action)
        except RuleError as exc:  # pragma: no cover - reported with the action
            raise AssertionError(f"legal action {action} refused: {exc}") from exc
    assert snapshot(state) == before, "apply changed its input state"
    return before  # the state's snapshot, for the caller's own check


def playout(seed: int, players: int, bots: list, options: dict, full: bool = True):
    rng = random.Random(seed)
    check_rng = random.Random(seed + 1)
    state = tl.new_game(NAMES[:players], options, PACK)
    seats = dict(zip(NAMES, bots, strict=False))
    check_invariants(state)
    actions = 0
    for _ in range(LIMIT):
        who = tl.actor(state)
        if who == TERMINAL:
            break
        before = check_actions(state, check_rng) if full else None
        if who == CHANCE:
            action = tl.sample_chance(state, rng)
        else:
            action = seats[who](tl, state, rng)
        new, effects = tl.apply(state, action)
        if full:
            assert snapshot(state) == before, f"apply({action}) changed its input state"
        json.dumps(action)
        json.dumps(effects)
        assert all(isinstance(e["text"], str) and e["text"] for e in effects)
        state = new
        actions += 1
        if full or actions % 50 == 0:
            check_invariants(state, effects, round_trip=actions % 10 == 0)
    else:
        raise AssertionError(f"game did not end within {LIMIT} actions")
    check_invariants(state)
    return state, actions


BOTS = {"random": random_bot, "timeline": timeline_bot}


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 7))
# Two games a player count (each run draws new ones): one six-player game with a random
# seat can take ten seconds with every invariant checked after every action.
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    random_seat=st.integers(min_value=0, max_value=6),
    b1=st.sampled_from([5, 3, 2]),
)
def test_playouts_keep_every_invariant_after_every_action(players, seed, random_seat, b1):
    """Sensible bots, one seat (perhaps none) played at random, every invariant every action."""
    bots = [random_bot if seat == random_seat else timeline_bot for seat in range(6)]
    state, _ = playout(seed, players, bots, {"b1_cards": b1})
    assert tl.is_terminal(state) and len(tl.winners(state)) == 1


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.integers(min_value=2, max_value=6),
)
def test_random_playouts_end_with_one_winner(seed, players):
    """Uniformly random players too (invariants every 50 actions: these games are long)."""
    state, actions = playout(seed, players, [random_bot] * 6, {"b1_cards": 2}, full=False)
    assert tl.is_terminal(state) and len(tl.winners(state)) == 1


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.integers(min_value=2, max_value=6),
)
def test_same_seed_same_game_and_the_actions_replay_it(seed, players):
    def run():
        rng = random.Random(seed)
        state = tl.new_game(NAMES[:players], {}, PACK)
        steps = list(play(tl, state, rng, bot=timeline_bot, limit=LIMIT))
        return [a for a, _, _ in steps], [e for _, _, e in steps], steps[-1][1]

    actions1, effects1, final1 = run()
    actions2, effects2, final2 = run()
    assert actions1 == actions2 and effects1 == effects2
    assert tl.to_json(final1) == tl.to_json(final2)
    state = tl.new_game(NAMES[:players], {}, PACK)
    for action in actions1:
        state, _ = tl.apply(state, action)
    assert tl.to_json(state) == tl.to_json(final1)


def test_different_seeds_give_different_games():
    games = set()
    for seed in range(5):
        rng = random.Random(seed)
        state = tl.new_game(NAMES[:3], {}, PACK)
        games.add(json.dumps([a for a, _, _ in play(tl, state, rng, bot=timeline_bot)]))
    assert len(games) == 5


def test_the_bot_beats_random_players():
    wins = 0
    games = 24
    for seed in range(games):
        rng = random.Random(seed)
        players = 2 + seed % 3
        state = tl.new_game(NAMES[:players], {}, PACK)
        seat = NAMES[seed % players]

        def mixed(rules, state, rng, seat=seat):
            who = rules.actor(state)
            return timeline_bot(rules, state, rng) if who == seat else random_bot(rules, state, rng)

        *_, (_, final, _) = play(tl, state, rng, bot=mixed, limit=LIMIT)
        wins += tl.winners(final) == [seat]
    assert wins >= games * 0.6, f"the bot won {wins} of {games} games"


def test_bots_only_games_finish_and_someone_wins():
    for seed in range(6):
        rng = random.Random(seed)
        state = tl.new_game(NAMES[: 2 + seed % 5], {}, PACK)
        *_, (_, final, _) = play(tl, state, rng, bot=timeline_bot, limit=LIMIT)
        assert tl.is_terminal(final) and len(tl.winners(final)) == 1
        assert final.turns < 1000


def test_the_bot_decides_only_on_what_its_player_may_know():
    """Swap the other players' hidden cards (and IDs) for other unseen ones: every decision the
    bot takes for its own player stays the same."""
    rng = random.Random(8)
    start = tl.new_game(NAMES[:3], {}, PACK)
    checked = 0
    for _, state, _ in play(tl, start, rng, bot=timeline_bot):
        who = tl.actor(state)
        if who in (CHANCE, TERMINAL) or len(tl.legal_actions(state)) < 2:
            continue
        top = state.stack[-1] if state.stack else {}
        if state.agenda[0]["step"] == "target" and state.content.card(top["card"]).get(
            "replay"
        ) == "deck":
            continue  # Quick Trip: the player looks through the draw pile, which the swap changes
        data = tl.to_json(state)
        located = {c for p in data["players"] for c in p["hand"] + p["items"]}
        located |= set(data["discard"]) | {e["card"] for e in data["stack"]}
        located |= {e["pick"] for e in data["stack"] if "pick" in e}
        unseen = [i for i in state.content.instances if i not in located]
        ids_out = {p["identity"] for p in data["players"]} | {
            i for p in data["players"] for i in p["aside"]}
        spare_ids = [i for i in state.content.identities if i not in ids_out]
        for p in data["players"]:
            if p["name"] != who:
                swap = min(len(p["hand"]), len(unseen))
                p["hand"][:swap], unseen[:swap] = unseen[:swap], p["hand"][:swap]
                if spare_ids and not p["shown"]:
                    p["identity"], spare_ids[0] = spare_ids[0], p["identity"]
        other = tl.from_json(data)
        assert tl.view(other, who) == tl.view(state, who)
        mine = timeline_bot(tl, state, random.Random(checked))
        assert timeline_bot(tl, other, random.Random(checked)) == mine
        checked += 1
    assert checked > 50


def test_the_bot_ends_a_turn_that_would_only_draw_back_the_same_cards() -> None:
    # Found by the playouts above: the draw pile out, and the discard pile nothing but two
    # "Draw 1, Play 2" cards, each drawing the other back; the bot played them for ever.
    bots = [timeline_bot, random_bot] + [timeline_bot] * 4
    state, actions = playout(634539, 2, bots, {"b1_cards": 2}, full=False)
    assert tl.is_terminal(state) and actions < 5_000
