"""Build OUTATIME tables in a known position for rule scenarios (test cards, not printed ones)."""

from __future__ import annotations

from companion.titles.outatime import rules as outatime

DEFAULT_STEPS = {
    "02": [2, 3, 4],
    "03a": [3, 3, 5, 2],
    "03b": [4, 5, 2, 3],
    "04": [5, 4, 3, 2, 2],
    "td": [2, 5, 3, 4],
}
# Everyone but the first player starts each card with a 5, so a test's rolls ripple to them
# only where it says so.
OTHER_STEPS = {
    "02": [5, 2, 3],
    "03a": [5, 3, 3, 4],
    "03b": [5, 4, 4, 2],
    "04": [5, 2, 2, 3, 3],
    "td": [5, 5, 2, 2],
}
KIND = {"02": "0.2", "03a": "0.3", "03b": "0.3", "04": "0.4", "td": "td"}


def card_id(player: str, slot: str) -> str:
    return f"{player}-{slot}"


def make_table(
    players: tuple[str, ...] = ("Ana", "Ben"),
    steps: dict[str, dict[str, list[int]]] | None = None,
    active: str = "02",
    next_: str = "03a",
    options: dict | None = None,
) -> outatime.State:
    """Deal every player the five test cards and choose Active/Next; Ana (first) is to roll."""
    steps = steps or {}
    cards = []
    for index, name in enumerate(players):
        defaults = DEFAULT_STEPS if index == 0 else OTHER_STEPS
        for slot, default in defaults.items():
            cards.append({
                "id": card_id(name, slot),
                "kind": KIND[slot],
                "steps": steps.get(name, {}).get(slot, default),
                "source": "demo",
            })
    state = outatime.new_game(list(players), options or {}, cards)
    for name in players:
        state, _ = outatime.apply(
            state, {"type": "deal", "player": name, "cards": [card_id(name, s) for s in KIND]}
        )
    for name in players:
        state, _ = outatime.apply(state, {
            "type": "choose", "player": name,
            "active": card_id(name, active), "next": card_id(name, next_),
        })
    return state


def play(state: outatime.State, *actions: dict) -> tuple[outatime.State, list[dict]]:
    """Apply actions in order; returns the last state and all effects."""
    effects: list[dict] = []
    for action in actions:
        state, more = outatime.apply(state, action)
        effects.extend(more)
    return state, effects


def roll(*dice) -> dict:
    return {"type": "roll", "dice": [str(d) for d in dice]}


def lock(*dice, **extra) -> dict:
    return {"type": "lock", "dice": [str(d) for d in dice], **extra}


END = {"type": "end"}
REROLL = {"type": "reroll"}
DOUBLEBACK = {"type": "doubleback"}


def progress(state: outatime.State, name: str) -> tuple[int, int]:
    """(cards completed, step on the Active card)."""
    p = state.player(name)
    return len(p.completed), p.progress


def kinds(effects: list[dict]) -> list[str]:
    return [e["kind"] for e in effects]
