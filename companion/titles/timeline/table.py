"""The Card Game at the table: every decision is a short menu, and hidden cards stay hidden.

The companion never sees a hand: a draw is recorded as "a card was drawn" and an ID card as
"an ID card was dealt". The menus are built from what the whole table knows (the cards in the
discard pile, in front of players and being played), never from a hand, so the public OLED
shows no secret even in a simulation, where the engine knows every hand.

What a player does, step by step:

- **Setup**: one CONFIRM when the cards and ID cards are dealt; then the identity mulligan
  (ALL KEEP, or a player takes another ID card).
- **Draw**: "ANA: DRAW 1", CONFIRM once the card is in the hand.
- **Play**: the card by type, then by name, then its target (a Linchpin, shown with the cards
  its flip would turn over and a map; an Item; a card to replay). A card the rules refuse says
  why and the menu stays. "DRAW INSTEAD" (or END TURN) is the second draw option.
- **Memo window**: while a card is pending, CONFIRM means nobody plays a Memo; any player
  raises one from the menu (their name, then the Memo, the Memo Item or the out-of-turn card)
  or with a long press (MENU).
- **B-1**: the top B-1 card turned over is entered from a menu (Mysterious Forces or the
  clock), with the odds that it is the clock.
- **Claims** (after the clock): each player in turn picks their ID card, or "NOT MET".

BACK steps back through a menu in several steps; UNDO takes back the last recorded action.

A simulation (the demo) names the cards drawn: its bots set ``dealer``, the simulated deck,
which turns each draw or ID deal the table records into the card drawn. At the real table
``dealer`` is None and draws name nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.buttons import BACK, END, MENU
from companion.i18n import _
from companion.session import Menu, Prompt, TitleTable, Update
from companion.titles.api import CHANCE, TERMINAL, Action, RuleError
from companion.titles.timeline import rules
from companion.titles.timeline.graph import B1
from companion.titles.timeline.model import TYPE_NAMES, TYPES

CHANCE_STEPS = ("draw", "deal_id")


class TimelineTable(TitleTable):
    def __init__(self, session):
        super().__init__(session)
        self.dealer: Callable[[Any], Action] | None = None  # a simulation's deck (see above)
        self._state: Any = None  # the state the half-made choices belong to
        self._chosen: list[tuple[str, Any]] = []  # ("type", "item"), ("card", "fax"), ...
        self._selected: list[int] = []  # the selection of each step chosen, for BACK
        self._kind = "menu"  # the prompt kind of the menu built last
        self._last: Menu | None = None  # the menu built last (the session forgets it on CONFIRM)

    # ------------------------------------------------------------------ half-made choices

    def reset(self) -> None:
        self._chosen, self._selected, self._state = [], [], None

    def _steps(self) -> list[tuple[str, Any]]:
        """The choices made so far for the decision open now (forgotten when it changes)."""
        if self._state is not self.match.state:
            self.reset()
            self._state = self.match.state
        return self._chosen

    def _choose(self, step: str, value: Any) -> Update:
        """One step of a menu in several steps is chosen: remember it, show the next."""
        self._steps().append((step, value))
        self._selected.append(self._last.selected if self._last is not None else 0)
        self.session.menu = None
        return self.session.update([])

    def _value(self, step: str) -> Any:
        return next((v for s, v in self._steps() if s == step), None)

    # ------------------------------------------------------------------ presses

    def press(self, name: str) -> Update | None:
        if self.match.actor() == TERMINAL or self.session.proposal is not None:
            return None
        step = self._head_step()
        if name == BACK and self._steps():
            self._chosen.pop()
            selected = self._selected.pop()
            self.session.menu = None
            menu = self.menu()
            if menu is not None and menu.labels:
                menu.selected = min(selected, len(menu.labels) - 1)
            return self.session.update([])
        if name == MENU and step == "respond" and not self._steps():
            # A long press while a card is pending: someone raises a Memo.
            self.session.menu = None
            return self._choose("raise", True)
        if name == MENU and step != "respond":
            # Not a CONFIRM: a player holding it to raise a Memo too early would otherwise
            # choose for the player whose menu is up.
            self.session.last_error = _("long CONFIRM raises a Memo only while a card is "
                                        "pending; CONFIRM chooses")
            return self.session.update([])
        if name == END and step == "play":
            # END TURN selects the second draw option; CONFIRM records it.
            current = self.session.menu
            if current is not None and current.labels and \
                    current.selected == len(current.labels) - 1 and not self._chosen:
                # pressed again: never silently nothing
                self.session.last_error = _("END TURN: DRAW INSTEAD is selected; CONFIRM "
                                            "draws instead of playing")
                return self.session.update([])
            self.reset()
            self.session.menu = None
            menu = self.menu()
            menu.selected = len(menu.labels) - 1
            return self.session.update([])
        return None

    # ------------------------------------------------------------------ recording

    def _record(self, actions: list[Action], chance: int = 0) -> Update:
        """Record ``actions``, then the ``chance`` draws or ID deals that follow them (what the
        player does with the cards at once). In a simulation the dealer names each one."""
        engine, state = self.match.engine, self.match.state
        out: list[Action] = []
        try:
            for action in actions:
                state, _effects = engine.apply(state, action)
                out.append(action)
            for _n in range(chance):
                if engine.actor(state) != CHANCE or rules._head(state)["step"] not in CHANCE_STEPS:
                    break
                action = self._chance(state)
                state, _effects = engine.apply(state, action)
                out.append(action)
        except RuleError as exc:
            if not out:
                return self.session.refuse(str(exc))
        self.reset()
        return self.session.push(out)

    def _chance(self, state: Any) -> Action:
        """The draw or ID deal due in ``state``: a count at the table, named in a simulation."""
        if self.dealer is not None:
            return self.dealer(state)
        return dict(self.match.engine.legal_actions(state)[0])

    def _chance_run(self, state: Any) -> int:
        """How many draws/ID deals are due in a row now (for one player, or the whole deal)."""
        agenda = state.agenda
        first = agenda[0]
        count = 0
        for step in agenda:
            if step["step"] not in CHANCE_STEPS:
                break
            if not first.get("deal") and step["player"] != first["player"]:
                break
            count += 1
        return count

    # ------------------------------------------------------------------ menus

    def _head_step(self) -> str | None:
        state = self.match.state
        if state.phase == "over" or not state.agenda:
            return None
        return state.agenda[0]["step"]

    def menu(self) -> Menu | None:
        """The menu of the decision open now (kept while the same decision is open)."""
        step = self._head_step()
        builders = {"draw": self._draw_menu, "deal_id": self._draw_menu,
                    "mulligan": self._mulligan_menu, "play": self._play_menu,
                    "target": self._target_menu, "respond": self._window_menu,
                    "use": self._use_menu, "reveal": self._reveal_menu,
                    "claim": self._claim_menu}
        builder = builders.get(step)
        if builder is None:
            return None
        self._kind = "menu"
        self._last = self.session.keep_menu(builder())
        return self._last

    def _menu(self, title: str, items: list[tuple[str, Any]], kind: str = "menu") -> Menu:
        self._kind = kind
        return Menu(title, [label for label, _a in items], [a for _l, a in items])

    def _draw_menu(self) -> Menu:
        state = self.match.state
        head = state.agenda[0]
        count = self._chance_run(state)
        if head.get("deal"):
            return self._menu(_("DEAL"), [(_("DEALT"), lambda: self._record([], count))], "deal")
        player = head["player"].upper()
        if head["step"] == "deal_id":
            title = _("{player}: TAKE AN ID CARD").format(player=player)
        else:
            title = _("{player}: DRAW {n}").format(player=player, n=count)
        return self._menu(title, [(_("DONE"), lambda: self._record([], count))], "draw")

    def _mulligan_menu(self) -> Menu:
        state = self.match.state
        undecided = [s["player"] for s in state.agenda if s["step"] == "mulligan"]
        items = [(_("ALL KEEP"), [{"type": "keep"}])]
        for name in undecided:
            items.append((self.label({"type": "mulligan", "player": name}),
                          lambda n=name: self._record([{"type": "mulligan", "player": n}], 1)))
        return self._menu(_("KEEP YOUR IDs?"), items)

    # -- a play: the type, the card, its target

    def _public(self) -> tuple[set[str], dict[str, Any]]:
        """Card copies the whole table can see somewhere (not in a hand or the draw pile),
        and the public view."""
        view = self.match.view()
        seen = set(view["discard"])
        for p in view["players"]:
            seen.update(i["card"] for i in p["items"])
        for entry in view["stack"]:
            seen.update(entry[k] for k in ("card", "pick") if entry.get(k))
        return seen, view

    def _may_hold(self) -> list[str]:
        """Card ids a player may hold, as far as the table knows: a copy is not seen elsewhere."""
        seen, _view = self._public()
        content = self.match.state.content
        out = []
        for cid, copies in content.copies.items():
            if any(c not in seen for c in copies):
                out.append(cid)
        return out

    def _play_menu(self) -> Menu:
        state = self.match.state
        player = self.match.actor()
        content = state.content
        cards = [c for c in self._may_hold() if c not in content.memo_cards]
        kind = self._value("type")
        card = self._value("card")
        if card is not None:
            return self._target_choice(player, {"type": "play", "player": player, "card": card})
        if kind is not None:
            names = sorted((content.cards[c]["name"], c) for c in cards
                           if content.cards[c]["type"] == kind)
            items = [(name, lambda c=c: self._pick_card(player, c)) for name, c in names]
            return self._menu(_("{type}?").format(type=_(TYPE_NAMES[kind]).upper()), items)
        types = [t for t in TYPES if any(content.cards[c]["type"] == t for c in cards)]
        items = [(_(TYPE_NAMES[t]), lambda t=t: self._choose("type", t)) for t in types]
        items.append((_("DRAW INSTEAD"), lambda: self._record(
            [{"type": "draw_instead", "player": player}], 1)))
        if state.plays > 1:
            title = _("{player}: PLAY ({n} TO GO)").format(player=player.upper(), n=state.plays)
        else:
            title = _("{player}: PLAY").format(player=player.upper())
        return self._menu(title, items)

    def _pick_card(self, player: str, card: str) -> Update:
        """A card is chosen: refused with the reason, played, or its target is asked next."""
        action = {"type": "play", "player": player, "card": card}
        try:
            after, _effects = self.match.engine.apply(self.match.state, action)
        except RuleError as exc:
            return self._refuse_here(str(exc))
        if rules._head(after)["step"] == "target":
            return self._choose("card", card)
        return self._record([action])

    def _refuse_here(self, message: str) -> Update:
        """Say why; the menu stays as it was (with the refused item still selected)."""
        self.session.menu = self._last
        return self.session.refuse(message)

    def _target_choice(self, player: str, play: Action) -> Menu:
        """The target of a card being chosen (before anything is recorded)."""
        engine = self.match.engine
        after, _effects = engine.apply(self.match.state, play)
        options = engine.legal_actions(after)
        card = self.match.state.content.entry[after.stack[-1]["card"]]
        items = []
        for option in options:
            target = {k: v for k, v in option.items() if k in ("event", "item", "pick")}
            items.append((self._target_label(option, after),
                          lambda t=target: self._record([{**play, **t}])))
        return self._menu(self._target_title(card), items,
                          "target" if any("event" in o for o in options) else "menu")

    def _target_title(self, card: dict[str, Any]) -> str:
        if rules._target_kind(card) == "event":
            return _("FLIP WHICH LINCHPIN?")
        if rules._target_kind(card) == "pick":
            return _("REPLAY WHICH CARD?")
        return _("TAKE WHICH ITEM?") if card.get("steal") else _("DISCARD WHICH ITEM?")

    def _target_label(self, action: Action, state: Any) -> str:
        if "event" in action:
            return self._event_label(action["event"], state)
        return rules.label(state, action)

    def _event_label(self, event: str, state: Any) -> str:
        if event == B1:
            return _("B-1: un-invent time travel")
        flips = rules.flip_preview(state, event)
        if len(flips) == 1:
            return event
        return _("{event} then {ripples}").format(event=event, ripples=", ".join(flips[1:]))

    def _target_menu(self) -> Menu:
        """The target of a card played by another card (a Rewind's pick)."""
        state = self.match.state
        actions = self.match.legal_actions()
        card = state.content.entry[state.stack[-1]["card"]]
        items = [(self._target_label(a, state), [a]) for a in actions]
        return self._menu(self._target_title(card), items,
                          "target" if any("event" in a for a in actions) else "menu")

    # -- the Memo window

    def _window_menu(self) -> Menu:
        state = self.match.state
        responders = list(state.agenda[0].get("responders", ()))
        who = self._value("who")
        if who is not None:
            return self._response_menu(who)
        people = [(name, lambda n=name: self._choose("who", n)) for name in responders]
        if self._value("raise"):
            if len(responders) == 1:
                return self._response_menu(responders[0])
            return self._menu(_("WHO PLAYS A MEMO?"), people)
        return self._menu(_("MEMO?"), [(_("NO MEMO"), [{"type": "pass"}]), *people], "window")

    def _response_menu(self, who: str) -> Menu:
        """What ``who`` plays against the pending card: a Memo, a Memo Item, an out-of-turn
        card."""
        state = self.match.state
        content = state.content
        choice = self._value("card")
        if choice is not None:
            return self._target_choice(who, {"type": "play", "player": who, "card": choice})
        may_hold = self._may_hold()
        top = state.stack[-1]
        items = []
        for cid in sorted(may_hold, key=lambda c: content.cards[c]["name"]):
            if cid in content.memo_cards:
                action = {"type": "memo", "player": who, "card": cid}
                items.append((content.cards[cid]["name"], lambda a=action: self._record([a])))
        for inst in state.find(who).items:
            if content.entry[inst].get("memo") and inst != top.get("item"):
                action = {"type": "memo", "player": who, "card": inst}
                items.append((_("{item} (in front)").format(item=content.name(inst)),
                              lambda a=action: self._record([a])))
        for cid in sorted(may_hold, key=lambda c: content.cards[c]["name"]):
            if cid in content.out_of_turn:
                items.append((_("PLAY {card}").format(card=content.cards[cid]["name"]),
                              lambda c=cid: self._pick_card(who, c)))
        if not items:
            items = [(_("(no Memo left)"), lambda: self._refuse_here(
                _("every Memo is in the discard pile or in play")))]
        return self._menu(_("{player}: WHICH?").format(player=who.upper()), items)

    # -- DoubleBack's second flip, B-1, claims

    def _use_menu(self) -> Menu:
        state = self.match.state
        actions = self.match.legal_actions()
        head = state.agenda[0]
        items = [(self._event_label(a["event"], state), [a]) for a in actions
                 if a["type"] == "use"]
        items.append((_("NO 2ND FLIP"), [a for a in actions if a["type"] == "skip"]))
        title = _("{player}: DISCARD {item} TO FLIP?").format(
            player=head["player"].upper(), item=state.content.name(head["item"]).upper())
        return self._menu(title, items, "target")

    def _reveal_menu(self) -> Menu:
        items = [(self.label(a), [a]) for a in self.match.legal_actions()]
        odds = rules.clock_odds(self.match.state)
        return self._menu(_("B-1 CARD? ({pct}% CLOCK)").format(pct=round(100 * odds)), items,
                          "reveal")

    def _claim_menu(self) -> Menu:
        """Every ID card not yet shown by another player (at the table nobody knows which
        are out), then NOT MET; the companion checks the ID picked against the TimeLine. A
        player who showed their ID at an earlier clock is offered that one: it is public."""
        state = self.match.state
        player = self.match.actor()
        me = state.find(player)
        if me.shown and me.identity:
            ids = [me.identity]
        else:
            shown = {p.identity for p in state.players
                     if p.shown and p.identity and p.name != player}
            ids = sorted((i for i in state.content.identities if i not in shown),
                         key=lambda i: state.content.identities[i]["character"])
        items = [(self.label({"type": "claim", "id": i}),
                  [{"type": "claim", "player": player, "id": i}]) for i in ids]
        items.append((_("NOT MET"), [{"type": "pass", "player": player}]))
        return self._menu(_("{player}: YOUR ID?").format(player=player.upper()), items, "claim")

    # ------------------------------------------------------------------ words

    def _pending_words(self) -> str:
        """The card a Memo would cancel, in a few words: "Time Train on A-2"."""
        state = self.match.state
        top = state.stack[-1]
        name = state.content.name(top["card"])
        if top["kind"] == "memo":
            return _("{player}'s Memo").format(player=top["player"])
        if top["kind"] == "use":
            return _("2nd flip on {event}").format(event=top["event"])
        if top.get("event"):
            return _("{card} on {event}").format(card=name, event=top["event"])
        return name

    def label(self, action: Action) -> str:
        """The words of the menu item that records ``action`` (its last step)."""
        state = self.match.state
        kind = action.get("type")
        content = state.content
        if kind == "mulligan":
            return _("{player}: NEW ID").format(player=str(action.get("player")).upper())
        if kind == "keep":
            return _("ALL KEEP")
        if kind == "reveal":
            return _("MYSTERIOUS FORCES") if action.get("card") == rules.DUD else _("THE CLOCK")
        if kind == "claim":
            ident = content.identities.get(str(action.get("id")), {})
            return ident.get("character", str(action.get("id")))
        if kind == "pass":
            return _("NOT MET") if self._head_step() == "claim" else _("NO MEMO")
        if kind == "draw_instead":
            return _("DRAW INSTEAD")
        if kind in ("draw", "deal_id"):
            return _("DEALT") if state.agenda and state.agenda[0].get("deal") else _("DONE")
        if kind == "skip":
            return _("NO 2ND FLIP")
        if kind in ("use", "target") and "event" in action:
            return self._event_label(action["event"], state)
        if kind == "memo":
            inst = self._instance(action.get("card"))
            if inst in {i for p in state.players for i in p.items}:
                return _("{item} (in front)").format(item=content.name(inst))
            return content.name(inst)
        if kind == "play":
            return content.name(self._instance(action.get("card")))
        return rules.label(state, action)

    def _instance(self, card: Any) -> str:
        content = self.match.state.content
        if card in content.entry:
            return card
        return content.copies[card][0]

    def path(self, action: Action) -> list[str]:
        """The menu items, in order, that record ``action`` (a decision of the actor now);
        the simulator's bots walk them like a player."""
        state = self.match.state
        content = state.content
        step = self._head_step()
        kind = action["type"]
        if step in CHANCE_STEPS or step == "reveal":
            return [self.label(action)]
        if kind == "play":
            card = content.entry[self._instance(action["card"])]
            target = [k for k in ("event", "item", "pick") if k in action]
            after = self.match.engine.apply(state, {k: v for k, v in action.items()
                                                    if k not in target})[0]
            tail = [self._target_label({**action, "type": "target"}, after)] if target else []
            if step == "respond":
                return [action["player"], _("PLAY {card}").format(card=card["name"]),
                        *tail]
            return [rules.type_word(card), card["name"], *tail]
        if kind == "memo":
            return [action["player"], self.label(action)]
        return [self.label(action)]

    def describe(self, action: Action) -> str:
        kind = action.get("type")
        who = action.get("player")
        if kind in CHANCE_STEPS:
            return _("a card dealt or drawn") if kind == "draw" else _("an ID card dealt")
        text = self.label(action)
        if not who or kind == "mulligan":  # the label names the player already
            return text
        return _("{player}: {action}").format(player=who, action=text)

    # ------------------------------------------------------------------ what to show

    def prompt(self) -> Prompt:
        menu = self.menu()
        if menu is None:
            return Prompt("message", _("WAITING"), [self.match.actor()])
        title, lines = menu.title, []
        # The title's own prompts carry their words; for "deal" and "draw" the lines are the
        # line above, the main line, then the lines below.
        state = self.match.state
        if self._kind == "deal":
            lines = ["", _("DEAL"), _("{n} cards and an ID card each").format(
                n=rules.HAND_SIZE), _("then CONFIRM")]
        elif self._kind == "draw":
            head = state.agenda[0]
            if head["step"] == "deal_id":
                main = _("TAKE AN ID")
            else:
                main = _("DRAW {n}").format(n=self._chance_run(state))
            lines = [head["player"].upper(), main, _("then CONFIRM")]
        elif self._kind == "window":
            lines = [self._pending_words()]
            if state.stack[-1].get("event") == B1:
                lines.append(_("clock: {pct}%").format(
                    pct=round(100 * rules.clock_odds(state))))
            lines.append(_("CONFIRM: none"))
        return Prompt(self._kind, title, lines, options=list(menu.labels),
                      selected=menu.selected)


TABLE = TimelineTable
