"""Random OUTATIME playouts (2-6 players, two bots), invariants checked after every action."""

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
from companion.titles.outatime import rules as outatime
from companion.titles.outatime.bots import bot as outatime_bot

NAMES = ["Ana", "Ben", "Cat", "Dan", "Eve", "Fay"]
LIMIT = 20_000
PACK = demo_pack("outatime")
BOTS = {"random_bot": random_bot, "outatime_bot": outatime_bot}


def snapshot(state: outatime.State) -> str:
    """A deep, independent copy of the whole state (to_json shares the cards dict)."""
    return json.dumps(outatime.to_json(state), sort_keys=True)


def check_invariants(state: outatime.State, dealt: dict[str, list[str]]) -> None:
    data = outatime.to_json(state)
    phase = data["phase"]
    delorean, roll = data["delorean"], data["roll"]

    # the six dice are always accounted for
    if phase in ("place", "over"):  # a game ends while dice are being placed
        assert len(delorean) + len(roll) == 6, data
    else:
        assert len(delorean) <= 6 and roll == [], data
        if phase in ("deal", "choose"):
            assert delorean == [], data
    assert all(f in outatime.FACES for f in delorean + roll)

    # every player's five dealt cards are partitioned among hand / active / next / completed
    seen: list[str] = []
    for p in data["players"]:
        held = list(p["hand"]) + list(p["completed"])
        held += [c for c in (p["active"], p["next"]) if c is not None]
        assert Counter(held) == Counter(dealt.get(p["name"], [])), (p, dealt)
        seen += held
        # progress stays on the Active card
        if p["active"] is None:
            assert p["progress"] == 0, p
        else:
            assert 0 <= p["progress"] < len(state.cards[p["active"]]["steps"]), p
        assert len(p["completed"]) <= 5
        assert p["carry"] >= 0
    assert len(seen) == len(set(seen)), "a card is held by two players"

    # at most one winner, and only at the end
    won = outatime.winners(state)
    terminal = outatime.actor(state) == TERMINAL
    assert len(won) <= 1
    assert bool(won) == terminal == (phase == "over")
    if won:
        winner = state.player(won[0])
        assert len(winner.completed) == 5
        assert all(len(p.completed) < 5 for p in state.players if p is not winner)

    # the JSON form is complete
    assert outatime.to_json(outatime.from_json(json.loads(json.dumps(data)))) == data


def check_actions(state: outatime.State, rng: random.Random) -> str | None:
    """Legal actions exist unless the game is over, and every one of them applies."""
    legal = outatime.legal_actions(state)
    who = outatime.actor(state)
    if who == TERMINAL:
        assert legal == []
        return None
    assert legal, f"no legal action for {who} in {outatime.to_json(state)}"
    if who == CHANCE:  # templates; a sampled outcome must apply
        candidates = [outatime.sample_chance(state, rng)]
    else:
        candidates = legal
    before = snapshot(state)
    for action in candidates:
        try:
            outatime.apply(state, action)
        except RuleError as exc:  # pragma: no cover - reported with the action
            raise AssertionError(f"legal action {action} refused: {exc}") from exc
    assert snapshot(state) == before, "apply changed its input state"
    return before  # the state's snapshot, for the caller's own check


def playout(seed: int, players: int, bot) -> tuple[list[dict], outatime.State]:
    rng = random.Random(seed)
    check_rng = random.Random(seed + 1)
    state = outatime.new_game(NAMES[:players], {}, PACK)
    dealt: dict[str, list[str]] = {}
    actions = []
    check_invariants(state, dealt)
    for _ in range(LIMIT):
        who = outatime.actor(state)
        if who == TERMINAL:
            break
        before = check_actions(state, check_rng)
        action = outatime.sample_chance(state, rng) if who == CHANCE else bot(outatime, state, rng)
        new, effects = outatime.apply(state, action)
        assert snapshot(state) == before, f"apply({action}) changed its input state"
        assert isinstance(effects, list)
        json.dumps(action)
        json.dumps(effects)  # the journal and the OLED take them as JSON
        if action["type"] == "deal":
            dealt[action["player"]] = list(action["cards"])
        actions.append(action)
        state = new
        check_invariants(state, dealt)
    else:
        raise AssertionError(f"game did not end within {LIMIT} actions")
    check_actions(state, check_rng)
    assert len(dealt) == players
    return actions, state


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.integers(min_value=2, max_value=6),
    bot=st.sampled_from(sorted(BOTS)),
)
def test_random_playouts_keep_every_invariant(seed, players, bot):
    actions, state = playout(seed, players, BOTS[bot])
    assert outatime.actor(state) == TERMINAL
    assert len(outatime.winners(state)) == 1


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.integers(min_value=2, max_value=6),
    bot=st.sampled_from(sorted(BOTS)),
)
def test_same_seed_same_game(seed, players, bot):
    def run():
        rng = random.Random(seed)
        state = outatime.new_game(NAMES[:players], {}, PACK)
        steps = list(play(outatime, state, rng, bot=BOTS[bot], limit=LIMIT))
        return [a for a, _, _ in steps], [e for _, _, e in steps], steps[-1][1]

    actions1, effects1, final1 = run()
    actions2, effects2, final2 = run()
    assert actions1 == actions2
    assert effects1 == effects2
    assert outatime.to_json(final1) == outatime.to_json(final2)
    # and replaying the recorded actions, with no randomness at all, reaches the same end
    state = outatime.new_game(NAMES[:players], {}, PACK)
    for action in actions1:
        state, _ = outatime.apply(state, action)
    assert outatime.to_json(state) == outatime.to_json(final1)


def test_different_seeds_give_different_games():
    games = set()
    for seed in range(5):
        rng = random.Random(seed)
        state = outatime.new_game(NAMES[:3], {}, PACK)
        games.add(json.dumps([a for a, _, _ in play(outatime, state, rng)]))
    assert len(games) == 5


def test_both_options_play_out():
    """The first_roll_stalls option changes the game but keeps every invariant."""
    for option in (False, True):
        rng = random.Random(77)
        start = outatime.new_game(NAMES[:4], {"first_roll_stalls": option}, PACK)
        dealt: dict[str, list[str]] = {}
        for action, state, _ in play(outatime, start, rng, bot=random_bot, limit=LIMIT):
            if action["type"] == "deal":
                dealt[action["player"]] = list(action["cards"])
            check_invariants(state, dealt)
        assert state.options["first_roll_stalls"] is option
        assert len(outatime.winners(state)) == 1
