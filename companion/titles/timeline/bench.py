"""The Card Game's own numbers for `companion bench engine --title timeline`.

- menu at the table: ``legal_actions`` + ``view`` for a six-player game recorded the table's
  way (no hidden card named, so every unseen card is on the menu): what a button press costs;
- bot games: whole games of the title's bot, 2-6 players;
- undo: rebuilding a 2,000-action game from its journal (UNDO replays the journal).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from companion.bots import play
from companion.content import demo_pack
from companion.match import make_setup, replay
from companion.titles.timeline import rules as tl
from companion.titles.timeline.bots import bot

PLAYERS = ["P0", "P1", "P2", "P3", "P4", "P5"]


def _as_the_table_records(action: dict[str, Any]) -> dict[str, Any]:
    if action["type"] in ("draw", "deal_id"):
        return {k: v for k, v in action.items() if k not in ("card", "id")}
    return action


def extras(say) -> dict[str, Any]:
    pack = demo_pack("timeline")

    # Bot games, every player count.
    rng = random.Random(3)
    lengths, turns = [], []
    games = []
    t0 = time.perf_counter()
    for n in range(20):
        players = PLAYERS[: 2 + n % 5]
        state = tl.new_game(players, {}, pack)
        actions = [a for a, _, _ in play(tl, state, rng, bot=bot)]
        games.append((players, actions))
        lengths.append(len(actions))
    bot_s = time.perf_counter() - t0
    for players, actions in games:
        state = tl.new_game(players, {}, pack)
        for a in actions:
            state, _ = tl.apply(state, a)
        turns.append(state.turns)
    say(
        f"bot games: {len(games)} games in {bot_s:.2f} s (median {statistics.median(lengths)} "
        f"actions, {statistics.median(turns)} turns)"
    )

    # The menu at the table: a six-player game recorded without naming hidden cards.
    six = next(actions for players, actions in games if len(players) == 6)
    state = tl.new_game(PLAYERS, {}, pack)
    for index, action in enumerate(six):  # to a play half way through the game
        if index > len(six) // 2 and state.agenda[0]["step"] == "play":
            break
        state, _ = tl.apply(state, _as_the_table_records(action))
    times = []
    for _ in range(200):
        t1 = time.perf_counter()
        menu = tl.legal_actions(state)
        tl.view(state)
        times.append((time.perf_counter() - t1) * 1000)
    menu_ms = statistics.median(times)
    say(f"menu at the table (6 players, hands as counts): {len(menu)} choices, "
        f"legal_actions + view median {menu_ms:.3f} ms")

    # UNDO rebuilds the game from its journal: a 2,000-action game, replayed.
    long_actions: list[dict[str, Any]] = []
    players = PLAYERS[:6]
    while len(long_actions) < 2000:
        for p, actions in games:
            if len(p) == 6 and len(actions) > len(long_actions):
                long_actions, players = actions, p
        if len(long_actions) < 2000:
            state = tl.new_game(players, {}, pack)
            actions = [a for a, _, _ in play(tl, state, rng, bot=bot)]
            games.append((players, actions))
    setup = make_setup("timeline", players, {}, pack)
    t2 = time.perf_counter()
    replay(setup, long_actions)
    replay_ms = (time.perf_counter() - t2) * 1000
    say(f"undo: a {len(long_actions)}-action game rebuilt from its journal in {replay_ms:.1f} ms")
    return {
        "bot_games": len(games),
        "bot_median_actions": statistics.median(lengths),
        "menu_ms": round(menu_ms, 3),
        "menu_choices": len(menu),
        "replay_actions": len(long_actions),
        "replay_ms": round(replay_ms, 1),
    }
