"""Bot players for the simulator, the benchmarks and the playout tests.

A bot is a function ``(engine, state, rng) -> action`` that picks one of the engine's legal
actions; chance outcomes come from ``engine.sample_chance``. Bots never see hidden information
beyond what their own player could see at the table.
"""

from __future__ import annotations

import random
from typing import Any

from companion.titles.api import CHANCE, Action
from companion.titles.outatime import rules as outatime


def random_bot(engine: Any, state: Any, rng: random.Random) -> Action:
    """Any legal action, uniformly: the harness for invariants and playouts."""
    return rng.choice(engine.legal_actions(state))


def outatime_bot(engine: Any, state: outatime.State, rng: random.Random) -> Action:
    """A plain, sensible OUTATIME player: take every useful die, push luck while it is cheap."""
    actions = engine.legal_actions(state)
    kinds = {a["type"] for a in actions}
    if kinds <= {"next", "target", "choose"}:
        if "target" in kinds:  # hit the opponent closest to winning
            return max(actions, key=lambda a: _standing(state, a["player"]))
        return actions[0]
    locks = [a for a in actions if a["type"] == "lock"]
    if locks:
        best = max(locks, key=lambda a: _lock_value(state, a["dice"]))
        if _lock_value(state, best["dice"]) > 0 or not ({"end", "reroll"} & kinds):
            return best
    if "doubleback" in kinds:
        return {"type": "doubleback"}
    odds = outatime.odds(state)
    if "reroll" in kinds and odds and odds["stall"] < 0.3:
        return {"type": "reroll"}
    return {"type": "end"} if "end" in kinds else rng.choice(actions)


def _standing(state: outatime.State, name: str) -> tuple[int, int]:
    p = state.player(name)
    return len(p.completed), p.progress


def _lock_value(state: outatime.State, dice: list[str]) -> float:
    """How good locking these dice now is: numbers advance, fluxes are due, 88s hunt paradoxes."""
    numbers = sum(1 for d in dice if d in outatime.NUMBERS)
    fluxes = dice.count(outatime.FLUX)
    eighty = dice.count(outatime.EIGHTY_EIGHT)
    board = state.delorean
    after_f = board.count(outatime.FLUX) + fluxes
    after_e = board.count(outatime.EIGHTY_EIGHT) + eighty
    paradox = after_f >= 2 and after_e >= 2
    value = numbers * 2 + fluxes * 0.5 + (3 if paradox else 0)
    if eighty and not paradox:
        value -= eighty * 0.75  # a free 88 is worth more in the hand than on the card
    return value


def play(engine: Any, state: Any, rng: random.Random, bot=outatime_bot, limit: int = 100_000):
    """Play to the end; yields (action, new_state, effects) for each step."""
    for _ in range(limit):
        who = engine.actor(state)
        if who == "terminal":
            return
        action = engine.sample_chance(state, rng) if who == CHANCE else bot(engine, state, rng)
        state, effects = engine.apply(state, action)
        yield action, state, effects
    raise RuntimeError(f"game did not end within {limit} actions")
