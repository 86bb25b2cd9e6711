"""Back in Time's own numbers for `companion bench engine`: exact odds, and how often the bots
win with the demo pack."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

GAMES = 1000


def _odds_ms(layout, dice: list[str], need: dict[str, int]) -> float:
    from companion.titles.back_in_time import odds

    times = []
    for _ in range(7):
        odds._chance.cache_clear()
        odds._reroll_value.cache_clear()
        odds._roll_dist.cache_clear()
        t0 = time.perf_counter()
        odds.chance(layout, dice, need)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def win_rate(games: int = GAMES, say=print, seed: int = 0) -> dict[str, Any]:
    """Play ``games`` games with the cooperative bot on the demo pack, player counts 2, 3, 4 in
    turn; the share won, overall and per player count, and why the others were lost."""
    from companion.content import demo_pack
    from companion.titles.back_in_time import rules
    from companion.titles.back_in_time.bots import bot

    pack = demo_pack("back_in_time")
    won: dict[int, int] = {2: 0, 3: 0, 4: 0}
    played: dict[int, int] = {2: 0, 3: 0, 4: 0}
    reasons: dict[str, int] = {}
    actions = 0
    t0 = time.perf_counter()
    for game in range(games):
        rng = random.Random(seed + game)
        n = 2 + game % 3
        state = rules.new_game([f"P{i}" for i in range(n)], {}, pack)
        while not rules.is_terminal(state):
            if rules.actor(state) == "chance":
                action = rules.sample_chance(state, rng)
            else:
                action = bot(rules, state, rng)
            state, _ = rules.apply(state, action)
            actions += 1
        played[n] += 1
        if state.result == "won":
            won[n] += 1
        else:
            reasons[state.reason] = reasons.get(state.reason, 0) + 1
        if (game + 1) % 200 == 0:
            say(f"  ... {game + 1} games")
    elapsed = time.perf_counter() - t0
    return {
        "games": games,
        "won": sum(won.values()),
        "rate": sum(won.values()) / games,
        "by_players": {n: round(won[n] / played[n], 3) for n in played if played[n]},
        "lost_because": dict(sorted(reasons.items(), key=lambda kv: -kv[1])),
        "actions_per_s": actions / elapsed,
    }


def extras(say) -> dict[str, Any]:
    layout = {c: (c, c, c, "wild", "wild", "biff")
              for c in ("speed", "knowledge", "courage", "love")}
    small = _odds_ms(layout, ["love", "love"], {"love": 1})
    part = _odds_ms(layout, ["knowledge", "knowledge", "love"], {"knowledge": 3})
    worst = _odds_ms(layout, ["love", "love", "speed", "speed", "courage", "courage",
                              "knowledge", "knowledge"], {"knowledge": 3, "love": 2, "courage": 1})
    say(f"exact challenge odds, uncached: 2 dice {small:.2f} ms, a Part of 3 with 3 dice "
        f"{part:.2f} ms, 8 dice for three symbols {worst:.1f} ms")
    say(f"cooperative bots, {GAMES} games with the demo pack (2, 3, 4 players in turn):")
    rates = win_rate(GAMES, say)
    by = ", ".join(f"{n} players {r:.0%}" for n, r in rates["by_players"].items())
    say(f"  won {rates['won']} of {rates['games']} = {rates['rate']:.1%} ({by}); "
        f"{rates['actions_per_s']:,.0f} bot actions/s")
    for reason, count in rates["lost_because"].items():
        say(f"  lost {count}: {reason}")
    return {
        "odds_ms_2_dice": round(small, 3),
        "odds_ms_part_3": round(part, 3),
        "odds_ms_8_dice": round(worst, 1),
        "bot_games": rates["games"],
        "bot_win_rate": round(rates["rate"], 3),
        "bot_win_rate_by_players": rates["by_players"],
    }
