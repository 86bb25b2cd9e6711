"""A sensible era-game player for the simulator, the benchmarks and the tests.

It sees what its player sees: its own hand and ripple cards, every board, the events in play,
the counts of the other hands. It completes events first, plays cards that fill an empty era
or bring the role an event needs, moves the DeLorean only when that opens a good play, keeps
its high-VP cards, and takes a clock tower token on a quiet turn.

    >>> import random
    >>> from companion.content import demo_pack
    >>> from companion.titles.eras import rules
    >>> state = rules.new_game(["Ana", "Ben"], {}, demo_pack("eras"))
    >>> rng = random.Random(1)
    >>> while rules.actor(state) == "chance":
    ...     state, _ = rules.apply(state, rules.sample_chance(state, rng))
    >>> bot(rules, state, rng)["type"]
    'role'
"""

from __future__ import annotations

import random
from typing import Any

from companion.sim import SeatBots
from companion.titles.api import CHANCE, Action
from companion.titles.eras import rules as eras

# The seats at the simulated table: names no role of this game carries (a seat called Marty
# taking the role of Doc read "MARTY / DOC" on the panel).
SEAT_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")


def bot(rules: Any, state: eras.State, rng: random.Random) -> Action:
    """The action this player takes now (one of ``rules.legal_actions(state)``)."""
    actions = rules.legal_actions(state)
    step = state.pending[0] if state.pending else None
    if step is not None:
        return _decide(state, step, actions)
    if state.phase == "roles":
        return max(actions, key=lambda a: (_role_value(state, a["role"]), rng.random()))
    return _turn(rules, state, actions, rng)


# --------------------------------------------------------------------------- roles


def _role_value(state: eras.State, role: str) -> float:
    p = state.current
    cards = [state.cards[c] for c in p.hand]
    own = [c for c in cards if c["role"] == role]
    value = sum(1 + c["vp"] * 0.5 for c in own if _reachable(state, c))
    needs = {state.events[e]["role"] for e in state.top.values() if e}
    on_board = {state.cards[c]["role"] for era in eras.ERAS for c in p.board[era]}
    if role in needs and role not in on_board and own:
        value += 2
    if role == "jennifer":
        value = max(value, sum(0.8 + c["vp"] * 0.4 for c in cards if _reachable(state, c)))
    elif role == "doc":
        value += 1.5
    elif role == "george":
        value += 1.2 if eras.held(p) < 6 else 0.4
    elif role == "biff":
        value += 1.5 if any(eras.held(q) >= 3 for q in state.players if q is not p) else 0
    elif role == "lorraine":
        value += 2 if _lorraine_fix(state, p) else 0.2
    elif role == "marty" and own:
        value += max(c["clocks"] for c in own) * 0.5
    return value


def _reachable(state: eras.State, card: dict[str, Any]) -> bool:
    return card["era"] in (eras.ANY, state.delorean) or eras.held(state.current) >= 5


def _lorraine_fix(state: eras.State, p: eras.Player) -> bool:
    """Would moving one played card fill the one empty era of the board?"""
    empty = [era for era in eras.ERAS if not p.board[era]]
    if len(empty) != 1:
        return False
    return any(len(p.board[n]) >= 2 for n in eras.ADJACENT[empty[0]])


# --------------------------------------------------------------------------- the turn


def _turn(rules: Any, state: eras.State, actions: list[Action], rng: random.Random) -> Action:
    p = state.current
    by_type: dict[str, list[Action]] = {}
    for a in actions:
        by_type.setdefault(a["type"], []).append(a)
    if "complete" in by_type:
        return max(by_type["complete"], key=lambda a: _event_vp(state, a["event"]))
    for a in by_type.get("shift", []):
        if _shift_fills(p, a):
            return a
    plays = by_type.get("play", [])
    if plays:
        best = max(plays, key=lambda a: _play_value(state, a))
        if _play_value(state, best) > 0 or eras.held(p) >= 6:
            return best
    if state.turn["moves"] == 0 and "move" in by_type:
        move = _good_move(rules, state, by_type["move"])
        if move is not None:
            return move
    if "clock" in by_type:
        return {"type": "clock"}
    refuel = _refuel(state, by_type.get("move", []))
    if refuel is not None:
        return refuel
    return {"type": "end"}


def _refuel(state: eras.State, moves: list[Action]) -> Action | None:
    """With few cards left, end the turn where the refill is biggest (if the trip is cheap)."""
    p = state.current
    refill = dict(zip(eras.ERAS, state.options["refill"], strict=True))
    best = max(eras.ERAS, key=lambda era: refill[era])
    if eras.held(p) >= 4 or refill[best] <= refill[state.delorean] or state.turn["moves"] > 1:
        return None
    cheap = (p.role == "doc" and not state.turn["doc"]) or p.clocks or eras.held(p) >= 2
    return {"type": "move", "to": best} if cheap and {"type": "move", "to": best} in moves else None


def _event_vp(state: eras.State, event: str) -> int:
    era = state.events[event]["era"]
    stack = state.stacks[era]
    return state.vps[stack[0]]["value"] if stack else 0


def _shift_fills(p: eras.Player, action: Action) -> bool:
    to = action["to"]
    here = next(era for era in eras.ERAS if action["card"] in p.board[era])
    return not p.board[to] and len(p.board[here]) >= 2


def _play_value(state: eras.State, action: Action) -> float:
    p = state.current
    card = state.cards[action["card"]]
    era = action["era"]
    cost = eras.play_cost(state, action["card"], era)
    value = card["vp"] + (3 if not p.board[era] else 0)
    needs = {state.events[e]["role"] for e in state.top.values() if e}
    on_board = {state.cards[c]["role"] for e in eras.ERAS for c in p.board[e]}
    if card["role"] in needs and card["role"] not in on_board:
        value += 2.5
    spend = 0 if cost["free"] else cost["time"]
    return value - spend * 0.7 - cost["ripple"][0] * 0.3 - 0.5


def _good_move(rules: Any, state: eras.State, moves: list[Action]) -> Action | None:
    """A trip that opens a play worth more than the cards the trip costs."""
    p = state.current
    free = p.role == "doc" and not state.turn["doc"]
    if not free and eras.held(p) < 5:
        return None
    best, best_value = None, 0.0
    for move in moves:
        after = _after_move(rules, state, move)
        if after is None:
            continue
        plays = [a for a in rules.legal_actions(after) if a["type"] == "play"]
        if not plays:
            continue
        value = max(_play_value(after, a) for a in plays) - (0 if free else 1.5)
        if value > best_value:
            best, best_value = move, value
    return best


def _after_move(rules: Any, state: eras.State, move: Action) -> eras.State | None:
    """The state after the trip, paid the way this bot pays."""
    try:
        state, _ = rules.apply(state, move)
        while state.pending and state.pending[0]["step"] == "pay":
            step = state.pending[0]
            state, _ = rules.apply(state, _decide(state, step, rules.legal_actions(state)))
    except eras.RuleError:
        return None
    return state


# --------------------------------------------------------------------------- small decisions


def _decide(state: eras.State, step: dict[str, Any], actions: list[Action]) -> Action:
    kind = step["step"]
    p = state.player(step["player"]) if "player" in step and not step.get("chance") else None
    if kind == "pay":
        return min(actions, key=lambda a: _pay_cost(state, step, a["with"]))
    if kind == "ripple":
        cards = [a for a in actions if a["type"] == "ripple"]
        if step["paid"] >= step["low"] and (eras.held(p) < 4 or not cards):
            return {"type": "pass"}
        return max(cards, key=lambda a: _ripple_worth(state, p, a.get("card")))
    if kind == "use":
        return min(actions, key=lambda a: state.cards[a["card"]]["vp"])
    if kind == "keep":
        if "discard" in actions[0]:  # the cards drawn are unseen: give back the least worth
            return min(actions, key=lambda a: sum(_keep_worth(state, c) for c in a["discard"]))
        return max(actions, key=lambda a: sum(_keep_worth(state, c) for c in a["cards"]))
    if kind == "george":
        worst = min((a for a in actions if a["type"] == "discard"),
                    key=lambda a: _keep_worth(state, a["card"]), default=None)
        if worst is not None and _keep_worth(state, worst["card"]) < 2:
            return worst
        return {"type": "pass"}
    if kind == "steal":
        return max(actions, key=lambda a: eras.held(state.player(a["from"])))
    if kind == "extra":
        return {"type": "extra"}
    return actions[0]


def _pay_cost(state: eras.State, step: dict[str, Any], item: str) -> tuple[float, int]:
    """How much paying with ``item`` hurts (lower is better)."""
    if item == "free":
        return (-10.0, 0)
    if item == "clock":
        return (2.5, 0)  # a token is a point at the end
    card = state.cards[item]
    value = card["power"] if step["unit"] == "power" else card["clocks"]
    waste = max(0, value - step["due"])
    return (card["vp"] + waste * 0.3 - value * 0.2, -value)


def _ripple_worth(state: eras.State, p: eras.Player, card_id: str | None) -> float:
    """Ripple cards score their VP at the end: lay down VP that is hard to play."""
    if card_id is None:
        return 0.0  # a card the companion has not seen
    card = state.cards[card_id]
    playable = p.role in (card["role"], "jennifer")
    return card["vp"] - (2 if playable else 0)


def _keep_worth(state: eras.State, card_id: str) -> float:
    card = state.cards[card_id]
    return card["vp"] + card["clocks"] * 0.5 + card["power"] * 0.3


# --------------------------------------------------------------------------- at the table


def at_the_table(action: Action, world: eras.State) -> Action:
    """``action`` of a game where every card is named (``world``, the state it applies to) as
    the table records it: drawn cards, Biff's card and ripple cards unnamed, a "keep" as the
    card given back."""
    kind = action["type"]
    if kind in ("deal", "draw"):
        return {"type": kind, "player": action["player"]}
    if kind == "stolen":
        return {"type": "stolen", "from": action["from"]}
    if kind == "ripple":
        return {"type": "ripple"}
    if kind == "keep" and "cards" in action:
        drawn = world.pending[0]["drawn"]
        return {"type": "keep", "discard": [c for c in drawn if c not in action["cards"]]}
    return dict(action)


class TableBots(SeatBots):
    """Bot players at the simulated table, each with real cards in hand.

    The cards are the simulator's: it keeps the game with every card named (``world``: the
    deck's order, what each bot drew), as the cards on a real table are. The companion records
    what a real table records: draws, Biff's card and ripple cards counted, never named. Each
    bot decides with its own hand (``bot`` on the world), finds that choice in the OLED menus
    (NEXT or PREV, CONFIRM, step by step) and, when the game is over, adds up the VP of its
    ripple cards. After every recorded action the public table of the companion and of the
    world must be the same (``mismatches`` lists any difference).
    """

    last: TableBots | None = None  # the bots of the latest game (for the benchmark's numbers)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        TableBots.last = self
        self.world: eras.State | None = None
        self.mirrored = 0  # recorded actions mirrored in the world
        self._mirrored_state: eras.State | None = None  # the table's state when last mirrored
        self.plan: tuple[Action, Action] | None = None  # (world action, table action)
        self.attempts = 0
        self.pressed = 0  # button presses for the game's decisions
        self.mismatches: list[str] = []

    def press(self, *names: str) -> None:
        self.pressed += len(names)
        self.presses.press(*names)

    def decide(self, prompt, actor: str) -> None:
        match = self.session.match
        self._mirror(match)
        if self.plan is None:
            world_action = self._choose_in_world(match)
            self.plan = (world_action, at_the_table(world_action, self.world))
            self.attempts = 0
        self.attempts += 1
        if self.plan[1] == {"type": "end"}:
            self.press("end")  # the END TURN button
            return
        table = self.session.table
        menu = table.menu()
        index = table.route(self.plan[1]) if menu is not None else None
        if index is None or self.attempts > 40:
            raise RuntimeError(f"no way through the menus to {self.plan[1]!r} "
                               f"(menu {menu.title if menu else None!r})")
        n = len(menu.labels)
        forward, backward = (index - menu.selected) % n, (menu.selected - index) % n
        moves = ["next"] * forward if forward <= backward else ["prev"] * backward
        self.press(*moves, "confirm")

    def _choose_in_world(self, match) -> Action:
        engine = match.engine
        if engine.is_terminal(self.world):  # the table adds up the ripple cards
            step = match.state.pending[0]
            vp = engine.score(self.world, self.world.player(step["player"]))["ripple"]
            return {"type": "tally", "vp": vp}
        if engine.actor(self.world) == CHANCE:
            return engine.sample_chance(self.world, self.rng)
        return bot(engine, self.world, self.rng)

    def _mirror(self, match) -> None:
        """Bring the world up to the actions the table recorded (each one the plan)."""
        engine = match.engine
        if self.world is None:
            from companion.match import setup_content

            setup = match.setup
            self.world = engine.new_game(setup["players"], setup.get("options", {}),
                                         setup_content(setup))
        if match.state is self._mirrored_state:
            return  # nothing recorded since (the journal proves its whole chain each read)
        recorded = self.session.journal.actions(match.game)
        while self.mirrored < len(recorded):
            action = recorded[self.mirrored]
            if self.plan is None or action != self.plan[1]:
                raise RuntimeError(f"the table recorded {action!r}, the bot meant "
                                   f"{self.plan[1] if self.plan else None!r}")
            if not engine.is_terminal(self.world):
                self.world, _effects = engine.apply(self.world, self.plan[0])
            self.plan = None
            self.mirrored += 1
            self._compare(match)
        self._mirrored_state = match.state

    def _compare(self, match) -> None:
        if match.engine.is_terminal(self.world):
            return
        seen, truth = match.view(), match.engine.view(self.world)
        if seen != truth:
            keys = sorted(k for k in truth if seen.get(k) != truth.get(k))
            self.mismatches.append(f"after action {self.mirrored}: {', '.join(keys)}")
