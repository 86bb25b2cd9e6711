"""A cooperative Back in Time player for the simulator, the playouts and the win-rate benchmark.

Everything on the table is public in Back in Time; the bot reads only what lies open there
(movers, meters, tiles, items, face-up cards), never what is left in a pile. At each decision
it picks the team's most valuable goal it can reach this turn with its face-up tiles: bring
George and Lorraine together and Influence Love (first, while Love is below the Heart Zone),
fetch the Parts, drive the DeLorean, knock Biff down when he is close to the couple, take the
Opportunities and Troubles worth having. It keeps the tiles whose dice the goal needs, moves
with the others, and rolls as the exact odds say.
Pure: no I/O, and its only randomness is the ``rng`` it is given (here: none is needed).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from companion.titles.api import Action
from companion.titles.back_in_time import odds
from companion.titles.back_in_time.data import BIFF, INF, PARTS, WILD

# The seats at the simulated table: names no character or mover of this game carries.
SEAT_NAMES = ("Ana", "Ben", "Cleo", "Dev")

REWARD = {"tile": 2.0, "item": 1.5, "love": 4.0, "delorean": 3.0, "photo": 5.0, "biff": -2.0}


@dataclass
class Goal:
    place: str
    challenge: Action
    colour: str
    value: float
    need: int = 1
    escort: str | None = None  # bring this NPC to ``place`` first


def bot(rules, state, rng: random.Random) -> Action:
    """The action a sensible cooperative player takes now."""
    actions = rules.legal_actions(state)
    kinds = {a["type"] for a in actions}
    if "character" in kinds:
        return actions[0]
    if "discard" in kinds:
        return min(actions, key=lambda a: _tile_worth(state.content.tiles[a["tile"]]))
    ch = state.challenge
    if ch is not None:
        if ch["stage"] == "dice":
            return _choose_dice(rules, state, actions)
        return _after_roll(rules, state, actions)
    return _turn(rules, state, actions)


def _tile_worth(tile: dict[str, Any]) -> float:
    return tile["move"] + (2 if tile["die"] else 0) + (3 if tile["modifier"] else 0)


# --------------------------------------------------------------------------- planning


def _goals(rules, state) -> list[Goal]:
    c = state.content
    npcs = state.npcs
    goals: list[Goal] = []
    love = state.love
    if love < rules.TOP:
        value = 12.0 + max(0, 13 - love) if love < 13 else 2.5
        if npcs["george"] == npcs["lorraine"]:
            goals.append(Goal(npcs["george"], {"type": "challenge", "challenge": "love"},
                              "love", value))
        else:
            for who, other in (("george", "lorraine"), ("lorraine", "george")):
                goals.append(Goal(npcs[other], {"type": "challenge", "challenge": "love"},
                                  "love", value * 0.9, escort=who))
    missing = [p for p in PARTS if p not in state.parts]
    for part in missing:
        value = 6.0 + (4 if state.delorean == c.doc_index else 0)
        goals.append(Goal(c.part_place[part], {"type": "challenge", "challenge": "part",
                                               "part": part}, "knowledge", value,
                          need=c.part_cost[part]))
    room = rules.delorean_limit(state) - state.delorean
    if room > 0:
        ready = state.delorean in c.ready
        value = 2.0 if ready else 5.0 if state.delorean < c.doc_index else 8.0
        goals.append(Goal(c.track[state.delorean], {"type": "challenge",
                                                    "challenge": "delorean"}, "speed", value))
    if not state.biff_down:
        biff = npcs["biff"]
        threat = min(c.npc_dist[npcs["george"]][biff], c.npc_dist[npcs["lorraine"]][biff])
        value = 7.0 if threat <= 1 else 4.0 if threat <= 3 else 1.0
        goals.append(Goal(biff, {"type": "challenge", "challenge": "biff"}, "courage", value))
    for card in state.opportunities:
        entry = c.opportunity[card]
        goal = _card_goal(state, entry, {"type": "challenge", "challenge": "opportunity",
                                         "card": card})
        if goal:
            goals.append(goal)
    if state.trouble:
        entry = c.trouble[state.trouble]
        goal = _card_goal(state, entry, {"type": "challenge", "challenge": "trouble",
                                         "card": state.trouble}, bonus=1.0)
        if goal:
            goals.append(goal)
    return goals


def _card_goal(state, entry, challenge: Action, bonus: float = 0.0) -> Goal | None:
    value = bonus
    for term in entry["reward"]:
        kind = term.rstrip("+-0123456789").split(":")[0]
        if kind == "photo" and state.photos >= 6:
            continue
        value += REWARD.get(kind, 1.0)
    if value <= 0 or len(entry["need"]) != 1:
        return None
    (symbol, n), = entry["need"].items()
    return Goal(entry["place"], challenge, symbol, value, need=n)


def _die_tiles(state, p, colour: str) -> list[tuple[str, str]]:
    """The player's face-up (kind, id) giving a ``colour`` die, fewest moves first."""
    c = state.content
    tiles = sorted((c.tiles[t]["move"], t) for t in p.tiles
                   if t not in p.down and c.tiles[t]["die"] == colour)
    out = [("tile", t) for _m, t in tiles]
    out += [("item", i) for i in p.items if i not in p.items_down
            and c.items[i]["kind"] == "die" and c.items[i]["arg"] == colour]
    return out[:2]


def _move_sources(state, p, keep: set[str]) -> list[tuple[int, str, str]]:
    c = state.content
    out = [(c.tiles[t]["move"], "tile", t) for t in p.tiles
           if t not in p.down and t not in keep and c.tiles[t]["move"]]
    out += [(c.items[i]["arg"], "item", i) for i in p.items
            if i not in p.items_down and c.items[i]["kind"] == "move"]
    return out


def _distance(state, p, goal: Goal) -> int:
    c = state.content
    if goal.escort:
        here = state.npcs[goal.escort]
        if state.moving and state.moving["escort"] == goal.escort:
            return c.npc_dist[goal.place][p.place]
        return c.dist[p.place][here] + c.npc_dist[goal.place][here]
    return c.dist[p.place][goal.place]


def _plan(rules, state) -> tuple[Goal, float, list[tuple[str, str]]] | None:
    p = state.current
    layout = state.content.faces
    best = None
    budget = state.moving["left"] if state.moving else 0
    for goal in _goals(rules, state):
        dice = _die_tiles(state, p, goal.colour)
        if not dice:
            continue
        colours = [goal.colour] * len(dice)
        if goal.need > len(dice):  # wilds on dice of other colours must make up the rest
            for other in sorted(layout):
                if other != goal.colour and len(dice) <= goal.need:
                    extra = _die_tiles(state, p, other)[:1]
                    dice += extra
                    colours += [other] * len(extra)
        keep = {ident for _k, ident in dice}
        capacity = budget + sum(m for m, _k, _i in _move_sources(state, p, keep))
        if p.character == "doc" and not state.power_used and \
                goal.place == rules.delorean_place(state) and not goal.escort:
            capacity = max(capacity, INF)
        d = _distance(state, p, goal)
        if d >= INF:
            continue
        chance = odds.chance(layout, colours, {goal.colour: goal.need})
        if capacity >= d:
            score = goal.value * chance - 0.05 * d
        else:
            score = goal.value * chance * 0.3 * capacity / d - 0.05 * d
        if best is None or score > best[1]:
            best = (goal, score, dice)
    return best


# --------------------------------------------------------------------------- the turn


def _turn(rules, state, actions: list[Action]) -> Action:
    p = state.current
    plan = _plan(rules, state)
    power = _power(rules, state, actions, plan)
    if power is not None:
        return power
    if plan is None or plan[1] <= 0:
        return _stop_or_end(state)
    goal, _score, dice = plan
    if p.place == goal.place and (not goal.escort or state.npcs[goal.escort] == p.place):
        if goal.challenge in actions:
            return goal.challenge
        return _stop_or_end(state)
    mv = state.moving
    if mv is not None:
        if goal.escort and mv["escort"] != goal.escort and state.npcs[goal.escort] == p.place:
            if mv["escort"]:
                return {"type": "drop"}
            return {"type": "escort", "who": goal.escort}
        if mv["left"] > 0:
            step = _next_step(state, goal)
            if step is not None and {"type": "step", "to": step} in actions:
                return {"type": "step", "to": step}
    keep = {ident for _k, ident in dice}
    sources = _move_sources(state, p, keep)
    if sources:
        need = _distance(state, p, goal)
        fitting = [s for s in sources if s[0] >= need]
        value, kind, ident = min(fitting) if fitting else max(sources)
        return {"type": "move", kind: ident}
    return _stop_or_end(state)


def _next_step(state, goal: Goal) -> str | None:
    c = state.content
    p = state.current
    mv = state.moving
    if goal.escort and mv["escort"] == goal.escort:
        dist, nbr = c.npc_dist[goal.place], c.npc_nbr
    elif goal.escort:
        dist, nbr = c.dist[state.npcs[goal.escort]], c.nbr
    else:
        dist, nbr = c.dist[goal.place], c.nbr
    if mv["escort"] and mv["escort"] != goal.escort:
        nbr = c.npc_nbr
    for n in nbr[p.place]:
        if dist[n] < dist[p.place]:
            return n
    return None


def _stop_or_end(state) -> Action:
    return {"type": "stop"} if state.moving else {"type": "end"}


def _power(rules, state, actions: list[Action], plan) -> Action | None:
    powers = [a for a in actions if a["type"] == "power"]
    if not powers:
        return None
    p = state.current
    c = state.content
    npcs = state.npcs
    goal = plan[0] if plan else None
    if p.character == "doc":
        if goal and goal.place == rules.delorean_place(state) and not goal.escort \
                and c.dist[p.place][goal.place] > 1:
            return powers[0]
        return None
    if p.character == "marty":
        if npcs["george"] == p.place and npcs["lorraine"] != p.place:
            return min(powers, key=lambda a: c.npc_dist[p.place][a["to"]])
        return None
    if p.character == "einstein":
        if state.biff_down:
            return None
        now = min(c.npc_dist[npcs["george"]][npcs["biff"]],
                  c.npc_dist[npcs["lorraine"]][npcs["biff"]])
        best = max(powers, key=lambda a: min(c.npc_dist[npcs["george"]][a["to"]],
                                             c.npc_dist[npcs["lorraine"]][a["to"]]))
        after = min(c.npc_dist[npcs["george"]][best["to"]],
                    c.npc_dist[npcs["lorraine"]][best["to"]])
        return best if now <= 2 and after > now else None
    if p.character == "jennifer" and goal is not None:
        # call a teammate who holds the dice this goal needs to where the challenge is
        if p.place == goal.place and not goal.escort:
            helpers = [a for a in powers if a["to"] == p.place
                       and _die_tiles(state, state.player(a["who"]), goal.colour)]
            if helpers:
                return helpers[0]
    return None


# --------------------------------------------------------------------------- the roll


def _choose_dice(rules, state, actions: list[Action]) -> Action:
    ch = state.challenge
    layout = state.content.faces
    need, symbol, room = rules.need_of(state, ch)
    active = state.current
    mine = [d for d in ch["dice"] if d["player"] == active.name]
    colours = [d["colour"] for d in ch["dice"]]
    adds = [a for a in actions if a["type"] == "add"]
    wanted = set(need)

    def colour_of(a: Action) -> str:
        if "tile" in a:
            return state.content.tiles[a["tile"]]["die"]
        return state.content.items[a["item"]]["arg"]

    def cheap(a: Action) -> float:
        q = state.player(a.get("player", active.name))
        move = state.content.tiles[a["tile"]]["move"] if "tile" in a else 0
        return move + (0.5 if q is not active else 0)

    useful = sorted((a for a in adds if colour_of(a) in wanted), key=cheap)
    if symbol is not None and room <= sum(1 for col in colours if col == symbol) * 0.8:
        useful = []  # enough dice for the room left on the board
    if useful:
        own = [a for a in useful if "player" not in a]
        if own or mine:
            return own[0] if own else useful[0]
    if symbol is None and mine:
        now = odds.chance(layout, colours, need)
        best, gain = None, 0.08
        for a in adds:
            after = odds.chance(layout, colours + [colour_of(a)], need)
            if after - now > gain:
                best, gain = a, after - now
        if best is not None:
            return best
    if {"type": "ready"} in actions:
        return {"type": "ready"}
    return {"type": "cancel"}


def _after_roll(rules, state, actions: list[Action]) -> Action:
    ch = state.challenge
    need, symbol, room = rules.need_of(state, ch)
    faces = [d["face"] for d in ch["dice"]]
    met = odds.meets(faces, need)
    rerolls = [a for a in actions if a["type"] == "reroll"]
    if rerolls:
        proposal = rules.odds_now(state)
        if proposal and proposal["reroll"] and (symbol is not None or not met):
            return {"type": "reroll", "dice": proposal["reroll"]}
    for a in actions:
        if a["type"] != "modify" or a.get("player"):
            continue
        source = state.content.tiles[a["tile"]]["modifier"] if "tile" in a else \
            state.content.items[a["item"]]["kind"]
        if source == "wild":
            d = ch["dice"][a["die"]]
            if d["face"] in need or d["face"] in (WILD, BIFF):
                continue
            if symbol is None and not met:
                trial = list(faces)
                trial[a["die"]] = WILD
                if odds.meets(trial, need):
                    return a
            elif symbol is not None and odds.count(faces, symbol) < room and \
                    (symbol != "love" or state.love < 13):
                return a
    return {"type": "resolve"}


def __getattr__(name: str) -> Any:
    """``TableBots`` (the seats at the simulated table, in ``seats.py``) is imported only when
    asked for, so this pure bot never pulls in the simulator and the camera."""
    if name == "TableBots":
        from companion.titles.back_in_time.seats import TableBots

        return TableBots
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
