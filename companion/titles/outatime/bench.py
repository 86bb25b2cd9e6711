"""OUTATIME's own numbers for `companion bench engine`: exact stall odds, a long journal replay."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.content import Pack
from companion.journal import Journal
from companion.titles.outatime import rules as outatime


def _dawdle(engine, state, rng: random.Random):
    """A player in no hurry (numbers only when nothing else goes), so a game lasts long."""
    actions = engine.legal_actions(state)
    locks = [a for a in actions if a["type"] == "lock"]
    flux_only = [a for a in locks if set(a["dice"]) == {"flux"}]
    no_numbers = [a for a in locks if not set(a["dice"]) & {"2", "3", "4", "5"}]
    ends = [a for a in actions if a["type"] == "end"]
    return rng.choice(ends or flux_only or no_numbers or actions)


def extras(say) -> dict[str, Any]:
    from companion.match import Match

    # Exact stall odds, cold (cache cleared) for six dice: the worst case.
    times = []
    for _ in range(20):
        outatime.reroll_odds.cache_clear()
        t0 = time.perf_counter()
        outatime.reroll_odds(6, (3, 4, 2, 5, 5, 2))
        times.append((time.perf_counter() - t0) * 1000)
    odds_ms = statistics.median(times)
    say(f"exact reroll odds, 6 dice, uncached: median {odds_ms:.3f} ms")

    # A 2,000-action journal: one long game (long invented cards so it lasts), then replayed.
    long_cards = [
        {"id": f"bench-{kind}-{i}", "kind": kind, "steps": [2, 3, 4, 5] * 3, "source": "demo"}
        for kind, count in (("0.2", 6), ("0.3", 12), ("0.4", 6), ("td", 6))
        for i in range(count)
    ]

    pack = Pack("outatime", "bench", "demo", cards=long_cards)  # for the benchmark only

    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        journal = Journal(path)
        n = 0
        while n < 2000:  # as many recorded games as it takes to reach 2,000 actions
            match = Match.new(journal, "outatime", [f"P{i}" for i in range(6)], {}, pack)
            while match.actor() != "terminal":
                if match.actor() == "chance":
                    action = outatime.sample_chance(match.state, rng)
                else:
                    action = _dawdle(outatime, match.state, rng)
                match.state, _ = outatime.apply(match.state, action)
                journal.append(match.game, action)  # journal only: the replay is what is timed
                n += 1
        journal.close()
        t0 = time.perf_counter()
        journal = Journal(path)
        games = [Match(journal, g["id"]) for g in journal.games()]
        replay_ms = (time.perf_counter() - t0) * 1000
        n = sum(len(journal.actions(g.game)) for g in games)
        journal.close()
    say(
        f"journal replay: {n} actions in {len(games)} games read and replayed in {replay_ms:.1f} ms"
    )
    return {
        "stall_odds_ms": round(odds_ms, 3),
        "replay_actions": n,
        "replay_ms": round(replay_ms, 1),
    }
