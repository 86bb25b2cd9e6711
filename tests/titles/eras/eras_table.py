"""Build era-game tables in a known position for rule scenarios (test cards, not printed ones).

``table`` plays the setup through the engine (events turned up, hands dealt), then lays out the
position a scenario needs (hands, boards, deck, clock tokens, the DeLorean) and lets each player
choose the role given, in seat order from the start player.
"""

from __future__ import annotations

from typing import Any

from companion.titles.api import CHANCE
from companion.titles.eras import rules

ERAS = rules.ERAS


def char(cid: str, role: str, era: str | int = "1985", power: int = 1, clocks: int = 1,
         vp: int = 1) -> dict[str, Any]:
    """A test character card."""
    return {"id": cid, "kind": "character", "role": role, "era": str(era), "power": power,
            "clocks": clocks, "vp": vp, "source": "demo"}


def filler(n: int, start: int = 0) -> list[dict[str, Any]]:
    """Plain deck cards: Biff, 2015, 1 power, 1 clock, 0 VP."""
    return [char(f"f{i:02d}", "biff", "2015", 1, 1, 0) for i in range(start, start + n)]


DEFAULT_EVENTS = {
    "1955": [("e55a", "marty", "clock-anyway"), ("e55b", "doc", "clock-anyway"),
             ("e55c", "george", "clock-anyway")],
    "1985": [("e85a", "lorraine", "none"), ("e85b", "biff", "none"), ("e85c", "jennifer", "none")],
    "2015": [("e15a", "doc", "none"), ("e15b", "marty", "none"), ("e15c", "george", "none")],
}
TOKENS = {"1955": [5, 4, 3], "1985": [4, 3, 2], "2015": [3, 2, 1]}


def table(
    players: tuple[str, ...] = ("Ana", "Ben"),
    *,
    hands: dict[str, list[dict[str, Any]]] | None = None,
    boards: dict[str, dict[str, list[dict[str, Any]]]] | None = None,
    roles: dict[str, str] | None = None,
    delorean: str = "1985",
    events: dict[str, list[tuple[str, str, str | None]]] | None = None,
    advanced: bool = False,
    deck: list[dict[str, Any]] | None = None,
    discard: list[dict[str, Any]] = (),
    clocks: dict[str, int] | None = None,
    options: dict[str, Any] | None = None,
    start: int = 0,
    resolve: bool = True,
) -> rules.State:
    """A table in the position described; the start player's turn once roles are chosen.

    ``events`` lists each era's events top first as (id, role, B side). With ``resolve``, the
    choices George's and Biff's powers ask for are made plainly (pass; the first victim).
    """
    hands = hands or {}
    boards = boards or {}
    clocks = clocks or {}
    deck = filler(20) if deck is None else deck
    entries: dict[str, dict[str, Any]] = {}

    def add(card: dict[str, Any]) -> str:
        entries[card["id"]] = card
        return card["id"]

    hand_ids = {name: [add(c) for c in hands.get(name, [])] for name in players}
    board_ids = {
        name: {era: [add(c) for c in boards.get(name, {}).get(era, [])] for era in ERAS}
        for name in players
    }
    deck_ids = [add(c) for c in deck]
    discard_ids = [add(c) for c in discard]
    spare = [add(c) for c in filler(len(players), start=90)]  # dealt, then out of the game
    event_list = {**DEFAULT_EVENTS, **(events or {})}
    content: list[dict[str, Any]] = list(entries.values())
    for era, evs in event_list.items():
        for eid, role, effect in evs:
            entry = {"id": eid, "kind": "event", "era": era, "role": role, "source": "demo"}
            if effect is not None:
                entry["effect"] = effect
            content.append(entry)
    for era, values in TOKENS.items():
        for i, value in enumerate(values):
            content.append({"id": f"vp{era[2:]}-{i + 1}", "kind": "vp", "era": era,
                            "value": value, "source": "demo"})
    opts = {"advanced": advanced, "hand": 1, **(options or {})}
    state = rules.new_game(list(players), opts, content)
    for era in ERAS:
        state, _ = rules.apply(state, {"type": "reveal", "era": era,
                                       "event": event_list[era][0][0]})
    for index, name in enumerate(players):
        state, _ = rules.apply(state, {"type": "deal", "player": name, "cards": [spare[index]]})
    data = rules.to_json(state)
    for p in data["players"]:
        p["hand"] = hand_ids[p["name"]]
        p["board"] = board_ids[p["name"]]
        p["clocks"] = clocks.get(p["name"], 0)
    data["pool"] = deck_ids
    data["deck"] = len(deck_ids)
    data["cards"] = {k: v for k, v in data["cards"].items() if k not in spare}
    data["discard"] = discard_ids
    data["delorean"] = delorean
    data["start"] = start
    state = rules.from_json(data)
    for offset in range(len(players) if roles else 0):
        name = players[(start + offset) % len(players)]
        if name not in roles:
            break
        state, _ = rules.apply(state, {"type": "role", "role": roles[name]})
        if not resolve and state.pending:
            break
        while resolve and state.pending and state.phase == "roles":
            state = settle(state)
            step = state.pending[0] if state.pending else None
            if step and step["step"] == "george":
                state, _ = rules.apply(state, {"type": "pass"})
            elif step and step["step"] == "steal":
                state, _ = rules.apply(state, {"type": "steal", "from": step["options"][0]})
    return state


def outcome(state: rules.State) -> dict[str, Any]:
    """The plain chance outcome: the first cards of the deck, the first event, the first card."""
    step = state.pending[0]
    if step["step"] == "reveal":
        return {"type": "reveal", "era": step["era"], "event": state.hidden[step["era"]][0]}
    if step["step"] == "stolen":
        return {"type": "stolen", "card": state.player(step["from"]).hand[0]}
    count = step["count"]
    cards = state.pool[: min(count, state.deck)]
    cards += state.discard[: count - len(cards)]
    return {"type": "draw" if step["why"] != "deal" else "deal", "player": step["player"],
            "cards": cards}


def settle(state: rules.State) -> rules.State:
    """Resolve every chance outcome due now, plainly."""
    while rules.actor(state) == CHANCE:
        state, _ = rules.apply(state, outcome(state))
    return state


def play(state: rules.State, *actions: dict[str, Any]) -> tuple[rules.State, list[dict]]:
    """Apply ``actions`` in order (chance outcomes in between, plainly); all the effects."""
    effects: list[dict] = []
    for action in actions:
        state, more = rules.apply(state, action)
        effects += more
        while rules.actor(state) == CHANCE:
            state, more = rules.apply(state, outcome(state))
            effects += more
    return state, effects


def texts(effects: list[dict]) -> str:
    return "\n".join(e["text"] for e in effects)


def types(state: rules.State) -> set[str]:
    return {a["type"] for a in rules.legal_actions(state)}


def counted(state: rules.State, *names: str) -> rules.State:
    """The same table as the companion knows it at the table: the named players' hands are
    counts of unseen cards (their cards back among the unplaced ones)."""
    data = rules.to_json(state)
    for p in data["players"]:
        if p["name"] in names:
            data["pool"] += p["hand"]
            p["unseen"] += len(p["hand"])
            p["hand"] = []
    return rules.from_json(data)


def unnamed(action: dict[str, Any], state: rules.State | None = None) -> dict[str, Any]:
    """``action`` as the table records it: drawn, stolen and ripple cards not named; a "keep"
    as the cards given back (``state``: the state it applies to)."""
    out = dict(action)
    kind = out["type"]
    if kind in ("deal", "draw"):
        out.pop("cards", None)
    elif kind in ("stolen", "ripple"):
        out.pop("card", None)
    elif kind == "keep" and "cards" in out:
        drawn = state.pending[0]["drawn"]
        out = {"type": "keep", "discard": [c for c in drawn if c not in out["cards"]]}
    return out
