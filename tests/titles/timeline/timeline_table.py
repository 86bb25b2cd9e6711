"""Build Card Game tables in a known position for rule scenarios (a test pack, not printed cards).

The TimeLine is the rulebook's example row (A-2 and A-3, their ripples A-4 and A-6, the AND pair
A-5) plus invented events: an OR pair (C-3 from C-1 or B-4), a Linchpin only the Almanac's
holder may flip (B-2), and the events Verne Brown's ID names (A-1, C-5).
"""

from __future__ import annotations

from typing import Any

from companion.titles.timeline import rules as tl


def event(eid: str, kind: str = "ripple", ripples=(), **extra: Any) -> dict[str, Any]:
    out = {"id": eid, "kind": kind, "original": f"{eid} original", "altered": f"{eid} altered",
           "source": "demo", **extra}
    if ripples:
        out["ripples"] = list(ripples)
    return out


EVENTS = [
    event("A-1", "linchpin", ["B-6"]),
    event("A-2", "linchpin", ["A-6", "A-5"]),
    event("A-3", "linchpin", ["A-4", "A-5"]),
    event("A-4"),
    event("A-5", pair="and"),
    event("A-6"),
    event("B-2", "linchpin", ["B-3"], holder="almanac"),
    event("B-3"),
    event("B-4", "linchpin", ["B-5", "C-3"]),
    event("B-5"),
    event("B-6"),
    event("C-1", "linchpin", ["C-2", "C-3"]),
    event("C-2"),
    event("C-3", pair="or"),
    event("C-4", "linchpin", ["C-5"]),
    event("C-5"),
]

IDS = [
    {"id": "verne", "character": "Verne Brown",
     "requires": {"A-1": "altered", "A-5": "altered", "C-5": "original"}, "source": "rulebook"},
    {"id": "jay", "character": "Jay", "requires": {"A-6": "altered", "B-5": "altered",
                                                  "C-2": "original"}, "source": "demo"},
    {"id": "kim", "character": "Kim", "requires": {"A-4": "altered", "B-3": "altered",
                                                  "C-5": "original"}, "source": "demo"},
    {"id": "lou", "character": "Lou", "requires": {"A-6": "original", "C-2": "altered",
                                                  "C-5": "altered"}, "source": "demo"},
    {"id": "max", "character": "Max", "requires": {"A-4": "original", "B-6": "altered",
                                                  "C-3": "altered"}, "source": "demo"},
    {"id": "ned", "character": "Ned", "requires": {"A-1": "original", "A-6": "altered",
                                                  "C-2": "altered"}, "source": "demo"},
    {"id": "ola", "character": "Ola", "requires": {"A-2": "altered", "A-3": "altered",
                                                  "B-6": "original"}, "source": "demo"},
]


def card(cid: str, kind: str, count: int = 1, **extra: Any) -> dict[str, Any]:
    return {"id": cid, "name": cid.replace("-", " ").title(), "type": kind, "count": count,
            "source": "demo", **extra}


CARDS = [
    card("time-train", "time_machine", extra_play=1),
    card("tm", "time_machine", 3),
    card("tm-no-b1", "time_machine", never=["B-1"]),
    card("tm-a2-only", "time_machine", only=["A-2"]),
    card("tm-plutonium", "time_machine", needs="plutonium"),
    card("hitch", "action", 2, hitch=True),
    card("memo", "power_action", 3, memo=True),
    card("fax", "item", memo=True),
    card("telegram", "item", memo=True),
    card("almanac", "item"),
    card("plutonium", "item"),
    card("ravine-map", "item"),
    card("db-a2", "doubleback", linchpin="A-2", item="ravine-map"),
    card("db-b2", "doubleback", linchpin="B-2", item="almanac"),
    card("rewind", "power_action", 2, replay="discard"),
    card("quick-trip", "power_action", replay="deck"),
    card("steal", "action", 2, steal=True),
    card("trash", "action", trash=True),
    card("draw-2", "action", 2, draw=2),
    card("play-2", "action", extra_play=1),
    card("insight", "power_action", out_of_turn=True, draw=2),
    card("snatch", "power_action", out_of_turn=True, steal=True),
    card("reactor", "item", draw_bonus=1),
    card("rock", "item", 12),
]


def sections(events=None, ids=None, cards=None) -> dict[str, list[dict[str, Any]]]:
    return {"event": list(events or EVENTS), "identity": list(ids or IDS),
            "card": list(cards or CARDS)}


def do(state: tl.State, *actions: dict[str, Any]) -> tuple[tl.State, list[dict[str, Any]]]:
    """Apply the actions in turn; returns the state and every effect, in order."""
    effects: list[dict[str, Any]] = []
    for action in actions:
        state, more = tl.apply(state, action)
        effects += more
    return state, effects


def kinds(effects) -> list[str]:
    return [e["kind"] for e in effects]


def texts(effects) -> list[str]:
    return [e["text"] for e in effects]


def make_table(
    players: tuple[str, ...] = ("Ana", "Ben"),
    hands: dict[str, list[str]] | None = None,
    ids: dict[str, str | None] | None = None,
    options: dict | None = None,
    content: dict | None = None,
    first_draw: str | None = "rock",
) -> tl.State:
    """Deal the named cards (rocks for the rest) and IDs, everyone keeps; Ana has drawn
    ``first_draw`` (None: her first draw is still to come) and is to play."""
    hands = hands or {}
    ids = ids if ids is not None else {name: IDS[i]["id"] for i, name in enumerate(players)}
    state = tl.new_game(list(players), options or {}, content or sections())
    for round_ in range(3):
        for name in players:
            hand = hands.get(name, [])
            cardname = hand[round_] if round_ < len(hand) else "rock"
            state, _ = tl.apply(state, {"type": "draw", "player": name, "card": cardname})
    for name in players:
        action = {"type": "deal_id", "player": name}
        if ids.get(name):
            action["id"] = ids[name]
        state, _ = tl.apply(state, action)
    state, _ = tl.apply(state, {"type": "keep"})
    if first_draw is not None:
        state, _ = tl.apply(state, {"type": "draw", "player": players[0], "card": first_draw})
    return state


def give(state: tl.State, name: str, *cards: str) -> tl.State:
    """Put cards straight into a hand (from the draw pile) to set up a scenario."""
    data = tl.to_json(state)
    for p in data["players"]:
        if p["name"] == name:
            for c in cards:
                copies = state.content.copies.get(c, [c])
                located = tl._located(tl.from_json(data))
                inst = next(i for i in copies if i not in located)
                p["hand"].append(inst)
                data["deck"] -= 1
    return tl.from_json(data)


def place(state: tl.State, name: str, *items: str) -> tl.State:
    """Put Items straight in front of a player (from the draw pile) to set up a scenario."""
    data = tl.to_json(state)
    for p in data["players"]:
        if p["name"] == name:
            for c in items:
                copies = state.content.copies.get(c, [c])
                located = tl._located(tl.from_json(data))
                inst = next(i for i in copies if i not in located)
                p["items"].append(inst)
                data["deck"] -= 1
    return tl.from_json(data)


def set_altered(state: tl.State, *linchpins: str) -> tl.State:
    data = tl.to_json(state)
    data["altered"] = sorted(linchpins)
    return tl.from_json(data)


def play(name: str, card_id: str, **target: Any) -> dict[str, Any]:
    return {"type": "play", "player": name, "card": card_id, **target}


PASS = {"type": "pass"}  # nobody plays a Memo
