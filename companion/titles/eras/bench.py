"""The era game's own numbers for `companion bench engine`: games between sensible bots (their
length in actions and rounds, their speed) and the replay of 2,000 recorded actions from a
journal."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.content import demo_pack
from companion.journal import Journal
from companion.titles.eras import bots
from companion.titles.eras import rules as eras


def extras(say) -> dict[str, Any]:
    from companion.match import Match, make_setup

    pack = demo_pack("eras")
    rng = random.Random(11)
    games = []  # (players, options, actions)
    rounds = []
    start = time.perf_counter()
    for game in range(20):  # 2-6 players, basic and advanced rules
        players = [f"P{i}" for i in range(2 + game % 5)]
        options = {"advanced": game % 2 == 1}
        state = eras.new_game(players, options, pack)
        actions = []
        while eras.actor(state) != "terminal":
            if eras.actor(state) == "chance":
                action = eras.sample_chance(state, rng)
            else:
                action = bots.bot(eras, state, rng)
            state, _ = eras.apply(state, action)
            actions.append(action)
        games.append((players, options, actions))
        rounds.append(state.round)
    played = time.perf_counter() - start
    lengths = [len(actions) for _, _, actions in games]
    say(
        f"bot games: {len(games)} games, median {statistics.median(lengths)} actions and "
        f"{statistics.median(rounds)} rounds, {sum(lengths) / played:,.0f} actions/s with the "
        "sensible bot"
    )

    with tempfile.TemporaryDirectory() as tmp:  # games up to 2,000 actions, recorded, replayed
        path = Path(tmp) / "bench.sqlite3"
        journal = Journal(path)
        recorded = 0
        for players, options, actions in games:
            if recorded >= 2000:
                break
            recorded += len(actions)
            game = journal.new_game("eras", make_setup("eras", players, options, pack))
            for action in actions:
                journal.append(game, action)
        journal.close()
        t0 = time.perf_counter()
        journal = Journal(path)
        matches = [Match(journal, g["id"]) for g in journal.games()]
        replay_ms = (time.perf_counter() - t0) * 1000
        replayed = sum(len(journal.actions(m.game)) for m in matches)
        journal.close()
    say(f"journal replay: {replayed} actions in {len(matches)} games read and replayed in "
        f"{replay_ms:.1f} ms")
    table = _table_game(say)
    return {
        **table,
        "bot_game_actions_median": statistics.median(lengths),
        "bot_game_rounds_median": statistics.median(rounds),
        "replay_actions": replayed,
        "replay_ms": round(replay_ms, 1),
    }


def _table_game(say) -> dict[str, Any]:
    """A 4-player bot game through the table (session, menus, screens, journal), the cards
    counted as at a real table: its time and the presses it took."""
    import io

    from companion.sim import run_demo

    journal = Journal(":memory:")
    summary = run_demo(journal, 4, 1985, None, stream=io.StringIO(), title="eras")
    game = journal.games()[-1]["id"]
    turns = sum(1 for a in journal.actions(game) if a["type"] == "end")
    journal.close()
    pressed = bots.TableBots.last.pressed
    say(f"table game: 4 players through the menus, {summary['actions']} actions in "
        f"{summary['seconds']} s; {pressed} presses = {pressed / turns:.1f} a turn "
        f"({pressed / summary['actions']:.1f} a recorded action)")
    return {"table_game_s": summary["seconds"], "table_presses_per_turn": round(pressed / turns, 1),
            "table_presses_per_action": round(pressed / summary["actions"], 2)}
