"""The Card Game's own numbers for `companion bench engine --title timeline`.

- menu at the table: ``legal_actions`` + ``view`` for a six-player game recorded the table's
  way (no hidden card named, so every unseen card is on the menu): what a button press costs;
- bot games: whole games of the title's bot, 2-6 players;
- undo: rebuilding a 2,000-action game from its journal (UNDO replays the journal);
- at the table: whole bot games through the table's own menus (Session, Table, screens), 2, 4
  and 6 players: button presses per turn (every press counted: NEXT/PREV and CONFIRM) and the
  seconds a game takes with every screen drawn.
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
    table = table_games(say)
    return {
        **table,
        "bot_games": len(games),
        "bot_median_actions": statistics.median(lengths),
        "menu_ms": round(menu_ms, 3),
        "menu_choices": len(menu),
        "replay_actions": len(long_actions),
        "replay_ms": round(replay_ms, 1),
    }


def table_games(say, seeds: tuple[int, ...] = (1985, 7, 11)) -> dict[str, Any]:
    """Bot games through the table's menus: presses per turn and seconds per game."""
    presses = confirms = turns = 0
    seconds = []
    for players in (2, 4, 6):
        for seed in seeds:
            counted = table_game(players, seed)
            presses += counted["presses"]
            confirms += counted["confirms"]
            turns += counted["turns"]
            seconds.append(counted["seconds"])
    per_turn = presses / turns
    say(f"at the table: {len(seconds)} bot games through the menus, {per_turn:.1f} presses a "
        f"turn ({confirms / turns:.1f} of them CONFIRM), median {statistics.median(seconds):.2f}"
        f" s a game with every screen drawn")
    return {"table_presses_per_turn": round(per_turn, 2),
            "table_confirms_per_turn": round(confirms / turns, 2),
            "table_game_s_median": round(statistics.median(seconds), 2)}


def table_game(players: int, seed: int) -> dict[str, Any]:
    """One bot game through the table loop (no display): presses, turns and seconds."""
    from companion.journal import Journal
    from companion.session import Session
    from companion.sim import BOT_NAMES, ScriptedPresses
    from companion.table import Table
    from companion.titles.timeline.bots import TableBots

    class Counting(ScriptedPresses):
        count = 0
        confirms = 0

        def press(self, *names: str) -> None:
            self.count += len(names)
            self.confirms += names.count("confirm")
            super().press(*names)

    journal = Journal(":memory:")
    try:
        t0 = time.perf_counter()
        session = Session(journal, BOT_NAMES[:players], lambda key: demo_pack(key),
                          title="timeline")
        presses = Counting()
        bots = TableBots(session, None, presses, players, random.Random(seed))
        loop = Table(session, buttons=[presses], dwell_s=0.0)
        loop.boot()
        for _step in range(100_000):
            if session.match is not None and session.match.actor() == "terminal":
                break
            if not presses.pending:
                bots.act()
            loop.step()
            loop.flush()
        state = session.match.state
        return {"presses": presses.count, "confirms": presses.confirms, "turns": state.turns,
                "seconds": time.perf_counter() - t0, "winner": state.winner}
    finally:
        journal.close()
