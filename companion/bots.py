"""Bot players for the simulator, the benchmarks and the playout tests.

A bot is a function ``(engine, state, rng) -> action`` that picks one of the engine's legal
actions; chance outcomes come from ``engine.sample_chance``. Bots never see hidden information
beyond what their own player could see at the table. Each title's own sensible bot is
``bot`` in ``companion/titles/<key>/bots.py``; ``random_bot`` serves every title.
"""

from __future__ import annotations

import random
from typing import Any

from companion.titles.api import CHANCE, Action


def random_bot(engine: Any, state: Any, rng: random.Random) -> Action:
    """Any legal action, uniformly: the harness for invariants and playouts."""
    return rng.choice(engine.legal_actions(state))


def play(engine: Any, state: Any, rng: random.Random, bot=random_bot, limit: int = 100_000):
    """Play to the end; yields (action, new_state, effects) for each step."""
    for _ in range(limit):
        who = engine.actor(state)
        if who == "terminal":
            return
        action = engine.sample_chance(state, rng) if who == CHANCE else bot(engine, state, rng)
        state, effects = engine.apply(state, action)
        yield action, state, effects
    raise RuntimeError(f"game did not end within {limit} actions")
