"""A sensible Card Game player for the simulator, the tests and the playouts.

The bot sees only what its player may know: the printed contents (the content pack), the public
table and its own hand and ID card, all through ``view(state, me)``. It fixes its own history
first (each flip judged by how many Linchpin flips its ID still needs), keeps useful Items,
cancels cards that would hurt it, and goes for B-1 once its ID is met.

    >>> import random
    >>> from companion.content import demo_pack
    >>> from companion.titles.timeline import rules
    >>> state = rules.new_game(["Ana", "Ben"], {}, demo_pack("timeline"))
    >>> rng = random.Random(1)
    >>> while rules.actor(state) == "chance":
    ...     state, _ = rules.apply(state, rules.sample_chance(state, rng))
    >>> bot(rules, state, rng)["type"] in ("keep", "mulligan")
    True
"""

from __future__ import annotations

import random
from typing import Any

from companion.sim import SeatBots
from companion.titles.api import CHANCE, Action
from companion.titles.timeline.graph import B1


class _Mind:
    """What the bot's player knows, and how flips would serve them."""

    def __init__(self, rules: Any, state: Any, me: str):
        self.rules = rules
        self.me = me
        self.view = rules.view(state, me)
        self.content = state.content  # the printed cards: public
        self.graph = self.content.graph
        self.altered = frozenset(
            e for e in self.view["altered"] if self.graph.kind(e) == "linchpin"
        )
        ident = self.view["me"]["identity"]
        self.requires = ident["requires"] if ident else {}
        self.distance = self._distance(self.altered)

    def _distance(self, altered: frozenset[str]) -> int:
        if not self.requires:
            return 0
        d = self.graph.distance(altered, self.requires)
        return 99 if d is None else d

    @property
    def met(self) -> bool:
        return bool(self.requires) and self.distance == 0

    def gain(self, event: str) -> float:
        """How much flipping ``event`` brings this player closer to their ID (B-1: to winning)."""
        if event == B1:
            if self.met:
                return 10.0
            return -1.0  # someone else might win: not worth it before one's own ID is met
        return float(self.distance - self._distance(self.altered ^ {event}))

    def card(self, inst: str) -> dict[str, Any]:
        return self.content.entry[inst]


def bot(rules: Any, state: Any, rng: random.Random) -> Action:
    """The action this bot's player takes now (never called for chance)."""
    actions = rules.legal_actions(state)
    if len(actions) == 1:
        return actions[0]
    me = rules.actor(state)
    mind = _Mind(rules, state, me)
    step = mind.view["waiting"]["step"]
    if step == "mulligan":
        start = mind._distance(frozenset())
        return actions[1] if start >= 3 else actions[0]  # keep, unless far from home
    if step == "claim":
        claims = [a for a in actions if a["type"] == "claim"]
        if claims and mind.met:
            return claims[0]
        passes = [a for a in actions if a["type"] == "pass"]
        return passes[0] if passes else claims[0]
    if step == "respond":
        return _respond(mind, actions, rng)
    if step == "target":
        return max(actions, key=lambda a: (_target_value(mind, a), rng.random()))
    if step == "use":
        best = max(actions, key=lambda a: (_target_value(mind, a), rng.random()))
        return best if best["type"] == "use" and _target_value(mind, best) > 0 else actions[-1]
    if step == "play":
        return _play(mind, actions, rng)
    return rng.choice(actions)


def _target_value(mind: _Mind, action: Action) -> float:
    if action["type"] in ("skip", "pass"):
        return 0.0
    if "event" in action:
        return mind.gain(action["event"])
    if "item" in action:
        card = mind.card(action["item"])
        return 2.0 if card.get("memo") else 1.0
    if "pick" in action:
        return _card_value(mind, action["pick"])
    return 0.0


def _best_flip(mind: _Mind, card: dict[str, Any]) -> float:
    if card["type"] == "doubleback":
        return mind.gain(card["linchpin"])
    only, never = card.get("only"), card.get("never", ())
    best = -1.0
    for event in mind.content.linchpins:
        if event in never or (only and event not in only):
            continue
        best = max(best, mind.gain(event))
    return best


def _card_value(mind: _Mind, inst: str) -> float:
    """How good playing this card now is for the bot's player."""
    card = mind.card(inst)
    kind = card["type"]
    value = 0.0
    if kind in ("time_machine", "doubleback") or card.get("hitch"):
        value = 3.0 * _best_flip(mind, card)
        if value <= 0:
            return -1.0  # keep it for later
    elif kind == "item":
        value = 1.5 if card.get("memo") or card.get("draw_bonus") else 1.0
    elif card.get("steal") or card.get("trash"):
        value = 1.2
    elif card.get("replay"):
        value = 1.0
    elif mind.view["deck"] == 0 and all(_only_draws(mind.card(c)) for c in mind.view["discard"]):
        # The draw pile is out and the discard pile, shuffled into the next one, holds only
        # cards like this: playing it draws one of them back, and the turn never ends.
        return 0.0
    value += 0.8 * card.get("extra_play", 0) + 0.4 * card.get("draw", 0)
    return value


def _only_draws(card: dict[str, Any]) -> bool:
    """A card whose only effect is more plays or more cards."""
    return card["type"] not in ("time_machine", "doubleback", "item") and not any(
        card.get(k) for k in ("hitch", "steal", "trash", "replay"))


def _play(mind: _Mind, actions: list[Action], rng: random.Random) -> Action:
    plays = [a for a in actions if a["type"] == "play"]
    if not plays:
        return actions[-1]
    scored = [(_card_value(mind, a["card"]), rng.random(), a) for a in plays]
    value, _, best = max(scored, key=lambda t: (t[0], t[1]))
    if value <= 0.5:
        return actions[-1]  # the second draw option: nothing worth playing now
    return best


def _respond(mind: _Mind, actions: list[Action], rng: random.Random) -> Action:
    """Cancel what hurts: a flip away from home, a B-1 try before one's own ID is met, or a
    Memo against one's own card. Otherwise pass (or draw with an out-of-turn card)."""
    stack = mind.view["stack"]
    top = stack[-1]
    memos = [a for a in actions if a["type"] == "memo"]
    harmful = False
    if top["kind"] == "memo":
        harmful = stack[-2]["player"] == mind.me
    elif top["kind"] == "use":
        harmful = mind.gain(top["event"]) < 0 or top["event"] == B1
    else:
        card = mind.card(top["card"])
        event = top.get("event") or (card["linchpin"] if card["type"] == "doubleback" else None)
        if event == B1:
            harmful = not mind.met
        elif event is not None:
            harmful = mind.gain(event) < 0
        elif top.get("item") and any(i["card"] == top["item"] for i in
                                     mind.view["players"][_seat(mind)]["items"]):
            harmful = True
    if harmful and memos:
        return memos[0]
    extras = [a for a in actions if a["type"] == "play"]
    if extras and rng.random() < 0.5:
        return extras[0]
    return actions[-1]


def _seat(mind: _Mind) -> int:
    return [p["name"] for p in mind.view["players"]].index(mind.me)


# --------------------------------------------------------------------------- at the table


def wants_new_id(rules: Any, state: Any, player: str) -> bool:
    """Would ``player``'s bot take another ID card (only from what that player knows)?"""
    mind = _Mind(rules, state, player)
    return bool(mind.requires) and mind._distance(frozenset()) >= 3


class TableBots(SeatBots):
    """The Card Game's seats: each bot walks the table's menus like a player (type, card,
    target; its name, then its Memo), knowing its own hand, and the simulated deck names the
    cards it draws (the table's ``dealer``: a demo is a simulation).

    Decisions the table takes for several players at once are asked of each of them in seat
    order, each from their own view: the Memo window (does anyone play a Memo?) and the
    identity mulligan (does anyone take another ID card?).
    """

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._plan: tuple[Any, list[str]] | None = None  # (state, menu items still to pick)

    def act(self) -> None:
        table = self.session.table
        if table is not None and getattr(table, "dealer", False) is None:
            match = self.session.match
            table.dealer = lambda state: match.engine.sample_chance(state, self.rng)
        super().act()

    def decide(self, prompt, actor: str) -> None:
        match = self.session.match
        state = match.state
        if self._plan is None or self._plan[0] is not state or not self._plan[1]:
            self._plan = (state, self.session.table.path(self._action(match)))
        label = self._plan[1].pop(0)
        prompt = self.session.prompt()
        if label not in prompt.options:
            raise RuntimeError(f"the table offers no {label!r} in {prompt.title}: "
                               f"{prompt.options}")
        self._pick_option(prompt, label)

    def _pick_option(self, prompt, label: str) -> None:
        """Select ``label`` the short way round (NEXT or PREV), then CONFIRM, as a person
        would."""
        index = prompt.options.index(label) if label in prompt.options else 0
        ahead = (index - prompt.selected) % len(prompt.options)
        back = len(prompt.options) - ahead
        presses = ["next"] * ahead if ahead <= back else ["prev"] * back
        self.presses.press(*presses, "confirm")

    def _action(self, match) -> Action:
        """The whole decision now, as one action (the table asks for it in steps)."""
        engine, state = match.engine, match.state
        step = state.agenda[0]["step"]
        if match.actor() == CHANCE:
            return engine.sample_chance(state, self.rng)
        if step == "mulligan":
            for s in state.agenda:
                if s["step"] == "mulligan" and wants_new_id(engine, state, s["player"]):
                    return {"type": "mulligan", "player": s["player"]}
            return {"type": "keep"}
        if step == "respond":
            return self._response(engine, state)
        return _with_target(engine, state, bot(engine, state, self.rng), self.rng)

    def _response(self, engine: Any, state: Any) -> Action:
        """Each player asked, in seat order, from their own view: a Memo or a card, or pass
        (nobody plays one: the table records one pass for all)."""
        pending = len(state.stack)
        while (state.phase != "over" and state.agenda and state.agenda[0]["step"] == "respond"
               and len(state.stack) == pending):
            answer = bot(engine, state, self.rng)
            if answer["type"] != "pass":
                return _with_target(engine, state, answer, self.rng)
            state, _effects = engine.apply(state, answer)
        return {"type": "pass"}


def _with_target(engine: Any, state: Any, action: Action, rng: random.Random) -> Action:
    """A play with the target its bot would choose next (the table asks for both at once)."""
    if action["type"] != "play":
        return action
    content = state.content
    card = action["card"]
    inst = card if card in content.entry else content.copies[card][0]
    if not content.target[content.card_id[inst]]:
        return action
    after, _effects = engine.apply(state, action)
    target = bot(engine, after, rng)
    return {**action, **{k: v for k, v in target.items() if k in ("event", "item", "pick")}}
