"""The era card game at the table: every decision is a short menu, in small steps.

The cards stay in the players' hands and nothing reads them, so the table never asks which
cards were drawn: a draw, Biff's card and a ripple card laid face down are counted, and a card
is named (picked from a menu) only when it comes face up: played, paid, given back, used for an
event. Long lists come in steps: first the era printed on the card, then its character, then
the card itself (its power P, clock icons T and VP, or its name). The engine offers only the
payments the hand may still finish; a play, a trip or an event the rules refuse is refused with
the engine's reason ("1955 needs 2 ripple cards: Ana has 1 other card").

BACK goes up one step of a menu; END TURN ends the turn when the rules allow; a long press of
BACK (UNDO) takes back the last recorded action. A payment the hand cannot finish after all
(an unseen card was weaker than it might have been) is taken back whole with "CAN'T PAY".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.buttons import BACK, END, UNDO
from companion.i18n import _
from companion.session import Menu, TitleTable, Update
from companion.titles.api import CHANCE, TERMINAL, Action, RuleError
from companion.titles.eras import rules

FLAT = 6  # lists longer than this come in steps (era, then character, then card)


@dataclass
class Item:
    """A menu line: a leaf records ``action`` (or runs ``then``), a branch opens ``items``."""

    label: str
    action: Action | None = None
    items: list[Item] | None = None
    title: str = ""  # the title of the branch's menu
    then: Callable[[], Update] | None = None
    start: int = 0  # the line selected first in the branch's menu

    def holds(self, action: Action) -> bool:
        """Does choosing this line lead to ``action``?"""
        if self.items is not None:
            return any(item.holds(action) for item in self.items)
        return self.action == action


@dataclass
class Tree:
    title: str
    items: list[Item] = field(default_factory=list)
    start: int = 0


def card_words(state: rules.State, card: str) -> str:
    """A card as its owner finds it among others of its era and role."""
    return rules.face_words(rules.face(state, card))


def era_words(era: str) -> str:
    return _("ANY ERA") if era == rules.ANY else era


def card_line(state: rules.State, card: str) -> str:
    """A card in a list that mixes eras and characters."""
    return rules.face_line(rules.face(state, card))


class ErasTable(TitleTable):
    END_ACTION = {"type": "end"}  # a refused END TURN says the rules' reason

    def __init__(self, session):
        super().__init__(session)
        self._seen: Any = None  # the state the path below belongs to
        self._path: list[int] = []  # the lines chosen so far in a menu in steps
        self._selected: dict[tuple[int, ...], int] = {}  # the line selected, per step

    def reset(self) -> None:
        self._seen = None
        self._path = []
        self._selected = {}

    def _fresh(self) -> None:
        """A new decision (something was recorded or undone): start at the top of its menu."""
        if self._seen is not self.match.state:
            self.reset()
            self._seen = self.match.state

    # ------------------------------------------------------------------ presses

    def press(self, name: str) -> Update | None:
        if self.match.actor() == TERMINAL:
            return None
        self._fresh()
        if name == BACK and self._path:
            self._path.pop()
            self.session.menu = None
            return self.session.update([])
        if name == END and {"type": "end"} in self.match.legal_actions():
            return self._record({"type": "end"})
        return None

    # ------------------------------------------------------------------ menus

    def menu(self) -> Menu | None:
        if self.match.actor() == TERMINAL:
            return None
        self._fresh()
        tree = self.tree()
        title, items, start = tree.title, tree.items, tree.start
        level: list[int] = []
        for index in self._path:
            if not 0 <= index < len(items) or items[index].items is None:
                self._path = level  # the menu changed under the path: stop where it holds
                break
            node = items[index]
            title, items, start = node.title or node.label, node.items, node.start
            level.append(index)
        if not items:
            return None
        where = tuple(self._path)
        menu = Menu(title, [item.label for item in items], [])
        menu.actions = [lambda i=i, items=items, where=where: self._pick(items, i, where)
                        for i in range(len(items))]
        menu.selected = min(self._selected.get(where, start), len(items) - 1)
        return self.session.keep_menu(menu)

    def _pick(self, items: list[Item], index: int, where: tuple[int, ...]) -> Update:
        self._selected[where] = index
        item = items[index]
        if item.items is not None:
            self._path = list(where) + [index]
            return self.session.update([])
        if item.then is not None:
            return item.then()
        return self._record(item.action)

    def _record(self, action: Action) -> Update:
        """Record ``action``, or say why the rules refuse it (nothing is recorded then)."""
        try:
            self.match.engine.apply(self.match.state, action)
        except RuleError as exc:
            return self.session.refuse(str(exc))
        return self.session.push([action])

    def route(self, action: Action) -> int | None:
        """The line of the menu now up that leads to ``action`` (None: none does)."""
        menu = self.menu()
        if menu is None:
            return None
        items = self.tree().items
        for index in self._path:
            items = items[index].items
        return next((i for i, item in enumerate(items) if item.holds(action)), None)

    def label(self, action: Action) -> str:
        try:
            return rules.label(self.match.state, action)
        except (KeyError, IndexError, TypeError, RuleError):
            return str(action.get("type", "?")).upper()

    describe = label

    # ------------------------------------------------------------------ the decision now

    def tree(self) -> Tree:
        """Every line of the menu for the decision due now, in steps."""
        state = self.match.state
        actor = self.match.actor()
        if actor == CHANCE:
            return self._chance(state)
        if state.pending:
            return self._step(state, state.pending[0])
        if state.phase == "roles":
            who = actor.upper()
            return Tree(_("{player}: ROLE?").format(player=who),
                        [Item(rules.role_name(a["role"]), a) for a in rules.legal_actions(state)])
        return self._turn(state)

    def _chance(self, state: rules.State) -> Tree:
        step = state.pending[0]
        kind = step["step"]
        if kind == "reveal":
            era = step["era"]
            items = [Item(_("{event} ({role})").format(
                event=rules.event_name(state, e), role=rules.role_name(state.events[e]["role"])),
                {"type": "reveal", "era": era, "event": e}) for e in state.hidden[era]]
            return Tree(_("NEW {era} EVENT?").format(era=era), items)
        if kind == "stolen":
            action = {"type": "stolen", "from": step["from"]}
            return Tree(_("{player}: TAKE 1 CARD").format(player=step["player"].upper()),
                        [Item(_("TAKEN FROM {victim}").format(victim=step["from"]), action)])
        player = step["player"]
        action = {"type": "deal" if step["why"] == "deal" else "draw", "player": player}
        if step["why"] == "ripple":
            return Tree(_("{player}: {n} RIPPLE FROM DECK").format(
                player=player.upper(), n=step["count"]), [Item(_("LAID FACE DOWN"), action)])
        title = _("DEAL {n} TO {player}") if step["why"] == "deal" else _(
            "{player}: DRAW {n}")
        return Tree(title.format(player=player.upper(), n=step["count"]),
                    [Item(_("DONE") if step["why"] == "deal" else _("CARDS DRAWN"), action)])

    def _turn(self, state: rules.State) -> Tree:
        p = state.current
        legal = rules.legal_actions(state)
        title = _("{player} - {era}").format(player=p.name.upper(), era=state.delorean)
        # after a clock tower token no card or event may follow (a public fact): not offered
        clock_taken = bool(state.turn["clock"])
        items = [] if clock_taken else [
            Item(_("PLAY A CARD"), items=self._play_eras(state, p), title=_("PLAY INTO?"),
                 start=rules.ERAS.index(state.delorean))]
        events = [Item(_("{era}: {event} ({role})").format(
            era=era, event=rules.event_name(state, e),
            role=rules.role_name(state.events[e]["role"])), {"type": "complete", "event": e})
            for era, e in state.top.items() if e]
        if events and not clock_taken:
            items.append(Item(_("COMPLETE AN EVENT"), items=events,
                              title=_("WHICH EVENT?")))
        free = p.role == "doc" and not state.turn["doc"]
        cost = _("free") if free else _("3 power")
        moves = [Item(_("TO {era} ({cost})").format(era=era, cost=cost),
                      {"type": "move", "to": era}) for era in rules.ERAS if era != state.delorean]
        items.append(Item(_("MOVE THE DELOREAN"), items=moves, title=_("DELOREAN TO?")))
        shifts = [a for a in legal if a["type"] == "shift"]
        if shifts:
            items.append(Item(_("LORRAINE: MOVE A CARD"), items=self._shifts(state, p, shifts),
                              title=_("MOVE WHICH?")))
        if {"type": "clock"} in legal:
            items.append(Item(_("TAKE A CLOCK TOKEN"), {"type": "clock"}))
        items.append(Item(_("END TURN"), {"type": "end"}))
        items.append(Item(_("SCORES"), items=self._scores(state), title=_("SCORES")))
        return Tree(title, items)

    def _play_eras(self, state: rules.State, p: rules.Player) -> list[Item]:
        """Play: the era first (all three, so a refusal can say why), then the card."""
        mine = [c for c in rules.may_hold(state, p)
                if p.role == "jennifer" or state.cards[c]["role"] == p.role]
        out = []
        for era in rules.ERAS:
            here = era == state.delorean
            cards = [c for c in mine if state.cards[c]["era"] == rules.ANY
                     or (here and state.cards[c]["era"] == era)]
            label = _("{era} (DeLorean)").format(era=era) if here else era
            if not cards:
                out.append(Item(label, then=lambda era=era, here=here: self.session.refuse(
                    self._no_play(state, p, era, here))))
                continue
            out.append(Item(label, items=self._cards(
                state, cards, lambda c, era=era: {"type": "play", "card": c, "era": era}),
                title=_("PLAY INTO {era}").format(era=era)))
        return out

    @staticmethod
    def _no_play(state: rules.State, p: rules.Player, era: str, here: bool) -> str:
        if not here:
            return rules.delorean_elsewhere(state, era)
        who = _("any character") if p.role == "jennifer" else rules.role_name(p.role)
        return _("{player} cannot hold a {era} card of {role}: every one is on the table "
                 "or in the discard pile").format(player=p.name, era=era, role=who)

    def _cards(self, state: rules.State, cards: list[str], make: Callable[[str], Action],
               then: Callable[[str], Callable[[], Update]] | None = None) -> list[Item]:
        """Cards as menu lines, in steps when there are many: printed era, character, card."""
        def leaf(card: str, words: str) -> Item:
            if then is not None:
                return Item(words, make(card), then=then(card))
            return Item(words, make(card))

        if len(cards) <= FLAT:
            eras = {state.cards[c]["era"] for c in cards}
            roles = {state.cards[c]["role"] for c in cards}
            if len(eras) == 1 and len(roles) == 1:
                mark = _("any") + " " if eras == {rules.ANY} else ""  # the infinity mark
                return [leaf(c, mark + card_words(state, c)) for c in cards]
            return [leaf(c, card_line(state, c)) for c in cards]
        out = []
        for era in (*rules.ERAS, rules.ANY):
            group = [c for c in cards if state.cards[c]["era"] == era]
            if not group:
                continue
            if len(group) > FLAT:
                roles = []
                for role in rules.ROLES:
                    mine = [c for c in group if state.cards[c]["role"] == role]
                    if mine:
                        roles.append(Item(_("{role} ({n})").format(
                            role=rules.role_name(role), n=len(mine)),
                            items=[leaf(c, card_words(state, c)) for c in mine],
                            title=_("{role} {era}?").format(
                                era=era_words(era), role=rules.role_name(role).upper())))
                out.append(Item(_("{era} ({n})").format(era=era_words(era), n=len(group)),
                                items=roles, title=_("{era}: WHOSE?").format(
                                    era=era_words(era))))
            else:
                out.append(Item(_("{era} ({n})").format(era=era_words(era), n=len(group)),
                                items=[leaf(c, f"{rules.role_name(state.cards[c]['role'])} "
                                              f"{card_words(state, c)}") for c in group],
                                title=_("{era}: WHICH?").format(era=era_words(era))))
        return out

    def _shifts(self, state: rules.State, p: rules.Player, shifts: list[Action]) -> list[Item]:
        out = []
        for era in rules.ERAS:
            for card in p.board[era]:
                moves = [Item(_("TO {era}").format(era=a["to"]), a) for a in shifts
                         if a["card"] == card]
                out.append(Item(f"{era}: {card_line(state, card)}", items=moves,
                                title=_("MOVE IT TO?")))
        return out

    def _scores(self, state: rules.State) -> list[Item]:
        view = rules.view(state)
        back = self._up
        return [Item(_("{player} {total} VP").format(player=row["name"],
                                                     total=row["score"]["total"]), then=back)
                for row in view["players"]]

    def _up(self) -> Update:
        if self._path:
            self._path.pop()
        return self.session.update([])

    # ------------------------------------------------------------------ steps of a decision

    def _step(self, state: rules.State, step: dict[str, Any]) -> Tree:
        kind = step["step"]
        who = step["player"].upper()
        p = state.player(step["player"])
        legal = rules.legal_actions(state)
        if kind == "pay":
            unit = _("POWER") if step["unit"] == "power" else _("TIME")
            title = _("{player}: PAY {due} {unit}").format(player=who, due=step["due"], unit=unit)
            special = []
            cards = []
            for action in legal:
                if action["with"] == "clock":
                    value = rules.CLOCK_POWER if step["unit"] == "power" else rules.CLOCK_TIME
                    special.append(Item(_("CLOCK TOKEN ({value})").format(value=value), action))
                elif action["with"] == "free":
                    special.append(Item(_("FREE (MARTY)"), action))
                else:
                    cards.append(action["with"])
            items = special + self._cards(state, cards, lambda c: {"type": "pay", "with": c})
            items.append(Item(_("CAN'T PAY: TAKE BACK"), then=self._take_back))
            return Tree(title, items)
        if kind == "ripple":
            title = _("{player}: RIPPLE {n}/{low}").format(
                player=who, n=step["paid"] + 1, low=step["low"])
            if step["paid"] >= step["low"]:
                title = _("{player}: 1 MORE RIPPLE?").format(player=who)
            items = [Item(rules.label(state, a), a) for a in legal if a["type"] == "pass"]
            items += [Item(_("1 CARD FACE DOWN"), a) for a in legal
                      if a["type"] == "ripple" and "card" not in a]
            named = [a["card"] for a in legal if a.get("card")]
            items += self._cards(state, named, lambda c: {"type": "ripple", "card": c})
            return Tree(title, items)
        if kind == "use":
            return Tree(_("{player}: EVENT USES?").format(player=who),
                        [Item(card_line(state, a["card"]), a) for a in legal])
        if kind == "keep":
            if step["drawn"]:
                return Tree(_("{player}: KEEP WHICH?").format(player=who),
                            [Item(rules.label(state, a), a) for a in legal])
            cards = [a["discard"][0] for a in legal if len(a["discard"]) == 1]
            return Tree(_("{player}: GIVE BACK?").format(player=who),
                        self._cards(state, cards, lambda c: {"type": "keep", "discard": [c]}))
        if kind == "george":
            cards = [a["card"] for a in legal if a["type"] == "discard"]
            items = [Item(_("KEEP HAND"), {"type": "pass"}),
                     Item(_("SWAP A CARD"), items=self._cards(
                         state, cards, lambda c: {"type": "discard", "card": c}),
                         title=_("{player}: DISCARD?").format(player=who))]
            return Tree(_("{player}: SWAP?").format(player=who), items)
        if kind == "steal":
            return Tree(_("{player}: ROB WHOM?").format(player=who),
                        [Item(_("{player} ({n} cards)").format(
                            player=a["from"], n=rules.held(state.player(a["from"]))), a)
                         for a in legal])
        if kind == "extra":
            return Tree(_("{player}: DRAW 1 MORE?").format(player=who),
                        [Item(rules.label(state, a), a) for a in legal])
        if kind == "tally":
            title = _("{player}: RIPPLE VP?").format(player=who)
            pool = [state.cards[c]["vp"] for c in state.pool] or [0]
            guess = round(p.ripple_unseen * sum(pool) / len(pool))  # start near the likely sum
            start = max(0, min(len(legal) - 1, guess - legal[0]["vp"]))
            return Tree(title, [Item(rules.label(state, a), a) for a in legal], start)
        return Tree(who, [Item(self.label(a), a) for a in legal])  # pragma: no cover

    def _take_back(self) -> Update:
        """Undo the payment made so far and the play or trip it was for (UNDO, repeated)."""
        undone: list[Action] = []
        while self.match.state.pending and self.match.state.pending[0]["step"] == "pay":
            update = self.session.press(UNDO)
            if update.undone is None or self.session.match is None:
                return update  # nothing left to undo, or the journal needs a decision
            undone.append(update.undone)
            if update.undone["type"] in ("move", "play"):
                break
        text = _("TAKEN BACK: {action}, and the cards paid").format(
            action=self.label(undone[-1]) if undone else "-")
        return self.session.update([{"kind": "undo", "text": text}])


TABLE = ErasTable
